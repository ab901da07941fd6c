"""report(coefficients=[...]), the coefficient registry, and the accessor methods.

The published values are those of the functions themselves (tested in
kappa/test_kappa_multi_coder.py and
kappa/test_kappa_coefficients.py: R irr's kappam.fleiss 0.430, exact 0.442, kappam.light 0.459 on
``diagnoses``); here every report cell must equal the direct call on that group's rows.
"""

from __future__ import annotations

import functools
import inspect
import re

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import InvalidParameterError
from pandas_agree.frontends.forward import forwarded_parameters
from pandas_agree.registry import (
    available_coefficients,
    coefficient_table,
    get_coefficient,
    register_coefficient,
)


def _grouped() -> pd.DataFrame:
    """diagnoses split in two docsets, units 1-15 in each (unit labels repeat across groups)."""
    df = pa.datasets.diagnoses()
    return df.assign(docset=np.where(df["unit"] <= 15, "a", "b"), unit=(df["unit"] - 1) % 15 + 1)


def test_published_values_in_a_report():
    res = pa.report(
        pa.datasets.diagnoses(), coefficients=["fleiss_kappa", "conger_kappa", "light_kappa"]
    )
    assert res.loc["pooled", "fleiss_kappa"] == pytest.approx(0.430, abs=5e-4)  # irr
    assert res.loc["pooled", "conger_kappa"] == pytest.approx(0.442, abs=5e-4)  # exact=TRUE
    assert res.loc["pooled", "light_kappa"] == pytest.approx(0.459, abs=5e-4)  # kappam.light


@pytest.mark.slow
@pytest.mark.parametrize("name", ["fleiss_kappa", "conger_kappa", "hubert_kappa", "gwet_ac1"])
def test_report_cells_equal_direct_calls(name):
    df = _grouped()
    res = pa.report(df, by="docset", coefficients=[name])
    func = getattr(pa, name)
    for group in ("a", "b"):
        assert res.loc[group, name] == pytest.approx(float(func(df[df["docset"] == group])))
    # pooled: units are nested in their docset, so 30 units, not 15
    nested = df.assign(unit=df["docset"] + df["unit"].astype(str))
    assert res.loc["pooled", name] == pytest.approx(float(func(nested)))
    with pytest.raises(pa.errors.DuplicateRatingError):  # without nesting: same unit twice
        func(df)


@pytest.mark.slow
def test_two_coder_coefficients_and_tidy_form():
    df = _grouped()
    pair = df[df["coder"].isin(["rater1", "rater2"])]
    res = pa.report(pair, by="docset", coefficients=["cohen_kappa", "kappa_max"])
    assert res.loc["a", "cohen_kappa"] == pytest.approx(
        pa.cohen_kappa(pair[pair["docset"] == "a"]).value
    )
    many = pa.report(df, by="docset", coefficients="cohen_kappa")
    assert many["cohen_kappa"].isna().all()
    assert many.loc["a", "coefficient_reason"] == "cohen_kappa: needs two coders, this group has 6"
    tidy = pa.report(df, ["nominal", "ordinal"], by="docset", coefficients=["conger_kappa"],
                     categories=sorted(df["value"].unique()), tidy=True)
    assert len(tidy) == 6
    wide = pa.report(df, by="docset", coefficients=["conger_kappa"])
    for _, row in tidy.iterrows():
        assert row["conger_kappa"] == pytest.approx(wide.loc[row["docset"], "conger_kappa"])


def test_registry_callables_and_errors():
    df = pa.datasets.diagnoses()
    assert {"conger_kappa", "light_kappa", "hubert_kappa", "bangdiwala_b"} <= set(
        available_coefficients()
    )
    quad = functools.partial(pa.fleiss_kappa, weights="identity", unequal="gwet")
    register_coefficient("fleiss_identity", quad, overwrite=True)
    res = pa.report(df, coefficients=["fleiss_identity", pa.light_kappa])
    assert res.loc["pooled", "fleiss_identity"] == pytest.approx(pa.fleiss_kappa(df).value)
    assert res.loc["pooled", "light_kappa"] == pytest.approx(pa.light_kappa(df).value)
    assert get_coefficient(pa.conger_kappa)[0] == "conger_kappa"
    with pytest.raises(InvalidParameterError, match=re.escape("got 'kappa_x'")):
        pa.report(df, coefficients=["kappa_x"])
    with pytest.raises(InvalidParameterError, match="names must be distinct"):
        coefficient_table(df, ["conger_kappa", "conger_kappa"], [])
    with pytest.raises(InvalidParameterError, match="must not be empty"):
        pa.report(df, coefficients=[])
    with pytest.raises(InvalidParameterError, match="already a coefficient"):
        register_coefficient("conger_kappa", pa.conger_kappa)
    with pytest.raises(InvalidParameterError, match="must be callable"):
        register_coefficient("x", 3)


def test_degenerate_group_gets_a_reason_not_an_exception():
    df = pd.DataFrame(
        {
            "g": ["a"] * 4 + ["b"] * 2,
            "unit": [1, 1, 2, 2, 1, 2],
            "coder": ["A", "B", "A", "B", "A", "B"],
            "value": [1, 1, 1, 1, 2, 3],
        }
    )
    with pytest.warns(pa.errors.DegenerateDataWarning):
        res = pa.report(df, by="g", coefficients=["conger_kappa"])
    assert np.isnan(res.loc["a", "conger_kappa"])
    assert "chance agreement is 1" in res.loc["a", "coefficient_reason"]
    assert res.loc["b", "coefficient_reason"] == "conger_kappa: no pairable unit"


def test_frame_unchanged():
    df = _grouped()
    before = df.copy()
    pa.report(df, by="docset", coefficients=["conger_kappa", "light_kappa"])
    pd.testing.assert_frame_equal(df, before)


@pytest.mark.parametrize(
    "name",
    [
        "percent_agreement", "cohen_kappa", "scott_pi", "fleiss_kappa", "bennett_s", "gwet_ac1",
        "conger_kappa", "light_kappa", "hubert_kappa", "category_agreement", "bangdiwala_b",
        "kappa_max", "max_percent_agreement",
    ],
)
def test_accessor_forwards_with_the_functions_signature(name):
    func = getattr(pa, name)
    method = getattr(pa.AgreeAccessor, name)
    assert forwarded_parameters(method) == list(inspect.signature(func).parameters)[1:]
    assert method.__doc__ == func.__doc__
    df = pa.datasets.krippendorff_2011()
    kw = {"coders": ["A", "B"]} if name in {
        "cohen_kappa", "scott_pi", "bangdiwala_b", "kappa_max", "max_percent_agreement"
    } else {}
    if name == "fleiss_kappa":
        kw["unequal"] = "gwet"
    got, expected = getattr(df.agree, name)(**kw), func(df, **kw)
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    else:
        assert float(got) == pytest.approx(float(expected))


def test_cli_report_coefficients(tmp_path, capsys):
    from pandas_agree.frontends.cli import main

    path = tmp_path / "diagnoses.csv"
    pa.datasets.diagnoses().to_csv(path, index=False)
    assert main(["report", str(path), "--coefficients", "conger_kappa", "light_kappa"]) == 0
    out = capsys.readouterr().out
    assert "conger_kappa" in out and "0.442" in out and "0.459" in out  # irr's published values
    assert main(["report", str(path), "--coefficients", "kapa"]) != 0
    assert "got 'kapa'" in capsys.readouterr().err
