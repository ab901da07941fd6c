"""Krippendorff's unitizing alpha: :func:`unitizing_alpha` and :class:`UnitizingAlphaResult`."""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core import unitizing as _u
from ..declare import declared
from ..errors import DegenerateDataWarning, InvalidParameterError, user_stacklevel
from ..results import Result
from ._attrs import reader_lengths
from ._frame import Spans, compared_coders, validate, which
from .f1 import ALL_LABELS

__all__ = [
    "UnitizingAlphaResult",
    "unitizing_alpha",
]


# ---------------------------------------------------------------------------------------------
# unitizing alpha


@dataclass(frozen=True, repr=False)
class UnitizingAlphaResult(Result):
    r"""Krippendorff's unitizing alpha :math:`\alpha_U` and its parts.

    Attributes
    ----------
    alpha : float
        :math:`1 - \sum_c D_{o,c} / \sum_c D_{e,c}`; NaN when the expected disagreement is 0
        (see ``reason``).
    observed, expected : float
        :math:`\sum_c D_{o,c}` and :math:`\sum_c D_{e,c}`.
    n_coders : int
        Coders (each unitized the whole continuum).
    n_categories : int
        Categories (labels) with at least one unit.
    n_units : int
        Units (spans after merging overlaps when ``on_overlap="merge"``).
    n_merged : int
        Spans joined into an overlapping span of the same coder and label
        (``on_overlap="merge"``; 0 otherwise).
    length : int
        Length :math:`L` of the continuum (all documents end to end).
    reason : str or None
        Why ``alpha`` is NaN, when it is.
    per_category : pandas.DataFrame
        One row per category: ``alpha``, ``observed``, ``expected``, ``n_units``
        (:math:`\alpha_c`, :math:`D_{o,c}`, :math:`D_{e,c}`).
    """

    alpha: float
    observed: float
    expected: float
    n_coders: int
    n_categories: int
    n_units: int
    length: int
    reason: str | None = None
    n_merged: int = 0
    per_category: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)

    _headline = "alpha"
    _series_fields = (
        "alpha",
        "observed",
        "expected",
        "n_coders",
        "n_categories",
        "n_units",
        "length",
        "reason",
        "n_merged",
    )
    _series_name = "unitizing_alpha"

    _shown = (
        "alpha:.4f", "observed:.4f", "expected:.4f", "n_coders", "n_categories", "n_units",
        "length",
    )
    _notes = ("n_merged", "reason")

    def to_frame(self) -> pd.DataFrame:
        """``per_category`` with an ``"(all)"`` row on top for :math:`\\alpha_U`."""
        top = pd.DataFrame(
            {
                "alpha": [self.alpha],
                "observed": [self.observed],
                "expected": [self.expected],
                "n_units": [self.n_units],
            },
            index=pd.Index([ALL_LABELS], name=self.per_category.index.name),
        )
        return pd.concat([top, self.per_category])


def _continua(continuum: Any, v: Spans) -> tuple[pd.Index, np.ndarray, np.ndarray]:
    """Documents and each one's (begin, end) on its own offsets."""

    def pair(x: Any, where: str) -> tuple[int, int]:
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            b, e = 0, int(x)
        elif (
            isinstance(x, tuple)
            and len(x) == 2
            and all(isinstance(y, (int, np.integer)) and not isinstance(y, bool) for y in x)
        ):
            b, e = int(x[0]), int(x[1])
        else:
            raise InvalidParameterError(
                f"`continuum` must be a length, a (begin, end) pair of integers or a mapping "
                f"of document -> either; got {x!r}{where}"
            )
        if not 0 <= b < e:
            raise InvalidParameterError(
                f"`continuum` must have 0 <= begin < end; got ({b}, {e}){where}"
            )
        return b, e

    extent = np.zeros(len(v.documents), dtype=np.int64)
    np.maximum.at(extent, v.doc, v.end)
    if continuum is None:
        return v.documents, np.zeros(len(v.documents), dtype=np.int64), extent
    if isinstance(continuum, Mapping):
        docs = pd.Index(list(continuum.keys()))
        missing = v.documents.difference(docs, sort=False)
        if len(missing):
            raise InvalidParameterError(
                f"`continuum` has no entry for the annotated document(s) {list(missing)[:5]!r}"
            )
        bounds = [pair(continuum[d], f" for document {d!r}") for d in docs]
    else:
        docs = v.documents
        bounds = [pair(continuum, "")] * len(docs)
    begin = np.array([b for b, _ in bounds], dtype=np.int64).reshape(-1)
    stop = np.array([e for _, e in bounds], dtype=np.int64).reshape(-1)
    return docs, begin, stop


def _spans_on_continua(
    spans: pd.DataFrame, continuum: Any, v: Spans
) -> tuple[pd.Index, np.ndarray, np.ndarray, np.ndarray]:
    """The documents and continua of :func:`_continua` (``continuum=None``: the readers'
    document lengths, else each document's last end), and each span's document code into
    them; every span must lie inside its document's continuum."""
    if continuum is None:
        continuum = reader_lengths(spans, v.documents)
    docs, c_begin, c_end = _continua(continuum, v)
    s_doc = docs.get_indexer(v.documents)[v.doc]
    outside = (v.start < c_begin[s_doc]) | (v.end > c_end[s_doc])
    if outside.any():
        k = np.flatnonzero(outside)[0]
        raise InvalidParameterError(
            f"{which(outside, spans.index)} of `spans` lie outside the `continuum` "
            f"[{int(c_begin[s_doc[k]])}, {int(c_end[s_doc[k]])}) of document "
            f"{docs[s_doc[k]]!r}, e.g. start={int(v.start[k])}, end={int(v.end[k])}"
        )
    return docs, c_begin, c_end, s_doc


@declared(frontends=("frame",))
def unitizing_alpha(
    spans: pd.DataFrame,
    continuum: int | tuple[int, int] | Mapping[Hashable, Any] | None = None,
    *,
    coders,
    on_overlap: Literal["raise", "merge"] = "raise",
    document, coder, start, end, label,
) -> UnitizingAlphaResult:
    r"""Krippendorff's unitizing alpha :math:`\alpha_U`, overall and per category.

    Each coder divides a continuum into units (the spans, each with a category: its label)
    and gaps. For category :math:`c`, the squared distance between a segment of coder
    :math:`i` and one of coder :math:`j` is, for two overlapping units,
    :math:`(b_g - b_h)^2 + (e_g - e_h)^2` (differences of their begins and ends), for a unit
    lying inside the other coder's gap the unit's length squared, and 0 otherwise. With
    :math:`m` coders and continuum length :math:`L` (Krippendorff 2004, pp. 251-256):

    .. math::

        D_{o,c} = \frac{\sum_i \sum_{j \ne i} \sum_g \sum_h \delta^2_c(ig, jh)}{m(m-1)L^2}

    and :math:`D_{e,c}` is the disagreement expected when the units and gaps of all coders
    are placed at random (Krippendorff 2004, p. 255):

    .. math::

        D_{e,c} = \frac{\frac{2}{L} \sum_u \left[ \frac{N_c - 1}{3} (2 l_u^3 - 3 l_u^2 + l_u)
            + l_u^2 \sum_{h:\ l_h \ge l_u} (l_h - l_u + 1) \right]}
            {m L (m L - 1) - \sum_u l_u (l_u - 1)}

    over the :math:`N_c` units :math:`u` of category :math:`c` (all coders) and the gaps
    :math:`h` of every coder.
    :math:`\alpha_c = 1 - D_{o,c}/D_{e,c}` and
    :math:`\alpha_U = 1 - \sum_c D_{o,c} / \sum_c D_{e,c}`.

    Several documents are laid end to end into one continuum; gaps end at document
    boundaries and units pair only within their document. :math:`\alpha_U` has no missing
    data: every coder (all coders of the spans, or ``coders=``) is taken to have unitized
    every document, so a coder without spans in a document has one gap over all of it.
    Units of one coder and category must not overlap (Krippendorff's model). By default
    (``on_overlap="raise"``, the default of :func:`span_report` too) overlapping spans of one
    coder and label raise: two entities of one type that overlap, or a span marked twice,
    are not one unit without saying so. ``on_overlap="merge"`` joins them into one unit
    first (``n_merged`` counts the spans joined).

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame. Not modified.
    continuum : int, (begin, end) or mapping, optional
        Where each document's continuum lies: a length (``[0, length)``), a pair
        ``(begin, end)`` for every document, or a mapping document -> either (documents
        listed there without spans count, as stretches nobody marked). Default: the
        length of each document's text as a reader of :mod:`pandas_agree.io` recorded it
        (``spans.attrs["texts"]``, or ``spans.attrs["n_tokens"]`` for CoNLL-2012), for the
        documents with spans; without it, each document runs from 0 to its last span end.
    coders : sequence, optional
        The coders; must include every coder with spans.
    on_overlap : {"raise", "merge"}, default "raise"
        What to do with overlapping spans of one coder and label: raise
        :class:`~pandas_agree.errors.InvalidParameterError`, or merge them into one unit.

    Returns
    -------
    UnitizingAlphaResult
        ``float(result)`` is :math:`\alpha_U`; ``result.per_category`` has
        :math:`\alpha_c`, :math:`D_{o,c}`, :math:`D_{e,c}`.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
    Methodology 25, 47-76. Krippendorff, K. (2004). Content Analysis: An Introduction to
    Its Methodology, 2nd ed., section 12.4. Sage.

    Examples
    --------
    The example of Krippendorff (2004, p. 254): two coders, categories c and k, continuum
    150-450 (published: :math:`\alpha_c` = .7286, :math:`\alpha_k` = 1, :math:`\alpha_U`
    = .8591 from the rounded D's; DKPro Statistics gives the same):

    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> spans = pd.DataFrame({
    ...     "document": "text", "coder": [1, 1, 2, 2, 2, 1, 1, 2, 2],
    ...     "start": [225, 370, 220, 355, 400, 180, 300, 180, 300],
    ...     "end": [295, 400, 300, 375, 420, 240, 350, 240, 350],
    ...     "label": ["c", "c", "c", "c", "c", "k", "k", "k", "k"]})
    >>> res = pa.unitizing_alpha(spans, continuum=(150, 450))
    >>> round(float(res), 4)
    0.8587
    >>> res.per_category.round(4)
           alpha  observed  expected  n_units
    label
    c     0.7286    0.0144    0.0532        5
    k     1.0000    0.0000    0.0490        4
    """
    if on_overlap not in ("raise", "merge"):
        raise InvalidParameterError(f"`on_overlap` must be 'raise' or 'merge', got {on_overlap!r}")
    v = validate(spans, document, coder, start, end, label)
    coder_index = compared_coders(coders, v.coders, None, "unitizing alpha")
    m = len(coder_index)
    _, c_begin, c_end, s_doc = _spans_on_continua(spans, continuum, v)
    lengths = c_end - c_begin
    offset = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    total = int(lengths.sum())
    cuts = np.cumsum(lengths)[:-1]
    g_start = v.start - c_begin[s_doc] + offset[s_doc]
    g_end = v.end - c_begin[s_doc] + offset[s_doc]
    s_coder = coder_index.get_indexer(v.coders)[v.coder]

    # Sort by (label, coder, start); find overlaps within each (label, coder) group.
    order = np.lexsort((g_start, s_coder, v.label))
    lab, cod, gs, ge = v.label[order], s_coder[order], g_start[order], g_end[order]
    group = lab.astype(np.int64) * m + cod
    same = np.concatenate([[False], group[1:] == group[:-1]])
    key_end = group * (total + 1) + ge
    run_end = np.maximum.accumulate(key_end)  # groups are increasing, so no spill-over
    overlaps = same & (group * (total + 1) + gs < np.concatenate([[-1], run_end[:-1]]))
    n_merged = int(overlaps.sum())
    if overlaps.any():
        if on_overlap == "raise":
            k = np.flatnonzero(overlaps)[0]
            raise InvalidParameterError(
                f"{int(overlaps.sum())} span(s) overlap an earlier span of the same coder and "
                f"label (e.g. coder {coder_index[cod[k]]!r}, label {v.labels[lab[k]]!r}); "
                "unitizing alpha needs non-overlapping units: pass on_overlap='merge' to join "
                "them"
            )
        first = ~overlaps
        grp = np.cumsum(first) - 1
        merged_end = np.zeros(int(first.sum()), dtype=np.int64)
        np.maximum.at(merged_end, grp, ge)
        lab, cod, gs, ge = lab[first], cod[first], gs[first], merged_end

    rows = []
    sum_o = sum_e = 0.0
    present = np.unique(lab)
    for c in present:
        in_c = lab == c
        tilings = []
        for i in range(m):
            sel = in_c & (cod == i)
            tilings.append(_u.segments(gs[sel], ge[sel], cuts, total))
        _, d_o = _u.observed_category(tilings, total)
        d_e = _u.expected_category(tilings, total)
        a_c = 1.0 - d_o / d_e if d_e > 0 else float("nan")
        rows.append((v.labels[c], a_c, d_o, d_e, int(in_c.sum())))
        sum_o += d_o
        sum_e += d_e if np.isfinite(d_e) else 0.0
    per_category = pd.DataFrame(
        [r[1:] for r in rows],
        columns=["alpha", "observed", "expected", "n_units"],
        index=pd.Index([r[0] for r in rows], name=label if isinstance(label, str) else "label"),
    )
    reason = None
    if sum_e > 0:
        alpha = 1.0 - sum_o / sum_e
    else:
        alpha = float("nan")
        reason = "the expected disagreement is 0: alpha is undefined"
        warnings.warn(
            f"alpha is NaN: {reason}", DegenerateDataWarning, stacklevel=user_stacklevel()
        )
    return UnitizingAlphaResult(
        alpha=float(alpha),
        observed=float(sum_o),
        expected=float(sum_e),
        n_coders=m,
        n_categories=len(present),
        n_units=int(lab.size),
        n_merged=n_merged,
        length=total,
        reason=reason,
        per_category=per_category,
    )
