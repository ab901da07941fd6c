"""Conger's, Light's and Hubert's kappa, and Cohen's kappa with Gwet's missing-rating margins.

Published values:
- R irr documentation, examples on ``diagnoses`` (Fleiss 1971 data as irr bundles it; the same
  matrix is in statsmodels' test suite): ``kappam.fleiss`` 0.430, ``kappam.fleiss(exact=TRUE)``
  0.442, ``kappam.light`` 0.459 (rdrr.io/pkg/irr/man/kappam.light.html prints 0.459;
  kappam.fleiss.html).
- irrCAC (Python port of Gwet's R package, github.com/afergadis/irrCAC),
  test/unit/irrCAC/raw/test_conger.py: Conger's kappa on Gwet's (2014) ``raw_4raters`` with
  every weight scheme, and on ``raw_ben_gerry`` (two raters, one missing rating).
- NLTK's ``AnnotationTask.multi_kappa`` (Davies and Fleiss 1982) as an independent
  implementation of Hubert's kappa on complete data.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.datasets import from_matrix
from pandas_agree.errors import (
    DegenerateDataWarning,
    InvalidParameterError,
    NoPairableUnitsError,
)
from pandas_agree.kappa.coefficients import cohen_kappa, fleiss_kappa
from pandas_agree.kappa.multi_coder import MultiKappaResult, conger_kappa, hubert_kappa, light_kappa
from pandas_agree.kappa.weights import weight_matrix

_ = None
RAW4RATERS = {  # Gwet (2014), cac.raw4raters (irrCAC datasets.raw_4raters)
    "Rater1": [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    "Rater2": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, _],
    "Rater3": [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    "Rater4": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
}
BEN_GERRY = {  # irrCAC datasets.raw_ben_gerry
    "Ben": ["a", "a", "b", "b", "d", "c", "c", "c", "e", "d", "d", "a"],
    "Gerry": ["b", "a", "b", "b", "b", "c", "c", "c", "e", _, "d", "d"],
}


def test_diagnoses_published_irr():
    df = pa.datasets.diagnoses()
    assert fleiss_kappa(df).value == pytest.approx(0.430, abs=5e-4)  # kappam.fleiss
    assert conger_kappa(df).value == pytest.approx(0.442, abs=5e-4)  # exact=TRUE
    assert hubert_kappa(df).value == pytest.approx(0.442, abs=5e-4)  # same on complete data
    light = light_kappa(df)
    assert light.value == pytest.approx(0.459, abs=5e-4)  # kappam.light
    assert isinstance(light, MultiKappaResult) and len(light.pairs) == 15


@pytest.mark.parametrize(
    ("weights", "p_a", "p_e", "value"),
    [
        # irrCAC test_conger.py, raw_4raters, rounded to 3 decimals
        (None, 0.818, 0.233, 0.763),
        ("bipolar", 0.968, 0.796, 0.845),
        ("circular", 0.902, 0.499, 0.805),
        ("linear", 0.939, 0.675, 0.814),
        ("ordinal", 0.968, 0.796, 0.844),
        ("quadratic", 0.975, 0.827, 0.858),
        ("radical", 0.897, 0.515, 0.788),
        ("ratio", 0.954, 0.756, 0.812),
    ],
)
def test_conger_published_irrcac(weights, p_a, p_e, value):
    res = conger_kappa(from_matrix(RAW4RATERS), weights)
    tol = 5e-4 + 1e-12
    assert res.observed == pytest.approx(p_a, abs=tol)
    assert res.expected == pytest.approx(p_e, abs=tol)
    assert res.value == pytest.approx(value, abs=tol)
    assert (res.n_units, res.n_coders, res.n_categories) == (11, 4, 5)


def test_two_raters_with_a_missing_rating_published_irrcac():
    # irrCAC test_conger.py, raw_ben_gerry: pa 0.727, pe 0.205, kappa 0.657. With two raters
    # Conger's kappa is Cohen's kappa with Gwet's margins (each rater's from all its units).
    df = from_matrix(BEN_GERRY)
    for res in (conger_kappa(df), cohen_kappa(df, missing="gwet")):
        assert res.observed == pytest.approx(0.727, abs=5e-4)
        assert res.expected == pytest.approx(0.205, abs=5e-4)
        assert res.value == pytest.approx(0.657, abs=5e-4)
    # complete cases (irr's kappa2): unit 10 dropped from the margins too
    complete = cohen_kappa(df)
    table = pd.crosstab(
        pd.Series(BEN_GERRY["Ben"][:9] + BEN_GERRY["Ben"][10:]),
        pd.Series(BEN_GERRY["Gerry"][:9] + BEN_GERRY["Gerry"][10:]),
    ).reindex(index=list("abcde"), columns=list("abcde"), fill_value=0)
    p = table.to_numpy() / 11
    p_e = float(p.sum(axis=1) @ p.sum(axis=0))
    assert complete.value == pytest.approx((np.trace(p) - p_e) / (1 - p_e))
    assert complete.value != pytest.approx(0.657, abs=5e-4)


# ---------------------------------------------------------------------------------------------
# Against the definitions, written out here, on random data with missing ratings


def _random_long(seed: int, n_units: int = 20, n_coders: int = 4, q: int = 4, miss: float = 0.25):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, q + 1, n_units)
    rows = {}
    for c in range(n_coders):
        noisy = np.where(rng.random(n_units) < 0.4, rng.integers(1, q + 1, n_units), truth)
        rows[f"c{c}"] = [None if rng.random() < miss else int(v) for v in noisy]
    return from_matrix(rows), rows


def _brute(rows: dict, w: np.ndarray, q: int) -> dict[str, float]:
    coders = list(rows)
    n_units = len(next(iter(rows.values())))
    # Gwet's p_a: per unit with 2+ ratings, share of agreeing ordered pairs
    per_unit = []
    for i in range(n_units):
        vals = [rows[c][i] - 1 for c in coders if rows[c][i] is not None]
        r = len(vals)
        if r >= 2:
            s = sum(w[vals[a], vals[b]] for a in range(r) for b in range(r) if a != b)
            per_unit.append(s / (r * (r - 1)))
    p_a = float(np.mean(per_unit))
    # each coder's margins over every unit it rated
    margin = {}
    for c in coders:
        vals = [v - 1 for v in rows[c] if v is not None]
        margin[c] = np.bincount(vals, minlength=q) / len(vals)
    pe_terms = [
        sum(w[k, m] * margin[g][k] * margin[h][m] for k in range(q) for m in range(q))
        for g, h in itertools.permutations(coders, 2)
    ]
    conger_pe = float(np.mean(pe_terms))
    # pairwise Cohen terms on the units each pair shares
    po, pe, kap = [], [], []
    for g, h in itertools.combinations(coders, 2):
        both = [i for i in range(n_units) if rows[g][i] is not None and rows[h][i] is not None]
        if not both:
            continue
        a = [rows[g][i] - 1 for i in both]
        b = [rows[h][i] - 1 for i in both]
        o = sum(w[x, y] for x, y in zip(a, b, strict=True)) / len(both)
        ma = np.bincount(a, minlength=q) / len(both)
        mb = np.bincount(b, minlength=q) / len(both)
        e = sum(w[k, m] * ma[k] * mb[m] for k in range(q) for m in range(q))
        po.append(o)
        pe.append(e)
        kap.append((o - e) / (1 - e))
    return {
        "conger": (p_a - conger_pe) / (1 - conger_pe),
        "light": float(np.mean(kap)),
        "hubert": (np.mean(po) - np.mean(pe)) / (1 - np.mean(pe)),
    }


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_multi_rater_kappas_vs_definition(seed, weights):
    df, rows = _random_long(seed)
    cats = [1, 2, 3, 4]
    w = np.eye(4) if weights is None else weight_matrix(weights, cats).to_numpy()
    brute = _brute(rows, w, 4)
    assert conger_kappa(df, weights, categories=cats).value == pytest.approx(brute["conger"])
    assert light_kappa(df, weights, categories=cats).value == pytest.approx(brute["light"])
    assert hubert_kappa(df, weights, categories=cats).value == pytest.approx(brute["hubert"])


@pytest.mark.parametrize("seed", range(5))
def test_complete_data_conger_equals_hubert_and_nltk_multi_kappa(seed):
    nltk_metrics = pytest.importorskip("nltk.metrics.agreement")
    df, _rows = _random_long(seed, n_units=15, n_coders=3, miss=0.0)
    triples = [(c, str(u), str(v)) for u, c, v in df[["unit", "coder", "value"]].itertuples(False)]
    expected = nltk_metrics.AnnotationTask(data=triples).multi_kappa()
    assert hubert_kappa(df).value == pytest.approx(expected)
    assert conger_kappa(df).value == pytest.approx(expected)


def test_two_coders_give_cohen_kappa():
    df, _ = _random_long(3, n_coders=2, miss=0.0)
    ck = cohen_kappa(df).value
    for func in (conger_kappa, light_kappa, hubert_kappa):
        assert func(df).value == pytest.approx(ck)


def test_invariant_to_coder_labels_and_row_order():
    df, _ = _random_long(11)
    shuffled = df.sample(frac=1, random_state=0).assign(
        coder=lambda d: d["coder"].map({"c0": "z", "c1": "y", "c2": "x", "c3": "w"})
    )
    for func in (conger_kappa, light_kappa, hubert_kappa):
        assert func(shuffled).value == pytest.approx(func(df).value)


def test_coders_subset_and_pairs_frame():
    df = pa.datasets.diagnoses()
    sub = df[df["coder"].isin(["rater1", "rater3", "rater5"])]
    res = light_kappa(df, coders=["rater5", "rater1", "rater3"])
    assert res.value == pytest.approx(light_kappa(sub).value)
    assert res.n_coders == 3 and len(res.pairs) == 3
    pairs = res.pairs
    one = pairs[(pairs["coder_1"] == "rater1") & (pairs["coder_2"] == "rater3")]
    assert one["kappa"].item() == pytest.approx(
        cohen_kappa(df, coders=["rater1", "rater3"]).value
    )


def test_pairs_without_common_units_are_left_out():
    df = from_matrix({"A": [1, 2, 1, _], "B": [1, 2, _, 2], "C": [_, _, 1, 1]})
    res = light_kappa(df)
    assert res.pairs["n_units"].tolist() == [2, 1, 1]
    # A-B: kappa 1; A-C: one unit, p_e = 1, kappa undefined (left out); B-C: p_o = p_e = 0
    assert np.isnan(res.pairs["kappa"].iloc[1])
    assert res.value == pytest.approx((1.0 + 0.0) / 2)
    apart = from_matrix({"A": [1, 2, _, _], "B": [1, 2, 1, 2], "C": [_, _, 1, 2]})
    res = light_kappa(apart)
    assert res.pairs["n_units"].tolist() == [2, 0, 2]  # A-C share no unit
    assert res.value == pytest.approx(1.0)
    assert hubert_kappa(apart).value == pytest.approx(1.0)


def test_degenerate_and_bad_input():
    same = from_matrix({"A": [1, 1, 1], "B": [1, 1, 1], "C": [1, 1, 1]})
    for func in (conger_kappa, hubert_kappa, light_kappa):
        with pytest.warns(DegenerateDataWarning, match="is NaN"):
            res = func(same)
        assert np.isnan(res.value) and res.reason
    apart = from_matrix({"A": [1, 2, _, _], "B": [_, _, 1, 2]})
    for func in (conger_kappa, hubert_kappa, light_kappa):
        with pytest.raises(NoPairableUnitsError):
            func(apart)
    one = from_matrix({"A": [1, 2, 3]})
    with pytest.raises(InvalidParameterError, match=re.escape("needs ratings from two or more")):
        conger_kappa(one)
    with pytest.raises(InvalidParameterError, match=re.escape("coder(s) not in the data: ['Q']")):
        hubert_kappa(pa.datasets.diagnoses(), coders=["rater1", "Q"])
    with pytest.raises(InvalidParameterError, match="needs the order of the categories"):
        conger_kappa(pa.datasets.diagnoses(), "quadratic")
    with pytest.raises(InvalidParameterError, match="`missing` must be one of"):
        cohen_kappa(from_matrix(BEN_GERRY), missing="pairwise")


def test_frame_not_modified_and_result_owns_no_reference():
    df = pa.datasets.diagnoses()
    before = df.copy()
    res = conger_kappa(df)
    light_kappa(df)
    hubert_kappa(df, "identity")
    pd.testing.assert_frame_equal(df, before)
    assert all(v is not df for v in vars(res).values())
    assert "MultiKappaResult(conger_kappa=0.4418" in repr(res)


def test_diagnoses_data_as_irr_bundles_it():
    # R irr documentation, ``table(diagnoses[,1])`` (rdrr.io/cran/irr/man/diagnoses.html):
    # 13 Depression, 10 Personality Disorder, 2 Schizophrenia, 1 Neurosis, 4 Other.
    df = pa.datasets.diagnoses()
    first = df[df["coder"] == "rater1"]["value"].value_counts().sort_index()
    assert first.tolist() == [13, 10, 2, 1, 4]
    assert df.groupby("unit").size().eq(6).all() and df["unit"].nunique() == 30
    assert pa.datasets.diagnoses() is not pa.datasets.diagnoses()  # a new frame each call


@pytest.mark.parametrize("seed", range(4))
def test_perfect_agreement_gives_one_and_relabelling_changes_nothing(seed):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 4, 12)
    truth[:3] = [1, 2, 3]
    perfect = from_matrix({c: [int(t) for t in truth] for c in "ABCD"})
    for func in (conger_kappa, light_kappa, hubert_kappa):
        assert func(perfect).value == pytest.approx(1.0)
    df, _ = _random_long(seed)
    relabelled = df.assign(value=df["value"].map({1: "w", 2: "x", 3: "y", 4: "z"}))
    for func in (conger_kappa, light_kappa, hubert_kappa):
        assert func(relabelled).value == pytest.approx(func(df).value)
