"""One rule for every route that uses an order of the values (``has_rank_order``).

Ordinal alpha, order-based agreement weights (Cohen, Scott, Fleiss, Gwet's AC2, Bennett,
percent agreement, Conger, Light, Hubert) and ``pairwise(metric="kappa", weights=...)``
(function and accessor) all take the order from
:func:`pandas_agree.data.prepare.has_rank_order`: an explicit ``categories=``, an ordered
Categorical, or values ranked by value (numbers, dates, ...), never text in alphabetical
order.

Published values:

* Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed., ``cac.raw4raters`` (4 raters,
  12 units, ratings 1-5), as the test suite of irrCAC reproduces it
  (test/unit/irrCAC/raw/test_fleiss.py): linearly weighted Fleiss' kappa 0.818.
* Krippendorff (2011), Computing Krippendorff's Alpha-Reliability, section C: ordinal
  alpha 0.815.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.data.prepare import has_rank_order
from pandas_agree.datasets import from_matrix
from pandas_agree.errors import InvalidParameterError, ValueTypeError

_ = None
RAW4RATERS = {  # Gwet (2014), cac.raw4raters
    "Rater1": [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    "Rater2": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, _],
    "Rater3": [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    "Rater4": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
}
# Rank order 1..5 written as words, whose alphabetical order (five, four, one, three, two)
# is not the rank order.
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
ORDER = [WORDS[k] for k in range(1, 6)]


def numbers() -> pd.DataFrame:
    return from_matrix(RAW4RATERS)


def words() -> pd.DataFrame:
    df = numbers()
    return df.assign(value=df["value"].map(WORDS).astype(object))


def _pairwise_kappa(df, **kw):
    return pa.pairwise(df, "kappa", weights="linear", **kw)


def _accessor_pairwise(df, **kw):
    return df.agree.pairwise(metric="kappa", weights="linear", **kw)


# Every route that uses an order, as f(data, **kwargs) (kwargs: categories=).
ORDERED_ROUTES = [
    pytest.param(lambda df, **kw: pa.cohen_kappa(df, "linear", coders=["Rater1", "Rater2"], **kw),
                 id="cohen_kappa"),
    pytest.param(lambda df, **kw: pa.scott_pi(df, "quadratic", coders=["Rater1", "Rater2"], **kw),
                 id="scott_pi"),
    pytest.param(lambda df, **kw: pa.fleiss_kappa(df, "linear", unequal="gwet", **kw),
                 id="fleiss_kappa"),
    pytest.param(lambda df, **kw: pa.gwet_ac1(df, "quadratic", **kw), id="gwet_ac2"),
    pytest.param(lambda df, **kw: pa.bennett_s(df, "linear", **kw), id="bennett_s"),
    pytest.param(lambda df, **kw: pa.percent_agreement(df, "linear", **kw), id="percent"),
    pytest.param(lambda df, **kw: pa.conger_kappa(df, "linear", **kw), id="conger_kappa"),
    pytest.param(lambda df, **kw: pa.light_kappa(df, "linear", **kw), id="light_kappa"),
    pytest.param(lambda df, **kw: pa.hubert_kappa(df, "linear", **kw), id="hubert_kappa"),
    pytest.param(lambda df, **kw: df.agree.cohen_kappa(
        "linear", coders=["Rater1", "Rater2"], **kw), id="accessor-cohen"),
    pytest.param(_pairwise_kappa, id="pairwise-kappa"),
    pytest.param(_accessor_pairwise, id="accessor-pairwise-kappa"),
    pytest.param(lambda df, **kw: pa.alpha(df, "ordinal", **kw), id="alpha-ordinal"),
    pytest.param(lambda df, **kw: df.agree.alpha("ordinal", **kw), id="accessor-alpha"),
    pytest.param(lambda df, **kw: pa.report(df, "ordinal", **kw)["ordinal"].iloc[0],
                 id="report-ordinal"),
    pytest.param(lambda df, **kw: pa.pairwise(df, "alpha", "ordinal", **kw),
                 id="pairwise-alpha-ordinal"),
    pytest.param(lambda df, **kw: pa.summary(df, "ordinal", **kw), id="summary-ordinal"),
]  # fmt: skip


def _number(result) -> np.ndarray:
    if isinstance(result, pd.DataFrame):
        return result.to_numpy(dtype=float)
    if isinstance(result, pa.AgreementSummary):
        return np.array([result.alpha])
    return np.array([float(result)])


@pytest.mark.parametrize("route", ORDERED_ROUTES)
@pytest.mark.parametrize("shape", ["strings", "unordered-categorical"])
def test_every_ordered_route_refuses_text_without_an_order(route, shape):
    # pairwise(metric="kappa", weights="linear") ranked the words alphabetically without a
    # word while cohen_kappa refused them.
    df = words()
    if shape == "unordered-categorical":
        df = df.assign(value=pd.Categorical(df["value"]))
    with pytest.raises((InvalidParameterError, ValueTypeError), match="order"):
        route(df)


@pytest.mark.slow
@pytest.mark.parametrize("route", ORDERED_ROUTES)
def test_every_ordered_route_gives_one_number_however_the_order_is_given(route):
    # The same order given four ways: numbers, an unordered Categorical of numbers (ranked
    # by value on every route), categories=[...] in rank order, an ordered Categorical.
    expected = _number(route(numbers()))
    ranked = numbers().assign(value=lambda d: pd.Categorical(d["value"]))
    explicit = route(words(), categories=ORDER)
    ordered = words().assign(value=lambda d: pd.Categorical(d["value"], ORDER, ordered=True))
    for got in (route(ranked), explicit, route(ordered)):
        np.testing.assert_allclose(_number(got), expected, rtol=1e-12, equal_nan=True)


def test_published_values_through_the_order():
    # irrCAC (Gwet 2014, raw4raters): linearly weighted Fleiss' kappa 0.818.
    assert pa.fleiss_kappa(words(), "linear", categories=ORDER, unequal="gwet").value == (
        pytest.approx(0.818, abs=5e-4)
    )
    # Krippendorff (2011), section C: ordinal alpha 0.815, in words with their order.
    k2011 = pa.datasets.krippendorff_2011()
    k_words = k2011.assign(value=k2011["value"].map(WORDS).astype(object))
    assert round(pa.alpha(k_words, "ordinal", categories=ORDER).alpha, 3) == 0.815


def _weighted_kappa_brute(x: list, y: list, order: list) -> float:
    """Cohen's linearly weighted kappa from its definition (Cohen 1968), by loops."""
    q = len(order)
    pos = {c: i for i, c in enumerate(order)}
    n = len(x)
    obs = [[0.0] * q for _ in range(q)]
    for a, b in zip(x, y):
        obs[pos[a]][pos[b]] += 1 / n
    rows = [sum(r) for r in obs]
    cols = [sum(obs[i][j] for i in range(q)) for j in range(q)]
    w = [[1 - abs(i - j) / (q - 1) for j in range(q)] for i in range(q)]
    p_o = sum(w[i][j] * obs[i][j] for i in range(q) for j in range(q))
    p_e = sum(w[i][j] * rows[i] * cols[j] for i in range(q) for j in range(q))
    return (p_o - p_e) / (1 - p_e)


@pytest.mark.parametrize("seed", range(5))
def test_pairwise_weighted_kappa_matches_brute_force_on_random_ranked_words(seed):
    rng = np.random.default_rng(seed)
    coders = ["a", "b", "c"]
    truth = rng.integers(1, 6, size=25)
    rows = [
        (u, c, WORDS[int(np.clip(t + rng.integers(-1, 2), 1, 5))])
        for u, t in enumerate(truth)
        for c in coders
        if rng.random() < 0.9
    ]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    got = pa.pairwise(df, "kappa", weights="linear", categories=ORDER)
    wide = df.pivot(index="unit", columns="coder", values="value")
    for a in coders:
        for b in coders:
            if a == b:
                continue
            both = wide[[a, b]].dropna()
            brute = _weighted_kappa_brute(both[a].tolist(), both[b].tolist(), ORDER)
            assert got.loc[a, b] == pytest.approx(brute, abs=1e-12)


@pytest.mark.parametrize(
    ("values", "kwargs", "expected"),
    [
        pytest.param(pd.Index([3, 1, 2]), {}, True, id="integers"),
        pytest.param(pd.Index([0.5, 1.5]), {}, True, id="floats"),
        pytest.param(pd.Index([True, False]), {}, True, id="booleans"),
        pytest.param(pd.to_datetime(["2024-01-02", "2024-01-01"]), {}, True, id="dates"),
        pytest.param(pd.Index([1, 2.5], dtype=object), {}, True, id="numbers-as-objects"),
        pytest.param(pd.Index(["b", "a"]), {}, False, id="text"),
        pytest.param(pd.Index([b"b", b"a"]), {}, False, id="bytes"),
        pytest.param(pd.Index(["a", 1], dtype=object), {}, False, id="mixed"),
        pytest.param(pd.Index([frozenset("a")], dtype=object), {}, False, id="sets"),
        pytest.param(pd.Index(["b", "a"]), {"explicit": True}, True, id="text-with-categories"),
        pytest.param(None, {"dtype": pd.CategoricalDtype(["b", "a"], ordered=True)}, True,
                     id="ordered-categorical"),
        pytest.param(None, {"dtype": pd.CategoricalDtype(["b", "a"])}, False,
                     id="unordered-categorical-of-text"),
        pytest.param(None, {"dtype": pd.CategoricalDtype([2, 1])}, True,
                     id="unordered-categorical-of-numbers"),
    ],
)  # fmt: skip
def test_has_rank_order(values, kwargs, expected):
    assert has_rank_order(values, **kwargs) is expected


def test_dask_and_xarray_routes_use_the_same_rule():
    dd = pytest.importorskip("dask.dataframe")
    xr = pytest.importorskip("xarray")
    df = words()
    with pytest.raises(ValueTypeError, match="order"):
        dd.from_pandas(df, npartitions=2).agree.alpha("ordinal")
    mat = pa.matrix(df)
    da = xr.DataArray(mat.to_numpy(dtype=object), dims=("coder", "unit"))
    with pytest.raises(ValueTypeError, match="order"):
        da.agree.alpha("ordinal")
    ranked = numbers().assign(value=lambda d: pd.Categorical(d["value"]))
    got = dd.from_pandas(ranked, npartitions=2).agree.alpha("ordinal").alpha
    assert got == pytest.approx(pa.alpha(numbers(), "ordinal").alpha, rel=1e-12)
