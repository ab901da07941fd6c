r"""Multi-rater kappas, marginal bounds and per-category terms on integer codes (numpy only).

The math of :mod:`pandas_agree.kappa.multi_coder`, :mod:`pandas_agree.kappa.marginals` and
:mod:`pandas_agree.kappa.categories`. Ratings arrive as parallel arrays of unit, coder and category
codes; every function counts with ``np.bincount`` and never loops over units.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "bangdiwala_terms",
    "category_terms",
    "conger_expected",
    "max_agreement",
    "own_margin_agreement",
    "pair_tables",
    "rater_margins",
    "reliability_codes",
]


def own_margin_agreement(
    table: np.ndarray, margin_a: np.ndarray, margin_b: np.ndarray, weights: np.ndarray | None
) -> tuple[float, float]:
    """``(p_o, p_e)`` of Cohen's kappa with each coder's margins from all the units it rated.

    ``table`` counts the units both coders rated (``p_o``); ``margin_a`` and ``margin_b`` count
    every rating of each coder (``p_e``), Gwet's (2014) treatment of missing ratings.
    """
    p = table / table.sum()
    pa = margin_a / margin_a.sum()
    pb = margin_b / margin_b.sum()
    if weights is None:
        return float(np.trace(p)), float(pa @ pb)
    return float((weights * p).sum()), float(pa @ weights @ pb)


def reliability_codes(
    unit_codes: np.ndarray, coder_codes: np.ndarray, codes: np.ndarray, n_units: int, n_coders: int
) -> np.ndarray:
    """The units x coders matrix of category codes, -1 where a coder did not rate a unit."""
    mat = np.full((n_units, n_coders), -1, dtype=np.intp)
    mat[unit_codes, coder_codes] = codes
    return mat


def rater_margins(coder_codes: np.ndarray, codes: np.ndarray, n_coders: int, q: int) -> np.ndarray:
    """n_coders x q counts: how often each coder used each category (over all its ratings)."""
    flat = np.bincount(coder_codes * q + codes, minlength=n_coders * q)
    return flat.reshape(n_coders, q).astype(float)


def pair_tables(mat: np.ndarray, q: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Contingency tables of every pair of coders on the units both rated.

    Parameters
    ----------
    mat : ndarray
        units x coders codes (-1 missing), from :func:`reliability_codes`.
    q : int
        Number of categories.

    Returns
    -------
    tables : ndarray
        ``(P, q, q)`` counts, one table per pair ``g < h`` (rows: ``g``).
    first, second : ndarray
        The coder positions of each pair.
    """
    n_coders = mat.shape[1]
    first, second = np.triu_indices(n_coders, k=1)
    n_pairs = first.size
    if n_pairs == 0:
        return np.zeros((0, q, q)), first, second
    a = mat[:, first]  # units x pairs
    b = mat[:, second]
    both = (a >= 0) & (b >= 0)
    pair = np.broadcast_to(np.arange(n_pairs), a.shape)
    key = (pair[both] * q + a[both]) * q + b[both]
    tables = np.bincount(key, minlength=n_pairs * q * q).reshape(n_pairs, q, q).astype(float)
    return tables, first, second


def conger_expected(margins: np.ndarray, weights: np.ndarray | None) -> float:
    r"""Conger's chance agreement: the mean over ordered pairs of coders ``g != h`` of
    :math:`\sum_{k,l} w_{kl} p_{gk} p_{hl}`, with :math:`p_{gk}` coder ``g``'s share of
    category ``k`` over the units it rated.

    Written as Gwet (2014) does: :math:`\sum_{kl} w_{kl} (\bar p_k \bar p_l - s^2_{kl} / r)`.
    """
    totals = margins.sum(axis=1, keepdims=True)
    p = margins / totals
    r = p.shape[0]
    w = np.eye(p.shape[1]) if weights is None else weights
    mean = p.mean(axis=0)
    cross = p.T @ p  # sum_g p_gk p_gl
    all_pairs = r * r * np.outer(mean, mean)  # sum_{g, h} p_gk p_hl
    return float((w * (all_pairs - cross)).sum() / (r * (r - 1)))


def bangdiwala_terms(table: np.ndarray) -> tuple[float, float]:
    r"""Numerator and denominator of Bangdiwala's B: :math:`\sum_k n_{kk}^2` and
    :math:`\sum_k n_{k\cdot} n_{\cdot k}`."""
    rows, cols = table.sum(axis=1), table.sum(axis=0)
    return float((np.diag(table) ** 2).sum()), float((rows * cols).sum())


def max_agreement(table: np.ndarray) -> tuple[float, float]:
    r"""``(p_max, p_e)``: the largest observed agreement the margins allow,
    :math:`\sum_k \min(p_{k\cdot}, p_{\cdot k})`, and Cohen's chance agreement."""
    p = table / table.sum()
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    return float(np.minimum(rows, cols).sum()), float(rows @ cols)


def category_terms(
    unit_codes: np.ndarray, codes: np.ndarray, n_units: int, q: int
) -> dict[str, np.ndarray]:
    r"""Per-category sums over the units with two or more ratings.

    With :math:`r_{ik}` the ratings of unit :math:`i` in category :math:`k` and
    :math:`r_i = \sum_k r_{ik}`, over units with :math:`r_i \ge 2`:

    * ``agree``: :math:`\sum_i r_{ik} (r_{ik} - 1)` (ordered agreeing pairs in ``k``),
    * ``involved``: :math:`\sum_i r_{ik} (r_i - 1)` (ordered pairs with a first rating ``k``),
    * ``weighted_agree``, ``weighted_involved``: the same divided by :math:`r_i - 1`
      (Krippendorff's coincidences: ``o_kk`` and ``n_k``),
    * ``share``: :math:`\sum_i r_{ik} / r_i` (Gwet's per-unit shares, for :math:`\pi_k`),
    * ``unit_pairs``: the sums of :math:`r_{ik}(r_i - r_{ik}) / (r_i (r_i - 1))`,
    * ``n_units`` (pairable units) and ``n_values`` (their ratings), as length-1 arrays.
    """
    r = np.bincount(unit_codes, minlength=n_units).astype(float)
    pairable = r >= 2
    keep = pairable[unit_codes]
    u, k = unit_codes[keep], codes[keep]
    cell, counts = np.unique(u.astype(np.int64) * q + k, return_counts=True)
    cu, ck = np.divmod(cell, q)
    rik = counts.astype(float)
    ri = r[cu]
    return {
        "agree": np.bincount(ck, weights=rik * (rik - 1.0), minlength=q),
        "involved": np.bincount(ck, weights=rik * (ri - 1.0), minlength=q),
        "weighted_agree": np.bincount(ck, weights=rik * (rik - 1.0) / (ri - 1.0), minlength=q),
        "weighted_involved": np.bincount(ck, weights=rik, minlength=q),
        "share": np.bincount(ck, weights=rik / ri, minlength=q),
        "unit_pairs": np.bincount(
            ck, weights=rik * (ri - rik) / (ri * (ri - 1.0)), minlength=q
        ),
        "n_units": np.array([float(pairable.sum())]),
        "n_values": np.array([float(r[pairable].sum())]),
    }
