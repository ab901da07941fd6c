"""category_agreement: specific agreement, category kappa and alpha per category.

Oracles:
- statsmodels' ``fleiss_kappa`` (an independent implementation of Fleiss 1971) on the table
  binarised to category k versus the rest: equal to Fleiss' category kappa kappa_j (Fleiss 1971,
  eq. 20-21), also written out here from the paper's formula;
- the ``krippendorff`` package (independent implementation of Krippendorff's alpha) on the
  reliability matrix binarised to k versus the rest;
- Cicchetti and Feinstein (1990): PA = 2a/(2a+b+c), NA = 2d/(2d+b+c) for two raters;
- brute-force counts of ordered pairs of ratings, written here.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.datasets import from_matrix
from pandas_agree.errors import InvalidParameterError, NoPairableUnitsError
from pandas_agree.kappa.categories import category_agreement
from pandas_agree.kappa.coefficients import fleiss_kappa, table_to_long

inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")


def test_diagnoses_category_kappa_vs_statsmodels_and_fleiss_formula():
    df = pa.datasets.diagnoses()
    res = category_agreement(df)
    counts = pd.crosstab(df["unit"], df["value"]).to_numpy()
    n_units, m = counts.shape[0], 6
    for j, label in enumerate(res.index):
        binary = np.column_stack([counts[:, j], m - counts[:, j]])
        assert res.loc[label, "kappa"] == pytest.approx(inter_rater.fleiss_kappa(binary))
        p = counts[:, j].sum() / (n_units * m)  # Fleiss (1971), eq. for kappa_j
        kappa_j = 1 - (counts[:, j] * (m - counts[:, j])).sum() / (
            n_units * m * (m - 1) * p * (1 - p)
        )
        assert res.loc[label, "kappa"] == pytest.approx(kappa_j)
    assert list(res.index) == sorted(df["value"].unique())
    assert res["n_ratings"].sum() == 180


def _random(seed: int, n_units=25, n_coders=4, q=4, miss=0.2):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, n_units)
    rows = {}
    for c in range(n_coders):
        noisy = np.where(rng.random(n_units) < 0.4, rng.integers(0, q, n_units), truth)
        rows[f"c{c}"] = [None if rng.random() < miss else "abcd"[v] for v in noisy]
    return from_matrix(rows), rows


def _brute(rows: dict, k: str) -> dict[str, float]:
    coders = list(rows)
    n_units = len(next(iter(rows.values())))
    units = [[rows[c][i] for c in coders if rows[c][i] is not None] for i in range(n_units)]
    pairable = [u for u in units if len(u) >= 2]
    rated = [u for u in units if u]
    # ordered pairs of ratings within units
    pairs = [(a, b) for u in pairable for a, b in itertools.permutations(u, 2)]
    specific = sum(a == k and b == k for a, b in pairs) / sum(a == k for a, _ in pairs)
    # Fleiss / Gwet on the binarised data
    per_unit = []
    for u in pairable:
        r = len(u)
        same = sum((a == k) == (b == k) for a, b in itertools.permutations(u, 2))
        per_unit.append(same / (r * (r - 1)))
    p_a = np.mean(per_unit)
    pi = np.mean([sum(v == k for v in u) / len(u) for u in rated])
    p_e = pi**2 + (1 - pi) ** 2
    # Krippendorff's alpha on the binarised values (coincidences, pairs weighted 1/(m_u - 1))
    o = np.zeros((2, 2))
    for u in pairable:
        for a, b in itertools.permutations(u, 2):
            o[int(a == k), int(b == k)] += 1 / (len(u) - 1)
    n_c = o.sum(axis=1)
    n = n_c.sum()
    d_o = (o[0, 1] + o[1, 0]) / n
    d_e = 2 * n_c[0] * n_c[1] / (n * (n - 1))
    return {
        "specific": specific,
        "kappa": (p_a - p_e) / (1 - p_e),
        "alpha": 1 - d_o / d_e,
        "share": pi,
    }


@pytest.mark.parametrize("seed", range(8))
def test_random_data_with_missing_vs_definitions(seed):
    df, rows = _random(seed)
    res = category_agreement(df)
    for k in res.index:
        brute = _brute(rows, k)
        assert res.loc[k, "specific_agreement"] == pytest.approx(brute["specific"])
        assert res.loc[k, "kappa"] == pytest.approx(brute["kappa"])
        assert res.loc[k, "alpha"] == pytest.approx(brute["alpha"])
        assert res.loc[k, "share"] == pytest.approx(brute["share"])
        # Fleiss' kappa (Gwet's unequal-ratings form) of the data recoded to k / not k
        binary = df.assign(value=np.where(df["value"] == k, "k", "other"))
        assert res.loc[k, "kappa"] == pytest.approx(fleiss_kappa(binary, unequal="gwet").value)


@pytest.mark.parametrize("seed", range(4))
def test_alpha_for_a_category_vs_krippendorff_package(seed):
    krippendorff = pytest.importorskip("krippendorff")
    df, rows = _random(seed)
    res = category_agreement(df)
    for k in res.index:
        matrix = [[np.nan if v is None else float(v == k) for v in rows[c]] for c in rows]
        expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal")
        assert res.loc[k, "alpha"] == pytest.approx(expected)
        binary = df.assign(value=(df["value"] == k).astype(int))
        assert res.loc[k, "alpha"] == pytest.approx(pa.alpha(binary, "nominal").alpha)


@pytest.mark.parametrize("table", [[[40, 9], [6, 45]], [[10, 20], [30, 40]], [[3, 0], [15, 83]]])
def test_two_raters_positive_and_negative_agreement(table):
    # Cicchetti and Feinstein (1990): PA = 2a / (2a + b + c), NA = 2d / (2d + b + c)
    (a, b), (c, d) = table
    res = category_agreement(table_to_long(table, categories=["pos", "neg"]))
    assert res.loc["pos", "specific_agreement"] == pytest.approx(2 * a / (2 * a + b + c))
    assert res.loc["neg", "specific_agreement"] == pytest.approx(2 * d / (2 * d + b + c))
    # with two categories both rows carry the same kappa: Scott's pi of the table
    assert res.loc["pos", "kappa"] == pytest.approx(res.loc["neg", "kappa"])
    assert res.loc["pos", "kappa"] == pytest.approx(pa.scott_pi_table(table).value)


def test_unused_and_universal_categories_have_reasons():
    df = from_matrix({"A": ["x", "x", "x"], "B": ["x", "x", "x"]})
    res = category_agreement(df, categories=["x", "y"])
    assert res.loc["y", "reason"] == "no rating in this category"
    assert res.loc["x", "reason"] == "every rating is in this category"
    assert res[["kappa", "alpha"]].isna().all().all()
    assert res.loc["x", "specific_agreement"] == 1.0
    assert np.isnan(res.loc["y", "specific_agreement"])
    assert res.loc["y", "n_ratings"] == 0


def test_coders_subset_frame_unchanged_and_errors():
    df = pa.datasets.diagnoses()
    before = df.copy()
    sub = category_agreement(df, coders=["rater1", "rater2", "rater3"])
    expected = category_agreement(df[df["coder"].isin(["rater1", "rater2", "rater3"])])
    pd.testing.assert_frame_equal(sub, expected)
    pd.testing.assert_frame_equal(df, before)
    with pytest.raises(InvalidParameterError, match=r"coder\(s\) not in the data: \['x'\]"):
        category_agreement(df, coders=["x"])
    with pytest.raises(NoPairableUnitsError, match="no unit has two or more ratings"):
        category_agreement(from_matrix({"A": ["a", None], "B": [None, "b"]}))
    with pytest.raises(InvalidParameterError, match="holds values not in `categories`"):
        category_agreement(df, categories=["1. Depression"])
