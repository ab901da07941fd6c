"""Named weight schemes, the one weights validation, and weighted Fleiss/Scott/S/percent agreement.

Published values: the test suite of irrCAC (the Python port of Gwet's R package irrCAC,
github.com/afergadis/irrCAC, test/unit/irrCAC/...), which reproduces Gwet (2014), Handbook of
Inter-Rater Reliability, 4th ed., chapters 2-3, on Gwet's ``cac.raw4raters`` data and the
``cont3x3abstractors`` table.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.datasets import from_matrix
from pandas_agree.errors import InvalidParameterError
from pandas_agree.kappa.coefficients import (
    bennett_s,
    cohen_kappa,
    cohen_kappa_table,
    fleiss_kappa,
    gwet_ac1,
    percent_agreement,
    scott_pi,
    scott_pi_table,
    table_to_long,
)
from pandas_agree.kappa.weights import WEIGHT_SCHEMES, agreement_weights, weight_matrix

_ = None
# Gwet (2014), cac.raw4raters (irrCAC datasets.raw_4raters): 4 raters, 12 units, 1-5.
RAW4RATERS = {
    "Rater1": [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    "Rater2": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, _],
    "Rater3": [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    "Rater4": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
}
ABSTRACTORS = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]  # Gwet (2014), cont3x3abstractors


def raw4raters() -> pd.DataFrame:
    return from_matrix(RAW4RATERS)


# ---------------------------------------------------------------------------------------------
# The matrices


@pytest.mark.parametrize(
    ("scheme", "expected"),
    [
        # irrCAC test/unit/irrCAC/weights/test_weights.py, categories [1, 2, 3], rounded to 3.
        ("identity", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        ("linear", [[1, 0.5, 0], [0.5, 1, 0.5], [0, 0.5, 1]]),
        ("quadratic", [[1, 0.75, 0], [0.75, 1, 0.75], [0, 0.75, 1]]),
        ("ordinal", [[1, 0.667, 0], [0.667, 1, 0.667], [0, 0.667, 1]]),
        ("radical", [[1, 0.293, 0], [0.293, 1, 0.293], [0, 0.293, 1]]),
        ("ratio", [[1, 0.556, 0], [0.556, 1, 0.84], [0, 0.84, 1]]),
        ("circular", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        ("bipolar", [[1, 0.667, 0], [0.667, 1, 0.667], [0, 0.667, 1]]),
    ],
)
def test_weight_matrices_published(scheme, expected):
    mat = weight_matrix(scheme, [1, 2, 3])
    np.testing.assert_array_equal(np.round(mat.to_numpy(), 3), expected)
    assert list(mat.index) == [1, 2, 3] and list(mat.columns) == [1, 2, 3]


def test_bipolar_five_categories_published():
    # irrCAC raw.py docstring, bipolar weights for categories 1..5 (exact fractions).
    expected = [
        [1, 6 / 7, 2 / 3, 2 / 5, 0],
        [6 / 7, 1, 14 / 15, 3 / 4, 2 / 5],
        [2 / 3, 14 / 15, 1, 14 / 15, 2 / 3],
        [2 / 5, 3 / 4, 14 / 15, 1, 6 / 7],
        [0, 2 / 5, 2 / 3, 6 / 7, 1],
    ]
    np.testing.assert_allclose(weight_matrix("bipolar", 5).to_numpy(), expected, atol=1e-12)


def _brute_weight(scheme: str, x: list[float]) -> np.ndarray:
    """Gwet (2014), chapter 3, cell by cell from the formulas."""
    q, lo, hi = len(x), min(x), max(x)
    d = np.zeros((q, q))
    for k, m in itertools.product(range(q), range(q)):
        a, b = x[k], x[m]
        if scheme == "identity":
            d[k, m] = float(k != m)
        elif scheme == "linear":
            d[k, m] = abs(a - b) / (hi - lo)
        elif scheme == "quadratic":
            d[k, m] = (a - b) ** 2 / (hi - lo) ** 2
        elif scheme == "radical":
            d[k, m] = abs(a - b) ** 0.5 / (hi - lo) ** 0.5
        elif scheme == "ratio":
            d[k, m] = ((a - b) / (a + b)) ** 2 / ((hi - lo) / (hi + lo)) ** 2
        elif scheme == "ordinal":
            n = abs(k - m) + 1
            d[k, m] = n * (n - 1) / 2
        elif scheme == "circular":
            d[k, m] = np.sin(np.pi * (a - b) / (hi - lo + 1)) ** 2
        elif scheme == "bipolar" and k != m:
            d[k, m] = (a - b) ** 2 / ((a + b - 2 * lo) * (2 * hi - a - b))
    if scheme in ("ordinal", "circular", "bipolar"):
        d = d / d.max()
    return 1 - d


@pytest.mark.parametrize("scheme", WEIGHT_SCHEMES)
@pytest.mark.parametrize("cats", [[1, 2, 3, 4], [2, 3, 7, 11, 12], [1, 2]])
def test_weight_matrices_vs_formula(scheme, cats):
    np.testing.assert_allclose(
        weight_matrix(scheme, cats, scores="values").to_numpy(), _brute_weight(scheme, cats)
    )
    positions = list(range(1, len(cats) + 1))
    np.testing.assert_allclose(
        weight_matrix(scheme, cats).to_numpy(), _brute_weight(scheme, positions)
    )


@pytest.mark.parametrize("scheme", WEIGHT_SCHEMES)
def test_named_weights_are_valid_agreement_weights(scheme):
    mat = weight_matrix(scheme, 6).to_numpy()
    np.testing.assert_allclose(np.diag(mat), 1)
    np.testing.assert_allclose(mat, mat.T)
    assert (mat >= 0).all() and (mat <= 1).all()


# ---------------------------------------------------------------------------------------------
# Weighted coefficients: published values


# irrCAC test/unit/irrCAC/raw/test_fleiss.py and test_bp.py, raw_4raters, 3 decimals:
# (weights, p_a, fleiss p_e, fleiss kappa, bp p_e, bp coefficient)
RAW4_WEIGHTED = [
    ("bipolar", 0.968, 0.785, 0.853, 0.717, 0.888),
    ("circular", 0.902, 0.494, 0.807, 0.447, 0.824),
    ("linear", 0.939, 0.667, 0.818, 0.600, 0.848),
    ("ordinal", 0.968, 0.788, 0.850, 0.720, 0.886),
    ("quadratic", 0.975, 0.818, 0.865, 0.750, 0.902),
    ("radical", 0.897, 0.511, 0.790, 0.452, 0.813),
    ("ratio", 0.954, 0.743, 0.821, 0.713, 0.840),
    ("identity", 0.818, 0.239, 0.761, 0.200, 0.773),
]


@pytest.mark.parametrize(("weights", "p_a", "f_pe", "f_k", "s_pe", "s_k"), RAW4_WEIGHTED)
def test_weighted_fleiss_bennett_percent_published(weights, p_a, f_pe, f_k, s_pe, s_k):
    df = raw4raters()
    tol = 5e-4 + 1e-12  # the published values are rounded to 3 decimals
    fk = fleiss_kappa(df, weights, unequal="gwet")
    assert fk.observed == pytest.approx(p_a, abs=tol)
    assert fk.expected == pytest.approx(f_pe, abs=tol)
    assert fk.value == pytest.approx(f_k, abs=tol)
    bs = bennett_s(df, weights)
    assert bs.expected == pytest.approx(s_pe, abs=tol)
    assert bs.value == pytest.approx(s_k, abs=tol)
    assert percent_agreement(df, weights).value == pytest.approx(p_a, abs=tol)
    assert fk.weights == weights


@pytest.mark.parametrize(
    ("weights", "value"),
    [
        # irrCAC test/unit/irrCAC/table/test_scott.py, cont3x3abstractors (3 decimals).
        (None, 0.796),
        ("bipolar", 0.872),
        ("circular", 0.796),
        ("linear", 0.843),
        ("ordinal", 0.872),
        ("quadratic", 0.892),
        ("radical", 0.819),
        ("ratio", 0.927),
    ],
)
def test_weighted_scott_pi_published(weights, value):
    assert scott_pi_table(ABSTRACTORS, weights).value == pytest.approx(value, abs=5e-4)
    df = table_to_long(ABSTRACTORS, categories=[1, 2, 3])
    assert scott_pi(df, weights).value == pytest.approx(value, abs=5e-4)


# ---------------------------------------------------------------------------------------------
# Weighted coefficients: against the definitions, on random data with missing ratings


def _brute_multi(df: pd.DataFrame, w: np.ndarray, cats: list) -> dict[str, float]:
    """Gwet (2014), ch. 2-3: p_a over units with 2+ ratings; pi_k over units with 1+."""
    idx = {c: i for i, c in enumerate(cats)}
    q = len(cats)
    per_unit, shares = [], []
    for _, g in df.groupby("unit"):
        vals = [idx[v] for v in g["value"]]
        r = len(vals)
        counts = np.zeros(q)
        for v in vals:
            counts[v] += 1
        shares.append(counts / r)
        if r < 2:
            continue
        agree = sum(
            w[vals[i], vals[j]] for i in range(r) for j in range(r) if i != j
        )
        per_unit.append(agree / (r * (r - 1)))
    p_a = float(np.mean(per_unit))
    pi = np.mean(shares, axis=0)
    fleiss_pe = sum(w[k, m] * pi[k] * pi[m] for k in range(q) for m in range(q))
    bp_pe = w.sum() / q**2
    return {
        "p_a": p_a,
        "fleiss": (p_a - fleiss_pe) / (1 - fleiss_pe),
        "bennett": (p_a - bp_pe) / (1 - bp_pe),
    }


def _random_long(seed: int, n_units: int = 25, n_coders: int = 4, q: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, q + 1, n_units)
    rows = {}
    for c in range(n_coders):
        noisy = np.where(rng.random(n_units) < 0.4, rng.integers(1, q + 1, n_units), truth)
        rows[f"c{c}"] = [None if rng.random() < 0.2 else int(v) for v in noisy]
    return from_matrix(rows)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("scheme", ["linear", "quadratic", "ordinal", "radical", "bipolar"])
def test_weighted_multi_rater_vs_definition(seed, scheme):
    df = _random_long(seed)
    cats = [1, 2, 3, 4]
    w = weight_matrix(scheme, cats).to_numpy()
    brute = _brute_multi(df, w, cats)
    assert percent_agreement(df, scheme, categories=cats).value == pytest.approx(brute["p_a"])
    got = fleiss_kappa(df, scheme, categories=cats, unequal="gwet").value
    assert got == pytest.approx(brute["fleiss"])
    assert bennett_s(df, scheme, categories=cats).value == pytest.approx(brute["bennett"])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("scheme", ["linear", "quadratic", "ratio", "circular"])
def test_weighted_two_coder_vs_definition(seed, scheme):
    df = _random_long(seed, n_coders=2)
    cats = [1, 2, 3, 4]
    w = weight_matrix(scheme, cats).to_numpy()
    wide = df.pivot(index="unit", columns="coder", values="value").dropna().astype(int) - 1
    a, b = wide["c0"].to_numpy(), wide["c1"].to_numpy()
    n = len(a)
    p_o = sum(w[x, y] for x, y in zip(a, b, strict=True)) / n
    pa_, pb_ = np.bincount(a, minlength=4) / n, np.bincount(b, minlength=4) / n
    pi = (pa_ + pb_) / 2
    kappa_pe = sum(w[k, m] * pa_[k] * pb_[m] for k in range(4) for m in range(4))
    scott_pe = sum(w[k, m] * pi[k] * pi[m] for k in range(4) for m in range(4))
    assert cohen_kappa(df, scheme, categories=cats).value == pytest.approx(
        (p_o - kappa_pe) / (1 - kappa_pe)
    )
    assert scott_pi(df, scheme, categories=cats).value == pytest.approx(
        (p_o - scott_pe) / (1 - scott_pe)
    )


def test_a_name_a_matrix_and_a_frame_agree():
    df = raw4raters()
    frame = weight_matrix("radical", [1, 2, 3, 4, 5])
    for func in (fleiss_kappa, bennett_s, gwet_ac1, percent_agreement):
        kw = {"unequal": "gwet"} if func is fleiss_kappa else {}
        by_name = func(df, "radical", **kw).value
        assert func(df, frame, **kw).value == pytest.approx(by_name)
        assert func(df, frame.to_numpy(), **kw).value == pytest.approx(by_name)


def test_identity_weights_equal_unweighted():
    df = raw4raters()
    for func in (fleiss_kappa, bennett_s, percent_agreement):
        kw = {"unequal": "gwet"} if func is fleiss_kappa else {}
        assert func(df, "identity", **kw).value == pytest.approx(func(df, **kw).value)


# ---------------------------------------------------------------------------------------------
# Regressions: weights on unordered labels and out-of-range weights


TEXT_PAIR = pd.DataFrame(
    {
        "unit": [1, 1, 2, 2, 3, 3, 4, 4],
        "coder": ["A", "B"] * 4,
        "value": ["low", "low", "mid", "high", "high", "high", "low", "mid"],
    }
)


@pytest.mark.parametrize("scheme", [s for s in WEIGHT_SCHEMES if s != "identity"])
def test_order_based_weights_on_text_need_an_order(scheme):
    # Before: text labels were ranked alphabetically (high < low < mid) without a word.
    msg = f"`weights` {scheme!r} needs the order of the categories, but the values"
    for call in (
        lambda: cohen_kappa(TEXT_PAIR, scheme),
        lambda: scott_pi(TEXT_PAIR, scheme),
        lambda: fleiss_kappa(TEXT_PAIR, scheme),
        lambda: gwet_ac1(TEXT_PAIR, scheme),
        lambda: bennett_s(TEXT_PAIR, scheme),
        lambda: percent_agreement(TEXT_PAIR, scheme),
    ):
        with pytest.raises(InvalidParameterError, match=re.escape(msg)):
            call()


def test_an_order_makes_text_weights_work():
    order = ["low", "mid", "high"]
    explicit = cohen_kappa(TEXT_PAIR, "linear", categories=order).value
    ordered = TEXT_PAIR.assign(value=pd.Categorical(TEXT_PAIR["value"], order, ordered=True))
    assert cohen_kappa(ordered, "linear").value == pytest.approx(explicit)
    numbers = TEXT_PAIR.assign(value=TEXT_PAIR["value"].map({"low": 1, "mid": 2, "high": 3}))
    assert cohen_kappa(numbers, "linear").value == pytest.approx(explicit)
    # by the definition: table on (low, mid, high) positions
    table = [[1, 1, 0], [0, 0, 1], [0, 0, 1]]
    assert explicit == pytest.approx(cohen_kappa_table(table, "linear").value)
    # identity needs no order; an unordered Categorical is not an order
    assert cohen_kappa(TEXT_PAIR, "identity").value == pytest.approx(cohen_kappa(TEXT_PAIR).value)
    unordered = TEXT_PAIR.assign(value=pd.Categorical(TEXT_PAIR["value"], order))
    with pytest.raises(InvalidParameterError, match="needs the order of the categories"):
        cohen_kappa(unordered, "quadratic")


ASYMMETRIC = [[1.0, 0.5, 0.0], [0.0, 1.0, 0.5], [0.5, 0.0, 1.0]]


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda df: cohen_kappa(df, ASYMMETRIC), id="cohen"),
        pytest.param(lambda df: scott_pi(df, ASYMMETRIC), id="scott"),
        pytest.param(lambda df: gwet_ac1(df, ASYMMETRIC), id="gwet"),
        pytest.param(lambda df: fleiss_kappa(df, ASYMMETRIC), id="fleiss"),
        pytest.param(lambda df: bennett_s(df, ASYMMETRIC), id="bennett"),
        pytest.param(lambda df: percent_agreement(df, ASYMMETRIC), id="percent"),
        pytest.param(lambda df: cohen_kappa_table(ABSTRACTORS, ASYMMETRIC), id="cohen-table"),
        pytest.param(
            lambda df: cohen_kappa(df, pd.DataFrame(ASYMMETRIC, [1, 2, 3], [1, 2, 3])),
            id="cohen-frame",
        ),
        pytest.param(
            lambda df: cohen_kappa(df, lambda a, b: 1.0 if a == b else 0.5 * (a < b)),
            id="cohen-callable",
        ),
    ],
)
def test_asymmetric_weights_rejected_everywhere(call):
    # Before: cohen_kappa accepted these silently while the Gwet route symmetrised them.
    df = table_to_long(ABSTRACTORS, categories=[1, 2, 3])
    with pytest.raises(InvalidParameterError, match=r"`weights` must be symmetric .* w\[0, 1\]"):
        call(df)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ("cubic", "`weights` must be one of [None, 'identity', 'linear', 'quadratic', 'ordinal',"),
        (np.eye(2), "`weights` matrix must be 3 x 3 (one row and column per category"),
        ([[1, 2, 0], [2, 1, 0], [0, 0, 1]], "`weights` must be agreement weights between 0 and 1"),
        (1 - np.eye(3), "the diagonal must be 1"),
        ([[1, np.nan, 0], [np.nan, 1, 0], [0, 0, 1]], "between 0 and 1, got [[1.0, nan"),
        ("linear ", "got 'linear '"),
    ],
)
def test_bad_weights(weights, message):
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        agreement_weights(weights, pd.Index([1, 2, 3]))


@pytest.mark.parametrize("dtype", ["Float64", "Int64"])
def test_weights_frame_with_a_missing_cell_is_out_of_range(dtype):
    # a nullable frame's <NA> is NaN in the matrix: the range check names it, not the frame
    frame = pd.DataFrame([[1, 0], [pd.NA, 1]], index=["a", "b"], columns=["a", "b"], dtype=dtype)
    with pytest.raises(InvalidParameterError) as caught:
        agreement_weights(frame, pd.Index(["a", "b"]))
    assert str(caught.value) == (
        "`weights` must be agreement weights between 0 and 1, got [[1.0, 0.0], [nan, 1.0]]"
    )


def test_weights_frame_of_text_names_the_cell():
    frame = pd.DataFrame([[1, "x"], [0, 1]], index=["a", "b"], columns=["a", "b"], dtype=object)
    with pytest.raises(InvalidParameterError) as caught:
        agreement_weights(frame, pd.Index(["a", "b"]))
    assert str(caught.value) == "`weights` DataFrame must hold numbers; ('a', 'b') holds 'x'"


def test_weights_frame_missing_categories_lists_at_most_twenty():
    categories = pd.Index(range(30))
    frame = pd.DataFrame(np.eye(3))
    with pytest.raises(InvalidParameterError) as caught:
        agreement_weights(frame, categories)
    first_twenty = ", ".join(map(str, range(20)))
    assert str(caught.value) == (
        "`weights` DataFrame has no row or column for categories [3, 4, 5, 6, 7, ...]; its "
        f"index and columns must hold every category of [{first_twenty}, ...]"
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: weight_matrix("cubic", 3), "`scheme` must be one of ['identity',"),
        (lambda: weight_matrix("linear", 3, scores="ranks"), "`scores` must be one of"),
        (lambda: weight_matrix("linear", ["a", "b"], scores="values"), "needs numeric categories"),
        (lambda: weight_matrix("linear", [3, 1, 2], scores="values"), "finite increasing"),
        (lambda: weight_matrix("ratio", [-1, 0, 1], scores="values"), "x_min + x_max = 0"),
        (lambda: weight_matrix("linear", 0), "positive number of categories"),
        (lambda: weight_matrix("linear", "abc"), "got 'abc'"),
        (lambda: weight_matrix("linear", [1, 1]), "without repeats, got [1, 1]"),
    ],
)
def test_bad_weight_matrix_calls(call, message):
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        call()


def test_single_category_gives_ones_and_frames_unchanged():
    assert weight_matrix("quadratic", ["x"]).to_numpy().tolist() == [[1.0]]
    df = raw4raters()
    before = df.copy()
    fleiss_kappa(df, "quadratic", unequal="gwet")
    percent_agreement(df, "linear")
    pd.testing.assert_frame_equal(df, before)


def test_public_names():
    assert pa.weights.weight_matrix is weight_matrix
