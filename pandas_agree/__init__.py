"""pandas_agree: inter-annotator agreement inside pandas.

``import pandas_agree`` registers the ``DataFrame.agree`` accessor.

Examples
--------
Krippendorff (2011), section C, in long form (one row per unit, coder, value):

>>> import pandas_agree as pa
>>> df = pa.datasets.krippendorff_2011()
>>> df.agree.alpha("nominal")
AlphaResult(alpha=0.7434, distance='nominal', n_units=11, n_coders=4, n_pairable=40)
"""

from __future__ import annotations

from . import datasets, distances, errors
from .accessor import AgreeAccessor
from .distances import Distance, available_distances, register_distance
from .intervals import AlphaBootstrap, ConfidenceInterval, bootstrap_alpha
from .reliability import alpha, coincidences, matrix, values_by_units
from .report import report
from .results import AlphaResult

__version__ = "0.1.0"

__all__ = [
    "AgreeAccessor",
    "AlphaBootstrap",
    "AlphaResult",
    "ConfidenceInterval",
    "Distance",
    "alpha",
    "available_distances",
    "bootstrap_alpha",
    "coincidences",
    "datasets",
    "distances",
    "errors",
    "matrix",
    "register_distance",
    "report",
    "values_by_units",
]
