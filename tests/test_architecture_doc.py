"""docs/architecture.md names every module of the package, and every path it names exists."""

from __future__ import annotations

import importlib
import pkgutil
import pydoc
import re
import sys
from pathlib import Path

import pytest

import pandas_agree
from pandas_agree.declare import every_declaration

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
PACKAGE = Path(pandas_agree.__file__).resolve().parent

#: Modules being removed from the package (the C accelerators' Python side and the thread
#: pool); the page does not describe them.
LEAVING: set[str] = set()


def _code_spans(text: str) -> list[str]:
    """The inline code spans of a Markdown page (fenced blocks left out)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return [m.strip() for m in re.findall(r"`([^`\n]+)`", text)]


def _as_module(span: str) -> str | None:
    """The dotted module path a code span names (``kappa.icc``, ``kappa/icc.py``, ``kappa/``)."""
    name = span.removeprefix("pandas_agree.").removeprefix("pandas_agree/")
    if name.endswith(".py"):
        name = name[: -len(".py")].replace("/", ".").removesuffix(".__init__")
    elif name.endswith("/"):
        name = name.rstrip("/").replace("/", ".")
    return name if re.fullmatch(r"[A-Za-z_][\w.]*", name) else None


def _modules() -> list[str]:
    prefix = "pandas_agree."
    return sorted(
        info.name[len(prefix) :] for info in pkgutil.walk_packages(pandas_agree.__path__, prefix)
    )


def test_the_walk_finds_the_package() -> None:
    # A walk that imported nothing would make the next test pass on an empty list.
    modules = _modules()
    assert {"krippendorff.alpha", "frontends.dask.chunks", "_core.kernels"} <= set(modules)
    assert len(modules) > 60


@pytest.mark.slow
@pytest.mark.parametrize("module", [m for m in _modules() if m not in LEAVING])
def test_page_names_module(module: str) -> None:
    named = {_as_module(s) for s in _code_spans(PAGE.read_text(encoding="utf-8"))}
    assert module in named, f"docs/architecture.md does not name `{module}`"


def _paths() -> list[str]:
    spans = _code_spans(PAGE.read_text(encoding="utf-8"))
    return sorted(
        {s for s in spans if re.fullmatch(r"[\w./-]+(\.py|/)", s) and not s.startswith("/")}
    )


def test_page_names_paths() -> None:
    assert "frontends/accessor.py" in _paths()
    assert "kappa/" in _paths()


@pytest.mark.parametrize("path", _paths())
def test_path_exists(path: str) -> None:
    # Paths are relative to the package (kappa/icc.py) or to the repository (tests/kappa/).
    path = path.removeprefix("pandas_agree/")
    assert (PACKAGE / path).exists() or (ROOT / path).exists(), (
        f"docs/architecture.md names `{path}`, which does not exist"
    )


def test_the_check_can_fail() -> None:
    assert _as_module("kappa/icc.py") == "kappa.icc"
    assert _as_module("frontends/dask/__init__.py") == "frontends.dask"
    assert _as_module("_core/") == "_core"
    assert _as_module("pandas_agree.krippendorff.alpha") == "krippendorff.alpha"
    assert _as_module('df.agree.alpha(distance="masi")') is None
    assert not (PACKAGE / "no_such_module.py").exists()


def test_page_lists_every_register_false_declaration() -> None:
    """The ``register=False`` rule names each such function by its module path, and every
    dotted name it gives exists."""
    importlib.import_module("pandas_agree.frontends.dask")
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("* **`register=False`**")
    spans = set(_code_spans(text[start : text.index("\n* ", start)]))
    unregistered = {
        f"{d.module.removeprefix('pandas_agree.')}.{d.name}"
        for d in every_declaration()
        if not d.registered and getattr(sys.modules.get(d.module), d.name, None) is d.func
    }
    assert len(unregistered) >= 7
    assert unregistered <= spans, sorted(unregistered - spans)
    for span in spans:
        if re.fullmatch(r"[a-z_]+(\.[a-z_0-9]+)+", span):
            name = span.removeprefix("pandas_agree.")
            assert pydoc.locate(f"pandas_agree.{name}") is not None, span
