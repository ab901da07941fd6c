r"""Mathet et al.'s :math:`\gamma`: :func:`gamma` and :class:`GammaResult`."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd

from .._core import alignment as _al
from .._numbers import labelled_matrix
from ..declare import declared
from ..errors import DegenerateDataWarning, InvalidParameterError, ValueTypeError, user_stacklevel
from ..results import Result
from ._frame import compared_coders, coverage_pairs, coverage_seen, validate
from .unitizing import _spans_on_continua

__all__ = [
    "GammaResult",
    "gamma",
]

#: The row of :attr:`GammaResult.per_document` that pools every document.
POOLED = "(pooled)"

# Most random continua the ``precision=`` rule draws.
MAX_SAMPLES = 10_000

# Two-sided 95 % normal quantile of the ``precision=`` rule (Mathet et al. 2015, 5.3).
_Z95 = 1.959963984540054

_DOC_COLUMNS = (
    "gamma",
    "gamma_cat",
    "observed",
    "expected",
    "expected_se",
    "n_coders",
    "n_units",
    "n_alignments",
    "reason",
)


@dataclass(frozen=True, repr=False)
class GammaResult(Result):
    r"""Mathet et al.'s :math:`\gamma` over all documents, and its parts.

    Attributes
    ----------
    gamma : float
        :math:`1 - D_o / D_e`; NaN when undefined (see ``reason``).
    observed : float
        :math:`D_o`, the disorder of the best alignment (all documents pooled: the sum of
        the unitary disorders over the sum of each document's mean number of units per
        coder).
    expected : float
        :math:`D_e`, the mean pooled disorder of the random continua.
    expected_se : float
        Standard error of ``expected`` (sample standard deviation over
        :math:`\sqrt{N}`; NaN with one random continuum).
    gamma_cat : float
        :math:`\gamma_{cat}` (Mathet 2017): agreement on the categories of aligned units.
    observed_cat, expected_cat : float
        The observed and expected categorical disorders of :math:`\gamma_{cat}`.
    n_samples : int
        Random continua drawn (more than asked when ``precision`` required it).
    n_coders : int
        Coders (all documents).
    n_units : int
        Units (spans) of the documents used.
    n_documents : int
        Documents used (two or more coders, at least one unit).
    sampler : str
        ``"statistical"`` or ``"shuffle"``.
    reason : str or None
        Why ``gamma`` is NaN, when it is.
    per_document : pandas.DataFrame
        One row per document and a last ``"(pooled)"`` row: ``gamma``, ``gamma_cat``,
        ``observed``, ``expected``, ``expected_se``, ``n_coders``, ``n_units``,
        ``n_alignments``, ``reason``.
    per_category : pandas.DataFrame
        One row per label: ``gamma_k``, ``observed``, ``expected`` (the :math:`\gamma_{cat}`
        disorders restricted to pairs with a unit of that label), ``n_units``.
    alignment : pandas.DataFrame
        The best alignment, one row per unitary alignment and coder of its document:
        ``document``, ``alignment`` (its number), ``coder``, ``span`` (the index label of
        the span in the frame given, missing for the empty unit), ``start``, ``end``,
        ``label``, ``disorder`` (of the unitary alignment).
    samples : numpy.ndarray
        The pooled disorder of each random continuum.
    """

    gamma: float
    observed: float
    expected: float
    expected_se: float
    gamma_cat: float
    observed_cat: float
    expected_cat: float
    n_samples: int
    n_coders: int
    n_units: int
    n_documents: int
    sampler: str
    reason: str | None = None
    per_document: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)
    per_category: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)
    alignment: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)
    samples: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False, compare=False)

    _headline: ClassVar[str] = "gamma"
    _series_fields: ClassVar[tuple[str, ...]] = (
        "gamma",
        "observed",
        "expected",
        "expected_se",
        "gamma_cat",
        "observed_cat",
        "expected_cat",
        "n_samples",
        "n_coders",
        "n_units",
        "n_documents",
        "sampler",
        "reason",
    )
    _series_name: ClassVar[str] = "gamma"

    _shown = (
        "gamma:.4f", "observed:.4f", "expected:.4f", "expected_se:.4f", "gamma_cat:.4f",
        "n_samples", "n_coders", "n_units",
    )

    def to_frame(self) -> pd.DataFrame:
        """:attr:`per_document`: one row per document, ``"(pooled)"`` last."""
        return self.per_document.copy()


# ---------------------------------------------------------------------------------------------
# parameters


def _number(value: Any, name: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidParameterError(f"`{name}` must be a number, got {value!r}")
    x = float(value)
    if not math.isfinite(x) or x < 0 or (positive and x == 0):
        need = "> 0" if positive else ">= 0"
        raise InvalidParameterError(f"`{name}` must be a finite number {need}, got {value!r}")
    return x


def _category_matrix(categorical: Any, labels: pd.Index, counts: np.ndarray) -> np.ndarray:
    """The matrix :math:`M` of categorical dissimilarities between ``labels``."""
    k = len(labels)
    if isinstance(categorical, pd.DataFrame):
        m = labelled_matrix(categorical, labels, "`categorical`", noun=("label", "labels"))
        where = "`categorical`"
        if m.size and (np.nanmax(m) > 1 or np.nanmin(m) < 0):
            i, j = np.unravel_index(np.nanargmax(np.abs(m - 0.5)), m.shape)
            raise InvalidParameterError(
                f"{where} must hold dissimilarities in [0, 1]; "
                f"({labels[i]!r}, {labels[j]!r}) holds {m[i, j]!r}"
            )
    else:
        from ..krippendorff.distances import get_distance  # here: keeps imports cheap

        dist = get_distance(categorical)
        where = f"`categorical` {dist.name!r}"
        if dist.weighted:
            raise InvalidParameterError(
                f"{where} needs element weights; pass a matrix of dissimilarities instead"
            )
        numeric = (
            pd.api.types.is_numeric_dtype(labels.dtype)
            and not pd.api.types.is_bool_dtype(labels.dtype)
            and not isinstance(labels, pd.CategoricalIndex)
        )
        if dist.kind in ("interval", "numeric") and not numeric:
            raise ValueTypeError(
                f"{where} needs numeric labels; the `label` column holds {list(labels[:3])!r}"
                " (convert it to numbers first)"
            )
        if dist.kind == "ordinal" and not (
            numeric or (isinstance(labels, pd.CategoricalIndex) and bool(labels.ordered))
        ):
            raise ValueTypeError(
                f"{where} needs labels with an order (numbers or an ordered Categorical); "
                f"got {list(labels[:3])!r}, which would only rank alphabetically"
            )
        if dist.kind == "nominal":
            m = 1.0 - np.eye(k)
        else:
            kwargs: dict[str, Any] = {}
            if dist.kind == "ordinal":
                kwargs["frequencies"] = dict(zip(labels, counts.tolist(), strict=True))
            values = list(labels)
            m = np.zeros((k, k))
            for i in range(k):
                for j in range(k):
                    a, b = values[i], values[j]
                    if dist.kind == "set":
                        a, b = frozenset([a]), frozenset([b])
                    try:
                        m[i, j] = float(dist.func(a, b, **kwargs))
                    except Exception as exc:
                        raise InvalidParameterError(
                            f"{where} failed on the labels ({values[i]!r}, {values[j]!r}): "
                            f"{type(exc).__name__}: {exc}"
                        ) from exc
            big = float(np.max(m)) if m.size else 0.0
            if np.isfinite(big) and big > 1:  # Mathet et al. keep d_cat in [0, 1]
                m = m / big
    bad = ~np.isfinite(m) | (m < 0)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise InvalidParameterError(
            f"{where} must give finite non-negative dissimilarities; ({labels[i]!r}, "
            f"{labels[j]!r}) gives {float(m[i, j])!r}"
        )
    if (np.diag(m) != 0).any():
        i = int(np.flatnonzero(np.diag(m) != 0)[0])
        raise InvalidParameterError(
            f"{where} must give 0 between a label and itself; {labels[i]!r} gives {m[i, i]!r}"
        )
    asym = np.abs(m - m.T) > 1e-9 * np.maximum(np.abs(m), np.abs(m.T))
    if asym.any():
        i, j = np.argwhere(asym)[0]
        raise InvalidParameterError(
            f"{where} must be symmetric; ({labels[i]!r}, {labels[j]!r}) gives {m[i, j]!r} but "
            f"({labels[j]!r}, {labels[i]!r}) gives {m[j, i]!r}"
        )
    return m


# ---------------------------------------------------------------------------------------------
# the computation


@dataclass(frozen=True)
class _Draws:
    """Per random continuum: each document's disorder sum and units, and the gamma-cat sums."""

    sums: np.ndarray  # (s, g)
    units: np.ndarray  # (s, g)
    num: np.ndarray  # (s, g)
    den: np.ndarray  # (s, g)
    num_k: np.ndarray  # (s, g, k)
    den_k: np.ndarray  # (s, g, k)


def _draw(
    n: int,
    sampler: str,
    ref: _al.Units,
    stats: _al.StatisticalStats | None,
    begin: np.ndarray,
    stop: np.ndarray,
    min_distance: np.ndarray,
    dissim: _al.Dissimilarity,
    n_categories: int,
    rng: np.random.Generator,
) -> _Draws:
    """``n`` random continua of every document, solved together (one group per pair)."""
    g = ref.n_groups
    parts = []
    for _ in range(n):
        if sampler == "statistical":
            assert stats is not None
            part = _al.statistical_sample(stats, rng)
        else:
            part = _al.shuffle_sample(ref, begin, stop, rng, min_distance)
        parts.append(part)
    units = _al.Units(
        start=np.concatenate([p.start for p in parts]),
        end=np.concatenate([p.end for p in parts]),
        category=np.concatenate([p.category for p in parts]),
        coder=np.concatenate([p.coder for p in parts]),
        group=np.concatenate([p.group + s * g for s, p in enumerate(parts)]),
        n_coders=np.tile(ref.n_coders, n),
    )
    best = _al.best_alignment(units, dissim)
    num, den, num_k, den_k = _al.categorical_sums(best, units, dissim, n_categories)
    return _Draws(
        sums=best.sums(n * g).reshape(n, g),
        units=units.units_per_group().reshape(n, g),
        num=num.reshape(n, g),
        den=den.reshape(n, g),
        num_k=num_k.reshape(n, g, n_categories),
        den_k=den_k.reshape(n, g, n_categories),
    )


def _join(a: _Draws, b: _Draws) -> _Draws:
    return _Draws(
        *(np.concatenate([x, y]) for x, y in zip(vars(a).values(), vars(b).values(), strict=True))
    )


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def _one_minus(observed: np.ndarray, expected: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(
            expected > 0, 1.0 - observed / np.where(expected > 0, expected, 1.0), np.nan
        )


def _nanmean(x: np.ndarray, axis: int = 0) -> np.ndarray:
    ok = ~np.isnan(x)
    count = ok.sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, np.where(ok, x, 0.0).sum(axis=axis) / count, np.nan)


def _se(x: np.ndarray, axis: int = 0) -> np.ndarray:
    n = x.shape[axis]
    if n < 2:
        return np.full(np.delete(x.shape, axis), np.nan) if x.ndim > 1 else np.float64(np.nan)
    return np.std(x, axis=axis, ddof=1) / np.sqrt(n)


@declared(frontends=("frame",))
def gamma(
    spans: pd.DataFrame,
    *,
    alpha: float = 1.0,
    beta: float = 1.0,
    categorical: str | Callable[[Any, Any], float] | pd.DataFrame | Any = "nominal",
    delta_empty: float = 1.0,
    sampler: Literal["statistical", "shuffle"] = "statistical",
    n_samples: int = 30,
    precision: float | None = None,
    rng,
    continuum: int | tuple[int, int] | Mapping[Hashable, Any] | None = None,
    coders, coverage,
    document, coder, start, end, label,
) -> GammaResult:
    r"""Mathet et al.'s (2015) :math:`\gamma`, with :math:`\gamma_{cat}` and :math:`\gamma_k`.

    Each coder places units (the spans) on a continuum (the document) and gives each a
    category (its label). :math:`\gamma` aligns the units of the coders (the best
    alignment, below) and compares how much they disagree on that alignment with how much
    random continua of the same kind disagree on theirs.

    **Dissimilarity** of two units :math:`u, v` (start :math:`s`, end :math:`e`, category
    :math:`c`):

    .. math::

        d(u, v) = \Delta_\emptyset \left[ \alpha \left(
            \frac{|s_u - s_v| + |e_u - e_v|}{(e_u - s_u) + (e_v - s_v)} \right)^2
            + \beta\, M_{c_u c_v} \right]

    with :math:`M` the categorical dissimilarity (``categorical``: 0 between equal labels
    and 1 otherwise by default) and :math:`\Delta_\emptyset` the cost of a unit aligned
    with nothing.

    **Alignment.** A unitary alignment groups at most one unit of each coder; its disorder
    is the mean of :math:`d` over its coder pairs, a pair with no unit on either or both
    sides costing :math:`\Delta_\emptyset` (as pygamma-agreement counts it). An alignment
    partitions all units into unitary alignments; its disorder is the sum of theirs over
    the mean number of units per coder. The best alignment has the least disorder; it is
    computed exactly (an assignment problem for two coders, a set-partitioning integer
    program for more, see :mod:`pandas_agree._core.alignment` for the candidates it keeps
    and why no best alignment is lost).

    **Chance.** :math:`D_o` is the disorder of the best alignment; :math:`D_e` the mean
    disorder of the best alignments of ``n_samples`` random continua, and
    :math:`\gamma = 1 - D_o / D_e`. ``sampler="statistical"`` (pygamma-agreement's default)
    draws each coder's units from normal distributions fitted to the document: the number
    of units per coder, the gaps between a coder's consecutive units and the durations,
    with categories drawn from their frequencies. ``sampler="shuffle"`` (the method of
    Mathet et al. 2015, section 5.2, as their software implements it) takes, for each
    coder, the units of a coder drawn at random and shifts them all by a random integer
    amount around the continuum, two shifts being at least half the mean unit length apart
    (the article says the whole mean length; the authors' software and pygamma-agreement
    use half). With ``precision=p``, more continua are drawn until the 95 % confidence
    interval of :math:`D_e` is within :math:`\pm p D_e`: :math:`N \ge (1.96\, c_v / p)^2`
    with :math:`c_v` the coefficient of variation of the disorders (Mathet et al. 2015,
    5.3), at most 10,000.

    :math:`\gamma_{cat}` (Mathet 2017) measures the categorization on the best alignment
    alone: over every pair of units in a unitary alignment of :math:`n_v \ge 2` units,
    the mean of :math:`\Delta_\emptyset M_{c_u c_v}` weighted by
    :math:`\max(0, 1 - \Delta_\emptyset\,\mathrm{pos}(u, v)^2) / (n_v - 1)` (the squared
    positional ratio above: pairs that barely overlap count little), against the same on
    the random continua. Units aligned with nothing do not count (pygamma-agreement 0.5
    adds :math:`\Delta_\emptyset` for each, which it calls experimental; the authors'
    software multiplies the positional term by :math:`\alpha`, which is the same with the
    default :math:`\alpha = 1`). :math:`\gamma_k` is the same over the pairs with a unit
    of category :math:`k`.

    **Documents.** Units align only within their document. Each document's random
    continua are drawn from that document; pooled values divide the sums of the unitary
    disorders of all documents by the sum of their mean numbers of units per coder, for
    the data and for each random draw alike (and sum the :math:`\gamma_{cat}` weights).
    Every coder (all coders of the spans, or ``coders=``) is taken to have annotated
    every document, so a coder without spans in a document has no unit there and every
    unit of the others counts as unmatched by them; ``coverage=`` lists who saw which
    document instead. Documents with fewer than two coders or no unit are left out (their
    row says why).

    Units of one coder may overlap or nest (:math:`\gamma` allows it); two identical spans
    of one coder are two units (pygamma-agreement keeps one). Spans must end after they
    start (an empty unit has no position ratio).

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame. Not modified.
    alpha, beta : float, default 1.0
        Weights of the positional and the categorical dissimilarity (:math:`\alpha`,
        :math:`\beta` of Mathet et al.; their software uses :math:`\alpha = 3`). Not
        negative, not both 0.
    categorical : str, callable, Distance or DataFrame, default "nominal"
        The categorical dissimilarity :math:`M`: a square DataFrame indexed and columned
        by the labels, with values in [0, 1], symmetric, 0 on the diagonal; or any
        distance of :mod:`pandas_agree.distances` (a name, a :class:`~pandas_agree.Distance`
        or a callable ``d(a, b)``) evaluated on the labels (``"ordinal"`` with the labels'
        unit counts as frequencies) and divided by its largest value when that exceeds 1.
    delta_empty : float, default 1.0
        :math:`\Delta_\emptyset`. Every dissimilarity is a multiple of it, so
        :math:`\gamma` does not depend on it; the disorders do.
    sampler : {"statistical", "shuffle"}, default "statistical"
    n_samples : int, default 30
        Random continua (per document) before the ``precision`` rule.
    precision : float, optional
        Relative half-width of the 95 % confidence interval of :math:`D_e` to reach, in
        (0, 1).
    rng : int, numpy.random.Generator or None
        Seed or generator of the random continua; the same seed gives the same result.
    continuum : int, (begin, end) or mapping, optional
        Where each document's continuum lies, as in :func:`unitizing_alpha` (a length,
        a pair, or a mapping document -> either). The shuffle sampler moves units around
        it and the statistical sampler counts the gap before each coder's first unit from
        its begin; spans outside it are an error. Default: the text lengths a reader
        recorded (``frame.attrs``), else 0 to the document's last span end.
    coders : sequence, optional
        The coders (each annotated every document); must include every coder with spans.

    Returns
    -------
    GammaResult
        ``float(result)`` is :math:`\gamma`; ``result.to_frame()`` has one row per
        document and the pooled row; ``result.alignment`` is the best alignment;
        ``result.per_category`` has :math:`\gamma_k`.

    Raises
    ------
    InvalidParameterError
        Fewer than two coders; spans outside ``continuum``; a bad parameter; more
        candidate unitary alignments than the exact solver takes (many units of every
        coder over one stretch, or ``alpha=0``).

    References
    ----------
    Mathet, Y., Widlöcher, A., & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics 41(3), 437-479. Mathet, Y. (2017). The agreement measure γcat, a
    complement to γ focused on categorization of a continuum. Computational Linguistics
    43(3), 661-681. Titeux, H., & Riad, R. (2021). pygamma-agreement: Gamma γ measure for
    inter/intra-annotator agreement in Python. Journal of Open Source Software 6(62), 2989.

    Examples
    --------
    The quickstart continuum of pygamma-agreement's documentation (three annotators
    marking who speaks when, in tenths of a second; ``beta=2`` as there). pygamma-agreement
    0.5.9 gives the best alignment a disorder of 0.7746666 (it computes in float32):

    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> spans = pd.DataFrame({
    ...     "document": "talk",
    ...     "coder": ["A1"] * 4 + ["A2"] * 4 + ["A3"] * 3,
    ...     "start": [25, 46, 82, 135, 23, 43, 79, 130, 25, 46, 131],
    ...     "end": [43, 74, 114, 160, 45, 72, 112, 161, 43, 115, 171],
    ...     "label": ["Maureen", "Marvin", "Marvin", "Robin", "Maureen", "Marvin",
    ...               "Robin", "Maureen", "Maureen", "Marvin", "Robin"]})
    >>> res = pa.gamma(spans, beta=2, rng=0)
    >>> round(res.observed, 6)
    0.774667
    >>> res.alignment.pivot(index="alignment", columns="coder", values="label").fillna("-")
    coder           A1       A2       A3
    alignment
    0          Maureen  Maureen  Maureen
    1           Marvin   Marvin   Marvin
    2           Marvin    Robin        -
    3            Robin  Maureen    Robin
    """
    # -- parameters
    alpha = _number(alpha, "alpha")
    beta = _number(beta, "beta")
    if alpha == 0 and beta == 0:
        raise InvalidParameterError("`alpha` and `beta` cannot both be 0: nothing would differ")
    delta_empty = _number(delta_empty, "delta_empty", positive=True)
    if sampler not in ("statistical", "shuffle"):
        raise InvalidParameterError(
            f"`sampler` must be 'statistical' or 'shuffle', got {sampler!r}"
        )
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise InvalidParameterError(f"`n_samples` must be a positive integer, got {n_samples!r}")
    if precision is not None:
        p = _number(precision, "precision", positive=True)
        if p >= 1:
            raise InvalidParameterError(f"`precision` must be in (0, 1), got {precision!r}")
    if rng is not None and not isinstance(rng, (int, np.integer, np.random.Generator)):
        raise InvalidParameterError(
            f"`rng` must be None, an integer seed or a numpy.random.Generator, got {rng!r}"
        )
    gen = np.random.default_rng(rng)

    # -- the spans, coders and documents
    v = validate(spans, document, coder, start, end, label)
    pairs = coverage_pairs(coverage, coders)
    coder_index = compared_coders(coders, v.coders, pairs, "gamma")
    docs, c_begin, c_end, s_doc = _spans_on_continua(spans, continuum, v)
    s_coder = coder_index.get_indexer(v.coders)[v.coder]
    seen = coverage_seen(pairs, docs, coder_index, s_doc, s_coder, "spans")
    n_doc_coders = seen.sum(axis=1)
    n_doc_units = np.bincount(s_doc, minlength=len(docs))
    doc_reason = np.full(len(docs), None, dtype=object)
    doc_reason[n_doc_units == 0] = "no units"
    doc_reason[n_doc_coders < 2] = "fewer than two coders"
    used = np.flatnonzero((n_doc_coders >= 2) & (n_doc_units > 0))
    group_of_doc = np.full(len(docs), -1, dtype=np.intp)
    group_of_doc[used] = np.arange(used.size)

    counts = np.bincount(v.label, minlength=len(v.labels))
    dissim = _al.Dissimilarity(
        alpha, beta, delta_empty, _category_matrix(categorical, v.labels, counts)
    )
    n_cat = len(v.labels)

    # -- the units of the documents used, coders numbered within each document
    in_use = group_of_doc[s_doc] >= 0
    rows = np.flatnonzero(in_use)
    slot_table = np.cumsum(seen, axis=1) - 1
    ref = _al.Units(
        start=v.start[rows].astype(np.float64),
        end=v.end[rows].astype(np.float64),
        category=v.label[rows].astype(np.intp),
        coder=slot_table[s_doc[rows], s_coder[rows]].astype(np.intp),
        group=group_of_doc[s_doc[rows]],
        n_coders=n_doc_coders[used].astype(np.intp),
    )
    g_count = used.size
    begin, stop = c_begin[used].astype(np.float64), c_end[used].astype(np.float64)
    try:
        best = _al.best_alignment(ref, dissim)
    except _al.CandidateLimitError as exc:
        raise InvalidParameterError(
            f"gamma's exact alignment would weigh {exc}: too many units of every coder lie "
            "close together (or `alpha` is 0, so every pair of units is a candidate)"
        ) from None
    obs_sums = best.sums(g_count)
    xbar = ref.units_per_group() / ref.n_coders
    num, den, num_k, den_k = _al.categorical_sums(best, ref, dissim, n_cat)

    # -- random continua
    stats = (
        _al.statistical_stats(ref, begin, n_cat) if sampler == "statistical" and g_count else None
    )
    lengths = np.bincount(ref.group, weights=ref.end - ref.start, minlength=g_count)
    min_distance = lengths / np.maximum(ref.units_per_group(), 1) / 2.0

    def draw(n: int) -> _Draws:
        try:
            return _draw(n, sampler, ref, stats, begin, stop, min_distance, dissim, n_cat, gen)
        except _al.CandidateLimitError as exc:
            raise InvalidParameterError(
                f"gamma's exact alignment of a random continuum would weigh {exc}"
            ) from None

    reason = None
    if g_count == 0:
        draws = None
        reason = "no document has two coders and a unit"
    else:
        draws = draw(int(n_samples))
    pooled_samples = np.zeros(0)
    if draws is not None:
        while True:
            pooled_samples = draws.sums.sum(axis=1) / (draws.units / ref.n_coders).sum(axis=1)
            if precision is None:
                break
            mean = pooled_samples.mean()
            cv = pooled_samples.std() / mean if mean > 0 else 0.0
            need = math.ceil((cv * _Z95 / float(precision)) ** 2)
            have = pooled_samples.size
            if have >= need:
                break
            if have >= MAX_SAMPLES:
                warnings.warn(
                    f"gamma: stopped at {MAX_SAMPLES} random continua, short of the {need} that "
                    f"precision={precision!r} asks for",
                    DegenerateDataWarning,
                    stacklevel=user_stacklevel(),
                )
                break
            draws = _join(draws, draw(min(need, MAX_SAMPLES) - have))

    # -- per document and pooled
    n_s = 0 if draws is None else draws.sums.shape[0]
    doc_obs = np.full(len(docs), np.nan)
    doc_exp = np.full(len(docs), np.nan)
    doc_se = np.full(len(docs), np.nan)
    doc_cat = np.full(len(docs), np.nan)
    doc_align = np.zeros(len(docs), dtype=np.int64)
    doc_align[used] = np.bincount(best.group, minlength=g_count)
    if draws is not None:
        doc_obs[used] = obs_sums / xbar
        per_sample = draws.sums / (draws.units / ref.n_coders)
        doc_exp[used] = per_sample.mean(axis=0)
        doc_se[used] = _se(per_sample)
        doc_cat[used] = _one_minus(_ratio(num, den), _nanmean(_ratio(draws.num, draws.den)))
    doc_gamma = _one_minus(doc_obs, doc_exp)
    observed = float(obs_sums.sum() / xbar.sum()) if g_count else float("nan")
    expected = float(pooled_samples.mean()) if n_s else float("nan")
    expected_se = float(_se(pooled_samples)) if n_s else float("nan")
    g_value = float(_one_minus(np.array(observed), np.array(expected)))
    if reason is None and not np.isfinite(g_value):
        reason = "the expected disorder is 0: gamma is undefined"
    cat_obs = float(_ratio(num.sum(), den.sum())) if g_count else float("nan")
    cat_exp = (
        float(_nanmean(_ratio(draws.num.sum(axis=1), draws.den.sum(axis=1))))
        if draws is not None
        else float("nan")
    )
    gamma_cat = float(_one_minus(np.array(cat_obs), np.array(cat_exp)))
    if draws is not None:
        k_obs = _ratio(num_k.sum(axis=0), den_k.sum(axis=0))
        k_exp = _nanmean(_ratio(draws.num_k.sum(axis=1), draws.den_k.sum(axis=1)))
    else:
        k_obs = k_exp = np.full(n_cat, np.nan)
    label_name = label if isinstance(label, str) else "label"
    per_category = pd.DataFrame(
        {
            "gamma_k": _one_minus(k_obs, k_exp),
            "observed": k_obs,
            "expected": k_exp,
            "n_units": np.bincount(ref.category, minlength=n_cat).astype(np.int64),
        },
        index=pd.Index(v.labels, name=label_name),
    )
    for d in range(len(docs)):
        if doc_reason[d] is None and not np.isfinite(doc_gamma[d]):
            doc_reason[d] = "the expected disorder is 0: gamma is undefined"
    per_document = pd.DataFrame(
        {
            "gamma": doc_gamma,
            "gamma_cat": doc_cat,
            "observed": doc_obs,
            "expected": doc_exp,
            "expected_se": doc_se,
            "n_coders": n_doc_coders.astype(np.int64),
            "n_units": n_doc_units.astype(np.int64),
            "n_alignments": doc_align,
            "reason": doc_reason,
        },
        index=pd.Index(docs, dtype=object),
    )
    pooled = pd.DataFrame(
        {
            "gamma": [g_value],
            "gamma_cat": [gamma_cat],
            "observed": [observed],
            "expected": [expected],
            "expected_se": [expected_se],
            "n_coders": [len(coder_index)],
            "n_units": [int(rows.size)],
            "n_alignments": [int(best.group.size)],
            "reason": [reason],
        },
        index=pd.Index([POOLED], dtype=object),
    )
    per_document = pd.concat([per_document, pooled])
    per_document.index.name = document if isinstance(document, str) else "document"
    per_document = per_document[list(_DOC_COLUMNS)]

    if reason is not None:
        warnings.warn(
            f"gamma is NaN: {reason}", DegenerateDataWarning, stacklevel=user_stacklevel()
        )
    return GammaResult(
        gamma=g_value,
        observed=observed,
        expected=expected,
        expected_se=expected_se,
        gamma_cat=gamma_cat,
        observed_cat=cat_obs,
        expected_cat=cat_exp,
        n_samples=int(n_s),
        n_coders=len(coder_index),
        n_units=int(rows.size),
        n_documents=int(g_count),
        sampler=sampler,
        reason=reason,
        per_document=per_document,
        per_category=per_category,
        alignment=_alignment_frame(best, ref, rows, used, docs, seen, coder_index, v, spans),
        samples=pooled_samples,
    )


def _alignment_frame(
    best: _al.Alignment,
    ref: _al.Units,
    rows: np.ndarray,
    used: np.ndarray,
    docs: pd.Index,
    seen: np.ndarray,
    coder_index: pd.Index,
    v: Any,
    spans: pd.DataFrame,
) -> pd.DataFrame:
    """The best alignment as a long frame: one row per unitary alignment and coder slot."""
    m, width = best.members.shape
    n_c = ref.n_coders[best.group]
    slot = np.tile(np.arange(width), m)
    a_id = np.repeat(np.arange(m), width)
    keep = slot < np.repeat(n_c, width)
    slot, a_id = slot[keep], a_id[keep]
    unit = best.members[a_id, slot]
    doc = used[best.group[a_id]]
    # the coder in slot j of a document is its j-th coder in coverage order
    coder_of_slot = np.argsort(~seen, axis=1, kind="stable")
    coder_code = coder_of_slot[doc, slot]
    has = unit >= 0
    row = np.where(has, rows[np.maximum(unit, 0)], 0)
    start = pd.array(np.where(has, v.start[row], 0), dtype="Int64")
    stop = pd.array(np.where(has, v.end[row], 0), dtype="Int64")
    start[~has] = pd.NA
    stop[~has] = pd.NA
    labels = v.labels.to_numpy(dtype=object)[v.label[row]]
    labels[~has] = pd.NA
    span = spans.index.to_numpy(dtype=object)[row]
    span[~has] = pd.NA
    return pd.DataFrame(
        {
            "document": docs.to_numpy(dtype=object)[doc],
            "alignment": a_id.astype(np.int64),
            "coder": coder_index.to_numpy(dtype=object)[coder_code],
            "span": pd.Series(span, dtype=object),
            "start": start,
            "end": stop,
            "label": pd.Series(labels, dtype=object),
            "disorder": best.disorder[a_id],
        }
    )
