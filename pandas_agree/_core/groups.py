"""Alpha per group when units are nested in groups (numpy only).

Used by :func:`pandas_agree.report` and the dask back end: the per-unit observed terms are
summed per group, and every group's expected disagreement comes from one (groups x values)
matrix of marginals.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .counts import UnitValueCounts, pairable_counts
from .kernels import Kernel, alpha_from_sums

__all__ = ["group_alphas", "subset_counts"]


def subset_counts(counts: UnitValueCounts, unit_mask: np.ndarray) -> UnitValueCounts:
    """The counts of the units where ``unit_mask`` is True (unit codes unchanged)."""
    sel = unit_mask[counts.unit]
    return pairable_counts(
        counts.unit[sel],
        counts.value[sel],
        counts.m.size,
        counts.n_values,
        weights=np.asarray(counts.count[sel], dtype=float),
    )


def group_alphas(
    kernel: Kernel, counts: UnitValueCounts, group_of_unit: np.ndarray, n_groups: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-group ``(alpha, D_o, D_e, n)``; units are nested in groups (``group_of_unit``).

    Observed disagreement is summed per group from the per-unit terms and the expected
    disagreement of every group comes from one (groups x values) matrix of marginals. A
    kernel whose distance depends on the marginals (ordinal) is evaluated group by group.
    Groups without pairable values get NaN.
    """
    group_of_unit = np.asarray(group_of_unit, dtype=np.intp)
    entry_group = group_of_unit[counts.unit]
    n_g = np.bincount(entry_group, weights=counts.count, minlength=n_groups)
    out = np.full((3, n_groups), np.nan)
    if kernel.marginal_dependent:
        for g in np.flatnonzero(n_g > 0):
            sub = subset_counts(counts, group_of_unit == g)
            obs, exp = kernel.sums(sub)
            out[:, g] = alpha_from_sums(sub.n, obs, exp)
        return out[0], out[1], out[2], n_g
    obs_unit = kernel.observed_by_unit(counts)
    obs_g = np.bincount(group_of_unit, weights=obs_unit, minlength=n_groups)
    marginals = sp.csr_matrix(
        (counts.count.astype(float), (entry_group, counts.value)),
        shape=(n_groups, counts.n_values),
    )
    exp_g = kernel.expected_sums(marginals)
    for g in np.flatnonzero(n_g > 0):
        out[:, g] = alpha_from_sums(n_g[g], obs_g[g], exp_g[g])
    return out[0], out[1], out[2], n_g
