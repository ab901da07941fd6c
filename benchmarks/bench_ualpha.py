"""Speed of the u-alpha family (:func:`pandas_agree.u_alpha`).

Run: ``python benchmarks/bench_ualpha.py``.

Target: 100 documents x 3 coders x 50 units each, all four coefficients per document and
pooled, under 1 s. Also timed: the same with an ordinal distance, and with a 95 % interval
from 2,000 bootstrap replicates that resample documents. The lindanna/unitized_alpha
script (one Python loop over positions and coder pairs, one document at a time) is the
only other Python implementation; it is not installable, so it is not timed here.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

import pandas_agree as pa
from pandas_agree.errors import DegenerateDataWarning


def corpus(
    n_docs: int, n_coders: int, n_units: int, n_values: int = 5, seed: int = 0
) -> tuple[pd.DataFrame, dict[str, int]]:
    """Coders who mostly agree: a shared segmentation, each boundary and value perturbed."""
    rng = np.random.default_rng(seed)
    frames, lengths = [], {}
    for d in range(n_docs):
        gaps = rng.integers(1, 20, n_units)
        sizes = rng.integers(2, 30, n_units)
        starts = np.cumsum(gaps) + np.concatenate([[0], np.cumsum(sizes)[:-1]])
        ends = starts + sizes
        values = rng.integers(1, n_values + 1, n_units)
        length = int(ends[-1] + 10)
        lengths[f"doc{d}"] = length
        for c in range(n_coders):
            s = starts + rng.integers(-1, 2, n_units)
            e = ends + rng.integers(-1, 2, n_units)
            s = np.maximum(s, np.concatenate([[0], e[:-1]]))  # keep one coder's units apart
            keep = e > s
            v = np.where(rng.random(n_units) < 0.1, rng.integers(1, n_values + 1, n_units), values)
            frames.append(
                pd.DataFrame(
                    {
                        "document": f"doc{d}",
                        "coder": f"c{c}",
                        "start": s[keep],
                        "end": e[keep],
                        "label": v[keep],
                    }
                )
            )
    return pd.concat(frames, ignore_index=True), lengths


def best_of(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    spans, lengths = corpus(100, 3, 50)
    warnings.simplefilter("ignore", DegenerateDataWarning)
    res = pa.u_alpha(spans, length=lengths)  # warm up imports
    t_nominal = best_of(lambda: pa.u_alpha(spans, length=lengths), repeat)
    t_ordinal = best_of(lambda: pa.u_alpha(spans, length=lengths, distance="ordinal"), repeat)
    t_ci = best_of(lambda: pa.u_alpha(spans, length=lengths, ci=0.95, rng=0), repeat)
    print(
        f"u-alpha family, 100 documents x 3 coders x 50 units ({len(spans)} spans), per "
        f"document and pooled (best of {repeat}):"
    )
    print(f"  nominal:                        {t_nominal * 1000:8.1f} ms  (target < 1000 ms)")
    print(f"  ordinal:                        {t_ordinal * 1000:8.1f} ms")
    print(f"  nominal, 95 % CI, 2,000 boots:  {t_ci * 1000:8.1f} ms")
    print(
        f"  u = {res.u_alpha:.4f}, |u = {res.bar_u_alpha:.4f}, cu = {res.cu_alpha:.4f} "
        f"(coverage {res.cu_coverage:.3f})"
    )
    assert t_nominal < 1.0, f"u_alpha took {t_nominal:.3f} s, over the 1 s target"


if __name__ == "__main__":
    main()
