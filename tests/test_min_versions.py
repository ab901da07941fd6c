"""The declared minimum versions are true.

``.ci/run`` installs exactly the declared minimums (numpy, pandas, scipy; xarray from its
extra) in ``.venv-min`` and runs the fast tests there. These tests keep the declarations in
the form that script reads, check that the running environment meets them, and check that
the pandas minimum covers the pandas features the code base uses.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
tomllib = pytest.importorskip("tomllib")  # Python 3.11+, as in CI
Version = pytest.importorskip("packaging.version").Version

_PIN = re.compile(r"([A-Za-z0-9_.-]+)>=([0-9][0-9A-Za-z.]*)")


def _project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _minimums() -> dict[str, str]:
    project = _project()
    extras = project["optional-dependencies"]
    reqs = project["dependencies"] + extras["xarray"] + extras["arrow"]
    out = {}
    for req in reqs:
        match = _PIN.fullmatch(req.replace(" ", ""))
        assert match is not None, f"{req!r} is not of the form name>=X that .ci/run pins"
        out[match[1]] = match[2]
    return out


def test_minimums_cover_the_core_dependencies():
    assert set(_minimums()) == {"numpy", "pandas", "scipy", "xarray", "pyarrow"}


@pytest.mark.parametrize("name", ["numpy", "pandas", "scipy", "xarray", "pyarrow"])
def test_installed_versions_meet_the_declared_minimums(name):
    try:
        installed = metadata.version(name)
    except metadata.PackageNotFoundError:
        pytest.skip(f"{name} is not installed")
    assert Version(installed) >= Version(_minimums()[name])


def _uses(pattern: str) -> list[str]:
    hits = []
    for folder in ("pandas_agree", "tests", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".md") and path.name != Path(__file__).name:
                if re.search(pattern, path.read_text(encoding="utf-8", errors="replace")):
                    hits.append(str(path.relative_to(ROOT)))
    return hits


@pytest.mark.parametrize(
    ("pattern", "needs"),
    [
        # pandas 2.2 release notes: DataFrameGroupBy.apply gained include_groups.
        pytest.param(r"include_groups\s*=", "2.2", id="include_groups"),
        # pandas 2.1 release notes: DataFrame.map (applymap renamed).
        pytest.param(r"\.T\.map\(|DataFrame\.map\b", "2.1", id="DataFrame.map"),
    ],
)
def test_pandas_minimum_covers_the_features_used(pattern, needs):
    users = _uses(pattern)
    if users:
        assert Version(_minimums()["pandas"]) >= Version(needs), users


def test_ci_runs_the_tests_at_the_declared_minimums():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ".venv-min" in script and "tomllib" in script
    tail = script[script.index(".venv-min") :]
    assert 'extras["xarray"]' in script and 'extras["arrow"]' in script
    assert "--no-deps -e ." in tail and "pytest" in tail
