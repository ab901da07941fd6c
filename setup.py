"""Build of the optional C accelerator ``pandas_agree._cells``; the project is described in
pyproject.toml. ``optional=True``: without a C compiler the package installs all the same,
and :mod:`pandas_agree.setvalues` reads set cells by its pure-Python passes instead."""

import numpy as np
from setuptools import Extension, setup

cells = Extension(
    "pandas_agree._cells",
    ["pandas_agree/_cells.c"],
    include_dirs=[np.get_include()],
    optional=True,
)
setup(ext_modules=[cells])
