"""Test setup for the whole tree: optional parts' doctests and the ``slow`` marker.

Shared fixtures are in ``tests/conftest.py``; oracles written from the definitions, and
data generators, in ``tests/definitions.py``.
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = ["tests/conftest.py"]  # fixtures, not doctests (and two
# modules named conftest would clash under --doctest-modules)
if importlib.util.find_spec("xarray") is None:
    collect_ignore += ["pandas_agree/frontends/xarray.py", "docs/xarray.md"]
if importlib.util.find_spec("matplotlib") is None:
    collect_ignore += ["pandas_agree/frontends/plot.py", "docs/plots.md", "docs/make_figures.py"]
if importlib.util.find_spec("dask") is None:
    collect_ignore += ["pandas_agree/frontends/dask", "docs/dask.md"]


def pytest_configure(config) -> None:
    """Register the ``slow`` marker: tests over ~2 s (deselect with ``-m "not slow"``)."""
    config.addinivalue_line("markers", "slow: takes more than about 2 s; -m 'not slow' skips it")

