"""Tests for pandas_agree.declare: shared parameters completed once, docs, registration, and
every declared function reaching every frontend named in its declaration."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree import declare
from pandas_agree.declare import SHARED, declarations, declared
from pandas_agree.frontends.accessor import AgreeAccessor
from pandas_agree.registry import available_coefficients


def _doc(text: str) -> str:
    return f"""{text}

    Parameters
    ----------
    data : pandas.DataFrame
        Long data.

    Returns
    -------
    int
    """


def test_bare_shared_parameters_get_their_defaults_where_they_stand():
    def count(data, weights, extra=1, *, unit, coder, value, scale=2, on_duplicate):
        return (unit, coder, value, on_duplicate, weights, extra, scale)

    count.__doc__ = _doc("Count.")
    public = declared(register=False)(count)
    params = list(inspect.signature(public).parameters.values())
    assert [p.name for p in params] == [
        "data", "weights", "extra", "unit", "coder", "value", "scale", "on_duplicate"
    ]
    assert [p.default for p in params[1:]] == [None, 1, "unit", "coder", "value", 2, "raise"]
    assert public(None) == ("unit", "coder", "value", "raise", None, 1, 2)
    assert public(None, "linear", 5, value="v", scale=3) == (
        "unit", "coder", "v", "raise", "linear", 5, 3
    )
    with pytest.raises(TypeError, match="multiple values"):
        public(None, "linear", weights="linear")


def test_shared_parameters_are_documented_once_unless_the_function_does():
    def f(data, *, unit, coder, value, categories):
        pass

    f.__doc__ = _doc("F.").replace(
        "        Long data.\n", "        Long data.\n    categories : list\n        Mine.\n"
    )
    doc = declared(register=False)(f).__doc__
    assert doc.count("unit, coder, value : hashable") == 1
    assert "    categories : list\n        Mine." in doc
    assert doc.count("categories :") == 1
    # the entries go inside the Parameters section, before Returns
    assert doc.index("unit, coder, value") < doc.index("Returns")


def test_columns_go_together():
    def f(data, *, unit, value):
        pass

    with pytest.raises(TypeError, match=r"together; missing \['coder'\]"):
        declared(register=False)(f)


def test_changed_default_and_unknown_frontend():
    def f(data, *, unit, coder, value, on_duplicate):
        return on_duplicate

    assert declared(register=False, defaults={"on_duplicate": "union"})(f)(None) == "union"
    with pytest.raises(ValueError, match="frontends"):
        declared(frontends=("web",))
    with pytest.raises(ValueError, match="'array' needs"):
        declared(frontends=("array",))(lambda data: None)


def test_a_name_declared_in_two_modules_raises(monkeypatch):
    declarations()  # every topic module imported, so the copy below holds every declaration
    monkeypatch.setattr(declare, "_DECLARED", dict(declare._DECLARED))

    def alpha(data, *, unit, coder, value):
        pass

    alpha.__module__ = "elsewhere"
    with pytest.raises(ValueError, match="declared twice"):
        declared()(alpha)


def test_a_declared_coefficient_reaches_every_frontend(monkeypatch):
    """The two-step route: one decorated function is a top-level name, a method of every
    accessor, and a report coefficient."""
    declarations()  # every topic module imported, so the copy below holds every declaration
    monkeypatch.setattr(declare, "_DECLARED", dict(declare._DECLARED))

    def mean_rating(data, *, unit, coder, value):
        """Mean of the values (a toy coefficient).

        Parameters
        ----------
        data : pandas.DataFrame
            Long data.
        """
        return float(data[value].mean())

    mean_rating.__module__ = "pandas_agree.kappa.toy"
    declared(coefficient=True)(mean_rating)
    df = pa.datasets.krippendorff_2011()
    want = float(df["value"].mean())
    assert pa.__getattr__("mean_rating")(df) == want
    xr = pytest.importorskip("xarray")
    m = df.agree.matrix()
    da = xr.DataArray(m.to_numpy(dtype=float), coords={"coder": m.index, "unit": m.columns})
    try:
        assert df.agree.mean_rating() == want
        assert "mean_rating" in dir(df.agree)
        assert "mean_rating" in available_coefficients()
        assert df.agree.report(coefficients=["mean_rating"])["mean_rating"].iloc[-1] == want
        assert da.agree.mean_rating() == pytest.approx(want)
    finally:
        vars(pa).pop("mean_rating", None)
        for cls in (AgreeAccessor, type(da.agree)):
            if "mean_rating" in vars(cls):
                delattr(cls, "mean_rating")


def test_every_declared_function_is_public_and_documents_its_shared_parameters():
    for name, decl in declarations().items():
        assert getattr(pa, name) is decl.func
        assert name in pa.__all__ and name in dir(pa)
        sig = inspect.signature(decl.func)
        lines = [line.strip() for line in decl.func.__doc__.split("\n")]
        for param in decl.shared:
            want = decl.defaults.get(param, SHARED[param].default)
            assert sig.parameters[param].default == want, (name, param)
            documented = [ln for ln in lines if " : " in ln and param in ln.split(" : ")[0]]
            assert documented, (name, param)


def test_top_level_shows_only_the_public_surface():
    for name in ("Any", "TYPE_CHECKING", "importlib", "annotations", "declare"):
        assert name not in dir(pa)
    assert "alpha" in dir(pa) and "cohen_kappa" in pa.__all__


@pytest.mark.parametrize(
    "name", ["cohen_kappa", "fleiss_kappa", "conger_kappa", "gwet_ac1", "category_agreement"]
)
@pytest.mark.slow
def test_kappa_family_on_arrays_and_dask_equals_pandas(name):
    """DataArray.agree and dask's accessor reach the kappa family; same numbers as pandas."""
    rng = np.random.default_rng(3)
    coders = ["a", "b"] if name == "cohen_kappa" else ["a", "b", "c"]
    rows = [(u, c, int(rng.integers(3))) for u in range(40) for c in coders]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    want = getattr(pa, name)(df)
    xr = pytest.importorskip("xarray")
    m = df.agree.matrix()  # complete, so the integer values survive the array
    da = xr.DataArray(m.to_numpy(dtype=int), coords={"coder": m.index, "unit": m.columns})
    got = getattr(da.agree, name)()
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(got, want, check_dtype=False)
    else:
        assert float(got) == pytest.approx(float(want), abs=1e-12)
    dd = pytest.importorskip("dask.dataframe")
    import pandas_agree.frontends.dask  # noqa: F401

    got = getattr(dd.from_pandas(df, npartitions=3).agree, name)()
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(got, want)
    else:
        assert float(got) == float(want)
