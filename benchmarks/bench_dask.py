"""Alpha on dask DataFrames: the local scheduler and a ``distributed.LocalCluster`` against pandas.

Run: ``python benchmarks/bench_dask.py`` (``--quick`` for smaller sizes, ``--units N`` to
choose). Needs the ``dask`` extra (``dask[dataframe]``, ``distributed``) and pyarrow.

The data are written to Parquet (one file per partition, rows sorted by coder so that every
unit spans several partitions: the worst case for the (unit, value) combine) and read back
by each contender:

* ``pandas``: ``pd.read_parquet`` then ``pandas_agree.alpha`` (and alpha alone, on the frame
  already in memory);
* ``dask threads``: ``dd.read_parquet(...).agree.alpha`` on dask's local threaded scheduler;
* ``distributed k``: the same under a ``distributed.Client`` on a ``LocalCluster`` with ``k``
  single-threaded worker processes (after one warm-up run).

``--split-every 16`` sets the fan-in of dask's tree reduction. Every contender must give
the same alpha; times are the best of ``--repeat`` runs, and the
ratio is time / (pandas read + alpha).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time

import numpy as np
import pandas as pd

import pandas_agree as pa
import pandas_agree.frontends.dask  # registers ddf.agree (import dask.dataframe alone does too)


def timed(func, repeat: int):
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = func()
        best = min(best, time.perf_counter() - start)
    return best, out


def nominal_data(n_units: int, seed: int = 0) -> pd.DataFrame:
    """Three coders, values 1-5 (70 % agree with the unit's truth), 10 % missing ratings."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, size=n_units)
    units = np.repeat(np.arange(n_units), 3)
    coders = np.tile(np.array(["ann", "bob", "cat"]), n_units)
    values = np.where(rng.random(units.size) < 0.7, truth[units], rng.integers(1, 6, units.size))
    keep = rng.random(units.size) >= 0.1
    return pd.DataFrame({"unit": units[keep], "coder": coders[keep], "value": values[keep]})


def set_data(n_units: int, seed: int = 1) -> pd.DataFrame:
    """Three coders, sets of 0-3 labels out of 12 (stored as Parquet lists)."""
    rng = np.random.default_rng(seed)
    labels = np.array(list("abcdefghijkl"))
    rows_unit, rows_coder, rows_value = [], [], []
    for u in range(n_units):
        truth = set(rng.choice(labels, size=rng.integers(0, 4), replace=False).tolist())
        for c in ("ann", "bob", "cat"):
            s = set(truth)
            if rng.random() < 0.3:
                s ^= {str(rng.choice(labels))}
            rows_unit.append(u)
            rows_coder.append(c)
            rows_value.append(sorted(s))
    return pd.DataFrame({"unit": rows_unit, "coder": rows_coder, "value": rows_value})


def write_parquet(df: pd.DataFrame, path: str, n_files: int) -> None:
    df = df.sort_values("coder", kind="stable").reset_index(drop=True)
    os.makedirs(path)
    for i, part in enumerate(np.array_split(np.arange(len(df)), n_files)):
        df.iloc[part].to_parquet(os.path.join(path, f"part.{i:03d}.parquet"), index=False)


def bench(name: str, df: pd.DataFrame, distance: str, args, workdir: str) -> None:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    path = os.path.join(workdir, name)
    write_parquet(df, path, args.files)
    pandas_df = df.assign(value=[frozenset(v) for v in df["value"]]) if name == "sets" else df

    t_alpha, expected = timed(lambda: pa.alpha(pandas_df, distance).alpha, args.repeat)

    def pandas_read():
        frame = pd.read_parquet(path)
        if name == "sets":
            frame["value"] = [frozenset(v.tolist()) for v in frame["value"]]
        return pa.alpha(frame, distance).alpha

    t_pandas, got = timed(pandas_read, args.repeat)
    assert abs(got - expected) < 1e-9, (got, expected)

    def run_dask():
        return dd.read_parquet(path).agree.alpha(distance, split_every=args.split_every).alpha

    print(
        f"{name:8} {distance:8} {len(df):>10,} rows, {args.files} files: "
        f"pandas alpha {t_alpha:7.2f}s   pandas read+alpha {t_pandas:7.2f}s (= 1.00)"
    )
    t_threads, got = timed(run_dask, args.repeat)
    assert abs(got - expected) < 1e-9, (got, expected)
    print(
        f"{'':8} dask threads (local scheduler)   {t_threads:7.2f}s  ({t_threads / t_pandas:.2f})"
    )
    for n_workers in args.workers:
        with (
            LocalCluster(
                n_workers=n_workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                memory_limit=None,
            ) as cluster,
            Client(cluster),
        ):
            run_dask()  # warm-up: imports on the workers
            t_dist, got = timed(run_dask, args.repeat)
        assert abs(got - expected) < 1e-9, (got, expected)
        print(
            f"{'':8} distributed, {n_workers} worker(s) x 1 thread {t_dist:7.2f}s  "
            f"({t_dist / t_pandas:.2f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller data")
    parser.add_argument("--units", type=int, default=None, help="units of the nominal data")
    parser.add_argument("--set-units", type=int, default=None, help="units of the set data")
    parser.add_argument("--files", type=int, default=16, help="Parquet files (partitions)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument(
        "--split-every", type=int, default=None, help="fan-in of the tree reduction (dask: 8)"
    )
    args = parser.parse_args()
    n_units = args.units or (200_000 if args.quick else 1_500_000)
    n_set_units = args.set_units or (30_000 if args.quick else 300_000)
    print(f"cores: {os.cpu_count()}, split_every: {args.split_every or 'dask default (8)'}")
    workdir = tempfile.mkdtemp(prefix="bench_dask_")
    try:
        bench("nominal", nominal_data(n_units), "nominal", args, workdir)
        bench("sets", set_data(n_set_units), "masi", args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
