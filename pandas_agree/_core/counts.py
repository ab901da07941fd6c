"""Counts of values within units: the only summary of the data alpha needs.

Everything here works on integer codes (numpy only, no pandas). A *rating* is one
(unit, coder, value) triple with a non-missing value; ``unit_codes[i]`` and
``value_codes[i]`` describe rating ``i``.
"""

from __future__ import annotations

import numpy as np

# Route thresholds: see pandas_agree._core.tuning (one place, with how each was chosen).
# Imported under module-level names so the route tests (tests/core/test_core_routes.py) can force a
# route by monkeypatching them here.
from .tuning import CODER_SCAN_CHUNK
from .tuning import DENSE_CELLS_PER_RATING as _DENSE_CELLS_PER_RATING
from .tuning import DENSE_MIN_CELLS as _DENSE_MIN_CELLS
from .tuning import SLOT_PAIRS_MAX as _SLOT_PAIRS_MAX

__all__ = [
    "UnitValueCounts",
    "coincidence_entries",
    "pairable_counts",
    "unit_slots",
    "within_unit_pairs",
]


class UnitValueCounts:
    """Sparse values-by-units table restricted to pairable units (two or more values).

    Entries are sorted by unit, then value: entry ``e`` says that unit ``unit[e]`` holds
    value ``value[e]`` ``count[e]`` times. Entries are made only when asked for: from the
    dense table when the data were counted densely (the nominal kernel never asks), else by
    sorting the ratings. ``dense`` is laid out values x units, Krippendorff's values-by-units
    matrix, so that per-unit sums are contiguous row operations.

    Attributes
    ----------
    unit, value, count : ndarray
        One element per non-empty (unit, value) cell of pairable units.
    m : ndarray
        Number of pairable values in each unit (length ``n_units_total``, 0 for units that
        are not pairable).
    n_c : ndarray
        Marginal count of each value over pairable units (length ``n_values``).
    n_values : int
        Size of the value domain (codes run from 0 to ``n_values - 1``).
    dense : ndarray or None
        The (values x units) table with non-pairable units zeroed, when counted densely.
    slots : ndarray or None
        The reliability matrix as value codes, (coders x units), with ``n_values`` where a
        coder did not rate a unit; kept when there are few coders (see
        :func:`pairable_counts`). Units that are not pairable hold at most one value.
    all_pairable : bool
        True when it is known that every rated unit is pairable (no rating was dropped).
    """

    def __init__(
        self,
        m: np.ndarray,
        n_c: np.ndarray,
        n_values: int,
        *,
        entries: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
        dense: np.ndarray | None = None,
        ratings: tuple[np.ndarray, np.ndarray] | None = None,
        slots: np.ndarray | None = None,
        all_pairable: bool = False,
    ) -> None:
        self.m = m
        self.all_pairable = all_pairable
        self.n_c = n_c
        self.n_values = n_values
        self.dense = dense
        self.slots = slots
        self._entries = entries
        self._ratings = ratings

    def _get_entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._entries is None and self.dense is None:
            unit, value = self._ratings
            if not self.all_pairable:
                keep = self.m[unit] > 0
                unit, value = unit[keep], value[keep]
            self._entries = _sorted_entries(unit, value, self.n_values)
            self._ratings = None
        elif self._entries is None:
            by_unit = np.ascontiguousarray(self.dense.T)
            cells = np.flatnonzero(by_unit)
            unit = cells // self.n_values
            self._entries = (unit, cells - unit * self.n_values, by_unit.ravel()[cells])
        return self._entries

    def n_coders_pairable(self) -> int | None:
        """Number of coders with a value in a pairable unit, from ``slots`` (else None).

        Each coder's row is scanned in chunks and the scan stops at the first such value,
        so the usual case (every coder rated an early pairable unit) costs one chunk.
        """
        if self.slots is None:
            return None
        pairable = self.m >= 2
        chunk = CODER_SCAN_CHUNK
        found = 0
        for row in self.slots:
            for start in range(0, row.size, chunk):
                stop = start + chunk
                if ((row[start:stop] != self.n_values) & pairable[start:stop]).any():
                    found += 1
                    break
        return found

    @property
    def unit(self) -> np.ndarray:
        return self._get_entries()[0]

    @property
    def value(self) -> np.ndarray:
        return self._get_entries()[1]

    @property
    def count(self) -> np.ndarray:
        return self._get_entries()[2]

    @property
    def n(self) -> int:
        """Number of pairable values, Krippendorff's n.. ."""
        return int(self.m.sum())

    @property
    def n_units(self) -> int:
        """Number of pairable units."""
        return int(np.count_nonzero(self.m))

    def entry_m(self) -> np.ndarray:
        """``m`` of the unit of each entry."""
        return self.m[self.unit]

    def unit_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Start and end (exclusive) of each entry's unit block in the entry arrays."""
        if self.unit.size == 0:
            empty = np.zeros(0, dtype=np.intp)
            return empty, empty
        change = np.flatnonzero(np.diff(self.unit)) + 1
        starts = np.concatenate(([0], change))
        ends = np.concatenate((change, [self.unit.size]))
        lengths = ends - starts
        return np.repeat(starts, lengths), np.repeat(ends, lengths)


def column_sums(table: np.ndarray) -> np.ndarray:
    """Column sums of a short, wide table, as contiguous row adds."""
    if table.shape[0] == 0:
        return np.zeros(table.shape[1], dtype=table.dtype)
    out = table[0].copy()
    for row in table[1:]:
        out += row
    return out


def column_squares(table: np.ndarray) -> np.ndarray:
    """Column sums of squares of a short, wide table."""
    if table.shape[0] == 0:
        return np.zeros(table.shape[1], dtype=table.dtype)
    out = table[0] * table[0]
    for row in table[1:]:
        out += row * row
    return out


def pairable_counts(
    unit_codes: np.ndarray,
    value_codes: np.ndarray,
    n_units: int,
    n_values: int,
    weights: np.ndarray | None = None,
    *,
    coder_codes: np.ndarray | None = None,
    n_coders: int = 0,
) -> UnitValueCounts:
    """Count (unit, value) cells over the units that hold at least two values.

    Parameters
    ----------
    unit_codes, value_codes : ndarray of int
        One element per rating; codes in ``range(n_units)`` and ``range(n_values)``.
    n_units, n_values : int
        Sizes of the unit and value domains.
    weights : ndarray of int, optional
        Multiplicity of each rating (used by resampling); 1 when omitted.
    coder_codes : ndarray of int, optional
        The coder of each rating, in ``range(n_coders)``, when every (unit, coder) pair
        has at most one rating. With few coders this keeps the reliability matrix as
        ``slots`` (instead of a dense values-by-units table), from which every kernel
        gets the observed disagreement without sorted entries.
    n_coders : int
        Size of the coder domain (with ``coder_codes``).

    Returns
    -------
    UnitValueCounts
    """
    unit_codes = np.asarray(unit_codes, dtype=np.int64)
    value_codes = np.asarray(value_codes, dtype=np.int64)
    if weights is not None:
        return _weighted_counts(unit_codes, value_codes, n_units, n_values, weights)
    slots = None
    if coder_codes is not None:
        slots = _coder_slots(unit_codes, coder_codes, value_codes, n_units, n_coders, n_values)
    n_cells = n_units * n_values
    if slots is None and _small_enough(n_cells, unit_codes.size):
        # Dense cell counts: no hashing, no sorting, no per-rating filtering.
        dense = np.bincount(value_codes * n_units + unit_codes, minlength=n_cells)
        table = dense.reshape(n_values, n_units)
        m = column_sums(table)
        single = m < 2
        dropped = bool((single & (m > 0)).any())
        if single.any():
            table[:, single] = 0
            m[single] = 0
        return UnitValueCounts(
            m, table.sum(axis=1), n_values, dense=table, all_pairable=not dropped
        )
    m = np.bincount(unit_codes, minlength=n_units)
    n_c = np.bincount(value_codes, minlength=n_values)
    single = m == 1  # a unit with one rating is the only kind dropped
    all_pairable = not single.any()
    if not all_pairable:
        if slots is not None:  # the lone value of a unit is its smallest slot
            lone = slots.take(np.flatnonzero(single), axis=1).min(axis=0)
            n_c -= np.bincount(lone, minlength=n_values)
        else:
            n_c = np.bincount(value_codes[~single[unit_codes]], minlength=n_values)
        m[single] = 0
    return UnitValueCounts(
        m,
        n_c,
        n_values,
        ratings=(unit_codes, value_codes),
        slots=slots,
        all_pairable=all_pairable,
    )


def _small_enough(n_cells: int, n_ratings: int) -> bool:
    """Whether a dense table of ``n_cells`` cells is worth building for ``n_ratings`` ratings."""
    return n_cells <= max(_DENSE_CELLS_PER_RATING * n_ratings, _DENSE_MIN_CELLS)


def _coder_slots(
    unit_codes: np.ndarray,
    coder_codes: np.ndarray,
    value_codes: np.ndarray,
    n_units: int,
    n_coders: int,
    n_values: int,
) -> np.ndarray | None:
    """The (coders x units) matrix of value codes (``n_values``: not rated), or None.

    None when there are more than ``_SLOT_PAIRS_MAX`` coders (too many coder pairs) or the
    matrix would be much larger than the data.
    """
    cells = n_units * n_coders
    if n_coders > _SLOT_PAIRS_MAX or not _small_enough(cells, unit_codes.size):
        return None
    dtype = np.min_scalar_type(n_values)  # codes 0..V, V meaning "not rated"
    slots = np.full(cells, n_values, dtype=dtype)
    slots[np.asarray(coder_codes, dtype=np.int64) * n_units + unit_codes] = value_codes
    return slots.reshape(n_coders, n_units)


def _weighted_counts(
    unit_codes: np.ndarray,
    value_codes: np.ndarray,
    n_units: int,
    n_values: int,
    weights: np.ndarray,
) -> UnitValueCounts:
    """:func:`pairable_counts` with a multiplicity for each rating."""
    weights = np.asarray(weights)
    m_all = np.bincount(unit_codes, weights=weights, minlength=n_units)
    keep = (m_all[unit_codes] >= 2) & (weights > 0)
    key = unit_codes[keep] * n_values + value_codes[keep]
    cells, inverse = np.unique(key, return_inverse=True)
    count = np.bincount(inverse, weights=weights[keep])
    unit = cells // n_values
    value = cells - unit * n_values
    m = np.bincount(unit, weights=count, minlength=n_units)
    n_c = np.bincount(value, weights=count, minlength=n_values)
    return UnitValueCounts(m, n_c, n_values, entries=(unit, value, count))


def _sorted_entries(
    unit_codes: np.ndarray, value_codes: np.ndarray, n_values: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Non-empty (unit, value) cells and their counts, sorted by unit then value.

    The sort key puts the unit in the high bits and the value in the low bits, so that
    unit and value come back with a shift and a mask instead of an integer division.
    """
    shift = max(int(n_values - 1).bit_length(), 0)
    key = np.left_shift(unit_codes, shift)
    key |= value_codes
    key.sort()
    starts, count = _unit_runs(key)
    value = key[starts]
    unit = value >> shift
    value &= (1 << shift) - 1
    return unit, value, count


def _unit_runs(unit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start of each run of equal elements in sorted ``unit``, and the run's length.

    For the unit column of the entries: each unit's block and its number of distinct values.
    """
    if unit.size == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    change = np.empty(unit.size, dtype=bool)
    change[0] = True
    np.not_equal(unit[1:], unit[:-1], out=change[1:])
    starts = np.flatnonzero(change)
    lengths = np.empty_like(starts)
    np.subtract(starts[1:], starts[:-1], out=lengths[:-1])
    lengths[-1] = unit.size - starts[-1]
    return starts, lengths


def unit_slots(counts: UnitValueCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The entries of each pairable unit as slots: ``(units, values, counts)``, or None.

    ``values[s, i]`` and ``counts[s, i]`` are the ``s``-th distinct value of unit
    ``units[i]`` and its count (count 0 past the unit's last value), for ``s`` below the
    largest number of distinct values in a unit. None when that number is above
    ``_SLOT_PAIRS_MAX`` (use :func:`within_unit_pairs`). Slot arrays are laid out slot-major,
    so each slot is a contiguous row.
    """
    unit = counts.unit
    if unit.size == 0:
        return None
    starts, distinct = _unit_runs(unit)
    most = int(distinct.max())
    if most > _SLOT_PAIRS_MAX:
        return None
    values = np.empty((most, starts.size), dtype=counts.value.dtype)
    slot_counts = np.empty((most, starts.size), dtype=counts.count.dtype)
    last = unit.size - 1
    for s in range(most):
        # Past a unit's last value the slot borrows the next unit's entry with count 0.
        idx = np.minimum(starts + s, last) if s else starts
        np.take(counts.value, idx, out=values[s], mode="clip")  # "clip": no buffering
        np.take(counts.count, idx, out=slot_counts[s], mode="clip")
        if s:
            slot_counts[s][distinct <= s] = 0
    return unit[starts], values, slot_counts


def within_unit_pairs(counts: UnitValueCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct-value pairs that meet inside a unit, with their coincidence weight.

    Returns entry index arrays ``i < j`` (same unit, different values) and the weight
    ``n_uc * n_uk / (m_u - 1)`` of each pair: the pair's contribution to the coincidence
    matrix cell (c, k) (and, by symmetry, to (k, c)). The number of pairs is the sum over
    units of k_u (k_u - 1) / 2 where k_u is the number of distinct values in the unit.
    """
    unit = counts.unit
    if unit.size == 0:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, np.zeros(0)
    starts, distinct = _unit_runs(unit)
    most = int(distinct.max())
    if most <= _SLOT_PAIRS_MAX:
        # Few distinct values per unit (few coders): one vectorised step per pair of slots.
        firsts, seconds = [], []
        for j in range(1, most):
            block = starts[distinct > j]
            for i in range(j):
                firsts.append(block + i)
                seconds.append(block + j)
        first = np.concatenate(firsts) if firsts else np.zeros(0, dtype=np.intp)
        second = np.concatenate(seconds) if seconds else np.zeros(0, dtype=np.intp)
    else:
        _, ends = counts.unit_bounds()
        idx = np.arange(unit.size)
        partners = ends - idx - 1
        total = int(partners.sum())
        first = np.repeat(idx, partners)
        offsets = np.arange(total) - np.repeat(np.cumsum(partners) - partners, partners)
        second = first + 1 + offsets
    m = counts.m[unit[first]]
    weight = counts.count[first] * counts.count[second] / (m - 1.0)
    return first, second, weight


def coincidence_entries(counts: UnitValueCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Non-zero cells ``(c, k, o_ck)`` of Krippendorff's coincidence matrix.

    ``o_ck = sum_u n_uc n_uk / (m_u - 1)`` for ``c != k`` and
    ``o_cc = sum_u n_uc (n_uc - 1) / (m_u - 1)``; rows and columns sum to ``n_c``.
    """
    m = counts.entry_m()
    diag = counts.count * (counts.count - 1.0) / (m - 1.0)
    first, second, weight = within_unit_pairs(counts)
    c, k = counts.value[first], counts.value[second]
    rows = np.concatenate((counts.value, c, k))
    cols = np.concatenate((counts.value, k, c))
    vals = np.concatenate((diag, weight, weight))
    return rows, cols, vals
