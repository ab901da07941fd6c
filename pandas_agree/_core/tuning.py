"""Tuning constants of the numpy core, in one place, each with how it was chosen.

None of these changes a result, only the route or the block size a computation takes; the
route tests (tests/test_paths.py) force each route by monkeypatching these names.
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
    "PARALLEL_MIN_LABELS",
    "PARALLEL_MIN_ROWS",
    "SLOT_PAIRS_MAX",
    "SMALL_TABLE_CELLS",
    "SUBSET_ENTRIES",
    "TABLE_CELLS_PER_PAIR",
    "direct_codes_fit",
]

#: Cells a blocked evaluation may hold at once (4M float64 = 32 MiB per array). Blocks of
#: 1M-16M cells ran within 10 % of each other on the benchmarks (2 cores, 24 GiB); 4M keeps
#: the peak of a set-distance evaluation under 0.5 GB with room for its temporaries.
BLOCK_CELLS = 1 << 22

#: A set kernel tabulates every pair of values (a V x V table) when the table has at most
#: this many cells (or TABLE_CELLS_PER_PAIR cells per value pair looked up, and never more
#: than BLOCK_CELLS). 64K cells (V = 256) take under 1 ms to build.
SMALL_TABLE_CELLS = 1 << 16
TABLE_CELLS_PER_PAIR = 8

#: A label held by more sets than this is "heavy": pairs sharing it are counted by groups of
#: (size, heavy pattern), not one by one (pandas_agree._core.setpairs). Light labels then
#: cost at most HEAVY_SETS sparse products per occurrence. 512 kept the coreference
#: benchmark (chains up to 200 mentions, no heavy label) and the one-shared-label benchmark
#: (every set heavy in one label) both on their fast paths (benchmarks/bench_sets.py).
HEAVY_SETS = 512

#: At most this many heavy labels (one bit each in a pattern)...
MAX_HEAVY = 62
#: ...and at most this many (size, pattern) groups: a G x G table of 32 MiB at most.
MAX_GROUPS = 2048

#: Sets that share light labels form connected components of the set-label graph. A
#: component of at least DENSE_MIN_SETS sets gets its intersections from one dense product
#: (BLAS) when that is cheaper than the sparse one: m^2 (labels + DENSE_EVAL_COST) /
#: DENSE_SPEEDUP against the sparse multiply-adds of its rows. A BLAS multiply-add was about
#: 16x cheaper than a sparse one here; evaluating a distance on one dense cell costs about as
#: much as 64 multiply-adds. Coreference chains of 200 mentions ran about 10x faster dense.
DENSE_MIN_SETS = 64
DENSE_SPEEDUP = 16.0
DENSE_EVAL_COST = 64.0

#: Sets of at most 63 labels whose subsets number at most SUBSET_ENTRIES in all (sum of
#: 2^|A| over the distinct sets) take the subset-counting route of set alpha, which lists no
#: pairs (pandas_agree._core.setpairs.SubsetSums): 4M subsets took about a second here.
SUBSET_ENTRIES = 1 << 22

#: A pairwise distance over value pairs that meet in a unit uses a lookup table over all
#: V x V keys (no sort) while it has at most max(BLOCK_CELLS, PAIR_TABLE_PER_KEY * keys)
#: cells, else sorts the keys (pandas_agree._core.kernels). The same trade-off as
#: DIRECT_CODES_PER_KEY below (filling and scanning a table of 4 cells per key was 2-4x
#: faster than np.unique at 1e3-1e6 keys here).
PAIR_TABLE_PER_KEY = 4

#: Integer keys (value codes of integer columns in data.py, set keys in setcodes.py) are
#: coded by a presence table over their range instead of np.unique while the range is at
#: most DIRECT_CODES_PER_KEY * n + DIRECT_CODES_MIN_RANGE. Measured here (2 cores, numpy
#: 2.4; presence table + cumsum against np.unique(return_inverse=True), random keys): at a
#: range of 4n + 1024 the table was 2.2x (n = 1e3), 2.8x (1e5) and 4.0x (1e6) faster; the
#: break-even lies between 8n and 16n, so 4n leaves a margin for memory (one byte per slot).
DIRECT_CODES_PER_KEY = 4
DIRECT_CODES_MIN_RANGE = 1024


def direct_codes_fit(n_keys: int, key_range: int) -> bool:
    """Whether ``n_keys`` integer keys spanning ``key_range`` take the presence-table route.

    Examples
    --------
    >>> direct_codes_fit(10, 1000), direct_codes_fit(10, 5000)
    (True, False)
    """
    return key_range <= DIRECT_CODES_PER_KEY * n_keys + DIRECT_CODES_MIN_RANGE


#: A dense (unit, value) or (coder, unit) table is built while it has at most
#: DENSE_CELLS_PER_RATING cells per rating, or at most DENSE_MIN_CELLS cells; sparser
#: tables are not built (pandas_agree._core.counts). Carried over from counts.py, which
#: kept no record of a measurement; not re-measured for issue 16.
DENSE_CELLS_PER_RATING = 8
DENSE_MIN_CELLS = 4096

#: Up to this many coders (or distinct values in a unit), observed terms are summed one
#: pair of coders / slots at a time (SLOT_PAIRS_MAX^2 / 2 = 32 vectorised steps at most);
#: beyond, within-unit pairs are listed. Carried over from counts.py (no record of a
#: measurement); not re-measured for issue 16.
SLOT_PAIRS_MAX = 8

#: Coders with a pairable value are found by scanning each coder's row of the reliability
#: matrix in chunks of this many units, stopping at the first hit: 64K int codes (512 KiB)
#: is one cache-friendly step; the usual case costs one chunk. Not measured (a memory bound).
CODER_SCAN_CHUNK = 1 << 16

#: Dask route: coder bit masks detect duplicate ratings while they take at most this many
#: int64 columns (about 220 coders); beyond, a groupby over (unit, coder) does
#: (pandas_agree.frontends.dask.chunks). Carried over from the dask route (no record of a
#: measurement); not re-measured for issue 16.
DUPLICATE_MASK_WORDS = 4

#: Multi-valued alpha (pandas_agree._core.mvalpha): labels that share a count are
#: multiplied in as one closed-form factor when there are at least
#: MV_GROUP_MIN_LABELS + A**2 // MV_GROUP_SIZE_DIVISOR of them (A the largest set size), one
#: at a time otherwise. Measured on a loaded 2-core machine (200 labels of equal count): one
#: label costs 17-20 us for A <= 10, 36 us for A = 40, 214 us for A = 150; one group costs
#: 0.5-0.7 ms for A <= 10, 6.9 ms for A = 40, 383 ms for A = 150; the break-even group sizes
#: 30, 35, 189, 681, 1791 at A = 5, 10, 40, 80, 150 follow 32 + A^2 / 10.
MV_GROUP_MIN_LABELS = 32
MV_GROUP_SIZE_DIVISOR = 10
#: Above this set size the closed-form factor is never used (its cost grows as A^4 and its
#: binomial coefficients overflow near A = 1030); one label at a time has no such limit.
MV_GROUP_MAX_SIZE = 150

#: The light-label corrections of a set domain are kept between calls (a report, then a
#: bootstrap) when the light incidence has at most this many entries; otherwise they are
#: recomputed block by block at each call, so memory stays bounded.
KEEP_PAIRS_ENTRIES = BLOCK_CELLS // 4

#: A user's set kernel is checked to be 1 for disjoint sets on every pair of set sizes, or
#: on this many sizes spread over their range when a domain has more (weighted sets).
DISJOINT_CHECK_SIZES = 2048

#: Value columns of at least this many rows whose coding releases the GIL (Arrow list and
#: string columns) or that are lists, sets or arrays read without the C accelerator (which
#: holds the GIL, as pd.factorize does) have their unit and coder columns coded
#: on a worker thread meanwhile (pandas_agree.data.prepare.prepare, pandas_agree._threads):
#: pyarrow's dictionary encoding (pandas' default string columns) and numpy's loops release
#: the GIL too, so the two overlap on two cores. Measured here at 300,000 rows (2 cores,
#: benchmarks/bench_sets.py, workers kept between calls): Arrow lists 25-29 -> 23-24 ms with
#: the split encoding below, Python lists without C 77-79 -> 73-75 ms end to end;
#: frozensets lose 1-2 ms (pd.factorize holds the GIL), lists read in C 3-5 ms, and both
#: stay on one thread. Since Arrow labels of at most 7 bytes are numbered in C
#: (pandas_agree._core._firstcodes), Arrow lists gain nothing from the worker (13.7 against
#: 13.4 ms best of 61, within the noise; long labels 16.8-17.1 against 16.1-18.5), and keep
#: it. Handing a task to a kept worker
#: costs about 0.1 ms, so below 50,000 rows (a few ms of work) it is not worth it.
PARALLEL_MIN_ROWS = 50_000

#: An Arrow list column of at least this many string labels that the C accelerator does
#: not number (a label over 7 bytes or a null, or no C) has them dictionary-encoded in
#: two halves at once, on two cores (pandas_agree.data.sets). Measured here on the 540,000
#: labels of benchmarks/bench_sets.py: 6.3 -> 3.2 ms for the encoding alone. Below this a
#: half takes under 0.6 ms, a few times what handing it to a kept worker costs.
PARALLEL_MIN_LABELS = 100_000
