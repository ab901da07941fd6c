r"""What the margins of a two-coder table allow: Bangdiwala's B, maximum kappa and agreement.

All three read the contingency table :math:`n_{kl}` of two coders on the units both rated
(rows: first coder), with margins :math:`n_{k\cdot}, n_{\cdot k}` and :math:`N` units:

* :func:`bangdiwala_b`: :math:`B = \sum_k n_{kk}^2 / \sum_k n_{k\cdot} n_{\cdot k}`, the share of
  the marginal rectangles of Bangdiwala's agreement chart that the agreeing cells fill;
* :func:`max_percent_agreement`: the largest observed agreement any table with these margins can
  have, :math:`p_{max} = \sum_k \min(p_{k\cdot}, p_{\cdot k})`;
* :func:`kappa_max`: Cohen's kappa of that best table,
  :math:`\kappa_{max} = (p_{max} - p_e) / (1 - p_e)`.

When the coders' margins differ (one coder uses a category more often), perfect agreement is
impossible: :math:`\kappa_{max} < 1` shows how much of the gap between kappa and 1 is due to the
margins alone, and :math:`\kappa / \kappa_{max}` how much of the attainable agreement was reached.

References
----------
Bangdiwala, S. I. (1985). A graphical test for observer agreement. Proceedings of the 45th
International Statistical Institute Meeting, Amsterdam, 307-308. Bangdiwala, S. I. and Shankar,
V. (2013). The agreement chart. BMC Medical Research Methodology 13, 97.

Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and Psychological
Measurement 20, 37-46 (the maximum kappa given the marginals).

Umesh, U. N., Peterson, R. A. and Sauber, M. H. (1989). Interjudge agreement and the maximum
value of kappa. Educational and Psychological Measurement 49, 835-850.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

from .._core.agreement import chance_corrected
from .._core.kappas import bangdiwala_terms, max_agreement
from .._core.states import ChanceState
from ..data.categorical import (
    CodedCategories,
    prepare_categorical,
    two_coder_table,
    two_coders,
    warn_if,
)
from ..declare import declared
from ..reasons import chance_reason
from .coefficients import CoefficientResult

__all__ = ["bangdiwala_b", "kappa_max", "max_percent_agreement"]


def _table(
    cat: CodedCategories, coders: Sequence[Hashable] | None, func: str
) -> tuple[np.ndarray, dict]:
    """The two coders' contingency table and the result fields it gives."""
    coded, domain, codes, _ = cat
    a, b = two_coders(coded, coders, func)
    ca, _, frame = two_coder_table(coded, domain, codes, a, b, prefix=f"{func}: ")
    table = frame.to_numpy(dtype=float)
    fields = {
        "n_units": int(ca.size),
        "n_coders": 2,
        "n_categories": len(domain),
        "coders": (coded.coders[a], coded.coders[b]),
        "table": frame,
        "categories": domain,
    }
    return table, fields


def _best_agreement(
    cat: CodedCategories, coders: Sequence[Hashable] | None, func: str
) -> tuple[float, float, np.ndarray, dict]:
    """``(p_max, p_e, table, fields)``: the largest agreement the margins allow, Cohen's
    chance agreement, and :func:`_table`."""
    table, fields = _table(cat, coders, func)
    p_max, p_e = max_agreement(table)
    return p_max, p_e, table, fields




@declared(coefficient=True, two_coders=True)
def bangdiwala_b(
    data: pd.DataFrame, *, coders, categories, unit, coder, value, on_duplicate
) -> CoefficientResult:
    r"""Bangdiwala's (1985) B: how much of the agreement chart's rectangles agreement fills.

    .. math:: B = \frac{\sum_k n_{kk}^2}{\sum_k n_{k\cdot}\, n_{\cdot k}}

    In the agreement chart each category is a rectangle of sides :math:`n_{k\cdot}` and
    :math:`n_{\cdot k}`; the agreeing count :math:`n_{kk}` is a square inside it. B is the
    total area of the squares over the total area of the rectangles: 1 for perfect agreement,
    0 when no unit is agreed on. Not chance-corrected. Only the unweighted B (vcd's
    ``Bangdiwala``, not ``Bangdiwala.Weighted``).

    Peers: R vcd ``agreementplot(table)$Bangdiwala``; R DescTools ``BangdiwalaB(table)``;
    Python pyagree ``bangdiwala_b(table)``.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per rating. Not modified.
    coders : pair of labels, optional
        The two coders; required when the data hold more than two.
    categories : sequence, optional
        Every category (unused ones add an empty row and column).

    Returns
    -------
    CoefficientResult
        ``method="bangdiwala_b"``; ``observed`` is :math:`\sum_k n_{kk}^2 / N^2` and
        ``expected`` :math:`\sum_k n_{k\cdot} n_{\cdot k} / N^2` (so ``value`` is their
        ratio); ``table`` the contingency table. NaN (with a reason and a
        DegenerateDataWarning) when no category is used by both coders.

    Raises
    ------
    InvalidParameterError
        More than two coders without ``coders=``, unknown coders.
    NoPairableUnitsError
        The two coders rated no unit in common.

    Examples
    --------
    The 2 x 2 table of pyagree's documentation, B = 0.6060606:

    >>> from pandas_agree.kappa.coefficients import table_to_long
    >>> from pandas_agree.kappa.marginals import bangdiwala_b
    >>> round(float(bangdiwala_b(table_to_long([[10, 1], [5, 10]]))), 7)
    0.6060606
    """
    cat = prepare_categorical(data, unit, coder, value, categories, on_duplicate)
    table, fields = _table(cat, coders, "bangdiwala_b()")
    num, den = bangdiwala_terms(table)
    n2 = float(table.sum()) ** 2
    state = ChanceState.DEFINED
    if den == 0:  # then num == 0 too: no category is used by both coders
        state = ChanceState.NO_SHARED_CATEGORY
    warn_if(chance_reason(state), "bangdiwala_b")
    return CoefficientResult(
        method="bangdiwala_b",
        value=float("nan") if state.undefined else num / den,
        observed=num / n2,
        expected=den / n2,
        state=state,
        **fields,
    )


@declared(coefficient=True, two_coders=True)
def max_percent_agreement(
    data: pd.DataFrame, *, coders, categories, unit, coder, value, on_duplicate
) -> CoefficientResult:
    r"""The largest share of agreed units the two coders' margins allow.

    .. math:: p_{max} = \sum_k \min(p_{k\cdot}, p_{\cdot k})

    Each category can hold at most as many agreements as the coder who used it less often gave
    it (Cohen 1960). Compare with the observed agreement :math:`p_o` (``observed``):
    :math:`1 - p_{max}` of the units must be disagreements whatever the coders do, given how
    often each used each category.

    Peers: no function in R irr or irrCAC; the quantity of Cohen (1960, p. 42) and Umesh et
    al. (1989).

    Parameters
    ----------
    data, coders, categories : pandas.DataFrame, pair of labels, sequence
        As for :func:`bangdiwala_b`, which also lists the errors raised.

    Returns
    -------
    CoefficientResult
        ``method="max_percent_agreement"``, ``value`` :math:`p_{max}`, ``observed`` the
        actual :math:`p_o`, ``expected`` Cohen's chance agreement :math:`p_e`.

    Examples
    --------
    Wikipedia's "Cohen's kappa" example: margins (25, 25) and (30, 20) of 50 proposals allow
    at most 25 + 20 = 45 agreements (observed: 35).

    >>> from pandas_agree.kappa.coefficients import table_to_long
    >>> from pandas_agree.kappa.marginals import max_percent_agreement
    >>> res = max_percent_agreement(table_to_long([[20, 5], [10, 15]]))
    >>> round(float(res), 3), round(res.observed, 3)
    (0.9, 0.7)
    """
    cat = prepare_categorical(data, unit, coder, value, categories, on_duplicate)
    p_max, p_e, table, fields = _best_agreement(cat, coders, "max_percent_agreement()")
    p_o = float(np.trace(table) / table.sum())
    return CoefficientResult(
        method="max_percent_agreement", value=p_max, observed=p_o, expected=p_e, **fields
    )


@declared(coefficient=True, two_coders=True)
def kappa_max(
    data: pd.DataFrame, *, coders, categories, unit, coder, value, on_duplicate
) -> CoefficientResult:
    r"""The largest Cohen's kappa the two coders' margins allow (Cohen 1960).

    .. math::

        \kappa_{max} = \frac{p_{max} - p_e}{1 - p_e}, \qquad
        p_{max} = \sum_k \min(p_{k\cdot}, p_{\cdot k}), \qquad
        p_e = \sum_k p_{k\cdot}\, p_{\cdot k}

    The margins fix :math:`p_e`, so kappa is largest when the agreement is largest; that is
    :math:`p_{max}` (:func:`max_percent_agreement`). :math:`\kappa_{max} = 1` exactly when
    both coders have the same margins. Report it beside kappa: :math:`\kappa / \kappa_{max}`
    is the share of the attainable chance-corrected agreement reached. NaN (with a reason)
    when :math:`p_e = 1`.

    Peers: no function in R irr or irrCAC; Cohen (1960, p. 42); Umesh et al. (1989).

    Parameters
    ----------
    data, coders, categories : pandas.DataFrame, pair of labels, sequence
        As for :func:`bangdiwala_b`; so are the errors.

    Returns
    -------
    CoefficientResult
        ``method="kappa_max"``, ``value`` :math:`\kappa_{max}`, ``observed``
        :math:`p_{max}`, ``expected`` :math:`p_e`.

    Examples
    --------
    Wikipedia's "Cohen's kappa" example (kappa 0.4): :math:`p_{max} = 0.9`, :math:`p_e = 0.5`,
    so no table with these margins gives more than 0.8.

    >>> from pandas_agree.kappa.coefficients import table_to_long
    >>> from pandas_agree.kappa.marginals import kappa_max
    >>> round(float(kappa_max(table_to_long([[20, 5], [10, 15]]))), 3)
    0.8
    """
    cat = prepare_categorical(data, unit, coder, value, categories, on_duplicate)
    p_max, p_e, _, fields = _best_agreement(cat, coders, "kappa_max()")
    val, state = chance_corrected(p_max, p_e)
    warn_if(chance_reason(state), "kappa_max")
    return CoefficientResult(
        method="kappa_max", value=val, observed=p_max, expected=p_e, state=state, **fields
    )
