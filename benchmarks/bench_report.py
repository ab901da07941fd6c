"""Report and bootstrap speed against their targets, and the ratio to one alpha call per group.

Run: ``python benchmarks/bench_report.py``.

Targets: ``report`` over 1,000 groups x 100 units x 3 coders with 3 distances under 1 s;
2,000 bootstrap replicates of alpha on 10,000 units x 3 coders under 2 s.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

import pandas_agree as pa


def grouped_sets(n_groups: int, n_units: int, n_coders: int = 3, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = np.array(list("abcdefghijkl"), dtype=object)
    n = n_groups * n_units
    truth = [frozenset(rng.choice(labels, size=k, replace=False)) for k in rng.integers(1, 4, n)]
    extra = rng.choice(labels, size=(n, n_coders))
    flip = rng.random((n, n_coders)) < 0.3
    values = [
        truth[i] ^ {extra[i, c]} if flip[i, c] else truth[i]
        for i in range(n)
        for c in range(n_coders)
    ]
    return pd.DataFrame(
        {
            "docset": np.repeat(np.arange(n_groups), n_units * n_coders),
            "unit": np.repeat(np.tile(np.arange(n_units), n_groups), n_coders),
            "coder": np.tile(np.arange(n_coders), n),
            "value": values,
        }
    )


def main() -> None:
    distances = ["nominal", "jaccard", "masi"]
    df = grouped_sets(1000, 100)
    pa.report(df.head(3000), distances, by="docset")  # warm up imports
    start = time.perf_counter()
    rep = pa.report(df, distances, by="docset")
    t_report = time.perf_counter() - start
    sample = df[df.docset < 50]
    start = time.perf_counter()
    for _, g in sample.groupby("docset"):
        for d in distances:
            pa.alpha(g, d)
    t_loop = (time.perf_counter() - start) * 1000 / 50
    print(
        f"report: 1,000 groups x 100 units x 3 coders, 3 distances: {t_report:.3f}s "
        f"(target < 1 s); one alpha call per group and distance would take ~{t_loop:.1f}s "
        f"({t_loop / t_report:.0f}x slower)"
    )
    assert len(rep) == 1001

    rng = np.random.default_rng(1)
    truth = rng.integers(1, 6, 10_000)
    value = np.repeat(truth, 3)
    flip = rng.random(value.size) < 0.2
    value[flip] = rng.integers(1, 6, flip.sum())
    long = pd.DataFrame(
        {
            "unit": np.repeat(np.arange(10_000), 3),
            "coder": np.tile([0, 1, 2], 10_000),
            "value": value,
        }
    )
    for distance in ("nominal", "ordinal", "interval", "masi"):
        res = pa.alpha(long, distance)
        for method in ("krippendorff", "units"):
            start = time.perf_counter()
            ci = res.confidence_interval(n_boot=2000, method=method, rng=0)
            elapsed = time.perf_counter() - start
            print(
                f"bootstrap {distance:8s} {method:12s} 2,000 x (10,000 units x 3): {elapsed:6.3f}s "
                f"(target < 2 s)  [{ci.low:.3f}, {ci.high:.3f}]"
            )


if __name__ == "__main__":
    main()
