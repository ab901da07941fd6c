"""Alpha speed against the peers, on the same generated data, in one run.

Run: ``python benchmarks/bench_alpha.py`` (add ``--quick`` for smaller sizes). Prints the
time of each implementation and the ratio peer / pandas_agree. Peers (``krippendorff``,
NLTK) are benchmark-only dependencies (the ``test`` extra).

Targets: nominal on 1,000,000 units x 3 coders (V = 5, 10 % missing) at least 3x
faster than ``krippendorff``; MASI on 100,000 units x 3 coders (sets from 12 labels) at least
50x faster than NLTK; interval on 100,000 distinct floats x 2 coders under 2 s and 1 GB.

Each library is timed from the data in the form it takes (a DataFrame for pandas_agree, a
list of triples for NLTK, a reliability matrix for ``krippendorff``) to alpha: for NLTK that
is building its ``AnnotationTask`` (which reads and hashes the labels, the counterpart of our
coding step) plus ``alpha()``. The ``alpha()`` call alone is printed as well.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np
import pandas as pd

import pandas_agree as pa


def timed(func, repeat: int = 1):
    """Best wall time of ``repeat`` calls (the machine is shared; the best is the cost)."""
    best = float("inf")
    out = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = func()
        best = min(best, time.perf_counter() - start)
    return best, out


def long_from_matrix(mat: np.ndarray) -> pd.DataFrame:
    coders, units = np.nonzero(~np.isnan(mat))
    return pd.DataFrame({"unit": units, "coder": coders, "value": mat[coders, units]})


def bench_nominal(n_units: int) -> None:
    import krippendorff

    rng = np.random.default_rng(0)
    mat = rng.integers(1, 6, size=(3, n_units)).astype(float)
    mat[rng.random(mat.shape) < 0.1] = np.nan
    df = long_from_matrix(mat)
    t_ours, ours = timed(lambda: pa.alpha(df, "nominal").alpha, repeat=7)
    t_peer, peer = timed(
        lambda: krippendorff.alpha(reliability_data=mat, level_of_measurement="nominal"), repeat=7
    )
    assert abs(ours - peer) < 1e-9, (ours, peer)
    print(
        f"nominal  {n_units:>9,} units x 3: pandas_agree {t_ours:7.3f}s  krippendorff "
        f"{t_peer:7.3f}s  ratio {t_peer / t_ours:6.1f}x  (target >= 3x)"
    )
    t_int_ours, ours_i = timed(lambda: pa.alpha(df, "interval").alpha, repeat=3)
    t_int_peer, peer_i = timed(
        lambda: krippendorff.alpha(reliability_data=mat, level_of_measurement="interval"), repeat=3
    )
    assert abs(ours_i - peer_i) < 1e-9
    print(
        f"interval {n_units:>9,} units x 3: pandas_agree {t_int_ours:7.3f}s  krippendorff "
        f"{t_int_peer:7.3f}s  ratio {t_int_peer / t_int_ours:6.1f}x"
    )


def random_label_sets(
    n_units: int, n_coders: int, seed: int = 0, numpy_labels: bool = False
) -> pd.DataFrame:
    """Every coder gives every unit a set of 1-3 of 12 labels, drawn at random.

    Each set holds its own label strings (equal strings, not one shared object), as when
    labels are parsed from a file. With ``numpy_labels`` the elements are numpy string
    scalars (``np.str_``, what ``rng.choice`` on a string array returns), which every
    library compares more slowly than Python strings.
    """
    rng = np.random.default_rng(seed)
    n = n_units * n_coders
    sizes = rng.integers(1, 4, size=n).tolist()
    order = np.argsort(rng.random((n, 12)), axis=1).tolist()  # a random order of the labels
    if numpy_labels:
        names = np.array([f"L{i}" for i in range(12)])
        values = [frozenset(names[row[:k]]) for row, k in zip(order, sizes)]
    else:
        values = [frozenset(f"L{i}" for i in row[:k]) for row, k in zip(order, sizes)]
    column = np.empty(n, dtype=object)
    column[:] = values
    return pd.DataFrame(
        {
            "unit": np.tile(np.arange(n_units), n_coders),
            "coder": np.repeat(np.arange(n_coders), n_units),
            "value": column,
        }
    )


def bench_masi(n_units: int, numpy_labels: bool = False) -> None:
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import binary_distance, masi_distance

    df = random_label_sets(n_units, 3, numpy_labels=numpy_labels)
    t_ours, ours = timed(lambda: pa.alpha(df, "masi").alpha, repeat=9)
    # The floor for any exact method that takes Python sets: telling the sets apart once.
    t_floor, _ = timed(lambda: pd.factorize(df["value"].to_numpy()), repeat=9)
    t_ours_nominal, ours_nominal = timed(lambda: pa.alpha(df, "nominal").alpha, repeat=9)
    # NLTK on the same data. Its input is a list of (coder, item, label) triples; making the
    # list from the DataFrame is not timed. Its AnnotationTask reads the triples (hashing
    # every label set, as our coding step does) and alpha() computes: both are timed.
    triples = [(str(c), str(u), v) for u, c, v in df.itertuples(index=False)]
    t_build, task = timed(lambda: AnnotationTask(triples, distance=masi_distance), repeat=2)
    t_nltk, nltk = timed(task.alpha, repeat=2)
    assert abs(ours - nltk) < 1e-9, (ours, nltk)
    nominal_task = AnnotationTask(triples, distance=binary_distance)
    t_nltk_nominal, nltk_nominal = timed(nominal_task.alpha)
    assert abs(ours_nominal - nltk_nominal) < 1e-9, (ours_nominal, nltk_nominal)
    labels = "np.str_ labels" if numpy_labels else "str labels"
    print(
        f"masi     {n_units:>9,} units x 3 ({labels}): pandas_agree {t_ours:6.3f}s  NLTK "
        f"AnnotationTask {t_build:4.2f}s + alpha() {t_nltk:4.2f}s  ratio "
        f"{(t_build + t_nltk) / t_ours:5.1f}x (target >= 50x); alpha() alone "
        f"{t_nltk / t_ours:5.1f}x"
    )
    print(
        f"         floor: one pd.factorize of the {len(df):,} sets {t_floor:6.3f}s; NLTK's total "
        f"over that floor is {(t_build + t_nltk) / t_floor:5.1f}x, the most any exact method "
        "on Python sets could reach"
    )
    print(
        f"nominal  {n_units:>9,} sets x 3 ({labels}): pandas_agree {t_ours_nominal:6.3f}s  "
        f"NLTK alpha() {t_nltk_nominal:4.2f}s  ratio {t_nltk_nominal / t_ours_nominal:5.1f}x"
    )


def bench_interval_distinct(n_units: int) -> None:
    rng = np.random.default_rng(1)
    truth = rng.normal(size=n_units)
    df = pd.DataFrame(
        {
            "unit": np.repeat(np.arange(n_units), 2),
            "coder": np.tile([0, 1], n_units),
            "value": np.repeat(truth, 2) + rng.normal(scale=0.3, size=2 * n_units),
        }
    )
    tracemalloc.start()
    t_ours, _ours = timed(lambda: pa.alpha(df, "interval").alpha)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"interval {n_units:>9,} units x 2, {df.value.nunique():,} distinct floats: "
        f"{t_ours:6.3f}s, peak traced memory {peak / 2**20:6.1f} MiB (target < 2 s, < 1 GiB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument(
        "--numpy-labels", action="store_true", help="also MASI with np.str_ set elements"
    )
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    bench_nominal(1_000_000 // scale)
    bench_masi(100_000 // scale)
    if args.numpy_labels:
        bench_masi(100_000 // scale, numpy_labels=True)
    bench_interval_distinct(100_000 // scale)


if __name__ == "__main__":
    main()
