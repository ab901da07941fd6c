"""Oracles written from the published definitions, and data generators, shared by the tests.

Pure Python, on purpose slow and obvious: every fast route of the library is compared
with these. Import them as ``from definitions import masi, alpha_by_definition`` (pytest puts
``tests/`` on ``sys.path``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["FIXTURES", "alpha_by_definition", "jaccard", "masi", "random_set_frame"]

#: Files written for the tests (tool exports): ``tests/fixtures/io/...``.
FIXTURES = Path(__file__).resolve().parent / "fixtures"

#: The columns of a relation frame, as the readers document them (written out here, not
#: imported, so that the tests check the library's list).
RELATION_FRAME_COLUMNS = [
    "document",
    "coder",
    "relation",
    "label",
    "head",
    "tail",
    "head_start",
    "head_end",
    "head_label",
    "tail_start",
    "tail_end",
    "tail_label",
]


def masi(a: frozenset, b: frozenset) -> float:
    """Passonneau (2006): ``1 - J * M``, M = 1, 2/3, 1/3, 0 (equal, subset, overlap, disjoint)."""
    if a == b:
        return 0.0
    inter = len(a & b)
    if inter == 0:
        return 1.0
    m = Fraction(2, 3) if a <= b or b <= a else Fraction(1, 3)
    return float(1 - Fraction(inter, len(a | b)) * m)


def jaccard(a: frozenset, b: frozenset) -> float:
    """Jaccard distance ``1 - |A & B| / |A | B|``; two empty sets are equal (distance 0)."""
    if a == b:
        return 0.0
    return 1.0 - len(a & b) / len(a | b)


def alpha_by_definition(
    df: pd.DataFrame,
    delta: Callable[[Any, Any], float],
    unit: Hashable = "unit",
    value: Hashable = "value",
) -> float:
    """Krippendorff (2011): ``alpha = 1 - D_o / D_e`` over ordered pairs of pairable values.

    Units with fewer than two non-missing values are left out; ``D_o`` sums each unit's
    pairs divided by ``m_u - 1``, ``D_e`` all pairs of the pooled pairable values.
    """
    units = [g[value].tolist() for _, g in df.dropna(subset=[value]).groupby(unit, sort=False)]
    units = [u for u in units if len(u) >= 2]
    n = sum(len(u) for u in units)
    d_o = (
        sum(sum(delta(a, b) for a, b in itertools.permutations(u, 2)) / (len(u) - 1) for u in units)
        / n
    )
    pooled = [v for u in units for v in u]
    d_e = sum(delta(a, b) for a, b in itertools.permutations(pooled, 2)) / (n * (n - 1))
    return 1.0 - d_o / d_e


def random_set_frame(
    seed: int, n_units: int = 25, labels: str = "ABCDE", coders: str = "xyz"
) -> pd.DataFrame:
    """Long set-valued data: empty sets, missing cells and skipped units included."""
    rng = np.random.default_rng(seed)
    rows = []
    for unit in range(n_units):
        for coder in coders:
            r = rng.random()
            if r < 0.08:
                continue  # the coder skipped the unit: no row
            if r < 0.16:
                value = None  # a missing cell
            elif r < 0.26:
                value = frozenset()
            else:
                value = frozenset(rng.choice(list(labels), int(rng.integers(1, 4))).tolist())
            rows.append((unit, coder, value))
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


def write_brat(root, spans, texts) -> None:
    """A brat project under ``root`` (one folder per coder) holding ``spans`` on ``texts``."""
    (root / "annotation.conf").write_text(
        "[entities]\n" + "\n".join(sorted(spans["label"].unique())) + "\n[relations]\n[events]\n"
        "[attributes]\n"
    )
    for c in sorted(spans["coder"].unique()):
        (root / c).mkdir()
        for d, text in texts.items():
            (root / c / f"{d}.txt").write_text(text)
            mine = spans[(spans["coder"] == c) & (spans["document"] == d)]
            lines = [
                f"T{k + 1}\t{lab} {s} {e}\t{text[s:e]}"
                for k, (s, e, lab) in enumerate(zip(mine["start"], mine["end"], mine["label"]))
            ]
            (root / c / f"{d}.ann").write_text("\n".join(lines) + ("\n" if lines else ""))
