"""Degenerate and noted states of a coefficient, as codes (numpy only, no English).

The core decides *what* happened (no pairable unit, no expected disagreement, values that
float64 cannot hold exactly); the sentences users read are rendered at the edge by
:mod:`pandas_agree.reasons`. Code that must act on a state (warn, fill NaN, skip a
bootstrap) compares these members, never the rendered text.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

__all__ = [
    "AlphaState",
    "BootstrapState",
    "ChanceState",
    "Precision",
    "ResultState",
    "alpha_state",
    "alpha_states",
    "combine_precision",
]


class AlphaState(enum.IntEnum):
    """Why an alpha is what it is.

    ``DEFINED`` and ``PRECISION`` have a number; the others give NaN. Integer values so a
    vector of states (one per group) is a plain integer array.

    Examples
    --------
    >>> AlphaState.NO_VARIATION.undefined, AlphaState.PRECISION.undefined
    (True, False)
    """

    #: Alpha is defined and computed at full float64 precision.
    DEFINED = 0
    #: Alpha is defined; the values were shifted or scaled, or could not all be held
    #: exactly in float64 (see :class:`Precision`).
    PRECISION = 1
    #: No unit has two or more values: there is nothing to compare.
    NO_PAIRABLE_UNITS = 2
    #: ``D_e = 0``: every pairable value is the same (alpha is undefined).
    NO_VARIATION = 3
    #: ``D_e = 0`` only after the values were converted to float64 (see :class:`Precision`).
    NO_VARIATION_PRECISION = 4

    @property
    def undefined(self) -> bool:
        """Whether alpha is NaN in this state."""
        return self >= AlphaState.NO_PAIRABLE_UNITS

    @property
    def no_variation(self) -> bool:
        """Whether the expected disagreement is 0 (either kind)."""
        return self in (AlphaState.NO_VARIATION, AlphaState.NO_VARIATION_PRECISION)


class ChanceState(enum.IntEnum):
    """Why a chance-corrected coefficient (kappa, pi, AC1, ...) is what it is.

    Examples
    --------
    >>> ChanceState.CHANCE_IS_ONE > ChanceState.DEFINED
    True
    """

    #: ``(p_o - p_e) / (1 - p_e)`` is defined.
    DEFINED = 0
    #: ``p_e = 1`` (every rating falls in one category): the coefficient is undefined.
    CHANCE_IS_ONE = 1
    #: Bangdiwala's B: the two coders never used the same category (every rectangle empty).
    NO_SHARED_CATEGORY = 2
    #: Light's kappa: no pair of coders has a defined kappa (each has chance agreement 1).
    NO_PAIR_DEFINED = 3

    @property
    def undefined(self) -> bool:
        """Whether the coefficient is NaN in this state."""
        return self is not ChanceState.DEFINED


class ResultState(enum.IntEnum):
    """The state of a result that has no states of its own: defined, noted or undefined.

    Examples
    --------
    >>> ResultState.UNDEFINED.undefined
    True
    """

    #: The headline number is defined and there is nothing to add.
    DEFINED = 0
    #: Defined, with a note (the result's ``reason``).
    NOTED = 1
    #: The headline number is NaN (the result's ``reason`` says why).
    UNDEFINED = 2

    @property
    def undefined(self) -> bool:
        """Whether the headline number is NaN in this state."""
        return self is ResultState.UNDEFINED


class BootstrapState(enum.IntEnum):
    """What a bootstrap distribution of alpha looks like.

    Examples
    --------
    >>> BootstrapState.NO_SPREAD.degenerate, BootstrapState.SOME_UNDEFINED.degenerate
    (True, False)
    """

    #: Replicates spread, every one defined.
    DEFINED = 0
    #: Some resamples had no expected disagreement and are left out of the interval.
    SOME_UNDEFINED = 1
    #: Every replicate is 1: every pairable value agrees, resampling cannot vary it.
    ALL_AGREE = 2
    #: Every replicate equals one value below 1: the distribution has no spread.
    NO_SPREAD = 3
    #: No replicate is defined.
    NONE_DEFINED = 4

    @property
    def degenerate(self) -> bool:
        """Whether the interval is degenerate (a point, or nothing)."""
        return self >= BootstrapState.ALL_AGREE


@dataclass(frozen=True)
class Precision:
    """What converting interval scores to float64 did (see ``centred_scores`` in the kernels).

    Attributes
    ----------
    span : int or None
        ``max - min`` of integer values too far apart for float64 to keep every difference
        (None when every difference is kept).
    spread : int or None
        The largest distance of such a value from the centre used (sets the resolution,
        about ``spread / 2**52``).
    shift : int or None
        The values were divided by ``2 ** shift`` to keep float64 in range (None: not scaled).
    merged : int or None
        How many distinct values became equal to another value when converted to float64
        (Python integers beyond 2**53 in an object column, say); None: none did.
    """

    span: int | None = None
    spread: int | None = None
    shift: int | None = None
    merged: int | None = None

    @property
    def inexact(self) -> bool:
        """Whether some differences may have been lost (alpha is approximate)."""
        return self.span is not None or self.merged is not None


def combine_precision(first: Precision | None, second: Precision | None) -> Precision | None:
    """Both notes in one (the second's fields where the first has none)."""
    if first is None:
        return second
    if second is None:
        return first
    return Precision(
        span=first.span if first.span is not None else second.span,
        spread=first.spread if first.spread is not None else second.spread,
        shift=first.shift if first.shift is not None else second.shift,
        merged=first.merged if first.merged is not None else second.merged,
    )


def alpha_state(n_units: int, expected: float, precision: Precision | None = None) -> AlphaState:
    """The state of an alpha from its pairable units, ``D_e`` and the precision note.

    Examples
    --------
    >>> alpha_state(0, 0.0).name
    'NO_PAIRABLE_UNITS'
    >>> alpha_state(3, 0.0).name, alpha_state(3, 0.0, Precision(shift=-300)).name
    ('NO_VARIATION', 'NO_VARIATION_PRECISION')
    >>> alpha_state(3, 0.5).name, alpha_state(3, 0.5, Precision(shift=-300)).name
    ('DEFINED', 'PRECISION')
    """
    if n_units == 0:
        return AlphaState.NO_PAIRABLE_UNITS
    if expected == 0:
        return AlphaState.NO_VARIATION if precision is None else AlphaState.NO_VARIATION_PRECISION
    return AlphaState.DEFINED if precision is None else AlphaState.PRECISION


def alpha_states(n_units: np.ndarray, expected: np.ndarray, noted: np.ndarray) -> np.ndarray:
    """:func:`alpha_state` of many alphas at once, as an array of integer codes.

    ``noted`` says where a precision record applies. ``AlphaState(code)`` gives the member.

    Examples
    --------
    >>> codes = alpha_states(np.array([0, 3, 3, 3]), np.array([np.nan, 0.0, 0.5, 0.0]),
    ...                      np.array([False, False, True, True]))
    >>> [AlphaState(c).name for c in codes]
    ['NO_PAIRABLE_UNITS', 'NO_VARIATION', 'PRECISION', 'NO_VARIATION_PRECISION']
    """
    noted = np.asarray(noted, dtype=bool)
    zero = np.asarray(expected) == 0
    out = np.where(
        zero,
        np.where(noted, AlphaState.NO_VARIATION_PRECISION, AlphaState.NO_VARIATION),
        np.where(noted, AlphaState.PRECISION, AlphaState.DEFINED),
    ).astype(np.int8)
    out[np.asarray(n_units) == 0] = AlphaState.NO_PAIRABLE_UNITS
    return out
