"""pytest runs the Markdown pages of docs/ as doctests; conf.py is Sphinx's, not a test module.

A page about an optional extra is collected only when that extra is installed. (This file's
``collect_ignore`` replaces the root conftest's for docs/, so the guards are listed here.)
"""

import importlib.util

collect_ignore = ["conf.py", "conftest.py"]  # conftest.py: no doctests, and a second
# module named conftest clashes with tests/conftest.py when docs/ is collected first
collect_ignore_glob = ["_build/*", "generated/*"]

# Pages whose examples need an optional extra, by the module they import.
EXTRA_DOCTESTS = {
    "xarray": ["xarray.md"],
    "matplotlib": ["plots.md", "make_figures.py"],
    "dask": ["dask.md"],
    "pyarrow": ["data_formats.md"],  # an Arrow list column among the set-valued shapes
}
for _module, _pages in EXTRA_DOCTESTS.items():
    if importlib.util.find_spec(_module) is None:
        collect_ignore += _pages
