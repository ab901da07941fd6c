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

import importlib as _importlib
import typing as _typing

from . import declare as _declare
from .frontends.accessor import AgreeAccessor
from .frontends.lazy import register_on_import as _register_on_import

# Names are imported on first use (PEP 562 ``__getattr__``, as in scientific-python's SPEC 1):
# ``import pandas_agree`` registers ``DataFrame.agree`` and stays cheap (benchmarks/
# bench_import.py); ``pa.alpha``, ``from pandas_agree import alpha`` and ``pa.coref`` import
# their module when they are first looked up.
_SUBMODULES = {  # public name -> module
    "coref": "tasks.coref",
    "datasets": "datasets",
    "distances": "krippendorff.distances",
    "errors": "errors",
    "io": "io",
    "noise": "tasks.noise",
    "plot": "frontends.plot",
    "pyramid": "tasks.pyramid",
    "pyramid_scoring": "tasks.pyramid.scoring",
    "pyramid_study": "tasks.pyramid.study",
    "spans": "spans",
    "weights": "kappa.weights",
}
_NAMES: dict[str, tuple[str, ...]] = {  # names that are not declared functions
    "kappa.coefficients": (
        "CoefficientResult",
        "cohen_kappa_table",
        "counts_to_long",
        "scott_pi_table",
        "table_to_long",
    ),
    "kappa.multi_coder": ("MultiKappaResult",),
    "kappa.weights": ("WEIGHT_SCHEMES", "weight_matrix"),
    "krippendorff.bootstrap": ("AlphaBootstrap", "ConfidenceInterval", "bootstrap_alpha"),
    "krippendorff.diagnostics": ("AgreementSummary", "coder_disagreement", "unit_disagreement"),
    "krippendorff.distances": ("Distance", "available_distances", "register_distance"),
    "krippendorff.multivalued": ("MVAlphaResult",),
    "registry": ("available_coefficients", "register_coefficient"),
    "results": ("AlphaResult",),
    "spans": ("GammaResult", "RelationAlphaResult", "UAlphaResult", "UnitizingAlphaResult"),
    "tasks.association": ("DiceResult",),
    "tasks.hierarchy": ("HierarchicalF1Result", "Taxonomy"),
    "tasks.models": ("AltTestResult", "CandidateReport", "SelfConsistencyResult"),
    "tasks.pyramid.scoring": ("pyramid_sizes",),
}
_MODULE_OF = {name: module for module, names in _NAMES.items() for name in names}


def _public() -> list[str]:
    """The public surface: submodules, listed names and every declared function."""
    return sorted({"AgreeAccessor", *_SUBMODULES, *_MODULE_OF, *_declare.declarations()})


def __getattr__(name: str) -> object:
    """Import a public name or submodule on first use; ``__all__`` lists them all."""
    if name == "__all__":
        return _public()
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{_SUBMODULES[name]}")
    module = _MODULE_OF.get(name)
    if module is not None:
        value = getattr(_importlib.import_module(f"{__name__}.{module}"), name)
    else:
        found = _declare.find(name)
        if found is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = found.func
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return [*_public(), "__version__"]


if _typing.TYPE_CHECKING:  # what IDEs and type checkers see
    from . import datasets, errors, io, spans
    from .frontends import plot
    from .kappa import weights
    from .kappa.categories import category_agreement
    from .kappa.coefficients import (
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
    from .kappa.marginals import bangdiwala_b, kappa_max, max_percent_agreement
    from .kappa.multi_coder import MultiKappaResult, conger_kappa, hubert_kappa, light_kappa
    from .kappa.weights import WEIGHT_SCHEMES, weight_matrix
    from .krippendorff import distances
    from .krippendorff.alpha import alpha, coincidences, matrix, values_by_units
    from .krippendorff.bootstrap import AlphaBootstrap, ConfidenceInterval, bootstrap_alpha
    from .krippendorff.diagnostics import (
        AgreementSummary,
        coder_disagreement,
        pairwise,
        summary,
        unit_disagreement,
    )
    from .krippendorff.distances import Distance, available_distances, register_distance
    from .krippendorff.multivalued import MVAlphaResult, mv_alpha
    from .krippendorff.report import report
    from .registry import available_coefficients, register_coefficient
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
    from .tasks import coref, noise, pyramid
    from .tasks.association import DiceResult, dice_association
    from .tasks.noise.frame import agreed_subset_noise
    from .tasks.pyramid import scoring as pyramid_scoring
    from .tasks.pyramid import study as pyramid_study
    from .tasks.pyramid.scoring import (
        pyramid_scores,
        pyramid_sizes,
        score_agreement,
        sentence_weight_variation,
    )

# DataArray.agree and Dataset.agree, and dask's DataFrame.agree, are registered when xarray or
# dask.dataframe is imported (at once if it already is): importing them here would cost about
# a second. See pandas_agree.frontends.lazy.
_register_on_import("xarray", "pandas_agree.frontends.xarray")
_register_on_import("dask.dataframe", "pandas_agree.frontends.dask")

__version__ = "0.1.0"
