"""Build of the optional C accelerators ``pandas_agree._cells`` (set cells read) and
``pandas_agree._core._firstcodes`` (sets and short strings numbered by first appearance);
the project is described in pyproject.toml. ``optional=True``: without a C compiler (or
without numpy at build time, outside build isolation) the package installs all the same,
and the callers take their numpy, pyarrow and pure-Python passes instead."""

from setuptools import Extension, setup

try:
    import numpy as np
except ImportError:  # pragma: no cover - build isolation installs numpy (pyproject.toml)
    ext_modules = []
else:
    ext_modules = [
        Extension(
            name,
            [source],
            include_dirs=[np.get_include()],
            # the oldest numpy the extensions run on: the declared minimum (pyproject.toml)
            define_macros=[("NPY_TARGET_VERSION", "NPY_1_24_API_VERSION")],
            optional=True,
        )
        for name, source in [
            ("pandas_agree._cells", "pandas_agree/_cells.c"),
            ("pandas_agree._core._firstcodes", "pandas_agree/_core/_firstcodes.c"),
        ]
    ]
setup(ext_modules=ext_modules)
