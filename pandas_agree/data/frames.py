"""The check of a frame argument that must hold data: a pandas DataFrame, not empty.

Used where a function takes a table that is not long data (a report to plot, pyramid
scores); long data go through :func:`pandas_agree.data.prepare.check_columns`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..errors import InvalidParameterError, ValueTypeError

__all__ = ["nonempty_frame"]


def nonempty_frame(frame: Any, name: str) -> pd.DataFrame:
    """``frame``, when it is a pandas DataFrame with rows and columns; raise naming ``name``.

    Examples
    --------
    >>> import pandas as pd
    >>> nonempty_frame(pd.DataFrame({"a": []}), "scores")
    Traceback (most recent call last):
    ...
    pandas_agree.errors.InvalidParameterError: `scores` is empty (shape (0, 1))
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueTypeError(f"`{name}` must be a pandas DataFrame, got {type(frame).__name__}")
    if frame.empty:
        raise InvalidParameterError(f"`{name}` is empty (shape {frame.shape})")
    return frame
