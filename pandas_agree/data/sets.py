"""Set-valued columns in every shape they arrive in, read into codes and distinct sets.

Arrow list columns and delimited strings are read into :class:`ElementForm` (which rows hold
a rating, and the codes of each one's labels, as CSR rows); :mod:`pandas_agree._core.setcodes`
then merges and deduplicates the sets. Object columns are coded to their distinct values,
which are the only cells looked at in Python afterwards: one :func:`pandas.factorize` for
hashable cells (frozensets, tuples, scalars), :func:`from_objects` for lists, sets and arrays.
:func:`pandas_agree.data.prepare.prepare` is the caller (and the dask chunks, through
:func:`to_frozensets`).

=========================================  ==================================================
shape of the value column                  reader
=========================================  ==================================================
Arrow list column (``pd.ArrowDtype``)      :func:`from_arrow` (``pyarrow.compute``)
delimited strings with ``sep=``            :func:`from_strings` (Arrow or ``str.split``)
Python lists, sets, numpy arrays           :func:`from_objects` (iteration, ``pd.factorize``)
hashable cells (frozensets, tuples)        ``pd.factorize``; :func:`from_distinct` for rows
=========================================  ==================================================

Rules, the same for every shape:

* a missing cell (NaN, None, ``pd.NA``, a null list) is a missing rating;
* an empty set (``frozenset()``, ``[]``, an empty Arrow list, ``""`` with ``sep=``) is a coded
  empty set, not missing;
* a missing element *inside* a set (``{"a", None}``, an Arrow list with a null) is kept
  (label code ``-1`` in element form), and :func:`pandas_agree.data.prepare.prepare` raises
  :class:`~pandas_agree.errors.MissingInSetError` naming the unit, coder and value;
* a plain scalar label under a set distance is the one-element set ``{label}``;
* a *text* cell read where sets are read follows :func:`text_sets`, the one rule of Python
  and the command line: a cell written in brackets is a JSON list (``"[]"`` the empty set),
  other text is split at ``sep``, and without ``sep`` a text that looks like several
  labels is refused; ``sep=False`` reads every text as one label.
* a cell's items are what iterating it gives (its ``len()`` is never trusted for that);
* Arrow text that is not valid UTF-8 raises :class:`~pandas_agree.errors.ValueTypeError`
  naming the column and the row.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Collection, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.types import is_hashable

from .._core.setcodes import gather_rows
from ..errors import (
    AmbiguousValuesError,
    InvalidParameterError,
    MissingInSetError,
    MixedValueTypesError,
    ValueTypeError,
)

__all__ = [
    "SEPARATOR_HINTS",
    "ElementForm",
    "check_sep",
    "check_separators",
    "check_text",
    "first_with_missing",
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
    "text_sets",
    "to_frozensets",
    "valid_text",
]

#: Characters that suggest a string holds several labels (checked under set distances).
SEPARATOR_HINTS = (";", ",", "|", "/")

_SET_TYPES = (set, frozenset, list, tuple, np.ndarray)
# The built-in collections, exactly (not subclasses).
_PLAIN_SETS = frozenset({set, frozenset, list, tuple})
_NONE = type(None)
# Types whose len() is the number of items iterating them gives (numpy arrays of one or more
# dimensions: the length of the first), so their items can be counted without reading them.
_COUNTED = _PLAIN_SETS | {np.ndarray}
_COUNTED_OR_NONE = _COUNTED | {_NONE}
_END = object()


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


def check_text(series: pd.Series, param: str = "value") -> None:
    """Refuse an Arrow-backed column whose text is not valid UTF-8.

    Arrow strings are bytes that claim to be UTF-8; bytes that are not (an array built from
    binary data without validation) would fail only when a label is read back. Checked by
    ``validate(full=True)`` (a pass over the bytes in C; the readers check only the distinct
    labels, and call this to name the row); the error names the column and the first row
    holding such text.

    Raises
    ------
    ValueTypeError
        Naming ``param``, the column and the row.
    """
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype):
        if dtype.storage != "pyarrow":
            return
    elif not isinstance(dtype, pd.ArrowDtype) or not _holds_text(dtype.pyarrow_dtype):
        return
    try:
        import pyarrow as pa
    except ImportError:  # Arrow-backed data come with pyarrow (tests hide it)
        return
    arr = pa.array(series.array)
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if _valid(arr):
        return
    good, bad = 0, len(arr)  # rows [0, good) hold valid text, rows [0, bad) do not
    while bad - good > 1:
        mid = (good + bad) // 2
        good, bad = (mid, bad) if _valid(_text_of(arr.slice(0, mid))) else (good, mid)
    row = bad - 1
    shown = ""
    if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type):
        binary = pa.binary() if pa.types.is_string(arr.type) else pa.large_binary()
        shown = f": {arr.slice(row, 1).view(binary)[0].as_py()!r}"
    raise ValueTypeError(
        f"`{param}` column {series.name!r} holds Arrow text that is not valid UTF-8 at row "
        f"{row} (index {series.index[row]!r}){shown}; decode the bytes with their real "
        "encoding first"
    )


def valid_text(values: Any) -> bool:
    """Whether ``values`` (a pandas array or Index) holds no Arrow text that is not UTF-8
    (True for anything not Arrow-backed text)."""
    dtype = getattr(values, "dtype", None)
    arrow_text = (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow") or (
        isinstance(dtype, pd.ArrowDtype) and _holds_text(dtype.pyarrow_dtype)
    )
    if not arrow_text:
        return True
    try:
        import pyarrow as pa
    except ImportError:  # Arrow-backed data come with pyarrow (tests hide it)
        return True
    arr = pa.array(values.array if isinstance(values, (pd.Index, pd.Series)) else values)
    return _valid(arr)


def _holds_text(kind: Any) -> bool:
    """Whether an Arrow type is text, or lists or a dictionary of text."""
    import pyarrow as pa

    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return True
    if getattr(pa.types, "is_string_view", lambda _: False)(kind):  # pyarrow 16
        return True
    if pa.types.is_dictionary(kind):
        return _holds_text(kind.value_type)
    value_type = getattr(kind, "value_type", None)  # list types
    return value_type is not None and _holds_text(value_type)


def _text_of(arr: Any) -> Any:
    """The strings an Arrow array of text, lists of text or a dictionary holds, in one
    array (a slice of a list array keeps its whole child array)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    while not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        if pa.types.is_dictionary(arr.type):
            arr = arr.dictionary_decode()
        elif getattr(arr.type, "value_type", None) is not None:
            arr = pc.list_flatten(arr)
        else:  # string views: validated as a whole
            break
    return arr


def _valid(arr: Any) -> bool:
    import pyarrow as pa

    try:
        arr.validate(full=True)
    except pa.ArrowInvalid:
        return False
    return True


def _factorize_elements(flat: np.ndarray) -> tuple[np.ndarray, pd.Index]:
    try:
        codes, uniques = pd.factorize(flat)
    except TypeError:
        bad = next(x for x in flat if not is_hashable(x))
        raise ValueTypeError(
            f"`value` holds a set with an unhashable element {bad!r}; set elements must be "
            "hashable labels"
        ) from None
    return codes.astype(np.intp, copy=False), pd.Index(uniques, dtype=object)


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
    if _holds_text(labels.type) and not _valid(labels):  # the distinct labels: checked
        check_text(series)  # raises, naming the first row with such text
    return ElementForm(present, indptr, codes, pd.Index(labels.to_pylist(), dtype=object))


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


def _encoded(flat: Any) -> tuple[np.ndarray, Any]:
    """Codes of an Arrow array's items in order of first appearance (-1 for a null), and the
    distinct items as an Arrow array (:func:`pyarrow.compute.dictionary_encode`)."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(flat)
    return _indices(encoded), encoded.dictionary


def _indices(encoded: Any) -> np.ndarray:
    """A dictionary array's indices as intp, -1 for a null."""
    indices = encoded.indices
    if indices.null_count:  # a missing element inside a set: code -1, refused by the caller
        indices = indices.fill_null(-1)
    return indices.to_numpy(zero_copy_only=False).astype(np.intp, copy=False)


def from_objects(
    arr: np.ndarray, scalars_as_sets: bool, column: Hashable, check_strings: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Codes of an object column of lists, tuples, sets, arrays (and scalars) into its
    distinct sets, as for a column of hashable cells.

    A cell's items are what iterating it gives: the items of the present cells go into
    object arrays (:func:`itertools.chain`) and are coded by :func:`pandas.factorize`, so
    items compare as Python compares them (``b"cd"`` stays apart from ``"cd"``, ``2.5``
    from ``2``); the rows' sets are then told apart by
    :func:`~pandas_agree._core.setcodes.dedupe_sets`. A built-in list, tuple, set or
    frozenset, or a numpy array, is counted by ``len()`` (for them the number of items
    iteration gives); any other collection (a subclass, a deque, a Series) is first read
    into a tuple, so a ``len()`` that disagrees with its iteration cannot move an item to
    another cell. One-dimensional numpy arrays of strings or objects are joined by one
    :func:`numpy.concatenate` (their strings as ``str``); other arrays are iterated (a
    ``datetime64`` item stays a ``datetime64``).

    Scalars count as one-element sets when ``scalars_as_sets``; otherwise a column mixing
    sets and scalars raises :class:`~pandas_agree.errors.MixedValueTypesError`. With
    ``check_strings``, a scalar string that looks like several labels raises
    :class:`~pandas_agree.errors.AmbiguousValuesError` (see :func:`check_separators`).

    Returns
    -------
    codes : ndarray of intp
        One per cell, -1 for a missing cell.
    distinct : ndarray of object
        The distinct sets as frozensets, in order of first appearance (as tuples of the
        items when an item is missing, which the caller refuses).

    Examples
    --------
    >>> cells = np.empty(4, dtype=object)
    >>> cells[:] = [["a", "b"], None, ("b", "a"), []]
    >>> codes, distinct = from_objects(cells, False, "value")
    >>> codes.tolist(), [sorted(s) for s in distinct]
    ([0, -1, 0, 1], [['a', 'b'], []])
    """
    read = _read_in_blocks(arr)
    if read is not None:
        present, read = read
    else:
        present, vals, kinds = _present_cells(arr)
        read = _text_arrays(vals) if kinds == {np.ndarray} else None
        if read is None:
            cells = vals if kinds <= _PLAIN_SETS else _plain_cells(
                vals, scalars_as_sets, column, check_strings
            )
            read = _items_coded(cells)
    codes = np.full(arr.size, -1, dtype=np.intp)
    codes[present] = read[0]
    return codes, read[1]


def _read_in_blocks(arr: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]] | None:
    """Which cells are present, and the codes and distinct sets of the present cells, for a
    column whose present cells are all built-in lists, tuples, sets and frozensets, or all
    one-dimensional numpy arrays of strings or objects; None for any other column.

    The column is read in blocks of :data:`~pandas_agree._core.tuning.READ_BLOCK_CELLS`
    cells, each block's passes (types, lengths, items, their codes) one after another, so
    that the cells and labels a pass touches are still in the cache for the next one: the
    cost of these columns is in touching objects scattered over memory. The labels of each
    block are coded by :func:`pandas.factorize`, and the blocks' labels merged in order of
    first appearance, as one factorize of all items would number them.
    """
    from .._core.tuning import READ_BLOCK_CELLS

    parts = []
    joined = None  # whether the present cells are arrays joined by np.concatenate
    for start in range(0, arr.size, READ_BLOCK_CELLS):
        present, vals, kinds = _present_cells(arr[start : start + READ_BLOCK_CELLS])
        if kinds:
            arrays = kinds == {np.ndarray}
            if not (arrays or kinds <= _PLAIN_SETS) or joined not in (None, arrays):
                return None
            joined = arrays
        read = _joined_arrays(vals) if joined else _flat_items(vals)
        if read is None:
            return None
        flat, lengths = read
        parts.append((present, lengths, *_factorize_elements(flat)))
    present, lengths, labels, domain = _merged(parts)
    indptr = np.zeros(lengths.size + 1, dtype=np.intp)
    np.cumsum(_indexable(lengths), out=indptr[1:])
    if labels.size and labels.min() < 0:  # a missing item: refused by the caller
        return present, _as_tuples(arr[present])
    return present, distinct_sets(indptr, labels, domain)


def _merged(
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, pd.Index]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, pd.Index]:
    """The blocks' (present, lengths, label codes, labels) as one column's: the labels of
    every block factorized together, each block's codes moved onto them (-1 stays -1)."""
    if len(parts) == 1:
        return parts[0]
    if not parts:
        empty = np.zeros(0, dtype=np.intp)
        return np.zeros(0, dtype=bool), empty, empty, pd.Index([], dtype=object)
    domains = [domain.to_numpy(dtype=object) for *_, domain in parts]
    onto, domain = pd.factorize(np.concatenate(domains))
    codes = np.concatenate([p[2] for p in parts])
    starts = np.cumsum([0] + [d.size for d in domains[:-1]])  # each block's first label
    labels = np.full(codes.size, -1, dtype=np.intp)
    found = codes >= 0
    labels[found] = onto[(codes + np.repeat(starts, [p[2].size for p in parts]))[found]]
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        labels,
        pd.Index(domain, dtype=object),
    )


def _present_cells(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray, set[type]]:
    """Which cells are present, the present cells, and their types.

    One pass takes the cells' types; a column of built-in collections, numpy arrays and
    None then finds its missing cells by identity with None (only when it holds a None);
    any other column by :func:`pandas.isna`, after which the present cells' types are taken
    again.
    """
    kinds = set(map(type, arr))
    if kinds <= _COUNTED_OR_NONE:  # no cell of these types is missing but None
        if _NONE not in kinds:
            return np.ones(arr.size, dtype=bool), arr, kinds
        kinds.discard(_NONE)
        if np.ndarray in kinds:  # an array compares item by item: compare the types
            present = np.fromiter(map(type, arr), dtype=object, count=arr.size) != _NONE
        else:  # a built-in collection is never equal to None
            present = arr != None  # noqa: E711
        return present, arr[present], kinds
    present = ~pd.isna(arr)
    if present.all():
        return present, arr, kinds
    vals = arr[present]
    return present, vals, set(map(type, vals))


def _items_coded(cells: Any) -> tuple[np.ndarray, np.ndarray]:
    """Codes of ``cells`` (of the types in ``_COUNTED``) by their sets of items, and the
    distinct sets (frozensets); with a missing item, the distinct cells as tuples of their
    items, the missing item kept as it is (refused by the caller, which names its row)."""
    flat, lengths = _flat_items(cells)
    labels, domain = _factorize_elements(flat)
    if labels.size and labels.min() < 0:
        return _as_tuples(cells)
    indptr = np.zeros(lengths.size + 1, dtype=np.intp)
    np.cumsum(lengths, out=indptr[1:])
    return distinct_sets(indptr, labels, domain)


def _as_tuples(cells: Any) -> tuple[np.ndarray, np.ndarray]:
    """Codes of ``cells`` by the tuples of their items, and those tuples (for the message
    that names a missing item as the cell holds it)."""
    tuples = np.fromiter(map(tuple, cells), dtype=object, count=len(cells))
    codes, distinct = pd.factorize(tuples)
    return codes.astype(np.intp, copy=False), np.asarray(distinct, dtype=object)


def _joined_arrays(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The items of 1-d numpy arrays of strings or objects, joined by one
    :func:`numpy.concatenate` (strings as ``str``), and each array's length; None for other
    arrays (concatenate would turn a ``datetime64[ns]`` item into an int; a 0-d array is one
    value, not a set)."""
    kinds = {dtype.kind for dtype in set(map(operator.attrgetter("dtype"), cells))}
    if not kinds <= {"U", "O"}:
        return None
    try:
        lengths = _lengths(cells)
    except TypeError:  # len() of a 0-d array
        return None
    try:
        flat = np.concatenate(list(cells)) if cells.size else np.zeros(0, dtype=object)
    except ValueError:  # a 0-d array, or arrays of several dimensions
        return None
    if flat.shape != (int(lengths.sum()),):
        return None
    return flat.astype(object, copy=False), lengths


def _text_arrays(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Codes and distinct sets (frozensets) of 1-d numpy arrays of strings or objects (see
    :func:`_joined_arrays`); None for other arrays, or when an item is missing (the tuples
    then keep it as it is, for the error message)."""
    read = _joined_arrays(cells)
    if read is None:
        return None
    flat, lengths = read
    labels, domain = _factorize_elements(flat)
    if labels.size and labels.min() < 0:
        return None
    indptr = np.zeros(lengths.size + 1, dtype=np.intp)
    np.cumsum(lengths, out=indptr[1:])
    return distinct_sets(indptr, labels, domain)


def distinct_sets(
    indptr: np.ndarray, labels: np.ndarray, label_domain: pd.Index
) -> tuple[np.ndarray, np.ndarray]:
    """Codes of element-form rows by their sets, and the distinct sets as frozensets.

    Examples
    --------
    >>> codes, sets = distinct_sets(np.array([0, 2, 3, 5]), np.array([0, 1, 1, 1, 0]),
    ...                             pd.Index(["a", "b"]))
    >>> codes.tolist(), [sorted(s) for s in sets]
    ([0, 1, 0], [['a', 'b'], ['b']])
    """
    from .._core.setcodes import dedupe_sets

    codes, set_ptr, set_labels = dedupe_sets(indptr, labels, len(label_domain))
    elements = label_domain.to_numpy(dtype=object)
    sets = np.empty(set_ptr.size - 1, dtype=object)
    sets[:] = [frozenset(elements[set_labels[a:b]]) for a, b in itertools.pairwise(set_ptr)]
    return codes, sets


def _plain_cells(
    vals: np.ndarray, scalars_as_sets: bool, column: Hashable, check_strings: bool
) -> list:
    """``vals`` (present cells) as collections of the types in ``_COUNTED``: a scalar as a
    one-element tuple (after the checks :func:`from_objects` names), any other collection
    read into a tuple (by iteration)."""
    is_set = np.fromiter(map(is_set_cell, vals), dtype=bool, count=vals.size)
    if not is_set.all():
        scalars = vals[~is_set]
        bad = next((x for x in scalars if not is_hashable(x)), None)
        if bad is not None:
            raise ValueTypeError(
                f"`value` column {column!r} holds an unhashable value {bad!r}; values must be "
                "scalars or sets (set, frozenset, list, tuple, numpy array)"
            )
        if is_set.any() and not scalars_as_sets:
            raise MixedValueTypesError(
                f"`value` column {column!r} mixes sets (e.g. {vals[is_set][0]!r}) and "
                f"scalars (e.g. {scalars[0]!r}); use a set distance (a scalar then counts as "
                "a one-element set) or make every value a set"
            )
        if check_strings:  # text follows text_sets: "[...]" is a JSON list, "a;b" is refused
            read, has_sets = text_sets(scalars, None, column, as_sets=True)
            if has_sets:
                vals = vals.copy()
                vals[~is_set] = read
                is_set = np.fromiter(map(is_set_cell, vals), dtype=bool, count=vals.size)
    return [
        x if type(x) in _COUNTED else tuple(x) if s else (x,)
        for x, s in zip(vals, is_set.tolist())
    ]


def _lengths(cells: Any) -> np.ndarray:
    """``len()`` of each of ``cells``; refused when their sum would overflow an index."""
    return _indexable(np.fromiter(map(len, cells), dtype=np.intp, count=len(cells)))


def _indexable(lengths: np.ndarray) -> np.ndarray:
    """``lengths`` of cells, refused when their sum would overflow an index."""
    total = lengths.sum(dtype=np.float64)
    if total >= 2.0**62:  # the integer sum would wrap around
        raise ValueTypeError(
            f"`value` holds sets of {total:.3g} labels in all, more than an array can index"
        )
    return lengths


def _flat_items(cells: Any, lengths: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every item of ``cells`` (of the types in ``_COUNTED``, whose ``len()`` counts their
    items; ``lengths`` when known) in one object array, and each cell's length: two passes
    in C. A cell that changed between the passes (another thread) raises."""
    if lengths is None:
        lengths = _lengths(cells)
    parts = itertools.chain.from_iterable(cells)
    try:
        flat = np.fromiter(parts, dtype=object, count=int(lengths.sum()))
    except ValueError:  # fewer items than the lengths said
        flat = None
    if flat is None or next(parts, _END) is not _END:
        raise ValueTypeError(
            "`value` changed while it was read (a set gained or lost items); read it again"
        )
    return flat, lengths


def items_and_lengths(cells: Any) -> tuple[np.ndarray, np.ndarray]:
    """Every item of ``cells`` (collections) in one object array, and each cell's length.

    The items are what iterating each cell gives: a cell other than a built-in list,
    tuple, set, frozenset or numpy array is read into a tuple first, whatever its ``len()``
    says.

    Examples
    --------
    >>> flat, lengths = items_and_lengths([["a", "b"], [], ("c",)])
    >>> flat.tolist(), lengths.tolist()
    (['a', 'b', 'c'], [2, 0, 1])
    """
    if not set(map(type, cells)) <= _COUNTED:
        cells = [x if type(x) in _COUNTED else tuple(x) for x in cells]
    return _flat_items(cells)


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


def _coded(flat: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, pd.Index]:
    """CSR of the cells whose items are ``flat`` and lengths ``lengths``: row pointers,
    label codes, and the labels."""
    labels, domain = _factorize_elements(flat)
    indptr = np.zeros(lengths.size + 1, dtype=np.intp)
    np.cumsum(lengths, out=indptr[1:])
    return indptr, labels, domain


def from_distinct(
    present: np.ndarray, codes: np.ndarray, distinct: np.ndarray, column: Hashable
) -> ElementForm:
    """Element form from codes into distinct set (or scalar) values: work per distinct value.

    ``codes`` has one entry per present row; scalars among ``distinct`` are one-element sets.
    """
    flat, lengths = items_and_lengths([x if is_set_cell(x) else (x,) for x in distinct])
    ptr, labels, domain = _coded(flat, lengths)
    if (lengths == 1).all():  # one label per row (exploded rows): no row pointers to gather
        return ElementForm(present, np.arange(codes.size + 1), labels[codes], domain)
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
        return ElementForm(present, *_coded(*_flat_items(list(cells))))

    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:  # without the arrow extra (tests: monkeypatched away)
        if len(vals) and vals.astype(object).str.contains("[", regex=False).any():
            return as_listed()
        split = vals.astype(object).str.split(sep, regex=False).to_numpy()
        lists = [[p.strip() for p in parts if p.strip()] for parts in split]
        return ElementForm(present, *_coded(*_flat_items(lists)))
    if text_dtype:  # Arrow-backed text (pandas' default string dtype): no conversion
        arr = pa.array(vals)
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
    else:
        arr = pa.array(vals.to_numpy(dtype=object), type=pa.large_string())
    try:
        if len(arr) and pc.any(pc.match_substring(arr, "[")).as_py():  # a scan in C
            return as_listed()
        parts = pc.split_pattern(arr, sep)
        flat = pc.utf8_trim_whitespace(pc.list_flatten(parts))
        keep = pc.not_equal(pc.utf8_length(flat), 0)
    except pa.ArrowInvalid:
        check_text(series)  # text that is not UTF-8: raises, naming the row
        raise
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
    """The element form of ``raw``, or an object column's codes into its distinct values.

    Arrow list columns and delimited strings (``sep``) are read into element form:
    ``(form, None)``. An object column is coded into its distinct values, to be classified
    afterwards: ``(None, (codes, distinct))``, codes -1 for missing cells; one
    :func:`pandas.factorize` when its cells are hashable (frozensets, tuples, scalars),
    :func:`from_objects` when some are not (lists, sets, arrays). Other dtypes:
    ``(None, None)``. Arrow text that is not valid UTF-8 raises (:func:`check_text`).
    """
    if is_arrow_list(raw):
        return from_arrow(raw), None
    if isinstance(sep, str):
        return from_strings(raw, sep), None
    if raw.dtype != object:
        check_text(raw)
        return None, None
    arr = raw.to_numpy(dtype=object)
    try:
        codes, uniques = pd.factorize(arr)
    except TypeError:  # lists, sets, arrays: unhashable cells
        return None, from_objects(arr, scalars_as_sets, raw.name, check_strings=sep is None)
    return None, (codes.astype(np.intp, copy=False), np.asarray(uniques, dtype=object))


def to_frozensets(
    raw: pd.Series,
    sep: str | bool | None,
    scalars_as_sets: bool,
    units: pd.Series | None = None,
    coders: pd.Series | None = None,
) -> pd.Series:
    """``raw`` with every set as a frozenset (missing cells NaN), for hashing (dask chunks).

    Columns that need no encoding come back unchanged. A set with a missing element raises
    :class:`~pandas_agree.errors.MissingInSetError` with the message of
    :func:`pandas_agree.data.prepare.prepare`, naming the unit and coder of a row that holds
    it (``units`` and ``coders``: the label columns of ``raw``'s rows).
    """
    def where(row: int) -> tuple[Any, Any]:
        return tuple(None if col is None else col.iloc[row] for col in (units, coders))

    form, pre = form_of(raw, sep, scalars_as_sets)
    if form is not None:
        present_rows = np.flatnonzero(form.present)
        if form.labels.size and form.labels.min() < 0:
            at = int(np.searchsorted(form.indptr, int(np.argmax(form.labels < 0)), "right")) - 1
            row = present_rows[at]
            raise MissingInSetError(missing_in_set_message(raw.name, *where(row), raw.iloc[row]))
        codes, sets = distinct_sets(form.indptr, form.labels, form.label_domain)
        out = np.full(raw.size, np.nan, dtype=object)
        out[present_rows] = sets[codes]
        return pd.Series(out, index=raw.index, name=raw.name, dtype=object)
    return raw if pre is None else _sets_frozen(raw, *pre, where)


def _sets_frozen(raw: pd.Series, codes: np.ndarray, distinct: np.ndarray, where: Any) -> pd.Series:
    """``raw`` (coded as ``codes`` into ``distinct``) with its sets (frozensets, tuples,
    lists, ...) as frozensets, scalars as they are; a set with a missing element raises,
    naming its first row."""
    is_set = np.fromiter(map(is_set_cell, distinct), dtype=bool, count=distinct.size)
    if not is_set.any():
        return raw
    which = np.flatnonzero(is_set)
    sets = np.empty(which.size, dtype=object)
    sets[:] = [x if type(x) is frozenset else frozenset(x) for x in distinct[which]]
    bad = first_with_missing(sets)
    if bad is not None:
        row = int(np.argmax(codes == which[bad]))
        raise MissingInSetError(
            missing_in_set_message(raw.name, *where(row), set(sets[bad]))
        )
    first_row = int(np.argmax(codes == which[0]))
    if raw.iloc[first_row] is distinct[which[0]] and all(  # raw holds these very frozensets
        a is b for a, b in zip(sets, distinct[which])
    ):
        return raw
    normalised = distinct.copy()
    normalised[which] = sets
    out = np.full(raw.size, np.nan, dtype=object)
    present = codes >= 0
    out[present] = normalised[codes[present]]
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


def first_with_missing(sets: Any) -> int | None:
    """Position of the first of ``sets`` (collections) holding a missing element, or None.

    Examples
    --------
    >>> first_with_missing([frozenset({"a"}), frozenset({"b", None})])
    1
    """
    flat, lengths = items_and_lengths(sets)
    bad = pd.isna(flat)
    if not bad.any():
        return None
    return int(np.repeat(np.arange(len(lengths)), lengths)[np.argmax(bad)])


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
