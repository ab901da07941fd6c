"""Set-valued labels in every shape, and set distances under heavy overlap.

Run from the repository root::

    python benchmarks/bench_sets.py            # everything (about a minute; NLTK included)
    python benchmarks/bench_sets.py --quick    # 10x smaller, no NLTK

Prints, side by side in one run:

* MASI alpha on 100,000 units x 3 coders (sets of 1-3 of 12 labels, 10 % missing cells)
  from each input shape, end to end from the frame, with ratios to one ``pd.factorize``
  pass (the floor: what reading the column costs) and to NLTK;
* 20,000 and 50,000 distinct sets that all share one label (time, peak memory of a fresh
  process);
* coreference codes of 100,000 mentions in 1,000 documents (time, peak memory).

Peak memory is the peak resident set (``VmHWM`` on Linux) of a child process that runs one
case alone. ``benchmarks/bench_targets.py`` puts these figures beside the others in one
table.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np
import pandas as pd

import pandas_agree as pa


def masi_frames(n_units: int, seed: int = 0) -> dict[str, pd.DataFrame]:
    """The same ratings in every shape: frozensets, lists, tuples, arrays, sets, Arrow lists,
    strings, exploded."""
    import pyarrow

    rng = np.random.default_rng(seed)
    n = n_units * 3
    sizes = rng.integers(1, 4, n)
    order = np.argsort(rng.random((n, 12)), axis=1).tolist()
    lists = [[f"L{i}" for i in row[:k]] for row, k in zip(order, sizes)]
    missing = rng.random(n) < 0.1
    units = np.repeat(np.arange(n_units), 3)
    coders = np.tile(np.array(["a", "b", "c"], dtype=object), n_units)
    frozen = [None if m else frozenset(x) for x, m in zip(lists, missing)]
    as_lists = [None if m else x for x, m in zip(lists, missing)]
    base = pd.DataFrame({"unit": units, "coder": coders})
    keep = ~missing
    exploded = pd.DataFrame(
        {
            "unit": np.repeat(units[keep], sizes[keep]),
            "coder": np.repeat(coders[keep], sizes[keep]),
            "value": [e for x, m in zip(lists, missing) if not m for e in x],
        }
    )
    arrays = np.empty(n, dtype=object)
    arrays[:] = [None if m else np.array(x, dtype=object) for x, m in zip(lists, missing)]
    return {
        "frozensets": base.assign(value=frozen),
        "lists": base.assign(value=as_lists),
        "tuples": base.assign(value=[None if m else tuple(x) for x, m in zip(lists, missing)]),
        "arrays": base.assign(value=arrays),
        "sets": base.assign(value=[None if m else set(x) for x, m in zip(lists, missing)]),
        "arrow": base.assign(
            value=pd.Series(as_lists, dtype=pd.ArrowDtype(pyarrow.list_(pyarrow.string())))
        ),
        "strings (sep=';')": base.assign(
            value=[None if m else ";".join(x) for x, m in zip(lists, missing)]
        ),
        "exploded (union)": exploded,
    }


def interleaved(funcs: dict, repeat: int = 9) -> dict[str, float]:
    """Best time of each function, timed in turn within each round (the machine's drift and
    noise then hit all of them alike, so their ratios are steadier than separate runs')."""
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(repeat):
        for name, func in funcs.items():
            t0 = time.perf_counter()
            func()
            times[name].append(time.perf_counter() - t0)
    return {name: min(ts) for name, ts in times.items()}


def bench_shapes(n_units: int, with_nltk: bool) -> None:
    frames = masi_frames(n_units)
    kwargs = {
        "strings (sep=';')": {"sep": ";"},
        "exploded (union)": {"on_duplicate": "union"},
    }
    ref = pa.alpha(frames["frozensets"], "masi").alpha
    for name, frame in frames.items():
        got = pa.alpha(frame, "masi", **kwargs.get(name, {})).alpha
        assert abs(got - ref) < 1e-12, (name, got, ref)
    sets = frames["frozensets"]["value"].to_numpy()
    ex = frames["exploded (union)"]
    funcs = {
        "floor: sets": lambda: pd.factorize(sets),
        "floor: exploded": lambda: [pd.factorize(ex[c].to_numpy()) for c in ex.columns],
    }
    for name, frame in frames.items():
        kw = kwargs.get(name, {})
        funcs[name] = lambda f=frame, k=kw: pa.alpha(f, "masi", **k)
    t = interleaved(funcs)
    t_nltk = None
    if with_nltk:
        from nltk.metrics.agreement import AnnotationTask
        from nltk.metrics.distance import masi_distance

        df = frames["frozensets"].dropna()
        triples = list(zip(df["coder"], df["unit"], df["value"]))
        t_nltk = interleaved(
            {"nltk": lambda: AnnotationTask(triples, distance=masi_distance).alpha()}, repeat=3
        )["nltk"]
    print(f"MASI alpha, {n_units:,} units x 3 coders, 10 % missing (alpha {ref:.6f})")
    print(
        f"  floor: pd.factorize of the frozenset column {t['floor: sets'] * 1e3:7.1f} ms; of "
        f"the exploded unit, coder, label columns {t['floor: exploded'] * 1e3:7.1f} ms"
    )
    if t_nltk is not None:
        print(f"  NLTK AnnotationTask(masi_distance) + alpha(), best of 3: {t_nltk:6.2f} s")
    for name in frames:
        floor = t["floor: exploded"] if name.startswith("exploded") else t["floor: sets"]
        line = (
            f"  {name:<18} {t[name] * 1e3:7.1f} ms   {t[name] / floor:5.2f}x the floor"
            f"   {t[name] / t['frozensets']:5.2f}x frozensets"
        )
        if t_nltk is not None:
            line += f"   {t_nltk / t[name]:6.1f}x faster than NLTK"
        print(line)


def shared_label_frame(n_sets: int, seed: int = 0) -> pd.DataFrame:
    """``n_sets`` distinct sets, all holding label 'common', rated by 3 coders."""
    rng = np.random.default_rng(seed)
    vocab = max(1000, n_sets // 5)
    sets: set[frozenset] = set()
    while len(sets) < n_sets:
        k = int(rng.integers(1, 5))
        sets.add(frozenset(["common", *(f"x{i}" for i in rng.integers(0, vocab, k))]))
    pool = sorted(sets, key=sorted)  # not set order: it changes with the hash seed
    units = np.repeat(np.arange(n_sets), 3)
    values = [pool[i] for i in rng.permutation(np.repeat(np.arange(n_sets), 3))]
    return pd.DataFrame({"unit": units, "coder": ["a", "b", "c"] * n_sets, "value": values})


def coref_frame(seed: int = 0) -> pd.DataFrame:
    """Chain codes of 100,000 mentions in 1,000 documents, two coders who mostly agree."""
    rng = np.random.default_rng(seed)
    rows = []
    mention = 0
    for doc in range(1000):
        sizes = []
        total = 0
        if doc % 10 == 0:
            sizes.append(200)
            total += 200
        while total < 100:
            s = int(rng.integers(1, 21))
            sizes.append(s)
            total += s
        ids = np.arange(mention, mention + total)
        mention += total
        for coder in ("a", "b"):
            chain = np.repeat(np.arange(len(sizes)), sizes)
            if coder == "b":  # move 5 % of the mentions to another chain
                moved = rng.random(total) < 0.05
                chain[moved] = rng.integers(0, len(sizes), int(moved.sum()))
            order = np.argsort(chain, kind="stable")
            bounds = np.flatnonzero(np.diff(chain[order])) + 1
            for members in np.split(ids[order], bounds):
                full = frozenset(members.tolist())
                for m in members.tolist():
                    rows.append((m, coder, full - {m}))
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


def _peak_mib(resource) -> float:
    """Peak resident memory of this process in MiB.

    Linux's ``VmHWM`` belongs to the process image, so it starts afresh at ``exec``;
    ``ru_maxrss`` (the fallback elsewhere) keeps the peak of the forked parent's image,
    which here held every benchmark frame (about 600 MiB more).
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_case(case: str) -> dict:
    import resource

    if case.startswith("shared"):
        df = shared_label_frame(int(case.split(":")[1]))
    else:
        df = coref_frame()
    distinct = int(pd.Series(df["value"]).nunique())
    t0, c0 = time.perf_counter(), time.process_time()
    res = pa.alpha(df, "masi")
    t, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = _peak_mib(resource)
    return {
        "case": case,
        "rows": len(df),
        "distinct": distinct,
        "seconds": t,
        "cpu_seconds": cpu,
        "peak_mib": peak,
        "alpha": res.alpha,
    }


def bench_overlap(quick: bool) -> None:
    cases = ["shared:2000", "coref"] if quick else ["shared:20000", "shared:50000", "coref"]
    print("Set distances under heavy overlap (each case in a fresh process; peak resident memory)")
    for case in cases:
        out = subprocess.run(
            [sys.executable, __file__, "--case", case], capture_output=True, text=True, check=True
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"  {r['case']:<14} {r['rows']:>8,} rows {r['distinct']:>8,} distinct sets  "
            f"alpha {r['seconds']:6.2f} s (CPU {r['cpu_seconds']:6.2f} s)   peak "
            f"{r['peak_mib']:7.0f} MiB  (alpha={r['alpha']:.4f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case)))
        return
    n = 10_000 if args.quick else 100_000
    bench_shapes(n, with_nltk=not args.quick)
    bench_overlap(args.quick)


if __name__ == "__main__":
    main()
