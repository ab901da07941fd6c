"""Bootstrap replicates of alpha, vectorised over replicates (numpy only).

Two schemes:

* :func:`coincidence_replicates`: Krippendorff's algorithm. Pairs of values are drawn from
  the observed coincidence matrix, ``D_e`` is held fixed.
* :func:`weighted_replicates`: resampling units (or clusters of units) with replacement,
  expressed as integer multiplicities, so that every replicate is a weighted sum of the
  per-unit observed disagreements and one evaluation of ``E`` on reweighted marginals.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .counts import UnitValueCounts
from .kernels import Kernel

__all__ = ["coincidence_replicates", "multiplicities", "weighted_replicates"]

# Cells a block of replicates may hold at once.
_BLOCK_CELLS = 1 << 22


def coincidence_replicates(
    cell_prob: np.ndarray,
    cell_delta: np.ndarray,
    n_pairs: int,
    d_e: float,
    n_boot: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Krippendorff's bootstrap: ``alpha_b = 1 - mean(delta over n_pairs drawn pairs) / D_e``.

    Each replicate draws ``n_pairs`` pairs of values with replacement, a pair (c, k) with
    probability ``o_ck / n``. Only the sum of the drawn distances matters, so the cells are
    merged by distance value and the draw is one multinomial per replicate (a binomial for
    nominal data).
    """
    levels, inverse = np.unique(cell_delta, return_inverse=True)
    prob = np.bincount(inverse, weights=cell_prob, minlength=levels.size)
    prob = prob / prob.sum()
    out = np.empty(n_boot)
    block = max(1, _BLOCK_CELLS // max(levels.size, 1))
    for start in range(0, n_boot, block):
        stop = min(n_boot, start + block)
        draws = rng.multinomial(n_pairs, prob, size=stop - start)
        out[start:stop] = 1.0 - (draws @ levels) / (n_pairs * d_e)
    return out


def multiplicities(n_items: int, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``(n_boot, n_items)`` draw counts of each item in resamples of size ``n_items``."""
    draws = rng.integers(0, n_items, size=(n_boot, n_items))
    draws += np.arange(n_boot)[:, None] * n_items
    return np.bincount(draws.ravel(), minlength=n_boot * n_items).reshape(n_boot, n_items)


def weighted_replicates(
    kernel: Kernel,
    counts: UnitValueCounts,
    observed_by_unit: np.ndarray,
    unit_weights: np.ndarray,
) -> np.ndarray:
    """Alpha for each row of ``unit_weights`` (replicates x all unit codes).

    A unit drawn ``k`` times counts as ``k`` separate units: its observed disagreement and
    its values are multiplied by ``k``. For ordinal alpha, whose distance depends on the
    marginals, each unit's observed disagreement is recomputed with the replicate's
    mid-ranks (vectorised over a block of replicates).
    """
    n_boot = unit_weights.shape[0]
    table = sp.csr_matrix(
        (counts.count.astype(float), (counts.unit, counts.value)),
        shape=(counts.m.size, counts.n_values),
    )
    out = np.empty(n_boot)
    block = max(1, _BLOCK_CELLS // max(counts.n_values, counts.m.size, 1))
    for start in range(0, n_boot, block):
        w = unit_weights[start : start + block].astype(float)
        n = w @ counts.m
        marginals = np.asarray(table.T @ w.T).T
        if kernel.marginal_dependent:
            per_unit = kernel.observed_by_unit_stack(table, counts.m, marginals)
            obs = np.einsum("ru,ur->r", w, per_unit)
        else:
            obs = w @ observed_by_unit
        exp = kernel.expected_sums(marginals)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[start : start + block] = np.where(exp > 0, 1.0 - (n - 1.0) * obs / exp, np.nan)
    return out
