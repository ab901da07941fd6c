"""The sentences of degenerate and noted states: the one place English is made from states.

The numpy core reports states (:class:`AlphaState`, also ``pandas_agree.results.AlphaState``)
and precision records (:class:`Precision`); result objects carry both the state and the
sentence rendered here (``AlphaResult.state`` and ``AlphaResult.reason``); report rows carry
the sentence. Test the state, not the sentence: the sentences are for people.

Examples
--------
>>> from pandas_agree._core.states import AlphaState
>>> alpha_reason(AlphaState.NO_VARIATION)
'every pairable value is the same (D_e = 0): alpha is undefined'
>>> group_reason(3, {"nominal": AlphaState.DEFINED, "masi": AlphaState.NO_VARIATION})
'no expected disagreement (D_e = 0) under masi'
"""

from __future__ import annotations

from collections.abc import Mapping

from ._core.states import AlphaState, BootstrapState, ChanceState, Precision

__all__ = [
    "NO_UNITS",
    "NO_VARIATION",
    "NO_VARIATION_FOR",
    "NO_VARIATION_IN_FLOAT",
    "AlphaState",
    "ChanceState",
    "Precision",
    "alpha_reason",
    "chance_reason",
    "group_reason",
    "precision_note",
]

#: A report row without a pairable unit.
NO_UNITS = "no pairable unit (no unit has two or more values)"
#: A report row where every distance has ``D_e = 0``.
NO_VARIATION = "every pairable value is the same (D_e = 0)"
#: A report row where some distances have ``D_e = 0`` (followed by their names).
NO_VARIATION_FOR = "no expected disagreement (D_e = 0) under"
#: Report rows whose ``D_e`` is 0 only once their values are float64.
NO_VARIATION_IN_FLOAT = (
    "no expected disagreement (D_e = 0) once the values are float64; distinct values became "
    "equal or lost precision (see the reason column)"
)


def precision_note(precision: Precision | None) -> str | None:
    """The note of a :class:`~pandas_agree._core.states.Precision` (None for None).

    Examples
    --------
    >>> print(precision_note(Precision(shift=664)))
    values were divided by 2**664 (alpha is scale-invariant) to keep float64 in range: observed
    and expected are in those units
    """
    if precision is None:
        return None
    parts = []
    if precision.span is not None:
        spread = max(int(precision.spread or 0), 1)
        parts.append(
            f"integer values span {precision.span}, more than float64 holds exactly (2**53 "
            "either side of a centre): values closer than about "
            f"{spread / 2**52:.3g} may be merged, so alpha is approximate"
        )
    if precision.merged is not None:
        parts.append(
            f"{precision.merged} distinct value(s) became equal to another value in float64 "
            "(integers beyond 2**53 lose their last digits), so alpha is approximate"
        )
    if precision.shift is not None:
        parts.append(
            f"values were divided by 2**{precision.shift} (alpha is scale-invariant) to keep "
            "float64 in range: observed and expected are in those units"
        )
    return "; ".join(parts) if parts else None


def alpha_reason(state: AlphaState, precision: Precision | None = None) -> str | None:
    """The ``reason`` of an :class:`~pandas_agree.AlphaResult` in ``state``."""
    note = precision_note(precision)
    if state is AlphaState.NO_PAIRABLE_UNITS:
        return NO_UNITS
    if state is AlphaState.NO_VARIATION:
        return "every pairable value is the same (D_e = 0): alpha is undefined"
    if state is AlphaState.NO_VARIATION_PRECISION:
        return f"D_e = 0 after conversion to float64: {note}"
    return note


def group_reason(
    n_units: int,
    states: Mapping[str, AlphaState],
    precision: Mapping[str, Precision | None] | None = None,
) -> str | None:
    """The ``reason`` of one report row: its states under each distance (by name).

    No pairable unit, or ``D_e = 0`` under every distance or under some (named; apart
    those where ``D_e`` is 0 only once the values are float64); then, for each distance
    whose values lost or changed precision in float64, its note.
    """
    if n_units == 0:
        return NO_UNITS
    undefined = [name for name, state in states.items() if state is AlphaState.NO_VARIATION]
    in_float = [n for n, state in states.items() if state is AlphaState.NO_VARIATION_PRECISION]
    parts = []
    if undefined:
        parts.append(
            NO_VARIATION
            if len(undefined) == len(states)
            else f"{NO_VARIATION_FOR} {', '.join(undefined)}"
        )
    if in_float:
        parts.append(f"{NO_VARIATION_FOR} {', '.join(in_float)} after conversion to float64")
    for name, note in (precision or {}).items():
        text = precision_note(note)
        if text is not None:
            parts.append(f"{name}: {text}")
    return "; ".join(parts) if parts else None


def chance_reason(state: ChanceState) -> str | None:
    """The sentence of a chance-corrected coefficient's state (None when it is defined).

    Examples
    --------
    >>> chance_reason(ChanceState.CHANCE_IS_ONE)
    'chance agreement is 1 (every rating falls in one category): the coefficient is undefined'
    """
    if state == ChanceState.CHANCE_IS_ONE:
        return (
            "chance agreement is 1 (every rating falls in one category): the coefficient is "
            "undefined"
        )
    if state == ChanceState.NO_SHARED_CATEGORY:
        return "the two coders never used the same category: every rectangle is empty"
    if state == ChanceState.NO_PAIR_DEFINED:
        return "every pair of coders has chance agreement 1: no pairwise kappa is defined"
    return None


def bootstrap_reason(
    state: BootstrapState, n_boot: int, n_undefined: int, value: float
) -> str | None:
    """The sentence of a bootstrap distribution's state (None when it spreads and is whole).

    ``value`` is the replicates' one value when they have no spread; ``n_undefined`` the
    resamples without expected disagreement, left out of the interval.

    Examples
    --------
    >>> bootstrap_reason(BootstrapState.NO_SPREAD, 100, 0, 0.5)
    'all 100 replicates equal 0.5: the bootstrap distribution has no spread; the interval is ...'
    """
    parts = []
    n_valid = n_boot - n_undefined
    if state in (BootstrapState.ALL_AGREE, BootstrapState.NO_SPREAD):
        parts.append(
            f"all {n_valid} replicates equal {value:g}: "
            + (
                "every pairable value agrees, so resampling has no disagreement to vary; "
                "the interval is degenerate"
                if state is BootstrapState.ALL_AGREE
                else "the bootstrap distribution has no spread; the interval is degenerate"
            )
        )
    if state is BootstrapState.NONE_DEFINED:
        parts.append(f"none of the {n_boot} resamples had expected disagreement: no interval")
    elif n_undefined:
        parts.append(
            f"{n_undefined} of {n_boot} resamples had no expected disagreement "
            "(all values the same) and are left out of the interval"
        )
    return "; ".join(parts) or None
