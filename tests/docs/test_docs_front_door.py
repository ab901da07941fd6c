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
            p for p in (ROOT / "docs").rglob(pattern) if "_build" not in p.parts
            and "generated" not in p.parts
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
        pytest.param("(`pip install\n\"pandas-agree[dask]\"`, which", True, id="line-break"),
        pytest.param('pip install "pandas-agree[plot] @ file:///src/pandas_agree"', False,
                     id="direct-reference"),
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
