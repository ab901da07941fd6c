r"""Chance-corrected agreement coefficients on integer codes (numpy only).

The math of :mod:`pandas_agree.kappa.coefficients`: codes and counts in, numbers out. Every
coefficient is :math:`(p_o - p_e) / (1 - p_e)`; the two-coder ones take ``p_o`` and ``p_e``
from a contingency table, the multi-coder ones from Gwet's (2014) per-unit terms.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .states import ChanceState

__all__ = [
    "DEGENERATE_TOL",
    "chance_corrected",
    "contingency",
    "expected_agreement",
    "linear_quadratic",
    "paired_codes",
    "rater_terms",
    "table_proportions",
]

# 1 - p_e below this counts as p_e = 1: every rating in one category, coefficient undefined.
DEGENERATE_TOL = 1e-12


def linear_quadratic(q: int, kind: str) -> np.ndarray:
    """Agreement weights on category positions 0..q-1: 1 - |i-j|/(q-1) or 1 - (i-j)^2/(q-1)^2."""
    if q < 2:
        return np.ones((q, q))
    pos = np.arange(q, dtype=float)
    d = np.abs(pos[:, None] - pos[None, :]) / (q - 1)
    return 1.0 - (d if kind == "linear" else d**2)


def paired_codes(
    unit_codes: np.ndarray,
    coder_codes: np.ndarray,
    codes: np.ndarray,
    n_units: int,
    a: int,
    b: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Codes of coders ``a`` and ``b`` on the units both rated, aligned by unit.

    Also returns the mask over all ``n_units`` units of those rated by both.
    """
    col_a = np.full(n_units, -1, dtype=np.intp)
    col_b = np.full(n_units, -1, dtype=np.intp)
    is_a = coder_codes == a
    is_b = coder_codes == b
    col_a[unit_codes[is_a]] = codes[is_a]
    col_b[unit_codes[is_b]] = codes[is_b]
    both = (col_a >= 0) & (col_b >= 0)
    return col_a[both], col_b[both], both


def contingency(a_codes: np.ndarray, b_codes: np.ndarray, q: int) -> np.ndarray:
    """q x q table of (first coder's code, second coder's code) counts."""
    flat = np.bincount(a_codes * q + b_codes, minlength=q * q)
    return flat.reshape(q, q).astype(float)


def table_proportions(
    table: np.ndarray, weights: np.ndarray | None, method: str
) -> tuple[float, float]:
    """``(p_o, p_e)`` of a two-coder table; ``method`` is "cohen" or "scott".

    (Not :func:`pandas_agree.tasks.coref.table_agreement`, which scores a 2 x 2 link table.)
    """
    p = table / table.sum()
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    if method == "cohen":
        chance = np.outer(rows, cols)
    else:
        pi = (rows + cols) / 2.0
        chance = np.outer(pi, pi)
    if weights is None:
        return float(np.trace(p)), float(np.trace(chance))
    return float((weights * p).sum()), float((weights * chance).sum())


def rater_terms(
    unit_codes: np.ndarray,
    value_codes: np.ndarray,
    n_units: int,
    q: int,
    weights: np.ndarray | None,
) -> tuple[float, np.ndarray, int, np.ndarray]:
    """Gwet's ``p_a`` and ``pi_k``, the number of units with two or more ratings, and ``r_i``.

    ``p_a`` is NaN when no unit has two ratings.
    """
    r = np.bincount(unit_codes, minlength=n_units).astype(float)
    counts = sp.csr_matrix(
        (np.ones(unit_codes.size), (unit_codes, value_codes)), shape=(n_units, q)
    )
    if weights is None:
        same = np.asarray(counts.multiply(counts).sum(axis=1)).ravel()
    else:
        weighted = np.asarray(counts @ weights.T)  # r*_ik = sum_l w_kl r_il
        same = np.asarray(counts.multiply(weighted).sum(axis=1)).ravel()
    pairable = r >= 2
    n_pairable = int(pairable.sum())
    if n_pairable:
        rp = r[pairable]
        p_a = float(np.mean((same[pairable] - rp) / (rp * (rp - 1.0))))
    else:
        p_a = float("nan")
    rated = r >= 1
    pi = np.bincount(value_codes, weights=1.0 / r[unit_codes], minlength=q) / max(
        int(rated.sum()), 1
    )
    return p_a, pi, n_pairable, r


def expected_agreement(method: str, pi: np.ndarray, q: int, weights: np.ndarray | None) -> float:
    """Chance agreement ``p_e`` of a multi-coder coefficient from Gwet's ``pi_k``.

    ``method`` is "percent_agreement" (0), "fleiss_kappa", "bennett_s" or Gwet's AC1/AC2.
    """
    if method == "percent_agreement":
        return 0.0
    if method == "fleiss_kappa":
        return float(pi @ pi) if weights is None else float(pi @ weights @ pi)
    total = q if weights is None else float(weights.sum())
    if method == "bennett_s":
        return total / q**2 if q else 1.0
    # gwet_ac1 / gwet_ac2
    return total * float((pi * (1.0 - pi)).sum()) / (q * (q - 1)) if q >= 2 else 1.0


def chance_corrected(p_o: float, p_e: float) -> tuple[float, ChanceState]:
    """``(p_o - p_e) / (1 - p_e)`` and its state: NaN and ``CHANCE_IS_ONE`` when ``p_e`` is 1.

    The sentence for the state is :func:`pandas_agree.reasons.chance_reason`.
    """
    if 1.0 - p_e <= DEGENERATE_TOL:
        return float("nan"), ChanceState.CHANCE_IS_ONE
    return float((p_o - p_e) / (1.0 - p_e)), ChanceState.DEFINED
