"""candidate_report (pandas_agree.tasks.models.candidates): the candidates among the humans.

Checked against:

* Krippendorff (2011), section C: a candidate that copies coder D and replaces D gives the
  published nominal alpha 0.743 (113/152) and interval alpha 0.849;
* frames built by hand: alpha with the candidate replacing each human equals
  ``pa.alpha`` of the replaced frame; pairwise means and the z-score from ``pa.cohen_kappa``
  and ``pa.alpha`` per pair; the majority label by plain counting; per-label agreement from
  ``pa.category_agreement`` of the replaced frames;
* the paired bootstrap, replicate by replicate, against alpha of resampled frames built by
  hand (units drawn with the same multiplicities, each copy a new unit).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree._core.bootstrap import multiplicities
from pandas_agree.errors import (
    ColumnNotFoundError,
    InvalidParameterError,
    NoPairableUnitsError,
)


def _study(seed: int = 0, n_units: int = 40, kind: str = "labels") -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(n_units):
        gold = int(rng.integers(0, 3))
        for c, noise, miss in [
            ("h1", 0.2, 0.2),
            ("h2", 0.3, 0.2),
            ("h3", 0.3, 0.3),
            ("h4", 0.4, 0.3),
            ("m1", 0.15, 0.1),
            ("m2", 0.5, 0.0),
        ]:
            if rng.random() < miss:
                continue
            v = gold if rng.random() > noise else int(rng.integers(0, 3))
            if kind == "labels":
                val = "abc"[v]
            elif kind == "numbers":
                val = v + 1
            else:
                val = frozenset("abc"[: v + 1]) | ({"d"} if rng.random() < 0.3 else set())
            rows.append((u, c, val, f"g{u % 4}"))
    return pd.DataFrame(rows, columns=["unit", "coder", "value", "doc"])


def _replaced_by_hand(df, human, cand):
    humans = df[df.coder.str.startswith("h")]
    units = set(humans.loc[humans.coder == human, "unit"])
    rows = [r for r in humans.itertuples(index=False) if r.coder != human]
    rows += [
        (r.unit, human, r.value, r.doc)
        for r in df.itertuples(index=False)
        if r.coder == cand and r.unit in units
    ]
    return pd.DataFrame(rows, columns=df.columns)


HUMANS = ["h1", "h2", "h3", "h4"]


@pytest.mark.parametrize(
    ("kind", "distance"),
    [
        pytest.param("labels", "nominal", id="labels-nominal"),
        pytest.param("numbers", "interval", id="numbers-interval"),
        pytest.param("numbers", "ordinal", id="numbers-ordinal"),
        pytest.param("sets", "masi", id="sets-masi"),
    ],
)
@pytest.mark.slow
def test_replacement_alpha_equals_alpha_of_the_frame_built_by_hand(kind, distance):
    df = _study(1, kind=kind)
    before = df.copy()
    rep = pa.candidate_report(df, candidates=["m1", "m2"], distance=distance, ci=None)
    pd.testing.assert_frame_equal(df, before)
    alpha_h = pa.alpha(df[df.coder.isin(HUMANS)], distance).alpha
    for c in ["m1", "m2"]:
        alphas = []
        for h in HUMANS:
            want = pa.alpha(_replaced_by_hand(df, h, c), distance).alpha
            assert rep.replacements.loc[(c, h), "alpha"] == pytest.approx(want, abs=1e-12)
            n_units = df[(df.coder == h)].unit.nunique()
            missing = len(set(df[df.coder == h].unit) - set(df[df.coder == c].unit))
            assert rep.replacements.loc[(c, h), "n_units"] == n_units
            assert rep.replacements.loc[(c, h), "n_missing"] == missing
            alphas.append(want)
        row = rep.table.loc[c]
        assert row["alpha_humans"] == pytest.approx(alpha_h, abs=1e-12)
        assert row["alpha_replaced_mean"] == pytest.approx(np.mean(alphas), abs=1e-12)
        assert row["alpha_replaced_min"] == pytest.approx(min(alphas), abs=1e-12)
        assert row["alpha_replaced_max"] == pytest.approx(max(alphas), abs=1e-12)
        assert row["delta_alpha"] == pytest.approx(np.mean(alphas) - alpha_h, abs=1e-12)


@pytest.mark.parametrize(
    ("distance", "published"),
    [
        pytest.param("nominal", 113 / 152, id="nominal-0.743"),
        pytest.param("interval", 0.849, id="interval-0.849"),
    ],
)
def test_a_copy_of_a_coder_replacing_it_gives_the_published_alpha(distance, published):
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: alpha of
    # coders A-D. X copies D; with X in D's place the data are unchanged.
    df = pa.datasets.krippendorff_2011()
    x = df[df.coder == "D"].assign(coder="X")
    rep = pa.candidate_report(pd.concat([df, x]), candidates="X", distance=distance, ci=None)
    assert rep.replacements.loc[("X", "D"), "alpha"] == pytest.approx(published, abs=5e-4)
    assert rep.table.loc["X", "alpha_humans"] == pytest.approx(published, abs=5e-4)
    assert rep.replacements.loc[("X", "D"), "delta_alpha"] == pytest.approx(0, abs=1e-12)


def test_pairwise_means_and_z_score_by_hand():
    df = _study(2)
    rep = pa.candidate_report(df, candidates=["m1", "m2"], ci=None)
    assert rep.metric == "kappa"

    def kappa(a, b):
        pair = df[df.coder.isin([a, b])]
        return float(pa.cohen_kappa(pair, coders=[a, b]))

    a_h = [np.mean([kappa(j, k) for k in HUMANS if k != j]) for j in HUMANS]
    among = np.mean([kappa(a, b) for i, a in enumerate(HUMANS) for b in HUMANS[i + 1 :]])
    for c in ["m1", "m2"]:
        a_c = np.mean([kappa(c, h) for h in HUMANS])
        row = rep.table.loc[c]
        assert row["agreement_candidate"] == pytest.approx(a_c, abs=1e-12)
        assert row["agreement_humans"] == pytest.approx(among, abs=1e-12)
        sd = math.sqrt(sum((x - np.mean(a_h)) ** 2 for x in a_h) / (len(a_h) - 1))
        assert row["z_score"] == pytest.approx((a_c - np.mean(a_h)) / sd, abs=1e-12)


def test_pairwise_alpha_for_other_distances():
    df = _study(3, kind="numbers")
    rep = pa.candidate_report(df, candidates="m1", distance="interval", ci=None, humans=HUMANS)
    assert rep.metric == "alpha"

    def alpha(a, b):
        return pa.alpha(df[df.coder.isin([a, b])], "interval").alpha

    a_c = np.mean([alpha("m1", h) for h in HUMANS])
    assert rep.table.loc["m1", "agreement_candidate"] == pytest.approx(a_c, abs=1e-12)
    assert np.isnan(rep.table.loc["m1", "majority_accuracy"]) and rep.labels is None


def test_majority_label_by_counting():
    df = _study(4, n_units=60)
    rep = pa.candidate_report(df, candidates=["m1", "m2"], ci=None)
    humans = df[df.coder.isin(HUMANS)]
    overall = Counter(humans.value)
    majority, ties = {}, 0
    for u, g in humans.groupby("unit"):
        counts = Counter(g.value)
        top = max(counts.values())
        tied = [v for v, n in counts.items() if n == top]
        ties += len(tied) > 1
        # documented rule: most used by the humans overall, then the first in sorted order
        majority[u] = sorted(tied, key=lambda v: (-overall[v], v))[0]
    for c in ["m1", "m2"]:
        cand = df[df.coder == c].set_index("unit").value
        both = [u for u in majority if u in cand.index]
        acc = np.mean([majority[u] == cand[u] for u in both])
        pair = pd.DataFrame(
            [(u, "maj", majority[u]) for u in both] + [(u, "c", cand[u]) for u in both],
            columns=["unit", "coder", "value"],
        )
        kappa = float(pa.cohen_kappa(pair, coders=["maj", "c"]))
        row = rep.table.loc[c]
        assert row["majority_accuracy"] == pytest.approx(acc, abs=1e-12)
        assert row["majority_kappa"] == pytest.approx(kappa, abs=1e-12)
        assert row["n_majority_units"] == len(both)
        assert row["n_majority_ties"] == ties
    assert ties > 0  # the tie rule was exercised


def test_per_label_agreement_is_the_mean_over_the_replaced_frames():
    df = _study(5)
    rep = pa.candidate_report(df, candidates="m2", ci=None, humans=HUMANS)
    cats = ["a", "b", "c"]
    base = pa.category_agreement(df[df.coder.isin(HUMANS)], categories=cats)
    per = [pa.category_agreement(_replaced_by_hand(df, h, "m2"), categories=cats) for h in HUMANS]
    table = rep.labels.loc["m2"]
    np.testing.assert_allclose(table["humans_kappa"], base["kappa"], atol=1e-12)
    np.testing.assert_allclose(
        table["replaced_specific_agreement"],
        np.mean([p["specific_agreement"] for p in per], axis=0),
        atol=1e-12,
    )
    np.testing.assert_allclose(
        table["replaced_kappa"], np.mean([p["kappa"] for p in per], axis=0), atol=1e-12
    )
    shares = df[df.coder == "m2"].value.value_counts(normalize=True).reindex(cats, fill_value=0)
    np.testing.assert_allclose(table["candidate_share"], shares, atol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("by", [None, "doc"], ids=["units", "clusters"])
def test_paired_bootstrap_replicate_by_replicate(by):
    df = _study(6, n_units=24)
    n_boot, seed, level = 12, 9, 0.9
    rep = pa.candidate_report(
        df, candidates="m1", ci=level, n_boot=n_boot, rng=seed, by=by, humans=HUMANS
    )
    humans = df[df.coder.isin(HUMANS)]
    fit = pa.alpha(humans).fit
    pairable = [u for u, m in zip(fit.coded.units, fit.counts.m) if m > 0]
    if by is None:
        items = [[u] for u in pairable]
    else:
        docs = humans.groupby("unit").doc.first()
        names = list(pd.unique(docs.reindex(fit.coded.units)))
        items = [[u for u in pairable if docs[u] == d] for d in names]
    draws = multiplicities(len(items), n_boot, np.random.default_rng(seed))

    def resample(frame, counts):
        by_unit = dict(tuple(frame.groupby("unit")))
        parts = [
            by_unit[u].assign(unit=f"{u}#{copy}")
            for item, k in zip(items, counts)
            for copy in range(k)
            for u in item
            if u in by_unit
        ]
        return pd.concat(parts, ignore_index=True)

    reps_h, reps_delta = [], []
    replaced = {h: _replaced_by_hand(df, h, "m1") for h in HUMANS}
    for counts in draws:
        a_h = pa.alpha(resample(humans, counts)).alpha
        a_r = [pa.alpha(resample(replaced[h], counts)).alpha for h in HUMANS]
        reps_h.append(a_h)
        reps_delta.append(np.mean(a_r) - a_h)
    q = [(1 - level) / 2, (1 + level) / 2]
    low, high = np.quantile(reps_h, q)
    row = rep.table.loc["m1"]
    assert (row["alpha_humans_low"], row["alpha_humans_high"]) == pytest.approx((low, high))
    low, high = np.quantile(reps_delta, q)
    assert (row["delta_alpha_low"], row["delta_alpha_high"]) == pytest.approx((low, high))


def test_result_and_accessor():
    df = pa.datasets.model_annotations()
    rep = df.agree.candidate_report(
        candidates=["model_a", "model_c"], humans=[f"h{k}" for k in range(1, 7)], n_boot=50, rng=0
    )
    assert list(rep.table.index) == ["model_a", "model_c"]
    assert rep.table.columns[-1] == "reason"
    assert rep.to_frame().equals(rep.table)
    assert repr(rep).startswith("CandidateReport('model_a': delta_alpha=")
    assert set(rep.replacements.index.get_level_values("human")) == {f"h{k}" for k in range(1, 7)}
    assert rep.table.loc["model_a", "delta_alpha_low"] <= rep.table.loc["model_a", "delta_alpha"]


def test_a_candidate_among_the_humans_is_refused():
    df = pa.datasets.model_annotations()
    with pytest.raises(InvalidParameterError) as caught:
        pa.candidate_report(df, candidates="model_a", n_boot=10, humans=["h1", "model_a"])
    assert str(caught.value) == (
        "`humans` lists 'model_a', which `candidates` names too; a candidate is compared with the "
        "humans, never counted among them"
    )


BAD = [
    pytest.param(
        {"candidates": "gpt-x"},
        InvalidParameterError,
        "`candidates` 'gpt-x'",
        id="unknown-candidate",
    ),
    pytest.param(
        {"humans": ["h1", "model_a"]},
        InvalidParameterError,
        "`humans` lists 'model_a'",
        id="candidate-also-human",
    ),
    pytest.param({"humans": ["h1"]}, InvalidParameterError, "at least two", id="one-human"),
    pytest.param({"ci": 1.5}, InvalidParameterError, r"`ci`.*got 1.5", id="ci"),
    pytest.param({"n_boot": 0}, InvalidParameterError, r"`n_boot`.*got 0", id="n_boot"),
    pytest.param({"by": "genre"}, ColumnNotFoundError, "`by` column 'genre'", id="by"),
    pytest.param(
        {"by": "coder"}, InvalidParameterError, "other than unit, coder", id="by-not-constant"
    ),
]


@pytest.mark.parametrize(("kwargs", "error", "match"), BAD)
def test_bad_input(kwargs, error, match):
    df = pa.datasets.model_annotations()
    args = {"candidates": "model_a", "n_boot": 10, **kwargs}
    with pytest.raises(error, match=match):
        pa.candidate_report(df, **args)


def test_humans_with_no_common_unit_cannot_give_alpha():
    df = pd.DataFrame(
        [(1, "h1", "a"), (2, "h2", "b"), (1, "m", "a"), (2, "m", "b")],
        columns=["unit", "coder", "value"],
    )
    with pytest.raises(NoPairableUnitsError):
        pa.candidate_report(df, candidates="m", ci=None)


def test_clusters_must_be_constant_within_a_unit():
    df = _study(7)
    df.loc[df.index[0], "doc"] = "elsewhere"
    with pytest.raises(InvalidParameterError, match="constant within a unit"):
        pa.candidate_report(df, candidates="m1", by="doc", n_boot=10)


@pytest.mark.slow
def test_plot_candidates():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    df = pa.datasets.model_annotations()
    models = ["model_a", "model_b", "model_c"]
    res = pa.alt_test(df, candidate=models, epsilon=0.15)
    rep = pa.candidate_report(df, candidates=models, n_boot=50, rng=1)
    left, right = pa.plot.candidates(res, rep, title="t")
    texts = [t.get_text() for t in left.texts]
    assert texts == ["ω = 1.00 (passes)", "ω = 0.83 (passes)", "ω = 0.00 (fails)"]
    # the large markers sit at rho and delta alpha
    big = [c for c in left.collections if c.get_sizes()[0] == 90]
    assert [float(c.get_offsets()[0][0]) for c in big] == list(res.summary.advantage_probability)
    marks = [c for c in right.collections if c.get_sizes()[0] == 60]
    np.testing.assert_allclose([c.get_offsets()[0][0] for c in marks], rep.table.delta_alpha)
    plt.close("all")
    ax = pa.plot.candidates(pa.alt_test(df, candidate=models, epsilon=0.15, by="domain"))
    assert ax.texts[0].get_text() == "passes in 3 of 3 domains"
    plt.close("all")
    with pytest.raises(InvalidParameterError, match="`result` must be the result"):
        pa.plot.candidates(rep)
    with pytest.raises(InvalidParameterError, match="no row for candidate 'model_b'"):
        pa.plot.candidates(
            res,
            pa.candidate_report(
                df,
                candidates=["model_a", "model_c"],
                ci=None,
                humans=[f"h{k}" for k in range(1, 7)],
            ),
        )
