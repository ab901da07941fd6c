"""The distinct values of an integer array, by sorting (numpy only)."""

from __future__ import annotations

import numpy as np

__all__ = ["sorted_unique"]


def sorted_unique(x: np.ndarray) -> np.ndarray:
    """``np.unique`` of integers by sorting (NumPy 2's hash-based unique is far slower here).

    Examples
    --------
    >>> sorted_unique(np.array([3, 1, 3, 2, 1]))
    array([1, 2, 3])
    """
    out = np.sort(x)
    if out.size > 1:
        keep = np.empty(out.size, dtype=bool)
        keep[0] = True
        np.not_equal(out[1:], out[:-1], out=keep[1:])
        out = out[keep]
    return out
