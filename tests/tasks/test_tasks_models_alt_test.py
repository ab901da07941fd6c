"""The alternative annotator test (pandas_agree.tasks.models.alt_test).

Checked against:

* the published outputs of the authors' notebook ``alt_test_example.ipynb`` (Calderon,
  Reichart & Dror 2025, github.com/nitaytech/AltTest, the cell "Example (paper's data)"):
  winning rate and advantage probability of 52 LLM x data-set pairs, to the two decimals
  printed. The AltTest repository has no licence, so its data are not copied here: set
  ``ALTTEST_DATA`` to its ``data/`` folder to run that test;
* an independent implementation below, written from the paper's definitions (section 3)
  with plain Python loops and exact fractions, on random categorical, numeric and
  set-valued data with missing annotations, several candidates and domains: p-values to
  1e-12, winning rates and advantage probabilities exactly;
* ``scipy.stats.false_discovery_control(method="by")`` for the Benjamini-Yekutieli step.
"""

from __future__ import annotations

import json
import math
import os
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import pandas_agree as pa
from pandas_agree._core.alt_test import benjamini_yekutieli, compare_means
from pandas_agree.errors import (
    ColumnNotFoundError,
    DuplicateRatingError,
    InvalidParameterError,
    MissingInSetError,
    NoEligibleHumansError,
    ValueTypeError,
)
from pandas_agree.tasks.models.alt_test import exact_set_similarity

# ---------------------------------------------------------------------------------------------
# An independent implementation from the paper's definitions


def _set_sim(name: str, a: frozenset, b: frozenset) -> Fraction:
    """1 - d for the set distances, from their definitions (Jaccard 1908, Dice 1945,
    Passonneau 2006 section 3.3 for MASI's monotonicity weights)."""
    inter, union = len(a & b), len(a | b)
    jac = Fraction(inter, union) if union else Fraction(1)
    dice = Fraction(2 * inter, len(a) + len(b)) if (a or b) else Fraction(1)
    if name == "jaccard":
        return jac
    if name == "dice":
        return dice
    if a == b:
        mono, pen = Fraction(1), Fraction(0)
    elif inter and (a <= b or b <= a):
        mono, pen = Fraction(2, 3), Fraction(1, 3)
    elif inter:
        mono, pen = Fraction(1, 3), Fraction(2, 3)
    else:
        mono, pen = Fraction(0), Fraction(1)
    if name == "masi":
        return jac * mono
    if name == "masi_dice":
        return 1 - (1 - dice) * pen
    return 1 - (1 - jac) * pen  # masi_jaccard


def _score(similarity, x, ys):
    """S_i(x): exact Fraction for labels and sets, float otherwise."""
    n = len(ys)
    if similarity == "accuracy":
        return Fraction(sum(x == y for y in ys), n)
    if similarity == "neg_rmse":
        return -math.sqrt(sum((x - y) ** 2 for y in ys) / n)
    if isinstance(similarity, str):
        return sum((_set_sim(similarity, x, y) for y in ys), Fraction(0)) / n
    return sum(similarity(x, y) for y in ys) / n


def _geq(a, b):
    """a >= b, a tie within 1e-12 (relative above 1) for floats, exact for fractions."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a >= b
    return a - b >= -1e-12 * max(1.0, abs(a), abs(b))


def _by_reject(p: list[float], q: float) -> list[bool]:
    m = len(p)
    c = sum(1 / k for k in range(1, m + 1))
    order = sorted(range(m), key=lambda i: p[i])
    r = 0
    for rank, i in enumerate(order, start=1):
        if p[i] <= rank * q / (m * c):
            r = rank
    out = [False] * m
    for i in order[:r]:
        out[i] = True
    return out


def _p_value(d: list[int], eps: float, test: str) -> float:
    n = len(d)
    if test == "wilcoxon":
        shifted = np.array(d, dtype=float) - eps
        if not shifted.any():
            return 1.0
        return float(stats.wilcoxon(shifted, alternative="less").pvalue)
    mean = Fraction(sum(d), n)
    var = sum(((x - mean) ** 2 for x in d), Fraction(0)) / (n - 1)
    if var == 0:
        return 0.0 if mean < Fraction(eps) else 1.0
    t = (float(mean) - eps) / math.sqrt(float(var) / n)
    return float(stats.t.cdf(t, n - 1))


def oracle(
    df, candidate, humans, eps, similarity="accuracy", q=0.05, min_items=30, test="t", by=None
):
    """Per human (and domain): n, rho_f, rho_h, p, rejected; per domain omega, rho."""
    ann = {}
    dom = {}
    for row in df.itertuples(index=False):
        v = row.value
        if v is None or (isinstance(v, float) and math.isnan(v)):
            continue
        ann.setdefault(row.coder, {})[row.unit] = v
        if by is not None:
            dom[row.unit] = getattr(row, by)
    domains = sorted(set(dom.values())) if by is not None else [None]
    rows = []
    for g in domains:
        for j in humans:
            items = [
                i
                for i in ann.get(j, {})
                if i in ann[candidate]
                and (g is None or dom[i] == g)
                and any(k != j and i in ann.get(k, {}) for k in humans)
            ]
            wf, wh = [], []
            for i in items:
                others = [ann[k][i] for k in humans if k != j and i in ann.get(k, {})]
                s_f = _score(similarity, ann[candidate][i], others)
                s_h = _score(similarity, ann[j][i], others)
                wf.append(int(_geq(s_f, s_h)))
                wh.append(int(_geq(s_h, s_f)))
            if len(items) < min_items:
                rows.append({"domain": g, "human": j, "n": len(items), "tested": False})
                continue
            d = [b - a for a, b in zip(wf, wh)]
            rows.append(
                {
                    "domain": g,
                    "human": j,
                    "n": len(items),
                    "tested": True,
                    "rho_f": Fraction(sum(wf), len(items)),
                    "rho_h": Fraction(sum(wh), len(items)),
                    "mean_d": Fraction(sum(d), len(items)),
                    "p": _p_value(d, eps, test),
                }
            )
    tested = [r for r in rows if r["tested"]]
    for r, rej in zip(tested, _by_reject([r["p"] for r in tested], q)):
        r["rejected"] = rej
    per_domain = {}
    for g in domains:
        mine = [r for r in tested if r["domain"] == g]
        if mine:
            per_domain[g] = (
                Fraction(sum(r["rejected"] for r in mine), len(mine)),
                sum((r["rho_f"] for r in mine), Fraction(0)) / len(mine),
            )
    return rows, per_domain


# ---------------------------------------------------------------------------------------------
# Random data


def _random_frame(kind: str, seed: int, n_items: int = 90, n_humans: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    humans = [f"h{k}" for k in range(n_humans)]
    coders = [*humans, "m1", "m2"]
    rows = []
    for i in range(n_items):
        gold = int(rng.integers(0, 4))
        for c in coders:
            # h4 annotates one item in ten (left out, but still one of the "other humans");
            # the other humans miss 30 % of the items, the candidates 10 %
            p_miss = 0.1 if c.startswith("m") else 0.3
            if (c == "h4" and i % 10) or rng.random() < p_miss:
                continue
            noisy = gold if rng.random() < (0.7 if c != "m2" else 0.5) else int(rng.integers(0, 4))
            if kind == "labels":
                v = "abcd"[noisy]
            elif kind == "ints":
                v = noisy + 1
            elif kind == "floats":
                v = float(noisy) + round(float(rng.normal(0, 0.3)), 1)
            else:
                elems = {noisy, *(x for x in range(4) if rng.random() < 0.25)}
                v = frozenset("wxyz"[x] for x in elems)
            rows.append((i, c, v, "dom" + str(i % 2)))
    df = pd.DataFrame(rows, columns=["unit", "coder", "value", "domain"])
    if kind == "floats":  # m1 copies h0 on some items: exact ties among floats
        h0 = df[df.coder == "h0"].set_index("unit")["value"]
        m1 = (df.coder == "m1") & df.unit.isin(h0.index[::3])
        df.loc[m1, "value"] = df.loc[m1, "unit"].map(h0).to_numpy()
    return df


def _check(res, df, candidates, eps, similarity, q, min_items, test, by):
    humans = sorted(set(df.coder) - set(candidates))
    for c in candidates:
        rows, per_domain = oracle(df, c, humans, eps, similarity, q, min_items, test, by)
        for r in rows:
            key = (c, r["domain"], r["human"]) if by else (c, r["human"])
            if r["n"] == 0 and key not in res.table.index:
                # a human with no annotation in a domain has no row there
                assert by and not ((df.coder == r["human"]) & (df[by] == r["domain"])).any()
                continue
            got = res.table.loc[key]
            assert got["n_items"] == r["n"]
            if not r["tested"]:
                assert np.isnan(got["p_value"]) and not got["rejected"]
                assert "min_items" in got["reason"]
                continue
            assert got["rho_f"] == float(r["rho_f"])
            assert got["rho_h"] == float(r["rho_h"])
            assert got["mean_d"] == float(r["mean_d"])
            assert got["p_value"] == pytest.approx(r["p"], abs=1e-12, rel=1e-12)
            assert bool(got["rejected"]) == r["rejected"]
        for g, (omega, rho) in per_domain.items():
            if by:
                row = res.domains.loc[(c, g)]
            else:
                row = res.summary.loc[c]
            assert row["winning_rate"] == float(omega)
            assert row["advantage_probability"] == float(rho)
            assert bool(row["passed"]) == (omega >= Fraction(1, 2))


CASES = [
    pytest.param("labels", "accuracy", "t", None, id="labels-accuracy-t"),
    pytest.param("labels", "accuracy", "wilcoxon", None, id="labels-accuracy-wilcoxon"),
    pytest.param("labels", "accuracy", "t", "domain", id="labels-accuracy-domains"),
    pytest.param("ints", "neg_rmse", "t", None, id="ints-neg_rmse-t"),
    pytest.param("floats", "neg_rmse", "t", "domain", id="floats-neg_rmse-domains"),
    pytest.param("floats", "neg_rmse", "wilcoxon", None, id="floats-neg_rmse-wilcoxon"),
    pytest.param("sets", "jaccard", "t", None, id="sets-jaccard-t"),
    pytest.param("sets", "masi", "t", "domain", id="sets-masi-domains"),
    pytest.param("sets", "dice", "wilcoxon", None, id="sets-dice-wilcoxon"),
    pytest.param("sets", "masi_dice", "t", None, id="sets-masi_dice-t"),
    pytest.param("sets", "masi_jaccard", "t", None, id="sets-masi_jaccard-t"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "similarity", "test", "by"), CASES)
@pytest.mark.parametrize("seed", [0, 1])
def test_matches_the_definition_on_random_data(kind, similarity, test, by, seed):
    df = _random_frame(kind, seed)
    before = df.copy()
    eps, q, min_items = 0.1, 0.05, 12
    res = pa.alt_test(
        df,
        candidate=["m1", "m2"],
        epsilon=eps,
        similarity=similarity,
        q=q,
        test=test,
        min_items=min_items,
        by=by,
    )
    _check(res, df, ["m1", "m2"], eps, similarity, q, min_items, test, by)
    pd.testing.assert_frame_equal(df, before)
    # the left-out sparse human is listed with its reason
    assert res.table.xs("h4", level="human")["reason"].str.contains("min_items").all()


def test_callable_similarity_matches_the_definition():
    df = _random_frame("ints", 3)

    def closeness(x, y):
        return 1.0 / (1.0 + abs(x - y))

    res = pa.alt_test(df, candidate="m1", epsilon=0.05, similarity=closeness, min_items=12)
    _check(res, df, ["m1"], 0.05, closeness, 0.05, 12, "t", None)


def test_weighted_set_distance_matches_the_definition():
    # Weighted Jaccard (element weights) has no exact form here: floats, ties within 1e-12.
    df = _random_frame("sets", 5)
    w = {"w": 1.0, "x": 2.5, "y": 0.5, "z": 4.0}

    def similarity(x, y):
        return 1 - pa.distances.weighted_jaccard(x, y, weights=w)

    res = pa.alt_test(
        df,
        candidate=["m1", "m2"],
        epsilon=0.1,
        similarity="weighted_jaccard",
        weights=w,
        min_items=12,
    )
    _check(res, df, ["m1", "m2"], 0.1, similarity, 0.05, 12, "t", None)


def test_p_values_equal_scipy_ttest_1samp():
    df = _random_frame("labels", 4)
    humans = sorted(set(df.coder) - {"m1", "m2"})
    res = pa.alt_test(df, candidate="m2", epsilon=0.1, min_items=12, humans=humans)
    ann = {c: g.set_index("unit")["value"].to_dict() for c, g in df.groupby("coder")}
    for j in humans:
        row = res.table.loc[("m2", j)]
        if np.isnan(row["p_value"]):
            continue
        d = []
        for i, y in ann[j].items():
            others = [ann[k][i] for k in humans if k != j and i in ann[k]]
            if i not in ann["m2"] or not others:
                continue
            s_f = sum(o == ann["m2"][i] for o in others)
            s_h = sum(o == y for o in others)
            d.append(int(s_h >= s_f) - int(s_f >= s_h))
        want = stats.ttest_1samp(d, 0.1, alternative="less")
        assert row["p_value"] == pytest.approx(want.pvalue, rel=1e-12, abs=1e-15)
        assert row["statistic"] == pytest.approx(want.statistic, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# A case worked by hand


def test_worked_example_by_hand():
    # Three humans A, B, C and a candidate F on four items (labels):
    #   item 1: A=x B=x C=y F=x    item 2: A=x B=y C=y F=y
    #   item 3: A=y B=y C=y F=x    item 4: A=x B=x C=x F=x
    # Human A, others B and C: item 1 S(F)=1/2 S(A)=1/2 tie (Wf=Wh=1, d=0); item 2 S(F)=1,
    # S(A)=0 (d=-1); item 3 S(F)=0, S(A)=1 (d=1); item 4 tie (d=0).
    # rho_f(A) = 3/4, rho_h(A) = 3/4, mean d = 0.
    rows = []
    table = {"A": "xxyx", "B": "xyyx", "C": "yyyx", "F": "xyxx"}
    for c, labels in table.items():
        rows += [(i + 1, c, v) for i, v in enumerate(labels)]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    res = pa.alt_test(df, candidate="F", epsilon=0.1, min_items=2)
    a = res.table.loc[("F", "A")]
    assert (a["n_items"], a["rho_f"], a["rho_h"], a["mean_d"]) == (4, 0.75, 0.75, 0.0)
    # t = (0 - 0.1) / (sqrt(2/3) / 2) with 3 degrees of freedom
    t = -0.1 / (math.sqrt(2 / 3) / 2)
    assert a["statistic"] == pytest.approx(t, rel=1e-12)
    assert a["p_value"] == pytest.approx(stats.t.cdf(t, 3), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Edge cases


def _frame(table: dict[str, list]) -> pd.DataFrame:
    rows = [(i, c, v) for c, vals in table.items() for i, v in enumerate(vals) if v is not None]
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


def test_one_human_tested():
    # h1 on all 40 items, h2 on items 0-9, h3 on items 10-39: with min_items=31 only h1 is
    # tested (m = 1) and the Benjamini-Yekutieli threshold is q itself.
    rng = np.random.default_rng(7)
    n = 40
    h1 = list(rng.choice(list("ab"), n))
    h2 = [*h1[:10], *[None] * 30]
    h3 = [None] * 10 + list(rng.choice(list("ab"), 30))
    df = _frame({"h1": h1, "h2": h2, "h3": h3, "f": list(rng.choice(list("ab"), n))})
    res = pa.alt_test(df, candidate="f", epsilon=0.2, min_items=31)
    assert res.summary.loc["f", "n_humans"] == 1
    assert res.summary.loc["f", "n_left_out"] == 2
    row = res.table.loc[("f", "h1")]
    assert row["n_items"] == 40
    assert bool(row["rejected"]) == (row["p_value"] <= 0.05)
    assert res.winning_rate == float(row["rejected"])
    _check(res, df, ["f"], 0.2, "accuracy", 0.05, 31, "t", None)


def test_no_eligible_human_is_an_error():
    df = _frame({"h1": list("abab"), "h2": list("abba"), "f": list("aabb")})
    with pytest.raises(NoEligibleHumansError, match=r"'f'.*4.*min_items=30"):
        pa.alt_test(df, candidate="f", epsilon=0.1)
    # one human only: no other human, so no item at all
    df1 = _frame({"h1": list("abab") * 10, "f": list("aabb") * 10})
    with pytest.raises(NoEligibleHumansError, match="is 0"):
        pa.alt_test(df1, candidate="f", epsilon=0.1)


@pytest.mark.parametrize(
    ("eps", "p", "word"),
    [
        pytest.param(0.1, 0.0, "limit 0", id="mean-below-epsilon"),
        pytest.param(0.0, 1.0, "limit 1", id="mean-equals-epsilon"),
    ],
)
def test_all_d_equal_gives_the_limit_and_a_reason(eps, p, word):
    # f copies h1 on every item: every S(f) = S(h1), every d = 0.
    rng = np.random.default_rng(3)
    h1 = list(rng.choice(list("abc"), 40))
    df = _frame(
        {
            "h1": h1,
            "h2": list(rng.choice(list("abc"), 40)),
            "h3": list(rng.choice(list("abc"), 40)),
            "f": h1,
        }
    )
    res = pa.alt_test(df, candidate="f", epsilon=eps)
    row = res.table.loc[("f", "h1")]
    assert (row["rho_f"], row["rho_h"], row["mean_d"]) == (1.0, 1.0, 0.0)
    assert row["p_value"] == p
    assert word in row["reason"] and "undefined" in row["reason"]
    assert np.isnan(row["statistic"]) if eps == 0 else row["statistic"] == -np.inf
    # the copied human is rejected when p = 0: the candidate is as good as that human
    assert bool(row["rejected"]) == (p == 0.0)
    _check(res, df, ["f"], eps, "accuracy", 0.05, 30, "t", None)


def test_all_d_minus_one_and_wilcoxon_all_equal_epsilon():
    # f always strictly better than h3 (h3 disagrees with h1 = h2 = f): d = -1 on every item.
    df = _frame(
        {"h1": list("ab") * 20, "h2": list("ab") * 20, "h3": list("ba") * 20, "f": list("ab") * 20}
    )
    res = pa.alt_test(df, candidate="f", epsilon=0.1)
    row = res.table.loc[("f", "h3")]
    assert (row["rho_f"], row["rho_h"], row["mean_d"], row["p_value"]) == (1.0, 0.0, -1.0, 0.0)
    # Wilcoxon with epsilon 0 on h1 (all d = 0): nothing to rank, p = 1 with a reason
    res_w = pa.alt_test(df, candidate="f", epsilon=0.0, test="wilcoxon")
    row_w = res_w.table.loc[("f", "h1")]
    assert row_w["p_value"] == 1.0
    assert "no difference to rank" in row_w["reason"]


def test_ties_count_for_both_and_floats_never_split_a_tie():
    # Two other humans split 0.1 / 0.3 around f = 0.2 and h = 0.2 + 1e-17 rounding noise:
    # 0.1 + 0.2 != 0.3 in floats, but the scores are equal to 1e-12.
    a, b = 0.1 + 0.2, 0.3
    assert a != b
    sign = compare_means(np.array([a]), np.array([b]), np.array([1]), exact=False)
    assert sign.tolist() == [0]
    # Exact labels: f and h1 each match one of the two others -> tie, W_f = W_h = 1.
    df = _frame({"h1": ["x"] * 30, "h2": ["x"] * 30, "h3": ["y"] * 30, "f": ["y"] * 30})
    res = pa.alt_test(df, candidate="f", epsilon=0.1)
    row = res.table.loc[("f", "h1")]
    assert (row["rho_f"], row["rho_h"], row["mean_d"]) == (1.0, 1.0, 0.0)


def test_set_ties_are_exact():
    # MASI similarities 1/3 * 1/2 = 1/6 and 2/3 * 1/4 = 1/6 are a true tie; in floats
    # (1/3) * 0.5 and (2/3) * 0.25 may differ in the last bit.
    f = frozenset
    assert exact_set_similarity("masi", 1, 2, 2) == Fraction(1, 9)
    df = _frame(
        {
            "h1": [f("ab")] * 30,
            "h2": [f("bc")] * 30,
            "f": [f("ac")] * 30,
            "h3": [f("abcd")] * 30,
        }
    )
    res = pa.alt_test(df, candidate="f", epsilon=0.1, similarity="masi")
    _check(res, df, ["f"], 0.1, "masi", 0.05, 30, "t", None)


def test_near_ties_of_set_similarities_are_decided_exactly():
    # Float similarities off by up to 1e-10 (far above rounding, beyond the 1e-12 tie
    # tolerance): every difference of means within 1e-9 is decided again in fractions, so
    # the signs are those of exact arithmetic.
    from pandas_agree._core.alt_test import leave_one_out_sums
    from pandas_agree.tasks.models.alt_test import _Scorer, _signs

    rng = np.random.default_rng(11)
    sets = [frozenset(s) for s in ("a", "ab", "bc", "ac", "abc", "abcd", "cd", "")]
    n_items, n_humans = 300, 4
    codes = rng.integers(0, len(sets), size=(n_items, n_humans))
    present = rng.random((n_items, n_humans)) < 0.8
    cand = rng.integers(0, len(sets), size=n_items)
    exact = np.array([[_set_sim("masi", a, b) for b in sets] for a in sets], dtype=object)
    noisy = np.array(
        [[float(exact[a, b]) + 1e-10 * (a - b) for b in range(len(sets))] for a in range(len(sets))]
    )
    scorer = _Scorer(
        "masi",
        lambda a, b: noisy[a, b],
        exact=False,
        exact_pair=lambda a, b: exact[a, b],
    )
    sums_h, n_other = leave_one_out_sums(codes, present, scorer.pair)
    eligible, sign = _signs(codes, present, sums_h, n_other, cand, scorer)
    n_ties = 0
    for i, j in zip(*np.nonzero(eligible)):
        others = [codes[i, k] for k in range(n_humans) if k != j and present[i, k]]
        diff = sum(exact[cand[i], y] for y in others) - sum(exact[codes[i, j], y] for y in others)
        assert sign[i, j] == (diff > 0) - (diff < 0)
        n_ties += diff == 0
    assert n_ties > 50


def test_label_counts_equal_the_pairwise_sums(monkeypatch):
    # The count-based sums of "accuracy" (dense and sorted tables) equal the pairwise sums.
    import pandas_agree._core.alt_test as core

    rng = np.random.default_rng(2)
    codes = rng.integers(0, 5, size=(200, 6))
    present = rng.random(codes.shape) < 0.7
    probe = rng.integers(0, 5, size=200)
    for dense in (core.DENSE_COUNTS, 0):
        monkeypatch.setattr(core, "DENSE_COUNTS", dense)
        for p in (None, probe):
            got = core.leave_one_out_matches(codes, present, p)
            want = core.leave_one_out_sums(codes, present, np.equal, p)
            np.testing.assert_array_equal(got[0], want[0])
            np.testing.assert_array_equal(got[1], want[1])


def test_a_candidate_that_copies_a_human():
    df = _random_frame("labels", 5, n_items=120)
    h0 = df[df.coder == "h0"]
    copy = h0.assign(coder="copy")
    df2 = pd.concat([df[~df.coder.isin(["m1", "m2"])], copy], ignore_index=True)
    res = pa.alt_test(df2, candidate="copy", epsilon=0.1, min_items=12)
    row = res.table.loc[("copy", "h0")]
    assert (row["rho_f"], row["rho_h"], row["mean_d"], row["p_value"]) == (1.0, 1.0, 0.0, 0.0)
    assert row["rejected"]
    _check(res, df2, ["copy"], 0.1, "accuracy", 0.05, 12, "t", None)


def test_exact_set_similarity_agrees_with_the_library_distances():
    for name in ("jaccard", "dice", "masi", "masi_dice", "masi_jaccard"):
        func = getattr(pa.distances, name)
        for na in range(6):
            for nb in range(6):
                for inter in range(min(na, nb) + 1):
                    a = frozenset(range(na))
                    b = frozenset(range(na - inter, na - inter + nb))
                    assert len(a & b) == inter
                    want = _set_sim(name, a, b)
                    assert exact_set_similarity(name, inter, na, nb) == want
                    assert 1 - func(a, b) == pytest.approx(float(want), abs=1e-15)


# ---------------------------------------------------------------------------------------------
# Benjamini-Yekutieli


@pytest.mark.parametrize("seed", range(5))
def test_benjamini_yekutieli_matches_the_definition_and_scipy(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 30))
    p = np.concatenate([rng.uniform(0, 0.01, m // 2), rng.uniform(0, 1, m - m // 2)])
    q = 0.05
    rejected, adjusted = benjamini_yekutieli(p, q)
    assert rejected.tolist() == _by_reject(p.tolist(), q)
    if not hasattr(stats, "false_discovery_control"):  # scipy >= 1.11
        pytest.skip("this scipy has no false_discovery_control")
    scipy_adj = stats.false_discovery_control(p, method="by")
    np.testing.assert_allclose(adjusted, scipy_adj, rtol=1e-12)
    assert ((scipy_adj <= q) == rejected).all()


def test_benjamini_yekutieli_over_domains_pools_all_p_values():
    df = _random_frame("labels", 6, n_items=160)
    res = pa.alt_test(df, candidate="m1", epsilon=0.15, by="domain", min_items=12)
    tested = res.table[res.table["p_value"].notna()]
    rejected, _ = benjamini_yekutieli(tested["p_value"].to_numpy(), 0.05)
    assert (tested["rejected"].to_numpy() == rejected).all()
    s = res.summary.loc["m1"]
    passed = res.domains.loc["m1", "passed"]
    assert s["domains_passed"] == passed.sum() and s["n_domains"] == 2


# ---------------------------------------------------------------------------------------------
# Results, accessor, bad input


def test_result_properties_repr_and_accessor():
    df = pa.datasets.model_annotations()
    res = df.agree.alt_test(candidate="model_a", epsilon=0.15)
    assert float(res) == res.winning_rate
    assert res.to_frame().equals(res.table)
    assert repr(res).startswith("AltTestResult(candidate='model_a', winning_rate=")
    many = pa.alt_test(df, candidate=["model_c", "model_a"], epsilon=0.15)
    assert many.candidates == ["model_a", "model_c"]  # ranked by rho
    with pytest.raises(InvalidParameterError, match="several candidates"):
        _ = many.winning_rate
    dom = pa.alt_test(df, candidate="model_a", epsilon=0.15, by="domain")
    with pytest.raises(InvalidParameterError, match="per domain"):
        _ = dom.passed
    assert "passes in" in repr(dom)
    # each candidate is tested against the humans only: adding model_b changes nothing
    one = pa.alt_test(df, candidate="model_a", epsilon=0.15, humans=[f"h{k}" for k in range(1, 7)])
    pd.testing.assert_frame_equal(
        one.table.loc["model_a"],
        pa.alt_test(
            df[~df.coder.isin(["model_b", "model_c"])], candidate="model_a", epsilon=0.15
        ).table.loc["model_a"],
    )


def test_a_candidate_among_the_humans_is_refused():
    df = pa.datasets.model_annotations()
    with pytest.raises(InvalidParameterError) as caught:
        pa.alt_test(df, candidate="model_a", epsilon=0.15, humans=["h1", "model_a"])
    assert str(caught.value) == (
        "`humans` lists 'model_a', which `candidate` names too; a candidate is compared with the "
        "humans, never counted among them"
    )


BAD = [
    pytest.param(
        {"candidate": "gpt-x"}, InvalidParameterError, "`candidate` 'gpt-x'", id="unknown-candidate"
    ),
    pytest.param(
        {"humans": ["h1", "model_a"]},
        InvalidParameterError,
        "`humans` lists 'model_a'",
        id="candidate-also-human",
    ),
    pytest.param(
        {"humans": ["h1", "hx"]}, InvalidParameterError, "`humans` 'hx'", id="unknown-human"
    ),
    pytest.param(
        {"epsilon": 1.0}, InvalidParameterError, r"`epsilon`.*\[0, 1\).*got 1.0", id="epsilon-1"
    ),
    pytest.param(
        {"epsilon": -0.1}, InvalidParameterError, r"`epsilon`.*got -0.1", id="epsilon-negative"
    ),
    pytest.param(
        {"epsilon": True}, InvalidParameterError, r"`epsilon`.*got True", id="epsilon-bool"
    ),
    pytest.param({"q": 0}, InvalidParameterError, r"`q`.*got 0", id="q"),
    pytest.param({"test": "z"}, InvalidParameterError, r"`test`.*got 'z'", id="test"),
    pytest.param({"min_items": 1}, InvalidParameterError, r"`min_items`.*got 1", id="min_items"),
    pytest.param(
        {"similarity": "rmse"},
        InvalidParameterError,
        r"`similarity`.*got 'rmse'",
        id="unknown-similarity",
    ),
    pytest.param(
        {"similarity": "interval"},
        InvalidParameterError,
        r"`similarity` 'interval'.*not a set",
        id="alpha-distance",
    ),
    pytest.param(
        {"similarity": "neg_rmse"},
        ValueTypeError,
        r"'neg_rmse' needs numbers.*'positive'",
        id="neg_rmse-on-text",
    ),
    pytest.param(
        {"similarity": "jaccard"}, ValueTypeError, "set-valued cells", id="set-on-scalars"
    ),
    pytest.param({"by": "genre"}, ColumnNotFoundError, "`by` column 'genre'", id="by-column"),
    pytest.param(
        {"similarity": "weighted_jaccard"},
        InvalidParameterError,
        "needs element weights",
        id="weights-missing",
    ),
]


@pytest.mark.parametrize(("kwargs", "error", "match"), BAD)
def test_bad_input_raises_a_typed_error_naming_the_argument(kwargs, error, match):
    df = pa.datasets.model_annotations()
    args = {"candidate": "model_a", "epsilon": 0.15, **kwargs}
    with pytest.raises(error, match=match):
        pa.alt_test(df, **args)


def test_epsilon_is_required():
    with pytest.raises(TypeError, match="epsilon"):
        pa.alt_test(pa.datasets.model_annotations(), candidate="model_a")  # type: ignore[call-arg]


def test_values_that_do_not_fit_the_similarity():
    floats = _random_frame("floats", 0)
    with pytest.raises(ValueTypeError, match=r"'accuracy' compares labels.*non-integer"):
        pa.alt_test(floats, candidate="m1", epsilon=0.1)
    sets = _random_frame("sets", 0)
    with pytest.raises(ValueTypeError, match="'neg_rmse' needs numbers"):
        pa.alt_test(sets, candidate="m1", epsilon=0.1, similarity="neg_rmse")
    # integral floats (an int column with NaN) are labels
    ints = _random_frame("ints", 0)
    ints.loc[0, "value"] = np.nan
    ints["value"] = ints["value"].astype(float)
    res = pa.alt_test(ints, candidate="m1", epsilon=0.1, min_items=12)
    assert res.summary.loc["m1", "n_humans"] >= 1
    dup = pd.concat([ints.iloc[:2], ints.iloc[1:2]])
    with pytest.raises(DuplicateRatingError, match="more than one value"):
        pa.alt_test(dup, candidate="m1", epsilon=0.1)
    holed = sets.copy()
    holed.at[holed.index[0], "value"] = ["w", None]
    with pytest.raises(MissingInSetError, match="missing element"):
        pa.alt_test(holed, candidate="m1", epsilon=0.1, similarity="jaccard")


def test_callable_similarity_errors_are_typed():
    df = _random_frame("ints", 0)

    def boom(x, y):
        return 1 / 0

    with pytest.raises(InvalidParameterError, match="`similarity` 'boom' raised ZeroDivisionError"):
        pa.alt_test(df, candidate="m1", epsilon=0.1, similarity=boom, min_items=12)
    with pytest.raises(InvalidParameterError, match="finite"):
        pa.alt_test(
            df, candidate="m1", epsilon=0.1, similarity=lambda x, y: float("nan"), min_items=12
        )


# ---------------------------------------------------------------------------------------------
# Published values: the authors' notebook (needs the AltTest data, not redistributable here)

# alt_test_example.ipynb, cell "Example (paper's data)": similarity and epsilon per data set
# (its datasets_scoring_functions and datasets_epsilons) and the printed results.
_SETTINGS = {
    "wax": ("accuracy", 0.1),
    "lgbteen": ("accuracy", 0.2),
    "mtbench": ("accuracy", 0.2),
    "framing": ("accuracy", 0.15),
    "cebab_aspects": ("accuracy", 0.1),
    "summeval": ("neg_rmse", 0.2),
    "10k_prompts": ("neg_rmse", 0.15),
    "cebab_stars": ("neg_rmse", 0.1),
    "lesion": ("neg_rmse", 0.15),
}
_PUBLISHED = """
wax gemini_flash 0.38 0.69
wax gemini_pro 0.50 0.74
wax gpt-4o 0.50 0.73
wax llama-31 0.00 0.57
wax gpt-4o-mini 0.00 0.59
wax mistral-v03 0.00 0.50
lgbteen gemini_flash 0.25 0.71
lgbteen gemini_pro 0.00 0.67
lgbteen gpt-4o 0.75 0.77
lgbteen llama-31 0.00 0.72
lgbteen gpt-4o-mini 0.75 0.76
lgbteen mistral-v03 0.25 0.75
mtbench gemini_flash 0.00 0.72
mtbench gemini_pro 0.00 0.76
mtbench gpt-4o 0.00 0.77
mtbench llama-31 0.00 0.69
mtbench gpt-4o-mini 0.00 0.74
mtbench mistral-v03 0.00 0.68
framing gemini_flash 1.00 0.83
framing gemini_pro 1.00 0.91
framing gpt-4o 1.00 0.92
framing llama-31 0.50 0.80
framing gpt-4o-mini 1.00 0.87
framing mistral-v03 0.25 0.80
cebab_aspects gemini_flash 0.70 0.91
cebab_aspects gemini_pro 0.90 0.94
cebab_aspects gpt-4o 0.90 0.93
cebab_aspects llama-31 0.60 0.89
cebab_aspects gpt-4o-mini 0.50 0.90
cebab_aspects mistral-v03 0.10 0.81
summeval gemini_flash 0.00 0.46
summeval gemini_pro 0.00 0.44
summeval gpt-4o 0.00 0.48
summeval llama-31 0.00 0.58
summeval gpt-4o-mini 0.00 0.54
summeval mistral-v03 0.00 0.62
10k_prompts gemini_flash 0.31 0.67
10k_prompts gemini_pro 0.08 0.63
10k_prompts gpt-4o 0.69 0.76
10k_prompts llama-31 0.15 0.67
10k_prompts gpt-4o-mini 0.92 0.80
10k_prompts mistral-v03 0.15 0.67
cebab_stars gemini_flash 0.60 0.82
cebab_stars gemini_pro 0.80 0.87
cebab_stars gpt-4o 0.90 0.90
cebab_stars llama-31 0.60 0.85
cebab_stars gpt-4o-mini 0.90 0.89
cebab_stars mistral-v03 0.50 0.83
lesion gemini_flash 0.17 0.71
lesion gemini_pro 1.00 0.81
lesion gpt-4o 0.00 0.62
lesion gpt-4o-mini 0.67 0.73
"""


def _published() -> dict[str, dict[str, tuple[float, float]]]:
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for line in _PUBLISHED.strip().splitlines():
        name, llm, wr, ap = line.split()
        out.setdefault(name, {})[llm] = (float(wr), float(ap))
    return out


@pytest.mark.skipif(
    not os.environ.get("ALTTEST_DATA"),
    reason="set ALTTEST_DATA to the data/ folder of github.com/nitaytech/AltTest",
)
@pytest.mark.parametrize("name", list(_SETTINGS))
def test_reproduces_the_authors_notebook(name):
    folder = Path(os.environ["ALTTEST_DATA"]) / name
    humans = json.loads((folder / "human_annotations.json").read_text())
    llms = json.loads((folder / "llm_annotations.json").read_text())
    rows = [(i, h, v) for h, a in humans.items() for i, v in a.items()]
    rows += [(i, m, v) for m, a in llms.items() for i, v in a.items()]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    similarity, eps = _SETTINGS[name]
    res = pa.alt_test(
        df, candidate=list(llms), epsilon=eps, similarity=similarity, humans=list(humans)
    )
    for llm, (wr, ap) in _published()[name].items():
        got = res.summary.loc[llm]
        assert round(got["winning_rate"], 2) == wr, llm
        assert round(got["advantage_probability"], 2) == ap, llm
        assert bool(got["passed"]) == (wr >= 0.5)


def test_the_published_table_is_complete():
    # 9 data sets: 6 LLMs each, 4 for lesion (as printed).
    pub = _published()
    assert set(pub) == set(_SETTINGS)
    assert sum(len(v) for v in pub.values()) == 52
    assert re.fullmatch(r"[\d.]+", str(pub["wax"]["gpt-4o"][0]))
