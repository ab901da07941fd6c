r"""Span annotations: units with label sets, span F1, Krippendorff's unitizing alpha.

A *span frame* has one row per annotated span: ``document, coder, start, end, label``
(character offsets, ``end`` exclusive), the shape the readers of :mod:`pandas_agree.io`
return. Every function takes the column names as keywords (``document=``, ``coder=``,
``start=``, ``end=``, ``label=``) and never modifies the frame.

* :func:`spans_to_units` turns spans into long reliability data: one row per (token or
  character, coder) whose value is the set of labels covering it, ready for
  ``units.agree.alpha(distance="masi")``.
* :func:`span_f1`: pairwise precision, recall and F1 per coder pair and label, with exact or
  overlap matching (what brat-based tools such as bratiaa report).
* :func:`span_kappa`: token-level Cohen's or Fleiss' kappa through the existing coefficients.
* :func:`unitizing_alpha`: Krippendorff's :math:`\alpha_U` for a continuum with gaps
  (Krippendorff 1995; 2004, section 12.4), overall and per category.
* :func:`u_alpha`: Krippendorff's u-alpha family (Krippendorff et al. 2016; 2019, section
  12.6): :math:`{}_u\alpha`, :math:`{}_{|u}\alpha`, :math:`{}_{cu}\alpha` and
  :math:`{}_{(k)u}\alpha`, per document and pooled, with bootstrap intervals.
* :func:`span_report`: all of these side by side, per document and pooled (the table of
  ``pandas-agree spans``).
* :func:`gamma`: Mathet et al.'s (2015) :math:`\gamma` on the exact best alignment of the
  units, with :math:`\gamma_{cat}` and :math:`\gamma_k` (Mathet 2017), per document and
  pooled.
* :func:`relation_f1` and :func:`relation_alpha`: agreement on relations between spans
  (a *relation frame*: ``document, coder, relation, label, head, tail`` and the head and
  tail offsets and labels), see :mod:`pandas_agree.spans.relations`.

Who saw which document matters: a coder with no span in a document either saw it and
marked nothing, or never saw it. ``coverage=[(document, coder), ...]`` (the readers record
it as ``frame.attrs["coverage"]``) or ``coders=`` says which; see :func:`spans_to_units`.
"""

from __future__ import annotations

from .f1 import ALL_LABELS, span_f1, unmatched_pairs
from .gamma import GammaResult, gamma
from .kappa import span_kappa
from .relations import RelationAlphaResult, relation_alpha, relation_f1
from .report import span_report
from .ualpha import UAlphaResult, u_alpha
from .unitizing import UnitizingAlphaResult, unitizing_alpha
from .units import spans_to_units, whitespace_tokens

__all__ = [
    "ALL_LABELS",
    "GammaResult",
    "RelationAlphaResult",
    "UAlphaResult",
    "UnitizingAlphaResult",
    "gamma",
    "relation_alpha",
    "relation_f1",
    "span_f1",
    "span_kappa",
    "span_report",
    "spans_to_units",
    "u_alpha",
    "unitizing_alpha",
    "unmatched_pairs",
    "whitespace_tokens",
]
