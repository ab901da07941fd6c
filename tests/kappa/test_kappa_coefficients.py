"""Tests for pandas_agree.kappa.coefficients: kappas, pi, S, AC1/AC2, percent agreement.

Published values come with their source in the ``pytest.param`` id or a comment; the peer
implementations (statsmodels, NLTK, scikit-learn) are optional test-only oracles.
"""

from __future__ import annotations

import itertools
import re
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree.datasets import from_matrix
from pandas_agree.errors import (
    ColumnNotFoundError,
    DegenerateDataWarning,
    DuplicateRatingError,
    InvalidParameterError,
    NoPairableUnitsError,
    ValueTypeError,
)
from pandas_agree.kappa.coefficients import (
    CoefficientResult,
    bennett_s,
    cohen_kappa,
    cohen_kappa_table,
    counts_to_long,
    fleiss_kappa,
    gwet_ac1,
    percent_agreement,
    scott_pi,
    scott_pi_table,
    table_to_long,
)

_ = None

# ---------------------------------------------------------------------------------------------
# Published data

# Wikipedia, "Fleiss' kappa", worked example: 10 subjects x 5 categories, 14 raters each.
WIKI_FLEISS = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]

# Fleiss (1971), 30 patients x 6 psychiatrists, 5 diagnoses, as distributed with the R
# package irr (`diagnoses`; also in statsmodels' test suite). irr::kappam.fleiss gives 0.430.
FLEISS_1971 = np.array(
    [
        [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
        [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
        [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
        [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
        [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
        [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
        [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
        [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
    ]
)  # fmt: skip

# Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed.: raw data sets shipped with his R
# package irrCAC (values below as printed by irrCAC; the Python port afergadis/irrCAC tests
# the same numbers in test/unit/irrCAC/raw/test_{gwet,fleiss,bp}.py).
GWET_5OBSERVERS = {  # cac.raw5obser (Gwet 2014, p. 125)
    "O1": [1, 1, 2, _, 0, 0, 1, 1, 2, 2, _, 0, 1, 3, 1],
    "O2": [1, 1, 3, 0, 0, 0, 0, _, 2, 1, 1, 0, 2, 3, 1],
    "O3": [2, 0, 3, 0, 0, 0, 2, 2, 2, 1, 0, 0, 2, 2, 1],
    "O4": [_, 1, 3, _, _, _, _, 0, _, 1, 0, 0, 2, 2, _],
    "O5": [2, _, _, 0, 0, 0, 1, _, 2, _, _, _, _, 3, 1],
}
GWET_BEN_GERRY = {  # cac.ben.gerry
    "Ben": ["a", "a", "b", "b", "d", "c", "c", "c", "e", "d", "d", "a"],
    "Gerry": ["b", "a", "b", "b", "b", "c", "c", "c", "e", _, "d", "d"],
}
GWET_GENDER = {  # cac.raw.gender
    "R1": "a a a a a b b b c a a a a a b".split(),
    "R2": "a a a a b a b c c a a a a b a".split(),
    "R3": "a b b c a a b b c a b b c a a".split(),
    "R4": "c c c c a a b b c c c c c a a".split(),
}
GWET_G1G2 = {  # cac.raw.g1g2
    "R1": ["a", "b", "c", "c", "b", "a", "d", "a", "b", _, _, _, "b", "b"],
    "R2": ["a", "b", "c", "c", "b", "b", "d", "a", "b", "e", _, _, "b", "a"],
    "R3": [_, "c", "c", "c", "b", "c", "d", "b", "b", "e", "a", "c", "c", "c"],
    "R4": ["a", "b", "c", "c", "b", "d", "d", "a", "b", "e", "a", _, "b", "b"],
}
# irrCAC's "bipolar" weights for categories 1..5 (printed in irrCAC's raw.py docstring).
BIPOLAR_5 = [
    [1, 6 / 7, 2 / 3, 2 / 5, 0],
    [6 / 7, 1, 14 / 15, 3 / 4, 2 / 5],
    [2 / 3, 14 / 15, 1, 14 / 15, 2 / 3],
    [2 / 5, 3 / 4, 14 / 15, 1, 6 / 7],
    [0, 2 / 5, 2 / 3, 6 / 7, 1],
]
# Gwet (2014): cont3x3abstractors, 100 pregnant women classified by two abstractors.
ABSTRACTORS = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]


def long_from_rows(mat: np.ndarray) -> pd.DataFrame:
    """Long data from a units x coders array (coders 0..r-1)."""
    units, coders = np.indices(mat.shape)
    return pd.DataFrame({"unit": units.ravel(), "coder": coders.ravel(), "value": mat.ravel()})


# ---------------------------------------------------------------------------------------------
# Two-coder tables: published kappas


@pytest.mark.parametrize(
    ("table", "kappa", "p_o", "p_e", "tol"),
    [
        pytest.param([[20, 5], [10, 15]], 0.4, 0.70, 0.50, 1e-12, id="wikipedia-cohens-kappa"),
        # Passonneau (1997), seed paper 004, section 1, Table 1: p_AE = 52% (.5154), kappa .50
        pytest.param([[47, 14], [10, 29]], 0.50, 0.76, 0.5154, 5e-3, id="passonneau1997-table1"),
        # Passonneau (1997), section 2.1-2.2, Table 2 (CA1 x CA3): eqs (21)-(23), kappa .52
        pytest.param([[6, 1], [1, 2]], 0.52, 0.80, 0.58, 5e-3, id="passonneau1997-table2"),
        # Passonneau (1997), Table 3 (R1 x R2, 242 links): kappa .65
        pytest.param([[166, 19], [13, 44]], 0.65, 210 / 242, None, 5e-3, id="passonneau1997-t3"),
        # SAS PROC FREQ printout reproduced in statsmodels' test suite (table10): 0.4842
        pytest.param([[0, 4, 1], [0, 8, 0], [0, 1, 5]], 0.4842, None, None, 5e-5, id="sas"),
        # Gwet (2014) cont3x3abstractors; irrCAC kappa2.table: 0.7964094
        pytest.param(ABSTRACTORS, 0.7964094, 0.89, None, 5e-8, id="gwet2014-abstractors"),
        # Feinstein & Cicchetti (1990) as tabulated by Gerstman, Epidemiology Kept Simple,
        # Table 10.6: A p_o .85 p_e .50 kappa .70; B p_o .85 p_e .78 kappa .32
        pytest.param([[40, 9], [6, 45]], 0.70, 0.85, 0.50, 5e-3, id="feinstein-cicchetti-A"),
        pytest.param([[80, 10], [5, 5]], 0.32, 0.85, 0.78, 5e-3, id="feinstein-cicchetti-B"),
        # The brief's 2x2 table [[118, 5], [2, 0]] "p_o = .944, kappa = -0.024": by hand
        # p_e = (123 * 120 + 2 * 5) / 125^2 = 14770/15625 and kappa = -0.0234 (not -0.024).
        pytest.param(
            [[118, 5], [2, 0]],
            (0.944 - 14770 / 15625) / (1 - 14770 / 15625),
            0.944,
            14770 / 15625,
            1e-12,
            id="high-agreement-low-kappa",
        ),
    ],
)
def test_cohen_kappa_published_tables(table, kappa, p_o, p_e, tol):
    res = cohen_kappa_table(table)
    assert res.value == pytest.approx(kappa, abs=tol)
    if p_o is not None:
        assert res.observed == pytest.approx(p_o, abs=1e-12)
    if p_e is not None:
        assert res.expected == pytest.approx(p_e, abs=max(tol, 1e-12))
    # the same number from long data
    assert cohen_kappa(table_to_long(table)).value == pytest.approx(res.value, abs=1e-12)


def test_brief_table_kappa_is_minus_0_023_exactly():
    # Exact arithmetic on [[118, 5], [2, 0]]: kappa = -20/855 = -0.02339..., which rounds to
    # -0.023; the brief's "-0.024" does not reproduce.
    p_o = Fraction(118, 125)
    p_e = Fraction(123 * 120 + 2 * 5, 125**2)
    exact = (p_o - p_e) / (1 - p_e)
    assert exact == Fraction(-4, 171)
    assert float(cohen_kappa_table([[118, 5], [2, 0]])) == pytest.approx(float(exact), abs=1e-15)
    assert round(float(exact), 3) == -0.023


def test_weighted_kappa_sas_example():
    # SAS PROC FREQ (statsmodels' test suite, table10): weighted kappa with Cicchetti-Allison
    # (linear) weights on scores 0, 1, 2 is 0.4701.
    res = cohen_kappa_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]], weights="linear")
    assert res.value == pytest.approx(0.4701, abs=5e-5)
    assert res.weights == "linear"


@pytest.mark.parametrize(
    ("func", "expected"),
    [
        # Gwet (2014) cont3x3abstractors, values printed by irrCAC's *.table functions
        pytest.param(scott_pi, 0.7962397, id="irrCAC-scott2.table"),
        pytest.param(gwet_ac1, 0.8493305, id="irrCAC-gwet.ac1.table"),
        pytest.param(bennett_s, 0.835, id="irrCAC-bp2.table"),
        pytest.param(percent_agreement, 0.89, id="irrCAC-pa2.table"),
        pytest.param(lambda d: pa.alpha(d), 0.7972585, id="irrCAC-krippen2.table"),
    ],
)
def test_abstractors_table_other_coefficients(func, expected):
    assert float(func(table_to_long(ABSTRACTORS))) == pytest.approx(expected, abs=5e-8)


def test_scott_pi_table_matches_long_form():
    assert scott_pi_table(ABSTRACTORS).value == pytest.approx(0.7962397, abs=5e-8)


# ---------------------------------------------------------------------------------------------
# Multi-rater published values


def test_fleiss_wikipedia_example():
    # Wikipedia, "Fleiss' kappa": P-bar = 0.378, P-bar_e = 0.213, kappa = 0.210 (0.209931).
    res = fleiss_kappa(counts_to_long(WIKI_FLEISS, categories=[1, 2, 3, 4, 5]))
    assert res.value == pytest.approx(0.209931, abs=5e-7)
    assert res.observed == pytest.approx(0.378, abs=5e-4)
    assert res.expected == pytest.approx(0.213, abs=5e-4)
    assert (res.n_units, res.n_coders) == (10, 14)


def test_fleiss_1971_diagnoses():
    # Fleiss (1971), 30 patients x 6 raters; R irr::kappam.fleiss(diagnoses): 0.43.
    assert fleiss_kappa(long_from_rows(FLEISS_1971)).value == pytest.approx(0.430, abs=5e-4)


@pytest.mark.parametrize(
    ("data", "func", "p_a", "p_e", "value"),
    [
        # Gwet (2014, p. 120) = Krippendorff (2011) section C; irrCAC raw-data functions
        pytest.param("k2011", gwet_ac1, 0.81818, 0.19032, 0.77544, id="4raters-ac1"),
        pytest.param("k2011", bennett_s, 0.818, 0.200, 0.773, id="4raters-bp"),
        pytest.param("k2011", percent_agreement, 0.81818, 0.0, 0.81818, id="4raters-pa"),
        pytest.param(GWET_5OBSERVERS, gwet_ac1, 0.616, 0.236, 0.497, id="5observers-ac1"),
        pytest.param(GWET_5OBSERVERS, bennett_s, 0.616, 0.250, 0.487, id="5observers-bp"),
        pytest.param(GWET_BEN_GERRY, gwet_ac1, 0.727, 0.194, 0.661, id="ben-gerry-ac1"),
        pytest.param(GWET_BEN_GERRY, bennett_s, 0.727, 0.200, 0.659, id="ben-gerry-bp"),
        pytest.param(GWET_GENDER, gwet_ac1, 0.456, 0.312, 0.208, id="gender-ac1"),
        pytest.param(GWET_GENDER, bennett_s, 0.456, 0.333, 0.183, id="gender-bp"),
        pytest.param(GWET_G1G2, gwet_ac1, 0.744, 0.187, 0.685, id="g1g2-ac1"),
        pytest.param(GWET_G1G2, bennett_s, 0.744, 0.200, 0.679, id="g1g2-bp"),
    ],
)
def test_gwet_irrcac_raw_examples(data, func, p_a, p_e, value):
    df = pa.datasets.krippendorff_2011() if data == "k2011" else from_matrix(data)
    res = func(df)
    # irrCAC rounds to 3 digits (round(0.3125, 3) == 0.312): allow half a unit and a hair
    tol = 5e-6 if data == "k2011" and func is not bennett_s else 5.01e-4
    assert res.observed == pytest.approx(p_a, abs=tol)
    assert res.expected == pytest.approx(p_e, abs=tol)
    assert res.value == pytest.approx(value, abs=tol)


@pytest.mark.parametrize(
    ("data", "p_a", "p_e", "value"),
    [
        # Gwet's generalised Fleiss kappa for unequal numbers of ratings; irrCAC
        # fleiss.kappa.raw: 4raters pa .81818 pe .23872 kappa .76117
        pytest.param("k2011", 0.81818, 0.23872, 0.76117, id="4raters"),
        pytest.param(GWET_5OBSERVERS, 0.616, 0.291, 0.458, id="5observers"),
        pytest.param(GWET_BEN_GERRY, 0.727, 0.222, 0.649, id="ben-gerry"),
        pytest.param(GWET_G1G2, 0.744, 0.252, 0.657, id="g1g2"),
        pytest.param(GWET_GENDER, 0.456, 0.375, 0.129, id="gender-complete"),
    ],
)
def test_fleiss_gwet_generalisation(data, p_a, p_e, value):
    df = pa.datasets.krippendorff_2011() if data == "k2011" else from_matrix(data)
    res = fleiss_kappa(df, unequal="gwet")
    tol = 5e-6 if data == "k2011" else 5e-4
    assert (res.observed, res.expected, res.value) == pytest.approx((p_a, p_e, value), abs=tol)


@pytest.mark.parametrize(
    ("weights", "p_a", "p_e", "value"),
    [
        # irrCAC gwet.ac1.raw(cac.raw4raters, weights=...): AC2
        pytest.param("linear", 0.939, 0.571, 0.859, id="linear"),
        pytest.param("quadratic", 0.975, 0.714, 0.914, id="quadratic"),
        pytest.param(BIPOLAR_5, 0.96836, 0.68244, 0.90037, id="bipolar-matrix"),
    ],
)
def test_gwet_ac2_published(weights, p_a, p_e, value):
    res = gwet_ac1(pa.datasets.krippendorff_2011(), weights)
    tol = 5e-6 if isinstance(weights, list) else 5e-4
    assert (res.observed, res.expected, res.value) == pytest.approx((p_a, p_e, value), abs=tol)
    assert res.method == "gwet_ac2"


# ---------------------------------------------------------------------------------------------
# Relations between coefficients


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 40).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
        )
    )
)
@pytest.mark.slow
def test_scott_pi_vs_alpha_exact_relation(pair):
    # Two coders, nominal, no missing data, N units (n = 2N values). Derivation:
    #   D_o = 1 - p_o (each disagreeing unit adds 2 / (m - 1) = 2 to n = 2N),
    #   D_e = n / (n - 1) * (1 - sum_k p_k^2) = n / (n - 1) * (1 - p_e(pi)),
    # so alpha = 1 - D_o / D_e = 1 - (2N - 1) / (2N) * (1 - pi).
    a, b = pair
    df = from_matrix({"A": a, "B": b})
    n_units = len(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        pi = scott_pi(df).value
        alpha = pa.alpha(df).alpha
    if np.isnan(pi):
        assert np.isnan(alpha)
        return
    assert alpha == pytest.approx(1 - (2 * n_units - 1) / (2 * n_units) * (1 - pi), abs=1e-12)
    # and they differ unless pi = 1
    if pi < 1:
        assert alpha > pi


def test_scott_pi_is_not_alpha_passonneau_table2():
    # Passonneau (1997) eq. (28) reports "kappa = alpha = .52" for Table 2, computing alpha
    # from expected disagreement with replacement. Krippendorff's alpha on the same 10 units
    # (n = 20 values) is 1 - (19/20)(1 - pi) = 0.5476.
    df = table_to_long([[6, 1], [1, 2]])
    pi = scott_pi(df).value
    assert pi == pytest.approx(0.22 / 0.42, abs=1e-12)
    assert pa.alpha(df).alpha == pytest.approx(1 - 19 / 20 * (1 - 0.22 / 0.42), abs=1e-12)
    assert pa.alpha(df).alpha == pytest.approx(0.5476, abs=5e-5)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 25).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(0, 2), min_size=n, max_size=n), min_size=2, max_size=2
        )
    )
)
def test_two_coders_fleiss_equals_scott_pi(rows):
    # Fleiss' kappa with two raters per unit is Scott's pi (and Siegel & Castellan's K).
    df = from_matrix({"A": rows[0], "B": rows[1]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        f, s = fleiss_kappa(df).value, scott_pi(df).value
    assert (np.isnan(f) and np.isnan(s)) or f == pytest.approx(s, abs=1e-12)


def test_two_coders_bennett_s_closed_form():
    # Bennett et al. (1954): S = (q p_o - 1) / (q - 1).
    df = table_to_long(ABSTRACTORS)
    assert bennett_s(df).value == pytest.approx((3 * 0.89 - 1) / 2, abs=1e-12)


def test_percent_agreement_definition_unequal_units():
    # Hand computation: unit 1 has values (a, a, b): 2 agreeing ordered pairs of 6 -> 1/3;
    # unit 2 (a, a): 1; unit 3 (b, c): 0; unit 4 has one value and does not count.
    df = pd.DataFrame(
        {
            "unit": [1, 1, 1, 2, 2, 3, 3, 4],
            "coder": ["x", "y", "z", "x", "y", "x", "z", "y"],
            "value": ["a", "a", "b", "a", "a", "b", "c", "a"],
        }
    )
    res = percent_agreement(df)
    assert res.value == pytest.approx((1 / 3 + 1 + 0) / 3, abs=1e-12)
    assert (res.n_units, res.expected) == (3, 0.0)


def test_weights_use_positions_and_unused_categories_matter():
    # Positions, not values: categories [1, 2, 10] get linear weights 1, 0.5, 0.
    df = table_to_long([[5, 3, 0], [1, 4, 0], [1, 2, 5]], categories=[1, 2, 10])
    by_position = cohen_kappa(df, "linear").value
    assert by_position == pytest.approx(cohen_kappa_table(df_table(df), "linear").value)
    by_value = cohen_kappa(df, lambda a, b: 1 - abs(a - b) / 9).value
    assert by_value != pytest.approx(by_position)
    # An unused category in the middle shifts positions and changes weighted kappa; one at
    # an end only rescales linear/quadratic weights (kappa is scale-free); unweighted kappa
    # never changes.
    middle, end = [1, 2, 5, 10], [1, 2, 10, 20]
    for wider in (middle, end):
        assert cohen_kappa(df, categories=wider).value == pytest.approx(cohen_kappa(df).value)
    for w in ("linear", "quadratic"):
        assert cohen_kappa(df, w, categories=middle).value != pytest.approx(
            cohen_kappa(df, w).value
        )
        assert cohen_kappa(df, w, categories=end).value == pytest.approx(cohen_kappa(df, w).value)
    res = cohen_kappa(df, "quadratic", categories=middle)
    assert res.n_categories == 4 and list(res.table.index) == middle
    assert res.table.loc[5].sum() == 0 and res.table[5].sum() == 0
    # Gwet's AC1 counts q, so even an unused end category changes it
    assert gwet_ac1(df, categories=end).value != pytest.approx(gwet_ac1(df).value)


def df_table(df: pd.DataFrame) -> np.ndarray:
    """Contingency table of coders A (rows) x B (columns), built independently."""
    wide = df.pivot(index="unit", columns="coder", values="value")
    cats = sorted(df["value"].unique())
    pos = {c: i for i, c in enumerate(cats)}
    out = np.zeros((len(cats), len(cats)))
    for a, b in zip(wide["A"], wide["B"]):
        out[pos[a], pos[b]] += 1
    return out


def test_categorical_column_supplies_the_domain():
    df = table_to_long([[5, 2], [1, 4]], categories=["lo", "mid"])
    cat = df.assign(value=pd.Categorical(df["value"], categories=["lo", "mid", "hi"], ordered=True))
    res = cohen_kappa(cat, "linear")
    assert res.n_categories == 3
    explicit = cohen_kappa(df, "linear", categories=["lo", "mid", "hi"])
    assert res.value == pytest.approx(explicit.value)


def test_callable_matrix_and_dataframe_weights_agree():
    df = from_matrix({"A": [1, 2, 3, 3, 2, 1, 4], "B": [1, 3, 3, 4, 2, 2, 4]})
    cats = [1, 2, 3, 4]
    mat = 1 - np.abs(np.subtract.outer(np.arange(4), np.arange(4))) / 3
    frame = pd.DataFrame(mat, index=cats, columns=cats).iloc[::-1, ::-1]  # order irrelevant
    vals = [
        cohen_kappa(df, "linear").value,
        cohen_kappa(df, mat).value,
        cohen_kappa(df, frame).value,
        cohen_kappa(df, lambda a, b: 1 - abs(a - b) / 3).value,
    ]
    assert vals == pytest.approx([vals[0]] * 4, abs=1e-12)
    assert cohen_kappa(df, mat).weights == "custom"


# ---------------------------------------------------------------------------------------------
# Independent implementations as oracles on random data


def _random_pair(seed: int, n: int = 60, q: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, q, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, q, n))
    return a, b


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("wt", [None, "linear", "quadratic"])
def test_cohen_kappa_vs_statsmodels(seed, wt):
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    a, b = _random_pair(seed)
    table = np.zeros((4, 4))
    np.add.at(table, (a, b), 1)
    expected = inter_rater.cohens_kappa(table, wt=wt, return_results=False)
    df = from_matrix({"A": list(a), "B": list(b)})
    assert cohen_kappa(df, wt, categories=[0, 1, 2, 3]).value == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_fleiss_and_bennett_vs_statsmodels(seed):
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, 25)
    ratings = np.where(rng.random((25, 5)) < 0.7, truth[:, None], rng.integers(0, 3, (25, 5)))
    table, _ = inter_rater.aggregate_raters(ratings, n_cat=3)
    df = long_from_rows(ratings)
    assert fleiss_kappa(df).value == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-12)
    # statsmodels' "randolph" (free-marginal) kappa is the multi-rater S with q = 3
    expected = inter_rater.fleiss_kappa(table, method="randolph")
    assert bennett_s(df, categories=[0, 1, 2]).value == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_vs_nltk_two_coders(seed):
    agreement = pytest.importorskip("nltk.metrics.agreement")
    a, b = _random_pair(seed, n=40, q=3)
    task = agreement.AnnotationTask(
        data=[("A", i, int(x)) for i, x in enumerate(a)]
        + [("B", i, int(x)) for i, x in enumerate(b)]
    )
    df = from_matrix({"A": list(a), "B": list(b)})
    assert cohen_kappa(df).value == pytest.approx(task.kappa(), abs=1e-12)
    assert scott_pi(df).value == pytest.approx(task.pi(), abs=1e-12)
    q = len(set(a) | set(b))
    assert bennett_s(df).value == pytest.approx(task.S(), abs=1e-12)
    assert bennett_s(df).n_categories == q


@pytest.mark.parametrize("seed", range(4))
def test_vs_nltk_many_coders(seed):
    agreement = pytest.importorskip("nltk.metrics.agreement")
    rng = np.random.default_rng(100 + seed)
    truth = rng.integers(0, 3, 20)
    ratings = np.where(rng.random((20, 4)) < 0.7, truth[:, None], rng.integers(0, 3, (20, 4)))
    task = agreement.AnnotationTask(
        data=[(c, u, int(ratings[u, c])) for u in range(20) for c in range(4)]
    )
    df = long_from_rows(ratings)
    # NLTK's multi-coder pi is Fleiss' kappa (complete data); its S is Bennett's S
    assert fleiss_kappa(df).value == pytest.approx(task.pi(), abs=1e-12)
    assert bennett_s(df).value == pytest.approx(task.S(), abs=1e-12)
    assert percent_agreement(df).value == pytest.approx(task.avg_Ao(), abs=1e-12)
    # NLTK's multi_kappa (Davies & Fleiss 1982) is a different coefficient
    assert fleiss_kappa(df).value != pytest.approx(task.multi_kappa(), abs=1e-6)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa_vs_sklearn(weights):
    metrics = pytest.importorskip("sklearn.metrics")
    a, b = _random_pair(7, n=80, q=5)
    df = from_matrix({"A": list(a), "B": list(b)})
    expected = metrics.cohen_kappa_score(a, b, weights=weights, labels=list(range(5)))
    assert cohen_kappa(df, weights, categories=range(5)).value == pytest.approx(expected)


def test_disagreement_weights_convert():
    # statsmodels/scikit-learn use disagreement weights d; w = 1 - d / max(d) is equivalent.
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    a, b = _random_pair(3)
    table = np.zeros((4, 4))
    np.add.at(table, (a, b), 1)
    d = np.abs(np.subtract.outer(np.arange(4), np.arange(4))) ** 1.5
    expected = inter_rater.cohens_kappa(table, weights=d, return_results=False)
    assert cohen_kappa_table(table, 1 - d / d.max()).value == pytest.approx(expected, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Hypothesis properties

complete_ratings = st.tuples(st.integers(2, 20), st.integers(2, 5)).flatmap(
    lambda shape: st.lists(
        st.lists(st.sampled_from("abcd"), min_size=shape[1], max_size=shape[1]),
        min_size=shape[0],
        max_size=shape[0],
    )
)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from("abcd"), min_size=2, max_size=30), st.integers(2, 5))
def test_perfect_agreement_gives_one(truth, n_coders):
    if len(set(truth)) < 2:
        truth = [*truth, "z"]
    df = long_from_rows(np.array([[t] * n_coders for t in truth], dtype=object))
    pair = df[df["coder"] < 2]
    for res in (
        cohen_kappa(pair),
        scott_pi(pair),
        fleiss_kappa(df),
        gwet_ac1(df),
        gwet_ac1(df, "quadratic", categories=sorted(set(truth))),
        bennett_s(df),
        percent_agreement(df),
    ):
        assert res.value == pytest.approx(1.0, abs=1e-12), res


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_ratings, st.randoms(use_true_random=False))
def test_invariance_to_unit_coder_and_row_permutation(rows, rnd):
    mat = np.array(rows, dtype=object)
    df = long_from_rows(mat)
    n_units, n_coders = mat.shape
    unit_names = [f"u{i}" for i in range(n_units)]
    coder_names = [f"c{i}" for i in range(n_coders)]
    rnd.shuffle(unit_names)
    rnd.shuffle(coder_names)
    other = df.assign(
        unit=[unit_names[u] for u in df["unit"]], coder=[coder_names[c] for c in df["coder"]]
    ).sample(frac=1, random_state=rnd.randint(0, 10**6))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        for func in (fleiss_kappa, gwet_ac1, bennett_s, percent_agreement):
            x, y = func(df).value, func(other).value
            assert (np.isnan(x) and np.isnan(y)) or x == pytest.approx(y, abs=1e-12)
        # Cohen's kappa and Scott's pi do not depend on which coder comes first
        two = df[df["coder"] < 2]
        for func in (cohen_kappa, scott_pi):
            x = func(two, coders=[0, 1]).value
            y = func(two, coders=[1, 0]).value
            assert (np.isnan(x) and np.isnan(y)) or x == pytest.approx(y, abs=1e-12)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=40, deadline=None)
@given(complete_ratings)
def test_ranges(rows):
    df = long_from_rows(np.array(rows, dtype=object))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        for func in (fleiss_kappa, gwet_ac1, bennett_s):
            v = func(df).value
            assert np.isnan(v) or -1 - 1e-9 <= v <= 1 + 1e-9
        assert 0 <= percent_agreement(df).value <= 1


# ---------------------------------------------------------------------------------------------
# Result object


def test_result_conventions():
    res = cohen_kappa(table_to_long([[20, 5], [10, 15]], categories=["yes", "no"]))
    assert isinstance(res, CoefficientResult)
    assert float(res) == pytest.approx(0.4)
    assert repr(res) == (
        "CoefficientResult(cohen_kappa=0.4000, observed=0.7000, expected=0.5000, n_units=50, "
        "n_coders=2)"
    )
    s = res.to_series()
    assert s.name == "cohen_kappa"
    assert s["value"] == pytest.approx(0.4) and s["n_categories"] == 2
    assert res.coders == ("A", "B")
    # the contingency table, labelled; categories sort as strings ("no" < "yes")
    assert res.table.loc["yes", "yes"] == 20 and res.table.loc["yes", "no"] == 5
    assert res.table.index.name == "A" and res.table.columns.name == "B"
    with pytest.raises(AttributeError):
        res.value = 1.0  # frozen


def test_degenerate_single_category_is_nan_with_warning():
    df = from_matrix({"A": ["x", "x", "x"], "B": ["x", "x", "x"]})
    with pytest.warns(DegenerateDataWarning, match="cohen_kappa is NaN: chance agreement is 1"):
        res = cohen_kappa(df)
    assert np.isnan(res.value) and "undefined" in res.reason
    with pytest.warns(DegenerateDataWarning, match="gwet_ac1 is NaN"):
        assert np.isnan(gwet_ac1(df).value)
    with pytest.warns(DegenerateDataWarning, match="fleiss_kappa is NaN"):
        assert np.isnan(fleiss_kappa(df).value)
    assert percent_agreement(df).value == 1.0


def test_caller_frame_unchanged():
    df = pa.datasets.krippendorff_2011()
    cat = df.assign(value=pd.Categorical(df["value"]))
    before, before_cat = df.copy(), cat.copy()
    for func in (percent_agreement, bennett_s, gwet_ac1):
        func(df)
        func(cat)
    fleiss_kappa(df, unequal="gwet")
    cohen_kappa(df, "linear", coders=["A", "B"])
    scott_pi(df, coders=["A", "B"])
    gwet_ac1(cat, "quadratic", categories=[1, 2, 3, 4, 5])
    pd.testing.assert_frame_equal(df, before)
    pd.testing.assert_frame_equal(cat, before_cat)


def test_custom_column_names_and_coders_subset():
    df = pa.datasets.krippendorff_2011().rename(
        columns={"unit": "item", "coder": "annotator", "value": "label"}
    )
    kw = {"unit": "item", "coder": "annotator", "value": "label"}
    res = cohen_kappa(df, coders=["A", "B"], **kw)
    assert res.coders == ("A", "B") and res.n_units == 9
    sub = gwet_ac1(df, coders=["A", "B", "D"], **kw)
    base = pa.datasets.krippendorff_2011()
    assert sub.value == pytest.approx(gwet_ac1(base[base["coder"] != "C"]).value)
    assert sub.n_coders == 3


# ---------------------------------------------------------------------------------------------
# Conversions


def test_table_to_long_and_counts_to_long():
    frame = pd.DataFrame([[1, 2], [0, 1]], index=["p", "n"], columns=["n", "p"])
    long = table_to_long(frame)
    # columns are aligned to the index order (p, n): the table is [[2, 1], [1, 0]]
    wide = long.pivot(index="unit", columns="coder", values="value")
    assert sorted(zip(wide["A"], wide["B"])) == [("n", "p"), ("p", "n"), ("p", "p"), ("p", "p")]
    assert cohen_kappa_table(frame).table.to_numpy().tolist() == [[2, 1], [1, 0]]
    counts = counts_to_long(pd.DataFrame({"x": [2, 0], "y": [1, 3]}, index=["u1", "u2"]))
    assert counts.groupby("unit")["value"].apply(sorted).to_dict() == {
        "u1": ["x", "x", "y"],
        "u2": ["y", "y", "y"],
    }
    assert not counts.duplicated(["unit", "coder"]).any()


# ---------------------------------------------------------------------------------------------
# Bad input: exception type and message


def three_coders() -> pd.DataFrame:
    return pa.datasets.krippendorff_2011()


@pytest.mark.parametrize(
    ("call", "exc", "message"),
    [
        pytest.param(
            lambda: cohen_kappa(three_coders()),
            InvalidParameterError,
            "cohen_kappa() compares two coders, but the data have 4: ['A', 'B', 'C', 'D']. "
            "Pass coders=['A', 'B'] to pick two, use fleiss_kappa()",
            id="more-than-two-coders",
        ),
        pytest.param(
            lambda: scott_pi(three_coders()),
            InvalidParameterError,
            "pairwise(data, metric='kappa') for every pair",
            id="scott-more-than-two",
        ),
        pytest.param(
            lambda: cohen_kappa(three_coders(), coders=["A", "Z"]),
            InvalidParameterError,
            "`coders` names coder(s) not in the data: ['Z']; the coders with ratings are "
            "['A', 'B', 'C', 'D']",
            id="unknown-coder",
        ),
        pytest.param(
            lambda: cohen_kappa(three_coders(), coders=["A", "B", "C"]),
            InvalidParameterError,
            "`coders` must name exactly two coders for cohen_kappa(), got ['A', 'B', 'C']",
            id="three-coders-named",
        ),
        pytest.param(
            lambda: cohen_kappa(three_coders(), coders=["A", "A"]),
            InvalidParameterError,
            "`coders` must not repeat a coder, got ['A', 'A']",
            id="repeated-coder",
        ),
        pytest.param(
            lambda: cohen_kappa(three_coders(), coders="AB"),
            InvalidParameterError,
            "`coders` must be a list of coder labels, got 'AB'",
            id="coders-string",
        ),
        pytest.param(
            lambda: cohen_kappa(table_to_long([[1, 2], [3, 4]]), "cubic"),
            InvalidParameterError,
            "`weights` must be one of [None, 'identity', 'linear', 'quadratic', 'ordinal', "
            "'radical', 'ratio', 'circular', 'bipolar'], a callable w(a, b) or a square matrix "
            "of agreement weights, got 'cubic'",
            id="weights-name",
        ),
        pytest.param(
            lambda: cohen_kappa(table_to_long([[1, 2], [3, 4]]), np.eye(3)),
            InvalidParameterError,
            "`weights` matrix must be 2 x 2 (one row and column per category, in the order "
            "[0, 1]), got shape (3, 3)",
            id="weights-shape",
        ),
        pytest.param(
            lambda: cohen_kappa(table_to_long([[1, 2], [3, 4]]), [[0, 1], [1, 0]]),
            InvalidParameterError,
            "`weights` are agreement weights: the diagonal must be 1 (full credit for identical "
            "ratings), got diagonal [0.0, 0.0]; for disagreement weights d pass 1 - d / d.max()",
            id="weights-disagreement",
        ),
        pytest.param(
            lambda: gwet_ac1(table_to_long([[1, 2], [3, 4]]), [[1, 2], [2, 1]]),
            InvalidParameterError,
            "`weights` must be agreement weights between 0 and 1, got [[1.0, 2.0], [2.0, 1.0]]",
            id="weights-range",
        ),
        pytest.param(
            lambda: cohen_kappa(
                table_to_long([[1, 2], [3, 4]]), pd.DataFrame(np.eye(2), index=[0, 5])
            ),
            InvalidParameterError,
            "`weights` DataFrame has no row or column for categories [1]",
            id="weights-frame-labels",
        ),
        pytest.param(
            lambda: fleiss_kappa(three_coders()),
            InvalidParameterError,
            "fleiss_kappa needs the same number of ratings in every unit (Fleiss 1971), but "
            "units have 1 to 4 ratings (unit 1 has 3, unit 10 has 3, unit 11 has 2). Pass "
            "unequal='gwet'",
            id="fleiss-unequal",
        ),
        pytest.param(
            lambda: fleiss_kappa(three_coders(), unequal="drop"),
            InvalidParameterError,
            "`unequal` must be one of ['raise', 'gwet'], got 'drop'",
            id="fleiss-unequal-param",
        ),
        pytest.param(
            lambda: cohen_kappa(from_matrix({"A": [1, 2, _, _], "B": [_, _, 1, 2]})),
            NoPairableUnitsError,
            "coders 'A' and 'B' rated no unit in common, so there is nothing to compare",
            id="no-shared-units",
        ),
        pytest.param(
            lambda: gwet_ac1(from_matrix({"A": [1, 2, _], "B": [_, _, 1]})),
            NoPairableUnitsError,
            "no unit has two or more ratings: 3 rating(s) in 3 unit(s)",
            id="no-pairable-units",
        ),
        pytest.param(
            lambda: cohen_kappa(from_matrix({"A": [1]})),
            InvalidParameterError,
            "cohen_kappa() compares two coders, but the data have 1: ['A']",
            id="one-coder",
        ),
        pytest.param(
            lambda: cohen_kappa(table_to_long([[1, 2], [3, 4]]), categories=[1]),
            InvalidParameterError,
            "`value` column 'value' holds values not in `categories` [1]: [0]",
            id="value-outside-categories",
        ),
        pytest.param(
            lambda: cohen_kappa(pd.DataFrame({"unit": [1], "coder": ["a"]})),
            ColumnNotFoundError,
            "`value` column 'value' is not in the DataFrame",
            id="missing-column",
        ),
        pytest.param(
            lambda: cohen_kappa([[1, 2]]),
            ValueTypeError,
            "`data` must be a pandas DataFrame, got list",
            id="not-a-frame",
        ),
        pytest.param(
            lambda: cohen_kappa(
                pd.DataFrame({"unit": [1, 1, 1], "coder": ["a", "a", "b"], "value": [1, 2, 1]})
            ),
            DuplicateRatingError,
            "1 (unit, coder) pair(s) have more than one rating: (1, 'a')",
            id="duplicate",
        ),
        pytest.param(
            lambda: cohen_kappa_table([[1, 2, 3], [4, 5, 6]]),
            InvalidParameterError,
            "`table` must be a square table of counts, got shape (2, 3)",
            id="table-not-square",
        ),
        pytest.param(
            lambda: cohen_kappa_table([[1, -2], [3, 4]]),
            InvalidParameterError,
            "`table` must hold finite non-negative counts with a positive total, got "
            "[[1.0, -2.0], [3.0, 4.0]]",
            id="table-negative",
        ),
        pytest.param(
            lambda: cohen_kappa_table(pd.DataFrame([[1, 2], [3, 4]], index=["a", "b"])),
            InvalidParameterError,
            "`table` DataFrame must have the same categories on its index and columns, got "
            "index ['a', 'b'] and columns [0, 1]",
            id="table-labels",
        ),
        pytest.param(
            lambda: table_to_long([[1.5, 0], [0, 1]]),
            InvalidParameterError,
            "`table` must hold whole counts, got [[1.5, 0.0], [0.0, 1.0]]",
            id="table-fractional-counts",
        ),
        pytest.param(
            lambda: table_to_long([[1, 0], [0, 1]], categories=["a"]),
            InvalidParameterError,
            "`categories` must have one label per row of `table` (2), got ['a']",
            id="table-categories",
        ),
        pytest.param(
            lambda: counts_to_long([[1, 0], [0, 1]], categories=["a", "b", "c"]),
            InvalidParameterError,
            "`categories` must have one label per column of `counts` (2), got ['a', 'b', 'c']",
            id="counts-categories",
        ),
        pytest.param(
            lambda: counts_to_long([1, 2]),
            InvalidParameterError,
            "`counts` must be a 2-D table of non-negative counts, got [1.0, 2.0]",
            id="counts-1d",
        ),
    ],
)
def test_bad_input(call, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        call()


def test_all_errors_are_value_or_type_errors():
    for call in (
        lambda: cohen_kappa(three_coders()),
        lambda: cohen_kappa([[1]]),
        lambda: cohen_kappa_table([[1, 2]]),
    ):
        with pytest.raises((ValueError, TypeError)):
            call()


def test_pairs_of_coders_cover_every_pair():
    # cohen_kappa with coders= on every pair of the 4 coders works and is symmetric.
    df = three_coders()
    for a, b in itertools.combinations("ABCD", 2):
        assert cohen_kappa(df, coders=[a, b]).value == pytest.approx(
            cohen_kappa(df, coders=[b, a]).value
        )
