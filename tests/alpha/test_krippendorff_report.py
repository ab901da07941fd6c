"""Per-group reports: same numbers as alpha per group, pooled row, tidy form, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import ColumnNotFoundError, InvalidParameterError, UnknownDistanceError

DISTANCES = ["nominal", "jaccard", "masi"]


def _grouped_sets(seed: int = 0, groups: int = 6, units: int = 15) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(groups):
        noise = 0.1 + 0.15 * g  # groups differ in quality
        for u in range(units):
            truth = set(rng.choice(list("abcdef"), size=rng.integers(1, 4), replace=False))
            for c in ("ann", "bob", "cat"):
                s = set(truth)
                if rng.random() < noise:
                    s ^= {rng.choice(list("abcdef"))}
                if rng.random() < 0.9:
                    rows.append((f"d{g}", u, c, frozenset(s)))
    return pd.DataFrame(rows, columns=["docset", "unit", "coder", "value"])


def test_report_equals_alpha_per_group_and_groupby_idiom():
    df = _grouped_sets()
    rep = pa.report(df, DISTANCES, by="docset")
    for d in DISTANCES:
        # The documented pandas pipeline gives the same numbers.
        idiom = df.groupby("docset").apply(
            lambda g, d=d: g.agree.alpha(d).alpha, include_groups=False
        )
        np.testing.assert_allclose(rep.loc[idiom.index, d].to_numpy(float), idiom.to_numpy())
    # Counts per group equal those of the per-group AlphaResult.
    for name, g in df.groupby("docset"):
        res = pa.alpha(g, "masi")
        assert tuple(rep.loc[name, ["n_units", "n_coders", "n_pairable"]]) == (
            res.n_units,
            res.n_coders,
            res.n_pairable,
        )


def test_pooled_row_is_alpha_with_units_nested_in_groups():
    df = _grouped_sets()
    rep = pa.report(df, DISTANCES, by="docset")
    nested = df.assign(unit=df.docset + "/" + df.unit.astype(str))
    for d in DISTANCES:
        assert rep.loc["pooled", d] == pytest.approx(pa.alpha(nested, d).alpha, abs=1e-12)
    assert list(rep.index)[-1] == "pooled"


def test_report_on_published_examples():
    # Krippendorff (2011) section C as one group: the report's row is the published alpha.
    df = pa.datasets.krippendorff_2011().assign(study="kripp2011")
    rep = pa.report(df, ["nominal", "ordinal", "interval", "ratio"], by="study")
    assert rep.loc["kripp2011", ["nominal", "ordinal", "interval", "ratio"]].astype(float).round(
        3
    ).tolist() == [0.743, 0.815, 0.849, 0.797]
    # by=None: the pooled row alone.
    alone = pa.report(pa.datasets.krippendorff_2011(), "nominal")
    assert alone.index.tolist() == ["pooled"]
    assert alone.loc["pooled", "nominal"] == pytest.approx(113 / 152)


def test_ordinal_and_interval_per_group():
    rng = np.random.default_rng(3)
    rows = [
        (g, u, c, int(np.clip(t + rng.integers(-1, 2), 1, 5)))
        for g in range(4)
        for u, t in enumerate(rng.integers(1, 6, 20))
        for c in range(3)
    ]
    df = pd.DataFrame(rows, columns=["g", "unit", "coder", "value"])
    rep = pa.report(df, ["ordinal", "interval", "ratio"], by="g")
    for g, part in df.groupby("g"):
        for d in ("ordinal", "interval", "ratio"):
            assert rep.loc[g, d] == pytest.approx(pa.alpha(part, d).alpha, abs=1e-12)


def test_multiindex_groups():
    df = _grouped_sets().assign(batch=lambda d: d.unit % 2)
    rep = pa.report(df, "masi", by=["docset", "batch"])
    assert rep.index.names == ["docset", "batch"]
    assert rep.index[-1] == ("pooled", "pooled")
    part = df[(df.docset == "d1") & (df.batch == 0)]
    assert rep.loc[("d1", 0), "masi"] == pytest.approx(pa.alpha(part, "masi").alpha)


def test_small_groups_get_nan_and_reason():
    df = pd.concat(
        [
            pa.datasets.krippendorff_2011().assign(g="ok"),
            pd.DataFrame({"unit": [1, 2], "coder": ["A", "B"], "value": [1, 2], "g": "single"}),
            pd.DataFrame({"unit": [1, 1], "coder": ["A", "B"], "value": [3, 3], "g": "same"}),
        ]
    )
    with pytest.warns(pa.errors.DegenerateDataWarning):
        rep = pa.report(df, ["nominal", "interval"], by="g")
    assert (
        np.isnan(rep.loc["single", "nominal"]) and "no pairable unit" in rep.loc["single", "reason"]
    )
    assert np.isnan(rep.loc["same", "interval"]) and "D_e = 0" in rep.loc["same", "reason"]
    assert rep.loc["ok", "nominal"] == pytest.approx(113 / 152)
    assert rep.loc["ok", "reason"] is None


def test_tidy_form_pivots_back():
    df = _grouped_sets()
    wide = pa.report(df, DISTANCES, by="docset")
    tidy = pa.report(df, DISTANCES, by="docset", tidy=True)
    assert list(tidy.columns[:3]) == ["docset", "distance", "alpha"]
    back = tidy.pivot(index="docset", columns="distance", values="alpha")
    for d in DISTANCES:
        np.testing.assert_allclose(back.loc[wide.index, d], wide[d].astype(float))
    # D_o and D_e per group and for the pooled row, as alpha reports them.
    row = tidy[(tidy.docset == "d2") & (tidy.distance == "masi")].iloc[0]
    res = pa.alpha(df[df.docset == "d2"], "masi")
    assert (row.observed, row.expected) == pytest.approx((res.observed, res.expected))
    pooled = tidy[(tidy.docset == "pooled") & (tidy.distance == "jaccard")].iloc[0]
    assert pooled.alpha == pytest.approx(1 - pooled.observed / pooled.expected)


@pytest.mark.slow
def test_report_with_intervals():
    df = _grouped_sets()
    rep = pa.report(df, ["nominal", "masi"], by="docset", ci=0.9, n_boot=300, rng=5)
    for d in ("nominal", "masi"):
        assert (rep[f"{d}_low"] <= rep[d]).all() and (rep[d] <= rep[f"{d}_high"]).all()
    again = pa.report(df, ["nominal", "masi"], by="docset", ci=0.9, n_boot=300, rng=5)
    pd.testing.assert_frame_equal(rep, again)
    clusters = pa.report(df, "masi", by="docset", ci=0.9, n_boot=300, rng=5, ci_method="clusters")
    units = pa.report(df, "masi", by="docset", ci=0.9, n_boot=300, rng=5, ci_method="units")
    width = lambda r: r.loc["pooled", "masi_high"] - r.loc["pooled", "masi_low"]  # noqa: E731
    assert width(clusters) > width(units)


def test_caller_frame_unchanged():
    df = _grouped_sets()
    before = df.copy(deep=True)
    pa.report(df, DISTANCES, by="docset", ci=0.9, n_boot=50, rng=1, tidy=True)
    df.agree.report(DISTANCES, by="docset")
    pd.testing.assert_frame_equal(df, before)


def test_report_bad_input():
    df = _grouped_sets()
    with pytest.raises(ColumnNotFoundError, match="`by` column 'doc'"):
        pa.report(df, "masi", by="doc")
    with pytest.raises(UnknownDistanceError, match="got 'masy'"):
        pa.report(df, ["masi", "masy"], by="docset")
    with pytest.raises(InvalidParameterError, match="must be distinct"):
        pa.report(df, ["masi", "masi"], by="docset")
    with pytest.raises(InvalidParameterError, match="`level` must be a number in"):
        pa.report(df, "masi", by="docset", ci=95)
    with pytest.raises(InvalidParameterError, match="`method` must be one of"):
        pa.report(df, "masi", by="docset", ci=0.95, ci_method="jackknife")
    missing = df.astype({"docset": object})
    missing.loc[0, "docset"] = None
    with pytest.raises(InvalidParameterError, match="`by` column 'docset' has 1 missing"):
        pa.report(missing, "masi", by="docset")


def test_report_without_warnings_on_clean_data():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pa.report(_grouped_sets(), DISTANCES, by="docset")


def test_reason_names_the_distances_whose_alpha_is_undefined():
    # A distance that is 0 between all values has D_e = 0 (alpha undefined) while nominal
    # alpha is defined: the reason must say which distance, in the groups and pooled row.
    def flat(a, b):
        return 0.0

    df = _grouped_sets()
    with pytest.warns(pa.errors.DegenerateDataWarning):
        rep = pa.report(df, ["nominal", flat], by="docset")
    assert rep["nominal"].notna().all() and rep["flat"].isna().all()
    assert (rep["reason"] == "no expected disagreement (D_e = 0) under flat").all()


def test_weighted_set_distances_per_group():
    # Element weights (SCU weights in Passonneau 2005): the report's rows equal alpha per group.
    df = _grouped_sets()
    weights = {e: i + 1.0 for i, e in enumerate("abcdef")}
    rep = pa.report(df, ["weighted_dice", "weighted_jaccard"], by="docset", weights=weights)
    for name, part in df.groupby("docset"):
        for d in ("weighted_dice", "weighted_jaccard"):
            expected = pa.alpha(part, d, weights=weights).alpha
            assert rep.loc[name, d] == pytest.approx(expected, abs=1e-12)


def test_intervals_of_undefined_groups_are_nan_and_defined_ones_bootstrap():
    # Groups without a pairable unit or with D_e = 0 get NaN bounds from their state (no
    # fit is attempted, no error swallowed); the first group's interval is that of alpha on
    # the group alone with the same seed (the report's one generator starts there).
    # Krippendorff (2011), section C data as group "a": interval alpha .849.
    df = pd.concat(
        [
            pa.datasets.krippendorff_2011().assign(g="a"),
            pd.DataFrame({"unit": [1, 2], "coder": ["A", "B"], "value": [1, 2], "g": "single"}),
            pd.DataFrame({"unit": [1, 1], "coder": ["A", "B"], "value": [3, 3], "g": "same"}),
        ]
    )
    with pytest.warns(pa.errors.DegenerateDataWarning):
        rep = pa.report(df, "interval", by="g", ci=0.9, n_boot=400, rng=5)
    assert round(rep.loc["a", "interval"], 3) == 0.849
    for g in ("single", "same"):
        assert np.isnan(rep.loc[g, "interval_low"]) and np.isnan(rep.loc[g, "interval_high"])
    alone = pa.alpha(df[df.g == "a"], "interval").confidence_interval(0.9, n_boot=400, rng=5)
    assert (rep.loc["a", "interval_low"], rep.loc["a", "interval_high"]) == pytest.approx(
        (alone.low, alone.high)
    )
