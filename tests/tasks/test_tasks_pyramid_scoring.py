"""Pyramid scores and the score-reliability study of seed 003 (Passonneau 2005).

Sources cited below:
- [P05] Passonneau, R. J. (2005). Evaluating an Evaluation Method: The Pyramid Method Applied
  to 2003 DUC Data. CUCS-010-06 (seed 003, /work/shared/papers/003_*.txt).
- [NPM07] Nenkova, Passonneau and McKeown (2007). The pyramid method. ACM TSLP 4(2),
  section 3.1 (MAX formula).
- [DUCView] DUCView 1.4, ``DucView.getScore`` (the DUC 2005/2006 scorer; decompiled source in
  github.com/saptab/DucView, src/ducview/DucView.java lines 2089-2238).
- [P06] Passonneau, R. J. (2006). Measuring Agreement on Set-valued Items (MASI), LREC
  (seed 000), Figures 1 and 5 (bundled in pandas_agree.datasets).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_h
from scipy import stats

import pandas_agree as pa
from pandas_agree import pyramid_scoring as ps
from pandas_agree import pyramid_study as st
from pandas_agree.datasets import (
    pyramid_figure1,
    pyramid_figure5,
    pyramid_study_peers,
    pyramid_study_pyramids,
)
from pandas_agree.errors import ColumnNotFoundError, InvalidParameterError, ValueTypeError

# ---------------------------------------------------------------------------------------------
# Brute force from the definitions, written here independently of the library
# ---------------------------------------------------------------------------------------------


def brute_max(weights: list[int], x: float) -> float:
    """[P05, section 2]: sample SCUs without replacement from the top tier down until the
    sample has x SCUs; a fractional x adds that fraction of the next SCU [NPM07, 3.1]."""
    ordered = sorted(weights, reverse=True)
    whole = min(math.floor(x), len(ordered))
    total = float(sum(ordered[:whole]))
    if whole < len(ordered):
        total += (x - math.floor(x)) * ordered[whole]
    return total


def brute_scores(peers: pd.DataFrame, pyramid: pd.DataFrame, how: str = "round") -> dict:
    """One peer at a time with Python containers: weights = distinct summaries per SCU."""
    out = {}
    for d, pyr in pyramid.groupby("docset"):
        w = {}
        for scu, summary in zip(pyr["scu"], pyr["summary"]):
            if pd.notna(scu):
                w.setdefault(scu, set()).add(summary)
        w = {k: len(v) for k, v in w.items()}
        n_models = pyr["summary"].nunique()
        avg = sum(w.values()) / n_models
        x_mod = {
            "round": math.floor(avg + 0.5),
            "floor": math.floor(avg),
            "ceil": math.ceil(avg),
            "fractional": avg,
        }[how]
        for p, rows in peers[peers["docset"] == d].groupby("peer"):
            scus = list(rows["scu"])
            n = len(scus)
            obs = sum(w[s] for s in {s for s in scus if pd.notna(s)})
            mx_o = brute_max(list(w.values()), n)
            mx_m = brute_max(list(w.values()), x_mod)
            out[(d, p)] = (n, obs, mx_o, obs / mx_o, mx_m, obs / mx_m if mx_m else np.nan)
    return out


def random_study(rng: np.random.Generator, n_docsets: int = 3, n_peers: int = 5):
    pyr_rows, peer_rows = [], []
    for d in range(n_docsets):
        n_models = int(rng.integers(2, 8))
        n_scu = int(rng.integers(1, 12))
        for s in range(n_scu):
            w = int(rng.integers(1, n_models + 1))
            for m in rng.choice(n_models, size=w, replace=False):
                pyr_rows.append((f"D{d}", s, f"M{m}"))
        pyr_rows.append((f"D{d}", None, "M0"))  # an unassigned word
        for p in range(n_peers):
            k = int(rng.integers(1, 9))
            for _ in range(k):
                scu = int(rng.integers(0, n_scu)) if rng.random() < 0.8 else None
                peer_rows.append((f"D{d}", f"p{p}", scu))
    pyr = pd.DataFrame(pyr_rows, columns=["docset", "scu", "summary"])
    peers = pd.DataFrame(peer_rows, columns=["docset", "peer", "scu"])
    return peers, pyr


# ---------------------------------------------------------------------------------------------
# 1. Pyramid scores
# ---------------------------------------------------------------------------------------------


def hand_pyramid() -> pd.DataFrame:
    """Four model summaries M1-M4; SCUs a (weight 4), b, c (3), d (2), e, f, g (1)."""
    contributors = {
        "a": ["M1", "M2", "M3", "M4"],
        "b": ["M1", "M2", "M3"],
        "c": ["M2", "M3", "M4"],
        "d": ["M1", "M4"],
        "e": ["M1"],
        "f": ["M2"],
        "g": ["M3"],
    }
    rows = [(scu, m) for scu, ms in contributors.items() for m in ms]
    return pd.DataFrame(rows, columns=["scu", "summary"]).assign(docset="D1")


def test_hand_computed_scores_step_by_step():
    # Tiers [NPM07, 3.1]: T4 = {a}, T3 = {b, c}, T2 = {d}, T1 = {e, f, g}.
    # The peer expresses b (3), d (2), f (1) and one content unit matching no SCU.
    peers = pd.DataFrame({"docset": "D1", "peer": "p", "scu": ["b", "d", "f", None]})
    got = ps.pyramid_scores(peers, hand_pyramid()).iloc[0]
    # n_scus = 4 content units, the unmatched one included ([DUCView]: "Total SCUs in peer"
    # adds the "SCUs not in the pyramid").
    assert got["n_scus"] == 4
    # OBS = 3 + 2 + 1 = 6 [P05, section 2: "a sum of the weights of the SCUs that occur in a
    # peer annotation"].
    assert got["obs"] == 6
    # MAX for X = 4: all of T4 (4), all of T3 (3 + 3), then 1 SCU of T2 (2) = 12;
    # [NPM07] j = 2 since |T4| + |T3| = 3 < 4 <= 4: 4*1 + 3*2 + 2*(4 - 3) = 12.
    assert got["max_original"] == 12
    assert got["score_original"] == pytest.approx(6 / 12)
    # Average SCUs per model summary = contributors / models = (4+3+3+2+1+1+1) / 4 = 3.75,
    # rounded half up as [DUCView] (Math.round) to X = 4: MAX = 12 again.
    assert got["max_modified"] == 12
    assert got["score_modified"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("how", "x", "expected_max"),
    [
        pytest.param("round", 4, 12.0, id="round-3.75-to-4"),
        pytest.param("ceil", 4, 12.0, id="ceil"),
        # X = 3: 4 + 3 + 3 = 10
        pytest.param("floor", 3, 10.0, id="floor"),
        # X = 3.75: 10 + 0.75 * 2 (the next SCU, of T2) = 11.5  [NPM07] with a real X
        pytest.param("fractional", 3.75, 11.5, id="fractional"),
    ],
)
def test_modified_size_roundings(how, x, expected_max):
    peers = pd.DataFrame({"docset": "D1", "peer": "p", "scu": ["b", "d", "f", None]})
    got = ps.pyramid_scores(peers, hand_pyramid(), modified_size=how).iloc[0]
    assert got["max_modified"] == expected_max
    assert got["score_modified"] == pytest.approx(6 / expected_max)
    sizes = ps.pyramid_sizes(hand_pyramid(), modified_size=how).iloc[0]
    assert sizes["average_scus"] == 3.75
    assert sizes["modified_size"] == x
    assert sizes["max_modified"] == expected_max


def test_round_half_up_not_to_even():
    # 2 models, contributors 5 -> average 2.5. Java's Math.round [DUCView] gives 3;
    # numpy's round-half-to-even would give 2.
    pyr = pd.DataFrame({"scu": [1, 1, 2, 3, 4], "summary": ["A", "B", "A", "B", "A"]})
    sizes = ps.pyramid_sizes(pyr, docset=None).iloc[0]
    assert sizes["average_scus"] == 2.5
    assert sizes["modified_size"] == 3
    assert sizes["max_modified"] == 2 + 1 + 1


def test_repeated_scu_counts_in_size_not_in_obs():
    # [DUCView]: numerator sums each distinct peer SCU once; "Total SCUs in peer" adds the
    # "extra contributors" of an SCU found twice.
    peers = pd.DataFrame({"docset": "D1", "peer": "p", "scu": ["a", "a", "e"]})
    got = ps.pyramid_scores(peers, hand_pyramid()).iloc[0]
    assert (got["n_scus"], got["obs"], got["max_original"]) == (3, 5, 4 + 3 + 3)


def test_figure5_pyramids_bundled():
    # [P06, Figure 5]: A1's pyramid has SCU-101 (Sum1, Sum2: weight 2) and SCU-102 (Sum3:
    # weight 1); A2's SCU-201 (weight 2) and SCU-202 (weight 1). 3 contributors / 3 models
    # = 1 SCU per model summary, so the modified MAX is the top SCU's weight, 2.
    fig5 = pyramid_figure5().rename(columns={"annotator": "pyramid"})
    peers = pd.DataFrame(
        {"pyramid": ["A1", "A1", "A2"], "peer": ["x", "y", "x"], "scu": [101, 102, 202]}
    )
    got = ps.pyramid_scores(peers, fig5, docset=None, pyramid_by="pyramid")
    assert got.columns.tolist() == [
        "pyramid", "peer", "n_scus", "obs", "max_original", "score_original",
        "max_modified", "score_modified",
    ]  # fmt: skip
    assert got["obs"].tolist() == [2, 1, 1]
    assert got["max_original"].tolist() == [2, 2, 2]
    assert got["max_modified"].tolist() == [2.0, 2.0, 2.0]
    assert got["score_modified"].tolist() == [1.0, 0.5, 0.5]
    # mean SCU weight of each pyramid is 1.5, as pyramid.mean_scu_weight gives [P06]
    sizes = ps.pyramid_sizes(fig5, docset=None, pyramid_by="pyramid")
    assert sizes["mean_scu_weight"].tolist() == [1.5, 1.5]


def test_figure1_a2_pyramid_and_a1_missing_summaries():
    # [P06, Figure 1]: A2's SCU has contributors from Sum1..Sum5: weight 5, the only SCU.
    fig1 = pyramid_figure1()
    a2 = fig1[fig1["annotator"] == "A2"]
    got = ps.pyramid_scores(pd.DataFrame({"docset": [31038], "peer": ["p"], "scu": [1]}), a2)
    assert got.loc[0, "obs"] == 5
    assert got.loc[0, "score_original"] == 1.0
    # Figure 1 prints no summaries for A1's spans 5-7: their weights are unknown, so
    # scoring against A1's pyramid must refuse rather than guess.
    a1 = fig1[fig1["annotator"] == "A1"]
    with pytest.raises(InvalidParameterError, match=r"`summary` column 'summary'.*missing"):
        ps.pyramid_scores(pd.DataFrame({"docset": [31038], "peer": ["p"], "scu": [1]}), a1)


@pytest.mark.slow
@pytest.mark.parametrize("how", ps.MODIFIED_SIZES)
@pytest.mark.parametrize("seed", range(6))
def test_differential_against_brute_force(seed, how):
    peers, pyr = random_study(np.random.default_rng(seed))
    got = ps.pyramid_scores(peers, pyr, modified_size=how)
    want = brute_scores(peers, pyr, how)
    assert len(got) == len(want)
    for row in got.itertuples(index=False):
        n, obs, mo, so, mm, sm = want[(row.docset, row.peer)]
        assert (row.n_scus, row.obs) == (n, obs)
        assert row.max_original == pytest.approx(mo)
        assert row.score_original == pytest.approx(so)
        assert row.max_modified == pytest.approx(mm)
        assert row.score_modified == pytest.approx(sm, nan_ok=True)


@given(
    weights=st_h.lists(st_h.integers(1, 6), min_size=1, max_size=12),
    picks=st_h.lists(st_h.one_of(st_h.none(), st_h.integers(0, 11)), min_size=1, max_size=10),
)
@settings(max_examples=40, deadline=None)
@pytest.mark.slow
def test_original_score_is_a_proportion(weights, picks):
    # OBS sums the weights of k <= n_scus distinct SCUs, which cannot exceed the k heaviest,
    # hence not MAX(n_scus): 0 <= score_original <= 1 [P05, section 2: "analogous to
    # precision"]; one more unmatched content unit never raises it.
    pyr = pd.DataFrame(
        [(i, f"M{m}") for i, w in enumerate(weights) for m in range(w)], columns=["scu", "summary"]
    )
    scus = [p if p is None else p % len(weights) for p in picks]
    peers = pd.DataFrame({"peer": "p", "scu": pd.array(scus, dtype="Int64")})
    got = ps.pyramid_scores(peers, pyr, docset=None).iloc[0]
    assert 0 <= got["score_original"] <= 1
    more = pd.concat([peers, pd.DataFrame({"peer": ["p"], "scu": pd.array([None], "Int64")})])
    assert ps.pyramid_scores(more, pyr, docset=None).iloc[0]["score_original"] <= (
        got["score_original"] + 1e-12
    )


def test_row_order_and_label_types_do_not_change_scores():
    peers, pyr = random_study(np.random.default_rng(11))
    base = ps.pyramid_scores(peers, pyr).set_index(["docset", "peer"]).sort_index()
    shuffled = (
        ps.pyramid_scores(peers.sample(frac=1, random_state=1), pyr.sample(frac=1, random_state=2))
        .set_index(["docset", "peer"])
        .sort_index()
    )
    pd.testing.assert_frame_equal(base, shuffled)
    # categorical docset and integer column names
    cat = peers.assign(docset=peers["docset"].astype("category"))
    renamed = ps.pyramid_scores(
        cat.rename(columns={"docset": 0, "peer": 1, "scu": 2}),
        pyr.rename(columns={"docset": 0, "scu": 2, "summary": 3}),
        docset=0, peer=1, scu=2, summary=3,
    )  # fmt: skip
    assert renamed.columns[:2].tolist() == [0, 1]
    np.testing.assert_allclose(
        renamed.sort_values([0, 1])["score_modified"].to_numpy(),
        base["score_modified"].to_numpy(),
    )


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_nullable_scu_ids_and_bundled_study():
    peers, pyr = pyramid_study_peers(), pyramid_study_pyramids()
    assert peers["scu"].dtype == "Int64"
    got = ps.pyramid_scores(peers, pyr, annotator="annotator")
    for row in got.itertuples(index=False):
        sub = peers[(peers["docset"] == row.docset) & (peers["peer"] == row.peer)]
        sub = sub[sub["annotator"] == row.annotator]
        want = brute_scores(sub.drop(columns="annotator"), pyr[pyr["docset"] == row.docset])
        n, obs, mo, _, _, sm = want[(row.docset, row.peer)]
        assert (row.n_scus, row.obs, row.max_original) == (n, obs, mo)
        assert row.score_modified == pytest.approx(sm)


def test_inputs_are_not_modified():
    peers, pyr = random_study(np.random.default_rng(3))
    p0, y0 = peers.copy(deep=True), pyr.copy(deep=True)
    res = ps.pyramid_scores(peers, pyr)
    ps.sentence_weight_variation(peers.assign(sentence=1), pyr)
    pd.testing.assert_frame_equal(peers, p0)
    pd.testing.assert_frame_equal(pyr, y0)
    res.iloc[0, 0] = "changed"
    pd.testing.assert_frame_equal(peers, p0)


def test_zero_modified_size_is_nan_with_documented_reason():
    # 3 models, one SCU of weight 1: 1/3 SCU per model summary rounds to 0, so there is no
    # ideal summary for the modified score: NaN (documented), the original score stays.
    pyr = pd.DataFrame({"scu": [1, None, None], "summary": ["A", "B", "C"]})
    got = ps.pyramid_scores(pd.DataFrame({"peer": ["p"], "scu": [1]}), pyr, docset=None)
    assert got.loc[0, "score_original"] == 1.0
    assert got.loc[0, "max_modified"] == 0.0
    assert np.isnan(got.loc[0, "score_modified"])


@pytest.mark.parametrize(
    ("peers", "kwargs", "exc", "match"),
    [
        pytest.param(
            pd.DataFrame({"docset": "D1", "peer": "p", "scu": ["zz"]}),
            {},
            InvalidParameterError,
            r"`scu` ids in `peers` that are not in their pyramid: "
            r"\('D1', 'zz'\)",
            id="unknown-scu",
        ),
        pytest.param(
            pd.DataFrame({"docset": "D9", "peer": "p", "scu": ["a"]}),
            {},
            InvalidParameterError,
            r"pyramid\(s\) that are not in `pyramid`: \('D9',\)",
            id="unknown-docset",
        ),
        pytest.param(
            pd.DataFrame({"docset": "D1", "peer": "p", "scu": ["a"]}),
            {"modified_size": "nearest"},
            InvalidParameterError,
            r"`modified_size` must be one of \['round', 'floor', 'ceil', 'fractional'\], "
            r"got 'nearest'",
            id="bad-rounding",
        ),
        pytest.param(
            pd.DataFrame({"docset": "D1", "system": "p", "scu": ["a"]}),
            {},
            ColumnNotFoundError,
            r"`peer` column 'peer' is not in the DataFrame",
            id="no-peer",
        ),
        pytest.param(
            pd.DataFrame({"docset": "D1", "peer": [None], "scu": ["a"]}),
            {},
            InvalidParameterError,
            r"`peer` column 'peer' of `peers` has missing labels",
            id="missing-peer",
        ),
        pytest.param(
            pd.DataFrame({"docset": "D1", "peer": "p", "scu": ["a"]}),
            {"peer": "docset"},
            InvalidParameterError,
            r"`peer` and `docset` name the same column 'docset'",
            id="same-column",
        ),
        pytest.param(
            {"peer": ["p"]},
            {},
            ValueTypeError,
            r"`peers` must be a pandas DataFrame, got dict",
            id="not-frame",
        ),
        pytest.param(
            pd.DataFrame(columns=["docset", "peer", "scu"]),
            {},
            InvalidParameterError,
            r"`peers` is empty",
            id="empty",
        ),
    ],
)
def test_pyramid_scores_errors(peers, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ps.pyramid_scores(peers, hand_pyramid(), **kwargs)


def test_label_types_must_match_and_all_unmatched_peer():
    pyr = pd.DataFrame({"docset": [1, 1], "scu": [1, 2], "summary": ["A", "B"]})
    bad = pd.DataFrame({"docset": ["1"], "peer": ["p"], "scu": [1]})
    with pytest.raises(
        ValueTypeError,
        match=r"`docset` labels of `peers` \((str|object)\) and of "
        r"`pyramid` \(int64\) cannot be matched",
    ):
        ps.pyramid_scores(bad, pyr)
    with pytest.raises(ValueTypeError, match=r"`scu` labels of `peers` \((str|object)\)"):
        ps.pyramid_scores(bad.assign(docset=1, scu="1"), pyr)
    # a column of missing SCU ids (nothing matched) has no type to compare: score 0
    none = ps.pyramid_scores(pd.DataFrame({"docset": [1], "peer": ["p"], "scu": [None]}), pyr)
    assert none.loc[0, ["n_scus", "obs", "score_original", "score_modified"]].tolist() == [
        1, 0, 0.0, 0.0,
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# 2. Do two annotators' scores agree? (Tables 3 and 5)
# ---------------------------------------------------------------------------------------------


def pair_with_correlation(r: float, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two score vectors of length n whose Pearson correlation is exactly r."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    x = (x - x.mean()) / x.std()
    e = rng.normal(size=n)
    e -= e.mean()
    e -= (e @ x) / (x @ x) * x  # orthogonal to x
    e /= e.std()
    y = r * x + math.sqrt(1 - r * r) * e
    return 0.4 + 0.1 * x, 0.4 + 0.1 * y


# Table 3 [P05, p. 4] and Table 5 [P05, p. 6]: docset, printed r, printed p, printed 95%
# interval; each row on 16 peers ("Sixteen systems", section 2). The r behind a row is
# recovered from its printed interval: each printed bound, +-0.00005, maps under Fisher's z
# (half-width 1.96 / sqrt(16 - 3)) to a range of r; the two ranges must overlap, and at the
# middle of the overlap the library's r must round to the printed r and its interval and p
# to the printed ones, digit for digit. Table 5's original-score row for 30040 (r .84,
# (.5333, .9436)) is left out: its interval implies r = .828 on about 14 peers, inconsistent
# with the printed r and n = 16.
TABLE_3_5 = [
    pytest.param("30042", 0.96, None, (0.8936, 0.9873), id="T3-original-30042"),
    pytest.param("31041", 0.76, None, (0.4234, 0.9120), id="T3-original-31041"),
    pytest.param("31050", 0.74, 0.0011, (0.3856, 0.9040), id="T3-original-31050"),
    pytest.param("30042", 0.97, None, (0.9081, 0.9891), id="T3-modified-30042"),
    pytest.param("31041", 0.83, None, (0.5722, 0.9400), id="T3-modified-31041"),
    pytest.param("31050", 0.73, 0.0014, (0.3612, 0.8987), id="T3-modified-31050"),
    pytest.param("30016", 0.90, None, (0.7304, 0.9652), id="T5-original-30016"),
    pytest.param("30016", 0.91, None, (0.7591, 0.9693), id="T5-modified-30016"),
    # printed r .88, but its interval is that of r = .889 on 16 peers (which rounds to .89;
    # every other row rounds r): the interval is checked, the printed r is not.
    pytest.param("30040", None, None, (0.7029, 0.9611), id="T5-modified-30040"),
]


@pytest.mark.parametrize(("docset", "r_printed", "p_printed", "ci_printed"), TABLE_3_5)
def test_tables_3_and_5_intervals(docset, r_printed, p_printed, ci_printed):
    lo, hi = ci_printed
    h = stats.norm.ppf(0.975) / math.sqrt(16 - 3)
    from_lo = [math.tanh(math.atanh(lo + e) + h) for e in (-5e-5, 5e-5)]
    from_hi = [math.tanh(math.atanh(hi + e) - h) for e in (-5e-5, 5e-5)]
    low, high = max(from_lo[0], from_hi[0]), min(from_lo[1], from_hi[1])
    assert low <= high  # the printed interval is one of n = 16
    r = (low + high) / 2
    x, y = pair_with_correlation(r, 16)
    scores = pd.DataFrame(
        {
            "docset": docset,
            "peer": np.tile(np.arange(16), 2),
            "annotator": np.repeat(["ann1", "ann2"], 16),
            "score_modified": np.concatenate([x, y]),
        }
    )
    got = ps.score_agreement(scores, score="score_modified", pooled=False).iloc[0]
    assert got["n"] == 16
    if r_printed is not None:
        assert round(got["pearson"], 2) == r_printed
    assert round(got["pearson_low"], 4) == lo
    assert round(got["pearson_high"], 4) == hi
    if p_printed is not None:
        assert round(got["pearson_p"], 4) == p_printed


def brute_agreement(x: np.ndarray, y: np.ndarray, conf: float = 0.95) -> dict:
    """Pearson, Spearman (Pearson on average ranks), Fisher intervals and the paired t,
    from their textbook definitions."""
    n = len(x)
    xc, yc = x - x.mean(), y - y.mean()
    r = (xc @ yc) / math.sqrt((xc @ xc) * (yc @ yc))
    t_r = r * math.sqrt((n - 2) / (1 - r * r))
    zc = stats.norm.ppf(0.5 + conf / 2)
    rx, ry = stats.rankdata(x), stats.rankdata(y)
    rxc, ryc = rx - rx.mean(), ry - ry.mean()
    rho = (rxc @ ryc) / math.sqrt((rxc @ rxc) * (ryc @ ryc))
    d = x - y
    t = d.mean() / (d.std(ddof=1) / math.sqrt(n))
    return {
        "pearson": r,
        "pearson_p": 2 * stats.t.sf(abs(t_r), n - 2),
        "pearson_low": math.tanh(math.atanh(r) - zc / math.sqrt(n - 3)),
        "pearson_high": math.tanh(math.atanh(r) + zc / math.sqrt(n - 3)),
        "spearman": rho,
        "spearman_low": math.tanh(math.atanh(rho) - zc * math.sqrt(1.06 / (n - 3))),
        "spearman_high": math.tanh(math.atanh(rho) + zc * math.sqrt(1.06 / (n - 3))),
        "mean_abs_diff": np.abs(d).mean(),
        "mean_diff": d.mean(),
        "t": t,
        "t_p": 2 * stats.t.sf(abs(t), n - 1),
    }


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_score_agreement_against_definitions(seed):
    rng = np.random.default_rng(seed)
    rows = []
    for d in ("D1", "D2"):
        for p in range(9):
            base = rng.uniform(0.1, 0.8)
            for a in ("ann1", "ann2", "ann3"):
                rows.append((d, p, a, round(base + rng.normal(0, 0.08), 2)))
    scores = pd.DataFrame(rows, columns=["docset", "peer", "annotator", "score_original"])
    got = ps.score_agreement(scores, score="score_original", confidence=0.9)
    # three annotators: three pairs, each with two docsets and the pooled row
    assert got[["annotator_a", "annotator_b"]].drop_duplicates().values.tolist() == [
        ["ann1", "ann2"], ["ann1", "ann3"], ["ann2", "ann3"],
    ]  # fmt: skip
    assert got["docset"].tolist() == ["D1", "D2", "pooled"] * 3
    for row in got.itertuples(index=False):
        sub = scores if row.docset == "pooled" else scores[scores["docset"] == row.docset]
        wide = sub.pivot(index=["docset", "peer"], columns="annotator", values="score_original")
        want = brute_agreement(
            wide[row.annotator_a].to_numpy(), wide[row.annotator_b].to_numpy(), 0.9
        )
        for key, value in want.items():
            assert getattr(row, key) == pytest.approx(value, rel=1e-9, abs=1e-12), key
        assert row.reason == ""


def test_two_pyramids_design_of_table_5():
    # [P05, section 4.1, Table 5]: two annotators build pyramids from the same models and
    # each scores the peers against their own pyramid. Pyramid "P2" splits "P1"'s SCU "a"
    # (weight 4) into "a1" (M1, M2) and "a2" (M3, M4), which changes MAX and OBS.
    p1 = hand_pyramid().assign(pyramid="P1")
    p2 = hand_pyramid().assign(pyramid="P2")
    p2["scu"] = np.where(p2["scu"].eq("a"), np.where(p2["summary"] < "M3", "a1", "a2"), p2["scu"])
    pyr = pd.concat([p1, p2], ignore_index=True)
    found = {"p": (["a", "b"], ["a1", "b"]), "q": (["c", "e"], ["c", "e"]),
             "r": (["a", "d", "f"], ["a2", "d", "f"]), "s": (["g"], ["g"])}  # fmt: skip
    rows = [
        ("D1", pyramid, peer, scu)
        for peer, (in_p1, in_p2) in found.items()
        for pyramid, scus in (("P1", in_p1), ("P2", in_p2))
        for scu in scus
    ]
    peers = pd.DataFrame(rows, columns=["docset", "pyramid", "peer", "scu"])
    scores = ps.pyramid_scores(peers, pyr, pyramid_by="pyramid")
    for pyramid, sub in scores.groupby("pyramid"):
        want = brute_scores(
            peers[peers["pyramid"] == pyramid].drop(columns="pyramid"),
            pyr[pyr["pyramid"] == pyramid].drop(columns="pyramid"),
        )
        for row in sub.itertuples(index=False):
            assert row.score_original == pytest.approx(want[("D1", row.peer)][3])
            assert row.score_modified == pytest.approx(want[("D1", row.peer)][5])
    got = ps.score_agreement(scores, by="pyramid", score="score_modified", pooled=False)
    wide = scores.pivot(index="peer", columns="pyramid", values="score_modified")
    x, y = wide["P1"].to_numpy(), wide["P2"].to_numpy()
    assert got.loc[0, ["pyramid_a", "pyramid_b", "n"]].tolist() == ["P1", "P2", 4]
    assert got.loc[0, "pearson"] == pytest.approx(np.corrcoef(x, y)[0, 1])
    assert got.loc[0, "mean_diff"] == pytest.approx(np.mean(x - y))


def test_score_agreement_one_docset_and_row_order():
    rng = np.random.default_rng(7)
    x = rng.uniform(0, 1, 12)
    y = x + rng.normal(0, 0.1, 12)
    scores = pd.DataFrame(
        {"system": np.tile(np.arange(12), 2), "who": np.repeat(["u", "v"], 12),
         "s": np.concatenate([x, y])}
    )  # fmt: skip
    got = ps.score_agreement(scores, by="who", docset=None, peer="system", score="s")
    assert "docset" not in got.columns and len(got) == 1
    want = brute_agreement(x, y)
    for key, value in want.items():
        assert got.loc[0, key] == pytest.approx(value), key
    # levels are compared in order of first appearance, so keep "u" first
    rows = scores.sample(frac=1, random_state=3).sort_values("who", kind="stable")
    shuffled = ps.score_agreement(rows, by="who", docset=None, peer="system", score="s")
    pd.testing.assert_frame_equal(got, shuffled)


def test_score_agreement_unpaired_and_degenerate():
    scores = pd.DataFrame(
        {
            "docset": ["D1"] * 7,
            "peer": [1, 2, 3, 1, 2, 3, 4],
            "annotator": ["a", "a", "a", "b", "b", "b", "b"],
            "score_original": [0.5, 0.5, 0.5, 0.2, 0.3, 0.4, 0.9],
        }
    )
    got = ps.score_agreement(scores, score="score_original", pooled=False).iloc[0]
    # peer 4 was scored only by b: reported, not used
    assert (got["n"], got["n_unpaired"]) == (3, 1)
    # a's scores are constant: no correlation, a reason instead
    assert np.isnan(got["pearson"]) and np.isnan(got["spearman"])
    assert got["reason"] == "constant scores"
    assert got["mean_abs_diff"] == pytest.approx((0.3 + 0.2 + 0.1) / 3)


@pytest.mark.parametrize(
    ("scores", "kwargs", "exc", "match"),
    [
        pytest.param(
            pd.DataFrame({"docset": 1, "peer": [1, 2], "annotator": "a", "s": [0.1, 0.2]}),
            {"score": "s"},
            InvalidParameterError,
            r"`by` column 'annotator' must have at least two levels to compare, got \['a'\]",
            id="one-level",
        ),
        pytest.param(
            pd.DataFrame({"docset": 1, "peer": [1, 1], "annotator": "a", "s": [0.1, 0.2]}),
            {"score": "s"},
            InvalidParameterError,
            r"several rows for the same",
            id="duplicate",
        ),
        pytest.param(
            pd.DataFrame({"docset": 1, "peer": [1, 1], "annotator": ["a", "b"], "s": [0.1, None]}),
            {"score": "s"},
            InvalidParameterError,
            r"`score` column 's' of `scores` has missing",
            id="missing-score",
        ),
        pytest.param(
            pd.DataFrame({"docset": 1, "peer": [1, 1], "annotator": ["a", "b"], "s": ["x", "y"]}),
            {"score": "s"},
            ValueTypeError,
            r"`score` column 's' must be numeric",
            id="text-score",
        ),
        pytest.param(
            pd.DataFrame({"docset": 1, "peer": [1, 1], "annotator": ["a", "b"], "s": [0.1, 0.2]}),
            {"score": "s", "confidence": 95},
            InvalidParameterError,
            r"`confidence` must be a number in \(0, 1\), got 95",
            id="confidence",
        ),
    ],
)
def test_score_agreement_errors(scores, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ps.score_agreement(scores, **kwargs)


# ---------------------------------------------------------------------------------------------
# 3. Do systems and docsets separate? (section 5, Tables 1 and 6)
# ---------------------------------------------------------------------------------------------


def random_scores(rng, n_peers=5, n_docsets=4, reps=2, drop=0):
    rows = [
        (f"p{p}", f"d{d}", 0.3 + 0.05 * p - 0.04 * d + rng.normal(0, 0.05))
        for p in range(n_peers)
        for d in range(n_docsets)
        for _ in range(reps)
    ]
    df = pd.DataFrame(rows, columns=["peer", "docset", "score_modified"])
    if drop:
        df = df.drop(index=rng.choice(len(df), size=drop, replace=False))
    return df


def test_anova_balanced_closed_form():
    # Balanced additive two-way ANOVA (one score per cell), textbook sums of squares:
    # SS_A = b * sum (mean_i. - mean..)^2, SS_B = a * sum (mean_.j - mean..)^2,
    # SS_E = SS_total - SS_A - SS_B on (a-1)(b-1) df.
    df = random_scores(np.random.default_rng(5), reps=1)
    table = df.pivot(index="peer", columns="docset", values="score_modified").to_numpy()
    a, b = table.shape
    grand = table.mean()
    ss_a = b * ((table.mean(axis=1) - grand) ** 2).sum()
    ss_b = a * ((table.mean(axis=0) - grand) ** 2).sum()
    ss_e = ((table - grand) ** 2).sum() - ss_a - ss_b
    df_e = (a - 1) * (b - 1)
    got = st.score_anova(df)
    assert got.loc["peer", "sum_sq"] == pytest.approx(ss_a)
    assert got.loc["docset", "sum_sq"] == pytest.approx(ss_b)
    assert got.loc["Residual", "sum_sq"] == pytest.approx(ss_e)
    assert got["df"].tolist() == [a - 1, b - 1, df_e]
    f_a = (ss_a / (a - 1)) / (ss_e / df_e)
    assert got.loc["peer", "F"] == pytest.approx(f_a)
    assert got.loc["peer", "p"] == pytest.approx(stats.f.sf(f_a, a - 1, df_e))


@pytest.mark.slow  # importing statsmodels takes ~2 s
@pytest.mark.parametrize("drop", [0, 7])
def test_anova_against_statsmodels(drop):
    smf = pytest.importorskip("statsmodels.formula.api")
    sm = pytest.importorskip("statsmodels.api")
    df = random_scores(np.random.default_rng(drop), drop=drop)
    want = sm.stats.anova_lm(smf.ols("score_modified ~ C(peer) + C(docset)", df).fit(), typ=2)
    got = st.score_anova(df)
    np.testing.assert_allclose(got["sum_sq"].to_numpy(), want["sum_sq"].to_numpy(), rtol=1e-9)
    np.testing.assert_allclose(got["df"].to_numpy(), want["df"].to_numpy())
    np.testing.assert_allclose(got["F"].to_numpy()[:2], want["F"].to_numpy()[:2], rtol=1e-9)
    np.testing.assert_allclose(got["p"].to_numpy()[:2], want["PR(>F)"].to_numpy()[:2], rtol=1e-7)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@pytest.mark.parametrize("drop", [0, 5])
def test_one_way_hsd_equals_scipy(drop):
    df = random_scores(np.random.default_rng(10 + drop), drop=drop)
    res = st.tukey_hsd(df, "peer", block=None, confidence=0.9)
    groups = [df.loc[df["peer"] == lvl, "score_modified"].to_numpy() for lvl in res.means.index]
    want = stats.tukey_hsd(*groups)
    ci = want.confidence_interval(confidence_level=0.9)
    k = len(groups)
    for n, (i, j) in enumerate(itertools.combinations(range(k), 2)):
        row = res.pairs.iloc[n]
        assert row["diff"] == pytest.approx(want.statistic[i, j])
        assert row["p"] == pytest.approx(want.pvalue[i, j], rel=1e-6, abs=1e-12)
        assert row["low"] == pytest.approx(ci.low[i, j])
        assert row["high"] == pytest.approx(ci.high[i, j])


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_two_way_hsd_uses_the_two_way_residual():
    # Brute force: residual mean square of the additive model from statsmodels-free normal
    # equations, then Tukey's q = |mean_i - mean_j| / sqrt(MSE / n) on a balanced design.
    df = random_scores(np.random.default_rng(21), reps=2)
    x = pd.get_dummies(df[["peer", "docset"]], drop_first=True).to_numpy(float)
    x = np.column_stack([np.ones(len(df)), x])
    y = df["score_modified"].to_numpy()
    beta = np.linalg.solve(x.T @ x, x.T @ y)
    df_e = len(y) - x.shape[1]
    mse = ((y - x @ beta) ** 2).sum() / df_e
    res = st.tukey_hsd(df, "peer", block="docset")
    assert res.df_resid == df_e and res.mse == pytest.approx(mse)
    means = df.groupby("peer")["score_modified"].mean()
    n = len(df) / means.size
    for row in res.pairs.itertuples(index=False):
        q = abs(means[row.peer_a] - means[row.peer_b]) / math.sqrt(mse / n)
        assert row.q == pytest.approx(q)
        assert row.p == pytest.approx(stats.studentized_range.sf(q, means.size, df_e))
        # reject <=> the simultaneous interval excludes 0 <=> p below 1 - confidence
        assert row.reject == (row.low > 0) == (row.p < 0.05)


def hsd_from_table(rows: list[tuple[list, list]], means: dict) -> st.HSDResult:
    """An HSDResult whose significant pairs are exactly those a printed table lists."""
    order = sorted(means, key=lambda k: -means[k])
    sig = {(a, b) for levels, better in rows for a in levels for b in better}
    pairs = [
        (a, b, means[a], means[b], means[a] - means[b], (a, b) in sig)
        for i, a in enumerate(order)
        for b in order[i + 1 :]
    ]
    frame = pd.DataFrame(pairs, columns=["peer_a", "peer_b", "mean_a", "mean_b", "diff", "reject"])
    frame["p"] = np.where(frame["reject"], 0.01, 0.5)
    return st.HSDResult(
        factor="peer", score="score_modified", block="docset", confidence=0.95, df_resid=100,
        mse=0.01, means=pd.Series([means[k] for k in order], index=order),
        counts=pd.Series(2, index=order), pairs=frame,
    )  # fmt: skip


def test_groups_reproduce_table_1_layout():
    # [P05, Table 1]: sets of peers and the peers they are significantly better than.
    table_1 = [
        ([12], [15, 17, 21, 19, 23, 11, 22, 18]),
        ([13, 16], [15, 17, 21, 19, 23, 11, 22]),
        ([6, 10, 20, 26], [15, 17, 21, 19, 23]),
        ([14, 18], [15, 17]),
        ([19, 11, 22, 23], [15]),
    ]
    # Level means consistent with the table: the set means .53, .50, .46, .42, .35 and the
    # printed order of the "better than" lists (lowest first).
    means = {12: .53, 13: .505, 16: .495, 6: .47, 10: .465, 20: .455, 26: .45, 14: .425,
             18: .415, 22: .37, 11: .355, 23: .345, 19: .33, 21: .30, 17: .25, 15: .19}  # fmt: skip
    got = hsd_from_table(table_1, means).groups()
    assert len(got) == len(table_1)
    for (levels, better), row in zip(table_1, got.itertuples(index=False)):
        assert set(row.levels) == set(levels)
        assert row.better_than == better  # same order as printed
        assert row.n_better == len(better)
    assert got["n_better"].tolist() == [8, 7, 5, 2, 1]  # the "(n=8)", "(n=7)", ... of Table 1


def test_groups_reproduce_table_6_means():
    # [P05, Table 6]: every docset is significantly higher than every lower one. The
    # printed first-column means are the docsets' own means; the second column ("the mean
    # ... for the set") must be the mean of the docsets a row is higher than. The printed
    # means are rounded to .01, so the recomputed set means agree within .01.
    means = {"30016": .55, "31010": .51, "31050": .46, "30040": .42, "30042": .36,
             "31001": .34, "31041": .32, "31038": .23}  # fmt: skip
    printed_second = [0.38, 0.35, 0.33, 0.31, 0.29, 0.27, 0.23]
    order = list(means)
    rows = [([d], order[i + 1 :][::-1]) for i, d in enumerate(order[:-1])]
    got = hsd_from_table(rows, means).groups()
    assert got["levels"].tolist() == [[d] for d in order[:-1]]
    assert got["better_than"].tolist()[0] == [
        "31038",
        "31041",
        "31001",
        "30042",
        "30040",
        "31050",
        "31010",
    ]  # fmt: skip  (the printed order)
    assert got["n_better"].tolist() == [7, 6, 5, 4, 3, 2, 1]
    np.testing.assert_allclose(got["mean_better_than"], printed_second, atol=0.0101)


def test_hsd_errors_and_saturated_design():
    df = random_scores(np.random.default_rng(0), reps=1, n_peers=2, n_docsets=2)
    with pytest.raises(InvalidParameterError, match=r"`confidence` must be a number in \(0, 1\)"):
        st.tukey_hsd(df, confidence=1.5)
    one = pd.DataFrame({"peer": ["a", "b"], "docset": ["x", "y"], "score_modified": [0.1, 0.2]})
    with pytest.raises(InvalidParameterError, match="no residual degrees of freedom"):
        st.tukey_hsd(one, block=None)
    with pytest.raises(InvalidParameterError, match=r"`docset` column 'docset' needs at least two"):
        st.score_anova(df.assign(docset="only"))
    with pytest.raises(InvalidParameterError, match=r"`score` column 'score_modified' has missing"):
        st.score_anova(df.assign(score_modified=np.nan))
    with pytest.raises(ColumnNotFoundError, match=r"`score` column 'nope'"):
        st.score_anova(df, score="nope")


# ---------------------------------------------------------------------------------------------
# 4. Weight variation inside sentences (Table 8)
# ---------------------------------------------------------------------------------------------


def ten_model_pyramid(weights: dict[int, int]) -> pd.DataFrame:
    rows = [(scu, f"M{m}") for scu, w in weights.items() for m in range(w)]
    extra = [(None, f"M{m}") for m in range(10)]  # docset 30042 had ten models [P05, sec. 1]
    return pd.DataFrame(rows + extra, columns=["scu", "summary"])


def test_table_8_rows():
    # [P05, Table 8], peer 13, docset 30042: (n SCUs, sum delta, avg delta) =
    # (4, 8, 2), (8, 14, 1.75), (2, 12, 6). Weights that give these rows when every ordered
    # pair is summed and the sum is averaged over SCUs (sentence 1: weights 2, 2, 3, 3 ->
    # 4 unordered pairs differ by 1 -> 8 over ordered pairs, 8 / 4 = 2; sentence 2: seven
    # SCUs of weight 5 and one of 6 -> 7 -> 14, 14 / 8 = 1.75; sentence 3: 7 and 1 -> 6 ->
    # 12, 12 / 2 = 6).
    weights = {1: 2, 2: 2, 3: 3, 4: 3, 11: 6, 21: 7, 22: 1}
    weights.update({10 + k: 5 for k in range(2, 9)})
    sentences = [(1, s) for s in (1, 2, 3, 4)] + [(2, s) for s in range(11, 19)] + [
        (3, 21), (3, 22)]  # fmt: skip
    peers = pd.DataFrame(sentences, columns=["sentence", "scu"]).assign(peer=13)
    got = ps.sentence_weight_variation(peers, ten_model_pyramid(weights), docset=None)
    assert got["n_scus"].tolist() == [4, 8, 2]
    assert got["sum_delta"].tolist() == [8, 14, 12]
    assert got["mean_delta"].tolist() == [2, 1.75, 6]
    # Over unordered pairs the third sentence could never reach 12 in a ten-model pyramid:
    assert got["pair_sum"].tolist() == [4, 7, 6]
    assert got["pair_mean"].tolist() == pytest.approx([4 / 6, 7 / 28, 6.0])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_sentence_variation_against_brute_force(seed):
    peers, pyr = random_study(np.random.default_rng(seed))
    rng = np.random.default_rng(100 + seed)
    peers = peers.assign(sentence=rng.integers(1, 4, size=len(peers)))
    got = ps.sentence_weight_variation(peers, pyr)
    w = {
        (d, s): g["summary"].nunique()
        for (d, s), g in pyr.dropna(subset=["scu"]).groupby(["docset", "scu"])
    }
    assert got["n_scus"].sum() + got["n_unmatched"].sum() == len(peers)  # no row lost
    for row in got.itertuples(index=False):
        sub = peers[(peers["docset"] == row.docset) & (peers["peer"] == row.peer)]
        sub = sub[sub["sentence"] == row.sentence]
        ws = [w[(row.docset, s)] for s in sub["scu"] if pd.notna(s)]
        ordered = sum(abs(a - b) for i, a in enumerate(ws) for j, b in enumerate(ws) if i != j)
        assert row.n_scus == len(ws)
        assert row.sum_delta == ordered
        assert row.mean_delta == pytest.approx(ordered / len(ws) if ws else np.nan, nan_ok=True)
        pairs = list(itertools.combinations(ws, 2))
        assert row.pair_sum == sum(abs(a - b) for a, b in pairs)
        want_mean = np.mean([abs(a - b) for a, b in pairs]) if pairs else np.nan
        assert row.pair_mean == pytest.approx(want_mean, nan_ok=True)


def test_sentence_variation_missing_sentence():
    peers = pd.DataFrame({"docset": "D1", "peer": "p", "scu": ["a"], "sentence": [None]})
    with pytest.raises(InvalidParameterError, match=r"`sentence` column 'sentence'.*missing"):
        ps.sentence_weight_variation(peers, hand_pyramid())


# ---------------------------------------------------------------------------------------------
# Edges: accessor, package exports, plot
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_accessor_forwards_with_the_function_signature():
    import inspect

    from pandas_agree.frontends.forward import forwarded_parameters

    peers, pyr = pyramid_study_peers(), pyramid_study_pyramids()
    via = peers.agree.pyramid_scores(pyr, annotator="annotator")
    pd.testing.assert_frame_equal(via, ps.pyramid_scores(peers, pyr, annotator="annotator"))
    params = list(inspect.signature(ps.pyramid_scores).parameters)[1:]
    assert forwarded_parameters(type(peers.agree).pyramid_scores) == params
    scores = via
    pd.testing.assert_frame_equal(scores.agree.score_agreement(), ps.score_agreement(scores))


def test_package_exports():
    assert pa.pyramid_scores is ps.pyramid_scores  # the function; the module is pyramid_scoring
    assert pa.pyramid_study is st


@pytest.mark.slow  # importing matplotlib takes ~2 s
def test_score_scatter():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from pandas_agree import plot

    scores = ps.pyramid_scores(
        pyramid_study_peers(), pyramid_study_pyramids(), annotator="annotator"
    )
    ax = plot.score_scatter(scores)
    assert ax.get_xlabel() == "ann1" and ax.get_ylabel() == "ann2"
    # one collection per docset, and the identity line
    assert len(ax.collections) == 4
    line = ax.lines[0]
    np.testing.assert_allclose(line.get_xdata(), line.get_ydata())
    with pytest.raises(InvalidParameterError, match=r"`levels` must name two levels"):
        plot.score_scatter(scores, levels=["ann1"])
    matplotlib.pyplot.close("all")
