"""DataArray.agree and Dataset.agree: the same numbers and result objects as the DataFrame path."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

xr = pytest.importorskip("xarray")

import pandas_agree as pa  # noqa: E402
from pandas_agree.errors import InvalidParameterError, ValueTypeError  # noqa: E402
from pandas_agree.frontends.xarray import to_long  # noqa: E402

DISTANCES = ["nominal", "jaccard", "masi"]


def _k2011() -> xr.DataArray:
    """Krippendorff (2011), section C, as a (coder, unit) array with NaN for missing cells."""
    m = pa.datasets.krippendorff_2011().agree.matrix()
    return xr.DataArray(
        m.to_numpy(), dims=("coder", "unit"), coords={"coder": m.index, "unit": m.columns}
    )


def _sets_array() -> tuple[xr.DataArray, pd.DataFrame]:
    """Random set annotations: (docset, coder, unit) object array and the same long data."""
    rng = np.random.default_rng(3)
    docsets, coders, units = ["d1", "d2", "d3"], ["ann", "bob", "cat"], list(range(6))
    cells = np.empty((len(docsets), len(coders), len(units)), dtype=object)
    rows = []
    for i, d in enumerate(docsets):
        for k, u in enumerate(units):
            truth = set(rng.choice(list("abcde"), size=rng.integers(1, 4), replace=False))
            for j, c in enumerate(coders):
                s = set(truth)
                if rng.random() < 0.3:
                    s ^= {rng.choice(list("abcde"))}
                if rng.random() < 0.15:
                    cells[i, j, k] = None if rng.random() < 0.5 else np.nan
                    continue
                cells[i, j, k] = frozenset(s)
                rows.append((d, u, c, frozenset(s)))
    da = xr.DataArray(
        cells,
        dims=("docset", "coder", "unit"),
        coords={"docset": docsets, "coder": coders, "unit": units},
        name="labels",
    )
    return da, pd.DataFrame(rows, columns=["docset", "unit", "coder", "value"])


def test_krippendorff_2011_published_values():
    da = _k2011()
    assert round(da.agree.alpha("nominal").alpha, 3) == 0.743
    assert round(da.agree.alpha("interval").alpha, 3) == 0.849
    assert round(da.agree.alpha("ordinal").alpha, 3) == 0.815
    assert round(da.agree.alpha("ratio").alpha, 3) == 0.797


@pytest.mark.parametrize("distance", ["nominal", "ordinal", "interval", "ratio"])
def test_same_result_as_dataframe_path(distance):
    got = _k2011().agree.alpha(distance)
    want = pa.datasets.krippendorff_2011().agree.alpha(distance)
    assert type(got) is type(want) is pa.AlphaResult
    assert got.alpha == pytest.approx(want.alpha, rel=1e-12)
    assert (got.observed, got.expected) == pytest.approx((want.observed, want.expected))
    assert (got.n_units, got.n_coders, got.n_pairable) == (
        want.n_units,
        want.n_coders,
        want.n_pairable,
    )


def test_transposed_and_renamed_dims():
    da = _k2011().rename(coder="annotator", unit="item").transpose("item", "annotator")
    res = da.agree.alpha("nominal", coder_dim="annotator", unit_dim="item")
    assert round(res.alpha, 3) == 0.743


def test_matrix_coincidences_values_by_units_pairwise_summary():
    da, df = _k2011(), pa.datasets.krippendorff_2011()
    pd.testing.assert_frame_equal(
        da.agree.matrix(), df.agree.matrix(), check_dtype=False, check_index_type=False
    )
    np.testing.assert_allclose(da.agree.coincidences().to_numpy(), df.agree.coincidences())
    np.testing.assert_array_equal(
        da.agree.values_by_units().to_numpy(), df.agree.values_by_units().to_numpy()
    )
    pd.testing.assert_frame_equal(da.agree.pairwise("percent"), df.agree.pairwise("percent"))
    assert float(da.agree.summary()) == pytest.approx(float(df.agree.summary()))


def test_report_per_extra_dimension_matches_dataframe_report():
    da, df = _sets_array()
    got = da.agree.report(DISTANCES)
    want = pa.report(df, DISTANCES, by="docset")
    pd.testing.assert_frame_equal(got, want)


def test_report_with_ci_and_tidy_pass_through():
    da, df = _sets_array()
    got = da.agree.report("masi", ci=0.9, n_boot=100, rng=5, tidy=True)
    want = pa.report(df, "masi", by="docset", ci=0.9, n_boot=100, rng=5, tidy=True)
    pd.testing.assert_frame_equal(got, want)


def test_alpha_with_extra_dimension_is_the_pooled_row():
    da, df = _sets_array()
    pooled = pa.report(df, "masi", by="docset").loc["pooled", "masi"]
    assert da.agree.alpha("masi").alpha == pytest.approx(pooled, rel=1e-12)
    # one group alone: the same as the DataFrame path on that group
    one = da.sel(docset="d2").agree.alpha("masi")
    assert one.alpha == pytest.approx(df[df.docset == "d2"].agree.alpha("masi").alpha)


def test_report_by_a_coordinate_along_units_and_pooled_only():
    da, df = _sets_array()
    da = da.assign_coords(half=("unit", ["a", "a", "a", "b", "b", "b"]))
    df = df.assign(half=np.where(df["unit"] < 3, "a", "b"))
    got = da.agree.report("jaccard", by=["docset", "half"])
    want = pa.report(df, "jaccard", by=["docset", "half"])
    pd.testing.assert_frame_equal(got, want)
    only = da.agree.report("jaccard", by=[])
    assert list(only.index) == ["pooled"]
    assert only.loc["pooled", "jaccard"] == pytest.approx(want.loc[("pooled", "pooled"), "jaccard"])


def test_dataset_picks_the_variable():
    da, _ = _sets_array()
    ds = xr.Dataset({"labels": da, "minutes": da.copy(data=np.ones(da.shape))})
    assert ds.agree.alpha("masi", var="labels").alpha == pytest.approx(da.agree.alpha("masi").alpha)
    pd.testing.assert_frame_equal(ds.agree.report("masi", var="labels"), da.agree.report("masi"))
    with pytest.raises(InvalidParameterError, match=r"`var`.*\['labels', 'minutes'\]"):
        ds.agree.alpha("masi")
    with pytest.raises(InvalidParameterError, match="'nope'"):
        ds.agree.alpha("masi", var="nope")
    single = xr.Dataset({"labels": da})
    assert single.agree.alpha("masi").alpha == pytest.approx(da.agree.alpha("masi").alpha)


def test_to_long():
    da = xr.DataArray(
        np.array([[1.0, np.nan], [2.0, 3.0]]),
        dims=("unit", "coder"),
        coords={"unit": ["u1", "u2"], "coder": ["A", "B"]},
    )
    long = da.agree.to_long()
    assert list(long.columns) == ["unit", "coder", "value"]
    assert long.to_dict("list") == {
        "unit": ["u1", "u2", "u2"],
        "coder": ["A", "A", "B"],
        "value": [1.0, 2.0, 3.0],
    }
    assert len(to_long(da, dropna=False)) == 4
    # dims without coordinates are labelled 0, 1, ...
    bare = xr.DataArray([[1, 2], [1, 1]], dims=("coder", "unit"))
    assert bare.agree.to_long()["coder"].tolist() == [0, 1, 0, 1]


def test_array_is_not_modified():
    da, _ = _sets_array()
    before = da.copy(deep=True)
    da.agree.report(DISTANCES)
    da.agree.alpha("masi")
    xr.testing.assert_identical(da, before)


def test_errors_name_the_parameter():
    da = _k2011()
    with pytest.raises(InvalidParameterError, match=r"`coder_dim` 'rater'.*\['coder', 'unit'\]"):
        da.agree.alpha(coder_dim="rater")
    with pytest.raises(InvalidParameterError, match="`unit_dim`"):
        da.agree.alpha(unit_dim="item")
    with pytest.raises(InvalidParameterError, match="must differ"):
        da.agree.alpha(coder_dim="unit")
    with pytest.raises(InvalidParameterError, match=r"`unit=`.*unit_dim"):
        da.agree.alpha(unit="unit")
    with pytest.raises(InvalidParameterError, match=r"`var`.*DataArray"):
        da.agree.alpha(var="x")
    with pytest.raises(InvalidParameterError, match="`by` 'coder'"):
        da.agree.report(by="coder")
    with pytest.raises(InvalidParameterError, match="`by` 'docset'"):
        da.agree.report(by="docset")
    with pytest.raises(ValueTypeError):
        to_long([[1, 2]])
    # errors of the pandas functions come through unchanged
    with pytest.raises(pa.errors.UnknownDistanceError):
        da.agree.alpha("bogus")


def test_registered_by_import_pandas_agree_when_wired():
    # the accessor exists once the module is imported (pandas_agree imports it when xarray is
    # installed)
    import pandas_agree.frontends.xarray as mod

    assert isinstance(xr.DataArray([0]).agree, mod.AgreeDataArrayAccessor)
    assert isinstance(xr.Dataset().agree, mod.AgreeDatasetAccessor)
