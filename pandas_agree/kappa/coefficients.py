r"""Chance-corrected agreement coefficients for categorical ratings on long data.

Every coefficient here has the form

.. math:: \frac{p_o - p_e}{1 - p_e}

with observed agreement :math:`p_o` and chance agreement :math:`p_e`; they differ in what
"chance" means. Two-coder coefficients (:func:`cohen_kappa`, :func:`scott_pi`) use the
contingency table of the units both coders rated. The multi-coder family
(:func:`percent_agreement`, :func:`fleiss_kappa`, :func:`bennett_s`, :func:`gwet_ac1`) follows
the framework of Gwet (2014): with :math:`r_{ik}` the number of ratings of unit :math:`i` in
category :math:`k`, :math:`r_i = \sum_k r_{ik}`, agreement weights :math:`w_{kl}`
(:math:`w_{kk} = 1`; the identity when unweighted) and :math:`r^*_{ik} = \sum_l w_{kl} r_{il}`,

.. math::

    p_a = \frac{1}{n'} \sum_{i: r_i \ge 2} \sum_k \frac{r_{ik} (r^*_{ik} - 1)}{r_i (r_i - 1)},
    \qquad
    \pi_k = \frac{1}{n} \sum_{i: r_i \ge 1} \frac{r_{ik}}{r_i}

over the :math:`n'` units with two or more ratings and the :math:`n` units with at least one.
``p_a`` is the share of agreeing (ordered) pairs of ratings in a unit, averaged over units.

Missing values (NaN, None, ``pd.NA``) are dropped; the data go through
:func:`pandas_agree.data.prepare.prepare`, so the same validation rules as
:func:`pandas_agree.alpha`
apply (duplicate ratings raise unless ``on_duplicate`` says otherwise).

References
----------
Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
Psychological Measurement 20, 37-46.

Cohen, J. (1968). Weighted kappa. Psychological Bulletin 70(4), 213-220.

Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale coding.
Public Opinion Quarterly 19(3), 321-325.

Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
Bulletin 76(5), 378-382.

Bennett, E. M., Alpert, R. and Goldstein, A. C. (1954). Communications through limited
response questioning. Public Opinion Quarterly 18(3), 303-308.

Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th edition. Advanced Analytics.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.agreement import (
    chance_corrected,
    expected_agreement,
    rater_terms,
    table_proportions,
)
from .._core.kappas import own_margin_agreement
from .._core.states import ChanceState
from .._numbers import float_array
from ..data.categorical import (
    coder_positions,
    prepare_categorical,
    two_coder_table,
    two_coders,
    warn_if,
)
from ..data.prepare import CodedData, OnDuplicate
from ..declare import declared
from ..errors import (
    InvalidParameterError,
    NoPairableUnitsError,
)
from ..reasons import chance_reason
from ..results import Result
from .weights import WeightsLike, agreement_weights

__all__ = [
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
]

_TWO_CODER = ("cohen_kappa", "scott_pi")


# ---------------------------------------------------------------------------------------------
# Result


@dataclass(frozen=True, repr=False)
class CoefficientResult(Result):
    """A chance-corrected agreement coefficient and what it is made of.

    Attributes
    ----------
    method : str
        ``"cohen_kappa"``, ``"scott_pi"``, ``"fleiss_kappa"``, ``"bennett_s"``,
        ``"gwet_ac1"``, ``"gwet_ac2"`` (AC1 with weights) or ``"percent_agreement"``.
    value : float
        The coefficient, ``(observed - expected) / (1 - expected)``; NaN when
        ``expected`` is 1 (see ``reason``).
    observed : float
        Observed (weighted) agreement :math:`p_o`.
    expected : float
        Chance agreement :math:`p_e` (0 for percent agreement).
    n_units : int
        Units the observed agreement is computed on (rated by both coders for the
        two-coder coefficients; with two or more ratings for the others).
    n_coders : int
        Coders whose ratings were used.
    n_categories : int
        Size of the category domain ``q`` (``categories=`` when given).
    weights : str or None
        The scheme name (one of :data:`pandas_agree.kappa.weights.WEIGHT_SCHEMES`), ``"custom"``
        for a matrix or callable, or None (unweighted).
    state : ChanceState
        Why ``value`` is what it is, as a code (``ChanceState.DEFINED``, or why it is NaN).
    reason : str or None
        The same in words: why ``value`` is NaN, when it is.
    coders : tuple or None
        The two coders compared (two-coder coefficients), rows then columns of ``table``.
    table : pandas.DataFrame or None
        The contingency table of the two-coder coefficients (counts; rows: first coder).
    categories : pandas.Index or None
        The category domain in weight order.
    """

    method: str
    value: float
    observed: float
    expected: float
    n_units: int
    n_coders: int
    n_categories: int
    weights: str | None = None
    state: ChanceState = ChanceState.DEFINED
    coders: tuple[Hashable, ...] | None = field(default=None, repr=False)
    table: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    categories: pd.Index | None = field(default=None, repr=False, compare=False)

    _headline = "value"
    _series_fields = (
        "value",
        "observed",
        "expected",
        "n_units",
        "n_coders",
        "n_categories",
        "weights",
        "reason",
    )

    @property
    def _series_name(self) -> str:
        return self.method

    @property
    def reason(self) -> str | None:
        """Why ``value`` is NaN, in words (None when it is defined)."""
        return chance_reason(self.state)

    _shown = ("observed:.4f", "expected:.4f", "n_units", "n_coders")
    _notes = ("weights", "reason")

    def __repr__(self) -> str:
        return self._repr(f"{self.method}={self.value:.4f}")


# ---------------------------------------------------------------------------------------------
# Validation and coding (the pandas edge); the numpy-only math is in _core/agreement.py


def _agreement_weights(
    weights: WeightsLike, categories: pd.Index, ordered: bool = True
) -> tuple[np.ndarray | None, str | None]:
    """The q x q agreement-weight matrix for ``weights`` over ``categories`` (in order).

    Kept for callers in the package; the validation is
    :func:`pandas_agree.kappa.weights.agreement_weights`.
    Weights already checked by :func:`_coefficient` pass through as they are.
    """
    if isinstance(weights, _Checked):
        return weights.matrix, weights.label
    return agreement_weights(weights, categories, ordered=ordered)


@dataclass(frozen=True)
class _Checked:
    """Weights validated once, at the public edge, against the category domain and its order."""

    matrix: np.ndarray | None
    label: str | None


def _coefficient(
    method: str,
    data: pd.DataFrame,
    weights: WeightsLike,
    coders: Sequence[Hashable] | None,
    categories: Sequence[Hashable] | None,
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
    on_duplicate: OnDuplicate,
    unequal: str = "gwet",
    missing: str = "complete",
) -> CoefficientResult:
    """Validate and code long data, then compute ``method`` (the step of every public function)."""
    coded, domain, codes, ordered = prepare_categorical(
        data, unit, coder, value, categories, on_duplicate
    )
    weights = _Checked(*agreement_weights(weights, domain, ordered=ordered))
    if method in _TWO_CODER:
        return _two_coder_coded(method, coded, domain, codes, weights, coders, missing)
    return _multi_rater_coded(method, coded, domain, codes, weights, coders, unequal)


def _result(method: str, p_o: float, p_e: float, **fields: Any) -> CoefficientResult:
    """Chance-correct ``p_o`` by ``p_e`` (warning when undefined) and wrap the numbers.

    Percent agreement is ``p_o`` itself.
    """
    state = ChanceState.DEFINED
    if method == "percent_agreement":
        val = p_o
    else:
        val, state = chance_corrected(p_o, p_e)
        warn_if(chance_reason(state), method)
    return CoefficientResult(
        method=method, value=val, observed=p_o, expected=p_e, state=state, **fields
    )


def _table_coefficient(
    method: str,
    counts: np.ndarray,
    w: np.ndarray | None,
    w_name: str | None,
    categories: pd.Index,
    **fields: Any,
) -> CoefficientResult:
    """Cohen's kappa or Scott's pi of a q x q table of counts over ``categories``."""
    p_o, p_e = table_proportions(counts, w, "cohen" if method == "cohen_kappa" else "scott")
    return _result(
        method,
        p_o,
        p_e,
        n_coders=2,
        n_categories=len(categories),
        weights=w_name,
        categories=categories,
        **fields,
    )


def _two_coder_coded(
    method: str,
    coded: CodedData,
    domain: pd.Index,
    codes: np.ndarray,
    weights: WeightsLike,
    coders: Sequence[Hashable] | None,
    missing: str = "complete",
) -> CoefficientResult:
    a, b = two_coders(coded, coders, f"{method}()")
    w, w_name = _agreement_weights(weights, domain)
    ca, _, frame = two_coder_table(coded, domain, codes, a, b)
    table = frame.to_numpy(dtype=float)
    fields: dict[str, Any] = {
        "n_units": int(ca.size),
        "coders": (coded.coders[a], coded.coders[b]),
        "table": frame,
    }
    if missing == "gwet":
        q = len(domain)
        margin_a = np.bincount(codes[coded.coder_codes == a], minlength=q).astype(float)
        margin_b = np.bincount(codes[coded.coder_codes == b], minlength=q).astype(float)
        p_o, p_e = own_margin_agreement(table, margin_a, margin_b, w)
        return _result(
            method, p_o, p_e, n_coders=2, n_categories=q, weights=w_name, categories=domain,
            **fields,
        )
    return _table_coefficient(method, table, w, w_name, domain, **fields)


def _multi_rater_coded(
    method: str,
    coded: CodedData,
    domain: pd.Index,
    codes: np.ndarray,
    weights: WeightsLike = None,
    coders: Sequence[Hashable] | None = None,
    unequal: str = "gwet",
) -> CoefficientResult:
    unit_codes = coded.unit_codes
    coder_codes = coded.coder_codes
    if coders is not None:
        keep = np.isin(coder_codes, coder_positions(coded, coders))
        unit_codes, coder_codes, codes = unit_codes[keep], coder_codes[keep], codes[keep]
    q = len(domain)
    w, w_name = _agreement_weights(weights, domain)
    p_a, pi, n_pairable, r = rater_terms(unit_codes, codes, len(coded.units), q, w)
    if n_pairable == 0:
        raise NoPairableUnitsError(
            f"no unit has two or more ratings: {unit_codes.size} rating(s) in "
            f"{len(coded.units)} unit(s), so there is nothing to compare"
        )
    if method == "fleiss_kappa" and unequal == "raise":
        rated = r[r >= 1]
        if rated.min() != rated.max():
            counts = pd.Series(r, index=coded.units)
            counts = counts[counts >= 1]
            odd = counts[counts != counts.mode()[0]][:3]
            shown = ", ".join(f"unit {u!r} has {int(n)}" for u, n in odd.items())
            raise InvalidParameterError(
                "fleiss_kappa needs the same number of ratings in every unit (Fleiss 1971), but "
                f"units have {int(rated.min())} to {int(rated.max())} ratings ({shown}). Pass "
                "unequal='gwet' for Gwet's (2014) generalisation to unequal numbers, drop or "
                "complete those units, or use alpha(), which is defined for missing ratings"
            )
    return _result(
        method,
        p_a,
        expected_agreement(method, pi, q, w),
        n_units=n_pairable,
        n_coders=int(np.unique(coder_codes).size),
        n_categories=q,
        weights=w_name,
        categories=domain,
    )


# ---------------------------------------------------------------------------------------------
# Public functions


@declared(coefficient=True)
def percent_agreement(
    data: pd.DataFrame, weights, *, coders, categories, unit, coder, value, on_duplicate
) -> CoefficientResult:
    r"""Raw agreement: the share of agreeing pairs of ratings in a unit, averaged over units.

    .. math::

        p_a = \frac{1}{n'} \sum_{i: r_i \ge 2} \frac{\sum_k r_{ik} (r_{ik} - 1)}{r_i (r_i - 1)}

    over the :math:`n'` units with two or more ratings (:math:`r_{ik}`: ratings of unit
    :math:`i` in category :math:`k`). Every such unit counts equally, whatever its number of
    ratings; with two coders this is the share of units they agree on. This is Gwet's (2014)
    percent agreement and Fleiss' (1971) :math:`\bar P`; it is not :math:`1 - D_o` of alpha,
    which weights units by their number of values. Not corrected for chance.

    With weights, :math:`r_{ik} - 1` becomes :math:`r^*_{ik} - 1`,
    :math:`r^*_{ik} = \sum_l w_{kl} r_{il}` (Gwet 2014, chapter 3): disagreeing pairs earn
    partial credit. R irrCAC: ``pa.coeff.raw(ratings, weights=...)``.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per rating. Not modified.
    categories : sequence, optional
        Every category in rank order (for weights).

    Returns
    -------
    CoefficientResult
        ``float(result)`` is the agreement; ``expected`` is 0.

    Raises
    ------
    NoPairableUnitsError
        When no unit has two ratings.

    Examples
    --------
    Krippendorff (2011), section C, the data of Gwet (2014, p. 120): ``p_a = 9/11 = 0.818``
    (the R package irrCAC gives 0.8181818).

    >>> import pandas_agree as pa
    >>> from pandas_agree.kappa.coefficients import percent_agreement
    >>> round(float(percent_agreement(pa.datasets.krippendorff_2011())), 4)
    0.8182
    """
    return _coefficient(
        "percent_agreement", data, weights, coders, categories, unit, coder, value, on_duplicate
    )


@declared(coefficient=True, two_coders=True)
def cohen_kappa(
    data: pd.DataFrame,
    weights,
    *,
    coders, categories,
    missing: Literal["complete", "gwet"] = "complete",
    unit, coder, value, on_duplicate,
) -> CoefficientResult:
    r"""Cohen's kappa (and weighted kappa) between two coders.

    .. math::

        \kappa = \frac{p_o - p_e}{1 - p_e}, \qquad
        p_o = \sum_{k,l} w_{kl}\, p_{kl}, \qquad
        p_e = \sum_{k,l} w_{kl}\, p_{k\cdot}\, p_{\cdot l}

    over the contingency table :math:`p_{kl}` (proportions) of the units **both** coders
    rated; :math:`w` is the identity unless weighted. Chance agreement uses each coder's own
    marginals (Cohen 1960); :func:`scott_pi` pools them.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    weights : str, callable or matrix, optional
        Agreement weights (Cohen 1968), 1 for identical categories, for example

        * ``"linear"``: :math:`w_{kl} = 1 - |k - l| / (q - 1)`,
        * ``"quadratic"``: :math:`w_{kl} = 1 - (k - l)^2 / (q - 1)^2`,

        and the other schemes of :data:`pandas_agree.kappa.weights.WEIGHT_SCHEMES` (Gwet 2014,
        chapter 3: ``"ordinal"``, ``"radical"``, ``"ratio"``, ``"circular"``, ``"bipolar"``,
        ``"identity"``), where :math:`k, l` are category **positions** in the order of
        ``categories`` (as in scikit-learn's ``cohen_kappa_score``), not the values
        themselves (see :func:`pandas_agree.kappa.weights.weight_matrix` for irrCAC's scores on
        values). Order-based schemes need an order: numeric values, an ordered Categorical
        or ``categories=``; text labels alone raise. For weights
        on values pass a callable ``w(a, b)`` on two category labels, or a ``q x q`` matrix
        (array in ``categories`` order, or a DataFrame labelled by category). Weights must lie
        in [0, 1], symmetric, with 1 on the diagonal; disagreement weights :math:`d` (statsmodels',
        scikit-learn's convention) correspond to :math:`w = 1 - d / \max d` and give the
        same kappa.
    coders : pair of labels, optional
        The two coders to compare; required when the data hold more than two.
    categories : sequence, optional
        Every category in rank order. Categories nobody used still take a position: one
        between used categories changes linear or quadratic weighted kappa, one at either
        end only rescales those weights (no change); unweighted kappa never changes.
        Default: a categorical column's categories, else every value in the column, sorted.
    missing : {"complete", "gwet"}, default "complete"
        Units only one of the two coders rated. ``"complete"`` ignores them (complete cases:
        :math:`p_o` and both margins from the units both rated), as R irr's ``kappa2``,
        scikit-learn's ``cohen_kappa_score`` (which takes no missing values at all) and
        statsmodels do. ``"gwet"`` keeps :math:`p_o` on the units both rated but takes
        each coder's margins :math:`p_{k\cdot}`, :math:`p_{\cdot l}` from **every** unit
        that coder rated (Gwet 2014, chapter 2), as R irrCAC's ``cohen.kappa.raw`` and
        irrCAC's ``conger`` with two raters do. Both agree without missing ratings.

    Returns
    -------
    CoefficientResult
        ``float(result)`` is kappa; ``result.table`` the contingency table.

    Raises
    ------
    InvalidParameterError
        More than two coders without ``coders=``, unknown coders, bad ``weights``.
    NoPairableUnitsError
        When the two coders rated no unit in common.

    See Also
    --------
    cohen_kappa_table : kappa from a published contingency table.
    pandas_agree.krippendorff.diagnostics.pairwise : kappa for every pair of coders.

    References
    ----------
    Cohen (1960); Cohen (1968). Wikipedia, "Cohen's kappa" (worked example).

    Examples
    --------
    Wikipedia, "Cohen's kappa": 50 grant proposals, table [[20, 5], [10, 15]], kappa 0.4.

    >>> from pandas_agree.kappa.coefficients import cohen_kappa, table_to_long
    >>> df = table_to_long([[20, 5], [10, 15]], categories=["yes", "no"])
    >>> res = cohen_kappa(df)
    >>> res
    CoefficientResult(cohen_kappa=0.4000, observed=0.7000, expected=0.5000, n_units=50, n_coders=2)
    """
    if missing not in ("complete", "gwet"):
        raise InvalidParameterError(
            f"`missing` must be one of ['complete', 'gwet'], got {missing!r}"
        )
    return _coefficient(
        "cohen_kappa",
        data,
        weights,
        coders,
        categories,
        unit,
        coder,
        value,
        on_duplicate,
        missing=missing,
    )


@declared(coefficient=True, two_coders=True)
def scott_pi(
    data: pd.DataFrame, weights, *, coders, categories, unit, coder, value, on_duplicate
) -> CoefficientResult:
    r"""Scott's pi between two coders: kappa with chance from the pooled marginals.

    .. math::

        \pi = \frac{p_o - p_e}{1 - p_e}, \qquad
        p_e = \sum_k \Big(\frac{p_{k\cdot} + p_{\cdot k}}{2}\Big)^2

    on the units both coders rated. For two coders it equals Fleiss' kappa and Siegel and
    Castellan's (1988) K. It is **not** Krippendorff's alpha: for two coders, nominal
    values and no missing data, with :math:`N` units (so :math:`n = 2N` values),

    .. math:: \alpha = 1 - \frac{2N - 1}{2N} (1 - \pi),

    because alpha's expected disagreement draws pairs without replacement (the small-sample
    factor ``n / (n - 1)``). The two meet as :math:`N \to \infty`.

    Weighted (Gwet 2014, chapter 3): :math:`p_o = \sum_{kl} w_{kl} p_{kl}` and
    :math:`p_e = \sum_{kl} w_{kl} \pi_k \pi_l` with :math:`\pi_k` the pooled margins.
    R irrCAC: ``scott2.table(table, weights=...)``.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    coders : pair of labels, optional
        The two coders; required when the data hold more than two.
    categories : sequence, optional
        Every category in rank order (for weights).

    Returns
    -------
    CoefficientResult

    References
    ----------
    Scott (1955). Siegel, S. and Castellan, N. J. (1988). Nonparametric Statistics for the
    Behavioral Sciences, 2nd edition, McGraw-Hill.

    Examples
    --------
    Gwet (2014), the 3 x 3 table ``cont3x3abstractors`` of the R package irrCAC, whose
    ``scott2.table`` gives 0.7962397:

    >>> from pandas_agree.kappa.coefficients import scott_pi, table_to_long
    >>> df = table_to_long([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    >>> round(float(scott_pi(df)), 7)
    0.7962397
    """
    return _coefficient(
        "scott_pi", data, weights, coders, categories, unit, coder, value, on_duplicate
    )


@declared(coefficient=True, report_defaults={"unequal": "gwet"})
def fleiss_kappa(
    data: pd.DataFrame,
    weights,
    *,
    coders, categories,
    unequal: Literal["raise", "gwet"] = "raise",
    unit, coder, value, on_duplicate,
) -> CoefficientResult:
    r"""Fleiss' kappa for any number of coders (Fleiss 1971).

    .. math::

        \kappa = \frac{\bar P - \bar P_e}{1 - \bar P_e}, \qquad
        \bar P = \frac{1}{N} \sum_i \frac{\sum_k n_{ik}(n_{ik} - 1)}{n (n - 1)}, \qquad
        \bar P_e = \sum_k p_k^2

    with :math:`n` ratings of every unit, :math:`n_{ik}` of them in category :math:`k`, and
    :math:`p_k` the share of all ratings in category :math:`k`. The coders rating one unit
    need not be those rating another. Equal to Scott's pi for two coders and to Siegel and
    Castellan's K. NLTK's ``AnnotationTask.multi_kappa`` is a different coefficient (Davies
    and Fleiss 1982: chance agreement averaged over pairs of coders from each coder's own
    marginals, a generalisation of Cohen's kappa); NLTK's ``pi`` is Fleiss' kappa.

    Weighted (Gwet 2014, chapter 3): :math:`\bar P` with :math:`r^*_{ik}` as in
    :func:`percent_agreement` and :math:`\bar P_e = \sum_{kl} w_{kl} p_k p_l`. R irrCAC:
    ``fleiss.kappa.raw(ratings, weights=...)``; R irr: ``kappam.fleiss`` (unweighted).

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    categories : sequence, optional
        The category domain in rank order (does not change unweighted Fleiss' kappa).
    unequal : {"raise", "gwet"}, default "raise"
        Fleiss' kappa needs the same number of ratings per unit. ``"raise"`` refuses other
        data with an error naming the offending units; ``"gwet"`` uses Gwet's (2014)
        generalisation: :math:`\bar P` averages the per-unit agreement over units with two
        or more ratings and :math:`p_k = \frac{1}{n}\sum_i r_{ik} / r_i` averages the units'
        category shares (as the R package irrCAC's ``fleiss.kappa.raw``). Both agree when the
        numbers are equal.

    Returns
    -------
    CoefficientResult

    Raises
    ------
    InvalidParameterError
        Units with different numbers of ratings under ``unequal="raise"``.
    NoPairableUnitsError
        When no unit has two ratings.

    References
    ----------
    Fleiss (1971); Gwet (2014), chapter 2; Wikipedia, "Fleiss' kappa" (worked example).

    Examples
    --------
    Wikipedia, "Fleiss' kappa": 10 subjects, 14 raters, 5 categories; kappa 0.210.

    >>> from pandas_agree.kappa.coefficients import counts_to_long, fleiss_kappa
    >>> counts = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
    ...           [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
    ...           [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    >>> round(float(fleiss_kappa(counts_to_long(counts, categories=[1, 2, 3, 4, 5]))), 3)
    0.21
    """
    if unequal not in ("raise", "gwet"):
        raise InvalidParameterError(f"`unequal` must be one of ['raise', 'gwet'], got {unequal!r}")
    return _coefficient(
        "fleiss_kappa", data, weights, coders, categories, unit, coder, value, on_duplicate, unequal
    )


@declared(coefficient=True)
def bennett_s(
    data: pd.DataFrame, weights, *, coders, categories, unit, coder, value, on_duplicate
) -> CoefficientResult:
    r"""Bennett, Alpert and Goldstein's S: chance agreement ``1/q`` for ``q`` categories.

    .. math:: S = \frac{p_a - 1/q}{1 - 1/q}

    with :math:`p_a` the percent agreement of :func:`percent_agreement` (for two coders,
    the share of units they agree on). The multi-coder form is Brennan and Prediger's
    (1981) coefficient and Randolph's free-marginal kappa. ``q`` counts the categories in
    ``categories`` when given (unused ones included, which raises S), else those observed.

    Weighted (Gwet 2014, chapter 3): weighted :math:`p_a` and :math:`p_e = T_w / q^2` with
    :math:`T_w = \sum_{kl} w_{kl}`. R irrCAC: ``bp.coeff.raw(ratings, weights=...)``.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    categories : sequence, optional
        Every possible category.

    Returns
    -------
    CoefficientResult

    References
    ----------
    Bennett, Alpert and Goldstein (1954); Brennan, R. L. and Prediger, D. J. (1981).
    Coefficient kappa: some uses, misuses, and alternatives. Educational and Psychological
    Measurement 41, 687-699; Gwet (2014).

    Examples
    --------
    Gwet (2014), ``cont3x3abstractors`` (irrCAC's ``bp2.table`` gives 0.835):

    >>> from pandas_agree.kappa.coefficients import bennett_s, table_to_long
    >>> round(float(bennett_s(table_to_long([[13, 0, 0], [0, 20, 7], [0, 4, 56]]))), 3)
    0.835
    """
    return _coefficient(
        "bennett_s", data, weights, coders, categories, unit, coder, value, on_duplicate
    )


@declared(coefficient=True)
def gwet_ac1(
    data: pd.DataFrame, weights, *, coders, categories, unit, coder, value, on_duplicate
) -> CoefficientResult:
    r"""Gwet's AC1 (unweighted) and AC2 (weighted), any number of coders, missing allowed.

    .. math::

        AC = \frac{p_a - p_e}{1 - p_e}, \qquad
        p_e = \frac{T_w}{q (q - 1)} \sum_k \pi_k (1 - \pi_k)

    with :math:`p_a` and :math:`\pi_k` as in the module docstring (weighted agreement),
    :math:`q` categories and :math:`T_w = \sum_{k,l} w_{kl}` (``q`` unweighted). Chance
    agreement is small when one category dominates, so AC1 stays high where kappa and alpha
    drop (the prevalence "paradox"). Units with one rating count in :math:`\pi_k` only.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    weights : str, callable or matrix, optional
        Agreement weights as in :func:`cohen_kappa` (positions in ``categories`` order);
        with weights the result is AC2 (``method="gwet_ac2"``).
    categories : sequence, optional
        Every possible category, in rank order (``q`` counts unused ones too).

    Returns
    -------
    CoefficientResult

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. British Journal of Mathematical and Statistical Psychology 61, 29-48.
    Gwet (2014), chapters 2 and 4.

    Examples
    --------
    Gwet (2014, p. 120), the 4 raters x 12 units of Krippendorff (2011): AC1 = 0.775
    (irrCAC: pa 0.8182, pe 0.1903, AC1 0.7754); with linear weights AC2 = 0.859.

    >>> import pandas_agree as pa
    >>> from pandas_agree.kappa.coefficients import gwet_ac1
    >>> df = pa.datasets.krippendorff_2011()
    >>> gwet_ac1(df)
    CoefficientResult(gwet_ac1=0.7754, observed=0.8182, expected=0.1903, n_units=11, n_coders=4)
    >>> round(float(gwet_ac1(df, "linear")), 3)
    0.859
    """
    method = "gwet_ac1" if weights is None else "gwet_ac2"
    return _coefficient(method, data, weights, coders, categories, unit, coder, value, on_duplicate)


# ---------------------------------------------------------------------------------------------
# Contingency tables


def _check_table(
    table: Any, categories: Sequence[Hashable] | None = None
) -> tuple[np.ndarray, pd.Index]:
    if isinstance(table, pd.DataFrame):
        rows, cols = table.index, table.columns
        if set(rows) != set(cols) or len(rows) != len(cols):
            raise InvalidParameterError(
                "`table` DataFrame must have the same categories on its index and columns, got "
                f"index {list(rows)} and columns {list(cols)}"
            )
        table = table.loc[:, list(rows)]
        labels = pd.Index(rows) if categories is None else pd.Index(categories)
    else:
        labels = None if categories is None else pd.Index(categories)
    mat = float_array(table, lambda: f"`table` must be a square table of counts, got {table!r}")
    if mat.ndim != 2 or mat.shape[0] != mat.shape[1] or mat.shape[0] == 0:
        raise InvalidParameterError(
            f"`table` must be a square table of counts, got shape {mat.shape}"
        )
    if not np.all(np.isfinite(mat)) or (mat < 0).any() or mat.sum() <= 0:
        raise InvalidParameterError(
            "`table` must hold finite non-negative counts with a positive total, got "
            f"{mat.tolist()}"
        )
    if labels is None:
        labels = pd.RangeIndex(mat.shape[0])
    if len(labels) != mat.shape[0]:
        raise InvalidParameterError(
            f"`categories` must have one label per row of `table` ({mat.shape[0]}), got "
            f"{list(labels)}"
        )
    return mat, labels


def _table_result(method: str, table: Any, weights: WeightsLike) -> CoefficientResult:
    mat, labels = _check_table(table)
    w, w_name = _agreement_weights(weights, labels)
    return _table_coefficient(
        method,
        mat,
        w,
        w_name,
        labels,
        n_units=round(float(mat.sum())),
        table=pd.DataFrame(mat, index=labels, columns=labels.copy()),
    )


def cohen_kappa_table(table: Any, weights: WeightsLike = None) -> CoefficientResult:
    """Cohen's kappa from a square contingency table (rows: coder 1, columns: coder 2).

    Parameters
    ----------
    table : array-like or pandas.DataFrame
        ``q x q`` counts (or proportions). A DataFrame must carry the same category labels
        on index and columns (columns are aligned to the index order).
    weights : str, callable or matrix, optional
        Agreement weights over the row order, as in :func:`cohen_kappa`.

    Returns
    -------
    CoefficientResult

    Examples
    --------
    Passonneau (1997), Table 1 (kappa .50), Figure 3/Table 2 (.52) and Table 3 (.65):

    >>> from pandas_agree.kappa.coefficients import cohen_kappa_table
    >>> [round(float(cohen_kappa_table(t)), 2) for t in
    ...  ([[47, 14], [10, 29]], [[6, 1], [1, 2]], [[166, 19], [13, 44]])]
    [0.5, 0.52, 0.65]
    """
    return _table_result("cohen_kappa", table, weights)


def scott_pi_table(table: Any, weights: WeightsLike = None) -> CoefficientResult:
    """Scott's pi from a square contingency table (see :func:`scott_pi`).

    ``weights`` as in :func:`scott_pi`, over the row order.

    Examples
    --------
    >>> from pandas_agree.kappa.coefficients import scott_pi_table
    >>> round(float(scott_pi_table([[13, 0, 0], [0, 20, 7], [0, 4, 56]])), 7)
    0.7962397
    """
    return _table_result("scott_pi", table, weights)


def _integer_counts(mat: np.ndarray, name: str) -> np.ndarray:
    if not np.allclose(mat, np.round(mat)):
        raise InvalidParameterError(f"`{name}` must hold whole counts, got {mat.tolist()}")
    return np.round(mat).astype(np.int64)


def table_to_long(
    table: Any,
    categories: Sequence[Hashable] | None = None,
    coders: tuple[Hashable, Hashable] = ("A", "B"),
) -> pd.DataFrame:
    """Long data (``unit``, ``coder``, ``value``) from a two-coder contingency table.

    Each count becomes that many units, rated with the row category by ``coders[0]`` and
    the column category by ``coders[1]``, so every function of the package (alpha too) runs
    on a published table.

    Parameters
    ----------
    table : array-like or pandas.DataFrame
        Square table of whole counts.
    categories : sequence, optional
        Category labels in row order (default: a DataFrame's index, else 0..q-1).
    coders : pair of labels
        Names of the row coder and the column coder.

    Examples
    --------
    >>> from pandas_agree.kappa.coefficients import table_to_long
    >>> table_to_long([[1, 0], [1, 0]], categories=["y", "n"])
       unit coder value
    0     0     A     y
    1     0     B     y
    2     1     A     n
    3     1     B     y
    """
    mat, labels = _check_table(table, categories)
    counts = _integer_counts(mat, "table")
    q = counts.shape[0]
    rows, cols = np.divmod(np.repeat(np.arange(q * q), counts.ravel()), q)
    n = rows.size
    values = np.empty(2 * n, dtype=object)
    values[0::2] = np.asarray(labels, dtype=object)[rows]
    values[1::2] = np.asarray(labels, dtype=object)[cols]
    out = pd.DataFrame(
        {
            "unit": np.repeat(np.arange(n), 2),
            "coder": np.tile(np.asarray(coders, dtype=object), n),
            "value": values,
        }
    )
    out["value"] = out["value"].infer_objects()
    out["coder"] = out["coder"].infer_objects()
    return out


def counts_to_long(counts: Any, categories: Sequence[Hashable] | None = None) -> pd.DataFrame:
    """Long data from a units x categories table of rating counts (Fleiss' layout).

    Row ``i`` says how many ratings unit ``i`` received in each category. Coders are
    anonymous in such tables, so the coder labels made here (0, 1, ... within each unit)
    are arbitrary: use the result for coefficients that ignore coder identity
    (:func:`fleiss_kappa`, :func:`gwet_ac1`, :func:`bennett_s`, :func:`percent_agreement`,
    :func:`pandas_agree.alpha`), not for :func:`cohen_kappa`.

    Parameters
    ----------
    counts : array-like or pandas.DataFrame
        Whole non-negative counts; a DataFrame's index labels the units and its columns the
        categories.
    categories : sequence, optional
        Category labels in column order (default: a DataFrame's columns, else 0..q-1).

    Examples
    --------
    >>> from pandas_agree.kappa.coefficients import counts_to_long
    >>> counts_to_long([[2, 0], [1, 1]], categories=["a", "b"])
       unit  coder value
    0     0      0     a
    1     0      1     a
    2     1      0     a
    3     1      1     b
    """
    units = None
    if isinstance(counts, pd.DataFrame):
        units = counts.index
        if categories is None:
            categories = list(counts.columns)
    mat = float_array(counts, lambda: f"`counts` must be a table of counts, got {counts!r}")
    if mat.ndim != 2 or not np.all(np.isfinite(mat)) or (mat < 0).any():
        raise InvalidParameterError(
            f"`counts` must be a 2-D table of non-negative counts, got {mat.tolist()}"
        )
    whole = _integer_counts(mat, "counts")
    n_units, q = whole.shape
    labels = pd.RangeIndex(q) if categories is None else pd.Index(categories)
    if len(labels) != q:
        raise InvalidParameterError(
            f"`categories` must have one label per column of `counts` ({q}), got {list(labels)}"
        )
    per_cell = whole.ravel()
    cell = np.repeat(np.arange(n_units * q), per_cell)
    unit_pos, cat_pos = np.divmod(cell, q)
    starts = np.concatenate(([0], np.cumsum(whole.sum(axis=1))[:-1]))
    coder_pos = np.arange(cell.size) - starts[unit_pos]
    unit_labels = np.arange(n_units) if units is None else np.asarray(units, dtype=object)
    out = pd.DataFrame(
        {
            "unit": unit_labels[unit_pos],
            "coder": coder_pos,
            "value": np.asarray(labels, dtype=object)[cat_pos],
        }
    )
    out["unit"] = out["unit"].infer_objects()
    out["value"] = out["value"].infer_objects()
    return out
