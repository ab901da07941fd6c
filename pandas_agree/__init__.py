"""pandas_agree: inter-annotator agreement inside pandas.

``import pandas_agree`` registers the ``DataFrame.agree`` accessor.

Examples
--------
>>> import pandas as pd
>>> import pandas_agree as pa
>>> df = pd.DataFrame({
...     "unit": [1, 1, 2, 2, 3, 3],
...     "coder": ["a", "b"] * 3,
...     "value": [{"x"}, {"x"}, {"x", "y"}, {"x"}, {"z"}, {"z"}],
... })
>>> round(df.agree.alpha(distance="masi").alpha, 4)
0.8571
"""

from __future__ import annotations

from . import datasets, distances, errors
from .accessor import AgreeAccessor
from .distances import Distance, available_distances, register_distance
from .reliability import alpha, coincidences, matrix, values_by_units
from .results import AlphaResult

__version__ = "0.1.0"

__all__ = [
    "AgreeAccessor",
    "AlphaResult",
    "Distance",
    "alpha",
    "available_distances",
    "coincidences",
    "datasets",
    "distances",
    "errors",
    "matrix",
    "register_distance",
    "values_by_units",
]
