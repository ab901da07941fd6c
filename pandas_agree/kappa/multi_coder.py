r"""Multi-rater generalisations of Cohen's kappa: Conger's, Light's and Hubert's kappa.

Cohen's kappa takes chance agreement from each coder's **own** margins; Fleiss' kappa
(:func:`pandas_agree.fleiss_kappa`) pools them, so for two coders it is Scott's pi, not
Cohen's kappa. The three coefficients here keep the coders' own margins for any number of
coders and reduce to Cohen's kappa for two:

* :func:`conger_kappa` (Conger 1980; "exact" kappa of R irr's ``kappam.fleiss(exact=TRUE)``):
  Fleiss' observed agreement, chance agreement averaged over pairs of coders;
* :func:`light_kappa` (Light 1971): the mean of the pairwise Cohen kappas;
* :func:`hubert_kappa` (Hubert 1977; Davies and Fleiss 1982): kappa of the pairwise-averaged
  observed and chance agreements.

Without missing ratings Conger's and Hubert's kappa are the same number (Conger 1980 shows
the equivalence); they differ in what they do with missing ratings. Light's kappa averages
ratios, so it generally differs from both.

References
----------
Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
Psychological Bulletin 88(2), 322-328.

Davies, M. and Fleiss, J. L. (1982). Measuring agreement for multinomial data. Biometrics
38(4), 1047-1051.

Hubert, L. (1977). Kappa revisited. Psychological Bulletin 84(2), 289-297.

Light, R. J. (1971). Measures of response agreement for qualitative data: some
generalizations and alternatives. Psychological Bulletin 76(5), 365-377.

Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th edition. Advanced Analytics.

Warrens, M. J. (2010). Inequalities between multi-rater kappas. Advances in Data Analysis and
Classification 4, 271-286.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._core.agreement import chance_corrected, rater_terms
from .._core.kappas import conger_expected, pair_tables, rater_margins, reliability_codes
from .._core.states import ChanceState
from ..data.categorical import CodedCategories, coder_positions, prepare_categorical, warn_if
from ..data.prepare import CodedData
from ..declare import declared
from ..errors import InvalidParameterError, NoPairableUnitsError
from ..reasons import chance_reason
from .coefficients import CoefficientResult
from .weights import WeightsLike, agreement_weights

__all__ = ["MultiKappaResult", "conger_kappa", "hubert_kappa", "light_kappa"]


@dataclass(frozen=True, repr=False)  # the short repr of CoefficientResult, with this name
class MultiKappaResult(CoefficientResult):
    """A multi-rater kappa, with the pairs of coders it is built from.

    Attributes
    ----------
    pairs : pandas.DataFrame
        One row per pair of coders (columns ``coder_1``, ``coder_2``, ``n_units``,
        ``observed``, ``expected``, ``kappa``): the pairwise Cohen kappas on the units both
        coders rated. A pair with no unit in common has ``n_units`` 0 and NaN elsewhere.

    See :class:`pandas_agree.kappa.coefficients.CoefficientResult` for the other attributes.
    """

    pairs: pd.DataFrame | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class _Prepared:
    coded: CodedData
    domain: pd.Index
    unit_codes: np.ndarray
    coder_codes: np.ndarray
    codes: np.ndarray
    coders: pd.Index
    weights: np.ndarray | None
    weights_name: str | None


def _prepare(
    cat: CodedCategories, weights: WeightsLike, coders: Sequence[Hashable] | None, func: str
) -> _Prepared:
    """The ratings of the chosen coders (renumbered 0..R-1) and the checked weights."""
    coded, domain, codes, ordered = cat
    w, w_name = agreement_weights(weights, domain, ordered=ordered)
    if coders is not None:
        chosen = coder_positions(coded, coders)
    else:
        chosen = sorted(set(np.unique(coded.coder_codes).tolist()))
    if len(chosen) < 2:
        raise InvalidParameterError(
            f"{func} needs ratings from two or more coders, got {len(chosen)}: "
            f"{list(coded.coders[chosen])}"
        )
    # Renumber the chosen coders 0..R-1 (in the data's coder order) and keep their ratings.
    chosen = sorted(chosen)
    renumber = np.full(len(coded.coders), -1, dtype=np.intp)
    renumber[chosen] = np.arange(len(chosen))
    new = renumber[coded.coder_codes]
    keep = new >= 0
    return _Prepared(
        coded=coded,
        domain=domain,
        unit_codes=coded.unit_codes[keep],
        coder_codes=new[keep],
        codes=codes[keep],
        coders=coded.coders[chosen],
        weights=w,
        weights_name=w_name,
    )


def _pairs(prep: _Prepared) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray]:
    """Per pair of coders: the frame of pairwise Cohen terms and the arrays (n, p_o, p_e)."""
    q = len(prep.domain)
    n_coders = len(prep.coders)
    mat = reliability_codes(
        prep.unit_codes, prep.coder_codes, prep.codes, len(prep.coded.units), n_coders
    )
    tables, first, second = pair_tables(mat, q)
    n = tables.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = tables / n[:, None, None]
        rows, cols = p.sum(axis=2), p.sum(axis=1)
        w = np.eye(q) if prep.weights is None else prep.weights
        p_o = np.einsum("kl,pkl->p", w, p)
        p_e = np.einsum("kl,pk,pl->p", w, rows, cols)
        kappa = (p_o - p_e) / (1.0 - p_e)
    kappa = np.where(1.0 - p_e <= 1e-12, np.nan, kappa)
    frame = pd.DataFrame(
        {
            "coder_1": np.asarray(prep.coders, dtype=object)[first],
            "coder_2": np.asarray(prep.coders, dtype=object)[second],
            "n_units": n.astype(np.int64),
            "observed": p_o,
            "expected": p_e,
            "kappa": kappa,
        }
    )
    return frame, n, p_o, p_e


def _n_pairable(prep: _Prepared) -> int:
    r = np.bincount(prep.unit_codes, minlength=len(prep.coded.units))
    return int((r >= 2).sum())


def _compared_pairs(
    prep: _Prepared, func: str
) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_pairs`, with ``n`` replaced by which pairs rated a unit in common.

    Raises :class:`NoPairableUnitsError` when no pair did.
    """
    frame, n, p_o, p_e = _pairs(prep)
    compared = n > 0
    if not compared.any():
        raise NoPairableUnitsError(
            f"{func}: no two coders rated a unit in common, so there is nothing to compare"
        )
    return frame, compared, p_o, p_e


def _result(
    method: str,
    prep: _Prepared,
    frame: pd.DataFrame,
    *,
    observed: float,
    expected: float,
    n_units: int,
    kappa: tuple[float, ChanceState] | None = None,
) -> MultiKappaResult:
    """A multi-coder kappa's result: ``observed`` chance-corrected by ``expected``, with the
    coders, categories and weights of ``prep`` and the per-pair ``frame``.

    ``kappa`` is the value and its state when the coefficient is not that ratio (Light's
    mean of the pairwise kappas). Warns when the state leaves the value undefined.
    """
    value, state = chance_corrected(observed, expected) if kappa is None else kappa
    warn_if(chance_reason(state), method)
    return MultiKappaResult(
        method=method,
        value=value,
        observed=observed,
        expected=expected,
        n_units=n_units,
        n_coders=len(prep.coders),
        n_categories=len(prep.domain),
        weights=prep.weights_name,
        state=state,
        coders=tuple(prep.coders),
        categories=prep.domain,
        pairs=frame,
    )


@declared(coefficient=True)
def conger_kappa(
    data: pd.DataFrame, weights, *, coders, categories, unit, coder, value, on_duplicate
) -> MultiKappaResult:
    r"""Conger's (1980) kappa: Cohen's kappa for any number of coders, missing ratings allowed.

    .. math::

        \kappa_C = \frac{p_a - p_e}{1 - p_e}, \qquad
        p_e = \frac{1}{r (r - 1)} \sum_{g \ne h} \sum_{k,l} w_{kl}\, p_{gk}\, p_{hl}
            = \sum_{k,l} w_{kl} \Big(\bar p_k \bar p_l - \frac{s^2_{kl}}{r}\Big)

    with :math:`p_a` Gwet's (weighted) percent agreement (:func:`pandas_agree.percent_agreement`:
    per-unit share of agreeing pairs of ratings, averaged over units with two or more
    ratings), :math:`p_{gk}` the share of coder :math:`g`'s ratings in category :math:`k`
    **over every unit that coder rated**, :math:`\bar p_k` its mean over the :math:`r`
    coders and :math:`s^2_{kl}` the covariance over coders of :math:`p_{gk}` and
    :math:`p_{gl}` (denominator :math:`r - 1`). This is Gwet's (2014) formulation. For
    two coders it is Cohen's kappa with Gwet's treatment of missing ratings
    (``cohen_kappa(missing="gwet")``); without missing ratings it equals
    :func:`hubert_kappa` and Davies and Fleiss' (1982) kappa.

    Peers: R irrCAC ``conger.kappa.raw(ratings, weights=...)`` and its Python port's
    ``CAC(ratings, weights=...).conger()`` (same definition, missing ratings too); R irr
    ``kappam.fleiss(ratings, exact=TRUE)`` and DescTools ``KappaM(method="Conger")``
    (unweighted, complete units only: drop incomplete units first to match them).

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per rating. Not modified.
    weights : str, callable or matrix, optional
        Agreement weights (see :mod:`pandas_agree.kappa.weights`): a scheme name such as
        ``"quadratic"``, a callable ``w(a, b)`` or a ``q x q`` matrix.
    coders : sequence, optional
        Use only these coders (two or more).
    categories : sequence, optional
        Every category in rank order (unused ones included).

    Returns
    -------
    MultiKappaResult
        ``float(result)`` is kappa; ``observed`` is :math:`p_a`, ``expected`` :math:`p_e`,
        ``n_units`` the units with two or more ratings; ``pairs`` the pairwise Cohen terms.
        ``value`` is NaN with a ``reason`` (and a DegenerateDataWarning) when
        :math:`p_e = 1`.

    Raises
    ------
    InvalidParameterError
        Fewer than two coders, unknown coders, bad weights.
    NoPairableUnitsError
        No unit has two ratings.

    Examples
    --------
    Fleiss (1971), the psychiatric diagnoses of 30 patients by 6 raters as R irr bundles
    them (``diagnoses``): ``kappam.fleiss(diagnoses, exact=TRUE)`` gives 0.442.

    >>> import pandas_agree as pa
    >>> from pandas_agree.kappa.multi_coder import conger_kappa
    >>> round(float(conger_kappa(pa.datasets.diagnoses())), 3)
    0.442
    """
    func = "conger_kappa()"
    cat = prepare_categorical(data, unit, coder, value, categories, on_duplicate)
    prep = _prepare(cat, weights, coders, func)
    q = len(prep.domain)
    p_a, _, n_pairable, _ = rater_terms(
        prep.unit_codes, prep.codes, len(prep.coded.units), q, prep.weights
    )
    if n_pairable == 0:
        raise NoPairableUnitsError(
            f"{func}: no unit has two or more ratings, so there is nothing to compare"
        )
    margins = rater_margins(prep.coder_codes, prep.codes, len(prep.coders), q)
    p_e = conger_expected(margins, prep.weights)
    frame, *_ = _pairs(prep)
    return _result("conger_kappa", prep, frame, observed=p_a, expected=p_e, n_units=n_pairable)


@declared(coefficient=True)
def light_kappa(
    data: pd.DataFrame, weights, *, coders, categories, unit, coder, value, on_duplicate
) -> MultiKappaResult:
    r"""Light's (1971) kappa: the mean of the Cohen kappas of every pair of coders.

    .. math::

        \kappa_L = \frac{2}{r (r - 1)} \sum_{g < h} \kappa_{gh}, \qquad
        \kappa_{gh} = \frac{p_{o,gh} - p_{e,gh}}{1 - p_{e,gh}}

    with :math:`\kappa_{gh}` the (weighted) Cohen kappa of coders :math:`g, h` on the units
    both rated (complete cases per pair). Pairs with no unit in common, or whose kappa is
    undefined (:math:`p_{e,gh} = 1`), are left out of the mean (``pairs`` shows them: NaN
    kappa). ``observed`` and ``expected`` are the means of :math:`p_{o,gh}` and
    :math:`p_{e,gh}` over the pairs used (they do not give :math:`\kappa_L`; that is
    :func:`hubert_kappa`).

    Peers: R irr ``kappam.light(ratings)`` and DescTools ``KappaM(method="Light")``
    (unweighted; both drop every unit with a missing rating first, so they match this
    function on complete data).

    Parameters
    ----------
    data, weights, coders, categories : pandas.DataFrame, weights, sequence, sequence
        As for :func:`conger_kappa` (the weights apply to each pairwise kappa).

    Returns
    -------
    MultiKappaResult
        ``n_units`` counts the units with two or more ratings; ``pairs`` holds every
        pairwise kappa.

    Raises
    ------
    InvalidParameterError
        Fewer than two coders, unknown coders, bad weights.
    NoPairableUnitsError
        No two coders rated a unit in common.

    Examples
    --------
    R irr's ``kappam.light(diagnoses)`` gives 0.459 (Fleiss 1971 data, 6 raters):

    >>> import pandas_agree as pa
    >>> from pandas_agree.kappa.multi_coder import light_kappa
    >>> res = light_kappa(pa.datasets.diagnoses())
    >>> round(float(res), 3), len(res.pairs)
    (0.459, 15)
    """
    func = "light_kappa()"
    cat = prepare_categorical(data, unit, coder, value, categories, on_duplicate)
    prep = _prepare(cat, weights, coders, func)
    frame, compared, p_o, p_e = _compared_pairs(prep, func)
    usable = compared & np.isfinite(frame["kappa"].to_numpy())
    state = ChanceState.DEFINED
    if not usable.any():
        value_ = float("nan")
        state = ChanceState.NO_PAIR_DEFINED
    else:  # pairs without a common unit or with p_e = 1 are visible in `pairs`
        value_ = float(frame["kappa"].to_numpy()[usable].mean())
    keep = usable if usable.any() else compared
    return _result(
        "light_kappa",
        prep,
        frame,
        observed=float(p_o[keep].mean()),
        expected=float(p_e[keep].mean()),
        n_units=_n_pairable(prep),
        kappa=(value_, state),
    )


@declared(coefficient=True)
def hubert_kappa(
    data: pd.DataFrame, weights, *, coders, categories, unit, coder, value, on_duplicate
) -> MultiKappaResult:
    r"""Hubert's (1977) kappa, also Davies and Fleiss' (1982): pairwise-averaged agreements.

    .. math::

        \kappa_H = \frac{\bar p_o - \bar p_e}{1 - \bar p_e}, \qquad
        \bar p_o = \frac{2}{r(r-1)} \sum_{g<h} p_{o,gh}, \qquad
        \bar p_e = \frac{2}{r(r-1)} \sum_{g<h} \sum_{k,l} w_{kl}\, p_{gk}\, p_{hl}

    over pairs of coders :math:`g, h`, with :math:`p_{o,gh}` their (weighted) observed
    agreement and :math:`p_{gk}, p_{hl}` their own margins, both on the units the pair
    rated in common. Pairs with no unit in common are left out. Without missing ratings
    this is :func:`conger_kappa` (Conger 1980) and DKPro Statistics'
    ``HubertKappaAgreement``; NLTK's ``AnnotationTask.multi_kappa`` (which it attributes to
    Davies and Fleiss 1982) computes it too. With missing ratings each pair is compared on
    its own common units, whereas :func:`conger_kappa` averages over units and takes margins
    from every rating.

    Some authors (Moss 2024, for example) use "Hubert's kappa" for agreement of **all** coders
    on a unit (g-wise agreement); that coefficient is not this one.

    Peers: DKPro Statistics ``HubertKappaAgreement`` (complete data, unweighted), NLTK
    ``AnnotationTask.multi_kappa`` (complete data); R irr ``kappam.fleiss(exact=TRUE)``
    (complete data).

    Parameters
    ----------
    data, weights, coders, categories : pandas.DataFrame, weights, sequence, sequence
        As for :func:`conger_kappa`.

    Returns
    -------
    MultiKappaResult
        ``observed`` and ``expected`` are :math:`\bar p_o` and :math:`\bar p_e`.

    Raises
    ------
    InvalidParameterError, NoPairableUnitsError
        As for :func:`light_kappa`.

    Examples
    --------
    Complete data, so the same as Conger's kappa (R irr ``kappam.fleiss(diagnoses,
    exact=TRUE)`` = 0.442):

    >>> import pandas_agree as pa
    >>> data = pa.datasets.diagnoses()
    >>> round(float(pa.hubert_kappa(data)), 3), round(float(pa.conger_kappa(data)), 3)
    (0.442, 0.442)
    """
    func = "hubert_kappa()"
    cat = prepare_categorical(data, unit, coder, value, categories, on_duplicate)
    prep = _prepare(cat, weights, coders, func)
    frame, compared, p_o, p_e = _compared_pairs(prep, func)
    mean_o, mean_e = float(p_o[compared].mean()), float(p_e[compared].mean())
    return _result(
        "hubert_kappa", prep, frame, observed=mean_o, expected=mean_e, n_units=_n_pairable(prep)
    )
