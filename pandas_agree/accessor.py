"""``DataFrame.agree``: an adapter that forwards to the plain functions. No statistics here.

Every method is :func:`pandas_agree._forward.forward` of a public function: it has that
function's explicit signature (without the frame) and its full docstring, so ``help()``, IDEs
and tab completion show every option. The function is looked up when the method is first
used (:class:`ForwardTo`), so ``import pandas_agree`` does not import every topic module.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pandas as pd

from ._forward import forward

__all__ = ["ACCESSOR_METHODS", "AgreeAccessor", "ForwardTo"]


class ForwardTo:
    """A class attribute that becomes ``forward(module.function)`` when first looked up.

    Parameters
    ----------
    module : str
        Module of :mod:`pandas_agree` holding the function (``"reliability"``).
    function : str, optional
        The function's name; default the attribute's name.
    make : callable, default :func:`pandas_agree._forward.forward`
        Builds the method from the function (another accessor may pass its own).

    Examples
    --------
    >>> class Acc:
    ...     def __init__(self, obj):
    ...         self._obj = obj
    ...     alpha = ForwardTo("reliability")
    >>> import pandas_agree as pa
    >>> round(Acc(pa.datasets.krippendorff_2011()).alpha("interval").alpha, 3)
    0.849
    """

    def __init__(
        self,
        module: str,
        function: str | None = None,
        make: Callable[[Callable[..., Any]], Callable[..., Any]] = forward,
    ) -> None:
        self.module = module
        self.function = function
        self.make = make
        self.attr = function

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = name
        if self.function is None:
            self.function = name
        # Not the class's docstring (its example would run once per attribute as a doctest).
        self.__doc__ = f"Forwards to pandas_agree.{self.module}.{self.function}."

    def target(self) -> Callable[..., Any]:
        """The function the method calls (imports its module)."""
        module = importlib.import_module(f"pandas_agree.{self.module}")
        return getattr(module, str(self.function))

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        owner = type(obj) if owner is None else owner
        method = self.make(self.target())
        setattr(owner, str(self.attr), method)  # later look-ups find the plain function
        return method if obj is None else method.__get__(obj, owner)


@pd.api.extensions.register_dataframe_accessor("agree")
class AgreeAccessor:
    """Agreement statistics on long data: ``df.agree.alpha(distance="masi")``.

    Every method takes ``unit=``, ``coder=``, ``value=`` column names (defaults ``"unit"``,
    ``"coder"``, ``"value"``) and forwards to the function of the same name in
    :mod:`pandas_agree`, with the frame as first argument. The frame is never modified.

    Examples
    --------
    >>> import pandas_agree as pa
    >>> df = pa.datasets.krippendorff_2011()
    >>> round(df.agree.alpha("interval").alpha, 3)
    0.849
    >>> import inspect
    >>> list(inspect.signature(df.agree.alpha).parameters)[:4]
    ['distance', 'unit', 'coder', 'value']
    """

    def __init__(self, obj: pd.DataFrame) -> None:
        self._obj = obj

    # Krippendorff's alpha and its tables (pandas_agree.reliability, reporting, mvalpha)
    alpha = ForwardTo("reliability")
    matrix = ForwardTo("reliability")
    coincidences = ForwardTo("reliability")
    values_by_units = ForwardTo("reliability")
    report = ForwardTo("reporting")
    mv_alpha = ForwardTo("mvalpha")

    # Other coefficients (pandas_agree.coefficients)
    percent_agreement = ForwardTo("coefficients")
    cohen_kappa = ForwardTo("coefficients")
    scott_pi = ForwardTo("coefficients")
    fleiss_kappa = ForwardTo("coefficients")
    bennett_s = ForwardTo("coefficients")
    gwet_ac1 = ForwardTo("coefficients")

    # Multi-rater kappas, per-category agreement and marginal bounds
    conger_kappa = ForwardTo("multirater")
    light_kappa = ForwardTo("multirater")
    hubert_kappa = ForwardTo("multirater")
    category_agreement = ForwardTo("categories")
    bangdiwala_b = ForwardTo("marginals")
    kappa_max = ForwardTo("marginals")
    max_percent_agreement = ForwardTo("marginals")
    dice_association = ForwardTo("association")

    # Diagnostics (pandas_agree.diagnostics)
    pairwise = ForwardTo("diagnostics")
    summary = ForwardTo("diagnostics")

    # Converters (pandas_agree.coref, pandas_agree.pyramid)
    chains_to_codes = ForwardTo("coref")
    link_table = ForwardTo("coref")
    link_table_by_document = ForwardTo("coref")
    scus_to_codes = ForwardTo("pyramid")
    mean_scu_weight = ForwardTo("pyramid")

    # Pyramid scores and their reliability (pandas_agree.pyramid_scoring, pyramid_study):
    # the frame is the peer annotations (pyramid_scores) or the scores (the rest)
    pyramid_scores = ForwardTo("pyramid_scoring")
    sentence_weight_variation = ForwardTo("pyramid_scoring")
    score_agreement = ForwardTo("pyramid_scoring")
    score_anova = ForwardTo("pyramid_study")
    tukey_hsd = ForwardTo("pyramid_study")

    # Span frames (pandas_agree.spans): document, coder, start, end, label
    spans_to_units = ForwardTo("spans")
    span_f1 = ForwardTo("spans")
    span_kappa = ForwardTo("spans")
    span_report = ForwardTo("spans")
    unitizing_alpha = ForwardTo("spans")

    # Model annotators beside human ones (pandas_agree.tasks.models)
    alt_test = ForwardTo("tasks.models")
    candidate_report = ForwardTo("tasks.models")
    self_consistency = ForwardTo("tasks.models")

    # Noise in the agreed subset (pandas_agree.noise_data; the model is pandas_agree.noise)
    agreed_subset_noise = ForwardTo("noise_data")


#: Every method of ``DataFrame.agree`` and the function it calls, as "module.function".
ACCESSOR_METHODS: dict[str, str] = {
    name: f"{attr.module}.{attr.function}"
    for name, attr in vars(AgreeAccessor).items()
    if isinstance(attr, ForwardTo)
}
