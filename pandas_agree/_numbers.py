"""Numbers from users' arguments, checked: finite floats, float arrays, labelled matrices.

The conversions that several public functions share (thresholds, tables of counts, weight
matrices, scores, the values a user's distance returns), each raising
:class:`~pandas_agree.errors.InvalidParameterError` that names the argument.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import InvalidParameterError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["finite_float", "float_array", "labelled_matrix"]


def finite_float(x: Any, name: str) -> float:
    """``x`` as a finite float; :class:`InvalidParameterError` naming ``name`` otherwise.

    Examples
    --------
    >>> finite_float("0.8", "high")
    0.8
    """
    try:
        out = float(x)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"`{name}` must be a number, got {x!r}") from None
    if not np.isfinite(out):
        raise InvalidParameterError(f"`{name}` must be finite, got {x!r}")
    return out


def float_array(values: Any, message: Callable[[], str]) -> np.ndarray:
    """``values`` as an array of floats.

    Raises :class:`InvalidParameterError` with ``message()`` when they are not numbers; the
    message is made only then (it may show a large argument).

    Examples
    --------
    >>> float_array([1, 2], lambda: "unused").tolist()
    [1.0, 2.0]
    >>> float_array(["x"], lambda: "`x` must hold numbers")
    Traceback (most recent call last):
    ...
    pandas_agree.errors.InvalidParameterError: `x` must hold numbers
    """
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameterError(message()) from None


def labelled_matrix(
    frame: pd.DataFrame,
    categories: Sequence[Hashable],
    name: str,
    *,
    noun: tuple[str, str] = ("category", "categories"),
) -> np.ndarray:
    """The square matrix of ``frame`` over ``categories``: rows and columns in their order.

    ``name`` is the argument as the messages show it (```weights```), ``noun`` what the
    messages call one category and several (``("label", "labels")``). Raises
    :class:`InvalidParameterError` when a category has no row or column in ``frame``, or a
    cell is not a number; the messages list at most 20 categories and show the first bad
    cell, never the whole frame. A missing cell of a nullable column (``pd.NA``) is NaN in
    the matrix, for the caller's range check to report.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame([[1, 0], [0, 1]], index=["a", "b"], columns=["b", "a"])
    >>> labelled_matrix(frame, ["a", "b"], "`m`").tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    >>> labelled_matrix(frame, ["a", "c"], "`m`", noun=("label", "labels"))
    Traceback (most recent call last):
    ...
    pandas_agree.errors.InvalidParameterError: `m` DataFrame has no row or column for labels
    ['c']; its index and columns must hold every label of ['a', 'c']
    """
    one, several = noun
    categories = list(categories)
    missing = [c for c in categories if c not in frame.index or c not in frame.columns]
    if missing:
        raise InvalidParameterError(
            f"{name} DataFrame has no row or column for {several} {_listed(missing, 5)}; its "
            f"index and columns must hold every {one} of {_listed(categories, 20)}"
        )
    cells = frame.loc[categories, categories]
    try:
        return cells.to_numpy(dtype=float, na_value=np.nan)
    except (TypeError, ValueError):
        where = _first_bad(cells)
        raise InvalidParameterError(f"{name} DataFrame must hold numbers{where}") from None


def _listed(values: list[Any], most: int) -> str:
    """``values`` as a list's repr, cut after ``most`` of them (``, ...]`` then)."""
    if len(values) <= most:
        return repr(values)
    return repr(values[:most])[:-1] + ", ...]"


def _first_bad(cells: pd.DataFrame) -> str:
    """``"; (row, column) holds <cell>"`` for the first cell of ``cells`` that is no number."""
    for i, row in enumerate(cells.index):
        for j, column in enumerate(cells.columns):
            cell = cells.iat[i, j]
            try:
                float(cell)
            except (TypeError, ValueError):
                return f"; ({row!r}, {column!r}) holds {cell!r}"
    return ""
