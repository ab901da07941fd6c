"""Set-valued columns in every shape they arrive in, as element form (CSR of label codes).

The feeders below read a value column and return :class:`ElementForm`: which rows hold a
rating, and for each of them the codes of its labels. :mod:`pandas_agree._core.setcodes`
then merges and deduplicates the sets; :func:`pandas_agree.data.prepare.prepare` is the one caller.

=========================================  =============================================
shape of the value column                  feeder
=========================================  =============================================
Arrow list column (``pd.ArrowDtype``)      :func:`from_arrow` (``pyarrow.compute``)
Python lists, tuples, sets, numpy arrays   :func:`from_objects` (read in C)
delimited strings with ``sep=``            :func:`from_strings` (Arrow or ``str.split``)
distinct hashable values (frozensets)      :func:`from_distinct` (work on distinct values)
=========================================  =============================================

Rules, the same on every road:

* a missing cell (NaN, None, ``pd.NA``, a null list) is a missing rating;
* an empty set (``frozenset()``, ``[]``, an empty Arrow list, ``""`` with ``sep=``) is a coded
  empty set, not missing;
* a missing element *inside* a set (``{"a", None}``, an Arrow list with a null) has label code
  ``-1`` here, and :func:`pandas_agree.data.prepare.prepare` raises
  :class:`~pandas_agree.errors.MissingInSetError` naming the unit, coder and value;
* a plain scalar label under a set distance is the one-element set ``{label}``;
* a *text* cell read where sets are read follows :func:`text_sets`, the one rule of Python
  and the command line: a cell written in brackets is a JSON list (``"[]"`` the empty set),
  other text is split at ``sep``, and without ``sep`` a text that looks like several
  labels is refused; ``sep=False`` reads every text as one label.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._core import tuning
from .._core.setcodes import gather_rows
from .._threads import started
from ..errors import (
    AmbiguousValuesError,
    InvalidParameterError,
    MissingInSetError,
    MixedValueTypesError,
    ValueTypeError,
)
from . import strings as shortstrings

__all__ = [
    "SEPARATOR_HINTS",
    "ElementForm",
    "check_sep",
    "check_separators",
    "form_of",
    "from_arrow",
    "from_distinct",
    "from_objects",
    "from_strings",
    "is_arrow_list",
    "is_set_cell",
    "items_and_lengths",
    "likely_separator",
    "missing_in_set_message",
    "reads_in_c",
    "text_sets",
    "to_frozensets",
]

#: Characters that suggest a string holds several labels (checked under set distances).
SEPARATOR_HINTS = (";", ",", "|", "/")

_SET_TYPES = (set, frozenset, list, tuple, np.ndarray)
# Cells that are sets whatever their content (an array may be 0-d: see is_set_cell).
_PLAIN_SETS = (set, frozenset, list, tuple)
# Cell types of a column whose missing cells are all None (found by identity).
_PLAIN_SETS_OR_NONE = frozenset({*_PLAIN_SETS, type(None)})

try:  # the optional C accelerator (see _read_in_c; setup.py builds it when it can)
    from .. import _cells
except ImportError:  # pragma: no cover - built wherever a C compiler is at hand
    _cells = None

try:  # the loop behind Series.explode (see _explode)
    from pandas._libs.reshape import explode as _pandas_explode
except ImportError:  # pragma: no cover - present in pandas 0.25 to 3.1
    _pandas_explode = None


@dataclass(frozen=True)
class ElementForm:
    """Set-valued ratings as CSR rows of label codes.

    Attributes
    ----------
    present : ndarray of bool
        Per input row: whether it holds a rating (False for a missing cell).
    indptr, labels : ndarray of intp
        One CSR row per present row; label code ``-1`` marks a missing element.
    label_domain : pandas.Index
        The labels, indexed by code.
    """

    present: np.ndarray
    indptr: np.ndarray
    labels: np.ndarray
    label_domain: pd.Index

    @property
    def n_labels(self) -> int:
        """Number of distinct labels."""
        return len(self.label_domain)


def check_sep(sep: Any) -> str | bool | None:
    """Validate ``sep``: a non-empty string, ``None`` (do not split) or ``False`` (no check)."""
    if sep is None or sep is False:
        return sep
    if not isinstance(sep, str) or not sep:
        raise InvalidParameterError(
            f"`sep` must be a non-empty string (such as ';'), None or False, got {sep!r}"
        )
    return sep


def is_arrow_list(series: pd.Series) -> bool:
    """Whether ``series`` is an Arrow list column (``pd.ArrowDtype(pa.list_(...))``)."""
    dtype = series.dtype
    if not isinstance(dtype, pd.ArrowDtype):
        return False
    import pyarrow as pa

    kind = dtype.pyarrow_dtype
    views = [getattr(pa.types, f"is_{k}list_view", None) for k in ("", "large_")]  # pyarrow 16
    return (
        pa.types.is_list(kind)
        or pa.types.is_large_list(kind)
        or pa.types.is_fixed_size_list(kind)
        or any(is_view(kind) for is_view in views if is_view is not None)
    )


def _factorize_elements(flat: np.ndarray) -> tuple[np.ndarray, pd.Index]:
    try:
        codes, uniques = pd.factorize(flat)
    except TypeError:
        bad = next(x for x in flat if not _hashable(x))
        raise ValueTypeError(
            f"`value` holds a set with an unhashable element {bad!r}; set elements must be "
            "hashable labels"
        ) from None
    return codes.astype(np.intp, copy=False), pd.Index(uniques, dtype=object)


def _hashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def from_arrow(series: pd.Series) -> ElementForm:
    """Element form of an Arrow list column, with ``pyarrow.compute`` (no per-row Python)."""
    import pyarrow as pa

    arr = pa.array(series)
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    try:
        present, indptr, flat = _rows_of(arr)
        codes, labels = _encoded(_plain_items(flat))
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid, pa.ArrowTypeError):
        raise ValueTypeError(
            f"`value` column {series.name!r} is an Arrow list of {arr.type.value_type}: set "
            "elements must be labels (strings, integers, booleans)"
        ) from None
    return ElementForm(present, indptr, codes, pd.Index(labels, dtype=object))


def _rows_of(arr: Any) -> tuple[np.ndarray, np.ndarray, Any]:
    """Which rows of an Arrow list array are present, their row pointers, and their items.

    The list offsets are the row pointers, and the items one slice of the child array,
    when every missing row holds no items (as pyarrow writes them); otherwise the items of
    the missing rows are left out by ``list_flatten``.
    """
    import pyarrow as pa

    present = arr.is_valid().to_numpy(zero_copy_only=False)
    if pa.types.is_fixed_size_list(arr.type):  # no offsets; list_flatten of a column of
        size = arr.type.list_size  # missing rows only fails in pyarrow 12
        rows = np.flatnonzero(present) + arr.offset  # values ignore the array's offset
        items = (rows[:, None] * size + np.arange(size)).ravel()
        indptr = np.arange(rows.size + 1, dtype=np.intp) * size
        return present, indptr, arr.values.take(pa.array(items, type=pa.int64()))
    if not (pa.types.is_list(arr.type) or pa.types.is_large_list(arr.type)):
        return present, *_flattened(arr, present)  # a list view (pyarrow 16): no offsets
    offsets = arr.offsets.to_numpy(zero_copy_only=False).astype(np.intp, copy=False)
    if arr.null_count:
        starts, ends = offsets[:-1][present], offsets[1:][present]
        if not np.array_equal(ends[:-1], starts[1:]):  # a missing row that holds items
            return present, *_flattened(arr, present)
        offsets = np.append(starts, ends[-1:]) if starts.size else offsets[:1]
    first = int(offsets[0])
    return present, offsets - first, arr.values.slice(first, int(offsets[-1]) - first)


def _flattened(arr: Any, present: np.ndarray) -> tuple[np.ndarray, Any]:
    """Row pointers and items of the present rows, by ``list_flatten``."""
    import pyarrow.compute as pc

    lengths = pc.list_value_length(arr).fill_null(0).to_numpy(zero_copy_only=False)[present]
    indptr = np.zeros(lengths.size + 1, dtype=np.intp)
    np.cumsum(lengths, out=indptr[1:])
    return indptr, pc.list_flatten(arr)


def _plain_items(flat: Any) -> Any:
    """Arrow set items as plain values: a dictionary array decoded (its dictionary may
    repeat an entry), and NaN a null (a missing element, as NaN is in every other shape)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_dictionary(flat.type):
        flat = flat.dictionary_decode()
    if pa.types.is_floating(flat.type):
        flat = pc.if_else(pc.is_nan(flat), pa.scalar(None, type=flat.type), flat)
    return flat


def _encoded(flat: Any) -> tuple[np.ndarray, list]:
    """Codes of an Arrow array's items in order of first appearance (-1 for a null), and the
    distinct items.

    Strings of at most 7 bytes without nulls are numbered in C
    (:func:`pandas_agree.data.prepare.strings.first_codes`: 540,000 labels in 2 ms). Otherwise
    :func:`pyarrow.compute.dictionary_encode`: a large array of strings is encoded in two
    halves at once (the kernel releases the GIL), the second half's dictionary then mapped
    onto the first's: the same codes, in half the time on two cores (see
    :data:`~pandas_agree._core.tuning.PARALLEL_MIN_LABELS`).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    text = pa.types.is_string(flat.type) or pa.types.is_large_string(flat.type)
    if text and not flat.null_count:
        numbered = shortstrings.first_codes(flat, c_only=True)
        if numbered is not None:
            return numbered[0], shortstrings.strings_of(numbered[1])
    half = len(flat) // 2
    parallel = text and half >= tuning.PARALLEL_MIN_LABELS // 2
    second = started(lambda: pc.dictionary_encode(flat.slice(half)), parallel)
    first = pc.dictionary_encode(flat.slice(0, half) if parallel else flat)
    codes = _indices(first)
    labels = first.dictionary.to_pylist()
    if not parallel:
        return codes, labels
    rest = second()
    at = pc.index_in(rest.dictionary, value_set=first.dictionary).fill_null(-1)
    at = at.to_numpy(zero_copy_only=False).astype(np.intp)
    new = at < 0
    at[new] = len(labels) + np.arange(np.count_nonzero(new), dtype=np.intp)
    rest_codes = np.append(at, -1)[_indices(rest)]  # a null's -1 picks the appended -1
    labels += rest.dictionary.filter(pa.array(new)).to_pylist()
    return np.concatenate([codes, rest_codes]), labels


def _indices(encoded: Any) -> np.ndarray:
    """A dictionary array's indices as intp, -1 for a null."""
    indices = encoded.indices
    if indices.null_count:  # a missing element inside a set: code -1, refused by the caller
        indices = indices.fill_null(-1)
    return indices.to_numpy(zero_copy_only=False).astype(np.intp, copy=False)


def from_objects(
    arr: np.ndarray, scalars_as_sets: bool, column: Hashable, check_strings: bool = True
) -> ElementForm:
    """Element form of an object array of lists, tuples, sets, arrays (and scalars).

    Scalars count as one-element sets when ``scalars_as_sets``; otherwise a column mixing
    sets and scalars raises :class:`~pandas_agree.errors.MixedValueTypesError`. With
    ``check_strings``, a scalar string that looks like several labels raises
    :class:`~pandas_agree.errors.AmbiguousValuesError` (see :func:`check_separators`).

    The cells are read by the C accelerator when it is built and knows every cell
    (:func:`_read_in_c`), otherwise by the general passes (lists by pandas' explode loop,
    numpy arrays of strings through ``tolist``, other cells by :func:`itertools.chain`).
    Either way the labels are the cells' own items, coded by :func:`pandas.factorize`:
    ``b"cd"`` stays apart from ``"cd"`` and ``2.5`` from ``2``.
    """
    read_in_c = _read_in_c(arr)
    if read_in_c is not None:
        present, flat, lengths = read_in_c
        return ElementForm(present, *_coded(flat, lengths))
    present, vals, kinds = _present_cells(arr)
    read = None
    if kinds == {list}:
        read = _explode(vals)
    elif kinds == {np.ndarray}:
        read = _string_arrays(vals)
    if read is not None:
        flat, lengths = read
    else:
        if not all(issubclass(t, _PLAIN_SETS) for t in kinds):
            vals = _scalars_as_sets(vals, scalars_as_sets, column, check_strings)
        flat, lengths = items_and_lengths(vals)
    return ElementForm(present, *_coded(flat, lengths))


def _coded(flat: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, pd.Index]:
    """CSR of the cells whose items are ``flat`` and lengths ``lengths``: row pointers,
    label codes, and the labels."""
    labels, domain = _factorize_elements(flat)
    indptr = np.zeros(lengths.size + 1, dtype=np.intp)
    np.cumsum(lengths, out=indptr[1:])
    return indptr, labels, domain


def reads_in_c() -> bool:
    """Whether lists, tuples, sets and object arrays are read by the C accelerator
    :mod:`pandas_agree._cells` (built with the package when a C compiler was at hand)."""
    return _cells is not None


def _read_in_c(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Which cells are present, the items of the present cells and their lengths, read by
    the C accelerator :mod:`pandas_agree._cells`; None without it, or when a cell is
    anything but None, a float NaN, a list, tuple, set, frozenset or 1-d object array (the
    general passes then read the column, by every rule).

    The items are the cells' own objects, as the general passes give them: a lists column
    then costs about what a frozenset column does.
    """
    if _cells is None:
        return None
    return _cells.read(np.require(arr, dtype=object, requirements="A"))


def _present_cells(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray, set[type]]:
    """Which cells are present, the present cells, and their types.

    A column of plain sets and None finds its missing cells by identity, a pass that
    opens no cell (``!= None``; no ndarray there, whose ``!=`` compares items); any other
    column by :func:`pandas.isna`, after which the present cells' types are taken again.
    """
    kinds = set(map(type, arr))
    if kinds <= _PLAIN_SETS_OR_NONE:
        present = np.not_equal(arr, None)
        kinds.discard(type(None))
        return present, (arr if present.all() else arr[present]), kinds
    present = ~pd.isna(arr)
    if present.all():
        return present, arr, kinds
    vals = arr[present]
    return present, vals, set(map(type, vals))


def items_and_lengths(
    cells: Any, read: Callable[[Any], Any] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Every item of ``cells`` (collections, each read through ``read`` when given) in one
    object array, and each cell's length: two passes in C.

    Examples
    --------
    >>> flat, lengths = items_and_lengths([["a", "b"], [], ("c",)])
    >>> flat.tolist(), lengths.tolist()
    (['a', 'b', 'c'], [2, 0, 1])
    """
    lengths = np.fromiter(map(len, cells), dtype=np.intp, count=len(cells))
    if lengths.sum(dtype=np.float64) >= 2.0**62:  # the integer sum would wrap around
        raise ValueTypeError(
            f"`value` holds sets of {lengths.sum(dtype=np.float64):.3g} labels in all, more "
            "than an array can index"
        )
    parts = itertools.chain.from_iterable(cells if read is None else map(read, cells))
    return np.fromiter(parts, dtype=object, count=int(lengths.sum())), lengths


def _scalars_as_sets(
    vals: np.ndarray, scalars_as_sets: bool, column: Hashable, check_strings: bool
) -> np.ndarray:
    """``vals`` (present cells) with every scalar wrapped as a one-element set, after the
    checks :func:`from_objects` names."""
    is_set = np.fromiter(map(is_set_cell, vals), dtype=bool, count=vals.size)
    bad = next((x for x in vals[~is_set] if not _hashable(x)), None)
    if bad is not None:
        raise ValueTypeError(
            f"`value` column {column!r} holds an unhashable value {bad!r}; values must be "
            "scalars or sets (set, frozenset, list, tuple, numpy array)"
        )
    if is_set.any() and not is_set.all() and not scalars_as_sets:
        raise MixedValueTypesError(
            f"`value` column {column!r} mixes sets (e.g. {vals[is_set][0]!r}) and scalars "
            f"(e.g. {vals[~is_set][0]!r}); use a set distance (a scalar then counts as a "
            "one-element set) or make every value a set"
        )
    if check_strings:  # text follows text_sets: "[...]" is a JSON list, "a;b" is refused
        read, has_sets = text_sets(vals[~is_set], None, column, as_sets=True)
        if has_sets:
            vals = vals.copy()
            vals[~is_set] = read
            is_set = np.fromiter(map(is_set_cell, vals), dtype=bool, count=vals.size)
    wrapped = np.empty(vals.size, dtype=object)
    wrapped[:] = [x if s else (x,) for x, s in zip(vals, is_set.tolist())]
    return wrapped


def _explode(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The items of the lists ``cells`` in one object array, and each list's length; None
    when pandas has no such loop, or it does not work as relied on here (the caller's
    general pass then reads the lists).

    The loop is pandas' own, behind :meth:`pandas.Series.explode` (whose result pandas 3
    would convert to its string dtype, doubling the cost), a third faster than the two
    passes of the standard library. It marks an empty list with one NaN item, taken out
    again here.
    """
    if _pandas_explode is None:  # pragma: no cover - present in pandas 0.25 to 3.1
        return None
    try:
        flat, lengths = _pandas_explode(cells)
        lengths = np.asarray(lengths).astype(np.intp, copy=False)
    except Exception:  # pragma: no cover - a private loop that changed
        return None
    if lengths.shape != cells.shape or flat.shape != (int(lengths.sum()),):
        return None  # pragma: no cover - a private loop that changed
    ones = np.flatnonzero(lengths == 1)  # an empty list: one item, missing
    at = np.cumsum(lengths)[ones] - 1
    missing = pd.isna(flat[at])
    if missing.any():
        ones, at = ones[missing], at[missing]
        empty = np.fromiter(map(len, cells[ones]), dtype=np.intp, count=ones.size) == 0
        if empty.any():
            keep = np.ones(flat.size, dtype=bool)
            keep[at[empty]] = False
            flat = flat[keep]
            lengths = lengths.copy()
            lengths[ones[empty]] = 0
    return flat, lengths


def _string_arrays(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The items of the numpy arrays ``cells`` and their lengths, or None unless every
    item is a ``str``.

    ``tolist`` reads an array four times faster than iterating it, but it turns a typed
    array's items into Python scalars (a ``datetime64[ns]`` item into an ``int``), so only
    strings are taken from it; other arrays (and 0-d ones) take the general pass.
    """
    try:
        flat, lengths = items_and_lengths(cells, np.ndarray.tolist)
    except TypeError:  # a 0-d array has no length
        return None
    if pd.api.types.infer_dtype(flat, skipna=False) not in ("string", "empty"):
        return None
    return flat, lengths


def is_set_cell(x: Any) -> bool:
    """Whether a value column's cell holds a set of labels rather than one label.

    A cell is a set when it is a collection or a sequence (it has a length and items: a
    list, tuple, set, frozenset, numpy array, pandas Series, deque, dict view, ``range``)
    other than a string (``str``, ``bytes``, ``bytearray``) or a mapping. Anything else (a
    string, a number, a date) is one label; a ``dict`` is an error (keys or values?).

    Examples
    --------
    >>> [is_set_cell(x) for x in (["a"], ("a",), frozenset(), np.array(["a"]), "ab", 3)]
    [True, True, True, True, False, False]
    """
    if isinstance(x, (str, bytes, bytearray, Mapping)):
        return False
    if isinstance(x, np.ndarray):
        return x.ndim > 0  # a 0-d array is one value (and cannot be hashed: an error)
    if isinstance(x, (_SET_TYPES, Collection)):
        return True
    kind = type(x)  # the sequence protocol without __iter__, as pyarrow reads it too
    return hasattr(kind, "__getitem__") and hasattr(kind, "__len__")


def from_distinct(
    present: np.ndarray, codes: np.ndarray, distinct: np.ndarray, column: Hashable
) -> ElementForm:
    """Element form from codes into distinct set (or scalar) values: work per distinct value.

    ``codes`` has one entry per present row; scalars among ``distinct`` are one-element sets.
    """
    flat, lengths = items_and_lengths([x if is_set_cell(x) else (x,) for x in distinct])
    ptr, labels, domain = _coded(flat, lengths)
    indptr, row_labels = gather_rows(ptr, labels, codes)
    return ElementForm(present, indptr, row_labels, domain)


def from_strings(series: pd.Series, sep: str) -> ElementForm:
    """Element form of delimited strings (``"PER;LOC"`` with ``sep=";"``).

    Labels are stripped of surrounding white space; empty fields are dropped, so ``""`` is
    the empty set and ``"PER;"`` is ``{"PER"}``. A missing cell is a missing rating; a cell
    that is not a string raises :class:`~pandas_agree.errors.ValueTypeError`.
    """
    present = ~pd.isna(series).to_numpy()
    vals = series[present] if not present.all() else series
    text_dtype = isinstance(series.dtype, pd.StringDtype) or (
        isinstance(series.dtype, pd.ArrowDtype) and "string" in str(series.dtype.pyarrow_dtype)
    )
    kinds = "string" if text_dtype else pd.api.types.infer_dtype(vals, skipna=True)
    if len(vals) and kinds not in ("string", "empty"):
        bad = next(x for x in vals if not isinstance(x, str))
        raise ValueTypeError(
            f"`sep` splits strings, but the `value` column {series.name!r} holds {bad!r} "
            f"({type(bad).__name__}); pass sep=None for sets given as lists or sets"
        )

    def as_listed() -> ElementForm:  # "[...]" cells are JSON lists (see text_sets)
        cells, _ = text_sets(vals.to_numpy(dtype=object), sep, series.name, as_sets=True)
        form = from_objects(cells, False, series.name, check_strings=False)
        return ElementForm(present, form.indptr, form.labels, form.label_domain)

    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:  # without the arrow extra (tests: monkeypatched away)
        if len(vals) and vals.astype(object).str.contains("[", regex=False).any():
            return as_listed()
        split = vals.astype(object).str.split(sep, regex=False).to_numpy()
        lists = np.empty(split.size, dtype=object)
        lists[:] = [[p.strip() for p in parts if p.strip()] for parts in split]
        form = from_objects(lists, False, series.name, check_strings=False)
        return ElementForm(present, form.indptr, form.labels, form.label_domain)
    if text_dtype:  # Arrow-backed text (pandas' default string dtype): no conversion
        arr = pa.array(vals)
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
    else:
        arr = pa.array(vals.to_numpy(dtype=object), type=pa.large_string())
    if len(arr) and pc.any(pc.match_substring(arr, "[")).as_py():  # a scan in C
        return as_listed()
    parts = pc.split_pattern(arr, sep)
    flat = pc.utf8_trim_whitespace(pc.list_flatten(parts))
    keep = pc.not_equal(pc.utf8_length(flat), 0)
    n_rows = len(parts)
    indptr = np.zeros(n_rows + 1, dtype=np.intp)
    if keep.false_count:  # drop empty fields ("PER;;LOC", "", a trailing separator)
        lengths = pc.list_value_length(parts).to_numpy(zero_copy_only=False)
        mask = keep.to_numpy(zero_copy_only=False)
        row = np.repeat(np.arange(n_rows, dtype=np.intp), lengths)[mask]
        np.cumsum(np.bincount(row, minlength=n_rows), out=indptr[1:])
        flat = flat.filter(keep)
    else:
        offsets = parts.offsets.to_numpy(zero_copy_only=False)
        indptr[:] = offsets - offsets[0]
    encoded = pc.dictionary_encode(flat)
    labels = encoded.indices.to_numpy(zero_copy_only=False).astype(np.intp, copy=False)
    domain = pd.Index(encoded.dictionary.to_pylist(), dtype=object)
    return ElementForm(present, indptr, labels, domain)


def likely_separator(values: Any) -> tuple[Any, str] | None:
    """A string among ``values`` that looks like several labels, and the separator it has."""
    for x in values:
        if isinstance(x, str):
            for hint in SEPARATOR_HINTS:
                if hint in x:
                    return x, hint
            stripped = x.strip()
            if any(ch.isspace() for ch in stripped):
                return x, " "
    return None


def missing_in_set_message(column: Hashable, unit: Any, coder: Any, cell: Any) -> str:
    """The message of :class:`~pandas_agree.errors.MissingInSetError` (one wording)."""
    unit, coder = (x.item() if isinstance(x, np.generic) else x for x in (unit, coder))
    return (
        f"`value` column {column!r} holds a missing element inside a set: unit {unit!r}, "
        f"coder {coder!r}, value {cell!r}. A missing rating is a missing cell: drop the "
        "missing element, or make the whole cell missing"
    )


def form_of(
    raw: pd.Series, sep: str | bool | None, scalars_as_sets: bool
) -> tuple[ElementForm | None, tuple[np.ndarray, np.ndarray] | None]:
    """The element form of ``raw`` when it must go through the set encoder, or an object
    column's codes when it need not.

    Arrow list columns, delimited strings (``sep``) and object columns of unhashable cells
    (lists, sets, arrays) go through the encoder: ``(form, None)``. An object column of
    hashable cells (frozensets, tuples, scalars) is coded once by :func:`pandas.factorize`
    instead, its distinct values classified afterwards (the faster road): ``(None, (codes,
    distinct))``, codes -1 for missing cells. Other dtypes: ``(None, None)``.
    """
    if is_arrow_list(raw):
        return from_arrow(raw), None
    if isinstance(sep, str):
        return from_strings(raw, sep), None
    if raw.dtype != object:
        return None, None
    arr = raw.to_numpy(dtype=object)
    try:
        codes, uniques = pd.factorize(arr)
    except TypeError:  # lists, sets, arrays: unhashable cells
        return from_objects(arr, scalars_as_sets, raw.name, check_strings=sep is None), None
    return None, (codes.astype(np.intp, copy=False), np.asarray(uniques, dtype=object))


def to_frozensets(
    raw: pd.Series,
    sep: str | bool | None,
    scalars_as_sets: bool,
    units: pd.Series | None = None,
    coders: pd.Series | None = None,
) -> pd.Series:
    """``raw`` with every set as a frozenset (missing cells NaN), for hashing (dask partitions).

    Columns that need no encoding come back unchanged, as do hashable object columns (their
    frozensets are checked for missing elements).
    """
    from .._core.setcodes import dedupe_sets

    form, _ = form_of(raw, sep, scalars_as_sets)
    if form is None:
        return raw
    present_rows = np.flatnonzero(form.present)
    if form.labels.size and form.labels.min() < 0:
        at = int(np.searchsorted(form.indptr, int(np.argmax(form.labels < 0)), side="right")) - 1
        row = present_rows[at]
        raise MissingInSetError(
            missing_in_set_message(
                raw.name,
                None if units is None else units.iloc[row],
                None if coders is None else coders.iloc[row],
                raw.iloc[row],
            )
        )
    codes, set_ptr, set_labels = dedupe_sets(form.indptr, form.labels, form.n_labels)
    elements = form.label_domain.to_numpy(dtype=object)
    sets = np.empty(set_ptr.size - 1, dtype=object)
    sets[:] = [frozenset(elements[set_labels[a:b]]) for a, b in itertools.pairwise(set_ptr)]
    out = np.full(raw.size, np.nan, dtype=object)
    out[present_rows] = sets[codes]
    return pd.Series(out, index=raw.index, name=raw.name, dtype=object)


def _is_bracketed(text: str) -> bool:
    """Whether ``text`` is written as a list: it starts with "[" (after white space)."""
    return text.lstrip().startswith("[")


def _json_set(text: str, column: Hashable) -> frozenset:
    """A bracketed text cell read as a JSON list; anything else in brackets is refused."""
    import json

    try:
        items = json.loads(text)
    except ValueError as exc:
        reason = getattr(exc, "msg", str(exc))
        items, problem = None, f"it cannot be read as a JSON list ({reason})"
    else:
        problem = None if isinstance(items, list) else "it cannot be read as a JSON list"
    if problem is None:
        try:
            return frozenset(tuple(x) if isinstance(x, list) else x for x in items)
        except TypeError:
            problem = "its elements are not labels"
    raise AmbiguousValuesError(
        f"`value` column {column!r} holds the text {text!r}, written as a list (starting "
        f"with '['), but {problem}: write sets as JSON lists ('[\"a\", \"b\"]'; '[]' is "
        "the empty set), or pass sep=False to read each text as one label"
    )


def _json_number(text: str) -> Any:
    """``text`` as the number it writes in JSON ("7", "2.5"), else ``text`` itself."""
    import json

    try:
        parsed = json.loads(text)
    except ValueError:
        return text
    if isinstance(parsed, (int, float)) and not isinstance(parsed, bool):
        return parsed
    return text


def text_sets(
    cells: Any, sep: str | bool | None, column: Hashable, *, as_sets: bool
) -> tuple[np.ndarray, bool]:
    """Read the text cells of a value column where sets are read: the one rule of Python
    and the command line.

    Rules for a text (``str``) cell, in order:

    1. ``sep=False``: every text is one label, as written (brackets included).
    2. A text written as a list (it starts with ``"["`` after white space) is a JSON
       list: ``"[]"`` is the empty set, ``'["a", "b"]'`` is ``{"a", "b"}``, ``"[1, 2]"``
       is ``{1, 2}``; with or without ``sep``. Such a text that is not a JSON list
       (Python's ``"['a', 'b']"``, an unclosed ``"[1, 2"``) raises
       :class:`~pandas_agree.errors.AmbiguousValuesError`.
    3. With ``sep``, every other text is split at ``sep`` (labels stripped, empty fields
       dropped: ``""`` is the empty set); its labels are text.
    4. Without ``sep``, in a column read as sets (``as_sets``: a set distance) or holding a
       list-like text, another text that looks like several labels (``"a;b"``, see
       :data:`SEPARATOR_HINTS`) raises :class:`~pandas_agree.errors.AmbiguousValuesError`;
       in a column holding a list-like text, a text that writes a JSON number (``"7"``)
       is that number, as the elements of its JSON lists are; any other text stays one
       label (the caller counts it as the one-element set).

    So a text that looks like a delimited or bracketed list is never read as one label
    unless ``sep=False`` says so. Cells that are not text are returned as they are.

    Parameters
    ----------
    cells : array-like
        The cells (any mix of text, missing values, other labels and sets).
    sep : str, None or False
        As for :func:`pandas_agree.alpha`.
    column : hashable
        The column's name, for messages.
    as_sets : bool
        Whether the column is read as sets whatever its cells (a set distance).

    Returns
    -------
    cells : ndarray of object
        The cells, text read by the rules (a frozenset where it is a set).
    has_sets : bool
        Whether a text cell became a set (rule 2 or 3).

    Examples
    --------
    >>> cells, has_sets = text_sets(["[]", '["a", "b"]', "c"], None, "v", as_sets=True)
    >>> [sorted(x) if isinstance(x, frozenset) else x for x in cells], has_sets
    ([[], ['a', 'b'], 'c'], True)
    >>> [sorted(x) for x in text_sets(["[]", "a;b"], ";", "v", as_sets=True)[0]]
    [[], ['a', 'b']]
    >>> text_sets(["a;b"], None, "v", as_sets=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pandas_agree.errors.AmbiguousValuesError: `value` column 'v' holds the string 'a;b' ...
    """
    arr = np.empty(len(cells), dtype=object)
    arr[:] = list(cells) if not isinstance(cells, np.ndarray) else cells
    if sep is False or arr.size == 0:
        return arr, False
    is_text = np.fromiter((isinstance(x, str) for x in arr), dtype=bool, count=arr.size)
    if not is_text.any():
        return arr, False
    texts = pd.unique(arr[is_text])  # the rules run once per distinct text
    bracketed = np.fromiter(map(_is_bracketed, texts), dtype=bool, count=texts.size)
    read: dict[str, Any] = {t: _json_set(t, column) for t in texts[bracketed]}
    plain = texts[~bracketed]
    if isinstance(sep, str):
        for t in plain:
            read[t] = frozenset(p.strip() for p in t.split(sep) if p.strip())
    else:
        if as_sets or bracketed.any():
            check_separators(plain, column)
        if bracketed.any():
            for t in plain:
                number = _json_number(t)
                if number is not t:
                    read[t] = number
    if not read:
        return arr, False
    positions = np.flatnonzero(is_text)
    arr[positions] = [read.get(t, t) for t in arr[positions]]
    has_sets = bool(bracketed.any()) or (isinstance(sep, str) and bool(plain.size))
    return arr, has_sets


def check_separators(distinct: Any, column: Hashable) -> None:
    """Refuse plain strings that look like several labels under a set distance."""
    found = likely_separator(distinct)
    if found is not None:
        text, hint = found
        shown = "white space" if hint == " " else repr(hint)
        raise AmbiguousValuesError(
            f"`value` column {column!r} holds the string {text!r} under a set distance: one "
            f"label, or several separated by {shown}? Pass sep={hint!r} (or another "
            "separator) to split strings into sets of labels, or sep=False to read each "
            "string as one label"
        )
