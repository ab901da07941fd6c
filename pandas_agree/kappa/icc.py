"""Intraclass correlations (Shrout & Fleiss 1979) on long data: one number per form.

The formulas are in :mod:`pandas_agree._core.icc`; this module checks and reshapes the long
data into the complete targets x judges matrix they need.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from .._core.icc import FORMS, icc_table, mean_squares
from ..data.prepare import prepare
from ..declare import declared
from ..errors import InvalidParameterError, NoPairableUnitsError, ValueTypeError
from ..results import Result, snapshot

__all__ = ["ICCResult", "icc"]

Form = Literal["1,1", "2,1", "3,1", "1,k", "2,k", "3,k"]


@dataclass(frozen=True)
class ICCResult(Result):
    """An intraclass correlation and the table of all six forms.

    Attributes
    ----------
    icc : float
        The correlation of the requested ``form``.
    form : str
        ``"1,1"``, ``"2,1"``, ``"3,1"`` (one judge) or ``"1,k"``, ``"2,k"``, ``"3,k"`` (the
        mean of the k judges).
    ci_low, ci_high : float
        Its confidence interval at ``level``.
    level : float
        Confidence level of the intervals.
    n_units, n_coders : int
        Targets and judges of the complete matrix used.
    n_dropped : int
        Units left out for missing ratings (``missing="drop"``).
    table : pandas.DataFrame
        One row per form (index ``ICC(1,1)`` ... ``ICC(3,k)``): ``icc``, ``f``, ``df1``,
        ``df2``, ``p_value``, ``ci_low``, ``ci_high``.
    """

    icc: float
    form: str
    ci_low: float
    ci_high: float
    level: float
    n_units: int
    n_coders: int
    n_dropped: int
    table: pd.DataFrame = field(repr=False)

    _headline = "icc"
    _series_fields = ("icc", "ci_low", "ci_high", "level", "n_units", "n_coders", "n_dropped")

    @property
    def _series_name(self) -> str:
        return f"ICC({self.form})"

    def __repr__(self) -> str:
        return (
            f"ICCResult(icc={self.icc:.4f}, form={self.form!r}, "
            f"ci=({self.ci_low:.4f}, {self.ci_high:.4f}), n_units={self.n_units}, "
            f"n_coders={self.n_coders})"
        )

    @property
    def reason(self) -> str | None:
        """The units left out for missing ratings, in words (None when none were)."""
        if self.n_dropped:
            return f"{self.n_dropped} unit(s) with missing ratings left out (missing='drop')"
        return None

    def to_frame(self) -> pd.DataFrame:
        """The six forms, one row each (a copy of ``table``)."""
        return self.table.copy()


def _matrix(
    data: pd.DataFrame,
    missing: str,
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
    on_duplicate: str,
) -> tuple[np.ndarray, int]:
    """The complete units x coders matrix of numbers, and how many units were dropped."""
    coded = prepare(data, unit=unit, coder=coder, value=value, on_duplicate=on_duplicate)
    if coded.is_set or not (
        pd.api.types.is_numeric_dtype(coded.values.dtype)
        and not pd.api.types.is_bool_dtype(coded.values.dtype)
    ):
        raise ValueTypeError(
            f"`value` column {value!r} must hold numbers for an intraclass correlation, got "
            f"values of dtype {coded.values.dtype} such as {list(coded.values[:3])}"
        )
    n_u, n_c = len(coded.units), len(coded.coders)
    x = np.full((n_u, n_c), np.nan)
    x[coded.unit_codes, coded.coder_codes] = coded.values.to_numpy(dtype=float)[coded.value_codes]
    rated = np.isfinite(x).any(axis=0)
    x = x[:, rated]  # a coder with no rating at all is not a judge of this design
    complete = np.isfinite(x).all(axis=1)
    n_dropped = int((~complete & np.isfinite(x).any(axis=1)).sum())
    if n_dropped and missing == "raise":
        first = coded.units[np.flatnonzero(~complete & np.isfinite(x).any(axis=1))[0]]
        raise InvalidParameterError(
            f"the intraclass correlation needs every coder's rating of every unit; "
            f"{n_dropped} unit(s) lack some, the first is {first!r}. Pass missing='drop' to "
            "leave those units out"
        )
    return x[complete], n_dropped


@declared(coefficient=True, report_defaults={"missing": "drop"})
def icc(
    data: pd.DataFrame,
    form: Form = "2,1",
    *,
    missing: Literal["raise", "drop"] = "raise",
    level: float = 0.95,
    unit, coder, value, on_duplicate,
) -> ICCResult:
    r"""Intraclass correlation of Shrout & Fleiss (1979): ICC(1,1) ... ICC(3,k).

    Every unit (target) is rated by the same ``k`` coders (judges) on an interval scale.
    The forms differ in their model (Shrout & Fleiss 1979, Table 1):

    * ``"1,1"``: each target rated by a different random set of judges (one-way random);
    * ``"2,1"``: a random sample of judges rates every target (two-way random, absolute
      agreement: judges' mean differences count against agreement);
    * ``"3,1"``: these judges only (two-way mixed, consistency: a judge's constant offset
      does not count);
    * ``"1,k"``, ``"2,k"``, ``"3,k"``: the same for the mean of the ``k`` judges.

    See :mod:`pandas_agree._core.icc` for the formulas.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data with numeric values. Not modified.
    form : {"1,1", "2,1", "3,1", "1,k", "2,k", "3,k"}, default "2,1"
        The form of ``float(result)`` and ``result.icc``; ``result.table`` holds all six.
    missing : {"raise", "drop"}, default "raise"
        A unit that some coder did not rate: an error, or left out (counted in
        ``n_dropped``). The analysis of variance needs a complete design. In
        ``report(coefficients=["icc"])`` such units are left out and ``reason`` counts them.
    level : float, default 0.95
        Confidence level of the intervals.

    Returns
    -------
    ICCResult
        ``float(result)`` is the ICC of ``form``.

    Raises
    ------
    InvalidParameterError
        An unknown ``form``, ``missing`` or a ``level`` outside (0, 1); missing ratings
        with ``missing="raise"``.
    ValueTypeError
        Values that are not numbers.
    NoPairableUnitsError
        Fewer than two complete units or two coders.

    References
    ----------
    Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
    reliability. Psychological Bulletin 86(2), 420-428.

    McGraw, K. O. & Wong, S. P. (1996). Forming inferences about some intraclass
    correlation coefficients. Psychological Methods 1(1), 30-46.

    Examples
    --------
    Shrout & Fleiss (1979), Table 2 (six targets, four judges); their Table 4 gives .17,
    .29, .71, .44, .62, .91 (pingouin's ``intraclass_corr`` gives the same):

    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6],
    ...            [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> df = pd.DataFrame([(t, j, r) for t, row in enumerate(ratings, 1)
    ...                    for j, r in enumerate(row, 1)], columns=["unit", "coder", "value"])
    >>> res = pa.icc(df, "2,1")
    >>> res
    ICCResult(icc=0.2898, form='2,1', ci=(0.0188, 0.7611), n_units=6, n_coders=4)
    >>> res.table["icc"].round(2).tolist()
    [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    """
    if form not in FORMS:
        raise InvalidParameterError(f"`form` must be one of {list(FORMS)}, got {form!r}")
    if missing not in ("raise", "drop"):
        raise InvalidParameterError(f"`missing` must be one of ['raise', 'drop'], got {missing!r}")
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise InvalidParameterError(f"`level` must be a number in (0, 1), got {level!r}")
    x, n_dropped = _matrix(data, missing, unit, coder, value, on_duplicate)
    n, k = x.shape
    if n < 2 or k < 2:
        raise NoPairableUnitsError(
            f"the intraclass correlation needs at least two complete units and two coders; "
            f"got {n} unit(s) and {k} coder(s)"
        )
    out = icc_table(mean_squares(x), float(level))
    table = pd.DataFrame(out, index=pd.Index([f"ICC({f})" for f in FORMS], name="form"))
    row = FORMS.index(form)
    return ICCResult(
        icc=float(out["icc"][row]),
        form=form,
        ci_low=float(out["ci_low"][row]),
        ci_high=float(out["ci_high"][row]),
        level=float(level),
        n_units=n,
        n_coders=k,
        n_dropped=n_dropped,
        table=snapshot(table),
    )
