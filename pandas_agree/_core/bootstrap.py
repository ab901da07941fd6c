"""Bootstrap replicates of alpha, vectorised over replicates (numpy only).

Two algorithms, one function each:

* :func:`krippendorff_replicates`: Krippendorff's algorithm (steps 1-4 of
  :mod:`pandas_agree.krippendorff.bootstrap`). Pairs of values are drawn from the observed
  coincidence
  matrix (:func:`coincidence_replicates`), ``D_e`` is held fixed, replicates are clipped at
  -1 and corrected for draws of one value (:func:`correct_perfect_replicates`).
* :func:`resampled_replicates`: resampling units (or clusters of units) with replacement,
  expressed as integer multiplicities (:func:`multiplicities`), so that every replicate is a
  weighted sum of the per-unit observed disagreements and one evaluation of ``E`` on
  reweighted marginals (:func:`weighted_replicates`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from .counts import UnitValueCounts, coincidence_entries
from .kernels import Kernel
from .tuning import BLOCK_CELLS

__all__ = [
    "coincidence_replicates",
    "correct_perfect_replicates",
    "krippendorff_replicates",
    "multiplicities",
    "resampled_replicates",
    "weighted_replicates",
]

#: Krippendorff's "practical limit" on the draws of a replicate: 25 per non-zero cell of the
#: coincidence matrix (Krippendorff 2006/2011; Hayes' KALPHA macro, version 3). Part of the
#: algorithm, not a tuning constant: it changes the interval.
DRAWS_PER_CELL = 25


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
    block = max(1, BLOCK_CELLS // max(levels.size, 1))
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
    block = max(1, BLOCK_CELLS // max(counts.n_values, counts.m.size, 1))
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


def correct_perfect_replicates(reps: np.ndarray, diagonal: np.ndarray, draws: int) -> None:
    """Step 4 of Krippendorff's algorithm, as in Hayes' KALPHA (version 3, 2011), in place.

    A replicate of 1 whose draws all fell on one diagonal cell stands for data with a single
    value, where alpha is undefined; such replicates are set to 0. Their expected number is
    ``n_boot * sum_c (o_cc / n) ** M``; that many of the replicates equal to 1 (at most all
    of them) are set to 0. With a single agreed value, every replicate of 1 is set to 0.

    Examples
    --------
    >>> reps = np.array([1.0, 1.0, 0.5, 1.0])
    >>> correct_perfect_replicates(reps, np.array([0.5, 0.3]), 1)  # 4 * 0.8 -> 3 of them
    >>> reps.tolist()
    [0.0, 0.0, 0.5, 0.0]
    """
    ones = np.flatnonzero(reps == 1.0)
    if ones.size == 0 or diagonal.size == 0:
        return
    if np.count_nonzero(diagonal) == 1:
        reps[ones] = 0.0
        return
    expected = round(reps.size * float(np.sum(diagonal**draws)))
    reps[ones[: min(expected, ones.size)]] = 0.0


def krippendorff_replicates(
    kernel: Kernel,
    counts: UnitValueCounts,
    d_e: float,
    n_boot: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Krippendorff's bootstrap of alpha (``D_e > 0``): steps 1-4, ``n_boot`` replicates.

    The coincidence matrix of ``counts`` gives the cell probabilities and their distances
    (under the original marginals); each replicate draws ``M = min(25 Q, pairs)`` cells
    (``Q`` non-zero cells, :data:`DRAWS_PER_CELL`),
    ``D_e`` held fixed; replicates below -1 become -1 and replicates of one agreed value 0.
    """
    rows, cols, vals = coincidence_entries(counts)
    cells = sp.coo_matrix((vals, (rows, cols)), shape=(counts.n_values,) * 2).tocsr().tocoo()
    delta = kernel.delta_pairs(cells.row, cells.col, counts.n_c)
    m = counts.m[counts.m > 0]
    n_pairs = round(float((m * (m - 1) / 2).sum()))
    draws = min(DRAWS_PER_CELL * cells.nnz, n_pairs)
    reps = coincidence_replicates(cells.data / counts.n, delta, draws, d_e, n_boot, rng)
    np.maximum(reps, -1.0, out=reps)
    diagonal = cells.data[cells.row == cells.col] / counts.n
    correct_perfect_replicates(reps, diagonal, draws)
    return reps


def resampled_replicates(
    kernel: Kernel,
    counts: UnitValueCounts,
    observed_by_unit: np.ndarray,
    owner: np.ndarray,
    n_items: int,
    n_boot: int,
    rng: np.random.Generator,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Alpha of ``n_boot`` resamples of items (units or clusters) drawn with replacement.

    ``owner[u]`` is the item (``0 .. n_items - 1``) of unit code ``u``, -1 for units left
    out (not pairable). A unit counts as many times as its item is drawn. ``progress`` is
    called with the size of each finished block of replicates.
    """
    reps = np.empty(n_boot)
    block = max(1, BLOCK_CELLS // max(counts.m.size, 1))
    has = owner >= 0
    for start in range(0, n_boot, block):
        size = min(block, n_boot - start)
        item_weights = multiplicities(n_items, size, rng)
        unit_weights = np.zeros((size, counts.m.size))
        unit_weights[:, has] = item_weights[:, owner[has]]
        reps[start : start + size] = weighted_replicates(
            kernel, counts, observed_by_unit, unit_weights
        )
        if progress is not None:
            progress(size)
    return reps
