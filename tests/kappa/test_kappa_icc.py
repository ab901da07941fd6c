"""Tests for pandas_agree.kappa.icc and pandas_agree._core.icc: Shrout & Fleiss' (1979)
intraclass correlations against the paper's Table 4, pingouin, and an analysis of variance
by statsmodels written from the definitions in the test."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import InvalidParameterError, NoPairableUnitsError, ValueTypeError

# Shrout & Fleiss (1979), Table 2: six targets (rows) rated by four judges (columns).
TABLE_2 = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]


def _long(x) -> pd.DataFrame:
    x = np.asarray(x, dtype=float)
    return pd.DataFrame(
        [(t, j, x[t, j]) for t in range(x.shape[0]) for j in range(x.shape[1])],
        columns=["unit", "coder", "value"],
    )


@pytest.mark.parametrize(
    ("form", "published"),
    [
        pytest.param("1,1", 0.17, id="ICC(1,1)"),
        pytest.param("2,1", 0.29, id="ICC(2,1)"),
        pytest.param("3,1", 0.71, id="ICC(3,1)"),
        pytest.param("1,k", 0.44, id="ICC(1,4)"),
        pytest.param("2,k", 0.62, id="ICC(2,4)"),
        pytest.param("3,k", 0.91, id="ICC(3,4)"),
    ],
)
def test_shrout_fleiss_table_4(form, published):
    """Shrout & Fleiss (1979), Table 4: the six ICCs of the Table 2 data, two decimals."""
    res = pa.icc(_long(TABLE_2), form)
    assert round(float(res), 2) == published
    assert res.n_units == 6 and res.n_coders == 4 and res.form == form


def test_mean_squares_of_table_2():
    """Shrout & Fleiss (1979), Table 2's analysis of variance: BMS 11.24, WMS 6.26, JMS 32.49,
    EMS 1.02."""
    from pandas_agree._core.icc import mean_squares

    ms = mean_squares(np.asarray(TABLE_2, dtype=float))
    assert [round(v, 2) for v in (ms.bms, ms.wms, ms.jms, ms.ems)] == [11.24, 6.26, 32.49, 1.02]


def _definition(x: np.ndarray, level: float) -> pd.DataFrame:
    """The six ICCs, F tests and intervals from statsmodels' ANOVA tables and the formulas of
    Shrout & Fleiss (1979) and McGraw & Wong (1996), written out here."""
    smf = pytest.importorskip("statsmodels.formula.api")
    sm = pytest.importorskip("statsmodels.api")
    from scipy import stats

    n, k = x.shape
    df = _long(x)
    two = sm.stats.anova_lm(smf.ols("value ~ C(unit) + C(coder)", df).fit())
    one = sm.stats.anova_lm(smf.ols("value ~ C(unit)", df).fit())
    bms = two.loc["C(unit)", "mean_sq"]
    jms = two.loc["C(coder)", "mean_sq"]
    ems = two.loc["Residual", "mean_sq"]
    wms = one.loc["Residual", "mean_sq"]
    q = (1 + level) / 2
    rows = {}
    # ICC(1): one-way, F = BMS / WMS on (n - 1, n (k - 1)).
    f1 = bms / wms
    fl, fu = f1 / stats.f.ppf(q, n - 1, n * (k - 1)), f1 * stats.f.ppf(q, n * (k - 1), n - 1)
    rows["ICC(1,1)"] = (
        (bms - wms) / (bms + (k - 1) * wms),
        (fl - 1) / (fl + k - 1),
        (fu - 1) / (fu + k - 1),
    )
    rows["ICC(1,k)"] = ((bms - wms) / bms, 1 - 1 / fl, 1 - 1 / fu)
    # ICC(3): F = BMS / EMS on (n - 1, (n - 1)(k - 1)).
    f3 = bms / ems
    de = (n - 1) * (k - 1)
    fl, fu = f3 / stats.f.ppf(q, n - 1, de), f3 * stats.f.ppf(q, de, n - 1)
    rows["ICC(3,1)"] = (
        (bms - ems) / (bms + (k - 1) * ems),
        (fl - 1) / (fl + k - 1),
        (fu - 1) / (fu + k - 1),
    )
    rows["ICC(3,k)"] = ((bms - ems) / bms, 1 - 1 / fl, 1 - 1 / fu)
    # ICC(2): Satterthwaite (Shrout & Fleiss, section 5; McGraw & Wong, Table 7, case 2A).
    r = (bms - ems) / (bms + (k - 1) * ems + k * (jms - ems) / n)
    a = k * r / (n * (1 - r))
    b = 1 + k * r * (n - 1) / (n * (1 - r))
    v = (a * jms + b * ems) ** 2 / ((a * jms) ** 2 / (k - 1) + (b * ems) ** 2 / de)
    fs, fs2 = stats.f.ppf(q, n - 1, v), stats.f.ppf(q, v, n - 1)
    low = n * (bms - fs * ems) / (fs * (k * jms + (k * n - k - n) * ems) + n * bms)
    high = n * (fs2 * bms - ems) / (k * jms + (k * n - k - n) * ems + n * fs2 * bms)
    rows["ICC(2,1)"] = (r, low, high)
    rows["ICC(2,k)"] = (
        (bms - ems) / (bms + (jms - ems) / n),
        k * low / (1 + (k - 1) * low),
        k * high / (1 + (k - 1) * high),
    )
    order = ["ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,k)", "ICC(2,k)", "ICC(3,k)"]
    return pd.DataFrame([rows[o] for o in order], index=order, columns=["icc", "ci_low", "ci_high"])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_random_designs_against_the_definition(seed, level):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(3, 30)), int(rng.integers(2, 7))
    x = (
        rng.normal(size=(n, 1)) * rng.uniform(0.2, 3)
        + rng.normal(size=(1, k))
        + rng.normal(size=(n, k))
    )
    want = _definition(x, level)
    got = pa.icc(_long(x), level=level).table
    np.testing.assert_allclose(
        got[["icc", "ci_low", "ci_high"]].to_numpy(), want.to_numpy(), rtol=1e-10, atol=1e-12
    )


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_against_pingouin(seed):
    """pingouin's intraclass_corr (a test-only oracle): ICC, F, df and p exactly, CIs to its
    two rounded decimals."""
    pg = pytest.importorskip("pingouin")
    rng = np.random.default_rng(10 + seed)
    x = rng.normal(size=(12, 1)) + rng.normal(size=(12, 4)) * 0.7 + np.arange(4) * 0.3
    df = _long(x)
    ref = pg.intraclass_corr(df, targets="unit", raters="coder", ratings="value")
    got = pa.icc(df).table
    np.testing.assert_allclose(got["icc"], ref["ICC"], rtol=1e-10)
    np.testing.assert_allclose(got["f"], ref["F"], rtol=1e-10)
    np.testing.assert_allclose(got["p_value"], ref["pval"], rtol=1e-8, atol=1e-300)
    ci = np.array(ref["CI95"].tolist())
    np.testing.assert_allclose(got[["ci_low", "ci_high"]].round(2).to_numpy(), ci, atol=1e-9)


def test_missing_ratings_refused_or_dropped():
    df = _long(TABLE_2)
    gap = df.drop(index=5)  # target 1, judge 2 missing
    with pytest.raises(InvalidParameterError, match=r"1 unit\(s\) lack some.*missing='drop'"):
        pa.icc(gap)
    res = pa.icc(gap, missing="drop")
    assert res.n_dropped == 1 and res.n_units == 5
    assert float(res) == float(pa.icc(df[df["unit"] != 1]))


def test_bad_input():
    df = _long(TABLE_2)
    with pytest.raises(InvalidParameterError, match=r"`form` must be one of .* got '4,1'"):
        pa.icc(df, "4,1")
    with pytest.raises(InvalidParameterError, match=r"`level` must be a number in \(0, 1\), got 1"):
        pa.icc(df, level=1)
    with pytest.raises(ValueTypeError, match="must hold numbers"):
        pa.icc(df.assign(value=df["value"].map(str)))
    with pytest.raises(NoPairableUnitsError, match="two complete units"):
        pa.icc(df[df["unit"] == 0])


def test_declared_once_reaches_accessor_report_and_arrays():
    """The two-step route: the formula in _core, one declared function; nothing else."""
    df = _long(TABLE_2)
    before = df.copy()
    assert float(df.agree.icc("3,1")) == float(pa.icc(df, "3,1"))
    assert "icc" in pa.available_coefficients()
    rep = df.agree.report("interval", coefficients=["icc"])
    assert rep.loc["pooled", "icc"] == pytest.approx(float(pa.icc(df)))
    pd.testing.assert_frame_equal(df, before)
    xr = pytest.importorskip("xarray")
    da = xr.DataArray(np.asarray(TABLE_2, dtype=float).T, dims=("coder", "unit"))
    assert float(da.agree.icc()) == pytest.approx(float(pa.icc(df)), abs=1e-12)


def test_report_coefficient_leaves_incomplete_units_out_and_says_so():
    """Krippendorff (2011) section C has missing ratings: in a report the ICC is computed on
    the complete units, and coefficient_reason counts those left out."""
    df = pa.datasets.krippendorff_2011()
    rep = pa.report(df, "interval", coefficients=["icc"])
    want = pa.icc(df, missing="drop")
    assert rep.loc["pooled", "icc"] == pytest.approx(float(want))
    assert f"{want.n_dropped} unit(s) with missing ratings left out" in rep.loc[
        "pooled", "coefficient_reason"
    ]
