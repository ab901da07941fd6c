"""Token-level kappa of span annotations: :func:`span_kappa`."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Literal

import pandas as pd

from ..declare import declared
from ..errors import InvalidParameterError
from ..kappa import coefficients
from .units import spans_to_units

__all__ = [
    "span_kappa",
]


@declared(frontends=("frame",))
def span_kappa(
    spans: pd.DataFrame,
    method: Literal["cohen", "fleiss"] = "cohen",
    *,
    unit: Literal["token", "char"] = "token",
    tokens: pd.DataFrame | None = None,
    texts: Mapping[Hashable, str] | None = None,
    coders, coverage,
    outside: Hashable = "O",
    multiple: Literal["raise", "join"] = "raise",
    document, coder, start, end, label,
) -> coefficients.CoefficientResult:
    """Token-level Cohen's or Fleiss' kappa: each token's label as a nominal category.

    The units of :func:`spans_to_units` with their label sets made nominal: the empty set
    is the category ``outside`` ("O"), a one-label set is that label. A token covered by
    two different labels of one coder (overlapping or nested spans) has no single label:
    by default that raises; ``multiple="join"`` makes the combination its own category
    (``"LOC+ORG"``, labels sorted as text). Kappa then runs through
    :func:`pandas_agree.cohen_kappa` (two coders: ``coders=[a, b]`` when the spans have
    more) or :func:`pandas_agree.fleiss_kappa` (every token rated by the same number of
    coders).

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame. Not modified.
    method : {"cohen", "fleiss"}, default "cohen"
        Cohen's kappa (two coders) or Fleiss' kappa (two or more) on the units' labels.
    unit : {"token", "char"}, default "token"
        The units: tokens (which need ``tokens`` or ``texts``) or characters, as for
        :func:`spans_to_units`.
    tokens : pandas.DataFrame, optional
        One row per token with the ``document``, ``start``, ``end`` columns, as for
        :func:`spans_to_units`.
    texts : mapping, optional
        Document -> text, tokenized at whitespace, as for :func:`spans_to_units`.
    coders : sequence, optional
        The coders compared, who are taken to have annotated every document.
    coverage : iterable of (document, coder) pairs, optional
        Who saw which document; see :func:`spans_to_units`.
    outside : hashable, default "O"
        The category of tokens without a label; must not be a label of the spans.
    multiple : {"raise", "join"}, default "raise"
        What to do with tokens that carry several labels of one coder.

    Returns
    -------
    CoefficientResult

    Examples
    --------
    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> spans = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B"],
    ...     "start": [0, 9, 0], "end": [4, 13, 4], "label": ["PER", "PER", "PER"]})
    >>> pa.span_kappa(spans, texts={"d1": "Bill met Jill ."})
    CoefficientResult(cohen_kappa=0.5000, observed=0.7500, expected=0.5000, n_units=4, n_coders=2)
    """
    if method not in ("cohen", "fleiss"):
        raise InvalidParameterError(f"`method` must be 'cohen' or 'fleiss', got {method!r}")
    if multiple not in ("raise", "join"):
        raise InvalidParameterError(f"`multiple` must be 'raise' or 'join', got {multiple!r}")
    units = spans_to_units(
        spans,
        unit,
        tokens=tokens,
        texts=texts,
        coders=coders,
        coverage=coverage,
        document=document,
        coder=coder,
        start=start,
        end=end,
        label=label,
    )
    labels = pd.unique(spans[label])
    if any(outside == x for x in labels):
        raise InvalidParameterError(
            f"`outside`={outside!r} is also a span label; pass another outside category"
        )
    distinct = pd.unique(units["value"])
    mapping: dict[frozenset, Hashable] = {}
    for s in distinct:
        if len(s) == 0:
            mapping[s] = outside
        elif len(s) == 1:
            mapping[s] = next(iter(s))
        elif multiple == "join":
            mapping[s] = "+".join(sorted(str(x) for x in s))
        else:
            n = int(units["value"].map(len).gt(1).sum())
            raise InvalidParameterError(
                f"{n} {unit}(s) carry several labels of one coder, e.g. {sorted(map(str, s))}; "
                "kappa needs one category per unit: pass multiple='join' to count each "
                "combination as its own category, or use spans_to_units(...).agree.alpha("
                "distance='masi')"
            )
    long = pd.DataFrame(
        {
            "unit": units["unit"].to_numpy(),
            "coder": units["coder"].to_numpy(),
            "value": units["value"].map(mapping).to_numpy(),
        }
    )
    if method == "cohen":
        return coefficients.cohen_kappa(long, coders=coders)
    return coefficients.fleiss_kappa(long, coders=coders)
