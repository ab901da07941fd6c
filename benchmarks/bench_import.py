"""What ``import pandas_agree`` adds to ``import pandas``, measured with ``python -X importtime``.

Run: ``python benchmarks/bench_import.py`` (``--repeat N``, default 7). Each run is a fresh
interpreter: ``python -X importtime -c "import pandas_agree"``. From its report, the cumulative
time of the ``pandas_agree`` line minus the cumulative time of the ``pandas`` line nested in
it is what pandas_agree adds (its own modules and whatever they import beyond pandas). The
best of the runs is printed (on a shared machine the best is the cost), with the median,
against the target: at most 0.15 s. The script also checks that xarray, dask and
scipy were not imported (the accessors are registered when xarray or dask is imported, see
``pandas_agree.frontends.lazy``; public names import their module on first use) and lists the
pandas_agree modules the import loaded.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys

TARGET_S = 0.15
_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)$")


def one_run() -> tuple[float, dict[str, int], list[str]]:
    """Added seconds, cumulative microseconds of pandas and pandas_agree, modules loaded."""
    code = "import sys, pandas_agree; print(','.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        check=True,
    )
    modules = set(out.stdout.strip().split(","))
    for lib in ("xarray", "dask", "dask.dataframe", "scipy"):
        if lib in modules:
            raise SystemExit(f"FAIL: import pandas_agree imported {lib}")
    cumulative: dict[str, int] = {}
    for line in out.stderr.splitlines():
        m = _LINE.match(line)
        if m and m.group(4) in ("pandas", "pandas_agree") and m.group(4) not in cumulative:
            cumulative[m.group(4)] = int(m.group(2))
    added = (cumulative["pandas_agree"] - cumulative["pandas"]) / 1e6
    return added, cumulative, sorted(m for m in modules if m.startswith("pandas_agree"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    added, pandas_cum = [], []
    loaded: list[str] = []
    for _ in range(args.repeat):
        a, cum, loaded = one_run()
        added.append(a)
        pandas_cum.append(cum["pandas"] / 1e6)
    best, median = min(added), statistics.median(added)
    print(f"import pandas (inside pandas_agree): best {min(pandas_cum):.3f} s")
    print(f"import pandas_agree adds:            best {best:.3f} s, median {median:.3f} s "
          f"over {args.repeat} runs (target <= {TARGET_S} s)")
    print("xarray, dask, scipy: not imported")
    print("pandas_agree modules loaded:", ", ".join(loaded))
    print("PASS" if best <= TARGET_S else "ABOVE TARGET")


if __name__ == "__main__":
    main()
