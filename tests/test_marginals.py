"""Bangdiwala's B, the maximum kappa and the maximum percent agreement given the margins.

Published values: the test suite of pyagree (Casagrande, github: pyagree, tests/test_pyagree.py,
class TestBangdiwalaB) and its documentation example (B([[10, 1], [5, 10]]) = 0.6060606).
The maximum agreement is checked against its definition (Cohen 1960, p. 42: the largest
observed agreement of any table with the given margins) by enumerating every such table.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.datasets import from_matrix
from pandas_agree.errors import DegenerateDataWarning, InvalidParameterError, NoPairableUnitsError
from pandas_agree.kappa.coefficients import cohen_kappa, table_to_long
from pandas_agree.kappa.marginals import bangdiwala_b, kappa_max, max_percent_agreement


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        # pyagree tests/test_pyagree.py, TestBangdiwalaB (7 decimal places there)
        ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 0.1467764060356653),
        ([[3600, 2595], [65, 3740]], 0.575688404132935),
        ([[9901, 64], [2, 33]], 0.9933537203915539),
        ([[9900, 86], [1, 13]], 0.9912756264181609),
        ([[21, 5], [3, 21]], 0.7067307692307693),
        ([[40, 5], [3, 2]], 0.8142131979695432),
        ([[40, 2], [3, 5]], 0.8727175080558539),
        (
            [
                [51, 4, 0, 1, 1],
                [3, 78, 1, 0, 0],
                [0, 0, 13, 4, 0],
                [0, 1, 1, 16, 7],
                [0, 0, 0, 0, 5],
            ],
            0.851430701836145,
        ),
        ([[136, 3], [1, 46]], 0.965614166588588),
        # pyagree documentation, "Working Examples"
        ([[10, 1], [5, 10]], 0.6060606060606061),
    ],
)
def test_bangdiwala_published(table, expected):
    res = bangdiwala_b(table_to_long(table))
    assert res.value == pytest.approx(expected, abs=1e-9)
    assert res.value == pytest.approx(res.observed / res.expected)
    assert res.n_units == int(np.sum(table))


def _tables_with_margins(rows: list[int], cols: list[int]):
    """Every non-negative integer table with these row and column sums (small cases)."""
    q = len(rows)

    def fill(i, remaining_cols):
        if i == q - 1:
            yield [list(remaining_cols)] if sum(remaining_cols) == rows[i] else []
            return
        for row in itertools.product(*(range(c + 1) for c in remaining_cols)):
            if sum(row) != rows[i]:
                continue
            rest = [c - x for c, x in zip(remaining_cols, row, strict=True)]
            for tail in fill(i + 1, rest):
                if tail:
                    yield [list(row), *tail]

    yield from (t for t in fill(0, list(cols)) if t)


@pytest.mark.parametrize("seed", range(8))
def test_max_agreement_is_the_best_table_with_these_margins(seed):
    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 4))
    table = rng.integers(0, 4, (q, q))
    table[0, 0] += 1
    rows, cols = table.sum(axis=1).tolist(), table.sum(axis=0).tolist()
    n = table.sum()
    best = max(np.trace(np.array(t)) for t in _tables_with_margins(rows, cols))
    df = table_to_long(table)
    res = max_percent_agreement(df)
    assert res.value == pytest.approx(best / n)
    assert res.observed == pytest.approx(np.trace(table) / n)
    p_e = float(np.dot(rows, cols)) / n**2
    km = kappa_max(df)
    assert km.expected == pytest.approx(p_e)
    assert km.value == pytest.approx((best / n - p_e) / (1 - p_e))
    assert cohen_kappa(df).value <= km.value + 1e-12


def test_wikipedia_cohen_example():
    # Wikipedia "Cohen's kappa": [[20, 5], [10, 15]], kappa 0.4, p_e 0.5; margins (25, 25)
    # and (30, 20) allow 25 + 20 agreements of 50.
    df = table_to_long([[20, 5], [10, 15]])
    assert max_percent_agreement(df).value == pytest.approx(0.9)
    assert kappa_max(df).value == pytest.approx(0.8)
    assert cohen_kappa(df).value == pytest.approx(0.4)


def test_equal_margins_give_kappa_max_one():
    df = table_to_long([[5, 2, 1], [1, 6, 2], [2, 1, 4]])  # row sums == column sums
    assert kappa_max(df).value == pytest.approx(1.0)
    assert max_percent_agreement(df).value == pytest.approx(1.0)


def test_table_and_coders_and_missing():
    df = pa.datasets.krippendorff_2011()
    res = bangdiwala_b(df, coders=["A", "C"])
    both = df.pivot(index="unit", columns="coder", values="value")[["A", "C"]].dropna()
    table = pd.crosstab(both["A"], both["C"]).reindex(
        index=[1, 2, 3, 4, 5], columns=[1, 2, 3, 4, 5], fill_value=0
    )
    t = table.to_numpy()
    assert res.value == pytest.approx((np.diag(t) ** 2).sum() / (t.sum(1) * t.sum(0)).sum())
    assert res.n_units == len(both) and res.coders == ("A", "C")
    np.testing.assert_array_equal(res.table.to_numpy(), t)


def test_degenerate_and_bad_input():
    same = table_to_long([[4, 0], [0, 0]])
    with pytest.warns(DegenerateDataWarning, match="kappa_max is NaN"):
        res = kappa_max(same)
    assert np.isnan(res.value) and res.reason
    assert bangdiwala_b(same).value == 1.0
    assert bangdiwala_b(table_to_long([[0, 3], [2, 0]])).value == 0.0
    with pytest.warns(DegenerateDataWarning, match="never used the same category"):
        disjoint = bangdiwala_b(table_to_long([[0, 3], [0, 0]]))
    assert np.isnan(disjoint.value) and disjoint.reason
    three = from_matrix({"A": [1, 2], "B": [1, 2], "C": [2, 2]})
    for func in (bangdiwala_b, kappa_max, max_percent_agreement):
        with pytest.raises(InvalidParameterError, match=re.escape("compares two coders")):
            func(three)
    apart = from_matrix({"A": [1, 2, None, None], "B": [None, None, 1, 2]})
    with pytest.raises(NoPairableUnitsError, match="rated no unit in common"):
        bangdiwala_b(apart)


def test_frame_not_modified():
    df = pa.datasets.krippendorff_2011()
    before = df.copy()
    for func in (bangdiwala_b, kappa_max, max_percent_agreement):
        func(df, coders=["A", "B"])
    pd.testing.assert_frame_equal(df, before)
