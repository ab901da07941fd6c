"""The front door: what a newcomer reads first (README, getting started, install lines,
ImportError hints, the test command) is true.

These tests read the repository's files; they import nothing optional.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _text_files() -> list[Path]:
    """README, every documentation source and every module of the package."""
    files = [ROOT / "README.md"]
    for pattern in ("*.md", "*.rst", "*.py", "*.txt"):
        files += [
            p
            for p in (ROOT / "docs").rglob(pattern)
            if "_build" not in p.parts and "generated" not in p.parts
        ]
    files += list((ROOT / "pandas_agree").rglob("*.py"))
    return sorted(files)


# ``pip install pandas-agree`` or ``pip install "pandas-agree[plot]"`` asks a package index
# for a name none holds; ``pip install "pandas-agree[plot] @ file:///..."`` names a path.
_FROM_AN_INDEX = re.compile(
    r"""pip\s+install\s+(?:-{1,2}[\w-]+\s+)*["']?pandas[-_]agree(?:\[[^\]]*\])?["']?"""
    r"""(?!\s*@)(?![\w./\[-])"""
)


@pytest.mark.parametrize(
    ("line", "from_an_index"),
    [
        pytest.param("pip install pandas-agree", True, id="bare"),
        pytest.param('$ pip install "pandas-agree[xarray,plot]"  # the', True, id="extras"),
        pytest.param("pip install -U pandas_agree", True, id="upgrade-underscore"),
        pytest.param('(`pip install\n"pandas-agree[dask]"`, which', True, id="line-break"),
        pytest.param(
            'pip install "pandas-agree[plot] @ file:///src/pandas_agree"',
            False,
            id="direct-reference",
        ),
        pytest.param('pip install ".[plot]"', False, id="clone"),
        pytest.param("pip install -e .", False, id="editable"),
        pytest.param("pip install pyarrow", False, id="other-package"),
    ],
)
def test_the_index_install_pattern(line, from_an_index):
    assert bool(_FROM_AN_INDEX.search(line)) is from_an_index


def test_no_install_line_asks_a_package_index_for_pandas_agree():
    """Until a release exists, every install line installs from the repository."""
    offenders = []
    for path in _text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in _FROM_AN_INDEX.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            offenders.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)!r}")
    assert offenders == []


# A doctest needs an optional extra when one of its examples imports the extra's module at
# top level, or reads Arrow or Parquet data (which needs pyarrow). An import inside a
# ``try: ... except ImportError`` block is a continuation line (``...``) and guards itself.
_NEEDS = {
    "xarray": re.compile(r"^\s*>>> (?:import|from) xarray\b", re.M),
    "matplotlib": re.compile(r"^\s*>>> (?:import|from) matplotlib\b", re.M),
    "dask": re.compile(r"^\s*>>> (?:import|from) dask\b", re.M),
    "pyarrow": re.compile(
        r"^\s*>>> (?:import|from) pyarrow\b"
        r"|^\s*(?:>>>|\.\.\.) .*(?:read_parquet|\[pyarrow\]|ArrowDtype)",
        re.M,
    ),
}


def _guards() -> dict[str, set[Path]]:
    """The paths each conftest collects only where an extra is installed, by module."""
    import runpy

    guards: dict[str, set[Path]] = {}
    for conftest in (ROOT / "conftest.py", ROOT / "docs" / "conftest.py"):
        table = runpy.run_path(str(conftest)).get("EXTRA_DOCTESTS", {})
        for module, paths in table.items():
            guards.setdefault(module, set()).update(conftest.parent / p for p in paths)
    return guards


def _doctest_sources() -> list[Path]:
    """Every file pytest collects doctests from (testpaths and --doctest-glob='*.md')."""
    files = [ROOT / "README.md"]
    files += list((ROOT / "pandas_agree").rglob("*.py"))
    files += [
        p
        for p in (ROOT / "docs").rglob("*")
        if p.suffix in (".md", ".py")
        and not {"_build", "generated"} & set(p.parts)
        and p.name not in ("conf.py", "conftest.py")
    ]
    return sorted(files)


def test_the_needs_patterns():
    page = (
        ">>> import pyarrow\n>>> s = pd.Series(x, dtype='string[pyarrow]')\n"
        ">>> try:\n...     import matplotlib\n... except ImportError:\n...     pass\n"
    )
    assert _NEEDS["pyarrow"].search(page)
    assert not _NEEDS["matplotlib"].search(page)
    assert _NEEDS["pyarrow"].search("    ...     pd.read_parquet(path)")
    assert not _NEEDS["pyarrow"].search("Arrow list columns, `pd.read_parquet(...)` gives")


def test_every_doctest_that_needs_an_extra_skips_without_it():
    """A doctest importing an optional module is collected only where it is installed,
    so ``pip install -e ".[test,xarray,plot]" && python -m pytest`` passes without pyarrow."""
    guards = _guards()
    unguarded = []
    for path in _doctest_sources():
        text = path.read_text(encoding="utf-8", errors="replace")
        for module, pattern in _NEEDS.items():
            if pattern.search(text):
                guarded = guards.get(module, set())
                if not any(g == path or g in path.parents for g in guarded):
                    unguarded.append(f"{path.relative_to(ROOT)} needs {module}")
    assert unguarded == []


# -- The README's first screen leads from a tool's export to a table -----------------------

FIRST_SCREEN = 45  # lines of a terminal or of the repository page before scrolling

_EXPORT_WORDS = [
    "read_brat",
    "read_label_studio",
    "span_report",
    "pandas-agree spans",
    "brat",
    "Label Studio",
    "WebAnno",
    "INCEpTION",
    "CoNLL-2012",
    "doccano",
    "Prodigy",
]

# The placeholders of the README and docs/index.md, and the bundled exports standing in.
_PLACEHOLDERS = {"annotations/": "brat", "export.json": "label_studio.json"}


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.M | re.S)


@pytest.mark.parametrize("word", _EXPORT_WORDS)
def test_the_readme_first_screen_names_the_readers_and_span_agreement(word):
    head = "\n".join((ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:FIRST_SCREEN])
    assert word in head


@pytest.mark.parametrize("word", _EXPORT_WORDS)
def test_the_documentation_front_page_names_the_readers_and_span_agreement(word):
    assert word in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")


def test_the_readme_first_commands_are_the_install_and_the_ci_test_command():
    """The README's first code block: install + demo, then the test command CI runs."""
    first = _blocks((ROOT / "README.md").read_text(encoding="utf-8"), "bash")[0].splitlines()
    assert first[0].endswith("pip install -e . && pandas-agree demo")
    assert first[1].endswith("&& python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest            # the README's test command" in ci


def _export_lines(page: Path) -> tuple[str, list[str]]:
    """The page's Python block reading an export, and its ``pandas-agree`` command lines."""
    text = page.read_text(encoding="utf-8")
    python = [b for b in _blocks(text, "python") if "pa.io.read_" in b and ">>>" not in b]
    commands = [
        line[2:]
        for block in _blocks(text, "console")
        for line in block.splitlines()
        if line.startswith("$ pandas-agree spans")
    ]
    assert len(python) == 1 and commands, page
    return python[0], commands


def _with_examples(code: str) -> str:
    from pandas_agree import io

    for placeholder, example in _PLACEHOLDERS.items():
        code = code.replace(f'"{placeholder}"', repr(str(io.example_path(example))))
    return code


@pytest.mark.slow
@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
@pytest.mark.parametrize("tool", ["brat", "label_studio"])
def test_the_export_lines_give_a_table_on_the_bundled_exports(page, tool, capsys):
    import pandas_agree as pa

    code, _ = _export_lines(ROOT / page)
    if tool == "label_studio":  # the reader named in the comment: "# or pa.io.read_...(...)"
        alternative = re.search(r"# or (pa\.io\.read_\w+\(.*?\))", code)
        assert alternative is not None
        code = re.sub(r"pa\.io\.read_brat\(.*?\)", alternative[1], code, count=1)
    namespace: dict = {}
    exec(_with_examples(code), namespace)
    printed = capsys.readouterr().out
    assert "(pooled)" in printed and "f1_exact" in printed
    spans = namespace["spans"]
    if spans.attrs.get("texts"):  # a reader that keeps the texts gives the token alphas
        table = pa.span_report(spans, by_document=True)
        assert table["alpha_masi"].notna().all(), table["reason"].tolist()


@pytest.mark.slow
@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_the_export_commands_give_a_table_on_the_bundled_exports(page, capsys):
    import shlex

    from pandas_agree import io
    from pandas_agree.frontends.cli import main

    _, commands = _export_lines(ROOT / page)
    for command in commands:
        argv = shlex.split(command)[1:]  # without the program name
        argv = [str(io.example_path(_PLACEHOLDERS[a])) if a in _PLACEHOLDERS else a for a in argv]
        assert main(argv) == 0, command
        assert "(pooled)" in capsys.readouterr().out, command


# -- No promise about time that the machine cannot keep ------------------------------------

_DURATION_CLAIM = re.compile(
    r"\b(?:under|within|less than|in about|takes?|runs? in)\s+"
    r"(?:a|one|two|a few|\d+(?:\.\d+)?)\s*(?:minutes?|min|seconds?|s)\b",
    re.I,
)


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        pytest.param("That is the fast loop (under a minute on two cores)", True, id="minute"),
        pytest.param("the suite runs in 45 s", True, id="seconds"),
        pytest.param("marked slow (over about 2 s each)", False, id="slow-marker"),
        pytest.param("how long it takes depends on the machine", False, id="no-number"),
    ],
)
def test_the_duration_claim_pattern(text, claim):
    assert bool(_DURATION_CLAIM.search(text)) is claim


@pytest.mark.parametrize("page", ["README.md", "docs/getting_started.md"])
def test_the_test_command_promises_no_duration(page):
    """How long the test loop takes depends on the machine and its load: no number."""
    text = (ROOT / page).read_text(encoding="utf-8")
    assert _DURATION_CLAIM.findall(text) == []


# -- The documentation site: the theme, and an API page for every public name ---------------


def test_the_site_uses_pydata_sphinx_theme_from_the_docs_extra():
    tomllib = pytest.importorskip("tomllib")
    with open(ROOT / "pyproject.toml", "rb") as f:
        docs_extra = tomllib.load(f)["project"]["optional-dependencies"]["docs"]
    assert any(req.startswith("pydata-sphinx-theme") for req in docs_extra)
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    assert re.search(r'^html_theme = "pydata_sphinx_theme"$', conf, re.M)


def test_code_blocks_wrap_instead_of_scrolling_sideways():
    css = (ROOT / "docs" / "_static" / "custom.css").read_text(encoding="utf-8")
    rule = re.search(r"div\.highlight pre\s*\{(.*?)\}", css, re.S)
    assert rule is not None and "white-space: pre-wrap" in rule[1]
    assert '"custom.css"' in (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")


def _api_page(tmp_path: Path) -> str:
    """api.rst with the lists it includes, as the documentation build writes them."""
    import runpy

    pytest.importorskip("xarray")  # the API page documents the xarray accessors
    write_api_lists = runpy.run_path(str(ROOT / "docs" / "api_lists.py"))["write_api_lists"]
    write_api_lists(tmp_path)
    text = (ROOT / "docs" / "api.rst").read_text(encoding="utf-8")
    return re.sub(
        r"^\.\. include:: (\S+)$",
        lambda m: (tmp_path / m[1]).read_text(encoding="utf-8"),
        text,
        flags=re.M,
    )


def _autosummary_entries(page: str) -> set[str]:
    """The full names in the page's autosummary lists (``currentmodule`` + entry)."""
    entries, module, in_list = set(), "", False
    for line in page.splitlines():
        if line.startswith(".. currentmodule::"):
            module = line.split("::", 1)[1].strip()
        elif line.startswith(".. autosummary::"):
            in_list = True
        elif in_list and line.startswith("   ") and not line.strip().startswith(":"):
            entries.add(f"{module}.{line.strip()}")
        elif in_list and line and not line.startswith(" "):
            in_list = False
    return entries


def test_every_public_function_and_class_has_an_api_page(tmp_path):
    """Every function and class of ``pandas_agree.__all__`` and of each public submodule's
    ``__all__`` is in an autosummary list of the API page (so it gets a page with its
    signature), and every method of ``DataFrame.agree``."""
    import importlib
    import inspect
    import types

    import pandas_agree

    entries = _autosummary_entries(_api_page(tmp_path))
    documented = set()  # id() of each listed object
    for entry in entries:
        module_name, _, name = entry.rpartition(".")
        if module_name.startswith("pandas_agree"):  # not the accessors' pandas./xarray. names
            documented.add(id(getattr(importlib.import_module(module_name), name)))
    missing = []
    for name in pandas_agree.__all__:
        obj = getattr(pandas_agree, name)
        members = (
            [(f"{name}.{m}", getattr(obj, m)) for m in obj.__all__]
            if isinstance(obj, types.ModuleType)
            else [(name, obj)]
        )
        for label, member in members:
            if label == "AgreeAccessor":
                continue  # the accessor's page is DataFrame.agree
            if (inspect.isclass(member) or inspect.isfunction(member)) and id(
                member
            ) not in documented:
                missing.append(label)
    methods = [m for m in dir(pandas_agree.AgreeAccessor) if not m.startswith("_")]
    missing += [
        f"DataFrame.agree.{m}" for m in methods if f"pandas.DataFrame.agree.{m}" not in entries
    ]
    assert missing == []
