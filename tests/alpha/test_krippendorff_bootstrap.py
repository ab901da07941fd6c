"""Bootstrap intervals and Krippendorff's q."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import DegenerateDataWarning, InvalidParameterError

METHODS = ["krippendorff", "units"]


def _noisy(n_units: int, noise: float, seed: int = 0, coders: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, n_units)
    value = np.repeat(truth, coders)
    flip = rng.random(value.size) < noise
    value[flip] = rng.integers(1, 6, flip.sum())
    return pd.DataFrame(
        {
            "unit": np.repeat(np.arange(n_units), coders),
            "coder": np.tile(np.arange(coders), n_units),
            "value": value,
        }
    )


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("distance", ["nominal", "ordinal", "interval", "ratio"])
def test_interval_contains_alpha(method, distance):
    # Krippendorff (2011) section C data.
    res = pa.alpha(pa.datasets.krippendorff_2011(), distance)
    ci = res.confidence_interval(0.95, method=method, n_boot=2000, rng=3)
    assert ci.low < res.alpha < ci.high
    assert ci.level == 0.95 and ci.method == method and ci.n_boot == 2000


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_interval_narrows_as_data_grow():
    small = pa.alpha(_noisy(50, 0.3), "nominal")
    large = pa.alpha(_noisy(2000, 0.3), "nominal")

    def width(res, method):
        ci = res.confidence_interval(method=method, rng=1)
        return ci.high - ci.low

    # Resampling units: the width falls like 1 / sqrt(units), so 40x the units is about
    # 6x narrower.
    assert width(large, "units") < width(small, "units") / 3
    # Krippendorff's algorithm draws M = min(25 Q, pairs) pairs: 150 pairs for 50 units, the
    # cap 25 * 25 = 625 for 2,000 units (Q = 25 non-zero cells), so about sqrt(625 / 150) =
    # 2x narrower, and no narrower however large the data.
    ratio = width(small, "krippendorff") / width(large, "krippendorff")
    assert 1.5 < ratio < 2.6
    larger = pa.alpha(_noisy(8000, 0.3), "nominal")
    assert width(larger, "krippendorff") == pytest.approx(width(large, "krippendorff"), rel=0.2)


def test_krippendorff_bootstrap_draws_capped_at_25_q():
    # Hayes' KALPHA (version 3) and Krippendorff's algorithm: M = min(25 Q, pairs). With
    # Q = 25 cells, M = 625: the replicate variance is that of a mean of 625 draws.
    res = pa.alpha(_noisy(4000, 0.3), "nominal")
    boot = res.bootstrap("krippendorff", n_boot=4000, rng=3)
    o = pa.coincidences(_noisy(4000, 0.3)).to_numpy()
    p_disagree = 1 - np.trace(o) / o.sum()
    sd_expected = np.sqrt(p_disagree * (1 - p_disagree) / 625) / res.expected
    assert boot.replicates.std() == pytest.approx(sd_expected, rel=0.1)


@pytest.mark.parametrize("method", METHODS)
def test_seeded_runs_repeat_exactly(method):
    res = pa.alpha(_noisy(200, 0.3), "interval")
    a = res.bootstrap(method, n_boot=500, rng=42).replicates
    b = res.bootstrap(method, n_boot=500, rng=np.random.default_rng(42)).replicates
    np.testing.assert_array_equal(a, b)
    c = res.bootstrap(method, n_boot=500, rng=43).replicates
    assert not np.array_equal(a, c)


def test_krippendorff_replicates_centre_on_alpha():
    # Each draw's distance has expectation D_o (the draws follow o_ck / n), so the mean of
    # the replicates is alpha up to Monte Carlo error.
    res = pa.alpha(_noisy(500, 0.3), "nominal")
    boot = res.bootstrap("krippendorff", n_boot=4000, rng=0)
    se = boot.replicates.std() / np.sqrt(boot.n_boot)
    assert abs(boot.replicates.mean() - res.alpha) < 5 * se


def test_perfect_agreement_gives_degenerate_interval_with_message():
    df = _noisy(30, 0.0)
    res = pa.alpha(df)
    assert res.alpha == 1
    with pytest.warns(DegenerateDataWarning, match="every pairable value agrees"):
        ci = res.confidence_interval(n_boot=200, rng=0)
    assert (ci.low, ci.high) == (1.0, 1.0)
    assert "degenerate" in ci.note


@pytest.mark.slow
def test_q_near_zero_for_high_alpha_and_many_units():
    res = pa.alpha(_noisy(3000, 0.05), "nominal")
    assert res.alpha > 0.9
    for method in METHODS:
        assert res.prob_below(0.667, method=method, n_boot=1000, rng=2) == 0.0
        assert res.prob_below(0.99, method=method, n_boot=1000, rng=2) == 1.0


def test_q_is_share_of_replicates_below():
    res = pa.alpha(pa.datasets.krippendorff_2011(), "interval")
    boot = res.bootstrap(n_boot=1000, rng=9)
    assert boot.prob_below(0.8) == pytest.approx(np.mean(boot.replicates < 0.8))
    assert boot.prob_below(0.8) == res.prob_below(0.8, n_boot=1000, rng=9)


def test_replicates_floor_at_minus_one():
    # Interval data where one unit holds a large disagreement (1 vs 10) among agreements:
    # M = 11 draws, and drawing that cell twice gives a raw replicate of 1 - 2.06 < -1.
    # Such replicates are set to -1, as documented in pandas_agree.krippendorff.bootstrap.
    units = [(u, v) for u, v in enumerate([1] * 5 + [2] * 5)]
    rows = [(u, c, v) for u, v in units for c in ("a", "b")] + [(10, "a", 1), (10, "b", 10)]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    boot = pa.alpha(df, "interval").bootstrap(n_boot=2000, rng=0)
    assert boot.replicates.min() == -1.0
    assert 0.1 < np.mean(boot.replicates == -1.0) < 0.5  # P(k >= 2), k ~ Binomial(11, 1/11)


def test_clusters_wider_than_units_when_groups_differ():
    parts = [
        _noisy(100, noise, seed=i).assign(doc=f"d{i}")
        for i, noise in enumerate([0.02, 0.2, 0.5, 0.05, 0.4, 0.1])
    ]
    df = pd.concat(parts, ignore_index=True)
    df["unit"] = df.doc + "/" + df.unit.astype(str)
    res = pa.alpha(df, "nominal")
    units = res.confidence_interval(method="units", n_boot=1000, rng=4)
    clusters = res.confidence_interval(method="clusters", cluster="doc", n_boot=1000, rng=4)
    assert clusters.high - clusters.low > 2 * (units.high - units.low)
    # A per-row array works the same as the column name.
    same = res.confidence_interval(method="clusters", cluster=df.doc.to_numpy(), n_boot=1000, rng=4)
    assert (same.low, same.high) == (clusters.low, clusters.high)


def test_bad_bootstrap_arguments():
    res = pa.alpha(pa.datasets.krippendorff_2011())
    with pytest.raises(InvalidParameterError, match=r"`method` must be one of .*got 'jack'"):
        res.confidence_interval(method="jack")
    with pytest.raises(InvalidParameterError, match="`n_boot` must be a positive integer, got 0"):
        res.confidence_interval(n_boot=0)
    with pytest.raises(
        InvalidParameterError, match=r"`level` must be a number in \(0, 1\), got 1.5"
    ):
        res.confidence_interval(1.5)
    with pytest.raises(InvalidParameterError, match="`rng` must be None"):
        res.confidence_interval(rng="seed")
    with pytest.raises(InvalidParameterError, match="`cluster` is required"):
        res.confidence_interval(method="clusters")
    with pytest.raises(InvalidParameterError, match="`cluster` column 'doc' is not in the data"):
        res.confidence_interval(method="clusters", cluster="doc")
    with pytest.raises(InvalidParameterError, match=r"`alpha_min` must be a number in \[-1, 1\]"):
        res.prob_below(2)


def test_cluster_must_be_constant_within_unit():
    df = pa.datasets.krippendorff_2011()
    df["doc"] = np.arange(len(df)) % 2
    with pytest.raises(InvalidParameterError, match="constant within a unit"):
        pa.alpha(df).confidence_interval(method="clusters", cluster="doc")


def test_bootstrap_result_interface():
    res = pa.alpha(pa.datasets.krippendorff_2011(), "ordinal")
    boot = res.bootstrap(n_boot=300, rng=1)
    s = boot.to_series()
    assert s["alpha"] == res.alpha and s["n_boot"] == 300
    low, high = boot.confidence_interval(0.9)
    assert low <= high
    assert "ConfidenceInterval(low=" in repr(boot.confidence_interval())


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@pytest.mark.parametrize("distance", ["nominal", "ordinal", "interval", "ratio", "jaccard"])
def test_units_replicates_equal_alpha_of_resampled_data(distance):
    # Oracle: draw the same units with the same generator, build the resampled data with
    # each copy of a unit relabelled as its own unit, and compute alpha from scratch.
    df = _noisy(40, 0.3, seed=5)
    res = pa.alpha(df, distance)
    boot = res.bootstrap("units", n_boot=25, rng=11)
    draws = np.random.default_rng(11).integers(0, 40, size=(25, 40))
    for r in range(25):
        parts = [df[df.unit == u].assign(unit=f"{i}:{u}") for i, u in enumerate(draws[r])]
        resampled = pd.concat(parts, ignore_index=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            expected = pa.alpha(resampled, distance).alpha
        assert boot.replicates[r] == pytest.approx(expected, abs=1e-10)


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("distance", ["nominal", "ordinal", "interval", "masi"])
def test_replicates_centre_near_alpha(method, distance):
    res = pa.alpha(_noisy(300, 0.3, seed=2), distance)
    boot = res.bootstrap(method, n_boot=2000, rng=0)
    assert abs(np.nanmean(boot.replicates) - res.alpha) < 3 * np.nanstd(boot.replicates)
    assert abs(np.nanmedian(boot.replicates) - res.alpha) < 0.02


def test_krippendorff_replicates_lie_on_the_lattice_of_m_draws():
    # Krippendorff's algorithm (2006, rev. 2011), steps 2-3, computed here from the
    # definition for nominal data (Krippendorff 2011, section C: alpha = .743): each
    # replicate is 1 - K / (M D_e) with K ~ Binomial(M, p), p = 1 - sum o_cc / n the share of
    # disagreeing pairs and M = min(25 Q, sum_u m_u (m_u - 1) / 2). So (1 - a_b) M D_e is an
    # integer, the mean is 1 - p / D_e = alpha and the variance p (1 - p) / (M D_e^2).
    from pandas_agree._core.bootstrap import krippendorff_replicates

    df = pa.datasets.krippendorff_2011()
    res = pa.alpha(df, "nominal")
    assert round(res.alpha, 3) == 0.743
    by_unit = [list(g) for _, g in df.dropna(subset=["value"]).groupby("unit")["value"]]
    pairable = [u for u in by_unit if len(u) >= 2]
    values = [v for u in pairable for v in u]
    n = len(values)
    o = {}  # o_ck = sum_u (number of c-k pairs in u) / (m_u - 1)
    for u in pairable:
        for i, a in enumerate(u):
            for j, b in enumerate(u):
                if i != j:
                    o[a, b] = o.get((a, b), 0.0) + 1.0 / (len(u) - 1)
    p = 1.0 - sum(w for (a, b), w in o.items() if a == b) / n
    d_e = 1.0 - sum(values.count(c) * (values.count(c) - 1) for c in set(values)) / (n * (n - 1))
    m = min(
        25 * sum(1 for w in o.values() if w > 0), sum(len(u) * (len(u) - 1) // 2 for u in pairable)
    )
    reps = krippendorff_replicates(
        res.fit.kernel, res.fit.counts, res.expected, 20000, np.random.default_rng(11)
    )
    k = (1.0 - reps) * m * d_e
    np.testing.assert_allclose(k, np.rint(k), atol=1e-8)
    sd = np.sqrt(p * (1 - p) / m) / d_e
    assert abs(reps.mean() - (1 - p / d_e)) < 4 * sd / np.sqrt(reps.size)
    assert reps.std() == pytest.approx(sd, rel=0.05)
    # bootstrap_alpha is this function plus the note (same generator, same replicates).
    np.testing.assert_array_equal(res.bootstrap("krippendorff", 20000, rng=11).replicates, reps)
