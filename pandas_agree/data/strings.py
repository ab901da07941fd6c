"""Codes of short Arrow strings from their bytes (unit and coder columns, no string hashing).

Coder names, many unit ids and many labels are a few bytes long. A UTF-8 string of at most
7 bytes, packed with its length into one 64-bit integer, *is* that integer: equal strings
give equal keys and different strings different keys, so numbering the keys (an integer
hash table) codes the strings exactly, faster than hashing the strings themselves
(``pyarrow.compute.dictionary_encode``, which :func:`pandas.factorize` calls): 300,000
coder names in 0.8 ms in C (:mod:`pandas_agree._core._firstcodes`), 2.7 ms by numpy and
:func:`pandas.factorize` without it, instead of 4.5 ms. The bytes are packed big-endian
above the length, so the keys sort as the strings do and the labels come back sorted from
the keys alone. Longer strings, missing labels and other dtypes are left to
:func:`pandas.factorize` (None).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

try:  # the optional C accelerator of first_codes
    from .._core import _firstcodes
except ImportError:  # built without a C compiler: numpy gives the same codes
    _firstcodes = None

__all__ = ["MAX_BYTES", "first_codes", "short_string_codes", "strings_of"]

#: Strings of at most this many bytes are packed (the eighth byte holds the length).
MAX_BYTES = 7


def _arrow_text(series: pd.Series):  # -> pyarrow.StringArray | pyarrow.LargeStringArray | None
    """The series as one pyarrow string array, or None when it is not Arrow-backed text."""
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype):
        if dtype.storage != "pyarrow":
            return None
    elif not isinstance(dtype, pd.ArrowDtype):
        return None
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - Arrow-backed data come with pyarrow
        return None
    arr = pa.array(series.array)
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    return arr if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type) else None


def short_string_codes(series: pd.Series) -> tuple[np.ndarray, pd.Index] | None:
    """Codes of an Arrow-backed string column into its sorted labels, or None.

    The same codes and labels as ``pd.factorize(series, sort=True)`` (labels in the dtype
    of ``series``), for columns with no missing label and no string over
    :data:`MAX_BYTES` bytes; None for any other column.

    Examples
    --------
    >>> import pyarrow  # noqa: F401 (pandas' Arrow-backed strings need it)
    >>> s = pd.Series(["bob", "ann", "bob", ""], dtype="string[pyarrow]")
    >>> codes, labels = short_string_codes(s)
    >>> codes.tolist(), labels.tolist()
    ([2, 1, 2, 0], ['', 'ann', 'bob'])
    """
    arr = _arrow_text(series)
    if arr is None or arr.null_count or len(arr) == 0:
        return None
    import pyarrow as pa

    numbered = first_codes(arr)
    if numbered is None:
        return None
    codes, keys = numbered
    order = np.argsort(keys, kind="stable")
    if (order != np.arange(order.size)).any():  # first appearance was not sorted order
        rank = np.empty(order.size, dtype=np.intp)
        rank[order] = np.arange(order.size, dtype=np.intp)
        codes, keys = rank[codes], keys[order]
    return codes, pd.Index(_unpacked(keys, series.dtype, pa))


def first_codes(arr, *, c_only: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """Number the strings of a pyarrow string array by first appearance, from their bytes.

    One pass in C when :mod:`pandas_agree._core._firstcodes` is built (540,000 labels:
    2 ms); otherwise the keys are packed by numpy, one pass per byte position, and numbered
    by :func:`pandas.factorize`.

    Parameters
    ----------
    arr : pyarrow.StringArray or pyarrow.LargeStringArray
        The strings, without nulls (a null reads as an empty string).
    c_only : bool, default False
        Give None instead of taking numpy's road when the C accelerator is not built (for
        callers with a faster road of their own).

    Returns
    -------
    (codes, keys) or None
        ``codes`` (intp) numbers each string by first appearance; ``keys`` (uint64) holds
        each code's string packed, its bytes big-endian above its length (see
        :func:`strings_of`). None when a string has more than :data:`MAX_BYTES` bytes.

    Examples
    --------
    >>> import pyarrow
    >>> codes, keys = first_codes(pyarrow.array(["bob", "ann", "bob", ""]))
    >>> codes.tolist(), strings_of(keys)
    ([0, 1, 0, 2], ['bob', 'ann', ''])
    """
    import pyarrow as pa

    wide = pa.types.is_large_string(arr.type)
    if len(arr) == 0:  # its offsets buffer may be missing or empty (as Arrow allows)
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.uint64)
    _, offsets_buf, data_buf = arr.buffers()
    offsets = np.frombuffer(offsets_buf, dtype=np.int64 if wide else np.int32)
    offsets = offsets[arr.offset : arr.offset + len(arr) + 1]
    data = np.frombuffer(data_buf or b"", dtype=np.uint8)  # no buffer: every string empty
    if _firstcodes is not None:
        return _firstcodes.short_strings(
            np.require(offsets, requirements="CA"), np.require(data, requirements="CA")
        )
    if c_only:
        return None
    lengths = np.diff(offsets)
    longest = int(lengths.max()) if lengths.size else 0
    if longest > MAX_BYTES:
        return None
    # big-endian bytes over the lengths: integer order is the strings' order (UTF-8 byte
    # order is code point order, as Python and pandas sort strings; a prefix comes first)
    key = lengths.astype(np.uint64)
    if longest:
        # eight zero bytes past the end, so that every start + j below is in bounds
        data = np.concatenate([data[: int(offsets[-1])], np.zeros(8, dtype=np.uint8)])
        starts = offsets[:-1]
        for j in range(longest):
            byte = data[starts + j].astype(np.uint64)
            byte[lengths <= j] = 0  # past the string's end: another string's byte
            key |= byte << np.uint64(8 * (MAX_BYTES - j))
    codes, keys = pd.factorize(key)
    return codes.astype(np.intp, copy=False), keys


def strings_of(keys: np.ndarray) -> list[str]:
    """The strings packed in ``keys`` (see :func:`first_codes`), as Python strings.

    Examples
    --------
    >>> key = (ord("a") << 56) | (ord("b") << 48) | 2
    >>> strings_of(np.array([key, 0], dtype=np.uint64))
    ['ab', '']
    """
    import pyarrow as pa

    return _arrow_strings(keys, pa).to_pylist()


def _unpacked(keys: np.ndarray, dtype, pa):  # -> pandas ExtensionArray of ``dtype``
    """The strings packed in ``keys``, in an array of ``dtype`` (no Python object per string)."""
    return pd.array(_arrow_strings(keys, pa), dtype=dtype)


def _arrow_strings(keys: np.ndarray, pa):  # -> pyarrow.LargeStringArray
    """The strings packed in ``keys``, as one Arrow array."""
    lengths = (keys & np.uint64(0xFF)).astype(np.int64)
    rows = keys.astype(">u8").view(np.uint8).reshape(-1, 8)[:, :MAX_BYTES]
    data = rows[np.arange(MAX_BYTES) < lengths[:, None]]  # row by row: the strings' bytes
    offsets = np.zeros(keys.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return pa.LargeStringArray.from_buffers(
        keys.size, pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(data))
    )
