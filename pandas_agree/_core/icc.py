r"""Intraclass correlations of Shrout & Fleiss (1979) from a complete targets x judges matrix.

Numpy and scipy only. With :math:`n` targets (units) rated by the same :math:`k` judges
(coders), the two-way analysis of variance gives the mean squares

* between targets :math:`BMS = k \sum_i (\bar x_{i\cdot} - \bar x)^2 / (n - 1)`,
* within targets :math:`WMS = \sum_{ij} (x_{ij} - \bar x_{i\cdot})^2 / (n (k - 1))`,
* between judges :math:`JMS = n \sum_j (\bar x_{\cdot j} - \bar x)^2 / (k - 1)`,
* residual :math:`EMS = (SS_W - (k - 1) JMS) / ((n - 1)(k - 1))`,

and the six forms of Shrout & Fleiss' Table 1 (single and average measures):

* ICC(1,1) = (BMS - WMS) / (BMS + (k - 1) WMS),  ICC(1,k) = (BMS - WMS) / BMS;
* ICC(2,1) = (BMS - EMS) / (BMS + (k - 1) EMS + k (JMS - EMS) / n),
  ICC(2,k) = (BMS - EMS) / (BMS + (JMS - EMS) / n);
* ICC(3,1) = (BMS - EMS) / (BMS + (k - 1) EMS),  ICC(3,k) = (BMS - EMS) / BMS.

Confidence intervals: the F-based intervals of Shrout & Fleiss (1979, section 5) for ICC(1)
and ICC(3), and for ICC(2) the Satterthwaite approximation of the same paper (their
equations for :math:`v`, :math:`F^*`), as McGraw & Wong (1996, Table 7) restate them; the
average-measure intervals follow from the single-measure ones by Spearman-Brown for ICC(2)
and from the same F bounds for ICC(1) and ICC(3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["FORMS", "MeanSquares", "icc_table", "mean_squares"]

#: The six forms, in Shrout & Fleiss' order.
FORMS = ("1,1", "2,1", "3,1", "1,k", "2,k", "3,k")


@dataclass(frozen=True)
class MeanSquares:
    """The mean squares of the two-way layout and its size."""

    bms: float
    wms: float
    jms: float
    ems: float
    n: int
    k: int


def mean_squares(x: np.ndarray) -> MeanSquares:
    """Mean squares of a complete ``n x k`` matrix (targets x judges) of floats.

    Examples
    --------
    Shrout & Fleiss (1979), Table 2: BMS 11.24, WMS 6.26, JMS 32.49, EMS 1.02.

    >>> import numpy as np
    >>> x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6],
    ...               [10, 5, 6, 9], [6, 2, 4, 7]], dtype=float)
    >>> ms = mean_squares(x)
    >>> [round(v, 2) for v in (ms.bms, ms.wms, ms.jms, ms.ems)]
    [11.24, 6.26, 32.49, 1.02]
    """
    n, k = x.shape
    grand = x.mean()
    rows = x.mean(axis=1)
    cols = x.mean(axis=0)
    ss_between = k * np.sum((rows - grand) ** 2)
    ss_within = np.sum((x - rows[:, None]) ** 2)
    ss_judges = n * np.sum((cols - grand) ** 2)
    ss_error = ss_within - ss_judges
    return MeanSquares(
        bms=float(ss_between / (n - 1)),
        wms=float(ss_within / (n * (k - 1))),
        jms=float(ss_judges / (k - 1)),
        ems=float(ss_error / ((n - 1) * (k - 1))),
        n=n,
        k=k,
    )


def _f_bounds(f0: float, df1: float, df2: float, level: float) -> tuple[float, float]:
    """Lower and upper bounds of an observed F ratio at confidence ``level``."""
    tail = (1 + level) / 2
    return f0 / stats.f.ppf(tail, df1, df2), f0 * stats.f.ppf(tail, df2, df1)


def _interval_end(b1: float, b2: float, b3: float, k: int) -> np.ndarray:
    """One end (lower or upper) of the six forms' intervals, in the order of :data:`FORMS`.

    ``b1`` and ``b3`` are that end of the F ratio's interval for ICC(1) and ICC(3), ``b2``
    that end of ICC(2,1)'s interval itself; the average-of-k forms follow by Spearman-Brown.
    """
    return np.array(
        [
            (b1 - 1) / (b1 + k - 1),
            b2,
            (b3 - 1) / (b3 + k - 1),
            1 - 1 / b1,
            k * b2 / (1 + (k - 1) * b2),
            1 - 1 / b3,
        ]
    )


def icc_table(ms: MeanSquares, level: float = 0.95) -> dict[str, np.ndarray]:
    """The six ICC forms with their F tests and confidence intervals.

    Returns
    -------
    dict of ndarray
        ``icc``, ``f``, ``df1``, ``df2``, ``p_value``, ``ci_low``, ``ci_high``, one element
        per form of :data:`FORMS`. The F test is of the null hypothesis ICC = 0.
    """
    bms, wms, jms, ems, n, k = ms.bms, ms.wms, ms.jms, ms.ems, ms.n, ms.k
    with np.errstate(divide="ignore", invalid="ignore"):
        icc1 = (bms - wms) / (bms + (k - 1) * wms)
        icc2 = (bms - ems) / (bms + (k - 1) * ems + k * (jms - ems) / n)
        icc3 = (bms - ems) / (bms + (k - 1) * ems)
        icc1k = (bms - wms) / bms
        icc2k = (bms - ems) / (bms + (jms - ems) / n)
        icc3k = (bms - ems) / bms
        df_w, df_e = n * (k - 1), (n - 1) * (k - 1)
        f1, f3 = bms / wms, bms / ems
        lo1, hi1 = _f_bounds(f1, n - 1, df_w, level)
        lo3, hi3 = _f_bounds(f3, n - 1, df_e, level)
        # ICC(2,1): Satterthwaite's degrees of freedom for the denominator.
        a = k * icc2 / (n * (1 - icc2))
        b = 1 + k * icc2 * (n - 1) / (n * (1 - icc2))
        v = (a * jms + b * ems) ** 2 / ((a * jms) ** 2 / (k - 1) + (b * ems) ** 2 / df_e)
        tail = (1 + level) / 2
        f_star = stats.f.ppf(tail, n - 1, v)
        f_star2 = stats.f.ppf(tail, v, n - 1)
        lo2 = n * (bms - f_star * ems) / (f_star * (k * jms + (k * n - k - n) * ems) + n * bms)
        hi2 = n * (f_star2 * bms - ems) / (k * jms + (k * n - k - n) * ems + n * f_star2 * bms)
        icc = np.array([icc1, icc2, icc3, icc1k, icc2k, icc3k], dtype=float)
        # ICC(2) is tested by the F ratio of ICC(3) (Shrout & Fleiss 1979, section 5).
        f = np.array([f1, f3, f3, f1, f3, f3], dtype=float)
        df1 = np.full(6, n - 1, dtype=float)
        df2 = np.array([df_w, df_e, df_e, df_w, df_e, df_e], dtype=float)
        low = _interval_end(lo1, lo2, lo3, k)
        high = _interval_end(hi1, hi2, hi3, k)
    p_value = stats.f.sf(f, df1, df2)
    return {
        "icc": icc,
        "f": f,
        "df1": df1,
        "df2": df2,
        "p_value": p_value,
        "ci_low": low,
        "ci_high": high,
    }
