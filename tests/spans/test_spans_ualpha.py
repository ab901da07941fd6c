"""Krippendorff's u-alpha family (spans.u_alpha): published values, brute force, bad input.

Published and independently computed values come from the script of
github.com/lindanna/unitized_alpha (commit 11637e7, ``unitized_alpha.py`` and its README),
an implementation of Krippendorff, Mathet, Bouvry & Widlöcher (2016) written apart from this
library. The brute force below computes every coefficient position by position from the
equations (Krippendorff et al. 2016; Krippendorff 2019, section 12.6, eqs. 32-38).
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import DegenerateDataWarning, InvalidParameterError, ValueTypeError

GAP = None  # the gap "value" of the brute force


# ---------------------------------------------------------------------------------------------
# The brute force, from the equations


def _positions(units, length):
    """Per coder: the value (or GAP) and the unit id at every position."""
    val = [GAP] * length
    uid = [None] * length
    for g, (value, s, e) in enumerate(units):
        for p in range(s, e):
            assert val[p] is GAP, "units of one coder must not overlap"
            val[p] = value
            uid[p] = g
    return val, uid


def _document_sums(coders, length):
    """l_ck (eq. 32), S_c (eq. 33) and S*_c of one document; coders: list of unit lists."""
    m = len(coders)
    pos = [_positions(units, length) for units in coders]
    l_ck: dict = {}
    for p in range(length):
        for i in range(m):
            for j in range(m):
                if i != j:
                    key = (pos[i][0][p], pos[j][0][p])
                    l_ck[key] = l_ck.get(key, 0.0) + 1.0 / (m - 1)
    s_c: dict = {}
    s_star: dict = {}
    for i, units in enumerate(coders):
        for value, s, e in units:
            s_c[value] = s_c.get(value, 0.0) + (e - s) ** 2
            # l*_icg: the mean over the other coders of the length shared with their units
            share = sum(
                1.0 / (m - 1)
                for p in range(s, e)
                for j in range(m)
                if j != i and pos[j][0][p] is not GAP
            )
            s_star[value] = s_star.get(value, 0.0) + share**2
        s_c[GAP] = s_c.get(GAP, 0.0) + sum(1 for p in range(length) if pos[i][0][p] is GAP)
    return l_ck, s_c, s_star


def _add(a: dict, b: dict) -> None:
    for key, x in b.items():
        a[key] = a.get(key, 0.0) + x


def brute_family(documents, values, delta):
    """All four coefficients pooled over ``documents`` = [(L, [units of each coder])].

    ``delta(c, k, margins)`` is the distance of cu and (k)u (``margins``: l*_c, for ordinal).
    """
    l_ck: dict = {}
    s_c: dict = {}
    s_star: dict = {}
    for length, coders in documents:
        if len(coders) < 2:
            continue
        a, b, c = _document_sums(coders, length)
        _add(l_ck, a)
        _add(s_c, b)
        _add(s_star, c)
    kinds = [*values, GAP]
    L = {(c, k): l_ck.get((c, k), 0.0) for c in kinds for k in kinds}
    margin = {c: sum(L[c, k] for k in kinds) for c in kinds}
    n = sum(margin.values())
    S = sum(s_c.values())

    def ratio(a, b):
        return a / b if b > 0 else math.nan

    E = {
        (c, k): n * (margin[c] * margin[k] - (s_c.get(c, 0.0) if c == k else 0.0)) / (n * n - S)
        for c in kinds
        for k in kinds
    }
    u = 1 - ratio(n - sum(L[c, c] for c in kinds), n - sum(E[c, c] for c in kinds))
    off_o = sum(L[GAP, k] for k in values)  # binary collapse: gap against any value
    off_e = sum(E[GAP, k] for k in values)
    bar_u = 1 - ratio(off_o, off_e)

    Ls = {(c, k): L[c, k] for c in values for k in values}
    ms = {c: sum(Ls[c, k] for k in values) for c in values}
    ns = sum(ms.values())
    den = ns - ratio(sum(s_star.values()), ns) if ns > 0 else math.nan
    Es = {
        (c, k): ratio(ms[c] * ms[k] - (s_star.get(c, 0.0) if c == k else 0.0), den)
        for c in values
        for k in values
    }
    d = {(c, k): delta(c, k, ms) for c in values for k in values}
    cu = 1 - ratio(sum(d[ck] * Ls[ck] for ck in Ls), sum(d[ck] * Es[ck] for ck in Es))
    ku = {}
    for k in values:
        e_k = sum(Es[k, c] for c in values)
        o = sum(d[c, k] * Ls[c, k] for c in values)
        e = sum(d[c, k] * Es[c, k] for c in values)
        ku[k] = 1 - ratio(e_k * o, ms[k] * e) if ms[k] > 0 else math.nan
    return {
        "u": u,
        "|u": bar_u,
        "cu": cu,
        "cu_coverage": ratio(ns, n),
        "ku": ku,
        "ku_coverage": {k: ratio(ms[k], margin[k]) for k in values},
    }


def nominal(c, k, _):
    return float(c != k)


def interval(c, k, _):
    return float(c - k) ** 2


def ordinal(c, k, margins):
    order = sorted(margins)
    pos, run = {}, 0.0
    for x in order:
        pos[x] = run + margins[x] / 2
        run += margins[x]
    return (pos[c] - pos[k]) ** 2


def ratio_distance(c, k, _):
    return ((c - k) / (c + k)) ** 2 if c + k else 0.0


def absolute(c, k, _):
    return float(abs(c - k))


def to_frame(documents, names=None):
    """The span frame of ``documents`` (document names d0, d1, ...; coders c0, c1, ...)."""
    rows = []
    for d, (_, coders) in enumerate(documents):
        for i, units in enumerate(coders):
            name = names[i] if names else f"c{i}"
            for value, s, e in units:
                rows.append((f"d{d}", name, s, e, value))
    return pd.DataFrame(rows, columns=["document", "coder", "start", "end", "label"])


def random_units(rng, length, values, p_gap=0.4, max_len=6):
    """One coder's segmentation: units (touching ones included) and gaps, left to right."""
    units, p = [], 0
    while p < length:
        step = int(rng.integers(1, max_len + 1))
        if rng.random() >= p_gap:
            units.append((int(rng.choice(values)), p, min(p + step, length)))
        p += step
    return units


def random_documents(seed, n_docs=None, n_coders=None, values=(1, 2, 3)):
    rng = np.random.default_rng(seed)
    n_docs = n_docs or int(rng.integers(1, 4))
    m = n_coders or int(rng.integers(2, 5))
    docs = []
    for _ in range(n_docs):
        length = int(rng.integers(5, 30))
        docs.append((length, [random_units(rng, length, list(values)) for _ in range(m)]))
    return docs


def assert_family(res, want, values):
    table = res.to_frame()
    got = table["alpha"]
    for key, name in (("u", "u"), ("|u", "|u"), ("cu", "cu")):
        assert got[name, pa.spans.ALL_LABELS] == pytest.approx(want[key], rel=1e-9, nan_ok=True)
    assert table.loc[("cu", pa.spans.ALL_LABELS), "coverage"] == pytest.approx(
        want["cu_coverage"], rel=1e-9, nan_ok=True
    )
    for k in values:
        if ("ku", k) in got.index:
            assert got["ku", k] == pytest.approx(want["ku"][k], rel=1e-9, abs=1e-12, nan_ok=True)
            assert table.loc[("ku", k), "coverage"] == pytest.approx(
                want["ku_coverage"][k], rel=1e-9, nan_ok=True
            )


# ---------------------------------------------------------------------------------------------
# Published and independently computed values

ALEX = [(1, 2, 5), (1, 9, 11), (2, 12, 20)]
PAUL = [(1, 2, 5), (2, 7, 15)]
SUSAN = [(1, 2, 5), (2, 10, 15)]


def test_lindanna_readme_example():
    # README of lindanna/unitized_alpha (the output of its script's example, L = 20):
    # u .474, |u .433, cu .779 covering 38.33 %, (k)u .769 (value 1, 95.45 %) and .787
    # (value 2, 59.52 %). Three coders: the script averages the squared overlaps in cu's
    # self-pairing term (cu .7789), this library squares the mean (.7786); both print .779.
    res = pa.u_alpha(to_frame([(20, [ALEX, PAUL, SUSAN])]), length=20)
    table = res.to_frame()
    assert round(res.u_alpha, 3) == 0.474
    assert round(res.bar_u_alpha, 3) == 0.433
    assert round(res.cu_alpha, 3) == 0.779
    assert round(100 * res.cu_coverage, 2) == 38.33
    assert round(table.loc[("ku", 1), "alpha"], 3) == 0.769
    assert round(100 * table.loc[("ku", 1), "coverage"], 2) == 95.45
    assert round(table.loc[("ku", 2), "alpha"], 3) == 0.787
    assert round(100 * table.loc[("ku", 2), "coverage"], 2) == 59.52
    assert float(res) == res.u_alpha


@pytest.mark.parametrize(
    ("coders", "u", "bar_u", "cu", "cu_cov", "ku1", "ku1_cov", "ku2", "ku2_cov"),
    [
        # lindanna/unitized_alpha, unitized_alpha.py run on two coders of its example
        # (L = 20): every value equals the script's to 1e-12, cu and (k)u included, because
        # with two coders all readings of cu's self-pairing term agree.
        pytest.param(
            [ALEX, PAUL],
            0.2998046875,
            0.253125,
            0.609375,
            0.40,
            0.5859375,
            1.0,
            0.6328125,
            0.50,
            id="alex-paul",
        ),
        pytest.param(
            [PAUL, SUSAN],
            0.7685534591194969,
            0.7233082706766918,
            1.0,
            0.40,
            1.0,
            1.0,
            1.0,
            0.7692307692307692,
            id="paul-susan",
        ),
        pytest.param(
            [ALEX, SUSAN],
            0.415506958250497,
            0.3552631578947367,
            0.7784256559766765,
            0.35,
            0.7696793002915452,
            0.875,
            0.7871720116618076,
            0.5384615384615384,
            id="alex-susan",
        ),
    ],
)
def test_two_coders_equal_the_script(coders, u, bar_u, cu, cu_cov, ku1, ku1_cov, ku2, ku2_cov):
    res = pa.u_alpha(to_frame([(20, coders)]), length=20)
    table = res.to_frame()
    assert res.u_alpha == pytest.approx(u, rel=1e-12)
    assert res.bar_u_alpha == pytest.approx(bar_u, rel=1e-12)
    assert res.cu_alpha == pytest.approx(cu, rel=1e-12)
    assert res.cu_coverage == pytest.approx(cu_cov, rel=1e-12)
    assert table.loc[("ku", 1), "alpha"] == pytest.approx(ku1, rel=1e-12)
    assert table.loc[("ku", 1), "coverage"] == pytest.approx(ku1_cov, rel=1e-12)
    assert table.loc[("ku", 2), "alpha"] == pytest.approx(ku2, rel=1e-12)
    assert table.loc[("ku", 2), "coverage"] == pytest.approx(ku2_cov, rel=1e-12)


def test_readme_input_u_and_bar_u_equal_the_script():
    # The input the README states (L = 60; it prints the values of the other example): the
    # script gives u .3982981423791392 and |u .5238010446343782 (three coders; u and |u
    # have no reading-dependent term).
    coders = [[(1, 2, 5)], [(1, 2, 5), (2, 10, 20)], [(2, 2, 5), (2, 15, 20)]]
    res = pa.u_alpha(to_frame([(60, coders)]), length=60)
    assert res.u_alpha == pytest.approx(0.3982981423791392, rel=1e-12)
    assert res.bar_u_alpha == pytest.approx(0.5238010446343782, rel=1e-12)


def test_coincidence_matrix_of_the_example():
    # By hand: all three coders give value 1 to [2, 5), so l_11 = 3 positions x 3 coders
    # x 2 partners / (m - 1 = 2) = 9; the matrix sums to m L = 60. Every cell equals the
    # position-by-position sum of eq. 32.
    res = pa.u_alpha(to_frame([(20, [ALEX, PAUL, SUSAN])]), length=20)
    l_ck, _, _ = _document_sums([ALEX, PAUL, SUSAN], 20)
    names = {1: 1, 2: 2, GAP: pa.spans.ualpha.GAP}
    for (c, k), x in l_ck.items():
        assert res.coincidences.loc[names[c], names[k]] == pytest.approx(x)
    assert res.coincidences.loc[1, 1] == 9.0
    assert res.coincidences.to_numpy().sum() == pytest.approx(3 * 20)


# ---------------------------------------------------------------------------------------------
# Brute force on random segmentations


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_random_segmentations_match_brute_force(seed):
    docs = random_documents(seed)
    frame = to_frame(docs)
    lengths = {f"d{d}": length for d, (length, _) in enumerate(docs)}
    values = sorted(frame["label"].unique())
    m = len(docs[0][1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = pa.u_alpha(frame, length=lengths, coders=[f"c{i}" for i in range(m)])
    assert_family(res, brute_family(docs, values, nominal), values)
    # Each document's row is the document on its own.
    for d, doc in enumerate(docs):
        want = brute_family([doc], values, nominal)
        row = res.by_document.loc[f"d{d}"]
        assert row["u_alpha"] == pytest.approx(want["u"], rel=1e-9, nan_ok=True)
        assert row["bar_u_alpha"] == pytest.approx(want["|u"], rel=1e-9, nan_ok=True)
        assert row["cu_alpha"] == pytest.approx(want["cu"], rel=1e-9, nan_ok=True)
        assert row["cu_coverage"] == pytest.approx(want["cu_coverage"], rel=1e-9, nan_ok=True)


@pytest.mark.parametrize(
    ("distance", "delta"),
    [
        pytest.param("interval", interval, id="interval"),
        pytest.param("ordinal", ordinal, id="ordinal"),
        pytest.param("ratio", ratio_distance, id="ratio"),
        pytest.param(lambda a, b: abs(a - b), absolute, id="callable"),
    ],
)
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_distances_match_brute_force(seed, distance, delta):
    docs = random_documents(100 + seed, values=(1, 2, 4, 7))
    frame = to_frame(docs)
    lengths = {f"d{d}": length for d, (length, _) in enumerate(docs)}
    values = sorted(frame["label"].unique())
    m = len(docs[0][1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = pa.u_alpha(
            frame, length=lengths, coders=[f"c{i}" for i in range(m)], distance=distance
        )
    assert_family(res, brute_family(docs, values, delta), values)
    for d, doc in enumerate(docs):  # ordinal ranks each document by its own margins
        want = brute_family([doc], values, delta)["cu"]
        got = res.by_document.loc[f"d{d}", "cu_alpha"]
        assert got == pytest.approx(want, rel=1e-9, nan_ok=True)
    # u and |u stay nominal whatever the distance.
    nom = brute_family(docs, values, nominal)
    assert res.u_alpha == pytest.approx(nom["u"], rel=1e-9, nan_ok=True)


def test_ordinal_on_an_ordered_categorical_ranks_by_the_categories():
    docs = random_documents(7, values=(1, 2, 3))
    frame = to_frame(docs)
    names = {1: "low", 2: "mid", 3: "high"}
    cat = frame.assign(
        label=pd.Categorical(
            frame["label"].map(names), categories=["low", "mid", "high"], ordered=True
        )
    )
    m = len(docs[0][1])
    lengths = {f"d{d}": length for d, (length, _) in enumerate(docs)}
    coders = [f"c{i}" for i in range(m)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        a = pa.u_alpha(frame, length=lengths, coders=coders, distance="ordinal")
        b = pa.u_alpha(cat, length=lengths, coders=coders, distance="ordinal")
    assert b.cu_alpha == pytest.approx(a.cu_alpha, nan_ok=True)


def test_pooling_equals_documents_laid_end_to_end():
    # Gaps count linearly and no unit crosses a boundary, so two documents pooled are one
    # document of the summed length with the second document's units shifted.
    docs = random_documents(3, n_docs=2, n_coders=3)
    (l0, c0), (l1, c1) = docs
    joined = [a + [(v, s + l0, e + l0) for v, s, e in b] for a, b in zip(c0, c1)]
    coders = ["c0", "c1", "c2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        pooled = pa.u_alpha(to_frame(docs), length={"d0": l0, "d1": l1}, coders=coders)
        one = pa.u_alpha(to_frame([(l0 + l1, joined)]), length=l0 + l1, coders=coders)
    pd.testing.assert_frame_equal(pooled.to_frame(), one.to_frame())


# ---------------------------------------------------------------------------------------------
# cu's self-pairing term for three or more coders


def test_cu_unchanged_when_a_coder_who_marked_nothing_joins():
    # Squaring each unit's mean shared length makes cu a function of l*_ck and the units'
    # shares: a coder with no unit scales both by (m - 1) / m and changes nothing.
    # Alex and Susan of the README example; the script gives cu .7784256559766765 for them.
    two = pa.u_alpha(to_frame([(20, [ALEX, SUSAN])]), length=20)
    three = pa.u_alpha(to_frame([(20, [ALEX, SUSAN, []])]), length=20, coders=["c0", "c1", "c2"])
    assert three.cu_alpha == pytest.approx(0.7784256559766765, rel=1e-12)
    assert three.cu_alpha == pytest.approx(two.cu_alpha, rel=1e-12)
    pd.testing.assert_series_equal(
        three.per_value["ku_alpha"], two.per_value["ku_alpha"], rtol=1e-12
    )


def test_cu_expected_coincidences_stay_non_negative():
    # Two coders agree on [0, 10) as a and [10, 20) as b, two more mark nothing. The unit's
    # shares are 10/3; squared and summed per value: 2 (10/3)^2 <= (l*_a)^2 = (20/3)^2.
    # (Averaging the squares instead, 2 * 100/3 = 66.7 > 44.4, would make e*_aa negative.)
    from pandas_agree._core.ualpha import statistics

    coders = [[("a", 0, 10), ("b", 10, 20)]] * 2 + [[], []]
    res = pa.u_alpha(to_frame([(20, coders)]), length=20, coders=["c0", "c1", "c2", "c3"])
    assert res.cu_alpha == 1.0
    assert res.cu_coverage == pytest.approx((4 * 10 / 3) / 80)
    # The kernel's terms by hand: pairs 0-3 are the coders, values a = 0, b = 1.
    st = statistics([0, 0, 1, 1], [0, 1, 0, 1], [0, 10, 0, 10], [10, 20, 10, 20], [0] * 4, [20], 2)
    np.testing.assert_allclose(st.unit_share, [10 / 3] * 4)
    np.testing.assert_allclose(st.cu_margin, [[20 / 3, 20 / 3]])
    np.testing.assert_allclose(st.cu_self_pairs, [[2 * (10 / 3) ** 2] * 2])
    assert (st.cu_self_pairs <= st.cu_margin**2).all()


# ---------------------------------------------------------------------------------------------
# Degenerate cases


def test_one_value_bar_u_equals_u_and_cu_is_undefined():
    # With one value, |u's binary collapse is u's own matrix; cu has nothing to compare.
    docs = random_documents(5, n_docs=2, n_coders=3, values=(1,))
    frame = to_frame(docs)
    lengths = {f"d{d}": length for d, (length, _) in enumerate(docs)}
    res = pa.u_alpha(frame, length=lengths, coders=["c0", "c1", "c2"])
    assert res.bar_u_alpha == pytest.approx(res.u_alpha, rel=1e-12)
    assert np.isnan(res.cu_alpha)
    table = res.to_frame()
    assert table.loc[("cu", pa.spans.ALL_LABELS), "reason"] == (
        "the intersecting units all have one value"
    )
    assert np.isnan(table.loc[("ku", 1), "alpha"])
    assert table.loc[("ku", 1), "reason"] == "the units this value intersects all have this value"


def test_no_gaps_cu_equals_u_and_bar_u_is_undefined():
    # Every coder's units cover the whole continuum: cu looks at all of it (coverage 1) and,
    # nominal, equals u; |u has no gaps to tell from units.
    rng = np.random.default_rng(0)
    coders = []
    for _ in range(3):
        cuts = np.sort(rng.choice(np.arange(1, 30), size=5, replace=False))
        edges = [0, *cuts.tolist(), 30]
        coders.append([(int(rng.integers(1, 4)), a, b) for a, b in itertools.pairwise(edges)])
    res = pa.u_alpha(to_frame([(30, coders)]), length=30)
    assert res.cu_coverage == 1.0
    assert res.cu_alpha == pytest.approx(res.u_alpha, rel=1e-12)
    assert np.isnan(res.bar_u_alpha)
    assert res.to_frame().loc[("|u", pa.spans.ALL_LABELS), "reason"] == (
        "no gaps: every coder's units cover the whole continuum"
    )


def test_perfect_agreement_is_one():
    coders = [[(1, 2, 6), (2, 8, 12)]] * 3
    res = pa.u_alpha(to_frame([(15, coders)]), length=15)
    assert (res.u_alpha, res.bar_u_alpha, res.cu_alpha) == (1.0, 1.0, 1.0)
    assert res.per_value["ku_alpha"].tolist() == [1.0, 1.0]


def test_all_gap_warns_and_gives_nan_with_reason():
    frame = to_frame([(10, [[(1, 0, 10)], [(1, 0, 10)]])])
    with pytest.warns(DegenerateDataWarning, match="one kind of segment"):
        res = pa.u_alpha(frame, length=10)
    assert np.isnan(res.u_alpha)
    assert res.reason.startswith("the continuum holds one kind of segment")


def test_value_no_other_coder_meets_has_a_reason():
    # Value 3 lies in the other coders' gaps only: (k)u is undefined for it, with its reason.
    coders = [[(1, 0, 5), (3, 10, 14)], [(1, 0, 5), (2, 6, 9)], [(1, 1, 5), (2, 6, 8)]]
    res = pa.u_alpha(to_frame([(16, coders)]), length=16)
    row = res.to_frame().loc[("ku", 3)]
    assert np.isnan(row["alpha"]) and row["coverage"] == 0.0
    assert row["reason"] == "no unit of this value intersects another coder's unit"
    assert_family(res, brute_family([(16, coders)], [1, 2, 3], nominal), [1, 2, 3])


def test_no_spans_raises():
    empty = to_frame([(10, [[], []])])
    with pytest.raises(InvalidParameterError, match="has no span"):
        pa.u_alpha(empty, length=10, coders=["c0", "c1"])
    # A document named by coverage, where both coders marked nothing: all gap, undefined.
    with pytest.warns(DegenerateDataWarning, match="one kind of segment"):
        res = pa.u_alpha(empty, length=10, coverage=[("d0", "c0"), ("d0", "c1")])
    assert np.isnan(res.u_alpha)


def test_document_with_one_coder_is_left_out_with_a_warning():
    frame = to_frame([(20, [ALEX, PAUL, SUSAN])])
    extra = pd.DataFrame(
        {"document": "solo", "coder": "c0", "start": [1], "end": [4], "label": [1]}
    )
    both = pd.concat([frame, extra], ignore_index=True)
    cov = [("d0", "c0"), ("d0", "c1"), ("d0", "c2"), ("solo", "c0")]
    with pytest.warns(DegenerateDataWarning, match="fewer than two coders"):
        res = pa.u_alpha(both, length={"d0": 20, "solo": 10}, coverage=cov)
    alone = pa.u_alpha(frame, length=20)
    assert res.u_alpha == alone.u_alpha
    assert res.n_documents == 1
    assert res.by_document.loc["solo", "reason"].startswith("u: fewer than two coders")


# ---------------------------------------------------------------------------------------------
# Who unitized what; lengths


def test_coverage_from_attrs_and_explicit_agree():
    docs = random_documents(21, n_docs=2, n_coders=3)
    frame = to_frame(docs)
    # c2 marks nothing in d1: drop its units there, then say it unitized d1.
    frame = frame[~((frame["document"] == "d1") & (frame["coder"] == "c2"))]
    cov = [(d, c) for d in ("d0", "d1") for c in ("c0", "c1", "c2")]
    lengths = {f"d{d}": length for d, (length, _) in enumerate(docs)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        a = pa.u_alpha(frame, length=lengths, coverage=cov)
        framed = frame.copy()
        framed.attrs["coverage"] = tuple(cov)
        b = pa.u_alpha(framed, length=lengths)
        c = pa.u_alpha(frame, length=lengths, coders=["c0", "c1", "c2"])
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())
    pd.testing.assert_frame_equal(a.to_frame(), c.to_frame())


def test_unknown_coverage_raises():
    frame = to_frame([(20, [ALEX, PAUL]), (20, [ALEX, []])])
    with pytest.raises(InvalidParameterError, match="coder 'c1' has no unit in document 'd1'"):
        pa.u_alpha(frame, length=20)


def test_lengths_from_attrs_texts():
    frame = to_frame([(20, [ALEX, PAUL, SUSAN])])
    framed = frame.copy()
    framed.attrs["texts"] = {"d0": "x" * 20}
    assert pa.u_alpha(framed).to_frame().equals(pa.u_alpha(frame, length=20).to_frame())
    assert pa.u_alpha(frame, length={"d0": 20}).u_alpha == pa.u_alpha(frame, length=20).u_alpha


# ---------------------------------------------------------------------------------------------
# Bootstrap over documents


@pytest.mark.parametrize("distance", ["nominal", "ordinal"])
def test_bootstrap_replicate_is_the_resampled_corpus(distance):
    from pandas_agree._core.bootstrap import multiplicities

    docs = random_documents(31, n_docs=4, n_coders=3)
    frame = to_frame(docs)
    lengths = {f"d{d}": length for d, (length, _) in enumerate(docs)}
    coders = ["c0", "c1", "c2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        kw = {"length": lengths, "coders": coders, "distance": distance}
        res = pa.u_alpha(frame, ci=0.9, n_boot=5, rng=3, **kw)
        again = pa.u_alpha(frame, ci=0.9, n_boot=5, rng=3, **kw)
        draws = multiplicities(4, 5, np.random.default_rng(3))
        for b in range(5):
            picked = [docs[d] for d in range(4) for _ in range(draws[b, d])]
            want = pa.u_alpha(
                to_frame(picked),
                length={f"d{d}": length for d, (length, _) in enumerate(picked)},
                coders=coders,
                distance=distance,
            )
            got = res.replicates.iloc[b]
            assert got[("u", pa.spans.ALL_LABELS)] == pytest.approx(want.u_alpha, nan_ok=True)
            assert got[("cu", pa.spans.ALL_LABELS)] == pytest.approx(want.cu_alpha, nan_ok=True)
            for k, x in want.per_value["ku_alpha"].items():
                assert got[("ku", k)] == pytest.approx(x, nan_ok=True)
    pd.testing.assert_frame_equal(res.replicates, again.replicates)
    table = res.to_frame()
    assert list(table.columns) == ["alpha", "coverage", "low", "high", "reason"]
    low, high = table.loc[("u", pa.spans.ALL_LABELS), ["low", "high"]]
    reps = res.replicates[("u", pa.spans.ALL_LABELS)]
    assert (low, high) == pytest.approx(tuple(np.quantile(reps, [0.05, 0.95])))


def test_bootstrap_of_one_document_has_no_interval():
    res = pa.u_alpha(to_frame([(20, [ALEX, PAUL, SUSAN])]), length=20, ci=0.95, n_boot=20)
    assert res.to_frame()["low"].isna().all()


# ---------------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        pytest.param({}, InvalidParameterError, "needs the length L", id="no-length"),
        pytest.param({"length": 0}, InvalidParameterError, "positive integer", id="length-0"),
        pytest.param({"length": 2.5}, InvalidParameterError, "got 2.5", id="length-float"),
        pytest.param({"length": {"x": 20}}, InvalidParameterError, "no entry", id="length-map"),
        pytest.param({"length": 18}, InvalidParameterError, "end past", id="past-L"),
        pytest.param(
            {"length": 20, "on_overlap": "join"}, InvalidParameterError, "'join'", id="overlap"
        ),
        pytest.param({"length": 20, "ci": 1.5}, InvalidParameterError, "`ci`", id="ci"),
        pytest.param(
            {"length": 20, "ci": 0.9, "n_boot": 0}, InvalidParameterError, "`n_boot`", id="n-boot"
        ),
        pytest.param({"length": 20, "rng": "x"}, InvalidParameterError, "`rng`", id="rng"),
        pytest.param(
            {"length": 20, "distance": "masi"}, ValueTypeError, "one label", id="set-distance"
        ),
        pytest.param(
            {"length": 20, "distance": "nope"}, pa.errors.UnknownDistanceError, "nope", id="dist"
        ),
        pytest.param(
            {"length": 20, "coders": ["c0"]}, InvalidParameterError, "leaves out", id="coders"
        ),
        pytest.param(
            {"length": 20, "coders": ["c0", "c1", "c2"], "coverage": [("d0", "c0")]},
            InvalidParameterError,
            "not both",
            id="coders-and-coverage",
        ),
    ],
)
def test_bad_input(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        pa.u_alpha(to_frame([(20, [ALEX, PAUL, SUSAN])]), **kwargs)


def test_string_labels_need_nominal_or_an_order():
    frame = to_frame([(20, [ALEX, PAUL])]).assign(label=lambda f: f["label"].map({1: "x", 2: "y"}))
    for distance, match in (("interval", "numeric labels"), ("ordinal", "an order")):
        with pytest.raises(ValueTypeError, match=match):
            pa.u_alpha(frame, length=20, distance=distance)
    assert pa.u_alpha(frame, length=20).u_alpha == pytest.approx(0.2998046875)


def test_one_coder_raises():
    with pytest.raises(InvalidParameterError, match="at least two coders, got 1"):
        pa.u_alpha(to_frame([(20, [ALEX])]), length=20)


def test_zero_length_unit_raises():
    frame = to_frame([(20, [ALEX, PAUL])])
    frame.loc[0, "end"] = frame.loc[0, "start"]
    with pytest.raises(InvalidParameterError, match="must end after it starts"):
        pa.u_alpha(frame, length=20)


def test_overlapping_units():
    # Same coder and label: raise, or merge into one unit (the result of the merged frame).
    base = to_frame([(20, [ALEX, PAUL, SUSAN])])
    extra = pd.DataFrame({"document": "d0", "coder": "c1", "start": [3], "end": [6], "label": [1]})
    overlapping = pd.concat([base, extra], ignore_index=True)
    with pytest.raises(InvalidParameterError, match="on_overlap='merge'"):
        pa.u_alpha(overlapping, length=20)
    merged = pa.u_alpha(overlapping, length=20, on_overlap="merge")
    fixed = base.copy()
    fixed.loc[(fixed["coder"] == "c1") & (fixed["start"] == 2), "end"] = 6
    assert merged.to_frame().equals(pa.u_alpha(fixed, length=20).to_frame())
    # Different labels overlapping: no merge can give a position two values.
    clash = pd.concat([base, extra.assign(label=2, start=4, end=8)], ignore_index=True)
    for mode in ("raise", "merge"):
        with pytest.raises(InvalidParameterError, match="different labels must not overlap"):
            pa.u_alpha(clash, length=20, on_overlap=mode)


def test_touching_units_stay_apart():
    # [2, 5) and [5, 8) of one coder and label are two units: their self-pairings are
    # 3^2 + 3^2, not 6^2 (brute force on the same segmentation).
    coders = [[(1, 2, 5), (1, 5, 8)], [(1, 2, 8)], [(1, 3, 8), (2, 10, 12)]]
    res = pa.u_alpha(to_frame([(15, coders)]), length=15)
    assert_family(res, brute_family([(15, coders)], [1, 2], nominal), [1, 2])


def test_gap_label_is_reserved():
    frame = to_frame([(20, [ALEX, PAUL])]).assign(label="(gap)")
    with pytest.raises(InvalidParameterError, match="names the gaps"):
        pa.u_alpha(frame, length=20)


def test_input_not_modified_and_not_kept():
    frame = to_frame([(20, [ALEX, PAUL, SUSAN])])
    frame.attrs["texts"] = {"d0": "x" * 20}
    before = frame.copy()
    res = pa.u_alpha(frame, ci=0.9, n_boot=10, rng=0)
    pd.testing.assert_frame_equal(frame, before)
    for name in vars(res):
        assert getattr(res, name) is not frame
    frame.loc[0, "end"] = 20
    assert res.n_units == 7


def test_result_surface():
    res = pa.u_alpha(to_frame([(20, [ALEX, PAUL, SUSAN])]), length=20, ci=0.9, n_boot=50, rng=1)
    assert repr(res).startswith("UAlphaResult(u_alpha=0.4739, bar_u_alpha=0.4328")
    assert "ci=0.9, n_boot=50" in repr(res)
    s = res.to_series()
    assert s["u_alpha"] == res.u_alpha and s["n_coders"] == 3 and s["length"] == 20
    with pytest.raises(AttributeError):
        res.u_alpha = 1.0  # frozen
    assert res.to_frame() is not res.summary
