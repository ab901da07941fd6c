"""The count table of :mod:`pandas_agree.frontends.dask` in memory: codes, groups, coders, alpha.

The (unit, value) -> count table collected by :func:`pandas_agree.frontends.dask.chunks.collect`
becomes the value domain, :class:`~pandas_agree._core.counts.UnitValueCounts`, the group of
each unit and the coders with a pairable value, as the pandas path builds them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..._core.count_table import cell_counts, coders_by_group, pairable_coders, unit_coder_masks
from ..._core.counts import UnitValueCounts
from ..._core.kernels import Kernel
from ...data.prepare import CodedData, value_domain
from ...data.sets import check_sep, text_sets
from ...errors import InvalidParameterError, MixedValueTypesError, ValueTypeError
from ...krippendorff.alpha import alpha_result, no_pairable_error
from ...krippendorff.distances import Distance
from ...krippendorff.report import POOLED
from ...results import AlphaResult
from .chunks import (
    CODER,
    SET_REPR,
    Collected,
    check_frame,
    check_on_duplicate,
    collect,
    raise_duplicates,
    raise_on_labels,
)

__all__ = [
    "Table",
    "cell_values",
    "check_stringified",
    "coders_from_totals",
    "count_table",
    "group_index",
    "group_labels",
    "prepare_table",
    "table_alpha",
]

# ---------------------------------------------------------------------------------------------
# In memory: the count table to codes


@dataclass
class Table:
    counts: UnitValueCounts
    coded: CodedData  # value domain and cell codes (for make_kernel), units and coders
    group_of_unit: np.ndarray
    labels: pd.Index
    n_coders_group: np.ndarray
    n_coders: int
    n_ratings: int
    has_duplicates: bool


def _json_list(text: str) -> bool:
    import json

    try:
        return isinstance(json.loads(text), list)
    except ValueError:
        return False


def check_stringified(domain: pd.Index, value: Hashable, value_dtype: Any, is_set_dist: bool):
    if not isinstance(value_dtype, pd.StringDtype) or len(domain) == 0:
        return
    sample = [str(x) for x in domain[:1000]]
    # JSON lists ('["a"]', "[1, 2]", "[]") are sets written as text, read by text_sets
    looks = [bool(SET_REPR.match(s)) and not _json_list(s) for s in sample]
    if any(s.startswith(("frozenset(", "set(")) for s in sample) or (is_set_dist and all(looks)):
        shown = [s for s, ok in zip(sample, looks) if ok][:3]
        raise ValueTypeError(
            f"`value` column {value!r} holds strings that look like sets ({shown}): dask's "
            "string conversion turned a column of Python sets or lists into text. Build the "
            "dask frame under dask.config.set({'dataframe.convert-string': False}), or read "
            "the sets from a Parquet list column"
        )


def cell_values(
    col: Collected, values: pd.Index, value: Hashable, scalars_as_sets: bool
) -> tuple[Any, bool]:
    """The values of the cells as ``value_domain`` takes them, and whether they are sets."""
    if col.how.categories is not None:
        cat = pd.Categorical.from_codes(
            np.asarray(values, dtype=np.int64), col.how.categories, ordered=col.ordered_categories
        )
        return pd.Series(cat), False
    if values.dtype != object:
        return values.to_numpy(), False
    arr = values.to_numpy(dtype=object)
    is_fs = np.fromiter((type(x) is frozenset for x in arr), dtype=bool, count=arr.size)
    if not is_fs.any():
        return arr, False
    if not is_fs.all():  # partitions disagree: some hold sets, others only scalars
        if not scalars_as_sets:
            raise MixedValueTypesError(
                f"`value` column {value!r} mixes sets (e.g. {arr[is_fs][0]!r}) and scalars "
                f"(e.g. {arr[~is_fs][0]!r}); use a set distance (a scalar then counts as a "
                "one-element set) or make every value a set"
            )
        out = np.empty(arr.size, dtype=object)
        out[:] = [x if f else frozenset((x,)) for x, f in zip(arr, is_fs.tolist())]
        arr = out
    return arr, True


def count_table(
    col: Collected,
    by: list[Hashable],
    value: Hashable,
    categories: Sequence[Hashable] | None,
    scalars_as_sets: bool,
) -> Table:
    cells = col.cells
    index = cells.index
    levels = [index.get_level_values(i) for i in range(index.nlevels)]
    count = cells["n"].to_numpy(dtype=np.int64)

    vals, is_set = cell_values(col, levels[-1], value, scalars_as_sets)
    if not isinstance(col.how.sep, str):  # with sep, the sets are ours, made from strings
        distinct = pd.Index(pd.unique(np.asarray(vals, dtype=object)), dtype=object)
        check_stringified(distinct, value, col.value_dtype, scalars_as_sets)
    if scalars_as_sets and not is_set and col.how.sep is None:
        # text under a set distance: the rule of pandas_agree.data.prepare.sets.text_sets
        vals, is_set = text_sets(np.asarray(vals, dtype=object), None, value, as_sets=True)
        if is_set:
            vals[:] = [x if isinstance(x, frozenset) else frozenset((x,)) for x in vals]
    value_codes, domain, ordered = value_domain(vals, is_set, categories, value)

    unit_keys = levels[:-1]
    if len(unit_keys) == 1:
        unit_codes, unit_labels = pd.factorize(unit_keys[0])
    else:
        unit_codes, unit_labels = pd.factorize(pd.MultiIndex.from_arrays(unit_keys))
    unit_codes = unit_codes.astype(np.intp)
    n_units = len(unit_labels)

    # Groups: every group of the input (sorted as pandas' report does), cells mapped to them.
    if by:
        labels = group_labels(col.groups, by)
        cell_group = group_index(labels, levels[: len(by)])
    else:
        labels = pd.Index([POOLED])
        cell_group = np.zeros(count.size, dtype=np.intp)
    group_of_unit = np.zeros(n_units, dtype=np.intp)
    group_of_unit[unit_codes] = cell_group

    counts = cell_counts(unit_codes, value_codes, count, n_units, len(domain))
    m_all = np.bincount(unit_codes, weights=count, minlength=n_units)
    n_coder_labels = len(col.how.coders)
    if col.how.n_words:
        words = cells[col.how.extra].to_numpy(dtype=np.int64)
        masks, repeated = unit_coder_masks(unit_codes, count, words, n_units, n_coder_labels)
        has_duplicates = bool(repeated.any())
        per_group, n_coders = coders_by_group(masks, m_all >= 2, group_of_unit, len(labels))
    else:
        has_duplicates = col.n_dup > 0
        per_group, n_coders = coders_from_totals(
            col.coder_totals, cells, by, labels, unit_codes, cell_group, m_all, n_coder_labels
        )
    coded = CodedData(
        unit_codes=unit_codes,
        coder_codes=np.full(unit_codes.size, -1, dtype=np.intp),
        value_codes=value_codes,
        units=pd.RangeIndex(n_units),
        coders=col.how.coders,
        values=domain,
        is_set=is_set,
        ordered=ordered,
        n_missing=0,
        rows=np.arange(unit_codes.size, dtype=np.intp),
    )
    return Table(
        counts=counts,
        coded=coded,
        group_of_unit=group_of_unit,
        labels=labels,
        n_coders_group=per_group,
        n_coders=n_coders,
        n_ratings=int(count.sum()),
        has_duplicates=has_duplicates,
    )


def coders_from_totals(
    totals: pd.Series,
    cells: pd.DataFrame,
    by: list[Hashable],
    labels: pd.Index,
    unit_codes: np.ndarray,
    cell_group: np.ndarray,
    m_all: np.ndarray,
    n_coder_labels: int,
) -> tuple[np.ndarray, int]:
    """Coders with a pairable value: more ratings than units where they are the only rater.

    ``totals`` are the ratings per [*by, coder code] (:attr:`Collected.coder_totals`).
    """
    t_index = totals.index
    if by:
        t_levels = [t_index.get_level_values(i) for i in range(t_index.nlevels)]
        total_coder = np.asarray(t_levels[-1], dtype=np.int64)
        total_group = group_index(labels, t_levels[:-1])
    else:
        total_coder = np.asarray(t_index, dtype=np.int64)
        total_group = np.zeros(len(totals), dtype=np.intp)
    single = m_all[unit_codes] == 1
    return pairable_coders(
        total_group,
        total_coder,
        totals.to_numpy(dtype=np.int64),
        cell_group[single],
        cells[CODER].to_numpy(dtype=np.int64)[single],
        len(labels),
        n_coder_labels,
    )


def group_labels(groups: pd.Series, by: list[Hashable]) -> pd.Index:
    """Sorted group labels, as pandas' ``report`` builds them (``factorize(sort=True)``)."""
    if len(by) == 1:
        _, uniques = pd.factorize(pd.Series(groups.index), sort=True)
        return pd.Index(uniques, name=by[0])
    _, uniques = pd.factorize(pd.MultiIndex.from_tuples(list(groups.index)), sort=True)
    return pd.MultiIndex.from_tuples(list(uniques), names=by)


def group_index(labels: pd.Index, arrays: list[pd.Index]) -> np.ndarray:
    if len(arrays) == 1:
        codes = labels.get_indexer(arrays[0])
    else:
        codes = labels.get_indexer(pd.MultiIndex.from_arrays(arrays))
    if (codes < 0).any():  # pragma: no cover - every group comes from the same data
        raise RuntimeError("internal error: a cell's group is not among the groups")
    return codes.astype(np.intp)


def table_alpha(
    table: Table, dist: Distance, kernel: Kernel, *, warn: bool = True
) -> AlphaResult | None:
    """Alpha over every unit of ``table`` (None when no unit is pairable and ``warn`` is off)."""
    if table.counts.n_units == 0:
        if not warn:
            return None
        coded = table.coded
        raise no_pairable_error(table.n_ratings, len(coded.units), len(coded.coders))
    return alpha_result(table.counts, kernel, dist, table.n_coders, warn=warn)


def prepare_table(
    data: Any,
    by: list[Hashable],
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
    categories: Sequence[Hashable] | None,
    on_duplicate: Any,
    scalars_as_sets: bool,
    split_every: int | None,
    sep: str | bool | None = None,
) -> Table:
    check_frame(data, unit=unit, coder=coder, value=value)
    for col in by:
        check_frame(data, by=col)
    check_on_duplicate(on_duplicate)
    if split_every is not None and (
        isinstance(split_every, bool) or not isinstance(split_every, int) or split_every < 2
    ):
        raise InvalidParameterError(
            f"`split_every` must be None or an integer of at least 2, got {split_every!r}"
        )
    sep = check_sep(sep)
    collected = collect(data, by, unit, coder, value, scalars_as_sets, split_every, sep)
    raise_on_labels(collected, by, unit, coder)
    table = count_table(collected, by, value, categories, scalars_as_sets)
    if table.has_duplicates:
        raise_duplicates(data, by, unit, coder, value)
    return table
