"""Test setup for the whole tree: optional parts' doctests and the ``slow`` marker.

Shared fixtures are in ``tests/conftest.py``; oracles written from the definitions, and
data generators, in ``tests/definitions.py``.
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = ["tests/conftest.py"]  # fixtures, not doctests (and two
# modules named conftest would clash under --doctest-modules)

# Modules whose doctests need an optional extra, by the module they import: collected only
# where it is installed (``pip install -e ".[test,xarray,plot]"`` has no pyarrow or dask).
# The pages of docs/ are listed in docs/conftest.py.
EXTRA_DOCTESTS: dict[str, list[str]] = {
    "xarray": ["pandas_agree/frontends/xarray.py"],
    "matplotlib": ["pandas_agree/frontends/plot.py"],
    "dask": ["pandas_agree/frontends/dask"],
    "pyarrow": ["pandas_agree/data/strings.py"],
}
for _module, _paths in EXTRA_DOCTESTS.items():
    if importlib.util.find_spec(_module) is None:
        collect_ignore += _paths


def pytest_configure(config) -> None:
    """Register the ``slow`` marker: tests over ~2 s (deselect with ``-m "not slow"``)."""
    config.addinivalue_line("markers", "slow: takes more than about 2 s; -m 'not slow' skips it")
