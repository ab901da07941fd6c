"""The alternative annotator test at scale: 20 humans x 1 candidate x 100,000 items.

Run: ``python benchmarks/bench_models.py`` (``--quick`` for 10,000 items).

Target: ``alt_test`` on categorical labels (4 labels, every human on every item, 2.1 million
rows) under 2 s, the time from the long DataFrame to the result. The loop over the humans
is vectorised over the items (:func:`pandas_agree._core.alt_test.leave_one_out_sums`).
Also times the per-human counts against a plain numpy count of matches per item, which
computes the same sums another way, to check the numbers and show the cost of the
general code path.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

import pandas_agree as pa


def study(n_items: int, n_humans: int = 20, seed: int = 0) -> pd.DataFrame:
    """Long data: ``n_humans`` humans and one candidate label every item (4 labels)."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 4, n_items)
    coders = [f"h{k:02d}" for k in range(n_humans)] + ["model"]
    noise = np.r_[rng.uniform(0.2, 0.4, n_humans), 0.25]
    wrong = rng.random((n_items, len(coders))) < noise
    labels = np.where(wrong, rng.integers(0, 4, (n_items, len(coders))), gold[:, None])
    names = np.array(["negative", "neutral", "positive", "mixed"], dtype=object)
    return pd.DataFrame(
        {
            "unit": np.repeat(np.arange(n_items), len(coders)),
            "coder": np.tile(np.array(coders, dtype=object), n_items),
            "value": names[labels.ravel()],
        }
    )


def rho_by_counting(df: pd.DataFrame, n_humans: int) -> float:
    """The advantage probability by counts of each label per item (every human on every item)."""
    wide = df.pivot(index="unit", columns="coder", values="value")
    codes = {v: k for k, v in enumerate(sorted(pd.unique(df["value"])))}
    y = wide.iloc[:, :n_humans].map(codes.get).to_numpy()
    f = wide["model"].map(codes.get).to_numpy()
    counts = np.stack([(y == k).sum(axis=1) for k in range(len(codes))], axis=1)
    rows = np.arange(len(f))
    rhos = []
    for j in range(n_humans):
        match_f = counts[rows, f] - (y[:, j] == f)
        match_h = counts[rows, y[:, j]] - 1
        rhos.append(np.mean(match_f >= match_h))
    return float(np.mean(rhos))


def main() -> None:
    quick = "--quick" in sys.argv
    n_items, n_humans = (10_000 if quick else 100_000), 20
    df = study(n_items, n_humans)
    pa.alt_test(df.head(21 * 200), candidate="model", epsilon=0.1)  # warm up imports
    times = []
    for _ in range(3):
        start = time.perf_counter()
        res = pa.alt_test(df, candidate="model", epsilon=0.1)
        times.append(time.perf_counter() - start)
    best = min(times)
    print(
        f"alt_test: {n_humans} humans x 1 candidate x {n_items:,} items, categorical "
        f"({len(df):,} rows): best {best:.3f}s of {len(times)} "
        f"({', '.join(f'{t:.3f}' for t in times)}; target < 2 s)"
    )
    print(
        f"  winning rate {res.winning_rate:.2f}, advantage probability "
        f"{res.advantage_probability:.4f}"
    )
    check = rho_by_counting(df, n_humans)
    assert abs(check - res.advantage_probability) < 1e-12, (check, res.advantage_probability)
    print("  advantage probability equals the count-based computation")
    # The general path (pair scores summed per human, vectorised over items): neg_rmse on
    # the same annotations read as scores 1-4. No target; for comparison.
    scores = df.assign(
        value=df["value"].map({"negative": 1, "neutral": 2, "mixed": 3, "positive": 4})
    )
    start = time.perf_counter()
    pa.alt_test(scores, candidate="model", epsilon=0.1, similarity="neg_rmse")
    print(
        f"  the same as scores with neg_rmse (pairs of humans): {time.perf_counter() - start:.3f}s"
    )


if __name__ == "__main__":
    main()
