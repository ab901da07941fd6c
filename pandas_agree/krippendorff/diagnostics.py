r"""Why is my alpha low? Pairwise tables, per-unit and per-coder disagreement, a summary.

* :func:`pairwise`: alpha, kappa or percent agreement for every pair of coders.
* :func:`unit_disagreement`: each unit's share of the observed disagreement of an alpha.
* :func:`coder_disagreement`: each coder's share of it, and alpha without that coder.
* :func:`summary`: alpha, percent agreement and Gwet's AC1 side by side, with a note when
  a dominant category makes alpha low despite high raw agreement (the "kappa paradox").

The decompositions use Krippendorff's observed disagreement. With :math:`n` pairable
values, :math:`m_u` values in unit :math:`u` and :math:`\delta` the distance,

.. math::

    D_o = \frac{1}{n} \sum_u O_u, \qquad
    O_u = \frac{1}{m_u - 1} \sum_{i \ne j \in u} \delta(v_i, v_j)

(ordered pairs of ratings by different coders; pairs of equal values add nothing). A unit's
share is :math:`O_u / \sum_u O_u`. Writing :math:`O_u = \sum_{i \in u} t_i` with

.. math:: t_i = \frac{1}{m_u - 1} \sum_{j \in u, j \ne i} \delta(v_i, v_j),

the mean distance from rating :math:`i` to the other ratings of its unit, charges each
rating with its part; a coder's part :math:`O_g = \sum_{i \text{ by } g} t_i` splits every
pair's disagreement equally between its two coders, and the parts of all coders add up to
:math:`n D_o`. With two coders the split is always even (50/50), so per-coder shares only
discriminate with three or more coders; leave-one-coder-out alpha does the same job from
the other side.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.agreement import chance_corrected, contingency, table_proportions
from .._core.counts import pairable_counts
from .._core.diagnostics import (
    alpha_of,
    coder_parts,
    coder_slices,
    leave_one_coder_out,
    nominal_agreement,
)
from .._numbers import finite_float
from ..data.categorical import prepare_categorical
from ..data.prepare import CodedData
from ..declare import declared
from ..errors import InvalidParameterError, NoPairableUnitsError
from ..kappa.weights import agreement_weights
from ..results import AlphaResult, Result, fitted
from .alpha import fit_alpha, make_kernel, prepare_for

__all__ = ["AgreementSummary", "coder_disagreement", "pairwise", "summary", "unit_disagreement"]

Metric = Literal["alpha", "kappa", "percent"]
_METRICS = ("alpha", "kappa", "percent")


# ---------------------------------------------------------------------------------------------
# pairwise


@declared()
def pairwise(
    data: pd.DataFrame,
    metric: Metric = "alpha",
    distance: Any = "nominal",
    *,
    weights: Any = None,
    categories, unit, coder, value, on_duplicate, sep,
) -> pd.DataFrame:
    """Agreement of every pair of coders, as a coders x coders DataFrame.

    Each cell compares two coders on the units both rated: Krippendorff's alpha
    (``metric="alpha"``, with ``distance``), Cohen's kappa (``"kappa"``, with ``weights``)
    or the share of shared units they agree on (``"percent"``). The table is symmetric. The
    **diagonal is NaN** (a coder is not compared with themselves), as is every pair that
    shares no unit or whose coefficient is undefined (no degenerate-data warnings are raised
    per pair), so row means (``table.mean(axis=1)``) skip it. A coder whose row is low
    across the board disagrees with everyone; a low single cell points at one pair.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    metric : {"alpha", "kappa", "percent"}, default "alpha"
        The coefficient per pair.
    distance : str, callable or Distance, default "nominal"
        Distance for ``metric="alpha"`` (see :func:`pandas_agree.alpha`); other metrics
        refuse anything but ``"nominal"``.
    weights : optional
        For ``"alpha"``: element weights of ``weighted_dice``/``weighted_jaccard``. For
        ``"kappa"``: agreement weights (``"linear"``, ``"quadratic"``, callable, matrix; see
        :func:`pandas_agree.kappa.coefficients.cohen_kappa`). Refused for ``"percent"``.
    categories : sequence, optional
        Category domain and order (ordinal alpha, weighted kappa).

    Returns
    -------
    pandas.DataFrame
        Index and columns: the coders with at least one rating.

    Examples
    --------
    Krippendorff (2011), section C: coder C agrees least with everyone (A and C agree on 5
    of the 8 units both rated).

    >>> import pandas_agree as pa
    >>> from pandas_agree.krippendorff.diagnostics import pairwise
    >>> pairwise(pa.datasets.krippendorff_2011(), "percent").round(3)
    coder      A      B      C      D
    coder
    A        NaN  0.889  0.625  0.889
    B      0.889    NaN  0.667  0.900
    C      0.625  0.667    NaN  0.700
    D      0.889  0.900  0.700    NaN
    """
    if metric not in _METRICS:
        raise InvalidParameterError(f"`metric` must be one of {list(_METRICS)}, got {metric!r}")
    if metric != "alpha" and not (isinstance(distance, str) and distance == "nominal"):
        raise InvalidParameterError(
            f"`distance` only applies to metric='alpha'; metric={metric!r} compares categories "
            f"(nominal), got distance={distance!r}"
        )
    if metric == "percent" and weights is not None:
        raise InvalidParameterError(
            f"`weights` does not apply to metric='percent', got weights={weights!r}"
        )
    if metric == "alpha":
        dist, coded = prepare_for(
            data, distance, weights, unit, coder, value, categories, on_duplicate, sep
        )
        kernel = make_kernel(dist, coded, weights)
        codes = coded.value_codes
        domain_size = len(coded.values)
    else:
        coded, domain, codes, ordered = prepare_categorical(
            data, unit, coder, value, categories, on_duplicate
        )
        w = None
        if metric == "kappa":  # positions in the domain are ranks only where it has an order
            w, _ = agreement_weights(weights, domain, ordered=ordered)
        domain_size = len(domain)
    n_coders = len(coded.coders)
    slices = coder_slices(coded.coder_codes, n_coders)
    rated = [g for g in range(n_coders) if slices[g].size]
    k = len(rated)
    out = np.full((k, k), np.nan)
    n_units = len(coded.units)
    for a in range(k):
        for b in range(a + 1, k):
            ia, ib = slices[rated[a]], slices[rated[b]]
            if metric == "alpha":
                idx = np.concatenate((ia, ib))
                counts = pairable_counts(coded.unit_codes[idx], codes[idx], n_units, domain_size)
                val = alpha_of(kernel, counts)
            else:
                _, pa_, pb_ = np.intersect1d(
                    coded.unit_codes[ia], coded.unit_codes[ib], return_indices=True
                )
                if pa_.size == 0:
                    continue
                ca, cb = codes[ia][pa_], codes[ib][pb_]
                if metric == "percent":
                    val = float(np.mean(ca == cb))
                else:
                    table = contingency(ca, cb, domain_size)
                    val = chance_corrected(*table_proportions(table, w, "cohen"))[0]
            out[a, b] = out[b, a] = val
    labels = coded.coders[rated].rename("coder")
    return pd.DataFrame(out, index=labels, columns=labels.copy())


# ---------------------------------------------------------------------------------------------
# unit and coder decomposition


def unit_disagreement(result: AlphaResult) -> pd.DataFrame:
    """Each pairable unit's part of the observed disagreement of an alpha, worst first.

    Parameters
    ----------
    result : AlphaResult
        From :func:`pandas_agree.alpha`.

    Returns
    -------
    pandas.DataFrame
        Indexed by unit (pairable units only), sorted by ``share`` descending (ties keep
        the unit order), with columns

        * ``n_values``: pairable values in the unit, :math:`m_u`;
        * ``mean_distance``: mean distance over ordered pairs of the unit's values,
          :math:`O_u / m_u` (0 when all coders agree);
        * ``disagreement``: the unit's part of :math:`D_o`, :math:`O_u / n` (the column sums
          to ``result.observed``);
        * ``share``: :math:`O_u / \\sum_u O_u`, summing to 1 (all 0 when nothing is
          disagreed on).

    Examples
    --------
    Krippendorff (2011), section C: the nominal observed disagreement sum is 8 over
    n = 40 values; unit 6 (values 1, 2, 3, 4: every pair differs) holds 4 of it, units 2
    (2, 2, 3, 2) and 8 (1, 1, 2, 1) 2 each, every other unit 0.

    >>> import pandas_agree as pa
    >>> from pandas_agree.krippendorff.diagnostics import unit_disagreement
    >>> unit_disagreement(pa.alpha(pa.datasets.krippendorff_2011())).head(3)
          n_values  mean_distance  disagreement  share
    unit
    6            4            1.0          0.10   0.50
    2            4            0.5          0.05   0.25
    8            4            0.5          0.05   0.25
    """
    result = fitted(result)
    fit = result.fit
    counts = fit.counts
    by_unit = np.asarray(fit.observed_by_unit, dtype=float)
    pairable = counts.m >= 2
    o_u = by_unit[pairable]
    m_u = counts.m[pairable]
    total = o_u.sum()
    share = o_u / total if total > 0 else np.zeros_like(o_u)
    frame = pd.DataFrame(
        {
            "n_values": m_u.astype(np.int64),
            "mean_distance": o_u / m_u,
            "disagreement": o_u / counts.n,
            "share": share,
        },
        index=fit.coded.units[pairable].rename("unit"),
    )
    return frame.sort_values("share", ascending=False, kind="stable")


def coder_disagreement(result: AlphaResult) -> pd.DataFrame:
    """Each coder's part of the observed disagreement and alpha without that coder.

    Parameters
    ----------
    result : AlphaResult
        From :func:`pandas_agree.alpha`.

    Returns
    -------
    pandas.DataFrame
        Indexed by coder (every coder with a rating), sorted worst first: by
        ``alpha_change`` descending (the coder whose removal raises alpha most), then by
        ``share``; NaN last. Columns:

        * ``n_values``: the coder's pairable values :math:`n_g`;
        * ``mean_distance``: :math:`O_g / n_g`, the coder's mean distance to the other
          coders' values in the same units (compare with ``result.observed``, the mean over
          all coders);
        * ``disagreement``: :math:`O_g / n`, the coder's part of :math:`D_o` (sums to
          ``result.observed``);
        * ``share``: :math:`O_g / \\sum_g O_g`, summing to 1 (0 when nothing is disagreed
          on). It grows with the number of values a coder gave; ``mean_distance`` does not;
        * ``alpha_without``: alpha recomputed without the coder's ratings (same distance
          and value domain; NaN when nothing pairable or no variation is left, as always
          with two coders);
        * ``alpha_change``: ``alpha_without - result.alpha``.

    Notes
    -----
    See the module docstring for the derivation: each rating is charged its mean distance
    to the other ratings of its unit, which splits each pair's disagreement equally between
    its two coders.

    Examples
    --------
    Krippendorff (2011), section C: coder C is the odd one out in units 2, 6 and 8 and is
    charged 3 of the 8 units of observed disagreement (A, B and D 5/3 each); without C,
    alpha rises from 0.743 to 0.868 (``pa.alpha`` on the data without C gives the same).

    >>> import pandas_agree as pa
    >>> from pandas_agree.krippendorff.diagnostics import coder_disagreement
    >>> by_coder = coder_disagreement(pa.alpha(pa.datasets.krippendorff_2011()))
    >>> by_coder[["n_values", "share", "alpha_without"]].round(3)
           n_values  share  alpha_without
    coder
    C            10  0.375          0.868
    A             9  0.208          0.715
    B            10  0.208          0.704
    D            11  0.208          0.675
    """
    result = fitted(result)
    fit = result.fit
    coded: CodedData = fit.coded
    counts = fit.counts
    kernel = fit.kernel
    n_coders = len(coded.coders)
    per_coder, n_g = coder_parts(
        kernel, counts, coded.unit_codes, coded.coder_codes, coded.value_codes, n_coders
    )
    slices = coder_slices(coded.coder_codes, n_coders)
    rated = np.array([s.size > 0 for s in slices])
    without = leave_one_coder_out(
        kernel, coded.unit_codes, coded.value_codes, slices, len(coded.units), len(coded.values)
    )
    total = per_coder.sum()
    share = per_coder / total if total > 0 else np.zeros(n_coders)
    frame = pd.DataFrame(
        {
            "n_values": n_g.astype(np.int64),
            "mean_distance": np.divide(
                per_coder, n_g, out=np.full(n_coders, np.nan), where=n_g > 0
            ),
            "disagreement": per_coder / counts.n,
            "share": share,
            "alpha_without": without,
            "alpha_change": without - result.alpha,
        },
        index=coded.coders.rename("coder"),
    )[rated]
    return frame.sort_values(["alpha_change", "share"], ascending=False, na_position="last")


# ---------------------------------------------------------------------------------------------
# summary


@dataclass(frozen=True)
class AgreementSummary(Result):
    """Alpha, percent agreement and Gwet's AC1 on the same data, with a prevalence note.

    Attributes
    ----------
    alpha : float
        Krippendorff's alpha with ``distance``.
    percent_agreement : float
        Share of agreeing pairs of ratings per unit, averaged over units (nominal).
    ac1 : float
        Gwet's AC1 (nominal).
    distance : str
        The distance of ``alpha``.
    n_units, n_coders : int
        Pairable units and the coders with pairable values (as in alpha).
    top_category : hashable
        The most frequent value among the pairable values.
    prevalence : float
        Its share of the pairable values.
    paradox : bool
        Whether the "kappa paradox" pattern shows: percent agreement at least
        ``high_agreement`` while alpha is below ``low_alpha``.
    note : str or None
        What to make of it, when there is something to say.
    """

    alpha: float
    percent_agreement: float
    ac1: float
    distance: str
    n_units: int
    n_coders: int
    top_category: Hashable
    prevalence: float
    paradox: bool
    note: str | None = None

    _headline = "alpha"
    _series_fields = (
        "alpha",
        "percent_agreement",
        "ac1",
        "n_units",
        "n_coders",
        "top_category",
        "prevalence",
        "paradox",
        "note",
    )

    @property
    def reason(self) -> str | None:
        """The prevalence note (the same as ``note``), or None."""
        return self.note

    @property
    def _series_name(self) -> str:
        return self.distance

    def __repr__(self) -> str:
        return (
            f"AgreementSummary(alpha={self.alpha:.4f}, percent_agreement="
            f"{self.percent_agreement:.4f}, ac1={self.ac1:.4f}, prevalence={self.prevalence:.3f}, "
            f"paradox={self.paradox})"
        )

    def __str__(self) -> str:
        return repr(self) + (f"\n{self.note}" if self.note else "")

    def to_frame(self) -> pd.DataFrame:
        """A one-row DataFrame of :meth:`to_series`, indexed by the distance."""
        return self.to_series().to_frame().T


@declared()
def summary(
    data: pd.DataFrame,
    distance: Any = "nominal",
    *,
    high_agreement: float = 0.8,
    low_alpha: float = 0.667,
    weights: Any = None,
    categories, unit, coder, value, on_duplicate, sep,
) -> AgreementSummary:
    """Alpha, percent agreement and AC1 side by side, flagging the prevalence paradox.

    When one category dominates, agreement expected by chance is high, so alpha and kappa
    can be low although coders agree on nearly every unit (Feinstein and Cicchetti 1990,
    "high agreement but low kappa"). Gwet's AC1 shrinks chance agreement as one category
    dominates and stays high. Neither is "right": alpha says the data cannot tell the rare
    category reliably from the common one; raw agreement says coders mostly give the same
    answer. The summary puts them together and adds a note when percent agreement is at
    least ``high_agreement`` but alpha is below ``low_alpha`` (Krippendorff's lowest
    threshold for tentative conclusions is 0.667).

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    distance : str, callable or Distance, default "nominal"
        Distance for alpha. Percent agreement and AC1 are always nominal (exact match).
    high_agreement, low_alpha : float
        Thresholds of the paradox note.
    weights : mapping or callable, optional
        Element weights for ``weighted_dice``/``weighted_jaccard`` alpha.
    categories : sequence, optional
        Value order for ordinal alpha.

    Returns
    -------
    AgreementSummary
        ``float(result)`` is alpha; ``str(result)`` shows the note.

    References
    ----------
    Feinstein, A. R. and Cicchetti, D. V. (1990). High agreement but low kappa: I. The
    problems of two paradoxes. Journal of Clinical Epidemiology 43(6), 543-549.

    Gwet (2008); Krippendorff, K. (2004). Content Analysis, 2nd edition, section 11.4.

    Examples
    --------
    Two raters agree on 118 + 0 of 125 cases (the 2 x 2 table is the brief's reading of
    Feinstein and Cicchetti 1990), but one category holds 97% of the ratings; Cohen's kappa
    is -0.023, Scott's pi -0.029, alpha = 1 - (249/250)(1 - pi) = -0.025:

    >>> from pandas_agree.kappa.coefficients import table_to_long
    >>> from pandas_agree.krippendorff.diagnostics import summary
    >>> s = summary(table_to_long([[118, 5], [2, 0]], categories=["+", "-"]))
    >>> round(s.alpha, 4), s.percent_agreement, round(s.ac1, 4), s.paradox
    (-0.0247, 0.944, 0.9408, True)
    """
    high = finite_float(high_agreement, "high_agreement")
    low = finite_float(low_alpha, "low_alpha")
    dist, coded = prepare_for(
        data, distance, weights, unit, coder, value, categories, on_duplicate, sep
    )
    res = fit_alpha(coded, dist, weights)
    p_a, ac1, n_pairable = nominal_agreement(
        coded.unit_codes, coded.value_codes, len(coded.units), len(coded.values)
    )
    if n_pairable == 0:
        raise NoPairableUnitsError(
            f"no unit has two or more ratings: {coded.n_ratings} rating(s) in "
            f"{len(coded.units)} unit(s), so there is nothing to compare"
        )
    n_c = np.asarray(res.fit.counts.n_c, dtype=float)
    top = int(np.argmax(n_c))
    prevalence = float(n_c[top] / n_c.sum())
    top_category = coded.values[top]
    a = res.alpha
    paradox = bool(np.isfinite(a) and p_a >= high and a < low)
    note = None
    if paradox:
        note = (
            f"Percent agreement is {p_a:.3f} but alpha is only {a:.3f}: {prevalence:.0%} of the "
            f"pairable values are {top_category!r}, so agreement expected by chance is high "
            "(the prevalence 'kappa paradox', Feinstein & Cicchetti 1990). Gwet's AC1, whose "
            f"chance agreement shrinks when one category dominates, is {ac1:.3f}. Alpha says "
            "the rare categories are not coded reliably; report the category distribution "
            "with it."
        )
    elif not np.isfinite(a):
        note = f"Alpha is undefined: {res.reason}; percent agreement is {p_a:.3f}."
    return AgreementSummary(
        alpha=float(a),
        percent_agreement=float(p_a),
        ac1=float(ac1),
        distance=res.distance,
        n_units=res.n_units,
        n_coders=res.n_coders,
        top_category=top_category,
        prevalence=prevalence,
        paradox=paradox,
        note=note,
    )
