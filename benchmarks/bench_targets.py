"""The speed and memory targets of the data layer in one table: each figure with its ratio
to the floor (one ``pd.factorize`` pass over what is read) and to the peers
(``krippendorff``, NLTK), for this checkout and, with ``--before``, another one.

Run from the repository root (the test extras installed: ``krippendorff``, ``nltk``)::

    python benchmarks/bench_targets.py                        # this checkout
    python benchmarks/bench_targets.py --before /path/to/other/checkout
    python benchmarks/bench_targets.py --quick                # 10x smaller data
    python benchmarks/bench_targets.py --cpu                  # CPU time, not wall clock

Each checkout is measured in its own child processes (``PYTHONPATH`` set to it, so each
imports its own ``pandas_agree``), the checkouts taking turns over ``--rounds`` rounds; a
figure is the best of all its timings (on a shared machine the best is the cost), and each
ratio divides two figures timed in turn within the same child process (or, for the peers,
timed by this process between the rounds). The rows:

* nominal alpha on 1,000,000 units x 3 coders (values 1-5, 10 % missing), against one
  ``pd.factorize`` of the unit, coder and value columns and against ``krippendorff``;
* MASI alpha on 100,000 units x 3 coders (sets of 1-3 of 12 labels, 10 % missing) from each
  input shape (``benchmarks/bench_sets.py``), against NLTK and against frozensets; exploded
  rows (one label per row, ``on_duplicate="union"``) against one ``pd.factorize`` of their
  three columns;
* the set-pair routes' time and peak memory (20,000 distinct sets sharing a label;
  coreference codes of 100,000 mentions in chains of up to 200), each in a fresh process;
* what ``import pandas_agree`` adds to ``import pandas`` (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

SHAPES = ["frozensets", "lists", "tuples", "arrays", "sets", "arrow", "strings (sep=';')",
          "exploded (union)"]
KWARGS = {"strings (sep=';')": {"sep": ";"}, "exploded (union)": {"on_duplicate": "union"}}


def nominal_data(n_units: int) -> tuple[np.ndarray, pd.DataFrame]:
    """``benchmarks/bench_alpha.py``'s nominal data: a 3 x n matrix and its long frame."""
    from bench_alpha import long_from_matrix

    rng = np.random.default_rng(0)
    mat = rng.integers(1, 6, size=(3, n_units)).astype(float)
    mat[rng.random(mat.shape) < 0.1] = np.nan
    return mat, long_from_matrix(mat)


#: The clock of every timing: wall time, or with --cpu this process's CPU time (steadier on
#: a machine shared with other work; it counts every thread of the process).
CLOCK = time.perf_counter


def interleaved(funcs: dict, repeat: int) -> dict[str, float]:
    """Best time of each function, timed in turn within each round."""
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(repeat):
        for name, func in funcs.items():
            t0 = CLOCK()
            func()
            times[name].append(CLOCK() - t0)
    return {name: min(ts) for name, ts in times.items()}


def measure(scale: int, repeat: int) -> dict:
    """This interpreter's pandas_agree: times and alphas (printed as JSON by --measure)."""
    from bench_sets import masi_frames

    import pandas_agree as pa

    _, nominal = nominal_data(1_000_000 // scale)
    frames = masi_frames(100_000 // scale)
    sets = frames["frozensets"]["value"].to_numpy()
    exploded = frames["exploded (union)"]
    funcs = {
        "nominal": lambda: pa.alpha(nominal, "nominal"),
        "floor: nominal": lambda: [pd.factorize(nominal[c]) for c in nominal.columns],
        "floor: sets": lambda: pd.factorize(sets),
        "floor: exploded": lambda: [pd.factorize(exploded[c]) for c in exploded.columns],
    }
    for name in SHAPES:
        kwargs = KWARGS.get(name, {})
        funcs[name] = lambda f=frames[name], k=kwargs: pa.alpha(f, "masi", **k)
    alphas = {"nominal": pa.alpha(nominal, "nominal").alpha}
    alphas.update({name: funcs[name]().alpha for name in SHAPES})
    return {
        "file": pa.__file__,
        "times": interleaved(funcs, repeat),
        "alphas": alphas,
    }


def peers(scale: int, repeat: int) -> dict[str, float]:
    """krippendorff on the nominal data, NLTK's MASI on the frozensets (same data)."""
    import krippendorff
    from bench_sets import masi_frames
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import masi_distance

    mat, _ = nominal_data(1_000_000 // scale)
    df = masi_frames(100_000 // scale)["frozensets"].dropna()
    triples = list(zip(df["coder"], df["unit"], df["value"]))
    alphas = {}

    def nltk() -> None:
        alphas["masi"] = AnnotationTask(triples, distance=masi_distance).alpha()

    def kripp() -> None:
        alphas["nominal"] = krippendorff.alpha(
            reliability_data=mat, level_of_measurement="nominal"
        )

    times = interleaved({"krippendorff": kripp}, repeat)
    times.update(interleaved({"nltk": nltk}, max(1, repeat // 3)))
    return {"times": times, "alphas": alphas}


def child_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)
    return env


def run_json(root: Path, args: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=child_env(root),
        cwd=root, check=False,
    )
    if out.returncode:
        raise SystemExit(f"{args} in {root} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


_IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)$")


def import_cost(root: Path) -> float:
    """Seconds ``import pandas_agree`` adds to the ``import pandas`` inside it."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import pandas_agree"],
        capture_output=True, text=True, env=child_env(root), cwd=root, check=True,
    )
    cumulative: dict[str, int] = {}
    for line in out.stderr.splitlines():
        m = _IMPORT_LINE.match(line)
        if m and m.group(4) in ("pandas", "pandas_agree") and m.group(4) not in cumulative:
            cumulative[m.group(4)] = int(m.group(2))
    return (cumulative["pandas_agree"] - cumulative["pandas"]) / 1e6


def best_of(results: list[dict]) -> dict:
    times: dict[str, float] = {}
    for r in results:
        for k, v in r["times"].items():
            times[k] = min(v, times.get(k, float("inf")))
    return {"file": results[0]["file"], "times": times, "alphas": results[0]["alphas"]}


def rows(m: dict, peer: dict, cases: dict, imp: float) -> list[tuple[str, str, str, bool]]:
    """(figure, value, target, met) for one checkout."""
    t, p = m["times"], peer["times"]
    out = []

    def row(name: str, value: float, fmt: str, target: str, met: bool) -> None:
        out.append((name, fmt.format(value), target, met))

    row("nominal 1M x 3: time", t["nominal"] * 1e3, "{:.0f} ms", "", True)
    r = t["nominal"] / t["floor: nominal"]
    row("nominal 1M x 3: / factorize(unit, coder, value)", r, "{:.2f}x", "<= 1.2x", r <= 1.2)
    r = p["krippendorff"] / t["nominal"]
    row("nominal 1M x 3: krippendorff / ours", r, "{:.1f}x", ">= 3x", r >= 3)
    row("MASI 100k x 3 frozensets: time", t["frozensets"] * 1e3, "{:.0f} ms", "", True)
    r = t["frozensets"] / t["floor: sets"]
    row("MASI frozensets: / factorize(value)", r, "{:.2f}x", "", True)
    r = p["nltk"] / t["frozensets"]
    row("MASI frozensets: NLTK / ours", r, "{:.0f}x", ">= 40x", r >= 40)
    for name in ("lists", "tuples", "arrays", "sets"):
        r = t[name] / t["frozensets"]
        target = "<= 2x" if name != "sets" else ""
        row(f"MASI {name}: / frozensets", r, "{:.2f}x", target, r <= 2 or not target)
    r = p["nltk"] / t["arrow"]
    row("MASI Arrow list<string>: NLTK / ours", r, "{:.0f}x", ">= 60x", r >= 60)
    r = t["strings (sep=';')"] / t["frozensets"]
    row("MASI strings (sep=';'): / frozensets", r, "{:.2f}x", "", True)
    r = t["exploded (union)"] / t["floor: exploded"]
    row("MASI exploded rows: / factorize(3 columns)", r, "{:.2f}x", "<= 4x", r <= 4)
    for case, limit_s, limit_mib in (("shared:20000", None, 1024), ("coref", 5.0, 2048)):
        c = cases[case]
        label = "20k sets sharing a label" if case.startswith("shared") else "coref 100k"
        if limit_s is not None:
            row(f"{label}: time", c["seconds"], "{:.2f} s", f"<= {limit_s:g} s",
                c["seconds"] <= limit_s)
            row(f"{label}: CPU time", c["cpu_seconds"], "{:.2f} s", f"<= {limit_s:g} s",
                c["cpu_seconds"] <= limit_s)
        row(f"{label}: peak memory", c["peak_mib"], "{:.0f} MiB", f"<= {limit_mib} MiB",
            c["peak_mib"] <= limit_mib)
    row("import pandas_agree over import pandas", imp, "{:.3f} s", "<= 0.15 s", imp <= 0.15)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout, measured in turn")
    parser.add_argument("--quick", action="store_true", help="10x smaller data")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5, help="timings per child process")
    parser.add_argument("--cpu", action="store_true", help="time CPU, not wall clock")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    if args.measure:
        print(json.dumps(measure(scale, args.repeat)))
        return
    here = HERE.parent
    roots = {"after": here} if args.before is None else {"before": args.before, "after": here}
    script = str(HERE / "bench_targets.py")
    measured: dict[str, list[dict]] = {name: [] for name in roots}
    peer_runs = []
    for _ in range(args.rounds):
        for name, root in roots.items():
            extra = (["--quick"] if args.quick else []) + (["--cpu"] if args.cpu else [])
            measured[name].append(
                run_json(root, [script, "--measure", "--repeat", str(args.repeat), *extra])
            )
        peer_runs.append(peers(scale, args.repeat))
    peer = {"times": {k: min(r["times"][k] for r in peer_runs) for k in peer_runs[0]["times"]},
            "alphas": peer_runs[0]["alphas"]}
    best = {name: best_of(runs) for name, runs in measured.items()}
    for name, m in best.items():  # every shape and checkout computes the peers' alpha
        a = m["alphas"]
        assert abs(a["nominal"] - peer["alphas"]["nominal"]) < 1e-9, (name, a)
        assert all(abs(a[s] - peer["alphas"]["masi"]) < 1e-9 for s in SHAPES), (name, a)
    sets_script = str(HERE / "bench_sets.py")
    cases: dict[str, dict[str, dict]] = {name: {} for name in roots}
    for _ in range(2):  # in turn; the best time and the lowest peak of two fresh processes
        for name, root in roots.items():
            for case in ("shared:2000", "coref") if args.quick else ("shared:20000", "coref"):
                r = run_json(root, [sets_script, "--case", case])
                old = cases[name].setdefault(case, r)
                for key in ("seconds", "cpu_seconds", "peak_mib"):
                    old[key] = min(old[key], r[key])
    if args.quick:
        for c in cases.values():
            c["shared:20000"] = c.pop("shared:2000")
    imports = {name: min(import_cost(root) for _ in range(5)) for name, root in roots.items()}
    tables = {name: rows(best[name], peer, cases[name], imports[name]) for name in roots}
    clock = "CPU time" if args.cpu else "wall time"
    print(f"{clock}, best of {args.rounds} rounds x {args.repeat}; peers: krippendorff "
          f"{peer['times']['krippendorff']:.2f} s, NLTK MASI {peer['times']['nltk']:.2f} s"
          f"{' (--quick)' if args.quick else ''}")
    for name in roots:
        print(f"{name}: {best[name]['file']}")
    names = list(roots)
    header = f"{'figure':<50} {'target':>12} " + " ".join(f"{n:>16}" for n in names)
    print(header)
    print("-" * len(header))
    for i, (figure, _, target, _) in enumerate(tables[names[-1]]):
        cells = []
        for n in names:
            _, value, _, met = tables[n][i]
            cells.append(f"{value + ('' if met else ' MISS'):>16}")
        print(f"{figure:<50} {target:>12} " + " ".join(cells))
    print()
    print_shapes(best, peer)


def print_shapes(best: dict, peer: dict) -> None:
    """Each MASI shape of each checkout: time, x its floor, x frozensets, x faster than NLTK."""
    print(f"{'MASI, 100k units x 3, by shape':<32} {'checkout':>8} {'time':>9} {'x floor':>8} "
          f"{'x frozensets':>13} {'NLTK / ours':>12}")
    for shape in SHAPES:
        for name, m in best.items():
            t = m["times"]
            floor = t["floor: exploded"] if shape.startswith("exploded") else t["floor: sets"]
            print(f"{shape:<32} {name:>8} {t[shape] * 1e3:6.1f} ms {t[shape] / floor:8.2f} "
                  f"{t[shape] / t['frozensets']:13.2f} {peer['times']['nltk'] / t[shape]:12.0f}")


if __name__ == "__main__":
    main()
