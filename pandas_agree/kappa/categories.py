r"""Agreement per category: which categories the coders agree on, and which they confuse.

:func:`category_agreement` returns one row per category :math:`k`. With :math:`r_{ik}` the
ratings of unit :math:`i` in category :math:`k`, :math:`r_i = \sum_k r_{ik}`, and sums over the
:math:`n'` units with :math:`r_i \ge 2` (pairable units):

* **specific agreement** (Fleiss 1971 calls it the conditional probability of agreement on
  :math:`k`; Cicchetti and Feinstein 1990, Uebersax; de Vet et al. 2017 for many raters):

  .. math:: p_s(k) = \frac{\sum_i r_{ik} (r_{ik} - 1)}{\sum_i r_{ik} (r_i - 1)},

  the chance that a second rating of a unit is :math:`k` given that one is. For two coders and
  two categories the two rows are the **positive** and **negative agreement**
  :math:`PA = 2a / (2a + b + c)` and :math:`NA = 2d / (2d + b + c)` of the table
  :math:`[[a, b], [c, d]]`.
* **category kappa** (Fleiss 1971, equations 20-21: :math:`\kappa_j`), Fleiss' kappa of the data
  recoded to :math:`k` versus not :math:`k`:

  .. math::

      \kappa_k = \frac{p_a(k) - p_e(k)}{1 - p_e(k)}, \quad
      p_a(k) = 1 - \frac{2}{n'} \sum_i \frac{r_{ik} (r_i - r_{ik})}{r_i (r_i - 1)}, \quad
      p_e(k) = \pi_k^2 + (1 - \pi_k)^2

  with :math:`\pi_k` the mean over rated units of :math:`r_{ik} / r_i` (Gwet's 2014 handling
  of unequal numbers of ratings; with :math:`m` ratings per unit this is Fleiss'
  :math:`\kappa_j = 1 - \sum_i r_{ik}(m - r_{ik}) / (N m (m - 1) p_k q_k)`).
* **alpha for the category** (Krippendorff 2004/2019, section on the reliability of a single
  value): nominal alpha of the data recoded to :math:`k` versus not :math:`k`,

  .. math:: \alpha_k = 1 - (n - 1) \frac{n_k - o_{kk}}{n_k (n - n_k)},

  from the coincidences :math:`o_{kk} = \sum_i r_{ik}(r_{ik} - 1)/(r_i - 1)`,
  :math:`n_k = \sum_i r_{ik}` and :math:`n = \sum_i r_i` over pairable units.

References
----------
Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
Bulletin 76(5), 378-382.

Cicchetti, D. V. and Feinstein, A. R. (1990). High agreement but low kappa: II. Resolving the
paradoxes. Journal of Clinical Epidemiology 43(6), 551-558.

de Vet, H. C. W., Dikmans, R. E., and Eekhout, I. (2017). Specific agreement on dichotomous
outcomes can be calculated for more than two raters. Journal of Clinical Epidemiology 83,
85-89.

Krippendorff, K. (2019). Content Analysis: An Introduction to Its Methodology, 4th edition.
Sage (2004: 2nd edition), chapter 12.

Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th edition. Advanced Analytics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._core.agreement import DEGENERATE_TOL
from .._core.kappas import category_terms
from ..data.categorical import coder_positions, prepare_categorical
from ..declare import declared
from ..errors import NoPairableUnitsError

__all__ = ["category_agreement"]

_UNUSED = "no rating in this category"
_ALL = "every rating is in this category"


@declared()
def category_agreement(
    data: pd.DataFrame, *, coders, categories, unit, coder, value, on_duplicate
) -> pd.DataFrame:
    r"""One row per category: specific agreement, category kappa and alpha for the category.

    Formulas in :mod:`pandas_agree.kappa.categories`. Any number of coders; units rated by fewer
    than two coders count only in ``share`` (:math:`\pi_k`).

    Peers: R irr ``kappam.fleiss(ratings, detail=TRUE)`` (category kappas, complete data);
    DKPro Statistics ``FleissKappaAgreement.calculateCategoryAgreement`` and
    ``PercentageAgreement`` per category; the R package ``Agree`` / de Vet et al. (2017)
    ``specific.agreement`` (specific agreement); Krippendorff's per-value alpha has no R
    function in irr or irrCAC.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per rating. Not modified.
    categories : sequence, optional
        Every category, in the order of the rows (unused ones get a row with NaN and a
        reason). Default: a categorical column's categories, else the values, sorted.

    Returns
    -------
    pandas.DataFrame
        Index: the categories (named ``category``). Columns:

        * ``n_ratings``: ratings in the category (all units);
        * ``share``: :math:`\pi_k`;
        * ``specific_agreement``: :math:`p_s(k)`;
        * ``observed``, ``expected``: :math:`p_a(k)` and :math:`p_e(k)` of the category kappa;
        * ``kappa``: :math:`\kappa_k`;
        * ``alpha``: :math:`\alpha_k`;
        * ``reason``: why a row has NaN (a category nobody used, or one that every rating
          uses: nothing to tell apart), else None.

    Raises
    ------
    InvalidParameterError
        Unknown coders, values outside ``categories``.
    NoPairableUnitsError
        No unit has two ratings.

    Examples
    --------
    Fleiss (1971), psychiatric diagnoses of 30 patients by 6 raters:

    >>> import pandas_agree as pa
    >>> from pandas_agree.kappa.categories import category_agreement
    >>> table = category_agreement(pa.datasets.diagnoses())
    >>> table["kappa"].round(3).tolist()
    [0.245, 0.245, 0.52, 0.471, 0.566]
    >>> table["specific_agreement"].round(3).tolist()
    [0.354, 0.354, 0.6, 0.633, 0.67]
    """
    coded, domain, codes, _ = prepare_categorical(
        data, unit, coder, value, categories, on_duplicate
    )
    unit_codes = coded.unit_codes
    if coders is not None:
        keep = np.isin(coded.coder_codes, coder_positions(coded, coders))
        unit_codes, codes = unit_codes[keep], codes[keep]
    q = len(domain)
    n_units = len(coded.units)
    terms = category_terms(unit_codes, codes, n_units, q)
    n_pairable = terms["n_units"][0]
    if n_pairable == 0:
        raise NoPairableUnitsError(
            f"category_agreement(): no unit has two or more ratings ({unit_codes.size} "
            f"rating(s) in {n_units} unit(s)), so there is nothing to compare"
        )
    r = np.bincount(unit_codes, minlength=n_units).astype(float)
    n_rated = int((r >= 1).sum())
    share = np.bincount(codes, weights=1.0 / r[unit_codes], minlength=q) / n_rated
    n_ratings = np.bincount(codes, minlength=q)
    with np.errstate(invalid="ignore", divide="ignore"):
        specific = terms["agree"] / terms["involved"]
        observed = 1.0 - 2.0 * terms["unit_pairs"] / n_pairable
        expected = share**2 + (1.0 - share) ** 2
        kappa = (observed - expected) / (1.0 - expected)
        n = terms["n_values"][0]
        n_k = terms["weighted_involved"]
        alpha = 1.0 - (n - 1.0) * (n_k - terms["weighted_agree"]) / (n_k * (n - n_k))
    undefined = 1.0 - expected <= DEGENERATE_TOL
    kappa = np.where(undefined, np.nan, kappa)
    alpha = np.where((n_k == 0) | (n_k == n), np.nan, alpha)
    specific = np.where(terms["involved"] == 0, np.nan, specific)
    reason = np.full(q, None, dtype=object)
    reason[n_ratings == 0] = _UNUSED
    reason[(n_ratings > 0) & undefined] = _ALL
    return pd.DataFrame(
        {
            "n_ratings": n_ratings.astype(np.int64),
            "share": share,
            "specific_agreement": specific,
            "observed": observed,
            "expected": expected,
            "kappa": kappa,
            "alpha": alpha,
            "reason": reason,
        },
        index=pd.Index(domain, name="category"),
    )
