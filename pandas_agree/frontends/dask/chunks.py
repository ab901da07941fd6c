"""The dask pass of :mod:`pandas_agree.frontends.dask`: checks, per-partition coding, one
``dask.compute``.

Per partition (``map_partitions``) missing values are dropped, values normalised (sets as
frozensets, categoricals as codes) and each rating carries its coder as one bit of one to
four int64 columns (or as a code with many coders); one ``groupby([unit, value]).sum()``
gives the (unit, value) -> count table that :mod:`pandas_agree.frontends.dask.tables` turns into
codes.
Importing this module needs dask.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd

from ..._core.count_table import bits_per_word, coder_words
from ..._core.tuning import DUPLICATE_MASK_WORDS
from ...data.prepare import is_sortable
from ...data.sets import is_arrow_list, to_frozensets
from ...errors import (
    ColumnNotFoundError,
    DuplicateRatingError,
    InvalidParameterError,
    ValueTypeError,
)

__all__ = [
    "CODER",
    "COUNT",
    "MAX_WORDS",
    "SET_REPR",
    "WORD",
    "Coding",
    "Collected",
    "check_frame",
    "check_on_duplicate",
    "coder_labels",
    "collect",
    "known_categories",
    "raise_duplicates",
    "raise_on_labels",
    "rate_partition",
    "unit_label",
]

# Strings that are the repr of a Python set, frozenset or list: what dask's string
# conversion makes of a column of sets (``dataframe.convert-string``).
SET_REPR = re.compile(r"^(frozenset\(.*\)|set\(\)|\{.*\}|\[.*\])$", re.DOTALL)


def check_frame(data: Any, **columns: Hashable) -> None:
    if not isinstance(data, dd.DataFrame):
        raise ValueTypeError(
            f"`data` must be a dask DataFrame, got {type(data).__name__} (use "
            "pandas_agree.alpha / pandas_agree.report for pandas frames)"
        )
    for param, col in columns.items():
        if col not in data.columns:
            raise ColumnNotFoundError(
                f"`{param}` column {col!r} is not in the DataFrame; its columns are "
                f"{list(data.columns)} (pass {param}=<column name>)"
            )


def check_on_duplicate(on_duplicate: Any) -> None:
    if on_duplicate != "raise":
        raise InvalidParameterError(
            f"`on_duplicate` must be 'raise' on a dask DataFrame, got {on_duplicate!r}: "
            "first/last need a row order and union every duplicate in one place. Remove the "
            "duplicates first, or use pandas_agree.alpha on a pandas frame"
        )


# ---------------------------------------------------------------------------------------------
# Per partition

#: Coder bit masks are used while they take at most this many int64 columns (about 220
#: coders); beyond, duplicates are checked with a groupby over (unit, coder). Set in
#: pandas_agree._core.tuning (DUPLICATE_MASK_WORDS); tests monkeypatch this name.
MAX_WORDS = DUPLICATE_MASK_WORDS
CODER = "__pandas_agree_coder"
COUNT = "__pandas_agree_n"
WORD = "__pandas_agree_w{}"


@dataclass(frozen=True)
class Coding:
    """How a partition is rewritten: the value column, and coders as codes or bit masks."""

    value: Hashable
    unit: Hashable
    coder: Hashable
    scalars_as_sets: bool
    sep: str | bool | None
    categories: pd.Index | None
    coders: pd.Index
    n_words: int  # 0: one column of coder codes; else that many columns of bit masks
    bits: int

    @property
    def extra(self) -> list[str]:
        if self.n_words:
            return [WORD.format(i) for i in range(self.n_words)]
        return [CODER]


def rate_partition(part: pd.DataFrame, how: Coding) -> pd.DataFrame:
    """Drop missing values, normalise values, and replace coder labels by global codes."""
    value = how.value
    raw = part[value]
    if how.categories is not None:
        codes = raw.cat.set_categories(how.categories).cat.codes.to_numpy()
        keep = codes >= 0
        part, raw = part[keep], pd.Series(codes[keep], index=part.index[keep], name=raw.name)
    else:
        keep = raw.notna().to_numpy()
        if not keep.all():
            part, raw = part[keep], raw[keep]
        if raw.dtype == object or is_arrow_list(raw) or isinstance(how.sep, str):
            raw = to_frozensets(
                raw, how.sep, how.scalars_as_sets, part[how.unit], part[how.coder]
            )
    coder_codes = how.coders.get_indexer(part[how.coder])
    known = coder_codes >= 0  # a missing coder label is reported before anything is used
    out = part.drop(columns=[how.coder])
    out[value] = raw.array  # by position: partitions may repeat index labels
    if not known.all():
        out, coder_codes = out[known], coder_codes[known]
    if how.n_words:
        out[COUNT] = np.ones(len(out), dtype=np.int64)
        words = coder_words(coder_codes, how.n_words, how.bits)
        for i, name in enumerate(how.extra):
            out[name] = words[:, i]
    else:
        out[CODER] = coder_codes.astype(np.int64)
    return out


# ---------------------------------------------------------------------------------------------
# The dask pass


@dataclass
class Collected:
    """What the pass over the data brings back (pandas objects, all small but ``cells``)."""

    how: Coding
    na: pd.Series  # missing labels per label column
    cells: pd.DataFrame  # index [*by, unit, value]; "n" and the coder columns
    groups: pd.Series | None  # rows per group (before dropping missing values)
    value_dtype: Any
    ordered_categories: bool
    n_dup: int = 0  # (unit, coder) pairs rated twice (coder-code path only)
    coder_totals: pd.Series | None = None  # ratings per [*by, coder code] (code path only)


def known_categories(col: Any) -> tuple[pd.Index, bool]:
    dtype = col.dtype
    if col.cat.known:
        return pd.Index(dtype.categories), bool(dtype.ordered)
    cats = pd.Index(col.cat.as_known().dtype.categories)
    if is_sortable(pd.Series(cats)):
        cats = cats.sort_values()
    return cats, bool(dtype.ordered)


def coder_labels(frame: Any, coder: Hashable) -> pd.Index:
    """Every coder label (a pass over the coder column alone)."""
    counts = frame[coder].value_counts(dropna=True, split_out=1).compute()
    labels = counts.index[counts.to_numpy() > 0]
    return pd.Index(labels.to_numpy(), dtype=labels.dtype)


def collect(
    data: Any,
    by: list[Hashable],
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
    scalars_as_sets: bool,
    split_every: int | None = None,
    sep: str | bool | None = None,
) -> Collected:
    labels = list(dict.fromkeys([*by, unit, coder]))
    frame = data[list(dict.fromkeys([*labels, value]))]
    value_dtype = frame[value].dtype
    categories, ordered = None, False
    if isinstance(value_dtype, pd.CategoricalDtype):
        categories, ordered = known_categories(frame[value])
    coders = coder_labels(frame, coder)
    bits = bits_per_word(len(coders))
    n_words = max(1, -(-len(coders) // bits))
    how = Coding(
        value=value,
        unit=unit,
        coder=coder,
        scalars_as_sets=scalars_as_sets,
        sep=sep,
        categories=categories,
        coders=coders,
        n_words=n_words if n_words <= MAX_WORDS else 0,
        bits=bits,
    )
    meta = rate_partition(frame._meta, how)
    # Our partitions hold frozensets (from Arrow lists, lists or delimited strings): dask's
    # string conversion must not turn them into text on the way to the groupby.
    with dask.config.set({"dataframe.convert-string": False}):
        rated = frame.map_partitions(rate_partition, how, meta=meta)
        keys = [*by, unit]
        # One row per non-empty (unit, value) cell. split_out=1 (a tree reduction): the table
        # is collected anyway, and set values are never hashed to choose an output partition.
        grouped = rated.groupby([*keys, value], sort=False, observed=True)
        if how.n_words:  # ratings and coder bits: one sum
            cells = grouped.sum(split_out=1, split_every=split_every)
        else:
            cells = grouped.agg(
                n=(CODER, "size"), first=(CODER, "min"), split_out=1, split_every=split_every
            )
    # what one dask.compute brings back, by the name of the field of Collected it fills
    todo = {"na": frame[labels].isna().sum(), "cells": cells}
    if by:
        todo["groups"] = frame.groupby(by, sort=False, observed=True).size(split_out=1)
    if not how.n_words:
        pairs = rated.groupby([*keys, CODER], sort=False, observed=True).size()
        todo["n_dup"] = (pairs > 1).sum()
        totals = rated.groupby([*by, CODER], sort=False, observed=True).size(split_out=1)
        todo["coder_totals"] = totals
    with dask.config.set({"dataframe.convert-string": False}):
        (found,) = dask.compute(todo)
    return Collected(
        how=how,
        na=found["na"],
        cells=found["cells"].rename(columns={COUNT: "n", "first": CODER}),
        groups=found.get("groups"),
        value_dtype=value_dtype,
        ordered_categories=ordered,
        n_dup=int(found.get("n_dup", 0)),
        coder_totals=found.get("coder_totals"),
    )


def raise_on_labels(col: Collected, by: list[Hashable], unit: Hashable, coder: Hashable):
    for col_name in by:
        bad = int(col.na[col_name])
        if bad:
            raise InvalidParameterError(
                f"`by` column {col_name!r} has {bad} missing label(s); fill them or drop those "
                "rows explicitly"
            )
    for param, col_name in (("unit", unit), ("coder", coder)):
        bad = int(col.na[col_name])
        if bad:
            raise InvalidParameterError(
                f"`{param}` column {col_name!r} has {bad} missing label(s); every rating "
                f"needs a {param}"
            )


def raise_duplicates(
    data: Any, by: list[Hashable], unit: Hashable, coder: Hashable, value: Hashable
) -> None:
    """Name the duplicate (unit, coder) pairs (a second pass; only when there are some)."""
    rated = data[~data[value].isna()]
    pairs = rated.groupby([*by, unit, coder], sort=False, observed=True).size()
    repeated = pairs[pairs > 1]
    n_dup, shown = dask.compute(repeated.size, repeated.head(5, npartitions=-1))
    keys = shown.index.tolist()
    text = ", ".join(f"({unit_label(key, by)!r}, {key[-1]!r})" for key in keys)
    more = f" and {n_dup - len(keys)} more" if n_dup > len(keys) else ""
    raise DuplicateRatingError(
        f"{n_dup} (unit, coder) pair(s) have more than one rating: {text}{more}. "
        "A dask DataFrame needs on_duplicate='raise': remove the duplicates first"
    )


def unit_label(key: tuple, by: list[Hashable]) -> Any:
    """The unit of a (*by, unit, coder) key: the unit, or (*groups, unit) when nested."""
    return key[:-1] if by else key[0]
