"""Alpha speed against the peers, on the same generated data, in one run.

Run: ``python benchmarks/bench_alpha.py`` (add ``--quick`` for smaller sizes). Prints the
time of each implementation and the ratio peer / pandas_agree. Peers (``krippendorff``,
NLTK) are benchmark-only dependencies (the ``test`` extra).

Targets (issue 3): nominal on 1,000,000 units x 3 coders (V = 5, 10 % missing) at least 3x
faster than ``krippendorff``; MASI on 100,000 units x 3 coders (sets from 12 labels) at least
50x faster than NLTK; interval on 100,000 distinct floats x 2 coders under 2 s and 1 GB.
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


def random_label_sets(n_units: int, n_coders: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = np.array([f"L{i}" for i in range(12)])
    rows_unit, rows_coder, values = [], [], []
    for c in range(n_coders):
        sizes = rng.integers(1, 4, size=n_units)
        for u in range(n_units):
            rows_unit.append(u)
            rows_coder.append(c)
            values.append(frozenset(rng.choice(labels, size=sizes[u], replace=False)))
    return pd.DataFrame({"unit": rows_unit, "coder": rows_coder, "value": values})


def bench_masi(n_units: int) -> None:
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import binary_distance, masi_distance

    df = random_label_sets(n_units, 3)
    t_ours, ours = timed(lambda: pa.alpha(df, "masi").alpha, repeat=5)
    t_ours_nominal, ours_nominal = timed(lambda: pa.alpha(df, "nominal").alpha, repeat=5)
    # NLTK on the same data: its AnnotationTask wants (coder, item, label) triples.
    start = time.perf_counter()
    triples = [(str(c), str(u), v) for u, c, v in df.itertuples(index=False)]
    task = AnnotationTask(triples, distance=masi_distance)
    t_build = time.perf_counter() - start
    t_nltk, nltk = timed(task.alpha)
    assert abs(ours - nltk) < 1e-9, (ours, nltk)
    nominal_task = AnnotationTask(triples, distance=binary_distance)
    t_nltk_nominal, nltk_nominal = timed(nominal_task.alpha)
    assert abs(ours_nominal - nltk_nominal) < 1e-9, (ours_nominal, nltk_nominal)
    print(
        f"masi     {n_units:>9,} units x 3: pandas_agree {t_ours:7.3f}s  NLTK alpha() "
        f"{t_nltk:6.2f}s (+{t_build:.2f}s to build its AnnotationTask)  ratio "
        f"{t_nltk / t_ours:5.1f}x, {(t_nltk + t_build) / t_ours:5.1f}x end to end (target >= 50x)"
    )
    print(
        f"nominal  {n_units:>9,} sets x 3:  pandas_agree {t_ours_nominal:7.3f}s  NLTK alpha() "
        f"{t_nltk_nominal:6.2f}s  ratio {t_nltk_nominal / t_ours_nominal:5.1f}x"
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
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    bench_nominal(1_000_000 // scale)
    bench_masi(100_000 // scale)
    bench_interval_distinct(100_000 // scale)


if __name__ == "__main__":
    main()
