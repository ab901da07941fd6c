r"""Association between two annotators' set-valued annotations: Dice and weighted Dice.

For two annotators who each mark a set of items in the same units (for example the
summary content units, SCUs, that each finds in a peer summary), count over the units
both annotated

* :math:`a`: items both found,
* :math:`b`: items only the first found,
* :math:`c`: items only the second found,

and report :math:`\mathrm{Dice} = 2a / (2a + b + c)`. In the weighted Dice every item
carries a weight (an SCU's weight: how many model summaries express it) and :math:`a, b,
c` are sums of weights (Passonneau 2005, section 3.1). Dice is an association measure: it is
not corrected for chance (use :func:`pandas_agree.alpha` with ``distance="dice"``,
``"weighted_dice"`` or ``"masi"`` for chance-corrected reliability).

References
----------
Dice, L. R. (1945). Measures of the amount of ecologic association between species.
Ecology 26(3), 297-302.

Passonneau, R. (2005). Evaluating an Evaluation Method: The Pyramid Method Applied to 2003
Document Understanding Conference (DUC) Data. Columbia University, section 3.1, Table 2.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._core.agreement import paired_codes
from .._core.kernels import SetKernel
from ..data.categorical import check_known, rated_coders
from ..data.prepare import CodedData, check_columns, prepare
from ..declare import declared
from ..errors import (
    ColumnNotFoundError,
    DegenerateDataWarning,
    InvalidParameterError,
    NoPairableUnitsError,
    user_stacklevel,
)
from ..krippendorff.alpha import check_distance, make_kernel
from ..results import Result

__all__ = ["DiceResult", "dice_association"]

WeightSpec = None | Mapping[Hashable, float] | pd.Series | Callable[[Any], float] | Hashable


@dataclass(frozen=True)
class DiceResult(Result):
    """Dice association between two annotators, pooled over the units both annotated.

    Attributes
    ----------
    dice : float
        ``2a / (2a + b + c)``; NaN when neither annotator marked any item (see ``reason``).
    a, b, c : float
        Items (or weights) both found, only the first found, only the second found.
    n_units : int
        Units annotated by both.
    coders : tuple
        The two annotators, first then second.
    weighted : bool
        Whether ``a``, ``b``, ``c`` are sums of item weights.
    reason : str or None
        Why ``dice`` is NaN, when it is.
    by_unit : pandas.Series
        Dice of each unit (NaN where both sets are empty). Passonneau (2005), Table 2,
        averages such per-unit (per-peer) values: ``result.by_unit.mean()``.
    """

    dice: float
    a: float
    b: float
    c: float
    n_units: int
    coders: tuple[Hashable, Hashable]
    weighted: bool = False
    reason: str | None = None
    by_unit: pd.Series | None = field(default=None, repr=False, compare=False)

    _headline = "dice"
    _series_fields = ("dice", "a", "b", "c", "n_units", "weighted", "reason")

    @property
    def _series_name(self) -> str:
        return "weighted_dice" if self.weighted else "dice"

    def __repr__(self) -> str:
        kind = self._series_name
        extra = f", reason={self.reason!r}" if self.reason else ""
        return (
            f"DiceResult({kind}={self.dice:.4f}, a={self.a:g}, b={self.b:g}, c={self.c:g}, "
            f"n_units={self.n_units}, coders={self.coders!r}{extra})"
        )


def _pair(coded: CodedData, coders: Sequence[Hashable] | None) -> tuple[int, int]:
    known = rated_coders(coded)
    if coders is None:
        if len(known) != 2:
            raise InvalidParameterError(
                f"dice_association compares two annotators, but the data have {len(known)}: "
                f"{known[:10]}; pass coders=(a, b) to pick two"
            )
        chosen = known
    else:
        if isinstance(coders, (str, bytes)) or not hasattr(coders, "__iter__"):
            raise InvalidParameterError(f"`coders` must be a pair of coder labels, got {coders!r}")
        chosen = list(coders)
        check_known(chosen, known)
        if len(chosen) != 2 or chosen[0] == chosen[1]:
            raise InvalidParameterError(
                f"`coders` must name exactly two different coders, got {chosen}"
            )
    return int(coded.coders.get_loc(chosen[0])), int(coded.coders.get_loc(chosen[1]))


def _weights_from_column(
    data: pd.DataFrame, value: Hashable, column: Hashable
) -> dict[Hashable, float]:
    """Item -> weight from a column giving each row's item(s) their weight."""
    vals = data[value]
    present = ~pd.isna(vals).to_numpy()
    w = data[column].to_numpy()[present]
    items = vals.to_numpy(dtype=object)[present]
    out: dict[Hashable, float] = {}
    for item, weight in zip(items, w):
        elements = item if isinstance(item, (set, frozenset, list, tuple)) else (item,)
        try:
            weight = float(weight)
        except (TypeError, ValueError):
            raise InvalidParameterError(
                f"`weights` column {column!r} must hold numbers, got {weight!r}"
            ) from None
        if not np.isfinite(weight):
            raise InvalidParameterError(
                f"`weights` column {column!r} has a missing or infinite weight for {item!r}"
            )
        for e in elements:
            old = out.setdefault(e, weight)
            if old != weight:
                raise InvalidParameterError(
                    f"`weights` column {column!r} gives item {e!r} two weights: {old!r} and "
                    f"{weight!r}; an item must have one weight"
                )
    return out


def _resolve_weights(data: pd.DataFrame, value: Hashable, weights: WeightSpec) -> Any:
    if weights is None or callable(weights) or isinstance(weights, (Mapping, pd.Series)):
        return weights
    try:
        is_column = weights in data.columns
    except TypeError:
        is_column = False
    if not is_column:
        raise ColumnNotFoundError(
            f"`weights` must be a mapping item -> weight, a callable or a column name; "
            f"{weights!r} is not a column of the DataFrame (its columns are {list(data.columns)})"
        )
    if weights == value:
        raise InvalidParameterError(
            f"`weights` column must differ from the `value` column {value!r}"
        )
    return _weights_from_column(data, value, weights)


@declared(defaults={"on_duplicate": "union"})
def dice_association(
    data: pd.DataFrame, coders, weights: WeightSpec = None, *, unit, coder, value, on_duplicate
) -> DiceResult:
    r"""Dice association of two annotators' item sets, pooled over units; weighted on request.

    .. math::

        \mathrm{Dice} = \frac{2a}{2a + b + c}, \qquad
        a = \sum_u w(A_u \cap B_u), \quad b = \sum_u w(A_u \setminus B_u), \quad
        c = \sum_u w(B_u \setminus A_u)

    over the units :math:`u` both annotators annotated, with :math:`A_u, B_u` their sets
    and :math:`w(S)` the number of items of :math:`S` (unweighted) or the sum of their weights
    (Passonneau 2005, section 3.1). Pooling makes units with more items count more; the
    per-unit values are in ``result.by_unit``.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. A value is a set of items (set, frozenset, list, tuple) or a single item.
        By default several rows for one (unit, annotator) are merged into one set, so data
        with one row per found item works as is. An empty set is an annotation that found
        nothing; a missing value (NaN, None) is no annotation. Not modified.
    coders : pair of labels, optional
        The two annotators, ``(first, second)``; required when there are more than two.
    weights : mapping, pandas.Series, callable or column name, optional
        Item weights (for example SCU weights) for the weighted Dice: a mapping or Series
        item -> weight, a callable item -> weight, or the name of a column of ``data`` that
        gives each row's item(s) their weight (an item must get one weight throughout).
        Weights must be positive.
    on_duplicate : {"raise", "first", "last", "union"}, default "union"
        Several rows of one unit by one annotator: the union of their values as one set
        (data with one row per found item), an error, or the first or last row (see
        :func:`pandas_agree.data.prepare.prepare`).

    Returns
    -------
    DiceResult
        ``float(result)`` is the pooled Dice.

    Raises
    ------
    NoPairableUnitsError
        When the two annotators share no unit.
    InvalidParameterError, ColumnNotFoundError
        Bad ``coders`` or ``weights``.

    See Also
    --------
    pandas_agree.alpha : with ``distance="weighted_dice"`` and ``weights=`` for
        chance-corrected reliability on the same data.

    References
    ----------
    Dice (1945); Passonneau (2005), section 3.1 and Table 2.

    Examples
    --------
    Two annotators find SCUs in two peer summaries. In peer 1 both find ``s1`` and only the
    first finds ``s2``; in peer 2 both find ``s3`` and only the second finds ``s4``: a = 2,
    b = c = 1, Dice = 4/6. With SCU weights s1: 4, s2: 1, s3: 3, s4: 1 the weighted Dice is
    2 * 7 / (2 * 7 + 1 + 1) = 0.875.

    >>> import pandas as pd
    >>> from pandas_agree.tasks.association import dice_association
    >>> df = pd.DataFrame({
    ...     "unit": ["p1", "p1", "p2", "p2"],
    ...     "coder": ["A", "B", "A", "B"],
    ...     "value": [{"s1", "s2"}, {"s1"}, {"s3"}, {"s3", "s4"}],
    ... })
    >>> dice_association(df)
    DiceResult(dice=0.6667, a=2, b=1, c=1, n_units=2, coders=('A', 'B'))
    >>> float(dice_association(df, weights={"s1": 4, "s2": 1, "s3": 3, "s4": 1}))
    0.875
    """
    check_columns(data, unit=unit, coder=coder, value=value)
    element_weights = _resolve_weights(data, value, weights)
    coded = prepare(
        data, unit=unit, coder=coder, value=value, on_duplicate=on_duplicate, scalars_as_sets=True
    )
    first, second = _pair(coded, coders)
    ca, cb, both = paired_codes(
        coded.unit_codes, coded.coder_codes, coded.value_codes, len(coded.units), first, second
    )
    names = (coded.coders[first], coded.coders[second])
    if not both.any():
        raise NoPairableUnitsError(
            f"annotators {names[0]!r} and {names[1]!r} annotated no unit in common, so there is "
            "nothing to compare"
        )
    # The Dice set kernel of alpha owns the set arithmetic: (weighted) sizes, intersections.
    kernel = make_kernel(check_distance("dice"), coded, element_weights)
    if not isinstance(kernel, SetKernel):  # pragma: no cover - Dice is 1 on disjoint sets
        raise TypeError(f"expected the Dice set kernel, got {type(kernel).__name__}")
    inter = kernel.intersections(ca, cb)
    size_a, size_b = kernel.sizes[ca], kernel.sizes[cb]
    a = float(inter.sum())
    b = float((size_a - inter).sum())
    c = float((size_b - inter).sum())
    total = size_a + size_b
    per_unit = np.divide(2.0 * inter, total, out=np.full(total.size, np.nan), where=total > 0)
    by_unit = pd.Series(per_unit, index=coded.units[both].rename("unit"), name="dice")
    reason = None
    if 2 * a + b + c > 0:
        dice = 2.0 * a / (2.0 * a + b + c)
    else:
        dice = float("nan")
        reason = "neither annotator marked any item in the shared units: Dice is undefined"
        warnings.warn(f"dice is NaN: {reason}", DegenerateDataWarning, stacklevel=user_stacklevel())
    return DiceResult(
        dice=float(dice),
        a=a,
        b=b,
        c=c,
        n_units=int(both.sum()),
        coders=names,
        weighted=weights is not None,
        reason=reason,
        by_unit=by_unit,
    )
