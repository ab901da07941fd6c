"""Mathet et al.'s gamma against pygamma-agreement, on the same continua in one run.

Run from the repository root::

    python benchmarks/bench_gamma.py            # 2 coders x 1,000 units, 3 coders x 300 units
    python benchmarks/bench_gamma.py --quick    # 2 x 200 and 3 x 60
    python benchmarks/bench_gamma.py --pygamma /path/to/venv/bin/python
    python benchmarks/bench_gamma.py --pygamma none   # pandas_agree alone

pygamma-agreement (which needs Python <= 3.11, cvxpy, numba and GLPK) runs in its own
interpreter, ``--pygamma`` (default: ``/work/venv-pygamma/bin/python`` when it exists, else
the ``PYGAMMA_PYTHON`` environment variable); without one only pandas_agree is timed.

The continua imitate annotation: a reference of units (durations about 50, gaps about 30,
four categories, integer offsets) that each coder copies with shifted boundaries, a changed
category now and then, a unit dropped or split or added. Both libraries use the combined
dissimilarity with alpha = beta = 1 and delta_empty = 1 (pygamma's default).

Printed per size:

* the best alignment alone (pandas_agree: one exact solve; pygamma:
  ``Continuum.get_best_alignment``), best of a few calls, and its disorder;
* gamma with the same number of random continua (30, pygamma's default sampler and ours:
  the statistical one): best of three calls for pandas_agree, one call for pygamma (which
  draws its samples on as many threads as the machine has cores);
* the observed disorders: pygamma's (computed in float32) against ours, and pygamma's best
  alignment re-scored in float64 against ours (equal when both alignments are best).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd

import pandas_agree as pa
from pandas_agree._core import alignment as al

N_SAMPLES = 30


def annotated(n_coders: int, n_units: int, seed: int = 0) -> pd.DataFrame:
    """A span frame of ``n_coders`` who copy one reference of about ``n_units`` units."""
    rng = np.random.default_rng(seed)
    dur = np.maximum(rng.normal(50, 20, n_units), 5).round()
    gap = np.maximum(rng.normal(30, 20, n_units), 1).round()
    end = np.cumsum(gap + dur)
    start = end - dur
    cat = rng.integers(4, size=n_units)
    rows = []
    for c in range(n_coders):
        for s, e, k in zip(start, end, cat, strict=True):
            r = rng.random()
            if r < 0.04:  # dropped
                continue
            ns = s + rng.normal(0, 0.1 * (e - s))
            ne = e + rng.normal(0, 0.1 * (e - s))
            nk = k if rng.random() > 0.1 else rng.integers(4)
            ns, ne = round(max(ns, 0)), round(ne)
            if ne <= ns:
                ne = ns + 1
            if r > 0.97:  # split in two
                mid = (ns + ne) // 2
                if ns < mid < ne:
                    rows += [(c, ns, mid, nk), (c, mid, ne, nk)]
                    continue
            rows.append((c, ns, ne, nk))
        extra = rng.integers(0, int(end[-1]), max(1, n_units // 30))  # added units
        for x in extra:
            rows.append((c, int(x), int(x + rng.integers(10, 60)), int(rng.integers(4))))
    frame = pd.DataFrame(rows, columns=["coder", "start", "end", "label"])
    frame.insert(0, "document", "doc")
    frame["coder"] = "coder" + frame["coder"].astype(str)
    frame["label"] = "cat" + frame["label"].astype(str)
    return frame.sort_values(["coder", "start", "end"], ignore_index=True)


def trim(frame: pd.DataFrame, n_units: int) -> pd.DataFrame:
    """Each coder's first ``n_units`` units."""
    return frame.groupby("coder", sort=False).head(n_units).reset_index(drop=True)


def units_of(frame: pd.DataFrame) -> al.Units:
    coders = pd.Index(sorted(frame["coder"].unique()))
    labels = pd.Index(sorted(frame["label"].unique()))
    return al.Units(
        start=frame["start"].to_numpy(float),
        end=frame["end"].to_numpy(float),
        category=labels.get_indexer(frame["label"]).astype(np.intp),
        coder=coders.get_indexer(frame["coder"]).astype(np.intp),
        group=np.zeros(len(frame), dtype=np.intp),
        n_coders=np.array([len(coders)]),
    )


def ours(frame: pd.DataFrame, repeat: int) -> dict[str, float]:
    units = units_of(frame)
    n_cat = int(units.category.max()) + 1
    dissim = al.Dissimilarity(1.0, 1.0, 1.0, 1.0 - np.eye(n_cat))
    best_t = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        best = al.best_alignment(units, dissim)
        best_t = min(best_t, time.perf_counter() - t)
    n_coders = int(units.n_coders[0])
    observed = float(best.disorder.sum() / (units.size / n_coders))
    gamma_t = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        res = pa.gamma(frame, n_samples=N_SAMPLES, rng=0)
        gamma_t = min(gamma_t, time.perf_counter() - t)
    assert abs(res.observed - observed) < 1e-12
    return {
        "best_s": best_t,
        "gamma_s": gamma_t,
        "observed": observed,
        "expected": res.expected,
        "expected_se": res.expected_se,
        "gamma": res.gamma,
    }


_PYGAMMA = textwrap.dedent(
    """
    import json, logging, sys, time
    logging.disable(logging.WARNING)
    import numpy as np
    from pyannote.core import Segment
    from pygamma_agreement import CombinedCategoricalDissimilarity, Continuum
    path, repeat, n_samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    continuum = Continuum()
    for line in open(path):
        coder, start, end, label = line.rstrip("\\n").split(",")
        continuum.add(coder, Segment(float(start), float(end)), label)
    dissim = CombinedCategoricalDissimilarity(alpha=1.0, beta=1.0, delta_empty=1.0)
    best_t = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        best = continuum.get_best_alignment(dissim)
        best_t = min(best_t, time.perf_counter() - t)
    rows = [[[a, u.segment.start, u.segment.end, u.annotation] if u is not None else [a, None]
             for a, u in ua.n_tuple] for ua in best.unitary_alignments]
    np.random.seed(0)
    t = time.perf_counter()
    res = continuum.compute_gamma(dissim, n_samples=n_samples)
    gamma_t = time.perf_counter() - t
    print(json.dumps({"best_s": best_t, "gamma_s": gamma_t,
                      "observed": float(best.disorder), "expected": res.expected_disorder,
                      "gamma": float(res.gamma), "alignment": rows}))
    """
)


def pygamma(python: str, frame: pd.DataFrame, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "continuum.csv"
        frame[["coder", "start", "end", "label"]].to_csv(path, header=False, index=False)
        script = Path(tmp) / "run.py"
        script.write_text(_PYGAMMA)
        out = subprocess.run(
            [python, str(script), str(path), str(repeat), str(N_SAMPLES)],
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def rescored(frame: pd.DataFrame, rows: list) -> float:
    """pygamma's best alignment, its disorder computed here in float64."""
    units = units_of(frame)
    coders = sorted(frame["coder"].unique())
    key = {
        (c, float(s), float(e), lab): i
        for i, (c, s, e, lab) in enumerate(
            frame[["coder", "start", "end", "label"]].itertuples(index=False)
        )
    }
    members = np.full((len(rows), len(coders)), -1, dtype=np.intp)
    for r, tup in enumerate(rows):
        for entry in tup:
            if entry[1] is not None:
                members[r, coders.index(entry[0])] = key[(entry[0], *entry[1:3], entry[3])]
    n_cat = int(units.category.max()) + 1
    dissim = al.Dissimilarity(1.0, 1.0, 1.0, 1.0 - np.eye(n_cat))
    dis = al.unitary_disorder(members, units, dissim, np.zeros(len(rows), dtype=np.intp))
    return float(dis.sum() / (units.size / len(coders)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    default = "/work/venv-pygamma/bin/python"
    parser.add_argument(
        "--pygamma",
        default=default if os.path.exists(default) else os.environ.get("PYGAMMA_PYTHON"),
    )
    args = parser.parse_args()
    sizes = [(2, 200), (3, 60)] if args.quick else [(2, 1000), (3, 300)]
    print(f"gamma, {N_SAMPLES} random continua; times in seconds")
    for n_coders, n_units in sizes:
        frame = trim(annotated(n_coders, int(n_units * 1.05), seed=n_coders), n_units)
        if frame.duplicated(["coder", "start", "end", "label"]).any():
            frame = frame.drop_duplicates(["coder", "start", "end", "label"], ignore_index=True)
        mine = ours(frame, repeat=3)
        print(
            f"\n{n_coders} coders x {n_units} units ({len(frame)} spans)\n"
            f"  pandas_agree  best alignment {mine['best_s']:8.3f}   gamma {mine['gamma_s']:8.3f}"
            f"   observed {mine['observed']:.12f}  expected {mine['expected']:.4f}"
            f" (se {mine['expected_se']:.4f})  gamma {mine['gamma']:.4f}"
        )
        if not args.pygamma or args.pygamma == "none":
            print("  pygamma-agreement: no interpreter given (--pygamma)")
            continue
        peer = pygamma(args.pygamma, frame, repeat=2)
        again = rescored(frame, peer["alignment"])
        print(
            f"  pygamma       best alignment {peer['best_s']:8.3f}   gamma {peer['gamma_s']:8.3f}"
            f"   observed {peer['observed']:.12f}  expected {peer['expected']:.4f}"
            f"                gamma {peer['gamma']:.4f}\n"
            f"  ratio (pygamma / pandas_agree): best alignment "
            f"{peer['best_s'] / mine['best_s']:.1f}x, "
            f"gamma {peer['gamma_s'] / mine['gamma_s']:.1f}x\n"
            f"  observed disorder: |pygamma (float32) - ours| = "
            f"{abs(peer['observed'] - mine['observed']):.2e}; pygamma's alignment re-scored in "
            f"float64 - ours = {again - mine['observed']:.2e}"
        )


if __name__ == "__main__":
    sys.exit(main())
