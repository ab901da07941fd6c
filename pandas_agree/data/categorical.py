"""The pandas edge of the categorical coefficients: coding, category domains, coder choice.

Shared by :mod:`pandas_agree.kappa.coefficients`, :mod:`pandas_agree.kappa.multi_coder`,
:mod:`pandas_agree.kappa.marginals` and :mod:`pandas_agree.kappa.categories`.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from .._core.agreement import contingency, paired_codes
from ..errors import (
    DegenerateDataWarning,
    InvalidParameterError,
    NoPairableUnitsError,
    user_stacklevel,
)
from .prepare import CodedData, OnDuplicate, has_rank_order, prepare

__all__ = [
    "CodedCategories",
    "check_known",
    "coder_positions",
    "order_known",
    "prepare_categorical",
    "rated_coders",
    "two_coder_table",
    "two_coders",
    "warn_if",
]


def order_known(
    data: pd.DataFrame, value: Hashable, categories: Sequence[Hashable] | None, domain: pd.Index
) -> bool:
    """Whether the order of ``domain`` (the categories of ``data[value]``) is a rank order.

    The rule is :func:`pandas_agree.data.prepare.has_rank_order` (explicit ``categories``,
    an ordered Categorical, or values ranked by value such as numbers; never text), the
    same rule ordinal alpha uses.
    """
    column = data[value] if value in getattr(data, "columns", ()) else None
    dtype = column.dtype if column is not None and not isinstance(column, pd.DataFrame) else None
    return has_rank_order(domain, explicit=categories is not None, dtype=dtype)


class CodedCategories(NamedTuple):
    """Long data coded for a categorical coefficient (:func:`prepare_categorical`)."""

    #: The coded ratings.
    coded: CodedData
    #: The full category domain, in weight order.
    domain: pd.Index
    #: Each rating's code into ``domain``.
    codes: np.ndarray
    #: Whether the order of ``domain`` is a rank order (:func:`order_known`).
    ordered: bool


def prepare_categorical(
    data: pd.DataFrame,
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
    categories: Sequence[Hashable] | None,
    on_duplicate: OnDuplicate,
) -> CodedCategories:
    """Coded data, the full category domain, each rating's code into it, and its order.

    The domain is ``categories`` when given (categories nobody used included), else a
    categorical column's categories, else every value in the column.
    """
    given = categories
    if categories is None and value in getattr(data, "columns", ()):
        dtype = data[value].dtype
        if isinstance(dtype, pd.CategoricalDtype):
            categories = list(dtype.categories)
    coded = prepare(
        data, unit=unit, coder=coder, value=value, on_duplicate=on_duplicate, categories=categories
    )
    if categories is None:
        domain, codes = coded.values, coded.value_codes
    else:
        domain = pd.Index(categories)
        if coded.is_set:
            domain = pd.Index([frozenset(c) for c in categories], dtype=object)
        codes = domain.get_indexer(coded.values)[coded.value_codes].astype(np.intp)
    return CodedCategories(coded, domain, codes, order_known(data, value, given, domain))


def rated_coders(coded: CodedData) -> list[Hashable]:
    present = np.zeros(len(coded.coders), dtype=bool)
    present[coded.coder_codes] = True
    return list(coded.coders[present])


def check_known(coders: list[Hashable], known: list[Hashable]) -> None:
    unknown = [c for c in coders if c not in known]
    if unknown:
        raise InvalidParameterError(
            f"`coders` names coder(s) not in the data: {unknown}; the coders with ratings are "
            f"{known}"
        )


def coder_positions(coded: CodedData, coders: Sequence[Hashable]) -> list[int]:
    if isinstance(coders, (str, bytes)) or not hasattr(coders, "__iter__"):
        raise InvalidParameterError(f"`coders` must be a list of coder labels, got {coders!r}")
    coders = list(coders)
    check_known(coders, rated_coders(coded))
    if len(set(coders)) != len(coders):
        raise InvalidParameterError(f"`coders` must not repeat a coder, got {coders}")
    return [int(coded.coders.get_loc(c)) for c in coders]


def two_coders(coded: CodedData, coders: Sequence[Hashable] | None, func: str) -> list[int]:
    if coders is not None:
        pos = coder_positions(coded, coders)
        if len(pos) != 2:
            raise InvalidParameterError(
                f"`coders` must name exactly two coders for {func}, got {list(coders)}"
            )
        return pos
    known = rated_coders(coded)
    if len(known) > 2:
        raise InvalidParameterError(
            f"{func} compares two coders, but the data have {len(known)}: {known[:10]}. Pass "
            f"coders=[{known[0]!r}, {known[1]!r}] to pick two, use fleiss_kappa() (or alpha(), "
            "gwet_ac1()) for all of them, or pairwise(data, metric='kappa') for every pair"
        )
    if len(known) < 2:
        raise InvalidParameterError(
            f"{func} compares two coders, but the data have {len(known)}: {known}"
        )
    return [int(coded.coders.get_loc(c)) for c in known]


def warn_if(reason: str | None, name: str) -> None:
    if reason is not None:
        warnings.warn(
            f"{name} is NaN: {reason}", DegenerateDataWarning, stacklevel=user_stacklevel()
        )


def two_coder_table(
    coded: CodedData, domain: pd.Index, codes: np.ndarray, a: int, b: int, prefix: str = ""
) -> tuple[np.ndarray, np.ndarray, pd.DataFrame]:
    """The contingency table of coders ``a`` and ``b`` on the units both rated.

    Returns ``(ca, cb, frame)``: the paired category codes and the labelled table (rows: the
    first coder). Raises :class:`~pandas_agree.errors.NoPairableUnitsError` (message starting
    with ``prefix``) when the two coders share no unit.
    """
    ca, cb, _ = paired_codes(coded.unit_codes, coded.coder_codes, codes, len(coded.units), a, b)
    if ca.size == 0:
        raise NoPairableUnitsError(
            f"{prefix}coders {coded.coders[a]!r} and {coded.coders[b]!r} rated no unit in "
            "common, so there is nothing to compare"
        )
    labels = domain.rename("value")
    table = contingency(ca, cb, len(domain))
    frame = pd.DataFrame(table.astype(np.int64), index=labels, columns=labels.copy())
    frame.index.name, frame.columns.name = coded.coders[a], coded.coders[b]
    return ca, cb, frame
