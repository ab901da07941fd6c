"""Relation agreement speed: relation_f1 and relation_alpha on generated relation frames.

Run: ``python benchmarks/bench_relations.py`` (``--relations N`` per coder, default 10,000;
``--repeat R``). Target: relation F1 for 3 coders x 10,000 relations each under a second, for
exact and overlap matching.

The data (:func:`generate`): 200 documents; each coder copies most relations of a shared base,
some with a span moved a few characters, and draws the rest at random, so both matching modes
find many candidates.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import pandas_agree as pa


def timed(func, repeat: int):
    """Best wall time of ``repeat`` calls (the machine is shared; the best is the cost)."""
    best = float("inf")
    out = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = func()
        best = min(best, time.perf_counter() - start)
    return best, out


def generate(n_per_coder: int, n_coders: int = 3, n_docs: int = 200, seed: int = 0):
    """A span frame and a relation frame with ``n_per_coder`` relations for each coder.

    A base of ``n_per_coder`` relations between spans of a pool of 60 spans per document;
    each coder copies 60 % of them as they are, 20 % with the head span moved by up to 3
    characters (matching only by overlap), and draws 20 % at random.
    """
    rng = np.random.default_rng(seed)
    pool_size = 60
    starts = rng.integers(0, 5000, size=(n_docs, pool_size))
    lengths = rng.integers(1, 12, size=(n_docs, pool_size))
    span_labels = np.array(["PER", "ORG", "LOC"])[rng.integers(0, 3, size=(n_docs, pool_size))]
    rel_labels = np.array(["Employer", "Located", "Part_of", "Equiv"])
    base_doc = rng.integers(0, n_docs, n_per_coder)
    base_h = rng.integers(0, pool_size, n_per_coder)
    base_t = (base_h + rng.integers(1, pool_size, n_per_coder)) % pool_size
    base_lab = rng.integers(0, 4, n_per_coder)
    frames, span_frames = [], []
    for c in range(n_coders):
        kind = rng.random(n_per_coder)
        fresh = kind >= 0.8
        doc = np.where(fresh, rng.integers(0, n_docs, n_per_coder), base_doc)
        h = np.where(fresh, rng.integers(0, pool_size, n_per_coder), base_h)
        t = np.where(fresh, (h + rng.integers(1, pool_size, n_per_coder)) % pool_size, base_t)
        lab = rel_labels[np.where(fresh, rng.integers(0, 4, n_per_coder), base_lab)]
        moved = (kind >= 0.6) & (kind < 0.8)
        hs = np.maximum(starts[doc, h] + np.where(moved, rng.integers(1, 4, n_per_coder), 0), 0)
        ts = starts[doc, t]
        order = rng.permutation(n_per_coder)
        frame = pd.DataFrame(
            {
                "document": [f"doc{d}" for d in doc],
                "coder": f"c{c}",
                "relation": [f"R{k}" for k in range(n_per_coder)],
                "label": lab,
                "head": [f"T{2 * k}" for k in range(n_per_coder)],
                "tail": [f"T{2 * k + 1}" for k in range(n_per_coder)],
                "head_start": hs,
                "head_end": hs + lengths[doc, h],
                "head_label": span_labels[doc, h],
                "tail_start": ts,
                "tail_end": ts + lengths[doc, t],
                "tail_label": span_labels[doc, t],
            }
        ).iloc[order]
        frames.append(frame)
        names = ["document", "coder", "start", "end", "label"]
        for end in ("head", "tail"):
            part = frame[["document", "coder", f"{end}_start", f"{end}_end", f"{end}_label"]]
            span_frames.append(part.set_axis(names, axis=1))
    relations = pd.concat(frames, ignore_index=True)
    spans = pd.concat(span_frames, ignore_index=True).drop_duplicates(ignore_index=True)
    return spans, relations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--relations", type=int, default=10_000, help="relations per coder")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    spans, relations = generate(args.relations)
    n_coders = relations["coder"].nunique()
    print(f"{n_coders} coders x {args.relations:,} relations, {len(spans):,} spans")
    for match in ("exact", "overlap"):
        for kwargs in ({}, {"symmetric": {"Equiv"}}):
            seconds, table = timed(
                lambda m=match, k=kwargs: pa.relation_f1(relations, m, **k), args.repeat
            )
            micro = table.loc[table["label"] == "(all)", "f1"].round(3).tolist()
            sym = " symmetric" if kwargs else ""
            print(f"relation_f1 {match:7s}{sym:10s} {seconds * 1000:8.1f} ms   F1 by pair {micro}")
    # alpha needs one label per coder and ordered span pair: keep the first of each
    pair = ["document", "coder", "head_start", "head_end", "tail_start", "tail_end"]
    once = relations.drop_duplicates(pair, ignore_index=True)
    seconds, res = timed(lambda: pa.relation_alpha(spans, once), args.repeat)
    print(f"relation_alpha                   {seconds * 1000:8.1f} ms   {res!r}")


if __name__ == "__main__":
    main()
