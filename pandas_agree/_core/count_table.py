"""Alpha from a combined (unit, value) -> count table (the in-memory step of partitioned data).

Partitioned back ends (dask) reduce the ratings to one row per non-empty (unit, value) cell
with its count; units split across partitions are already merged by then. Everything here
works on integer codes of that table (numpy and scipy only, no pandas): the same
:class:`~pandas_agree._core.counts.UnitValueCounts` as the in-memory path, so every kernel
applies unchanged.
"""

from __future__ import annotations

import numpy as np

from .counts import UnitValueCounts, pairable_counts
from .groups import group_alphas, subset_counts

__all__ = [
    "bits_per_word",
    "cell_counts",
    "coder_words",
    "coders_by_group",
    "group_alphas",
    "pairable_coders",
    "popcount",
    "subset_counts",
    "unit_coder_masks",
]


def cell_counts(
    unit_codes: np.ndarray,
    value_codes: np.ndarray,
    count: np.ndarray,
    n_units: int,
    n_values: int,
) -> UnitValueCounts:
    """Pairable counts from cells ``(unit, value, count)`` (a cell may repeat; counts add).

    Equal to :func:`~pandas_agree._core.counts.pairable_counts` on the ratings the cells
    stand for (the counts are whole numbers held as floats).
    """
    weights = np.asarray(count, dtype=float)
    return pairable_counts(unit_codes, value_codes, n_units, n_values, weights=weights)


def pairable_coders(
    rated_group: np.ndarray,
    rated_coder: np.ndarray,
    rated_count: np.ndarray,
    single_group: np.ndarray,
    single_coder: np.ndarray,
    n_groups: int,
    n_coders: int,
) -> tuple[np.ndarray, int]:
    """Coders with at least one pairable value, per group and over all groups.

    A coder's ratings are pairable unless they all sit in units with a single value. The
    inputs are the number of ratings of each (group, coder) (``rated_*``, summed when a pair
    repeats) and the (group, coder) of every unit holding exactly one rating
    (``single_*``). A coder counts in a group when it has more ratings there than lone
    units. Returns the per-group numbers and the number over all groups.
    """
    rated_key = np.asarray(rated_group, np.int64) * n_coders + np.asarray(rated_coder, np.int64)
    single_key = np.asarray(single_group, np.int64) * n_coders + np.asarray(single_coder, np.int64)
    keys = np.concatenate((rated_key, single_key))
    signs = np.concatenate((np.asarray(rated_count, np.int64), -np.ones(single_key.size, np.int64)))
    uniq, inverse = np.unique(keys, return_inverse=True)
    surplus = np.bincount(inverse.ravel(), weights=signs, minlength=uniq.size)
    per_group = np.bincount(uniq[surplus > 0] // n_coders, minlength=n_groups)
    coder_surplus = np.bincount(uniq % n_coders, weights=surplus, minlength=n_coders)
    return per_group.astype(np.int64), int(np.count_nonzero(coder_surplus > 0))


# ---------------------------------------------------------------------------------------------
# Coder bit masks: duplicate ratings and coders with pairable values from summed bits
#
# Coder ``c`` is bit ``c % b`` of word ``c // b``. Summing the bits of the ratings of a cell
# (a decomposable aggregation, unlike "distinct coders") gives the OR of its coders' bits
# exactly when no coder repeats; a repeat carries, so the cell's bits count fewer than its
# ratings. ``b`` is chosen so that a sum of up to ``n_coders`` ratings never overflows int64.


def bits_per_word(n_coders: int) -> int:
    """Bits per int64 word such that ``n_coders`` summed bits never overflow."""
    return 63 - max(int(n_coders), 1).bit_length()


def coder_words(codes: np.ndarray, n_words: int, bits: int) -> np.ndarray:
    """(ratings x words) int64 bit masks of coder codes (one bit set per row)."""
    codes = np.asarray(codes, dtype=np.int64)
    out = np.zeros((codes.size, n_words), dtype=np.int64)
    rows = np.arange(codes.size)
    out[rows, codes // bits] = np.left_shift(np.int64(1), codes % bits)
    return out


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def popcount(words: np.ndarray) -> np.ndarray:
    """Set bits per row of a (rows x words) array of non-negative int64."""
    words = np.ascontiguousarray(words, dtype=np.int64)
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(words).sum(axis=-1, dtype=np.int64)
    as_bytes = words.view(np.uint8).reshape(*words.shape[:-1], -1)  # pragma: no cover
    return _BYTE_BITS[as_bytes].sum(axis=-1)  # pragma: no cover


def _or_by(keys: np.ndarray, words: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros((size, words.shape[1]), dtype=np.int64)
    if keys.size == 0:
        return out
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    out[sorted_keys[starts]] = np.bitwise_or.reduceat(words[order], starts, axis=0)
    return out


def unit_coder_masks(
    unit_codes: np.ndarray,
    count: np.ndarray,
    words: np.ndarray,
    n_units: int,
    n_coders: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Each unit's coders (OR of its cells' summed bits) and which units repeat a coder.

    ``words`` holds, per cell, the sum of its ratings' coder bits (see :func:`coder_words`).
    """
    count = np.asarray(count, dtype=np.int64)
    cell_bits = popcount(words)
    repeated_in_cell = (count > n_coders) | (cell_bits != count)
    masks = _or_by(np.asarray(unit_codes, dtype=np.intp), words, n_units)
    bits_in_cells = np.bincount(unit_codes, weights=cell_bits, minlength=n_units)
    repeated = bits_in_cells != popcount(masks)
    repeated[np.asarray(unit_codes)[repeated_in_cell]] = True
    return masks, repeated


def coders_by_group(
    masks: np.ndarray, unit_mask: np.ndarray, group_of_unit: np.ndarray, n_groups: int
) -> tuple[np.ndarray, int]:
    """Distinct coders of the selected units, per group and over all groups."""
    sel = np.flatnonzero(unit_mask)
    per_group = popcount(_or_by(np.asarray(group_of_unit)[sel], masks[sel], n_groups))
    total = _or_by(np.zeros(sel.size, dtype=np.intp), masks[sel], 1)
    return per_group, int(popcount(total)[0])
