r"""Decompositions of an alpha's observed disagreement by unit and by coder (numpy only).

The math of :mod:`pandas_agree.krippendorff.diagnostics`: integer codes and counts in, arrays out.
The
distance itself is the kernel's business: every per-rating term comes from
:meth:`pandas_agree._core.kernels.Kernel.entry_terms`, every alpha from the kernel's sums.
"""

from __future__ import annotations

import numpy as np

from .agreement import chance_corrected, expected_agreement, rater_terms
from .counts import UnitValueCounts, pairable_counts
from .kernels import Kernel, alpha_from_sums

__all__ = [
    "alpha_of",
    "coder_parts",
    "coder_slices",
    "leave_one_coder_out",
    "nominal_agreement",
    "rating_entries",
]


def alpha_of(kernel: Kernel, counts: UnitValueCounts) -> float:
    """Alpha from counts with an existing kernel; NaN when nothing is pairable or D_e = 0.

    Examples
    --------
    Nominal, two units with values (a, a) and (a, b): ``D_o = 2 / 4`` and
    ``D_e = 2 * 3 * 1 / (4 * 3)`` from the definition, so alpha is 0.

    >>> import numpy as np
    >>> from pandas_agree._core.kernels import NominalKernel
    >>> counts = pairable_counts(np.array([0, 0, 1, 1]), np.array([0, 0, 0, 1]), 2, 2)
    >>> alpha_of(NominalKernel(), counts)
    0.0
    """
    n = counts.n
    if n < 2:
        return float("nan")
    observed, expected = kernel.sums(counts)
    return alpha_from_sums(n, observed, expected)[0]


def rating_entries(
    counts: UnitValueCounts, unit_codes: np.ndarray, value_codes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Entry index (into ``counts``) of every rating in a pairable unit, and their mask."""
    nv = counts.n_values
    entry_keys = counts.unit.astype(np.int64) * nv + counts.value
    pairable = counts.m[unit_codes] >= 2
    keys = unit_codes[pairable].astype(np.int64) * nv + value_codes[pairable]
    return np.searchsorted(entry_keys, keys), pairable


def coder_slices(coder_codes: np.ndarray, n_coders: int) -> list[np.ndarray]:
    """Indices of each coder's ratings (coders ``0 .. n_coders - 1``)."""
    order = np.argsort(coder_codes, kind="stable")
    bounds = np.searchsorted(coder_codes[order], np.arange(n_coders + 1))
    return [order[bounds[g] : bounds[g + 1]] for g in range(n_coders)]


def coder_parts(
    kernel: Kernel,
    counts: UnitValueCounts,
    unit_codes: np.ndarray,
    coder_codes: np.ndarray,
    value_codes: np.ndarray,
    n_coders: int,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Each coder's part :math:`O_g = \sum_{i \text{ by } g} t_i` of ``O`` and pairable values.

    ``t_i`` is the kernel's :meth:`~pandas_agree._core.kernels.Kernel.entry_terms` of the
    rating's (unit, value) entry; the parts add up to ``O``.
    """
    terms = kernel.entry_terms(counts)
    entries, pairable = rating_entries(counts, unit_codes, value_codes)
    coders = coder_codes[pairable]
    parts = np.bincount(coders, weights=terms[entries], minlength=n_coders)
    return parts, np.bincount(coders, minlength=n_coders)


def leave_one_coder_out(
    kernel: Kernel,
    unit_codes: np.ndarray,
    value_codes: np.ndarray,
    slices: list[np.ndarray],
    n_units: int,
    n_values: int,
) -> np.ndarray:
    """Alpha without each coder's ratings (``slices``: :func:`coder_slices`); NaN for none."""
    without = np.full(len(slices), np.nan)
    for g, rows in enumerate(slices):
        if rows.size == 0:
            continue
        keep = np.ones(unit_codes.size, dtype=bool)
        keep[rows] = False
        sub = pairable_counts(unit_codes[keep], value_codes[keep], n_units, n_values)
        without[g] = alpha_of(kernel, sub)
    return without


def nominal_agreement(
    unit_codes: np.ndarray, value_codes: np.ndarray, n_units: int, q: int
) -> tuple[float, float, int]:
    """Percent agreement, Gwet's AC1 (unweighted) and the number of pairable units.

    Both come from Gwet's (2014) per-unit terms (:func:`~.agreement.rater_terms`); AC1 is
    NaN when its chance agreement is 1 and both are NaN when no unit has two ratings.
    """
    p_a, pi, n_pairable, _ = rater_terms(unit_codes, value_codes, n_units, q, None)
    ac1, _ = chance_corrected(p_a, expected_agreement("gwet_ac1", pi, q, None))
    return p_a, ac1, n_pairable
