"""The public surface (issue 16): one meaning per name, accessors that show what they accept,
a cheap ``import pandas_agree``, defaults that agree, and text columns last in reports."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import InvalidParameterError
from pandas_agree.frontends.accessor import AgreeAccessor, accessor_methods

ACCESSOR_METHODS = accessor_methods()

PACKAGE = Path(pa.__file__).parent
COLUMNS = ("unit", "coder", "value")
DIMS = ["coder_dim", "unit_dim", "var"]


def _run(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _target(dotted: str):
    module, name = dotted.rsplit(".", 1)
    if not module.startswith("pandas_agree"):
        module = f"pandas_agree.{module}"
    return getattr(importlib.import_module(module), name)


def _params(func, skip: int = 1) -> list[str]:
    return list(inspect.signature(func).parameters)[skip:]


# ---------------------------------------------------------------------------------------------
# Import cost: xarray, dask and scipy are imported when used, the accessors registered then


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_import_pandas_agree_imports_neither_xarray_nor_dask_nor_scipy():
    out = _run(
        """
        import sys
        import pandas_agree
        print(sorted(m for m in ("xarray", "dask", "dask.dataframe", "scipy", "scipy.stats")
                     if m in sys.modules))
        """
    )
    assert out == "[]"


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_xarray_imported_after_pandas_agree_gets_the_accessors():
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C (also
    # Krippendorff 2019, Content Analysis 4th ed., p. 290): nominal alpha 0.743.
    out = _run(
        """
        import pandas_agree as pa
        import xarray as xr
        m = pa.datasets.krippendorff_2011().agree.matrix()
        da = xr.DataArray(m.to_numpy(), coords={"coder": m.index, "unit": m.columns})
        print(round(da.agree.alpha("nominal").alpha, 3), hasattr(xr.Dataset, "agree"))
        """
    )
    assert out == "0.743 True"


@pytest.mark.slow
def test_xarray_imported_before_pandas_agree_gets_the_accessors():
    out = _run(
        """
        import xarray as xr
        import pandas_agree
        print(hasattr(xr.DataArray, "agree"), hasattr(xr.Dataset, "agree"))
        """
    )
    assert out == "True True"


@pytest.mark.slow
@pytest.mark.parametrize("first", ["pandas_agree", "dask"])
def test_dask_dataframe_gets_the_accessor_in_either_order(first):
    pytest.importorskip("dask.dataframe")
    # Krippendorff (2011), section C: interval alpha 0.849.
    imports = (
        "import pandas_agree as pa\nimport dask.dataframe as dd"
        if first == "pandas_agree"
        else "import dask.dataframe as dd\nimport pandas_agree as pa"
    )
    out = _run(
        imports
        + """
ddf = dd.from_pandas(pa.datasets.krippendorff_2011(), npartitions=3)
print(round(ddf.agree.alpha("interval").alpha, 3))
"""
    )
    assert out == "0.849"


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_post_import_hook_runs_after_the_library_and_survives_a_failing_hook(tmp_path):
    (tmp_path / "fakelib.py").write_text(
        "import sys\nORDER = sys.modules.setdefault('o', [])\nORDER.append('lib')\n"
    )
    (tmp_path / "fakehook.py").write_text("import fakelib\nfakelib.ORDER.append('hook')\n")
    (tmp_path / "badhook.py").write_text("raise RuntimeError('boom')\n")
    out = _run(
        f"""
        import sys, warnings
        sys.path.insert(0, {str(tmp_path)!r})
        from pandas_agree.frontends.lazy import register_on_import
        register_on_import("fakelib", "fakehook")
        assert "fakehook" not in sys.modules
        import fakelib
        print(fakelib.ORDER, type(fakelib.__loader__).__name__)
        register_on_import("json.tool", "badhook")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import json.tool
        print([str(w.message) for w in caught if "badhook" in str(w.message)])
        """
    )
    lines = out.splitlines()
    assert lines[0] == "['lib', 'hook'] SourceFileLoader"
    assert "RuntimeError: boom" in lines[1]


def test_every_public_name_resolves_and_is_listed_by_dir():
    for name in pa.__all__:
        assert getattr(pa, name) is not None, name
    assert set(pa.__all__) <= set(dir(pa))
    with pytest.raises(AttributeError, match="no attribute 'alhpa'"):
        pa.alhpa  # noqa: B018


def test_dir_shows_only_the_public_surface():
    # dir() listed the module's helpers (Any, TYPE_CHECKING, importlib, annotations,
    # register_on_import, _NAMES, ...) and the subpackages an import brought in.
    importlib.import_module("pandas_agree.krippendorff.alpha")  # sets pa.krippendorff
    public = [n for n in dir(pa) if not n.startswith("__")]
    assert public == sorted(pa.__all__)
    assert "__version__" in dir(pa)
    for helper in ("Any", "TYPE_CHECKING", "importlib", "annotations", "register_on_import"):
        assert helper not in dir(pa)
        with pytest.raises(AttributeError, match=f"no attribute {helper!r}"):
            getattr(pa, helper)


# ---------------------------------------------------------------------------------------------
# One meaning per name


def test_report_is_the_function_and_the_module_is_reporting():
    assert inspect.isfunction(pa.report)
    assert pa.report is importlib.import_module("pandas_agree.krippendorff.report").report
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("pandas_agree.report")


def test_disagreements_is_the_function_and_alpha_stays_the_function():
    # Importing the topic folder pandas_agree/krippendorff/ leaves pa.alpha the function.
    module = importlib.import_module("pandas_agree.krippendorff.disagreements")
    assert pa.disagreements is module.disagreements
    alpha_module = importlib.import_module("pandas_agree.krippendorff.alpha")
    assert inspect.isfunction(pa.alpha) and pa.alpha is alpha_module.alpha
    from pandas_agree import alpha

    assert alpha is alpha_module.alpha
    # Krippendorff (2011), section C: unit 6 (1, 2, 3, 4) holds half of the nominal D_o.
    df = pa.datasets.krippendorff_2011()
    assert df.agree.disagreements()["share"].tolist() == [0.5, 0.25, 0.25]
    assert pa.alpha(df).disagreements()["unit"].tolist() == [6, 2, 8]


def test_noise_is_the_module_and_the_method_is_agreed_subset_noise():
    assert inspect.ismodule(pa.noise)
    assert not hasattr(AgreeAccessor, "noise")
    # Beigman Klebanov & Beigman (2009), section 3.1: 1,000 items, 100 disagreements split
    # evenly, p = 0.5: t0 - d = 125 hard items may hide among the 900 agreed (tau 13.9 %).
    rows = [(i, c, i % 2) for i in range(900) for c in "ab"]
    rows += [(i, "a", i % 2) for i in range(900, 1000)]
    rows += [(i, "b", 1 - i % 2) for i in range(900, 1000)]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    res = df.agree.agreed_subset_noise()
    assert res.t0 - res.n_disagreed == 125
    assert round(res.tau, 4) == 0.1389
    assert pa.agreed_subset_noise(df).tau == res.tau


#: Accessor methods named like a module of the package, left to the module's owner to settle.
METHOD_IS_A_MODULE: set[str] = set()  # no accessor method is named like a module


def test_accessor_methods_are_not_named_like_modules():
    # Only the top level matters: a nested module (krippendorff.alpha) shadows no public name.
    modules = {info.name for info in pkgutil.iter_modules([str(PACKAGE)])}
    assert modules & set(ACCESSOR_METHODS) <= METHOD_IS_A_MODULE
    assert modules & set(pa.__all__) <= {"datasets", "errors", "io", "spans"}
    assert "krippendorff" in modules and "alpha" not in modules


def _public_modules():
    for info in pkgutil.walk_packages([str(PACKAGE)], "pandas_agree."):
        if info.name in ("pandas_agree.__main__",):
            continue
        dask_missing = importlib.util.find_spec("dask") is None
        if info.name.startswith("pandas_agree.frontends.dask") and dask_missing:
            continue
        yield info.name


def test_every_module_defines_all_and_its_names_exist():
    for name in _public_modules():
        module = importlib.import_module(name)
        assert hasattr(module, "__all__"), f"{name} has no __all__"
        for exported in module.__all__:
            assert hasattr(module, exported), f"{name}.__all__ lists missing {exported!r}"


def test_datasets_exports_only_loaders():
    names = set(pa.datasets.__all__)
    assert not names & {"pd", "math", "Any", "Sequence", "annotations"}
    assert dir(pa.datasets) == sorted(names)
    assert all(callable(getattr(pa.datasets, n)) for n in names)


#: Names still meaning two functions, each with the modules' owners to settle it.
TWO_MEANINGS = {
    # data.values_by_units(coded) vs reliability.values_by_units(frame) (data.py, reliability.py)
    "values_by_units",
}


def test_one_function_per_public_name():
    # The same public name must not mean two different functions in two public modules.
    seen: dict[str, object] = {}
    twice = set()
    for name in _public_modules():
        if name.split(".")[-1].startswith("_") or "._" in name:
            continue
        module = importlib.import_module(name)
        for exported in module.__all__:
            obj = getattr(module, exported)
            if not inspect.isfunction(obj):
                continue
            if name.startswith("pandas_agree.frontends.dask") and exported in ("alpha", "report"):
                continue  # the dask route: same name, same meaning, another frame type
            if seen.setdefault(exported, obj) is not obj:
                twice.add(exported)
    assert twice <= TWO_MEANINGS, twice - TWO_MEANINGS
    assert "table_agreement" not in twice and "report" not in twice


def _underscore_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    bad = []
    for node in ast.walk(tree):
        ours = isinstance(node, ast.ImportFrom) and (
            node.level or "pandas_agree" in (node.module or "")
        )
        if ours:
            bad += [a.name for a in node.names if a.name.startswith("_")]
    return bad


@pytest.mark.parametrize(
    "path",
    [
        "__init__.py",
        "frontends/accessor.py",
        "frontends/xarray.py",
        "frontends/dask/__init__.py",
        "frontends/dask/chunks.py",
        "frontends/dask/tables.py",
        "krippendorff/report.py",
        "krippendorff/disagreements.py",
        "frontends/html.py",
    ],
)
def test_no_underscore_names_imported_from_other_modules(path):
    assert _underscore_imports(PACKAGE / path) == []


# ---------------------------------------------------------------------------------------------
# Accessors show what they accept


def test_every_dataframe_accessor_method_is_a_forwarded_function():
    methods = [n for n in dir(AgreeAccessor) if not n.startswith("_")]
    assert sorted(methods) == sorted(ACCESSOR_METHODS)


@pytest.mark.parametrize("method", sorted(ACCESSOR_METHODS))
def test_dataframe_accessor_method_has_its_functions_parameters_and_doc(method):
    func = _target(ACCESSOR_METHODS[method])
    bound = getattr(AgreeAccessor, method)
    assert _params(bound) == _params(func)
    sig_m, sig_f = inspect.signature(bound), inspect.signature(func)
    for name in _params(func):
        assert sig_m.parameters[name].default == sig_f.parameters[name].default, name
        assert sig_m.parameters[name].kind == sig_f.parameters[name].kind, name
    assert bound.__doc__ == func.__doc__


def test_dataframe_accessor_gives_the_functions_numbers():
    # Passonneau (2006), Figures 2-4: MASI alpha -0.349, 0.010, -0.327 (pooled 0.116).
    df = pa.datasets.masi_figures()
    before = df.copy()
    got = df.agree.report("masi", by="figure")["masi"].round(3).tolist()
    assert got == [-0.349, 0.01, -0.327, 0.116]
    pd.testing.assert_frame_equal(df, before)


XARRAY_METHODS = accessor_methods("array")


@pytest.mark.parametrize("method", sorted(XARRAY_METHODS))
def test_xarray_accessor_method_has_its_functions_parameters_and_doc(method):
    xr = pytest.importorskip("xarray")
    func = _target(XARRAY_METHODS[method])
    want = [p for p in _params(func) if p not in COLUMNS]
    for cls in (xr.DataArray.agree, xr.Dataset.agree):
        got = _params(getattr(cls, method))
        assert [p for p in got if p not in DIMS] == want
        assert set(DIMS) <= set(got)
        body = func.__doc__.partition("\n")[2]
        assert getattr(cls, method).__doc__.endswith(body)


def test_xarray_accessor_lists_every_array_method():
    xr = pytest.importorskip("xarray")
    methods = {n for n in dir(xr.DataArray.agree) if not n.startswith("_")}
    assert methods == {*XARRAY_METHODS, "to_long"}


@pytest.mark.parametrize("column", COLUMNS)
def test_xarray_accessor_refuses_column_parameters(column):
    xr = pytest.importorskip("xarray")
    da = xr.DataArray([[1, 2], [1, 2]], dims=("coder", "unit"))
    with pytest.raises(InvalidParameterError, match=rf"`{column}=`.*got {column}='x'"):
        da.agree.alpha(**{column: "x"})


def test_xarray_accessor_unknown_argument_is_an_error():
    xr = pytest.importorskip("xarray")
    da = xr.DataArray([[1, 2], [1, 2]], dims=("coder", "unit"))
    with pytest.raises(TypeError, match="n_bot"):
        da.agree.report(n_bot=10)


def test_dask_accessor_methods_have_the_functions_parameters():
    pytest.importorskip("dask.dataframe")
    import pandas_agree.frontends.dask as pa_dask

    for name in ("alpha", "report"):
        method = getattr(pa_dask.DaskAgreeAccessor, name)
        func = getattr(pa_dask, name)
        assert _params(method) == _params(func)
        assert method.__doc__ == func.__doc__
    # Every parameter of the pandas functions exists on the dask ones.
    assert set(_params(pa.alpha)) <= set(_params(pa_dask.alpha))
    assert set(_params(pa.report)) <= set(_params(pa_dask.report))


@pytest.mark.parametrize(
    ("kwargs", "param"),
    [
        pytest.param({"ci": 0.95}, "ci", id="ci"),
        pytest.param({"ci_method": "units"}, "ci_method", id="ci_method"),
        pytest.param({"n_boot": 500}, "n_boot", id="n_boot"),
        pytest.param({"rng": 1}, "rng", id="rng"),
        pytest.param({"progress": print}, "progress", id="progress"),
        pytest.param({"coefficients": ["cohen_kappa"]}, "coefficients", id="coefficients"),
    ],
)
def test_dask_report_refuses_what_it_cannot_honour(kwargs, param):
    dd = pytest.importorskip("dask.dataframe")
    ddf = dd.from_pandas(pa.datasets.krippendorff_2011(), npartitions=2)
    echo = re.escape(f"got {param}={next(iter(kwargs.values()))!r}")
    with pytest.raises(InvalidParameterError, match=rf"`{param}`.*{echo}"):
        ddf.agree.report(**kwargs)


# ---------------------------------------------------------------------------------------------
# Defaults agree; text comes last


def _n_boot_defaults() -> dict[str, object]:
    found = {}
    for name in _public_modules():
        module = importlib.import_module(name)
        for exported in module.__all__:
            obj = getattr(module, exported)
            funcs = [obj] if inspect.isfunction(obj) else []
            if inspect.isclass(obj):
                funcs = [f for f in vars(obj).values() if inspect.isfunction(f)]
            for f in funcs:
                param = inspect.signature(f).parameters.get("n_boot")
                if param is not None and param.default not in (None, inspect.Parameter.empty):
                    found[f"{name}.{f.__qualname__}"] = param.default
    return found


def test_one_n_boot_default_everywhere():
    from pandas_agree.frontends.cli import build_parser

    found = _n_boot_defaults()
    assert "pandas_agree.krippendorff.report.report" in found
    assert "pandas_agree.krippendorff.bootstrap.bootstrap_alpha" in found
    args = build_parser().parse_args(["report", "data.csv"])
    found["cli --n-boot"] = args.n_boot
    assert set(found.values()) == {2000}, found


def test_report_text_columns_come_last():
    # Passonneau (2006), Figures 2-4 with an interval and a second coefficient.
    df = pa.datasets.masi_figures()
    wide = pa.report(df, ["masi"], by="figure", ci=0.9, n_boot=50, rng=1, coefficients=["mv_alpha"])
    assert list(wide.columns) == [
        "masi",
        "n_units",
        "n_coders",
        "n_pairable",
        "masi_low",
        "masi_high",
        "mv_alpha",
        "reason",
        "coefficient_reason",
    ]
    tidy = pa.report(df, ["masi"], by="figure", tidy=True)
    assert list(tidy.columns)[-1] == "reason"


def test_mv_alpha_is_a_registered_coefficient():
    assert "mv_alpha" in pa.available_coefficients()
    df = pa.datasets.masi_figures()
    table = pa.report(df, "masi", by="figure", coefficients=["mv_alpha"])
    for figure, part in df.groupby("figure"):
        direct = pa.mv_alpha(part)
        assert table.loc[figure, "mv_alpha"] == pytest.approx(float(direct), abs=1e-12)
    # The pooled row nests units in their group, as the alpha columns do.
    nested = df.assign(unit=list(zip(df["figure"], df["unit"])))
    assert table.loc["pooled", "mv_alpha"] == pytest.approx(float(pa.mv_alpha(nested)), abs=1e-12)


@pytest.mark.slow  # a subprocess
def test_looking_up_xarray_does_not_use_up_the_hook():
    """importlib.util.find_spec (a check for an optional dependency) is not an import."""
    pytest.importorskip("xarray")
    out = _run(
        """
        import importlib.util
        import pandas_agree
        assert importlib.util.find_spec("xarray") is not None
        import xarray
        print(hasattr(xarray.DataArray, "agree"))
        """
    )
    assert out.strip().splitlines()[-1] == "True"
