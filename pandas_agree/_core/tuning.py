"""Tuning constants of the numpy core and of the object-column reader, in one place: one
line each, what it trades and the benchmark that chose it.

None of these changes a result, only the route or the block size a computation takes; the
route tests (tests/core/test_core_routes.py) force each route by monkeypatching these names.
"""

from __future__ import annotations

__all__ = [
    "BLOCK_CELLS",
    "CODER_SCAN_CHUNK",
    "DENSE_CELLS_PER_RATING",
    "DENSE_EVAL_COST",
    "DENSE_MIN_CELLS",
    "DENSE_MIN_SETS",
    "DENSE_SPEEDUP",
    "DIRECT_CODES_MIN_RANGE",
    "DIRECT_CODES_PER_KEY",
    "DISJOINT_CHECK_SIZES",
    "DUPLICATE_MASK_WORDS",
    "HEAVY_SETS",
    "KEEP_PAIRS_ENTRIES",
    "MAX_GROUPS",
    "MAX_HEAVY",
    "MV_GROUP_MAX_SIZE",
    "MV_GROUP_MIN_LABELS",
    "MV_GROUP_SIZE_DIVISOR",
    "PAIR_TABLE_PER_KEY",
    "READ_BLOCK_CELLS",
    "SLOT_PAIRS_MAX",
    "SMALL_TABLE_CELLS",
    "SUBSET_ENTRIES",
    "TABLE_CELLS_PER_PAIR",
    "direct_codes_fit",
]

#: Cells per evaluated block: fewer numpy calls vs 32 MiB per float64 block (bench_scale.py).
BLOCK_CELLS = 1 << 22

#: Object-column cells read per block: cells and labels still cached vs calls per block
#: (chosen with bench_targets.py on list, set and array columns).
READ_BLOCK_CELLS = 1 << 12

#: Set kernels tabulate all V x V pairs up to this many cells: V^2 evaluations vs one per lookup.
SMALL_TABLE_CELLS = 1 << 16
#: ...or this many cells per value pair looked up (timed alone: 64K cells build in under 1 ms).
TABLE_CELLS_PER_PAIR = 8

#: Labels in more sets are counted by (size, pattern) groups, not pairs (bench_sets.py overlap).
HEAVY_SETS = 512
#: Heavy labels at most: one bit each in a 64-bit pattern (a representation limit, not timed).
MAX_HEAVY = 62
#: (size, pattern) groups at most: a G x G table of 32 MiB at most (a memory bound, not timed).
MAX_GROUPS = 2048

#: Set-label components this large may take one dense BLAS product (bench_sets.py, coreference).
DENSE_MIN_SETS = 64
#: A BLAS multiply-add counts this much cheaper than a sparse one (bench_sets.py, coreference).
DENSE_SPEEDUP = 16.0
#: One dense cell's distance evaluation counts as this many multiply-adds (bench_sets.py, coref).
DENSE_EVAL_COST = 64.0

#: Set alpha counts subsets (no pairs) up to this many in all: 2^|A| per set (timed alone: ~1 s).
SUBSET_ENTRIES = 1 << 22

#: Pair keys: a V x V lookup table up to this many cells per key, else a sort (timed vs np.unique).
PAIR_TABLE_PER_KEY = 4

#: Integer keys: a presence table up to this many slots per key, else np.unique (timed alone).
DIRECT_CODES_PER_KEY = 4
#: ...plus this many slots however few the keys (table 2-4x faster than np.unique at 1e3-1e6).
DIRECT_CODES_MIN_RANGE = 1024


def direct_codes_fit(n_keys: int, key_range: int) -> bool:
    """Whether ``n_keys`` integer keys spanning ``key_range`` take the presence-table route.

    Examples
    --------
    >>> direct_codes_fit(10, 1000), direct_codes_fit(10, 5000)
    (True, False)
    """
    return key_range <= DIRECT_CODES_PER_KEY * n_keys + DIRECT_CODES_MIN_RANGE


#: Dense (unit, value) count tables up to this many cells per rating: memory vs sparse (not timed).
DENSE_CELLS_PER_RATING = 8
#: ...or up to this many cells, however few the ratings (not timed).
DENSE_MIN_CELLS = 4096

#: Up to this many coders, observed terms go slot pair by slot pair, else by pair lists (not timed).
SLOT_PAIRS_MAX = 8

#: Units per step of the pairable-coder scan: 512 KiB steps vs stopping early (a cache bound).
CODER_SCAN_CHUNK = 1 << 16

#: Dask: coder bit masks of up to this many int64 words find duplicates, else groupby (not timed).
DUPLICATE_MASK_WORDS = 4

#: mv-alpha: equal-count labels as one factor from 32 + A^2 / 10 of them (timed: the break-even).
MV_GROUP_MIN_LABELS = 32
#: The divisor of A^2 in that break-even (the same timing).
MV_GROUP_SIZE_DIVISOR = 10
#: No closed-form factor above this set size: cost grows as A^4, binomials overflow (a bound).
MV_GROUP_MAX_SIZE = 150

#: Light-label corrections kept between calls up to this many entries: memory vs recomputing.
KEEP_PAIRS_ENTRIES = BLOCK_CELLS // 4

#: A user's set kernel is checked on disjoint sets of at most this many sizes (a cost bound).
DISJOINT_CHECK_SIZES = 2048
