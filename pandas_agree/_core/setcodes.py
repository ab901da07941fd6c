"""Sets as CSR rows of label codes: canonical form, union by key, and exact deduplication.

Every shape in which set-valued labels arrive (Python sets or lists, Arrow list columns, one
label per row, delimited strings) ends here as *element form*: ``indptr`` (row pointers, one
row per rating) and ``labels`` (integer label codes). This module turns element form into
one code per rating and the distinct sets, with numpy (no per-row Python):

* :func:`union_by_key` merges the rows that share a key (a (unit, coder) cell), which is how
  "one label per row" and ``on_duplicate="union"`` become sets (by OR-ing bit masks when
  there are at most 63 labels, else by sorting);
* :func:`dedupe_sets` gives each row the code of its set, identical sets sharing a code, in
  order of first appearance, and the distinct sets in canonical CSR form (sorted labels).

Deduplication is exact: a bit mask per row when there are at most 63 labels, otherwise rows
are grouped by length and compared as fixed-width integer rows (``np.unique(axis=0)``).
"""

from __future__ import annotations

import numpy as np

from .tuning import BLOCK_CELLS, direct_codes_fit

__all__ = ["canonical_rows", "dedupe_sets", "gather_rows", "union_by_key"]

# Label domains up to this size are deduplicated through one bit mask per row.
_MASK_LABELS = 63


def _row_ids(indptr: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(indptr.size - 1, dtype=np.intp), np.diff(indptr))


def canonical_rows(
    indptr: np.ndarray, labels: np.ndarray, n_labels: int
) -> tuple[np.ndarray, np.ndarray]:
    """Sort the labels within each row and drop repeats (a list ``[a, b, a]`` is ``{a, b}``).

    Examples
    --------
    >>> ip, lab = canonical_rows(np.array([0, 3, 3, 5]), np.array([2, 0, 2, 1, 1]), 3)
    >>> ip.tolist(), lab.tolist()
    ([0, 2, 2, 3], [0, 2, 1])
    """
    n_rows = indptr.size - 1
    if labels.size == 0:
        return np.zeros(n_rows + 1, dtype=np.intp), np.zeros(0, dtype=np.intp)
    key = _row_ids(indptr).astype(np.int64) * max(n_labels, 1) + labels
    key = np.sort(key)
    keep = np.ones(key.size, dtype=bool)
    keep[1:] = key[1:] != key[:-1]
    key = key[keep]
    rows, out = np.divmod(key, max(n_labels, 1))
    new_ptr = np.zeros(n_rows + 1, dtype=np.intp)
    np.cumsum(np.bincount(rows, minlength=n_rows), out=new_ptr[1:])
    return new_ptr, out.astype(np.intp, copy=False)


def gather_rows(
    indptr: np.ndarray, labels: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Element form of the rows ``rows`` (repeats allowed) of a CSR matrix.

    Examples
    --------
    >>> ip, lab = gather_rows(np.array([0, 2, 3]), np.array([5, 6, 7]), np.array([1, 0, 1]))
    >>> ip.tolist(), lab.tolist()
    ([0, 1, 3, 4], [7, 5, 6, 7])
    """
    lengths = np.diff(indptr)[rows]
    new_ptr = np.zeros(rows.size + 1, dtype=np.intp)
    np.cumsum(lengths, out=new_ptr[1:])
    # position of each output element in ``labels``: its row's start plus its offset
    offsets = np.arange(new_ptr[-1], dtype=np.intp) - np.repeat(new_ptr[:-1], lengths)
    return new_ptr, labels[np.repeat(indptr[:-1][rows], lengths) + offsets]


def union_by_key(
    keys: np.ndarray, indptr: np.ndarray, labels: np.ndarray, n_labels: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge the rows that share a key into one set per key.

    Returns ``(first, indptr, labels)``: the position of each key's first row (keys in order
    of first appearance) and the merged sets in canonical form. An empty row still makes its
    key a set (the empty set when no other row of the key has labels).

    Examples
    --------
    >>> first, ip, lab = union_by_key(
    ...     np.array([7, 3, 7]), np.array([0, 1, 2, 2]), np.array([4, 1]), 5)
    >>> first.tolist(), ip.tolist(), lab.tolist()
    ([0, 1], [0, 1, 2], [4, 1])
    """
    group, first = _codes_of_keys(keys)  # key of each row, numbered by first appearance
    element_group = np.repeat(group, np.diff(indptr))
    if n_labels <= _MASK_LABELS:  # OR the rows' bit masks into each key's: no sort
        masks = np.zeros(first.size, dtype=np.uint64)
        bits = np.left_shift(np.uint64(1), labels.astype(np.uint64))
        np.bitwise_or.at(masks, element_group, bits)
        return (first, *_rows_of_masks(masks, n_labels))
    # a CSR with one row per key: the labels of all its rows, then canonicalised
    by_group = np.argsort(element_group, kind="stable")
    ptr = np.zeros(first.size + 1, dtype=np.intp)
    np.cumsum(np.bincount(element_group, minlength=first.size), out=ptr[1:])
    ptr, merged = canonical_rows(ptr, labels[by_group], n_labels)
    return first, ptr, merged


def _rows_of_masks(masks: np.ndarray, n_labels: int) -> tuple[np.ndarray, np.ndarray]:
    """Canonical CSR rows (sorted labels) of bit masks of labels 0..63: the set bits, a
    block of rows at a time (one byte per row and label).

    Examples
    --------
    >>> ptr, labels = _rows_of_masks(np.array([0b101, 0, 0b10], dtype=np.uint64), 3)
    >>> ptr.tolist(), labels.tolist()
    ([0, 2, 2, 3], [0, 2, 1])
    """
    row_parts, label_parts = [], []
    block = max(1, BLOCK_CELLS // 64)
    for start in range(0, masks.size, block):
        chunk = masks[start : start + block].astype("<u8").view(np.uint8).reshape(-1, 8)
        bits = np.unpackbits(chunk, axis=1, bitorder="little")[:, :n_labels]
        rows, labels = np.nonzero(bits)  # row by row, labels ascending within a row
        row_parts.append(rows + start)
        label_parts.append(labels)
    ptr = np.zeros(masks.size + 1, dtype=np.intp)
    if not row_parts:
        return ptr, np.zeros(0, dtype=np.intp)
    np.cumsum(np.bincount(np.concatenate(row_parts), minlength=masks.size), out=ptr[1:])
    return ptr, np.concatenate(label_parts).astype(np.intp, copy=False)


def _masks(indptr: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """One uint64 bit mask per row (labels < 64; repeats within a row are harmless).

    A row's mask is the sum of its bits (prefix sums, wrapping modulo 2**64) when no label
    repeats in it; a repeat makes a carry, so the sum has fewer bits set than the row has
    labels, and those masks are then taken as ORs (``reduceat``, also the route on numpy
    before 2.0, which has no popcount).
    """
    bits = np.left_shift(np.uint64(1), labels.astype(np.uint64))
    lengths = np.diff(indptr)
    if hasattr(np, "bitwise_count"):
        sums = np.zeros(bits.size + 1, dtype=np.uint64)
        np.cumsum(bits, out=sums[1:])
        masks = sums[indptr[1:]] - sums[indptr[:-1]]
        if np.array_equal(np.bitwise_count(masks), lengths):
            return masks
    masks = np.zeros(indptr.size - 1, dtype=np.uint64)
    nonempty = np.flatnonzero(lengths > 0)
    if nonempty.size:
        # reduceat runs the last row to the end of the array: end it at the last row's end
        masks[nonempty] = np.bitwise_or.reduceat(bits[: indptr[-1]], indptr[nonempty])
    return masks


def _first_codes(indptr: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes of the rows' sets (labels < 64) in order of first appearance, and each code's
    first row: each row's bit mask (:func:`_masks`), the masks numbered
    (:func:`_codes_of_keys`)."""
    return _codes_of_keys(_masks(indptr, labels))


def _codes_of_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes of integer keys in order of first appearance, and each code's first row."""
    if keys.size and direct_codes_fit(keys.size, int(keys.max())):
        # a table over the key range: each key's first row (the reversed scatter keeps the
        # earliest), then the keys in use numbered by that row
        n = keys.size
        first = np.full(int(keys.max()) + 1, n, dtype=np.intp)
        first[keys[::-1]] = np.arange(n - 1, -1, -1, dtype=np.intp)
        used = np.flatnonzero(first < n)
        used = used[np.argsort(first[used], kind="stable")]
        code_of = np.empty(first.size, dtype=np.intp)
        code_of[used] = np.arange(used.size, dtype=np.intp)
        return code_of[keys], first[used]
    _, sorted_codes = np.unique(keys, return_inverse=True)
    sorted_codes = sorted_codes.ravel()
    return _first_appearance(sorted_codes, int(sorted_codes.max()) + 1 if keys.size else 0)


def _first_appearance(codes: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Renumber ``codes`` (0..n-1) by first appearance; also each new code's first row."""
    first = np.empty(n, dtype=np.intp)
    first[codes[::-1]] = np.arange(codes.size - 1, -1, -1, dtype=np.intp)  # first one wins
    order = np.argsort(first, kind="stable")
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n, dtype=np.intp)
    return rank[codes], first[order]


def dedupe_sets(
    indptr: np.ndarray, labels: np.ndarray, n_labels: int, canonical: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Code each row by its set; identical sets (whatever their order or repeats) share a code.

    Parameters
    ----------
    indptr, labels : ndarray
        Element form: row ``i`` holds ``labels[indptr[i]:indptr[i+1]]``.
    n_labels : int
        Labels are codes ``0 .. n_labels - 1``.
    canonical : bool
        Whether rows are already sorted without repeats (skips :func:`canonical_rows`).

    Returns
    -------
    codes : ndarray of intp
        The set code of each row, numbered by first appearance.
    set_indptr, set_labels : ndarray
        The distinct sets in code order, each with sorted labels.

    Examples
    --------
    >>> codes, ip, lab = dedupe_sets(np.array([0, 2, 3, 5, 5]), np.array([1, 0, 2, 0, 1]), 3)
    >>> codes.tolist(), ip.tolist(), lab.tolist()
    ([0, 1, 0, 2], [0, 2, 3, 3], [0, 1, 2])
    """
    n_rows = indptr.size - 1
    if n_rows == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(1, dtype=np.intp), np.zeros(0, dtype=np.intp)
    if n_labels <= _MASK_LABELS:
        codes, first = _first_codes(indptr, labels)
        set_ptr, set_labels = gather_rows(indptr, labels, first)
        if not canonical:
            set_ptr, set_labels = canonical_rows(set_ptr, set_labels, n_labels)
        return codes, set_ptr, set_labels
    if not canonical:
        indptr, labels = canonical_rows(indptr, labels, n_labels)
    lengths = np.diff(indptr)
    codes = np.empty(n_rows, dtype=np.intp)
    next_code = 0
    for length in np.unique(lengths).tolist():
        rows = np.flatnonzero(lengths == length)
        if length == 0:
            codes[rows] = next_code
            next_code += 1
            continue
        block = labels[indptr[rows][:, None] + np.arange(length)]
        _, inverse = np.unique(block, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        codes[rows] = inverse + next_code
        next_code += int(inverse.max()) + 1
    codes, first = _first_appearance(codes, next_code)
    set_ptr, set_labels = gather_rows(indptr, labels, first)
    return codes, set_ptr, set_labels
