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
    files += [p for p in (ROOT / "pandas_agree").rglob("*.py")]
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
