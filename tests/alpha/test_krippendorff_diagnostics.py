"""Tests for pandas_agree.krippendorff.diagnostics: pairwise tables, per-unit and per-coder
disagreement,
the summary with its prevalence ("kappa paradox") note.

Main worked example: Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability",
section C (``pa.datasets.krippendorff_2011()``), nominal alpha 0.743 = 113/152. By hand,
its observed-disagreement sum is O = 8 over n = 40 pairable values: unit 6 (1, 2, 3, 4)
contributes (16 - 4)/3 = 4, units 2 (2, 2, 3, 2) and 8 (1, 1, 2, 1) (16 - 10)/3 = 2 each,
all other units 0.
"""

from __future__ import annotations

import itertools
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree.datasets import from_matrix
from pandas_agree.errors import DegenerateDataWarning, InvalidParameterError
from pandas_agree.kappa.coefficients import cohen_kappa, table_to_long
from pandas_agree.krippendorff.diagnostics import (
    AgreementSummary,
    coder_disagreement,
    pairwise,
    summary,
    unit_disagreement,
)
from pandas_agree.results import AlphaResult

K2011 = pa.datasets.krippendorff_2011


# ---------------------------------------------------------------------------------------------
# pairwise


def test_pairwise_percent_by_hand():
    # A rated units 1-9, C units 2-11: 8 shared units, equal on 3, 4, 5, 7, 9 -> 5/8.
    table = pairwise(K2011(), "percent")
    assert list(table.index) == list("ABCD") and list(table.columns) == list("ABCD")
    assert table.loc["A", "C"] == pytest.approx(5 / 8)
    assert table.loc["A", "B"] == pytest.approx(8 / 9)
    assert np.isnan(np.diag(table.to_numpy())).all()
    np.testing.assert_array_equal(table.to_numpy(), table.to_numpy().T)


@pytest.mark.parametrize("distance", ["nominal", "interval", "ordinal", "ratio"])
def test_pairwise_alpha_equals_alpha_on_each_pair(distance):
    df = K2011()
    table = pairwise(df, "alpha", distance)
    for a, b in itertools.combinations("ABCD", 2):
        expected = pa.alpha(df[df["coder"].isin([a, b])], distance).alpha
        assert table.loc[a, b] == pytest.approx(expected, abs=1e-12)
        assert table.loc[b, a] == table.loc[a, b]


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_pairwise_kappa_equals_cohen_kappa(weights):
    df = K2011()
    table = pairwise(df, "kappa", weights=weights)
    for a, b in itertools.combinations("ABCD", 2):
        expected = cohen_kappa(df, weights, coders=[a, b]).value
        assert table.loc[a, b] == pytest.approx(expected, abs=1e-12)


def test_pairwise_set_distance_and_element_weights():
    df = pd.DataFrame(
        {
            "unit": [1, 1, 1, 2, 2, 2, 3, 3],
            "coder": ["a", "b", "c", "a", "b", "c", "a", "c"],
            "value": [{"x"}, {"x", "y"}, {"y"}, {"z"}, {"z"}, {"x", "z"}, {"y"}, {"y"}],
        }
    )
    w = {"x": 2, "y": 1, "z": 3}
    table = pairwise(df, "alpha", "weighted_dice", weights=w)
    for a, b in itertools.combinations("abc", 2):
        sub = df[df["coder"].isin([a, b])]
        assert table.loc[a, b] == pytest.approx(pa.alpha(sub, "weighted_dice", weights=w).alpha)


def test_pairwise_no_shared_units_and_degenerate_pairs_are_nan():
    df = from_matrix({"A": [1, 2, None, None], "B": [1, 2, 1, 1], "C": [None, None, 1, 1]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no per-pair warnings
        alpha = pairwise(df)
        kappa = pairwise(df, "kappa")
        percent = pairwise(df, "percent")
    for table in (alpha, kappa, percent):
        assert np.isnan(table.loc["A", "C"])  # no shared unit
    assert np.isnan(alpha.loc["B", "C"]) and np.isnan(kappa.loc["B", "C"])  # one category
    assert percent.loc["B", "C"] == 1.0
    assert alpha.loc["A", "B"] == 1.0 and kappa.loc["A", "B"] == 1.0


def test_pairwise_row_means_skip_the_diagonal():
    table = pairwise(K2011(), "percent")
    assert table.mean(axis=1).idxmin() == "C"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param(
            {"metric": "fleiss"},
            "`metric` must be one of ['alpha', 'kappa', 'percent'], got 'fleiss'",
            id="metric",
        ),
        pytest.param(
            {"metric": "kappa", "distance": "interval"},
            "`distance` only applies to metric='alpha'; metric='kappa' compares categories "
            "(nominal), got distance='interval'",
            id="distance-with-kappa",
        ),
        pytest.param(
            {"metric": "percent", "weights": "linear"},
            "`weights` does not apply to metric='percent', got weights='linear'",
            id="weights-with-percent",
        ),
        pytest.param(
            {"metric": "kappa", "weights": "cubic"},
            "`weights` must be one of [None, 'identity', 'linear', 'quadratic', 'ordinal', "
            "'radical', 'ratio', 'circular', 'bipolar'], a callable w(a, b) or a square matrix "
            "of agreement weights, got 'cubic'",
            id="kappa-weights",
        ),
        pytest.param(
            {"metric": "alpha", "weights": {"x": 1}},
            "`weights` only applies to weighted set distances",
            id="alpha-weights",
        ),
    ],
)
def test_pairwise_bad_input(kwargs, message):
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        pairwise(K2011(), **kwargs)


# ---------------------------------------------------------------------------------------------
# unit_disagreement


def test_unit_disagreement_by_hand():
    res = pa.alpha(K2011())
    units = unit_disagreement(res)
    assert list(units.index[:3]) == [6, 2, 8]
    assert units.loc[6, "share"] == pytest.approx(0.5)
    assert units.loc[2, "share"] == pytest.approx(0.25)
    assert units.loc[8, "share"] == pytest.approx(0.25)
    assert (units.drop(index=[6, 2, 8])["share"] == 0).all()
    assert units["share"].sum() == pytest.approx(1.0)
    assert units["disagreement"].sum() == pytest.approx(res.observed)  # D_o = 8/40
    assert res.observed == pytest.approx(0.2)
    assert units.loc[6, "mean_distance"] == 1.0 and units.loc[2, "mean_distance"] == 0.5
    assert len(units) == 11 and 12 not in units.index  # unit 12 has one value
    assert units["share"].is_monotonic_decreasing


def test_unit_disagreement_interval_by_hand():
    # Interval: unit 6 values 1, 2, 3, 4 -> sum over ordered pairs of (x_i - x_j)^2 = 40,
    # / (m - 1) = 40/3; unit 2 (2, 2, 3, 2): 6 ordered disagreeing pairs of 1 -> 6/3 = 2.
    units = unit_disagreement(pa.alpha(K2011(), "interval"))
    n = 40
    assert units.loc[6, "disagreement"] == pytest.approx(40 / 3 / n)
    assert units.loc[2, "disagreement"] == pytest.approx(2 / n)
    assert units.loc[6, "mean_distance"] == pytest.approx(40 / 3 / 4)


def test_unit_disagreement_perfect_agreement_all_zero():
    res = pa.alpha(from_matrix({"A": [1, 2, 3], "B": [1, 2, 3]}))
    units = unit_disagreement(res)
    assert (units["share"] == 0).all() and (units["disagreement"] == 0).all()


# ---------------------------------------------------------------------------------------------
# coder_disagreement


def test_coder_disagreement_by_hand():
    # C is the odd value in units 2 (t = 3/3) and 8 (t = 1); in unit 6 every rating has
    # t = 3/3 = 1. A, B, D: 1/3 + 1 + 1/3 = 5/3 each; C: 3. Total 8 = O.
    res = pa.alpha(K2011())
    coders = coder_disagreement(res)
    assert list(coders.index) == ["C", "A", "B", "D"]
    assert coders.loc["C", "share"] == pytest.approx(3 / 8)
    for g in "ABD":
        assert coders.loc[g, "share"] == pytest.approx(5 / 24)
    assert coders.loc["C", "disagreement"] == pytest.approx(3 / 40)
    assert coders["disagreement"].sum() == pytest.approx(res.observed)
    assert coders.loc["C", "n_values"] == 10 and coders.loc["D", "n_values"] == 11
    assert coders.loc["D", "mean_distance"] == pytest.approx(5 / 3 / 11)


@pytest.mark.parametrize("distance", ["nominal", "interval", "ordinal", "ratio"])
def test_leave_one_coder_out_alpha_matches_alpha_without_coder(distance):
    df = K2011()
    res = pa.alpha(df, distance)
    coders = coder_disagreement(res)
    for g in "ABCD":
        expected = pa.alpha(df[df["coder"] != g], distance).alpha
        assert coders.loc[g, "alpha_without"] == pytest.approx(expected, abs=1e-12)
        assert coders.loc[g, "alpha_change"] == pytest.approx(expected - res.alpha, abs=1e-12)
    assert coders["alpha_change"].is_monotonic_decreasing


def test_coder_disagreement_two_coders_is_even():
    df = from_matrix({"A": [1, 2, 3, 1], "B": [1, 3, 3, 2]})
    coders = coder_disagreement(pa.alpha(df))
    assert coders["share"].tolist() == pytest.approx([0.5, 0.5])
    assert coders["alpha_without"].isna().all()


def _brute_force_parts(df: pd.DataFrame, delta) -> dict:
    """Each coder's part of O by explicit loops over ordered pairs of ratings."""
    parts = dict.fromkeys(df["coder"].unique(), 0.0)
    for _, g in df.groupby("unit"):
        if len(g) < 2:
            continue
        m = len(g)
        for (ci, vi), (_, vj) in itertools.permutations(zip(g["coder"], g["value"]), 2):
            parts[ci] += delta(vi, vj) / (m - 1)
    return parts


set_data = st.lists(
    st.lists(
        st.one_of(st.none(), st.frozensets(st.sampled_from("xyz"), min_size=1, max_size=2)),
        min_size=4,
        max_size=4,
    ),
    min_size=2,
    max_size=8,
)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=40, deadline=None)
@given(set_data, st.sampled_from(["nominal", "jaccard", "masi", "dice", "callable"]))
def test_coder_parts_brute_force(rows, distance):
    df = pd.DataFrame(
        [(u, f"c{j}", v) for u, row in enumerate(rows) for j, v in enumerate(row) if v is not None],
        columns=["unit", "coder", "value"],
    )
    if df.empty or df.groupby("unit").size().max() < 2:
        return
    funcs = {
        "nominal": pa.distances.nominal,
        "jaccard": pa.distances.jaccard,
        "masi": pa.distances.masi,
        "dice": pa.distances.dice,
        "callable": lambda a, b: float(len(a ^ b)),
    }
    delta = funcs[distance]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = pa.alpha(df, delta if distance == "callable" else distance)
    coders = coder_disagreement(res)
    parts = _brute_force_parts(df, delta)
    for g, row in coders.iterrows():
        assert row["disagreement"] * res.n_pairable == pytest.approx(parts[g], abs=1e-9)
    assert coders["disagreement"].sum() == pytest.approx(res.observed, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.integers(1, 5)), min_size=3, max_size=3),
        min_size=2,
        max_size=10,
    ),
    st.sampled_from(["interval", "ordinal"]),
)
@pytest.mark.slow
def test_coder_parts_brute_force_numeric(rows, distance):
    df = pd.DataFrame(
        [(u, f"c{j}", v) for u, row in enumerate(rows) for j, v in enumerate(row) if v is not None],
        columns=["unit", "coder", "value"],
    )
    if df.empty or df.groupby("unit").size().max() < 2:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = pa.alpha(df, distance)
    if distance == "interval":

        def delta(a, b):
            return (a - b) ** 2
    else:
        pairable = df[df.groupby("unit")["unit"].transform("size") >= 2]
        freq = pairable["value"].value_counts().sort_index()

        def delta(a, b):
            return pa.distances.ordinal(a, b, frequencies=freq)

    parts = _brute_force_parts(df, delta)
    coders = coder_disagreement(res)
    for g, row in coders.iterrows():
        assert row["disagreement"] * res.n_pairable == pytest.approx(parts[g], rel=1e-9, abs=1e-9)


def test_result_type_errors():
    with pytest.raises(
        TypeError,
        match=re.escape("`result` must be an AlphaResult from pandas_agree.alpha(), got DataFrame"),
    ):
        unit_disagreement(K2011())
    bare = AlphaResult(0.5, "nominal", 0.1, 0.2, 3, 2, 6, 2)
    with pytest.raises(InvalidParameterError, match=re.escape("`result` carries no fit data")):
        coder_disagreement(bare)


# ---------------------------------------------------------------------------------------------
# summary and the prevalence paradox


def test_summary_paradox_brief_table():
    # The brief's high-agreement / low-kappa 2x2 table [[118, 5], [2, 0]]: p_o = 118/125 =
    # .944; pooled prevalence of "+" = 243/250 = .972; Scott's pi = -0.0288 and, for two
    # coders without missing data, alpha = 1 - (249/250)(1 - pi) = -0.0247; AC1 with
    # pi_k = (.972, .028): p_e = 2 * .972 * .028 = .054432, AC1 = .889568/.945568 = .9408.
    s = summary(table_to_long([[118, 5], [2, 0]], categories=["+", "-"]))
    assert s.percent_agreement == pytest.approx(0.944)
    assert s.prevalence == pytest.approx(0.972) and s.top_category == "+"
    pi = (0.944 - (0.972**2 + 0.028**2)) / (1 - (0.972**2 + 0.028**2))
    assert s.alpha == pytest.approx(1 - 249 / 250 * (1 - pi), abs=1e-12)
    assert s.ac1 == pytest.approx((0.944 - 0.054432) / (1 - 0.054432), abs=1e-12)
    assert s.paradox
    assert "Percent agreement is 0.944 but alpha is only -0.025" in s.note
    assert "97% of the pairable values are '+'" in s.note
    assert "Gwet's AC1" in s.note and "0.941" in s.note


@pytest.mark.parametrize(
    ("table", "paradox"),
    [
        # Feinstein & Cicchetti (1990) via Gerstman, Epidemiology Kept Simple, Table 10.6:
        # both tables have p_o = .85; A (balanced, kappa .70) is fine, B (85% "+", kappa .32)
        # shows the paradox.
        pytest.param([[40, 9], [6, 45]], False, id="table-10.6A-balanced"),
        pytest.param([[80, 10], [5, 5]], True, id="table-10.6B-skewed"),
    ],
)
def test_summary_feinstein_cicchetti_pair(table, paradox):
    s = summary(table_to_long(table))
    assert s.percent_agreement == pytest.approx(0.85)
    assert s.paradox is paradox
    assert (s.note is not None) is paradox
    if paradox:
        assert s.ac1 > 0.75 > s.alpha


def test_summary_result_conventions():
    s = summary(K2011(), "interval")
    assert isinstance(s, AgreementSummary)
    assert float(s) == pytest.approx(pa.alpha(K2011(), "interval").alpha)
    assert s.percent_agreement == pytest.approx(9 / 11)  # Gwet (2014): 0.8181818
    assert s.ac1 == pytest.approx(0.77544, abs=5e-6)  # irrCAC gwet.ac1.raw
    assert not s.paradox and s.note is None
    assert repr(s) == (
        "AgreementSummary(alpha=0.8491, percent_agreement=0.8182, ac1=0.7754, "
        "prevalence=0.325, paradox=False)"
    )
    # Krippendorff (2011) section C: pairable frequencies 1: 9, 2: 13, 3: 10, 4: 5, 5: 3
    assert s.top_category == 2 and s.prevalence == pytest.approx(13 / 40)
    assert str(s) == repr(s)
    ser = s.to_series()
    assert ser.name == "interval" and ser["paradox"] is False
    frame = s.to_frame()
    assert frame.shape == (1, 9) and frame.index[0] == "interval"
    with pytest.raises(AttributeError):
        s.alpha = 0.0


def test_summary_thresholds_and_degenerate_note():
    s = summary(table_to_long([[40, 9], [6, 45]]), high_agreement=0.8, low_alpha=0.8)
    assert s.paradox
    df = from_matrix({"A": [1, 1, 1], "B": [1, 1, 1]})
    with pytest.warns(DegenerateDataWarning):
        s = summary(df)
    assert np.isnan(s.alpha) and not s.paradox
    assert s.note.startswith("Alpha is undefined: every pairable value is the same")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"high_agreement": "high"}, "`high_agreement` must be a number, got 'high'"),
        pytest.param({"low_alpha": float("nan")}, "`low_alpha` must be finite, got nan"),
        pytest.param({"distance": "weighted_dice"}, "`distance` 'weighted_dice' needs element"),
    ],
)
def test_summary_bad_input(kwargs, message):
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        summary(K2011(), **kwargs)


def test_caller_frame_unchanged():
    df = K2011()
    before = df.copy()
    pairwise(df)
    pairwise(df, "kappa", weights="linear")
    pairwise(df, "percent")
    res = pa.alpha(df, "ordinal")
    unit_disagreement(res)
    coder_disagreement(res)
    summary(df, "ordinal")
    pd.testing.assert_frame_equal(df, before)


# ---------------------------------------------------------------------------------------------
# Kernel.entry_terms: the one per-rating term every decomposition uses


def _kernels(n_values: int):
    """One kernel of each class on a domain of ``n_values`` values (codes 0..V-1), with the
    distance each should compute, written from the definition."""
    import scipy.sparse as sp

    from pandas_agree._core.kernels import NominalKernel, PairwiseKernel, ScoreKernel, SetKernel

    x = np.arange(n_values, dtype=float) ** 1.5
    # value c is the set of the bits of c + 1
    sets = [frozenset(b for b in range(4) if (c + 1) >> b & 1) for c in range(n_values)]
    rows = [b for s in sets for b in sorted(s)]
    ptr = np.cumsum([0] + [len(s) for s in sets])
    incidence = sp.csr_matrix((np.ones(len(rows)), rows, ptr), shape=(n_values, 4))

    def jaccard(inter, a, b):
        union = a + b - inter
        return np.where(union > 0, 1.0 - inter / np.where(union > 0, union, 1.0), 0.0)

    def ordinal(n_c):
        r = np.cumsum(n_c) - n_c / 2.0  # Krippendorff's mid-ranks
        return lambda c, k: (r[c] - r[k]) ** 2

    return [
        ("nominal", NominalKernel(), lambda n_c: lambda c, k: float(c != k)),
        ("interval", ScoreKernel(x), lambda n_c: lambda c, k: (x[c] - x[k]) ** 2),
        ("ordinal", ScoreKernel(ordinal=True), ordinal),
        (
            "pairwise",
            PairwiseKernel(lambda c, k: np.abs(x[c] - x[k]), n_values),
            lambda n_c: lambda c, k: abs(x[c] - x[k]),
        ),
        (
            "jaccard",
            SetKernel(incidence, jaccard),
            lambda n_c: lambda c, k: 1.0 - len(sets[c] & sets[k]) / len(sets[c] | sets[k]),
        ),
    ]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=6), min_size=1, max_size=8),
)
@pytest.mark.slow
def test_entry_terms_brute_force(units):
    """t_e = sum_k n_uk delta(c, k) / (m_u - 1) by loops over the ratings of each unit,
    against every kernel's entry_terms and against the generic Kernel.entry_terms."""
    from pandas_agree._core.counts import pairable_counts
    from pandas_agree._core.kernels import Kernel

    n_values = 6
    unit_codes = np.array([u for u, vs in enumerate(units) for _ in vs])
    value_codes = np.array([v for vs in units for v in vs])
    counts = pairable_counts(unit_codes, value_codes, len(units), n_values)
    for name, kernel, make_delta in _kernels(n_values):
        delta = make_delta(counts.n_c.astype(float))
        expected = []
        for u, c in zip(counts.unit, counts.value):
            others = list(units[u])
            others.remove(c)  # the rating itself (distance 0 anyway)
            expected.append(sum(delta(c, k) for k in others) / (len(units[u]) - 1))
        got = kernel.entry_terms(counts)
        generic = Kernel.entry_terms(kernel, counts)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12, err_msg=name)
        np.testing.assert_allclose(generic, expected, rtol=1e-12, atol=1e-12, err_msg=name)
        # count-weighted terms add up to each unit's observed term
        by_unit = np.bincount(counts.unit, weights=counts.count * got, minlength=len(units))
        np.testing.assert_allclose(by_unit, kernel.observed_by_unit(counts), atol=1e-9)


def test_coder_disagreement_tiny_interval_gaps_regression():
    """Scores 0, 1e-200, 2e-200, 3e-200 (next to an unpaired 1.0) are re-scaled by the
    kernel; the per-coder parts used the unscaled scores and underflowed to 0. The shares
    must equal those of the same data on 0, 1, 2, 3 (interval alpha is scale-invariant),
    computed here by brute force over ordered pairs."""
    tiny = [0.0, 1e-200, 2e-200, 1e-200, 1e-200, 3e-200, 1.0]
    df = pd.DataFrame({"unit": [0, 0, 0, 1, 1, 1, 2], "coder": list("abcabca"), "value": tiny})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = pa.alpha(df, "interval")
    coders = coder_disagreement(res)
    assert coders["disagreement"].sum() == pytest.approx(res.observed, rel=1e-12)
    plain = df.assign(value=[0, 1, 2, 1, 1, 3, 100])
    parts = _brute_force_parts(plain, lambda a, b: float((a - b) ** 2))
    total = sum(parts.values())
    for g, row in coders.iterrows():
        assert row["share"] == pytest.approx(parts[g] / total, rel=1e-12)
