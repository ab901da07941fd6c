"""Tests of pandas_agree.tasks.noise.model against Beigman Klebanov & Beigman (2009).

Source of every worked number: B. Beigman Klebanov and E. Beigman (2009), "From Annotator
Agreement to Noise Models", Computational Linguistics 35(4): 495-503 (../shared/papers/001_*).
"Paper §x" below points at the section that prints the number.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import nbinom

from pandas_agree._core.noise import posterior, tally
from pandas_agree.errors import (
    DegenerateDataWarning,
    DuplicateRatingError,
    InvalidParameterError,
    NoPairableUnitsError,
)
from pandas_agree.tasks.noise.model import (
    ChanceDifference,
    DataNoiseResult,
    KappaView,
    NoiseResult,
    agreed_noise,
    chance_difference,
    kappa_view,
    max_disagreements,
    noise_from_codes,
)

# ----------------------------------------------------------------------------- oracles


def exact_noise(n: int, d: int, p: Fraction, confidence: float) -> tuple[int, Fraction]:
    """Equation (1) of the paper in exact rational arithmetic (independent of the module).

    Returns ``(t0, E[X | A_d] - d)`` with t0 the smallest t with P(X > t | A_d) < 1 - gamma,
    the prior P(B_i) uniform (footnote 5), so it cancels.
    """
    alpha = Fraction(1) - Fraction(confidence)
    weights = {i: comb(i, d) * p ** (i - d) for i in range(d, n + 1)}
    total = sum(weights.values())
    tail = Fraction(0)  # P(X > t) for t = n, n - 1, ...: built from the top
    t0 = n
    for t in range(n, d - 1, -1):
        if t < n:
            tail += weights[t + 1] / total
        if tail < alpha:
            t0 = t
        else:
            break
    mean = sum(i * w for i, w in weights.items()) / total
    return t0, mean - d


def nbinom_k0(n: int, d: int, p: float, confidence: float) -> int:
    """t0 - d from the closed form: X - d given d is NB(d + 1, 1 - p) truncated at n - d.

    P(X > t | A_d) < 1 - gamma  <=>  G(t - d) > gamma * G(n - d), G the NB cdf (a regularized
    incomplete beta in scipy): an oracle that shares no code with the module.
    """
    dist = nbinom(d + 1, 1.0 - p)
    target = confidence * dist.cdf(n - d)
    k = int(dist.ppf(target))
    ks = np.arange(max(k - 5, 0), k + 6)
    above = dist.cdf(ks) > target
    return int(ks[np.argmax(above)])


# ----------------------------------------------------------------------------- paper numbers


def test_section_3_1_two_annotators():
    # Paper §3.1: n = 1,000, d = 100, p = 0.5, 95 %: "with more than 5% probability up to 125
    # agreements are due to coin-flipping, hence tau = 13.8%".
    res = agreed_noise(1000, 100, 0.5, confidence=0.95)
    assert res.max_hard_agreed == 125
    assert res.t0 == 225
    assert res.tau == 125 / 900
    # The paper prints 13.8 %, but 125/900 = 13.889 %. The inequality convention is not the
    # cause: P(X > 224) = 0.0547 and P(X > 225) = 0.0480, so `<` and `<=` give the same t0.
    # The paper's own "up to 125" and its §4.1 use of R = 125 fix t0 - d = 125; "13.8" is that
    # share cut (truncated), not rounded, to one decimal. We test our value, and the paper's
    # digits under the truncation convention:
    assert math.floor(res.tau * 1000) / 10 == 13.8
    # Posterior mean of hard agreed items: the NB mean (d + 1) p / (1 - p) = 101 (the truncation
    # at n - d = 900 is below double precision here).
    assert res.expected_hard_agreed == pytest.approx(101.0, rel=1e-12)


def test_poesio_vieira():
    # Paper §3.1, Poesio & Vieira (1998) Experiment 1: n = 992, d = 121, p = 0.47, 95 %:
    # "tau = 15%".  Exactly t0 - d = 132, tau = 132/871 = 15.15 %.
    res = agreed_noise(992, 121, 0.47)
    assert res.max_hard_agreed == 132
    assert res.tau == 132 / 871
    assert round(res.tau, 2) == 0.15


def test_section_3_1_tolerance_question():
    # Paper §3.1: "For a two-annotator project with 1,000 instances, how many disagreements
    # could we tolerate, so that the agreed part is 95% noise-free with 95% confidence? Only 33".
    assert max_disagreements(1000, 0.5, tau_max=0.05, confidence=0.95) == 33
    assert agreed_noise(1000, 33, 0.5).tau == 48 / 967  # 4.96 % <= 5 %
    assert agreed_noise(1000, 34, 0.5).tau == 50 / 966  # 5.18 % > 5 %


def test_section_3_1_tolerance_kappa():
    # Paper §3.1: the 33 disagreements correspond to "kappa = 0.93" (two annotators,
    # equiprobable categories; kappa as in equation (2)).
    items, annotators, labels = two_annotator_data(n=1000, d=33)
    res = noise_from_codes(items, annotators, labels)
    assert res.n_disagreed == 33
    assert round(res.kappa, 2) == 0.93


def test_section_3_2_five_annotators():
    # Paper §3.2: five annotators, 1,000 items, 660 agreements, p = 0.0625: "the 660 agreed
    # items make a gold standard within the noise rate of tau = 5% with 95% confidence".
    res = agreed_noise(1000, 340, 0.0625)
    assert res.max_hard_agreed == 31
    assert res.tau == 31 / 660  # 4.70 %
    assert res.tau <= 0.05


def test_section_5_3_third_annotator():
    # Paper §5.3: 800 of 1,000 items easy, three annotators, p = 0.25: "We are most likely to
    # observe 850 agreed instances, which would not contain more than 7.7% noise, with 95%
    # confidence. Effectively, we got rid of about half the random agreements."
    res = agreed_noise(1000, 150, 0.25)
    # Exactly: t0 - d = 64, tau = 64/850 = 7.53 %, which satisfies the paper's "not more than
    # 7.7%". The printed 7.7 is not reproduced by either inequality (< or <=: the tail
    # probabilities next to t0 are 0.0592 and 0.0473) nor by rounding or truncation: 65/850 =
    # 7.65 % would need 96 % confidence, 66/850 = 7.76 % 97 %. We test our value and the claim.
    assert res.max_hard_agreed == 64
    assert res.tau == 64 / 850
    assert res.tau <= 0.077
    # "got rid of about half the random agreements": expected hard agreed items drop from
    # 101 (two annotators, §3.1) to 151/3 = 50.3; the 95 % bounds from 125 to 64.
    two = agreed_noise(1000, 100, 0.5)
    assert res.expected_hard_agreed == pytest.approx(151 / 3, rel=1e-12)
    assert round(res.expected_hard_agreed / two.expected_hard_agreed, 1) == 0.5
    assert round(res.max_hard_agreed / two.max_hard_agreed, 1) == 0.5


@pytest.mark.parametrize(
    ("n", "d", "p"),
    [
        pytest.param(1000, 100, Fraction(1, 2), id="paper-3.1"),
        pytest.param(992, 121, Fraction(47, 100), id="paper-3.1-poesio-vieira"),
        pytest.param(1000, 340, Fraction(1, 16), id="paper-3.2"),
        pytest.param(1000, 150, Fraction(1, 4), id="paper-5.3"),
        pytest.param(1000, 33, Fraction(1, 2), id="paper-3.1-tolerance-33"),
        pytest.param(1000, 34, Fraction(1, 2), id="paper-3.1-tolerance-34"),
    ],
)
@pytest.mark.slow
def test_paper_cases_match_exact_rational_oracle(n, d, p):
    # Paper equation (1) evaluated with Fractions and math.comb (an independent oracle).
    t0, mean = exact_noise(n, d, p, 0.95)
    res = agreed_noise(n, d, float(p))
    assert res.t0 == t0
    assert res.expected_hard_agreed == pytest.approx(float(mean), rel=1e-12)


# ----------------------------------------------------------------------------- section 3.3, 4.1


def test_section_3_3_kappa_view():
    # Paper §3.3: kappa = 0.8 (§3.1 case): "800 of the agreed 900 instances are easy, giving an
    # estimate of 11% noise"; kappa = 0.637 (§3.2 case): "about 637 out of 1,000 instances are
    # easy; ... yielding a noise estimate of 3.5%". Both below the model's 95 % tau.
    v = kappa_view(0.8, 1000, 900)
    assert isinstance(v, KappaView)
    assert v.expected_easy == pytest.approx(800.0)
    assert v.implied_noise == pytest.approx(100 / 900)
    assert round(float(v), 2) == 0.11
    w = kappa_view(0.637, 1000, 660)
    assert w.expected_easy == pytest.approx(637.0)
    assert w.implied_noise == pytest.approx(23 / 660)
    assert round(float(w), 3) == 0.035
    assert float(v) < agreed_noise(1000, 100, 0.5).tau
    assert float(w) < agreed_noise(1000, 340, 0.0625).tau


def test_kappa_view_out_of_model_warns():
    # Five annotators all split 4-to-1: kappa * n can exceed the agreed count (§3.3 reading off).
    with pytest.warns(DegenerateDataWarning, match="does not fit"):
        v = kappa_view(0.9, 100, 50)
    assert v.implied_noise == pytest.approx(-0.8)
    with pytest.warns(DegenerateDataWarning, match="`n_agreed` is 0"):
        assert math.isnan(kappa_view(0.5, 10, 0).implied_noise)


def test_section_4_1_chance_difference():
    # Paper §4.1: L = 900, R = 125: sigma_S = sqrt(R/2); Chebyshev, 4.5 sigma at 95 %: "a
    # difference of up to 35 'correct' answers (3.9% of the gold standard) can be attributed
    # to chance". Footnote 9: normal approximation, 2 sigma at 95 %.
    res = chance_difference(900, 125, confidence=0.95)
    assert isinstance(res, ChanceDifference)
    assert res.sigma == pytest.approx(math.sqrt(62.5))
    assert res.chebyshev_k == pytest.approx(math.sqrt(20.0))  # the paper rounds to 4.5
    assert res.chebyshev_bound == pytest.approx(math.sqrt(1250.0))  # 35.36 answers
    assert res.chebyshev_answers == 35
    assert round(res.chebyshev_share, 3) == 0.039
    # With the paper's rounded multiplier 4.5 sigma = 35.58: still 35 whole answers.
    assert math.floor(4.5 * res.sigma) == res.chebyshev_answers
    assert res.normal_z == pytest.approx(1.959963984540054)  # the paper rounds to 2
    assert res.normal_bound == pytest.approx(1.959963984540054 * math.sqrt(62.5))
    assert res.normal_answers == 15
    assert float(res) == res.chebyshev_bound
    # The same from the §3.1 result: L = n - d = 900, R = t0 - d = 125.
    assert agreed_noise(1000, 100, 0.5).chance_difference() == res


def test_chance_difference_general_confidence():
    # Chebyshev: P(|S| > k sigma) <= 1/k^2 = 1 - gamma; normal: two-sided quantile.
    res = chance_difference(100, 50, confidence=0.99)
    assert res.chebyshev_k == pytest.approx(10.0)
    assert res.normal_z == pytest.approx(2.5758293035489)
    assert res.chebyshev_bound == pytest.approx(50.0)
    assert chance_difference(10, 0).chebyshev_bound == 0.0


# ----------------------------------------------------------------------------- from data


def two_annotator_data(n: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two annotators, equiprobable categories (paper §3.1 set-up): agreed items half 0 half 1,
    disagreed items alternately (0, 1) and (1, 0)."""
    agreed = n - d
    pairs = [(0, 0)] * (agreed // 2) + [(1, 1)] * (agreed - agreed // 2)
    pairs += [(0, 1) if i % 2 == 0 else (1, 0) for i in range(d)]
    items = np.repeat(np.arange(n), 2)
    annotators = np.tile([0, 1], n)
    labels = np.array(pairs).ravel()
    return items, annotators, labels


def five_annotator_data(n_41: int, n_32: int, n_agreed: int = 660):
    """Five annotators (paper §3.2 set-up): agreed items half 0 half 1; 4-to-1 and 3-to-2
    splits, majority label alternating, minority positions cycling over all annotators so
    that each annotator's labels on disagreed items are exactly half 0 and half 1 when the
    split counts are multiples of 10 and 20."""
    rows = [[0] * 5] * (n_agreed // 2) + [[1] * 5] * (n_agreed - n_agreed // 2)
    minority_1 = [(j,) for j in range(5)]
    minority_2 = [(a, b) for a in range(5) for b in range(a + 1, 5)]
    for count, patterns in ((n_41, minority_1), (n_32, minority_2)):
        for i in range(count):
            major = i % 2
            minority = patterns[(i // 2) % len(patterns)]
            rows.append([1 - major if j in minority else major for j in range(5)])
    labels = np.array(rows)
    n = labels.shape[0]
    return np.repeat(np.arange(n), 5), np.tile(np.arange(5), n), labels.ravel()


def test_section_3_1_from_codes():
    # Paper §3.1 as data: p = 0.5 from footnote 3's shares (all 1/2), kappa = 0.8, tau as above.
    res = noise_from_codes(*two_annotator_data(1000, 100))
    assert isinstance(res, DataNoiseResult)
    assert isinstance(res, NoiseResult)
    assert (res.n_items, res.n_disagreed, res.n_single) == (1000, 100, 0)
    assert res.p_agree_hard == 0.5
    assert res.p_estimated is True
    assert res.kappa == pytest.approx(0.8)
    assert res.max_hard_agreed == 125
    assert res.tau == agreed_noise(1000, 100, 0.5).tau
    assert res.shares.to_numpy().tolist() == [[0.5, 0.5], [0.5, 0.5]]
    assert res.counts.to_numpy().tolist() == [[50, 50], [50, 50]]
    assert res.kappa_view().implied_noise == pytest.approx(100 / 900)


def test_section_3_2_from_codes_41_splits():
    # Paper §3.2: five annotators, equiprobable categories: p = 2 / 2^5 = 0.0625; all 340
    # disagreements split 4-to-1 give "kappa = 0.73" (eq. 2: P_A = 0.66 + 0.34 * 6/10,
    # P_E = 0.5, kappa = 0.728).
    res = noise_from_codes(*five_annotator_data(n_41=340, n_32=0))
    assert res.n_disagreed == 340
    assert res.p_agree_hard == pytest.approx(0.0625, rel=1e-12)
    assert res.kappa == pytest.approx(0.728)
    assert round(res.kappa, 2) == 0.73
    assert res.max_hard_agreed == 31
    assert res.tau <= 0.05


def test_section_3_2_kappa_for_mixed_and_32_splits():
    # Paper §3.2: "twice as many 3-to-2 cases than 4-to-1" gives "about kappa = 0.637".
    # 340 / 3 is not whole, so the same proportions on 3,000 items (1,980 agreed, 340 4-to-1,
    # 680 3-to-2; kappa depends only on the proportions): P_A = 0.66 + 0.34 * (2/3 * 0.4 +
    # 1/3 * 0.6) = 0.818667, P_E = 0.5, kappa = 0.637333.
    mixed = noise_from_codes(*five_annotator_data(n_41=340, n_32=680, n_agreed=1980))
    assert mixed.kappa == pytest.approx(0.6373333333333333, rel=1e-12)
    assert round(mixed.kappa, 3) == 0.637
    assert mixed.p_agree_hard == pytest.approx(0.0625, rel=1e-12)
    # The paper also prints "kappa = 0.52 when all disagreements are split 3-to-2"; equation
    # (2) gives P_A = 0.66 + 0.34 * 4/10 = 0.796, P_E = 0.5, kappa = 0.592, not 0.52 (which
    # would need P_A = 0.76). We test equation (2), the paper's own definition.
    split = noise_from_codes(*five_annotator_data(n_41=0, n_32=340))
    assert split.kappa == pytest.approx(0.592)
    assert split.p_agree_hard == pytest.approx(0.0625, rel=1e-12)


def test_section_5_3_from_codes():
    # Paper §5.3: three annotators, equiprobable categories -> p = 2 / 2^3 = 0.25; 850 agreed.
    rows = [[0, 0, 0]] * 425 + [[1, 1, 1]] * 425
    patterns = [[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 0, 1], [0, 1, 1]]
    rows += [patterns[i % 6] for i in range(150)]
    labels = np.array(rows).ravel()
    res = noise_from_codes(np.repeat(np.arange(1000), 3), np.tile([0, 1, 2], 1000), labels)
    assert res.p_agree_hard == pytest.approx(0.25, rel=1e-12)
    assert res.n_agreed == 850
    assert res.tau == 64 / 850


# A hand-built example. Annotators 10 (A), 20 (B), 30 (C), 40 (D); labels 0, 1, 2.
#   item 0: A0 B0 C0 D0   agreed       item 4: A1 B1       agreed
#   item 1: A0 B1 C1      disagreed    item 5: C2          single (excluded)
#   item 2: A1 B1 C2      disagreed    item 6: A2 B2 C2 D2 agreed
#   item 3: A2 B0         disagreed
HAND = [
    (0, 10, 0), (0, 20, 0), (0, 30, 0), (0, 40, 0),
    (1, 10, 0), (1, 20, 1), (1, 30, 1),
    (2, 10, 1), (2, 20, 1), (2, 30, 2),
    (3, 10, 2), (3, 20, 0),
    (4, 10, 1), (4, 20, 1),
    (5, 30, 2),
    (6, 10, 2), (6, 20, 2), (6, 30, 2), (6, 40, 2),
]  # fmt: skip


def test_noise_from_codes_hand_example():
    # Shares on the disagreed items 1-3 (footnote 3, generalised to three labels):
    #   A: labels 0, 1, 2 -> (1/3, 1/3, 1/3);  B: 1, 1, 0 -> (1/3, 2/3, 0);
    #   C: 1, 2 -> (0, 1/2, 1/2);  D rated no disagreed item -> pooled (2, 4, 2)/8.
    # p_i = sum_b prod_{j in item} share_jb:
    #   {A,B,C,D} (items 0, 6): 1/3 * 2/3 * 1/2 * 1/2 = 1/18
    #   {A,B,C}   (items 1, 2): 1/3 * 2/3 * 1/2 = 1/9
    #   {A,B}     (items 3, 4): 1/9 + 2/9 + 0 = 1/3
    # p = (2/18 + 2/9 + 2/3) / 6 = 1/6.
    # Siegel & Castellan K: P_A = (1 + 1/3 + 1/3 + 0 + 1 + 1) / 6 = 11/18; labels 6, 6, 6 of 18
    # pairable ratings, P_E = 1/3; K = (11/18 - 6/18) / (12/18) = 5/12.
    items, annotators, labels = (np.array(col) for col in zip(*HAND))
    res = noise_from_codes(items, annotators, labels)
    third = 1 / 3
    expected_shares = [
        [third, third, third],
        [third, 2 * third, 0.0],
        [0.0, 0.5, 0.5],
        [0.25, 0.5, 0.25],
    ]
    np.testing.assert_allclose(res.shares.to_numpy(), expected_shares, rtol=1e-15)
    assert res.shares.index.tolist() == [10, 20, 30, 40]
    assert res.shares.columns.tolist() == [0, 1, 2]
    assert res.counts.loc[40].tolist() == [0, 0, 0]
    assert res.p_agree_hard == pytest.approx(1 / 6, rel=1e-14)
    assert (res.n_items, res.n_disagreed, res.n_single, res.n_annotators) == (6, 3, 1, 4)
    assert res.kappa == pytest.approx(5 / 12, rel=1e-14)
    assert res.t0 == exact_noise(6, 3, Fraction(1, 6), 0.95)[0]
    assert res.tau == agreed_noise(6, 3, res.p_agree_hard).tau


def test_noise_from_codes_invariant_to_order_and_codes():
    items, annotators, labels = (np.array(col) for col in zip(*HAND))
    base = noise_from_codes(items, annotators, labels)
    order = np.random.default_rng(0).permutation(items.size)
    other = noise_from_codes(items[order] * 7 + 3, annotators[order] + 1, labels[order] * 5)
    assert other.p_agree_hard == pytest.approx(base.p_agree_hard, rel=1e-14)
    assert other.kappa == pytest.approx(base.kappa, rel=1e-14)
    assert (other.t0, other.n_single) == (base.t0, base.n_single)


def test_noise_from_codes_no_disagreement():
    # d = 0: p cannot be estimated from disagreements (footnote 3 has nothing to count).
    items = np.repeat(np.arange(50), 2)
    annotators = np.tile([0, 1], 50)
    labels = np.repeat(np.arange(50) % 2, 2)
    msg = (
        "`p_agree_hard` cannot be estimated when no item is disagreed (n_disagreed = 0); "
        "pass `p_agree_hard=` explicitly, got None"
    )
    with pytest.raises(InvalidParameterError) as info:
        noise_from_codes(items, annotators, labels)
    assert str(info.value) == msg
    res = noise_from_codes(items, annotators, labels, p_agree_hard=0.5)
    assert res.p_estimated is False
    assert res.n_disagreed == 0
    assert res.tau == agreed_noise(50, 0, 0.5).tau
    assert res.shares.isna().all().all()


def test_noise_from_codes_explicit_p_overrides():
    res = noise_from_codes(*two_annotator_data(1000, 100), p_agree_hard=0.25)
    assert res.p_agree_hard == 0.25
    assert res.p_estimated is False
    assert res.tau == agreed_noise(1000, 100, 0.25).tau
    assert res.shares.to_numpy().tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_all_items_disagreed_gives_nan_with_warning():
    with pytest.warns(DegenerateDataWarning, match="no item is agreed"):
        res = agreed_noise(10, 10, 0.5)
    assert math.isnan(res.tau)
    assert res.reason is not None
    assert res.t0 == 10


# ----------------------------------------------------------------------------- result objects


def test_result_protocol():
    res = agreed_noise(1000, 100, 0.5)
    assert float(res) == res.tau
    assert repr(res) == (
        "NoiseResult(tau=0.1389, t0=225, n_items=1000, n_disagreed=100, p_agree_hard=0.5, "
        "confidence=0.95)"
    )
    s = res.to_series()
    assert isinstance(s, pd.Series)
    assert s["tau"] == pytest.approx(125 / 900)  # section 3.1: tau = t0 - d over n agreed
    assert s["max_hard_agreed"] == 125
    assert s["n_agreed"] == 900
    with pytest.raises(AttributeError):
        res.tau = 0.0  # frozen
    data = noise_from_codes(*two_annotator_data(1000, 100))
    assert repr(data).startswith("DataNoiseResult(tau=0.1389, t0=225,")
    assert "kappa=0.8000" in repr(data)
    assert data.to_series()["kappa"] == pytest.approx(0.8)
    assert hash(data) == hash(noise_from_codes(*two_annotator_data(1000, 100)))  # by value
    assert isinstance(chance_difference(900, 125).to_series(), pd.Series)
    assert kappa_view(0.8, 1000, 900).to_series()["expected_easy"] == pytest.approx(800)


# ----------------------------------------------------------------------------- oracle, small n


@pytest.mark.parametrize("confidence", [0.5, 0.8, 0.95, 0.99])
@pytest.mark.parametrize(
    "p",
    [
        Fraction(0),
        Fraction(1, 16),
        Fraction(1, 4),
        Fraction(1, 2),
        Fraction(47, 100),
        Fraction(9, 10),
        Fraction(99, 100),
    ],
)
@pytest.mark.slow
def test_small_n_matches_exact_rational_oracle(p, confidence):
    # Equation (1) by brute force with Fractions and math.comb for every (n, d), n <= 25.
    for n in range(1, 26):
        for d in range(0, n + 1):
            t0, mean = exact_noise(n, d, p, confidence)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateDataWarning)  # d == n
                res = agreed_noise(n, d, float(p), confidence)
            assert res.t0 == t0, (n, d)
            assert res.expected_hard_agreed == pytest.approx(float(mean), rel=1e-12, abs=1e-12)


def test_p_one_only_with_no_disagreement():
    # p = 1: hard items always agree; with d = 0 the posterior is uniform on 0..n.
    t0, _ = exact_noise(20, 0, Fraction(1), 0.95)
    assert agreed_noise(20, 0, 1.0).t0 == t0
    assert max_disagreements(20, 1.0, tau_max=1.0) == 0


# ----------------------------------------------------------------------------- large n


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@pytest.mark.parametrize(
    ("d", "p"),
    [
        pytest.param(500_000, 0.5, id="d=500k,p=0.5"),
        pytest.param(1_000_000, 0.25, id="d=1M,p=0.25"),
        pytest.param(4_000_000, 0.0625, id="d=4M,p=0.0625"),
        pytest.param(10, 0.999, id="d=10,p=0.999"),
        pytest.param(0, 0.5, id="d=0,p=0.5"),
        pytest.param(2_000_000, 0.6, id="d=2M,p=0.6-truncation-bites"),
    ],
)
def test_stability_five_million_items(d, p):
    # n = 5,000,000: no overflow, finite results, and t0 equal to the negative-binomial closed
    # form (scipy's regularized incomplete beta), an oracle independent of the module's sums.
    n = 5_000_000
    res = agreed_noise(n, d, p)
    assert math.isfinite(res.tau)
    assert 0.0 <= res.tau <= 1.0
    assert res.max_hard_agreed == nbinom_k0(n, d, p, 0.95)
    dist = nbinom(d + 1, 1.0 - p)
    if dist.sf(n - d) < 1e-30:  # truncation negligible: the mean is the NB mean
        assert res.expected_hard_agreed == pytest.approx((d + 1) * p / (1 - p), rel=1e-9)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_max_disagreements_large_n():
    # Bisection on n = 5,000,000; check the answer's neighbourhood directly.
    n = 5_000_000
    best = max_disagreements(n, 0.5, tau_max=0.05)
    assert agreed_noise(n, best, 0.5).tau <= 0.05
    assert agreed_noise(n, best + 1, 0.5).tau > 0.05


# ----------------------------------------------------------------------------- max_disagreements


def scan_max_disagreements(n, p, tau_max, confidence):
    """First crossing minus one by scanning every d (the definition, no monotonicity used)."""
    for d in range(n):
        if agreed_noise(n, d, p, confidence).tau > tau_max:
            return d - 1 if d > 0 else None
    return n - 1


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 30, pytest.param(120, marks=pytest.mark.slow)])
def test_max_disagreements_matches_scan(n):
    # Includes regions where tau is not monotone in d (small n, confidence 0.5, large tau_max),
    # which the bisection must not be fooled by.
    for p in (0.0, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99):
        for confidence in (0.5, 0.8, 0.95, 0.99):
            for tau_max in (0.0, 0.01, 0.05, 0.2, 0.5, 0.7, 0.9, 0.99, 1.0):
                expected = scan_max_disagreements(n, p, tau_max, confidence)
                got = max_disagreements(n, p, tau_max, confidence)
                assert got == expected, (n, p, confidence, tau_max)


def test_tau_is_not_monotone_in_d_for_tiny_n():
    # The documented counterexample (max_disagreements Notes): n = 5, p = 0.5, gamma = 0.5.
    # Exactly: d = 2 -> weights 1, 3/2, 3/2, 5/4: t0 - d = 2, tau = 2/3;
    #          d = 3 -> weights 1, 2, 5/2: t0 - d = 1, tau = 1/2.
    assert agreed_noise(5, 2, 0.5, 0.5).tau == 2 / 3
    assert agreed_noise(5, 3, 0.5, 0.5).tau == 1 / 2
    assert exact_noise(5, 2, Fraction(1, 2), 0.5)[0] == 4
    assert exact_noise(5, 3, Fraction(1, 2), 0.5)[0] == 4


def test_max_disagreements_none_when_nothing_is_tolerable():
    # d = 0, p = 0.5, n = 100: t0 = 4, tau = 0.04 > 0.01.
    assert agreed_noise(100, 0, 0.5).tau == 0.04
    assert max_disagreements(100, 0.5, tau_max=0.01) is None


# ----------------------------------------------------------------------------- properties

probabilities = st.floats(0.0, 0.999, allow_nan=False)
confidences = st.floats(0.5, 0.999, allow_nan=False)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 3000), frac=st.floats(0, 1), p=probabilities, confidence=confidences)
def test_t0_non_decreasing_in_d(n, frac, p, confidence):
    # Likelihood-ratio order: X | d + 1 dominates X | d (max_disagreements Notes). Always holds.
    d = min(int(frac * (n - 1)), n - 2)
    assert agreed_noise(n, d + 1, p, confidence).t0 >= agreed_noise(n, d, p, confidence).t0


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=150, deadline=None)
@given(n=st.integers(50, 100_000), frac=st.floats(0, 1), p=probabilities, confidence=confidences)
def test_tau_grows_with_d(n, frac, p, confidence):
    # tau(d + 1) >= tau(d) whenever P(X = n | A_d) is negligible (the §3.1 regime; see the
    # counterexample test for tiny n).
    d = min(int(frac * (n - 1)), n - 2)
    assume(posterior(n, d, p, 1 - confidence)[2] <= 1e-12)
    assert agreed_noise(n, d + 1, p, confidence).tau >= agreed_noise(n, d, p, confidence).tau


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 100_000),
    frac=st.floats(0, 1),
    p1=probabilities,
    p2=probabilities,
    confidence=confidences,
)
@pytest.mark.slow
def test_tau_shrinks_with_smaller_p(n, frac, p1, p2, confidence):
    # More annotators -> smaller p -> less room for coin-flip agreements (paper §5.3).
    d = min(int(frac * n), n - 1)
    lo, hi = sorted((p1, p2))
    assert agreed_noise(n, d, lo, confidence).tau <= agreed_noise(n, d, hi, confidence).tau


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 10**7), p=probabilities, confidence=confidences)
def test_no_disagreement_noise_vanishes(n, p, confidence):
    # d = 0: P(X > t) <= p^(t+1), so t0 <= m = smallest t with p^(t+1) < 1 - gamma: tau <= m / n
    # (-> 0 as n grows), and tau == 0 exactly when p < 1 - gamma.
    res = agreed_noise(n, 0, p, confidence)
    alpha = 1.0 - confidence
    bound = 0 if p == 0 else max(0, math.floor(math.log(alpha) / math.log(p)))
    assert res.t0 <= bound + 1  # +1 guards the floor at an exact power
    assert res.tau <= (bound + 1) / n
    if p < alpha:
        assert res.tau == 0.0


def test_no_disagreement_large_n_is_zero():
    # d = 0 and n large: tau -> 0; with p below 1 - gamma it is exactly 0.
    assert agreed_noise(5_000_000, 0, 0.5).tau == 4 / 5_000_000
    assert agreed_noise(5_000_000, 0, 0.04).tau == 0.0


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"confidence": 1.5}, "`confidence` must be in (0, 1), got 1.5"),
        ({"confidence": 0}, "`confidence` must be in (0, 1), got 0"),
        ({"confidence": 1.0}, "`confidence` must be in (0, 1), got 1.0"),
        ({"confidence": float("nan")}, "`confidence` must be in (0, 1), got nan"),
        ({"confidence": "0.95"}, "`confidence` must be in (0, 1), got '0.95'"),
        ({"p_agree_hard": -0.1}, "`p_agree_hard` must be in [0, 1], got -0.1"),
        ({"p_agree_hard": 1.2}, "`p_agree_hard` must be in [0, 1], got 1.2"),
        ({"p_agree_hard": None}, "`p_agree_hard` must be in [0, 1], got None"),
        ({"n_items": 0}, "`n_items` must be an integer >= 1, got 0"),
        ({"n_items": 10.5}, "`n_items` must be an integer >= 1, got 10.5"),
        ({"n_items": True}, "`n_items` must be an integer >= 1, got True"),
        ({"n_disagreed": -1}, "`n_disagreed` must be an integer >= 0, got -1"),
        ({"n_disagreed": 1001}, "`n_disagreed` must be <= `n_items` (1000), got 1001"),
        ({"n_disagreed": np.float64(3)}, "`n_disagreed` must be an integer >= 0, got 3.0"),
        (
            {"p_agree_hard": 1.0},
            "`p_agree_hard` = 1 means hard items never show a disagreement, so `n_disagreed` "
            "must be 0, got 100",
        ),
    ],
)
def test_agreed_noise_bad_input(kwargs, message):
    args = {"n_items": 1000, "n_disagreed": 100, "p_agree_hard": 0.5, "confidence": 0.95}
    args.update(kwargs)
    with pytest.raises(InvalidParameterError) as info:
        agreed_noise(**args)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: max_disagreements(10, 0.5, tau_max=1.2), "`tau_max` must be in [0, 1], got 1.2"),
        (lambda: max_disagreements(10, 0.5, tau_max=-0.1), "`tau_max` must be in [0, 1], got -0.1"),
        (lambda: max_disagreements(0, 0.5), "`n_items` must be an integer >= 1, got 0"),
        (lambda: max_disagreements(1000, 2), "`p_agree_hard` must be in [0, 1], got 2"),
        (lambda: max_disagreements(10, 0.5, confidence=2), "`confidence` must be in (0, 1), got 2"),
        (lambda: chance_difference(900, 901), "`n_noisy` must be <= `n_test` (900), got 901"),
        (lambda: chance_difference(0, 0), "`n_test` must be an integer >= 1, got 0"),
        (lambda: chance_difference(900, -1), "`n_noisy` must be an integer >= 0, got -1"),
        (lambda: chance_difference(900, 1.5), "`n_noisy` must be an integer >= 0, got 1.5"),
        (lambda: chance_difference(900, 125, 1), "`confidence` must be in (0, 1), got 1"),
        (lambda: kappa_view(1.5, 1000, 900), "`kappa` must be a real number <= 1, got 1.5"),
        (lambda: kappa_view("a", 1000, 900), "`kappa` must be a real number <= 1, got 'a'"),
        (lambda: kappa_view(0.8, 1000, 1001), "`n_agreed` must be <= `n_items` (1000), got 1001"),
        (lambda: kappa_view(0.8, 0, 0), "`n_items` must be an integer >= 1, got 0"),
    ],
)  # fmt: skip
def test_other_functions_bad_input(call, message):
    with pytest.raises(InvalidParameterError) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("arrays", "error", "message"),
    [
        (
            ([0, 0, 1], [0, 1], [0, 1, 1]),
            InvalidParameterError,
            "`annotator_codes` must have the same length as `item_codes` (3), got 2",
        ),
        (
            ([0, 0, 1], [0, 1, 0], [0, 1]),
            InvalidParameterError,
            "`label_codes` must have the same length as `item_codes` (3), got 2",
        ),
        (
            ([0, 0], [0, 1], [0.5, 1.0]),
            InvalidParameterError,
            "`label_codes` must hold integer codes, got dtype float64 (first value 0.5)",
        ),
        (
            ([0, 0], [0, 1], [0, -1]),
            InvalidParameterError,
            "`label_codes` must hold non-negative codes (remove missing ratings first), got -1 "
            "at position 1",
        ),
        (
            ([[0, 0]], [[0, 1]], [[0, 1]]),
            InvalidParameterError,
            "`item_codes` must be one-dimensional, got shape (1, 2)",
        ),
        (
            ([0, 0, 0], [5, 5, 6], [0, 1, 0]),
            DuplicateRatingError,
            "annotator 5 rated item 0 2 times or more; `item_codes`/`annotator_codes` must have "
            "at most one rating per (item, annotator)",
        ),
        (([], [], []), NoPairableUnitsError, "no ratings: `item_codes` is empty"),
        (
            ([0, 1, 2], [0, 0, 1], [0, 1, 0]),
            NoPairableUnitsError,
            "no item has two or more ratings (3 items with one rating), so nothing is agreed or "
            "disagreed",
        ),
    ],
)
def test_noise_from_codes_bad_input(arrays, error, message):
    with pytest.raises(error) as info:
        noise_from_codes(*arrays)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_noise_from_codes_bad_parameters():
    items, annotators, labels = two_annotator_data(10, 2)
    with pytest.raises(InvalidParameterError, match=r"^`confidence` must be in \(0, 1\), got 1.5$"):
        noise_from_codes(items, annotators, labels, confidence=1.5)
    with pytest.raises(InvalidParameterError, match=r"^`p_agree_hard` must be in \[0, 1\], got 2$"):
        noise_from_codes(items, annotators, labels, p_agree_hard=2)
    with pytest.raises(InvalidParameterError, match="`p_agree_hard` = 1 means"):
        noise_from_codes(items, annotators, labels, p_agree_hard=1.0)


ratings = st.lists(
    st.lists(st.one_of(st.none(), st.integers(0, 2)), min_size=3, max_size=3),
    min_size=1,
    max_size=12,
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(ratings)
def test_noise_from_codes_brute_force(rows):
    """Counts, Siegel & Castellan's K (eq. 2 with item-wise P_A), footnote 3's shares and the
    item-mean p, by loops over items and annotators from the definitions in the docstring."""
    items, anns, labels = [], [], []
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if v is not None:
                items.append(10 * i + 3)  # codes need not be dense
                anns.append(j)
                labels.append(v)
    by_item: dict = {}
    for i, j, v in zip(items, anns, labels):
        by_item.setdefault(i, {})[j] = v
    pairable = {i: r for i, r in by_item.items() if len(r) >= 2}
    assume(pairable)
    disagreed = {i: r for i, r in pairable.items() if len(set(r.values())) > 1}
    cats = sorted(set(labels))
    p_a = np.mean(
        [
            sum(list(r.values()).count(b) * (list(r.values()).count(b) - 1) for b in cats)
            / (len(r) * (len(r) - 1))
            for r in pairable.values()
        ]
    )
    pooled = [v for r in pairable.values() for v in r.values()]
    p_e = sum((pooled.count(b) / len(pooled)) ** 2 for b in cats)
    kappa = (p_a - p_e) / (1 - p_e) if p_e < 1 else math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        if not disagreed:
            res = noise_from_codes(items, anns, labels, p_agree_hard=0.5)
        else:
            res = noise_from_codes(items, anns, labels)
    assert (res.n_items, res.n_disagreed) == (len(pairable), len(disagreed))
    assert res.n_single == sum(len(r) == 1 for r in by_item.values())
    if math.isnan(kappa):
        assert math.isnan(res.kappa)
    else:
        assert res.kappa == pytest.approx(kappa, rel=1e-12, abs=1e-12)
    if not disagreed:
        return
    on_dis = [(j, v) for r in disagreed.values() for j, v in r.items()]
    share = {}
    for j in sorted(set(anns)):
        mine = [v for a, v in on_dis if a == j]
        source = mine if mine else [v for _, v in on_dis]
        share[j] = {b: source.count(b) / len(source) for b in cats}
    p = np.mean(
        [sum(math.prod(share[j][b] for j in r) for b in cats) for r in pairable.values()]
    )
    assert res.p_agree_hard == pytest.approx(min(1.0, p), rel=1e-12)
    got = res.shares.to_numpy()
    want = [[share[j][b] for b in cats] for j in sorted(set(anns))]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_tally_reports_the_first_duplicate():
    t = tally(np.array([4, 4, 4, 7]), np.array([1, 1, 2, 1]), np.array([0, 1, 0, 0]))
    assert t.duplicate == (4, 1, 2)
    with pytest.raises(DuplicateRatingError, match="annotator 1 rated item 4 2 times"):
        noise_from_codes([4, 4, 4, 7], [1, 1, 2, 1], [0, 1, 0, 0])
