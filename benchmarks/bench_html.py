"""The agreement report page on a million ratings: its size and its time beyond the report.

Run: ``python benchmarks/bench_html.py`` (``--quick``: 100,000 ratings).

Targets: a report of 1,000,000 rows (250,000 units x 4 coders, 20 groups, nominal and
interval) writes a page under 2 MB in under 10 s beyond the time of ``pa.report`` itself.
The page's extra work: the pooled alpha with units nested in groups, the per-unit ranking,
alpha between every two coders and without each coder, agreement per category, two figures
(when matplotlib is installed), and the HTML.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import pandas_agree as pa
from pandas_agree.frontends.html import report_page


def ratings(n_units: int, n_coders: int = 4, n_groups: int = 20, seed: int = 0) -> pd.DataFrame:
    """Five ordered categories; each coder keeps the unit's true category 80% of the time."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, n_units)
    value = np.repeat(truth, n_coders)
    flip = rng.random(value.size) < 0.2
    value[flip] = rng.integers(1, 6, int(flip.sum()))
    return pd.DataFrame(
        {
            "docset": np.repeat(np.arange(n_units) % n_groups, n_coders),
            "unit": np.repeat(np.arange(n_units), n_coders),
            "coder": np.tile([f"coder{c}" for c in range(n_coders)], n_units),
            "value": value,
        }
    )


def best(func, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    quick = "--quick" in sys.argv
    n_units = 25_000 if quick else 250_000
    df = ratings(n_units)
    distances = ["nominal", "interval"]
    report_page(df.head(4000), distances, by="docset").to_html()  # warm up imports
    t_report, _ = best(lambda: pa.report(df, distances, by="docset"), 3)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.html"

        def page() -> object:
            return report_page(df, distances, by="docset").to_html(out)

        t_page, _ = best(page, 3)
        size = out.stat().st_size
    extra = t_page - t_report
    print(
        f"report page: {len(df):,} rows ({n_units:,} units x 4 coders, 20 groups, "
        f"{', '.join(distances)})"
    )
    print(f"  pa.report alone           {t_report:7.2f} s")
    print(
        f"  report_page + to_html     {t_page:7.2f} s   (beyond the report: {extra:.2f} s; "
        "target < 10 s)"
    )
    print(f"  page size                 {size / 1e6:7.3f} MB  (target < 2 MB)")
    if not quick:
        assert size < 2_000_000, size
        assert extra < 10, extra


if __name__ == "__main__":
    main()
