"""Build of the optional C accelerator ``pandas_agree._cells``; the project is described in
pyproject.toml. ``optional=True``: without a C compiler (or without numpy at build time,
outside build isolation) the package installs all the same, and
:mod:`pandas_agree.setvalues` reads set cells by its pure-Python passes instead."""

from setuptools import Extension, setup

try:
    import numpy as np
except ImportError:  # pragma: no cover - build isolation installs numpy (pyproject.toml)
    ext_modules = []
else:
    ext_modules = [
        Extension(
            "pandas_agree._cells",
            ["pandas_agree/_cells.c"],
            include_dirs=[np.get_include()],
            # the oldest numpy the extension runs on: the declared minimum (pyproject.toml)
            define_macros=[("NPY_TARGET_VERSION", "NPY_1_24_API_VERSION")],
            optional=True,
        )
    ]
setup(ext_modules=ext_modules)
