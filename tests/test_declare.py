"""Tests for pandas_agree.declare: shared parameters completed once, docs, registration, and
every declared function reaching every frontend named in its declaration."""

from __future__ import annotations

import ast
import importlib
import inspect
import pydoc
import re
import sys
import typing
from collections.abc import Hashable

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree import declare
from pandas_agree.declare import SHARED, declarations, declared
from pandas_agree.frontends.accessor import AgreeAccessor
from pandas_agree.kappa.weights import WeightsLike
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

    f.__doc__ = _doc("F.").replace(
        "        Long data.\n",
        '        Long data.\n    on_duplicate : str, default "union"\n        Mine.\n',
    )
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
    monkeypatch.setattr(declare, "_EVERY", list(declare._EVERY))

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


def _entries(doc: str) -> list[tuple[list[str], str, str]]:
    """(names, type, description) of each entry of a numpydoc Parameters section.

    An entry is a line at the section's indentation, ``a, b : type`` or ``a, b``; its
    description is the indented lines below it.
    """
    lines = inspect.cleandoc(doc).split("\n")
    rule = [i for i in range(1, len(lines)) if lines[i] and set(lines[i]) == {"-"}]
    start = next(i + 1 for i in rule if lines[i - 1] == "Parameters")
    end = min([i - 1 for i in rule if i - 1 > start] + [len(lines)])
    out: list[tuple[list[str], str, str]] = []
    for line in lines[start:end]:
        if line and not line[0].isspace():
            names, _, kind = line.partition(" : ")
            out.append(([n.strip().lstrip("*") for n in names.split(",")], kind, ""))
        elif out:
            out[-1] = (out[-1][0], out[-1][1], f"{out[-1][2]}\n{line.strip()}".strip())
    return out


def _stated_defaults(names: list[str], kind: str) -> dict[str, object]:
    """The defaults an entry's type states ("hashable, default "unit", "coder"", one per name
    or one for all)."""
    found = re.search(r"\bdefault\b(.*)$", kind)
    if not found:
        return {}
    values = ast.literal_eval(f"({found.group(1).strip()},)")
    if len(values) == 1:
        values = values * len(names)
    assert len(values) == len(names), (names, kind)
    return dict(zip(names, values))


def _every_declaration() -> list[declare.Declaration]:
    """Every declaration of a function the package's modules hold, register=False ones too."""
    importlib.import_module("pandas_agree.frontends.dask")
    importlib.import_module("pandas_agree.registry")
    declarations()
    found = [
        d
        for d in declare.every_declaration()
        if getattr(sys.modules.get(d.module), d.name, None) is d.func
    ]
    unregistered = {f"{d.module}.{d.name}" for d in found if not d.registered}
    assert {
        "pandas_agree.frontends.dask.alpha",
        "pandas_agree.frontends.dask.report",
        "pandas_agree.registry.coefficient_table",
        "pandas_agree.krippendorff.disagreements.span_disagreements",
        "pandas_agree.spans.f1.unmatched_pairs",
        "pandas_agree.tasks.pyramid.annotation.scu_weights",
        "pandas_agree.tasks.pyramid.scoring.pyramid_sizes",
    } <= unregistered
    assert set(declarations()) <= {d.name for d in found if d.registered}
    return found


def _label(d: declare.Declaration) -> str:
    return f"{d.module}.{d.name}"


def test_every_declared_function_is_public():
    for name, decl in declarations().items():
        assert getattr(pa, name) is decl.func
        assert name in pa.__all__ and name in dir(pa)
        sig = inspect.signature(decl.func)
        for param in decl.shared:
            want = decl.defaults.get(param, SHARED[param].default)
            assert sig.parameters[param].default == want, (name, param)


def test_every_declaration_documents_each_parameter_once_with_its_default():
    for d in _every_declaration():
        sig = inspect.signature(d.func)
        entries = _entries(d.func.__doc__)
        documented = [n for names, _, _ in entries for n in names]
        assert sorted(documented) == sorted(sig.parameters), (_label(d), documented)
        for names, kind, _ in entries:
            assert ":func:" not in kind, (_label(d), names, kind)  # a type, not a reference
            for name, stated in _stated_defaults(names, kind).items():
                assert sig.parameters[name].default == stated, (_label(d), name, kind)


def test_every_declaration_documents_its_parameters_in_signature_order():
    for d in _every_declaration():
        order = list(inspect.signature(d.func).parameters)
        firsts = [order.index(names[0]) for names, _, _ in _entries(d.func.__doc__)]
        assert firsts == sorted(firsts), (_label(d), [order[i] for i in firsts])


def test_no_parameter_entry_refers_to_its_own_function():
    for d in _every_declaration():
        module = sys.modules[d.module]
        for names, kind, text in _entries(d.func.__doc__):
            for target in re.findall(r":func:`~?([\w.]+)`", f"{kind}\n{text}"):
                found = pydoc.locate(target) if "." in target else getattr(module, target, None)
                assert found is not d.func, (_label(d), names, target)


def test_type_hints_cover_every_parameter():
    for d in _every_declaration():
        hints = typing.get_type_hints(d.func)
        assert set(inspect.signature(d.func).parameters) <= set(hints), _label(d)
    assert typing.get_type_hints(pa.span_f1)["match"] == typing.Literal["exact", "overlap"]
    hints = typing.get_type_hints(pa.cohen_kappa)
    assert hints["weights"] is WeightsLike and hints["unit"] is Hashable
    assert typing.get_type_hints(pa.report)["rng"] == int | np.random.Generator | None
    # the inner function keeps its own annotations
    assert "match" not in pa.span_f1.__wrapped__.__annotations__


def test_a_changed_default_is_documented_by_the_function_itself():
    def boot(data, *, ci, n_boot):
        pass

    boot.__doc__ = _doc("Boot.")
    with pytest.raises(TypeError, match=r"changes \['ci'\], which its docstring must document"):
        declared(frontends=(), register=False, defaults={"ci": 0.95})(boot)
    boot.__doc__ = _doc("Boot.").replace(
        "        Long data.\n", "        Long data.\n    ci : float, default 0.95\n        Level.\n"
    )
    public = declared(frontends=(), register=False, defaults={"ci": 0.95})(boot)
    assert inspect.signature(public).parameters["ci"].default == 0.95
    assert "ci : float, default 0.95" in public.__doc__
    assert "ci : float, optional" not in public.__doc__


def test_shared_entries_go_where_the_signature_puts_them():
    def f(data, match, *, extra=1, unit, coder, value, n_boot, rng, coverage, last=2):
        pass

    f.__doc__ = _doc("F.").replace(
        "        Long data.\n",
        "        Long data.\n    extra : int, default 1\n        Extra.\n"
        "    n_boot : int, default 2000\n        Mine.\n    last : int, default 2\n"
        "        Last.\n",
    )
    doc = declared(register=False)(f).__doc__
    names = [n for names, _, _ in _entries(doc) for n in names]
    assert names == [
        "data", "match", "extra", "unit", "coder", "value", "n_boot", "rng", "coverage", "last"
    ]
    assert "        Mine.\n    rng : " in doc


def test_a_group_entry_without_a_type_documents_its_names():
    def f(data, *, unit, coder, value, categories, sep):
        pass

    f.__doc__ = _doc("F.").replace(
        "        Long data.\n", "        Long data.\n    unit, coder, value, sep\n        Mine.\n"
    )
    doc = declared(register=False)(f).__doc__
    names = [n for names, _, _ in _entries(doc) for n in names]
    # categories follows the group, which stands where its first name does
    assert names == ["data", "unit", "coder", "value", "sep", "categories"]


def test_the_docs_of_shared_parameters_say_what_each_function_does():
    def entry(func, name):
        return next(text for names, _, text in _entries(func.__doc__) if name in names)

    assert "``ci``" in entry(pa.u_alpha, "n_boot")
    from pandas_agree.tasks.pyramid.scoring import pyramid_sizes

    assert "the pyramid" not in entry(pyramid_sizes, "docset")
    assert "pyramid_by" in entry(pyramid_sizes, "docset")


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
