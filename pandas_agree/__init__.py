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

import importlib
from typing import TYPE_CHECKING, Any

from ._lazy import register_on_import
from .accessor import AgreeAccessor

# Names are imported on first use (PEP 562 ``__getattr__``, as in scientific-python's SPEC 1):
# ``import pandas_agree`` registers ``DataFrame.agree`` and stays cheap (benchmarks/
# bench_import.py); ``pa.alpha``, ``from pandas_agree import alpha`` and ``pa.coref`` import
# their module when they are first looked up.
_SUBMODULES = (
    "coref",
    "datasets",
    "distances",
    "errors",
    "io",
    "noise",
    "plot",
    "pyramid",
    "pyramid_scoring",
    "pyramid_study",
    "spans",
    "weights",
)
_NAMES: dict[str, tuple[str, ...]] = {
    "pyramid_scoring": (
        "pyramid_scores",
        "pyramid_sizes",
        "score_agreement",
        "sentence_weight_variation",
    ),
    "association": ("DiceResult", "dice_association"),
    "categories": ("category_agreement",),
    "coefficient_registry": ("available_coefficients", "register_coefficient"),
    "coefficients": (
        "CoefficientResult",
        "bennett_s",
        "cohen_kappa",
        "cohen_kappa_table",
        "counts_to_long",
        "fleiss_kappa",
        "gwet_ac1",
        "percent_agreement",
        "scott_pi",
        "scott_pi_table",
        "table_to_long",
    ),
    "diagnostics": (
        "AgreementSummary",
        "coder_disagreement",
        "pairwise",
        "summary",
        "unit_disagreement",
    ),
    "distances": ("Distance", "available_distances", "register_distance"),
    "intervals": ("AlphaBootstrap", "ConfidenceInterval", "bootstrap_alpha"),
    "marginals": ("bangdiwala_b", "kappa_max", "max_percent_agreement"),
    "multirater": ("MultiKappaResult", "conger_kappa", "hubert_kappa", "light_kappa"),
    "mvalpha": ("MVAlphaResult", "mv_alpha"),
    "noise_data": ("agreed_subset_noise",),
    "reliability": ("alpha", "coincidences", "matrix", "values_by_units"),
    "reporting": ("report",),
    "results": ("AlphaResult",),
    "spans": (
        "GammaResult",
        "UnitizingAlphaResult",
        "gamma",
        "span_f1",
        "span_kappa",
        "span_report",
        "spans_to_units",
        "unitizing_alpha",
    ),
    "weights": ("WEIGHT_SCHEMES", "weight_matrix"),
}
_MODULE_OF = {name: module for module, names in _NAMES.items() for name in names}


def __getattr__(name: str) -> Any:
    """Import a public name or submodule on first use."""
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # what IDEs and type checkers see
    from . import (
        coref,
        datasets,
        distances,
        errors,
        io,
        noise,
        plot,
        pyramid,
        pyramid_scoring,
        pyramid_study,
        spans,
        weights,
    )
    from .association import DiceResult, dice_association
    from .categories import category_agreement
    from .coefficient_registry import available_coefficients, register_coefficient
    from .coefficients import (
        CoefficientResult,
        bennett_s,
        cohen_kappa,
        cohen_kappa_table,
        counts_to_long,
        fleiss_kappa,
        gwet_ac1,
        percent_agreement,
        scott_pi,
        scott_pi_table,
        table_to_long,
    )
    from .diagnostics import (
        AgreementSummary,
        coder_disagreement,
        pairwise,
        summary,
        unit_disagreement,
    )
    from .distances import Distance, available_distances, register_distance
    from .intervals import AlphaBootstrap, ConfidenceInterval, bootstrap_alpha
    from .marginals import bangdiwala_b, kappa_max, max_percent_agreement
    from .multirater import MultiKappaResult, conger_kappa, hubert_kappa, light_kappa
    from .mvalpha import MVAlphaResult, mv_alpha
    from .noise_data import agreed_subset_noise
    from .pyramid_scoring import (
        pyramid_scores,
        pyramid_sizes,
        score_agreement,
        sentence_weight_variation,
    )
    from .reliability import alpha, coincidences, matrix, values_by_units
    from .reporting import report
    from .results import AlphaResult
    from .spans import (
        GammaResult,
        UnitizingAlphaResult,
        gamma,
        span_f1,
        span_kappa,
        span_report,
        spans_to_units,
        unitizing_alpha,
    )
    from .weights import WEIGHT_SCHEMES, weight_matrix

# DataArray.agree and Dataset.agree, and dask's DataFrame.agree, are registered when xarray or
# dask.dataframe is imported (at once if it already is): importing them here would cost about
# a second. See pandas_agree._lazy.
register_on_import("xarray", "pandas_agree.xarray_accessor")
register_on_import("dask.dataframe", "pandas_agree.dask")

__version__ = "0.1.0"

__all__ = [
    "WEIGHT_SCHEMES",
    "AgreeAccessor",
    "AgreementSummary",
    "AlphaBootstrap",
    "AlphaResult",
    "CoefficientResult",
    "ConfidenceInterval",
    "DiceResult",
    "Distance",
    "GammaResult",
    "MVAlphaResult",
    "MultiKappaResult",
    "UnitizingAlphaResult",
    "agreed_subset_noise",
    "alpha",
    "available_coefficients",
    "available_distances",
    "bangdiwala_b",
    "bennett_s",
    "bootstrap_alpha",
    "category_agreement",
    "coder_disagreement",
    "cohen_kappa",
    "cohen_kappa_table",
    "coincidences",
    "conger_kappa",
    "coref",
    "counts_to_long",
    "datasets",
    "dice_association",
    "distances",
    "errors",
    "fleiss_kappa",
    "gamma",
    "gwet_ac1",
    "hubert_kappa",
    "io",
    "kappa_max",
    "light_kappa",
    "matrix",
    "max_percent_agreement",
    "mv_alpha",
    "noise",
    "pairwise",
    "percent_agreement",
    "plot",
    "pyramid",
    "pyramid_scores",
    "pyramid_scoring",
    "pyramid_sizes",
    "pyramid_study",
    "register_coefficient",
    "register_distance",
    "report",
    "score_agreement",
    "scott_pi",
    "scott_pi_table",
    "sentence_weight_variation",
    "span_f1",
    "span_kappa",
    "span_report",
    "spans",
    "spans_to_units",
    "summary",
    "table_to_long",
    "unit_disagreement",
    "unitizing_alpha",
    "values_by_units",
    "weight_matrix",
    "weights",
]
