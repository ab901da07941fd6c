"""Scale on one machine: set-valued alpha on many distinct sets, nominal on 10M rows.

Run: ``python benchmarks/bench_scale.py`` (``--quick`` for a tenth of the sizes).

* MASI alpha on coreference codes of 100,000 mentions in 1,000 documents (chains of sizes
  1-20, two coders): target under 10 s and 2 GB peak.
* Nominal alpha on 10,000,000 rows (3 coders): the ratio to one ``pd.factorize`` pass over
  the same three columns (the floor: the data must be read once); aim within 3x.
* Custom callables on large V: time per V for a Python callable (the cost table of the docs).
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np
import pandas as pd

import pandas_agree as pa


def coref_chains(n_docs: int, mentions_per_doc: int, seed: int = 0) -> pd.DataFrame:
    """Two coders' chains: coder b moves 10 % of coder a's mentions to another chain."""
    rng = np.random.default_rng(seed)
    docs, coders, mentions, chains = [], [], [], []
    for d in range(n_docs):
        sizes = []
        while sum(sizes) < mentions_per_doc:
            sizes.append(int(rng.integers(1, 21)))
        sizes[-1] -= sum(sizes) - mentions_per_doc
        chain_a = np.repeat(np.arange(len(sizes)), sizes)
        chain_b = chain_a.copy()
        moved = rng.random(mentions_per_doc) < 0.1
        chain_b[moved] = rng.integers(0, len(sizes) + 3, moved.sum())
        for coder, chain in (("a", chain_a), ("b", chain_b)):
            docs.append(np.full(mentions_per_doc, d))
            coders.append(np.full(mentions_per_doc, coder))
            mentions.append(np.arange(mentions_per_doc))
            chains.append(chain)
    return pd.DataFrame(
        {
            "document": np.concatenate(docs),
            "coder": np.concatenate(coders),
            "mention": np.concatenate(mentions),
            "chain": np.concatenate(chains),
        }
    )


def best_of(repeat: int, func) -> float:
    """Best wall time of ``repeat`` calls (the first call pays for page faults)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_coref(n_docs: int) -> None:
    chains = coref_chains(n_docs, 100)
    start = time.perf_counter()
    codes = pa.coref.chains_to_codes(chains)
    t_codes = time.perf_counter() - start
    rss_before = peak_rss_mib()
    start = time.perf_counter()
    res = pa.alpha(codes, "masi")
    t_alpha = time.perf_counter() - start
    print(
        f"coref masi: {n_docs * 100:,} mentions x 2 coders, {res.n_values:,} distinct sets: "
        f"alpha {res.alpha:.4f} in {t_alpha:.2f}s (target < 10 s; chains_to_codes "
        f"{t_codes:.2f}s); peak RSS {peak_rss_mib():.0f} MiB (before alpha {rss_before:.0f} MiB; "
        "target < 2 GB)"
    )


def bench_nominal(n_rows: int) -> None:
    rng = np.random.default_rng(2)
    n_units = n_rows // 3
    df = pd.DataFrame(
        {
            "unit": np.repeat(np.arange(n_units), 3),
            "coder": np.tile(np.array(["a", "b", "c"]), n_units),
            "value": rng.integers(0, 5, 3 * n_units),
        }
    )
    t_floor = best_of(3, lambda: [pd.factorize(df[col]) for col in ("unit", "coder", "value")])
    t_alpha = best_of(3, lambda: pa.alpha(df, "nominal"))
    res = pa.alpha(df, "nominal")
    print(
        f"nominal: {len(df):,} rows x 3 coders: alpha {res.alpha:.4f} in {t_alpha:.2f}s; "
        f"pd.factorize of the 3 columns {t_floor:.2f}s; ratio {t_alpha / t_floor:.2f}x "
        "(aim <= 3x)"
    )


def bench_callable(sizes: list[int]) -> None:
    for v in sizes:
        rng = np.random.default_rng(v)
        x = rng.random(v) * 100
        df = pd.DataFrame(
            {
                "unit": np.repeat(np.arange(v), 2),
                "coder": np.tile([0, 1], v),
                "value": np.repeat(x, 2),
            }
        )
        df.loc[::7, "value"] += 1.0
        start = time.perf_counter()
        pa.alpha(df, lambda a, b: abs(a - b))
        t_callable = time.perf_counter() - start
        start = time.perf_counter()
        pa.alpha(df, "interval")
        t_interval = time.perf_counter() - start
        print(
            f"V = {df.value.nunique():>6,}: Python callable {t_callable:7.2f}s, "
            f"interval (closed form) {t_interval:6.3f}s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    bench_coref(1000 // scale)
    bench_nominal(10_000_000 // scale)
    bench_callable([500, 1000, 2000] if args.quick else [1000, 2000, 4000])


if __name__ == "__main__":
    main()
