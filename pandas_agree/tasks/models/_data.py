"""Long data to a units x coders table of value codes, for the model-annotator functions.

A value is *missing* when it is NaN, None or ``pd.NA`` (a missing annotation: the row says
nothing). A set-valued cell (set, frozenset, list, tuple, numpy array) is a frozenset. Each
(unit, coder) pair may have one non-missing value; a second raises
:class:`~pandas_agree.errors.DuplicateRatingError`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from ...data.prepare import check_columns, check_distinct
from ...errors import (
    DuplicateRatingError,
    InvalidParameterError,
    MissingInSetError,
    ValueTypeError,
)

__all__ = ["Wide", "wide"]

Form = Literal["labels", "numbers", "sets"]
_SET_CELLS = (set, frozenset, list, tuple, np.ndarray)


@dataclass(frozen=True, repr=False)
class Wide:
    """Annotations as a units x coders table of codes.

    Attributes
    ----------
    units, coders : pandas.Index
        Labels of the units and coders with at least one non-missing value.
    codes : ndarray of int64, shape (n_units, n_coders)
        Index into ``values``; -1 where the coder left the unit without a value.
    values : ndarray of object
        The distinct values (frozensets for set cells); for ``form="numbers"`` floats.
    group : ndarray of intp or None
        The group (``by``) of each unit, an index into ``groups``.
    groups : pandas.Index or None
    is_set : bool
        Whether the values are sets.
    """

    units: pd.Index
    coders: pd.Index
    codes: np.ndarray
    values: np.ndarray
    group: np.ndarray | None
    groups: pd.Index | None
    is_set: bool

    def present(self, positions: Sequence[int] | np.ndarray) -> np.ndarray:
        """Which units each of the coders at ``positions`` annotated (units x len(positions))."""
        return self.codes[:, np.asarray(positions, dtype=np.intp)] >= 0


def _check_columns(data: Any, columns: dict[str, Hashable]) -> None:
    """The checks of :func:`~pandas_agree.data.prepare.check_columns`, and every named column
    (``by``, a run column) distinct from the others, not only unit, coder and value."""
    check_columns(data, **columns)
    check_distinct(columns, "they must be different columns")


def _labels(series: pd.Series, param: str) -> tuple[np.ndarray, pd.Index]:
    try:
        codes, uniques = pd.factorize(series, sort=False)
    except TypeError as exc:
        raise ValueTypeError(
            f"`{param}` column {series.name!r} has unhashable labels: {exc}"
        ) from None
    if (codes < 0).any():
        at = int(np.argmax(codes < 0))
        raise InvalidParameterError(
            f"`{param}` column {series.name!r} has a missing label (row {series.index[at]!r}); "
            f"every annotation needs a {param}"
        )
    return codes, pd.Index(uniques)


def _as_frozenset(cell: Any, column: Hashable, unit: Any, coder: Any) -> frozenset:
    items = list(cell.tolist() if isinstance(cell, np.ndarray) else cell)
    for x in items:
        if x is None or (isinstance(x, float) and np.isnan(x)) or x is pd.NA:
            raise MissingInSetError(
                f"`value` column {column!r} holds a set with a missing element at unit {unit!r}, "
                f"coder {coder!r}: {cell!r}; a set cannot hold a missing label"
            )
    return frozenset(items)


def _value_codes(
    raw: pd.Series, form: Form, unit_of: Any, coder_of: Any
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Codes of the non-missing values of ``raw`` and the distinct values they index."""
    column = raw.name
    if form == "numbers":
        if (
            pd.api.types.is_bool_dtype(raw.dtype)
            or not (
                pd.api.types.is_numeric_dtype(raw.dtype)
                or pd.api.types.infer_dtype(raw, skipna=True)
                in ("integer", "floating", "mixed-integer-float", "decimal")
            )
            or pd.api.types.is_complex_dtype(raw.dtype)
        ):
            sample = list(raw.iloc[:3])
            raise ValueTypeError(
                f"`similarity` 'neg_rmse' needs numbers, but the `value` column {column!r} "
                f"holds {sample} (dtype {raw.dtype}); use similarity='accuracy' for labels or a "
                "set distance for sets"
            )
        x = raw.to_numpy(dtype=float)
        if not np.isfinite(x).all():
            raise ValueTypeError(
                f"`similarity` 'neg_rmse' needs finite numbers, got {x[~np.isfinite(x)][:3]}"
            )
        codes, uniques = pd.factorize(x)
        return codes.astype(np.int64), np.asarray(uniques, dtype=float), False
    try:
        codes, uniques = pd.factorize(raw, sort=False)
        cells = None
    except TypeError:  # unhashable cells: lists, sets, arrays
        cells = raw.to_numpy(dtype=object)
    if cells is None:
        uniques = np.asarray(uniques, dtype=object)
        set_like = np.fromiter((isinstance(u, _SET_CELLS) for u in uniques), bool, len(uniques))
        if not set_like.any():
            if form == "sets":
                raise ValueTypeError(
                    f"a set `similarity` needs set-valued cells (set, frozenset, list, tuple), "
                    f"but the `value` column {column!r} holds scalars such as "
                    f"{list(uniques[:3])}; for one label per cell use similarity='accuracy', or "
                    "make one-element sets with data[value].map(lambda v: frozenset([v]))"
                )
            _refuse_fractions(raw, uniques, column)
            return codes.astype(np.int64), uniques, False
        first = int(np.argmax(codes == int(np.argmax(set_like))))
        cells_u = [
            _as_frozenset(u, column, unit_of(first), coder_of(first)) if s else u
            for u, s in zip(uniques, set_like)
        ]
        if not set_like.all():
            _refuse_mixed(cells_u, set_like, column)
        merged, distinct = pd.factorize(pd.Series(cells_u, dtype=object))
        return merged[codes].astype(np.int64), np.asarray(distinct, dtype=object), True
    is_set = np.fromiter((isinstance(c, _SET_CELLS) for c in cells), bool, len(cells))
    if not is_set.all():
        _refuse_mixed(list(cells), is_set, column)
    sets = pd.Series(
        [_as_frozenset(c, column, unit_of(i), coder_of(i)) for i, c in enumerate(cells)],
        dtype=object,
    )
    codes, uniques = pd.factorize(sets)
    return codes.astype(np.int64), np.asarray(uniques, dtype=object), True


def _refuse_mixed(cells: list, is_set: np.ndarray, column: Hashable) -> None:
    scalar = cells[int(np.argmin(is_set))]
    raise ValueTypeError(
        f"the `value` column {column!r} mixes sets and scalars (for example {scalar!r}); "
        "make every cell a set (a scalar v as frozenset([v])) or every cell a label"
    )


def _refuse_fractions(raw: pd.Series, uniques: np.ndarray, column: Hashable) -> None:
    """Labels must not be non-integer floats (equality of measurements is not agreement)."""
    floats = [
        u for u in uniques if isinstance(u, (float, np.floating)) and not float(u).is_integer()
    ]
    if floats:
        raise ValueTypeError(
            f"`similarity` 'accuracy' compares labels for equality, but the `value` column "
            f"{column!r} holds non-integer numbers such as {floats[:3]}; use "
            "similarity='neg_rmse' for numbers"
        )


def wide(
    data: pd.DataFrame,
    *,
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
    form: Form,
    by: Hashable | None = None,
    extra: dict[str, Hashable] | None = None,
) -> Wide:
    """Validate long data and lay it out as units x coders codes. Never modifies ``data``.

    ``form`` says what the values must be: ``"labels"`` (hashable scalars, or sets compared
    as wholes; non-integer floats raise), ``"numbers"`` (finite numbers) or ``"sets"``
    (set-valued cells only). ``by`` names a column constant within each unit (a domain).
    ``extra`` names further columns that must exist (checked with the others).
    """
    columns: dict[str, Hashable] = {"unit": unit, "coder": coder, "value": value}
    if by is not None:
        columns["by"] = by
    columns.update(extra or {})
    _check_columns(data, columns)
    raw = data[value]
    keep = ~raw.isna().to_numpy() if raw.dtype != object else ~pd.isna(raw.to_numpy(dtype=object))
    rows = np.flatnonzero(keep)
    frame_units = data[unit].iloc[rows]
    frame_coders = data[coder].iloc[rows]
    unit_codes, units = _labels(frame_units, "unit")
    coder_codes, coders = _labels(frame_coders, "coder")
    key = unit_codes.astype(np.int64) * len(coders) + coder_codes
    counts = np.bincount(key, minlength=len(units) * len(coders))
    if (counts > 1).any():
        dup = np.flatnonzero(counts > 1)
        pairs = [(units[k // len(coders)], coders[k % len(coders)]) for k in dup[:5]]
        shown = ", ".join(f"({u!r}, {c!r})" for u, c in pairs)
        more = f" and {dup.size - 5} more" if dup.size > 5 else ""
        raise DuplicateRatingError(
            f"{dup.size} (unit, coder) pair(s) have more than one value: {shown}{more}; each "
            "coder gives one value per unit (repeated runs of a model belong in "
            "self_consistency(..., run=<column>))"
        )
    value_codes, values, is_set = _value_codes(
        raw.iloc[rows].reset_index(drop=True),
        form,
        lambda i: units[unit_codes[i]],
        lambda i: coders[coder_codes[i]],
    )
    codes = np.full((len(units), len(coders)), -1, dtype=np.int64)
    codes[unit_codes, coder_codes] = value_codes
    group = groups = None
    if by is not None:
        g_codes, groups = _labels(data[by].iloc[rows], "by")
        group = np.full(len(units), -1, dtype=np.intp)
        group[unit_codes] = g_codes
        if (group[unit_codes] != g_codes).any():
            bad = units[unit_codes[np.argmax(group[unit_codes] != g_codes)]]
            raise InvalidParameterError(
                f"`by` column {by!r} must be constant within a unit; unit {bad!r} is in several "
                "groups (give units of different groups different ids)"
            )
    return Wide(units, coders, codes, values, group, groups, is_set)
