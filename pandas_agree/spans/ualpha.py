r"""Krippendorff's u-alpha family (2016, 2019): :func:`u_alpha` and :class:`UAlphaResult`."""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core import ualpha as _ua
from ..declare import declared
from ..errors import (
    DegenerateDataWarning,
    InvalidParameterError,
    ValueTypeError,
    user_stacklevel,
)
from ..results import Result
from ._frame import Spans, coverage_pairs, subset, validate, which
from .f1 import ALL_LABELS

__all__ = [
    "GAP",
    "UAlphaResult",
    "u_alpha",
]

#: Name of the gaps (stretches a coder left without a unit) in :attr:`UAlphaResult.coincidences`.
GAP = "(gap)"

_MEASURES = ("u", "|u", "cu")


# ---------------------------------------------------------------------------------------------
# the result


@dataclass(frozen=True)
class UAlphaResult(Result):
    r"""Krippendorff's u-alpha family: :math:`{}_u\alpha`, :math:`{}_{|u}\alpha`,
    :math:`{}_{cu}\alpha` and :math:`{}_{(k)u}\alpha`, pooled over documents.

    Attributes
    ----------
    u_alpha : float
        :math:`{}_u\alpha`: unitizing and coding together (nominal). ``float(result)``.
    bar_u_alpha : float
        :math:`{}_{|u}\alpha`: units (of any value) against gaps.
    cu_alpha : float
        :math:`{}_{cu}\alpha`: the values of units where coders' units intersect.
    cu_coverage : float
        Share of the pairable continuum (:math:`mL`) that :math:`{}_{cu}\alpha` looks at.
    distance : str
        Distance between values used by :math:`{}_{cu}\alpha` and :math:`{}_{(k)u}\alpha`.
    n_coders, n_documents, n_units, length : int
        Coders, documents with at least two coders, units, and :math:`\sum_d L_d` over those
        documents.
    reason : str or None
        Why ``u_alpha`` is NaN, when it is.
    ci : float or None
        Level of the percentile intervals (None: no interval).
    n_boot : int or None
        Bootstrap replicates (documents resampled with replacement); None without ``ci``.
    per_value : pandas.DataFrame
        One row per value: ``ku_alpha`` (:math:`{}_{(k)u}\alpha`), ``coverage`` (share of the
        value's length that intersects other coders' units), ``n_units``, and ``low``,
        ``high`` with ``ci``; ``reason`` where ``ku_alpha`` is NaN.
    by_document : pandas.DataFrame
        One row per document: ``n_coders``, ``length``, ``n_units``, ``u_alpha``,
        ``bar_u_alpha``, ``cu_alpha``, ``cu_coverage``, ``reason``.
    coincidences : pandas.DataFrame
        The pooled observed coincidences :math:`l_{ck}`, the gaps as :data:`GAP`.
    replicates : pandas.DataFrame
        The bootstrap replicates, one column per row of :meth:`to_frame` (empty without
        ``ci``).
    summary : pandas.DataFrame
        The table of :meth:`to_frame`.
    """

    u_alpha: float
    bar_u_alpha: float
    cu_alpha: float
    cu_coverage: float
    distance: str
    n_coders: int
    n_documents: int
    n_units: int
    length: int
    reason: str | None = None
    ci: float | None = None
    n_boot: int | None = None
    per_value: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)
    by_document: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)
    coincidences: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)
    replicates: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)
    summary: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)

    _headline = "u_alpha"
    _series_fields = (
        "u_alpha",
        "bar_u_alpha",
        "cu_alpha",
        "cu_coverage",
        "distance",
        "n_coders",
        "n_documents",
        "n_units",
        "length",
        "reason",
    )
    _series_name = "u_alpha"

    def __repr__(self) -> str:
        extra = f", reason={self.reason!r}" if self.reason else ""
        boot = f", ci={self.ci}, n_boot={self.n_boot}" if self.ci is not None else ""
        return (
            f"UAlphaResult(u_alpha={self.u_alpha:.4f}, bar_u_alpha={self.bar_u_alpha:.4f}, "
            f"cu_alpha={self.cu_alpha:.4f}, cu_coverage={self.cu_coverage:.4f}, "
            f"distance={self.distance!r}, n_coders={self.n_coders}, "
            f"n_documents={self.n_documents}, n_units={self.n_units}, length={self.length}"
            f"{boot}{extra})"
        )

    def to_frame(self) -> pd.DataFrame:
        """All four coefficients: one row per measure (``u``, ``|u``, ``cu``) and value (``ku``).

        Columns ``alpha``, ``coverage``, with ``ci`` the interval ``low``, ``high``, and
        ``reason`` where ``alpha`` is NaN. The index is (``measure``, ``value``), the value
        :data:`~pandas_agree.spans.ALL_LABELS` for the first three.
        """
        return self.summary.copy()


# ---------------------------------------------------------------------------------------------
# input: who unitized which document, how long each document is


def _pairs(
    v: Spans,
    coders: Sequence[Hashable] | None,
    coverage: list[tuple[Any, Any]] | None,
) -> tuple[pd.Index, pd.Index, np.ndarray, np.ndarray]:
    """Documents, coders, and the (document, coder) pairs that unitized, sorted."""
    n_coders_spans = len(v.coders)
    if coders is not None:
        coder_index = subset(coders, v.coders, "coders")
        docs = v.documents
        pair_doc, pair_coder = np.divmod(np.arange(len(docs) * len(coder_index)), len(coder_index))
        return docs, coder_index, pair_doc, pair_coder
    span_key = np.unique(v.doc.astype(np.int64) * max(n_coders_spans, 1) + v.coder)
    if coverage is None:
        if span_key.size != len(v.documents) * n_coders_spans:
            have = np.zeros(len(v.documents) * n_coders_spans, dtype=bool)
            have[span_key] = True
            d, c = np.divmod(int(np.flatnonzero(~have)[0]), n_coders_spans)
            raise InvalidParameterError(
                f"coder {v.coders[c]!r} has no unit in document {v.documents[d]!r}, so it is "
                "unknown whether the coder unitized it (marking nothing) or never saw it; pass "
                "coders=[...] when every coder unitized every document, or "
                "coverage=[(document, coder), ...] to say who unitized what"
            )
        pair_doc, pair_coder = np.divmod(span_key, n_coders_spans)
        return v.documents, v.coders, pair_doc, pair_coder
    c_docs = pd.Index([p[0] for p in coverage], dtype=object)
    c_coders = pd.Index([p[1] for p in coverage], dtype=object)
    docs = v.documents.append(c_docs.difference(v.documents, sort=False).unique())
    coder_index = v.coders.append(c_coders.difference(v.coders, sort=False).unique())
    n_c = len(coder_index)
    keys = np.concatenate(
        [
            v.doc.astype(np.int64) * n_c + v.coder,
            docs.get_indexer(c_docs).astype(np.int64) * n_c + coder_index.get_indexer(c_coders),
        ]
    )
    pair_doc, pair_coder = np.divmod(np.unique(keys), n_c)
    return docs, coder_index, pair_doc, pair_coder


def _positive_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and int(x) > 0


def _lengths(length: Any, spans: pd.DataFrame, docs: pd.Index) -> np.ndarray:
    """:math:`L_d` of every document: ``length=`` or the texts of ``spans.attrs``."""
    if length is None:
        texts = spans.attrs.get("texts")
        if not isinstance(texts, Mapping):
            raise InvalidParameterError(
                "u-alpha needs the length L of each document's continuum: pass length= (a "
                "number, or a mapping document -> length), or a span frame whose "
                "attrs['texts'] holds the document texts"
            )
        missing = [d for d in docs if not isinstance(texts.get(d), str)]
        if missing:
            raise InvalidParameterError(
                f"frame.attrs['texts'] has no text for the document(s) {missing[:5]!r}; pass "
                "length= to give their lengths"
            )
        out = np.array([len(texts[d]) for d in docs], dtype=np.int64)
        if (out == 0).any():
            d = docs[int(np.flatnonzero(out == 0)[0])]
            raise InvalidParameterError(
                f"the text of document {d!r} in frame.attrs['texts'] is empty: its continuum "
                "has no length"
            )
        return out
    if isinstance(length, Mapping):
        missing = [d for d in docs if d not in length]
        if missing:
            raise InvalidParameterError(
                f"`length` has no entry for the document(s) {missing[:5]!r}"
            )
        bad = [(d, length[d]) for d in docs if not _positive_int(length[d])]
        if bad:
            raise InvalidParameterError(
                f"`length` must map each document to a positive integer; got {bad[0][1]!r} "
                f"for document {bad[0][0]!r}"
            )
        return np.array([int(length[d]) for d in docs], dtype=np.int64).reshape(-1)
    if not _positive_int(length):
        raise InvalidParameterError(
            f"`length` must be a positive integer or a mapping document -> length, got {length!r}"
        )
    return np.full(len(docs), int(length), dtype=np.int64)


def _units(
    v: Spans,
    spans: pd.DataFrame,
    s_doc: np.ndarray,
    s_coder: np.ndarray,
    n_coders: int,
    on_overlap: str,
) -> tuple[np.ndarray, ...]:
    """Units (doc, coder, label, start, end), overlapping ones merged or reported."""
    doc, cod, lab, st, en = s_doc, s_coder, v.label, v.start, v.end
    index = np.arange(st.size)
    if on_overlap == "merge":
        order = np.lexsort((st, lab, cod, doc))
        group = (doc[order].astype(np.int64) * n_coders + cod[order]) * max(len(v.labels), 1) + lab[
            order
        ]
        scale = int(en.max(initial=0)) + 1
        same = np.concatenate([[False], group[1:] == group[:-1]])
        run_end = np.maximum.accumulate(group * scale + en[order])
        joined = same & (group * scale + st[order] < np.concatenate([[-1], run_end[:-1]]))
        first = ~joined
        grp = np.cumsum(first) - 1
        merged_end = np.zeros(int(first.sum()), dtype=np.int64)
        np.maximum.at(merged_end, grp, en[order])
        keep = order[first]
        doc, cod, lab, st, en, index = doc[keep], cod[keep], lab[keep], st[keep], merged_end, keep
    order = np.lexsort((st, cod, doc))
    group = doc[order].astype(np.int64) * n_coders + cod[order]
    scale = int(en.max(initial=0)) + 1
    same = np.concatenate([[False], group[1:] == group[:-1]])
    run_end = np.maximum.accumulate(group * scale + en[order])
    overlaps = same & (group * scale + st[order] < np.concatenate([[-1], run_end[:-1]]))
    if overlaps.any():
        k = int(np.flatnonzero(overlaps)[0])
        row = spans.index[index[order[k]]]
        prev = order[:k][group[:k] == group[k]]
        other = prev[np.argmax(en[prev])]
        same_label = lab[order[k]] == lab[other]
        hint = (
            "pass on_overlap='merge' to join overlapping units of one coder and label"
            if same_label
            else "u-alpha gives every position of a coder's continuum at most one value, so "
            "units of different labels must not overlap (merging cannot fix that)"
        )
        raise InvalidParameterError(
            f"{int(overlaps.sum())} unit(s) overlap an earlier unit of the same coder and "
            f"document, e.g. row {row!r} (coder {v.coders[v.coder[index[order[k]]]]!r}, "
            f"labels {v.labels[lab[other]]!r} and {v.labels[lab[order[k]]]!r}); {hint}"
        )
    return doc, cod, lab, st, en


# ---------------------------------------------------------------------------------------------
# distances between values


@dataclass(frozen=True)
class _Delta:
    name: str
    matrix: np.ndarray | None  # fixed V x V
    ordinal: bool = False


def _delta(distance: Any, labels: pd.Index) -> _Delta:
    from ..krippendorff import distances as _d  # imported here to keep imports cheap

    dist = _d.get_distance(distance)
    n = len(labels)
    c, k = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    numeric = (
        pd.api.types.is_numeric_dtype(labels.dtype)
        and not pd.api.types.is_bool_dtype(labels.dtype)
        and not isinstance(labels, pd.CategoricalIndex)
    )

    def numbers() -> np.ndarray:
        if not numeric:
            raise ValueTypeError(
                f"`distance` {dist.name!r} needs numeric labels; the `label` column holds "
                f"{list(labels[:3])!r} (convert it to numbers first)"
            )
        x = np.asarray(labels, dtype=float)
        if not np.isfinite(x).all():
            raise ValueTypeError(f"`distance` {dist.name!r} needs finite labels, got {list(x)}")
        return x

    if dist.kind == "nominal":
        return _Delta(dist.name, 1.0 - np.eye(n))
    if dist.kind == "interval":
        x = numbers()
        return _Delta(dist.name, (x[:, None] - x[None, :]) ** 2)
    if dist.kind == "ordinal":
        ordered = isinstance(labels, pd.CategoricalIndex) and bool(labels.ordered)
        if not (numeric or ordered):
            raise ValueTypeError(
                "`distance` 'ordinal' needs labels with an order (numbers or an ordered "
                f"Categorical); got {list(labels[:3])!r}, which would only rank alphabetically"
            )
        return _Delta(dist.name, None, ordinal=True)
    if dist.kind == "numeric":
        x = numbers()
        if dist.name == "ratio" and (x < 0).any():
            raise ValueTypeError(
                f"`distance` 'ratio' needs non-negative labels, got {x[x < 0][:3]}"
            )
        return _Delta(dist.name, np.asarray(_d.numeric_delta(dist, x)(c, k), dtype=float))
    if dist.kind == "set":
        raise ValueTypeError(
            f"`distance` {dist.name!r} compares sets of labels; every unit of u-alpha has one "
            "label: use nominal, interval, ordinal, ratio or a callable"
        )
    domain = labels.to_numpy(dtype=object)
    return _Delta(dist.name, np.asarray(_d.callable_delta(dist, domain)(c, k), dtype=float))


def _midranks(n_c: np.ndarray) -> np.ndarray:
    from .._core.kernels import midranks

    return midranks(n_c)


def _expected_by_value(cu_margin: np.ndarray, delta: _Delta) -> np.ndarray:
    r""":math:`\sum_c \delta_{ck} l^*_{c\cdot}` for each :math:`k`."""
    if delta.ordinal:
        r = _midranks(cu_margin)
        a = (cu_margin * r**2).sum(axis=-1, keepdims=True)
        b = (cu_margin * r).sum(axis=-1, keepdims=True)
        total = cu_margin.sum(axis=-1, keepdims=True)
        return a - 2.0 * r * b + r**2 * total
    return cu_margin @ delta.matrix


def _evaluate(
    stats: _ua.UnitizedStats,
    delta: _Delta,
    weights: np.ndarray | None = None,
    observed_docs: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """The family per document (``weights`` None) or for each row of ``weights`` (S x D)."""
    arrays = (
        stats.margin,
        stats.self_pairs,
        stats.diagonal,
        stats.cu_margin,
        stats.cu_self_pairs,
    )
    if weights is not None:
        arrays = tuple(weights @ a for a in arrays)
    margin, self_pairs, diagonal, cu_margin, cu_self = arrays
    if delta.ordinal:
        r = _midranks(cu_margin)
        if weights is None:
            cell_delta = (r[stats.cell_doc, stats.cell_c] - r[stats.cell_doc, stats.cell_k]) ** 2
        else:
            cell_delta = (r[:, stats.cell_c] - r[:, stats.cell_k]) ** 2
        observed = _ua.observed_by_value(stats, cell_delta, weights)
    elif weights is None:
        observed = observed_docs
    else:
        observed = weights @ observed_docs
    return _ua.family(
        margin,
        self_pairs,
        diagonal,
        cu_margin,
        cu_self,
        observed,
        _expected_by_value(cu_margin, delta),
    )


# ---------------------------------------------------------------------------------------------
# reasons for NaN


def _reasons(
    m: np.ndarray,
    margin: np.ndarray,
    cu_margin: np.ndarray,
    expected_k: np.ndarray,
    res: dict[str, np.ndarray],
) -> dict[str, list[str | None]]:
    """Why each coefficient is NaN, row by row (``None`` where it is not)."""
    out: dict[str, list[str | None]] = {"u": [], "|u": [], "cu": [], "ku": []}
    n_values = cu_margin.shape[-1]
    for i in range(margin.shape[0]):
        few = "fewer than two coders unitized it" if m[i] < 2 else None
        n_kinds = int((margin[i] > 0).sum())
        if np.isnan(res["u"][i]):
            out["u"].append(
                few
                or (
                    "the continuum holds one kind of segment only (all gap or all one value): "
                    "no expected disagreement"
                    if n_kinds < 2
                    else "no expected disagreement"
                )
            )
        else:
            out["u"].append(None)
        if np.isnan(res["bar_u"][i]):
            if few:
                out["|u"].append(few)
            elif margin[i, -1] == 0:
                out["|u"].append("no gaps: every coder's units cover the whole continuum")
            elif margin[i, :-1].sum() == 0:
                out["|u"].append("no units: every coder left the whole continuum as gap")
            else:
                out["|u"].append("no expected disagreement between units and gaps")
        else:
            out["|u"].append(None)
        if np.isnan(res["cu"][i]):
            if few:
                out["cu"].append(few)
            elif cu_margin[i].sum() == 0:
                out["cu"].append("no unit of one coder intersects a unit of another")
            elif int((cu_margin[i] > 0).sum()) < 2:
                out["cu"].append("the intersecting units all have one value")
            else:
                out["cu"].append("no expected disagreement between the intersecting values")
        else:
            out["cu"].append(None)
        ku: list[str | None] = []
        for k in range(n_values):
            if not np.isnan(res["ku"][i, k]):
                ku.append(None)
            elif few:
                ku.append(few)
            elif cu_margin[i, k] == 0:
                ku.append("no unit of this value intersects another coder's unit")
            elif expected_k[i, k] <= 0:
                ku.append("the units this value intersects all have this value")
            else:
                ku.append("no expected disagreement for this value")
        out["ku"].append(ku)  # type: ignore[arg-type]
    return out


# ---------------------------------------------------------------------------------------------
# the function


@declared(frontends=("frame",))
def u_alpha(
    spans: pd.DataFrame,
    length: int | Mapping[Hashable, int] | None = None,
    *,
    distance: Any = "nominal",
    coders, coverage,
    on_overlap: Literal["raise", "merge"] = "raise",
    ci, n_boot, rng,
    document, coder, start, end, label,
) -> UAlphaResult:
    r"""Krippendorff's u-alpha family for unitized continua, per document and pooled.

    Each coder divides a document's continuum :math:`[0, L)` into units, each with one
    value (its label), and the gaps between them. The four coefficients of Krippendorff et
    al. (2016) and Krippendorff (2019, section 12.6) are computed from one observed
    coincidence matrix (eq. 32): :math:`l_{ck}` is the length that a segment of value
    :math:`c` of one coder shares with a segment of value :math:`k` of another, summed over
    ordered pairs of the :math:`m` coders and divided by :math:`m - 1`; gaps are the value
    :math:`\varnothing`. The expected coincidences (eq. 33) pair every stretch of the
    continuum with every other except itself: a unit is indivisible (its :math:`l^2`
    self-pairings are removed), a gap is a run of one-position pieces (its :math:`l`):

    .. math::

        e_{ck} = l_{\cdot\cdot} \frac{l_{c\cdot} l_{\cdot k} - [c = k] \sum_i \sum_g
            l^{(2)}_{icg}}{l_{\cdot\cdot}^2 - \sum_c \sum_i \sum_g l^{(2)}_{icg}}, \qquad
        l^{(2)} = l^2 \text{ for units}, \ l \text{ for gaps}.

    * :math:`{}_u\alpha = 1 - (l_{\cdot\cdot} - \sum_c l_{cc}) / (l_{\cdot\cdot} - \sum_c
      e_{cc})` (eq. 34): unitizing and coding together, nominal (a gap has no value, so
      no other metric applies).
    * :math:`{}_{|u}\alpha` (eq. 35): the same matrices collapsed to units of any value
      against gaps, :math:`1 - (l_{\varnothing\cdot} - l_{\varnothing\varnothing}) /
      (e_{\varnothing\cdot} - e_{\varnothing\varnothing})`: the reliability of telling
      relevant from irrelevant matter.
    * :math:`{}_{cu}\alpha` (eqs. 36-37): the coding of the stretches where coders' units
      intersect, from :math:`l^*_{ck}`, the valued part of :math:`l_{ck}`:
      :math:`1 - \sum_{ck} \delta_{ck} l^*_{ck} / \sum_{ck} \delta_{ck} e^*_{ck}` with

      .. math::

          e^*_{ck} = \frac{l^*_{c\cdot} l^*_{\cdot k} - [c = k] \sum_i \sum_g
              (l^*_{icg})^2}{l^*_{\cdot\cdot} - \sum_c \sum_i \sum_g (l^*_{icg})^2 /
              l^*_{\cdot\cdot}}, \qquad
          l^*_{icg} = \frac{1}{m - 1} \sum_{j \ne i} |c_{ig} \cap \text{units of } j|,

      covering ``cu_coverage`` :math:`= l^*_{\cdot\cdot} / l_{\cdot\cdot}` of the
      continuum, with any distance :math:`\delta` of the library.
    * :math:`{}_{(k)u}\alpha` (eq. 38) for each value :math:`k`: :math:`1 - e^*_{k\cdot}
      \sum_c \delta_{ck} l^*_{ck} / (l^*_{k\cdot} \sum_c \delta_{ck} e^*_{ck})`, covering
      :math:`l^*_{k\cdot} / l_{k\cdot}` of the value's length.

    **The self-pairing term of** :math:`{}_{cu}\alpha`. In :math:`e^*`, as in :math:`e`,
    a unit must not be paired with itself. A unit's weight in the margins of
    :math:`l^*` is :math:`l^*_{icg}`, the mean over the other coders of the length it
    shares with their units (:math:`l^*`, like :math:`l`, averages over the other coders
    with :math:`1/(m-1)`), so its self-pairings are :math:`(l^*_{icg})^2`, as a unit of
    length :math:`l` has :math:`l^2` in :math:`e` (where its weight is :math:`l`). With two
    coders every reading of eqs. 36-37 gives this term; with three or more, implementations
    differ: the script of ``lindanna/unitized_alpha`` averages the squares over the other
    coders (:math:`\frac{1}{m-1}\sum_{j \ne i} |c_{ig} \cap j|^2`) and quallmer's
    ``reliability_alpha_u`` squares the overlap with the union of the other coders' units.
    This function squares the mean, because of these three readings it is the only one
    under which (a) :math:`e^*_{cc} \ge 0` always (:math:`\sum_g (l^*_{icg})^2 \le
    (l^*_{c\cdot})^2`; the other two can give negative expected coincidences or a zero
    denominator, for example when two coders agree and others mark nothing), and (b)
    :math:`{}_{cu}\alpha` is a function of the matrix :math:`l^*` and of the units' own
    shares of it only, so it does not change when a coder who marked nothing joins. With no
    gaps all three give :math:`{}_{cu}\alpha = {}_u\alpha` (nominal). On the worked example
    below the readings agree to three decimals (.779 here, .7789 in the script).

    **Degenerate cases.** With one value, :math:`{}_{|u}\alpha = {}_u\alpha` and
    :math:`{}_{cu}\alpha` is undefined (NaN); with no gaps, :math:`{}_{|u}\alpha` is
    undefined and :math:`{}_{cu}\alpha = {}_u\alpha` covering the whole continuum. A NaN
    comes with its reason (``reason`` columns); a NaN :math:`{}_u\alpha` also warns.

    **The 2004** :math:`\alpha_U` (:func:`unitizing_alpha`) differs: it measures each
    category on its own continuum, units of different categories may overlap, and a
    mismatch costs the squared differences of the boundaries; its expected disagreement is
    defined for two coders and behaves unexpectedly with more (Krippendorff et al. 2016).
    The u-alpha family puts all values on one continuum per coder (segments exclude each
    other), costs a mismatch by the length where values differ, and works for any number of
    coders.

    **Who unitized what.** ``coders=[...]``: every listed coder unitized every document
    (without units there, the coder left it all gap). ``coverage=[(document, coder), ...]``
    (default: ``spans.attrs["coverage"]``, which the readers of :mod:`pandas_agree.io`
    set): those pairs and the pairs with units. Without either, every coder must have units
    in every document, else it is unknown whether a coder without units saw the document,
    and this raises. A document with fewer than two coders has NaN coefficients and is left
    out of the pooled ones (with a warning).

    **Several documents** are pooled by adding their coincidences and self-pairing sums
    (documents end to end, no unit crossing a boundary); ``n_boot`` replicates resample
    documents with replacement for percentile intervals at level ``ci``.

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame; ``end`` exclusive. Not modified.
    length : int or mapping, optional
        :math:`L` of every document, or a mapping document -> :math:`L` (only used as a
        lookup). Default: the lengths of ``spans.attrs["texts"]``; without them this raises.
    distance : str, callable or Distance, default "nominal"
        Distance between values for :math:`{}_{cu}\alpha` and :math:`{}_{(k)u}\alpha`:
        ``"nominal"``, ``"interval"``, ``"ratio"`` (numeric labels), ``"ordinal"`` (numeric
        labels or an ordered Categorical; ranks from the margins :math:`l^*_{c\cdot}`), a
        registered name or a callable ``d(a, b)``.
    coders : sequence, optional
        Coders who unitized every document (must include every coder with units).
    coverage : iterable of (document, coder), optional
        Who unitized what (not with ``coders``).
    on_overlap : {"raise", "merge"}, default "raise"
        Units of one coder must not overlap. ``"merge"`` joins overlapping units of one
        coder and label into one first; overlapping units of different labels always raise
        (a position of a coder's continuum holds one value). Touching units stay apart.
    ci : float, optional
        Confidence level (for example 0.95): adds percentile intervals (``low``, ``high``)
        from ``n_boot`` bootstrap replicates that resample documents with replacement.

    Returns
    -------
    UAlphaResult
        ``float(result)`` is :math:`{}_u\alpha`; :meth:`UAlphaResult.to_frame` has all four.

    Raises
    ------
    InvalidParameterError
        Fewer than two coders, a unit ending past :math:`L`, overlapping units, no length,
        or unknown coverage (see above).
    ValueTypeError
        A distance that needs numbers on labels that are not.

    References
    ----------
    Krippendorff, K., Mathet, Y., Bouvry, S., & Widlöcher, A. (2016). On the reliability of
    unitizing textual continua: Further developments. Quality & Quantity 50(6), 2347-2364
    (erratum doi 10.1007/s11135-015-0289-7). Krippendorff, K. (2019). Content Analysis: An
    Introduction to Its Methodology, 4th ed., section 12.6. Sage.

    Examples
    --------
    The example of the script ``lindanna/unitized_alpha`` (its README prints u .474,
    ``|u`` .433, cu .779 covering 38.33 %, (k)u .769 covering 95.45 % for value 1 and .787
    covering 59.52 % for value 2), on a continuum of length 20:

    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> spans = pd.DataFrame({
    ...     "document": "d",
    ...     "coder": ["Alex", "Alex", "Alex", "Paul", "Paul", "Susan", "Susan"],
    ...     "start": [2, 9, 12, 2, 7, 2, 10],
    ...     "end": [5, 11, 20, 5, 15, 5, 15],
    ...     "label": [1, 1, 2, 1, 2, 1, 2]})
    >>> res = pa.u_alpha(spans, length=20)
    >>> res.to_frame().round(3)
                   alpha  coverage reason
    measure value
    u       (all)  0.474     1.000   None
    |u      (all)  0.433     1.000   None
    cu      (all)  0.779     0.383   None
    ku      1      0.769     0.955   None
            2      0.787     0.595   None
    """
    if on_overlap not in ("raise", "merge"):
        raise InvalidParameterError(f"`on_overlap` must be 'raise' or 'merge', got {on_overlap!r}")
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
        raise InvalidParameterError(f"`n_boot` must be an integer >= 1, got {n_boot!r}")
    if ci is not None and (
        isinstance(ci, bool)
        or not isinstance(ci, (int, float, np.integer, np.floating))
        or not 0 < ci < 1
    ):
        raise InvalidParameterError(f"`ci` must be None or a number in (0, 1), got {ci!r}")
    level = 0.0 if ci is None else float(ci)
    n_boot = 0 if ci is None else int(n_boot)
    if rng is not None and not isinstance(rng, (int, np.integer, np.random.Generator)):
        raise InvalidParameterError(
            f"`rng` must be a seed (int), a numpy Generator or None, got {rng!r}"
        )
    v = validate(spans, document, coder, start, end, label)
    if GAP in set(v.labels.astype(object)):
        raise InvalidParameterError(f"the label {GAP!r} names the gaps; rename that label")
    if coverage is None and coders is None and spans.attrs.get("coverage") is not None:
        coverage = spans.attrs["coverage"]
    pairs = coverage_pairs(coverage, coders)
    docs, coder_index, pair_doc, pair_coder = _pairs(v, coders, pairs)
    if len(docs) == 0:
        raise InvalidParameterError(
            "`spans` has no span (and `coverage` names no document): nothing to compare"
        )
    if len(coder_index) < 2:
        raise InvalidParameterError(
            f"u-alpha needs at least two coders, got {len(coder_index)}: {list(coder_index)!r}"
        )
    doc_len = _lengths(length, spans, docs)
    s_doc = docs.get_indexer(v.documents)[v.doc]
    s_coder = coder_index.get_indexer(v.coders)[v.coder]
    past = v.end > doc_len[s_doc]
    if past.any():
        i = int(np.flatnonzero(past)[0])
        raise InvalidParameterError(
            f"{which(past, spans.index)} of `spans` end past the length of their document, "
            f"e.g. end={int(v.end[i])} > L={int(doc_len[s_doc[i]])} in document "
            f"{docs[s_doc[i]]!r}"
        )
    u_doc, u_coder, u_lab, u_start, u_end = _units(
        v, spans, s_doc, s_coder, len(coder_index), on_overlap
    )
    n_c = len(coder_index)
    pair_key = pair_doc.astype(np.int64) * n_c + pair_coder
    u_pair = np.searchsorted(pair_key, u_doc.astype(np.int64) * n_c + u_coder)
    n_values = len(v.labels)
    delta = _delta(distance, v.labels)
    stats = _ua.statistics(u_pair, u_lab, u_start, u_end, pair_doc, doc_len, n_values)

    observed_docs = None
    if not delta.ordinal:
        cell_delta = delta.matrix[stats.cell_c, stats.cell_k]
        observed_docs = _ua.observed_by_value(stats, cell_delta)
    ok = stats.m >= 2
    per_doc = _evaluate(stats, delta, observed_docs=observed_docs)
    pooled_w = ok.astype(float)[None, :]
    pooled = _evaluate(stats, delta, pooled_w, observed_docs)

    # Reasons, documents and warnings.
    doc_reasons = _reasons(
        stats.m,
        stats.margin,
        stats.cu_margin,
        _expected_by_value(stats.cu_margin, delta),
        per_doc,
    )
    pooled_margin = pooled_w @ stats.margin
    pooled_cu = pooled_w @ stats.cu_margin
    reasons = _reasons(
        np.array([int(ok.any()) * 2]),
        pooled_margin,
        pooled_cu,
        _expected_by_value(pooled_cu, delta),
        pooled,
    )
    if not ok.all():
        left = docs[~ok]
        warnings.warn(
            f"{int((~ok).sum())} document(s) have fewer than two coders and are left out of "
            f"the pooled u-alpha, e.g. {list(left[:3])!r}",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(),
        )
    if not ok.any():
        raise InvalidParameterError(
            "u-alpha needs at least two coders on one document; no document has two"
        )
    u_units = np.bincount(u_doc, minlength=len(docs))
    doc_name = document if isinstance(document, str) else "document"
    by_document = pd.DataFrame(
        {
            "n_coders": stats.m,
            "length": doc_len,
            "n_units": u_units,
            "u_alpha": per_doc["u"],
            "bar_u_alpha": per_doc["bar_u"],
            "cu_alpha": per_doc["cu"],
            "cu_coverage": per_doc["cu_coverage"],
            "reason": [
                "; ".join(f"{name}: {r}" for name, r in zip(_MEASURES, rs) if r) or None
                for rs in zip(doc_reasons["u"], doc_reasons["|u"], doc_reasons["cu"])
            ],
        },
        index=pd.Index(docs, name=doc_name),
    )

    # Bootstrap over documents.
    replicate_cols = ["u", "|u", "cu", *[f"ku[{x}]" for x in range(n_values)]]
    reps = np.empty((0, len(replicate_cols)))
    n_ok = int(ok.sum())
    if n_boot:
        from .._core.bootstrap import multiplicities

        gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        draws = multiplicities(n_ok, int(n_boot), gen)
        cols = np.flatnonzero(ok)
        block = max(1, 4_000_000 // max(stats.cell_value.size, n_values * n_values, len(docs), 1))
        parts = []
        for b0 in range(0, int(n_boot), block):
            w = np.zeros((min(block, int(n_boot) - b0), len(docs)))
            w[:, cols] = draws[b0 : b0 + block]
            r = _evaluate(stats, delta, w, observed_docs)
            parts.append(np.column_stack([r["u"], r["bar_u"], r["cu"], r["ku"]]))
        reps = np.vstack(parts)
        if n_ok < 2:
            reps[:] = np.nan

    def interval(col: int) -> tuple[float, float]:
        if not n_boot:
            return (np.nan, np.nan)
        x = reps[:, col]
        x = x[~np.isnan(x)]
        if x.size == 0:
            return (np.nan, np.nan)
        lo, hi = np.quantile(x, [(1 - level) / 2, (1 + level) / 2])
        return float(lo), float(hi)

    labels = list(v.labels)
    rows = [
        ("u", ALL_LABELS, pooled["u"][0], 1.0, reasons["u"][0]),
        ("|u", ALL_LABELS, pooled["bar_u"][0], 1.0, reasons["|u"][0]),
        ("cu", ALL_LABELS, pooled["cu"][0], pooled["cu_coverage"][0], reasons["cu"][0]),
    ] + [
        ("ku", labels[k], pooled["ku"][0, k], pooled["ku_coverage"][0, k], reasons["ku"][0][k])
        for k in range(n_values)
    ]
    summary = pd.DataFrame(
        {
            "alpha": [float(r[2]) for r in rows],
            "coverage": [float(r[3]) for r in rows],
        },
        index=pd.MultiIndex.from_tuples([(r[0], r[1]) for r in rows], names=["measure", "value"]),
    )
    if n_boot:
        bounds = [interval(i) for i in range(len(rows))]
        summary["low"] = [b[0] for b in bounds]
        summary["high"] = [b[1] for b in bounds]
    summary["reason"] = [r[4] for r in rows]

    label_name = label if isinstance(label, str) else "label"
    per_value = pd.DataFrame(
        {
            "ku_alpha": pooled["ku"][0],
            "coverage": pooled["ku_coverage"][0],
            "n_units": np.bincount(u_lab, minlength=n_values),
        },
        index=pd.Index(v.labels, name=label_name),
    )
    if n_boot:
        per_value["low"] = summary["low"].to_numpy()[3:]
        per_value["high"] = summary["high"].to_numpy()[3:]
    per_value["reason"] = reasons["ku"][0]

    # Pooled coincidence matrix: valued cells, the gap column/row from the margins.
    full = np.zeros((n_values + 1, n_values + 1))
    sel = ok[stats.cell_doc]
    np.add.at(full, (stats.cell_c[sel], stats.cell_k[sel]), stats.cell_value[sel])
    to_gap = pooled_margin[0, :n_values] - pooled_cu[0]
    full[:n_values, n_values] = to_gap
    full[n_values, :n_values] = to_gap
    full[n_values, n_values] = (pooled_w @ stats.diagonal)[0, n_values]
    names = pd.Index([*labels, GAP], dtype=object)
    coincidences = pd.DataFrame(full, index=names, columns=names)

    replicates = (
        pd.DataFrame(reps, columns=pd.MultiIndex.from_tuples([(r[0], r[1]) for r in rows]))
        if n_boot
        else pd.DataFrame()
    )

    reason = reasons["u"][0]
    if reason is not None:
        warnings.warn(
            f"u-alpha is NaN: {reason}", DegenerateDataWarning, stacklevel=user_stacklevel()
        )
    return UAlphaResult(
        u_alpha=float(pooled["u"][0]),
        bar_u_alpha=float(pooled["bar_u"][0]),
        cu_alpha=float(pooled["cu"][0]),
        cu_coverage=float(pooled["cu_coverage"][0]),
        distance=delta.name,
        n_coders=len(coder_index),
        n_documents=n_ok,
        n_units=int(u_start.size),
        length=int(doc_len[ok].sum()),
        reason=reason,
        ci=None if ci is None else float(ci),
        n_boot=n_boot or None,
        per_value=per_value,
        by_document=by_document,
        coincidences=coincidences,
        replicates=replicates,
        summary=summary,
    )
