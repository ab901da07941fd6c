"""Result objects: frozen dataclasses with ``float()``, a short repr and ``to_series()``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from ._core.counts import UnitValueCounts
    from ._core.kernels import Kernel
    from .data import CodedData

__all__ = ["AlphaFit", "AlphaResult"]


@dataclass(frozen=True, repr=False)
class AlphaFit:
    """What an alpha computation keeps for later questions (intervals, diagnostics)."""

    coded: CodedData
    counts: UnitValueCounts
    kernel: Kernel
    observed_by_unit: Any


@dataclass(frozen=True)
class AlphaResult:
    """Krippendorff's alpha and the quantities it is made of.

    Attributes
    ----------
    alpha : float
        ``1 - D_o / D_e``; NaN when ``D_e = 0`` (see ``reason``).
    distance : str
        Name of the distance used.
    observed, expected : float
        Observed and expected disagreement ``D_o`` and ``D_e`` (Krippendorff 2011).
    n_units : int
        Pairable units (units with two or more values).
    n_coders : int
        Coders with at least one pairable value.
    n_pairable : int
        Pairable values, Krippendorff's ``n..``.
    n_values : int
        Distinct pairable values.
    reason : str or None
        Why ``alpha`` is NaN, when it is.
    """

    alpha: float
    distance: str
    observed: float
    expected: float
    n_units: int
    n_coders: int
    n_pairable: int
    n_values: int
    reason: str | None = None
    fit: AlphaFit | None = field(default=None, repr=False, compare=False)

    def __float__(self) -> float:
        return float(self.alpha)

    def __repr__(self) -> str:
        extra = f", reason={self.reason!r}" if self.reason else ""
        return (
            f"AlphaResult(alpha={self.alpha:.4f}, distance={self.distance!r}, "
            f"n_units={self.n_units}, n_coders={self.n_coders}, n_pairable={self.n_pairable}"
            f"{extra})"
        )

    def to_series(self) -> pd.Series:
        """The scalar fields as a :class:`pandas.Series` (name: the distance)."""
        return pd.Series(
            {
                "alpha": self.alpha,
                "observed": self.observed,
                "expected": self.expected,
                "n_units": self.n_units,
                "n_coders": self.n_coders,
                "n_pairable": self.n_pairable,
                "n_values": self.n_values,
                "reason": self.reason,
            },
            name=self.distance,
            dtype=object,
        )
