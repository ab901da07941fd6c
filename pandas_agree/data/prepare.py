"""The pandas edge: long data (unit, coder, value) to integer codes, and labelled tables.

A value is *missing* when it is NaN, None or ``pd.NA``; missing ratings are dropped (and
counted). A set-valued cell (set, frozenset, list, tuple) is a set, normalised to a
frozenset; an empty set is a coded value, not missing.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._core.setcodes import dedupe_sets, gather_rows, union_by_key
from .._core.tuning import direct_codes_fit
from ..errors import (
    ColumnNotFoundError,
    DuplicateRatingError,
    InvalidParameterError,
    MissingInSetError,
    MixedValueTypesError,
    ValueTypeError,
)
from .sets import (
    ElementForm,
    check_sep,
    check_text,
    first_with_missing,
    form_of,
    from_distinct,
    is_set_cell,
    items_and_lengths,
    missing_in_set_message,
    text_sets,
    valid_text,
)

__all__ = [
    "CodedData",
    "OnDuplicate",
    "check_columns",
    "check_distinct",
    "has_rank_order",
    "is_sortable",
    "prepare",
    "reliability_matrix",
    "set_incidence",
    "value_domain",
    "values_by_units",
]

OnDuplicate = Literal["raise", "first", "last", "union"]
_ON_DUPLICATE = ("raise", "first", "last", "union")


@dataclass(frozen=True, repr=False)
class CodedData:
    """Ratings as integer codes into labelled domains.

    Attributes
    ----------
    unit_codes, coder_codes, value_codes : ndarray of intp
        One element per non-missing rating, at most one per (unit, coder).
    units, coders : pandas.Index
        Labels of every unit and coder in the input (including those whose ratings were
        all missing); codes index into them.
    values : pandas.Index
        The value domain in code order (sorted when the values sort; a categorical's or
        ``categories=`` order when given). Object dtype of frozensets for set values.
    is_set : bool
        Whether the values are sets.
    ordered : bool
        Whether ``values`` is in a meaningful rank order (for ``ordinal``).
    n_missing : int
        Rows dropped because their value was missing.
    rows : ndarray of intp
        Position in the input frame of each rating (the first row of a merged duplicate).
    """

    unit_codes: np.ndarray
    coder_codes: np.ndarray
    value_codes: np.ndarray
    units: pd.Index
    coders: pd.Index
    values: pd.Index
    is_set: bool
    ordered: bool
    n_missing: int
    rows: np.ndarray

    @property
    def n_ratings(self) -> int:
        """Number of non-missing ratings."""
        return int(self.value_codes.size)


@dataclass(frozen=True)
class _Raters:
    """Who gave each rating: its unit and coder codes, and the labels of every unit and coder.

    The part of :class:`CodedData` that is known before the values are read; the value
    readers drop and deduplicate ratings through it and finish with :meth:`coded`.
    """

    unit_codes: np.ndarray
    coder_codes: np.ndarray
    units: pd.Index
    coders: pd.Index

    def take(self, rows: np.ndarray) -> _Raters:
        """The raters of the ratings at positions ``rows``."""
        return replace(
            self, unit_codes=self.unit_codes.take(rows), coder_codes=self.coder_codes.take(rows)
        )

    def cell_keys(self) -> np.ndarray:
        """One integer per rating, the same for two ratings of one (unit, coder) cell."""
        return self.unit_codes * len(self.coders) + self.coder_codes

    @property
    def n_cells(self) -> int:
        """The number of (unit, coder) cells, a bound of :meth:`cell_keys`."""
        return len(self.units) * len(self.coders)

    def labels_at(self, at: int | np.ndarray) -> tuple[Any, Any]:
        """The unit and coder labels of the rating at position ``at`` (of the ratings, for a
        mask or an array of positions)."""
        return self.units[self.unit_codes[at]], self.coders[self.coder_codes[at]]

    def coded(
        self,
        value_codes: np.ndarray,
        values: pd.Index,
        *,
        is_set: bool,
        ordered: bool,
        n_missing: int,
        rows: np.ndarray,
    ) -> CodedData:
        """These raters' :class:`CodedData`, with each rating's value code into ``values``."""
        return CodedData(
            unit_codes=self.unit_codes,
            coder_codes=self.coder_codes,
            units=self.units,
            coders=self.coders,
            value_codes=value_codes,
            values=values,
            is_set=is_set,
            ordered=ordered,
            n_missing=n_missing,
            rows=rows,
        )


def check_columns(data: Any, **columns: Hashable) -> None:
    """Raise unless ``data`` is a DataFrame holding every named column."""
    if not isinstance(data, pd.DataFrame):
        raise ValueTypeError(f"`data` must be a pandas DataFrame, got {type(data).__name__}")
    for param, col in columns.items():
        try:
            hash(col)
        except TypeError:
            raise InvalidParameterError(f"`{param}` must be one column name, got {col!r}") from None
        if col not in data.columns:
            raise ColumnNotFoundError(
                f"`{param}` column {col!r} is not in the DataFrame; its columns are "
                f"{list(data.columns)} (pass {param}=<column name>)"
            )
        if isinstance(data[col], pd.DataFrame):
            raise InvalidParameterError(
                f"`{param}` column {col!r} appears {data[col].shape[1]} times in the DataFrame; "
                "column names must be unique"
            )
    check_distinct(
        {p: c for p, c in columns.items() if p in ("unit", "coder", "value")},
        "unit, coder and value must be three different columns",
    )


def check_distinct(columns: Mapping[str, Hashable], rule: str) -> None:
    """Raise when two of ``columns`` (parameter -> column name) name the same column.

    The message names the two parameters and the column, then states ``rule``.
    """
    names = list(columns.items())
    for i, (param, col) in enumerate(names):
        for other, col2 in names[i + 1 :]:
            if col == col2:
                raise InvalidParameterError(
                    f"`{param}` and `{other}` name the same column {col!r}; {rule}"
                )


def _small_int_codes(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Sorted codes of integer-valued data with a small range, without hashing (or None).

    Returns None (use :func:`pandas.factorize`) for other dtypes, NaN, non-integral floats
    or a range much larger than the data.
    """
    if arr.size == 0 or arr.dtype.kind not in "iuf":
        return None
    if arr.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            as_int = arr.astype(np.intp)  # NaN and huge values fail the round trip below
        if not np.array_equal(as_int, arr):
            return None
    else:
        if arr.dtype.kind == "u" and int(arr.max()) > np.iinfo(np.intp).max:
            return None  # uint64 at or above 2**63 would wrap to negative intp and misorder
        as_int = np.asarray(arr, dtype=np.intp)
    lo, hi = int(as_int.min()), int(as_int.max())
    if not direct_codes_fit(arr.size, hi - lo):  # else np.unique (see _core/tuning.py)
        return None
    offset = as_int - lo if lo else as_int
    present = np.bincount(offset) > 0
    labels = (lo + np.flatnonzero(present)).astype(arr.dtype)
    if present.all():
        return offset, labels
    remap = np.cumsum(present) - 1
    return remap[offset], labels


def _factorize_labels(series: pd.Series, param: str) -> tuple[np.ndarray, pd.Index]:
    if series.dtype.kind in "iuf":
        fast = _small_int_codes(series.to_numpy())
        if fast is not None:
            return fast[0], pd.Index(fast[1])
    try:
        codes, uniques = pd.factorize(series, sort=is_sortable(series))
    except TypeError:
        _check_hashable(series.to_numpy(dtype=object), series.name, param)
        raise
    if not valid_text(uniques):  # Arrow text is checked on the distinct labels
        check_text(series, param)  # raises, naming the first row with such text
    if (codes < 0).any():
        bad = int((codes < 0).sum())
        raise InvalidParameterError(
            f"`{param}` column {series.name!r} has {bad} missing label(s); every rating needs a "
            f"{param}"
        )
    return codes.astype(np.intp), pd.Index(uniques)


def is_sortable(series: pd.Series) -> bool:
    return series.dtype != object or pd.api.types.infer_dtype(series, skipna=True) in (
        "string",
        "integer",
        "floating",
        "mixed-integer-float",
        "boolean",
        "decimal",
        "datetime",
        "date",
        "bytes",
    )


def _to_set(x: Any, column: Hashable) -> frozenset:
    try:
        return x if type(x) is frozenset else frozenset(x)
    except TypeError as exc:
        raise ValueTypeError(
            f"`value` column {column!r} holds a set with unhashable elements: {x!r}"
        ) from exc


def _domain_from_distinct(
    codes: np.ndarray,
    distinct: np.ndarray,
    scalars_as_sets: bool,
    categories: Sequence[Hashable] | None,
    column: Hashable,
    all_used: bool = False,
) -> tuple[np.ndarray, pd.Index, bool, bool]:
    """Value codes, domain, order and set-ness from codes into the distinct hashable values.

    Sets given as frozensets or tuples, and scalars, are classified on the distinct values
    only; equal sets written differently (a tuple and a frozenset) merge into one value.
    ``all_used`` says that every distinct value occurs in ``codes`` (no row was dropped).
    """
    if not all_used:
        used = np.bincount(codes, minlength=distinct.size) > 0
        if not used.all():
            codes = (np.cumsum(used) - 1)[codes]
            distinct = distinct[used]
    kind = np.fromiter(
        (0 if type(x) is frozenset else 1 if is_set_cell(x) else 2 for x in distinct),
        dtype=np.int8,
        count=distinct.size,
    )
    is_set = bool((kind < 2).any())
    if is_set:
        if (kind == 2).any() and not scalars_as_sets:
            raise MixedValueTypesError(
                f"`value` column {column!r} mixes sets (e.g. {distinct[kind < 2][0]!r}) and "
                f"scalars (e.g. {distinct[kind == 2][0]!r}); use a set distance (a scalar then "
                "counts as a one-element set) or make every value a set"
            )
        if categories is None and not kind.any():  # distinct frozensets: already the domain
            return codes, pd.Index(distinct, dtype=object), False, True
        normalised = np.empty(distinct.size, dtype=object)
        normalised[:] = [
            x if k == 0 else _to_set(x, column) if k == 1 else frozenset((x,))
            for x, k in zip(distinct, kind.tolist())
        ]
        distinct = normalised
    local, domain, ordered = value_domain(distinct, is_set, categories, column)
    if local.size == distinct.size and (local == np.arange(local.size)).all():
        return codes, domain, ordered, is_set  # the distinct values are the domain, in order
    return local[codes], domain, ordered, is_set


def _check_hashable(arr: np.ndarray, column: Hashable, param: str = "value") -> None:
    for x in arr:
        try:
            hash(x)
        except TypeError:
            what = (
                "values must be scalars or sets (set, frozenset, list, tuple)"
                if param == "value"
                else "labels must be hashable scalars"
            )
            raise ValueTypeError(
                f"`{param}` column {column!r} holds an unhashable value {x!r}; {what}"
            ) from None


#: Kinds of values (:func:`pandas.api.types.infer_dtype` names) ranked by their value.
_RANKED_KINDS = frozenset(
    {
        "integer",
        "floating",
        "mixed-integer-float",
        "decimal",
        "boolean",
        "datetime",
        "datetime64",
        "date",
        "time",
        "timedelta",
        "timedelta64",
        "period",
        "empty",
    }
)


def has_rank_order(values: Any, *, explicit: bool = False, dtype: Any = None) -> bool:
    """Whether ``values`` are in a rank order: the one rule of every route that uses an order.

    Ordinal alpha, order-based agreement weights (weighted kappa, Scott's pi, Fleiss' kappa,
    Gwet's AC2, Conger's, Light's and Hubert's kappa), ``pairwise(metric="kappa",
    weights=...)`` and every accessor, report, dask and xarray route ask this function.
    An order is known when it is given (``explicit``: ``categories=[...]`` in rank order) or
    the column is an ordered Categorical (``dtype``); otherwise values are ranked by their
    value when they are numbers, booleans, dates, times, durations or periods (an unordered
    Categorical of numbers too). Text is never ranked: its sorted order is alphabetical, not
    a rank. Sets and mixed values have no rank either.

    Parameters
    ----------
    values : array-like
        The distinct values (or the categories of a categorical column).
    explicit : bool, default False
        Whether the caller was given the order (``categories=``).
    dtype : dtype, optional
        The column's dtype: an ordered :class:`pandas.CategoricalDtype` is an order.

    Examples
    --------
    >>> import pandas as pd
    >>> has_rank_order(pd.Index([1, 2, 3])), has_rank_order(pd.Index(["low", "high"]))
    (True, False)
    >>> has_rank_order(pd.Index(["low", "high"]), explicit=True)
    True
    >>> has_rank_order(None, dtype=pd.CategoricalDtype(["low", "high"], ordered=True))
    True
    """
    if explicit:
        return True
    if isinstance(dtype, pd.CategoricalDtype):
        if dtype.ordered:
            return True
        values = dtype.categories
    kind = getattr(getattr(values, "dtype", None), "kind", "")
    if kind and kind in "iufbmM":
        return True
    return pd.api.types.infer_dtype(values, skipna=True) in _RANKED_KINDS


def value_domain(
    values: np.ndarray | pd.Series,
    is_set: bool,
    categories: Sequence[Hashable] | None,
    column: Hashable,
) -> tuple[np.ndarray, pd.Index, bool]:
    """Codes and domain of the (non-missing) values."""
    if categories is not None:
        if isinstance(categories, (str, bytes)) or not isinstance(categories, Iterable):
            raise InvalidParameterError(
                f"`categories` must be a list of values in rank order, got {categories!r}"
            )
        cats = pd.Index(list(categories))
        if not cats.is_unique:
            raise InvalidParameterError(f"`categories` must not repeat values, got {list(cats)}")
        if is_set:
            cats = pd.Index([_to_set(c, "categories") for c in cats], dtype=object)
        codes = cats.get_indexer(pd.Index(values, dtype=object if is_set else None))
        if (codes < 0).any():
            unknown = pd.unique(np.asarray(values, dtype=object)[codes < 0])[:5]
            raise InvalidParameterError(
                f"`value` column {column!r} holds values not in `categories` "
                f"{list(cats)}: {list(unknown)}"
            )
        used = np.zeros(len(cats), dtype=bool)
        used[codes] = True
        remap = np.cumsum(used) - 1
        return remap[codes].astype(np.intp), cats[used], True
    if isinstance(values, pd.Series) and isinstance(values.dtype, pd.CategoricalDtype):
        codes, uniques = pd.factorize(values, sort=True)
        # In rank order when the categorical is ordered or its categories are numbers;
        # an unordered categorical of labels is only sorted alphabetically.
        ranked = has_rank_order(None, dtype=values.dtype)
        return codes.astype(np.intp), pd.Index(np.asarray(uniques)), ranked
    if not is_set and isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        fast = _small_int_codes(values)
        if fast is not None:
            return fast[0], pd.Index(fast[1]), True
    try:
        sortable = not is_set and is_sortable(pd.Series(values))
        codes, uniques = pd.factorize(values, sort=sortable)
    except TypeError:
        _check_hashable(np.asarray(values, dtype=object), column)
        raise
    # Sorted text is in alphabetical order, not a rank order (``ordinal`` refuses it).
    ranked = sortable and has_rank_order(uniques)
    return codes.astype(np.intp), pd.Index(uniques, dtype=object if is_set else None), ranked


def _has_duplicates(key: np.ndarray, n_cells: int) -> bool:
    if key.size < 2:
        return False
    if direct_codes_fit(key.size, n_cells):  # mark the cells: fewer marks than keys is a repeat
        marked = np.zeros(n_cells, dtype=bool)
        marked[key] = True
        return int(np.count_nonzero(marked)) < key.size
    ordered = np.sort(key)
    return bool((ordered[1:] == ordered[:-1]).any())


def prepare(
    data: pd.DataFrame,
    *,
    unit: Hashable = "unit",
    coder: Hashable = "coder",
    value: Hashable = "value",
    on_duplicate: OnDuplicate = "raise",
    categories: Sequence[Hashable] | None = None,
    scalars_as_sets: bool = False,
    sep: str | bool | None = None,
) -> CodedData:
    """Validate long data and turn it into codes. Never modifies ``data``.

    Parameters
    ----------
    data : pandas.DataFrame
        One row per rating.
    unit, coder, value : hashable
        Column names.
    on_duplicate : {"raise", "first", "last", "union"}
        What to do when a coder rated a unit twice (after dropping missing values):
        raise :class:`~pandas_agree.errors.DuplicateRatingError` (default), keep the first or
        last row, or merge the ratings into one set (every value then becomes a set; a
        scalar ``x`` counts as ``{x}``).
    categories : sequence, optional
        The value domain in rank order; a value outside it raises.
    scalars_as_sets : bool
        Treat a scalar as a one-element set in a column that mixes sets and scalars
        (set distances ask for this); otherwise mixing raises. Plain strings that look like
        several labels (``"PER;LOC"``, see :data:`~pandas_agree.data.prepare.sets.SEPARATOR_HINTS`)
        then raise :class:`~pandas_agree.errors.AmbiguousValuesError` unless ``sep`` says
        how to read them.
    sep : str, None or False
        Split string values at ``sep`` into sets of labels (white space around a label is
        dropped; ``""`` is the empty set). ``None`` (default) does not split; ``False``
        does not split and also skips the check for strings that look like several labels.

    Set values arrive as Python sets, frozensets, lists, tuples or numpy arrays in an object
    column, as an Arrow list column, as delimited strings (``sep=``), or one label per row
    (``on_duplicate="union"`` merges the rows of a (unit, coder) cell into one set; a row
    holding an empty set keeps the cell an explicit empty set). A missing element inside a
    set raises :class:`~pandas_agree.errors.MissingInSetError`; Arrow text that is not valid
    UTF-8, in any of the three columns, raises :class:`~pandas_agree.errors.ValueTypeError`.
    The unit and coder columns are read first: their errors come before the value column's.

    Returns
    -------
    CodedData
    """
    check_columns(data, unit=unit, coder=coder, value=value)
    if on_duplicate not in _ON_DUPLICATE:
        raise InvalidParameterError(
            f"`on_duplicate` must be one of {list(_ON_DUPLICATE)}, got {on_duplicate!r}"
        )
    unit_codes, units = _factorize_labels(data[unit], "unit")
    coder_codes, coders = _factorize_labels(data[coder], "coder")
    raters = _Raters(unit_codes, coder_codes, units, coders)
    raw = data[value]
    sep = check_sep(sep)
    form, pre = _set_form(raw, sep, scalars_as_sets, on_duplicate == "union")
    if form is not None:
        return _prepare_sets(form, raw, raters, on_duplicate, categories)
    return _prepare_values(raw, pre, raters, on_duplicate, categories, scalars_as_sets, sep)


def _deduplicate(raters: _Raters, on_duplicate: OnDuplicate) -> np.ndarray | None:
    """Positions of the ratings to keep when a (unit, coder) cell repeats (None: no repeat).

    Raises :class:`~pandas_agree.errors.DuplicateRatingError` for ``on_duplicate="raise"``;
    keeps the first or last rating of a cell otherwise ("union" is the set encoder's).
    """
    key = raters.cell_keys()
    if not _has_duplicates(key, raters.n_cells):
        return None
    if on_duplicate == "raise":
        dup = pd.Series(key).duplicated(keep=False).to_numpy()
        _raise_duplicates(*raters.labels_at(dup))
    return np.flatnonzero(~pd.Series(key).duplicated(keep=on_duplicate).to_numpy())


def _prepare_values(
    raw: pd.Series,
    pre: tuple[np.ndarray, np.ndarray] | None,
    raters: _Raters,
    on_duplicate: OnDuplicate,
    categories: Sequence[Hashable] | None,
    scalars_as_sets: bool,
    sep: str | bool | None,
) -> CodedData:
    """Codes of scalar ratings, or of sets given as hashable cells (frozensets, tuples).

    ``pre`` holds an object column's codes into its distinct values (from one
    :func:`pandas.factorize`); the distinct values are then classified and normalised
    (sets, scalars) without a pass over every row.
    """
    value = raw.name
    vcodes = None if pre is None else pre[0]
    present = vcodes >= 0 if vcodes is not None else ~pd.isna(raw).to_numpy()
    rows = np.flatnonzero(present)
    n_missing = int(raw.size - rows.size)
    if n_missing:  # positions, not masks: one scan of the mask, then takes
        if vcodes is None:
            raw = raw.iloc[rows]
        else:
            vcodes = vcodes.take(rows)
        raters = raters.take(rows)
    keep = _deduplicate(raters, on_duplicate)
    if keep is not None:
        raters, rows = raters.take(keep), rows[keep]
        if vcodes is None:
            raw = raw.iloc[keep]
        else:
            vcodes = vcodes[keep]
    if vcodes is not None:
        distinct = pre[1]  # text under a set distance read by _sets_from_text
        value_codes, domain, ordered, is_set = _domain_from_distinct(
            vcodes, distinct, scalars_as_sets, categories, value, all_used=keep is None
        )
        if is_set:
            _check_missing_in_distinct(domain, value_codes, raters, value)
    else:
        is_categorical = isinstance(raw.dtype, pd.CategoricalDtype)
        vals: Any = raw if is_categorical else raw.to_numpy()
        is_set = False  # text under a set distance checked by _sets_from_text
        value_codes, domain, ordered = value_domain(vals, is_set, categories, value)
    return raters.coded(
        value_codes, domain, is_set=is_set, ordered=ordered, n_missing=n_missing, rows=rows
    )


def _set_form(
    raw: pd.Series, sep: str | bool | None, scalars_as_sets: bool, union: bool
) -> tuple[ElementForm | None, tuple[np.ndarray, np.ndarray] | None]:
    """The element form of a set-valued column (or None), and an object column's codes.

    Arrow list columns, delimited strings and every column merged by
    ``on_duplicate="union"`` go through element form. An object column is otherwise coded
    into its distinct values (:func:`~pandas_agree.data.sets.form_of`), which are classified
    afterwards.
    """
    form, pre = form_of(raw, sep, scalars_as_sets or union)
    if form is not None:
        return form, None
    if (scalars_as_sets or union) and sep is None:
        pre = _sets_from_text(raw, pre)
    if not union:
        return None, pre
    if pre is None:
        codes, uniques = pd.factorize(raw)
        pre = codes.astype(np.intp), np.asarray(uniques, dtype=object)
    codes, distinct = pre
    present = codes >= 0
    return from_distinct(present, codes[present], distinct, raw.name), None


def _sets_from_text(
    raw: pd.Series, pre: tuple[np.ndarray, np.ndarray] | None
) -> tuple[np.ndarray, np.ndarray] | None:
    """The text rule of :func:`pandas_agree.data.prepare.sets.text_sets` on a column read as sets,
    applied to its distinct values: a text that looks like several labels raises, a
    bracketed text becomes its JSON set. Returns the codes into the distinct values read
    so (``pre`` unchanged when no text needed reading)."""
    if pre is None:
        dtype = raw.dtype
        if isinstance(dtype, pd.CategoricalDtype):
            distinct = np.asarray(dtype.categories, dtype=object)
        elif isinstance(dtype, pd.StringDtype) or pd.api.types.is_string_dtype(dtype):
            distinct = np.asarray(pd.unique(raw.dropna()), dtype=object)
        else:
            return None  # numbers, booleans, dates: no text
        read, _ = text_sets(distinct, None, raw.name, as_sets=True)
        if all(a is b for a, b in zip(read, distinct)):
            return None  # checked; nothing to read
        codes, uniques = pd.factorize(raw)
        pre = codes.astype(np.intp, copy=False), np.asarray(uniques, dtype=object)
    codes, distinct = pre
    read, _ = text_sets(distinct, None, raw.name, as_sets=True)
    return codes, read


def _prepare_sets(
    form: ElementForm,
    raw: pd.Series,
    raters: _Raters,
    on_duplicate: OnDuplicate,
    categories: Sequence[Hashable] | None,
) -> CodedData:
    """Codes of set-valued ratings in element form: merge, deduplicate, label."""
    present = form.present
    n_missing = int(present.size - np.count_nonzero(present))
    rows = np.flatnonzero(present) if n_missing else np.arange(present.size, dtype=np.intp)
    if n_missing:
        raters = raters.take(rows)
    indptr, labels = form.indptr, form.labels
    if labels.size and labels.min() < 0:
        at = int(np.searchsorted(indptr, int(np.argmax(labels < 0)), side="right")) - 1
        raise MissingInSetError(
            missing_in_set_message(raw.name, *raters.labels_at(at), raw.iloc[rows[at]])
        )
    canonical = False
    if on_duplicate == "union":
        key = raters.cell_keys()
        first = None
        if _has_duplicates(key, raters.n_cells):
            first, indptr, labels = union_by_key(key, indptr, labels, form.n_labels)
            canonical = True
    else:
        first = _deduplicate(raters, on_duplicate)
        if first is not None:
            indptr, labels = gather_rows(indptr, labels, first)
    if first is not None:
        raters, rows = raters.take(first), rows[first]
    codes, set_ptr, set_labels = dedupe_sets(indptr, labels, form.n_labels, canonical)
    elements = form.label_domain.to_numpy(dtype=object)
    sets = np.empty(set_ptr.size - 1, dtype=object)
    sets[:] = [frozenset(elements[set_labels[a:b]]) for a, b in itertools.pairwise(set_ptr)]
    if categories is not None:
        local, domain, _ = value_domain(sets, True, categories, raw.name)
        codes = local[codes]
    else:
        domain = pd.Index(sets, dtype=object)
    return raters.coded(codes, domain, is_set=True, ordered=False, n_missing=n_missing, rows=rows)


def _raise_duplicates(unit_labels: pd.Index, coder_labels: pd.Index) -> None:
    pairs = pd.unique(pd.Series(list(zip(unit_labels, coder_labels))))
    shown = ", ".join(f"({u!r}, {c!r})" for u, c in pairs[:5])
    more = f" and {len(pairs) - 5} more" if len(pairs) > 5 else ""
    raise DuplicateRatingError(
        f"{len(pairs)} (unit, coder) pair(s) have more than one rating: {shown}{more}. "
        "If different documents share unit ids, make the ids unique or group the units by "
        "document (report(..., by=<column>)); if a coder really rated a unit twice, pass "
        "on_duplicate='first', 'last' or 'union' to say which to use"
    )


def _check_missing_in_distinct(
    domain: pd.Index, value_codes: np.ndarray, raters: _Raters, column: Hashable
) -> None:
    """Refuse a set with a missing element (checked once per distinct set)."""
    code = first_with_missing(domain)
    if code is None:
        return
    at = int(np.argmax(value_codes == code))
    raise MissingInSetError(
        missing_in_set_message(column, *raters.labels_at(at), set(domain[code]))
    )


def reliability_matrix(coded: CodedData) -> pd.DataFrame:
    """Coders x units matrix of values (Krippendorff's canonical form); NaN where missing."""
    domain = coded.values
    numeric = pd.api.types.is_numeric_dtype(domain.dtype) and not pd.api.types.is_bool_dtype(
        domain.dtype
    )
    shape = (len(coded.coders), len(coded.units))
    if numeric:
        mat = np.full(shape, np.nan)
        mat[coded.coder_codes, coded.unit_codes] = np.asarray(domain, dtype=float)[
            coded.value_codes
        ]
    else:
        mat = np.full(shape, np.nan, dtype=object)
        mat[coded.coder_codes, coded.unit_codes] = np.asarray(domain, dtype=object)[
            coded.value_codes
        ]
    return pd.DataFrame(mat, index=coded.coders.rename("coder"), columns=coded.units.rename("unit"))


def values_by_units(coded: CodedData) -> pd.DataFrame:
    """Values x units table of counts (Krippendorff's values-by-units matrix)."""
    counts = np.zeros((len(coded.values), len(coded.units)), dtype=np.int64)
    np.add.at(counts, (coded.value_codes, coded.unit_codes), 1)
    return pd.DataFrame(
        counts, index=coded.values.rename("value"), columns=coded.units.rename("unit")
    )


def set_incidence(values: pd.Index, element_weights: Any = None) -> tuple[sp.csr_matrix, pd.Index]:
    """Value-by-element incidence matrix of a set domain, and the element labels.

    ``element_weights`` (a mapping or a callable element -> weight) puts weights in the cells.
    """
    flat, lengths = items_and_lengths(values)
    if pd.api.types.infer_dtype(flat, skipna=False) == "integer":
        try:  # integer labels only (mention ids): hashed as int64, not as Python objects
            flat = flat.astype(np.int64)
        except OverflowError:
            pass
    elem_codes, elements = pd.factorize(flat)
    if elem_codes.size and elem_codes.min() < 0:  # refused upstream; never a column index -1
        raise MissingInSetError(
            f"a set in the value domain holds a missing element: {flat[elem_codes < 0][0]!r}"
        )
    data = np.ones(flat.size)
    if element_weights is not None:
        data = _element_weight_array(elements, element_weights)[elem_codes]
    # Row c lists the elements of set c (each once): the CSR layout, with no conversion.
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    matrix = sp.csr_matrix((data, elem_codes, indptr), shape=(len(values), len(elements)))
    matrix.sort_indices()
    return matrix, pd.Index(elements, dtype=object)


def _element_weight_array(elements: Any, weights: Any) -> np.ndarray:
    def weight(e: Any) -> float:
        try:
            w = weights(e) if callable(weights) else weights[e]
        except KeyError:
            raise InvalidParameterError(f"`weights` has no weight for element {e!r}") from None
        try:
            return float(w)
        except (TypeError, ValueError):
            raise InvalidParameterError(
                f"`weights` must give a number for each element, got {w!r} for {e!r}"
            ) from None

    out = np.array([weight(e) for e in np.asarray(elements).tolist()])  # Python scalars
    if not np.all(np.isfinite(out)) or (out <= 0).any():
        raise InvalidParameterError(
            f"`weights` must be finite and positive, got {out.tolist()[:5]}"
        )
    return out
