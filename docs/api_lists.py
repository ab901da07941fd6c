"""The lists of the API page, written from the public surface when the documentation is built.

``docs/conf.py`` calls :func:`write_api_lists`; ``api.rst`` includes the files it writes
(``_api_*.rst``, which git ignores), and autosummary makes a page of each entry in
``generated/``. The lists come from ``pandas_agree.__all__`` (the declared functions among
it), each public submodule's ``__all__`` and the accessors' methods, so a newly declared
function gets its page without an edit here.
"""

from __future__ import annotations

import inspect
import types
from pathlib import Path

import pandas_agree

# Top-level functions and classes, in sections by the topic folder that defines them (the first
# prefix that matches); a name in none of them goes to a section named after its module.
API_TOPICS = [
    ("Krippendorff's alpha", ("pandas_agree.krippendorff", "pandas_agree.results")),
    ("Kappa family and other coefficients", ("pandas_agree.kappa", "pandas_agree.registry")),
    ("Span annotations", ("pandas_agree.spans",)),
    ("Association", ("pandas_agree.tasks.association",)),
    ("Coreference", ("pandas_agree.tasks.coref",)),
    ("Pyramids", ("pandas_agree.tasks.pyramid",)),
    ("Noise in the agreed subset", ("pandas_agree.tasks.noise",)),
    ("Hierarchical labels", ("pandas_agree.tasks.hierarchy",)),
    ("Models as annotators", ("pandas_agree.tasks.models",)),
]
# Submodules in this order, then any other in alphabetical order.
API_MODULES = [
    "io",
    "spans",
    "distances",
    "weights",
    "coref",
    "pyramid",
    "noise",
    "datasets",
    "plot",
    "errors",
]


def _documentable(obj: object) -> bool:
    """A function or class (constants and type aliases are described in their module's text)."""
    return inspect.isclass(obj) or inspect.isfunction(obj)


def _ordered(module: types.ModuleType, names: list[str]) -> list[str]:
    """Functions first, then classes; each in alphabetical order."""
    return sorted(names, key=lambda n: (inspect.isclass(getattr(module, n)), n.lower()))


def _autosummary(module: str, names: list[str], template: str | None = None) -> list[str]:
    lines = [f".. currentmodule:: {module}", "", ".. autosummary::", "   :toctree: generated/"]
    if template:
        lines.append(f"   :template: {template}")
    return [*lines, "", *(f"   {name}" for name in names), ""]


def _heading(title: str, char: str = "~") -> list[str]:
    return [title, char * len(title), ""]


def write_api_lists(folder: Path) -> dict[str, list[str]]:
    """Write the autosummary lists api.rst includes; return the accessors' method names.

    ``_api_toplevel.rst``: every function and class of ``pandas_agree.__all__``, by
    topic. ``_api_modules.rst``: each public submodule's text and the functions and
    classes of its ``__all__`` that are not already listed. ``_api_accessors.rst``:
    the methods of ``DataFrame.agree``, ``DataArray.agree``, ``Dataset.agree``.
    """
    listed: set[int] = set()  # id() of every object with a page

    sections: dict[str, list[str]] = {title: [] for title, _ in API_TOPICS}
    submodules: list[str] = []
    for name in pandas_agree.__all__:
        obj = getattr(pandas_agree, name)
        if isinstance(obj, types.ModuleType):
            submodules.append(name)
        elif name != "AgreeAccessor" and _documentable(obj):  # the accessor has its section
            title = next(
                (t for t, prefixes in API_TOPICS if obj.__module__.startswith(prefixes)),
                f"``{obj.__module__}``",
            )
            sections.setdefault(title, []).append(name)
            listed.add(id(obj))
    out = []
    for title, names in sections.items():
        if names:
            out += _heading(title) + _autosummary("pandas_agree", _ordered(pandas_agree, names))
    (folder / "_api_toplevel.rst").write_text("\n".join(out), encoding="utf-8")

    order = {name: i for i, name in enumerate(API_MODULES)}
    out = []
    for name in sorted(submodules, key=lambda n: (order.get(n, len(order)), n)):
        module = getattr(pandas_agree, name)
        new, already = [], []
        for member in module.__all__:
            obj = getattr(module, member)
            if not _documentable(obj):
                continue
            if id(obj) in listed:
                if hasattr(pandas_agree, member) and getattr(pandas_agree, member) is obj:
                    already.append(member)
                continue
            new.append(member)
            listed.add(id(obj))
        if not new:  # all listed elsewhere (pyramid_scoring, pyramid_study: see pyramid)
            continue
        out += _heading(f"``pandas_agree.{name}``")
        out += [f".. automodule:: {module.__name__}", "   :no-members:", ""]
        if already:
            refs = ", ".join(
                f":func:`~pandas_agree.{m}`"
                if inspect.isfunction(getattr(module, m))
                else f":class:`~pandas_agree.{m}`"
                for m in already
            )
            out += [f"Also in this module, listed above: {refs}.", ""]
        out += _autosummary(module.__name__, _ordered(module, new))
    (folder / "_api_modules.rst").write_text("\n".join(out), encoding="utf-8")

    import pandas_agree.frontends.xarray as xr_frontend

    def methods(cls: type) -> list[str]:
        return sorted(m for m in dir(cls) if not m.startswith("_"))

    accessors = {
        "frame": methods(pandas_agree.AgreeAccessor),
        "array": methods(xr_frontend.AgreeDataArrayAccessor),
        "dataset": methods(xr_frontend.AgreeDatasetAccessor),
    }
    out = _heading("``DataFrame.agree``", "~")
    out += _autosummary("pandas", ["DataFrame.agree"], "autosummary/accessor.rst")
    out += _autosummary(
        "pandas",
        [f"DataFrame.agree.{m}" for m in accessors["frame"]],
        "autosummary/accessor_method.rst",
    )
    out += _heading("``DataArray.agree`` and ``Dataset.agree``", "~")
    out += _autosummary("xarray", ["DataArray.agree", "Dataset.agree"], "autosummary/accessor.rst")
    out += _autosummary(
        "xarray",
        [f"DataArray.agree.{m}" for m in accessors["array"]]
        + [f"Dataset.agree.{m}" for m in accessors["dataset"]],
        "autosummary/accessor_method.rst",
    )
    (folder / "_api_accessors.rst").write_text("\n".join(out), encoding="utf-8")
    return accessors
