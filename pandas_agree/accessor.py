"""``DataFrame.agree``: an adapter that forwards to the plain functions. No statistics here."""

from __future__ import annotations

from typing import Any

import pandas as pd

from . import reliability
from . import report as _report

__all__ = ["AgreeAccessor"]


@pd.api.extensions.register_dataframe_accessor("agree")
class AgreeAccessor:
    """Agreement statistics on long data: ``df.agree.alpha(distance="masi")``.

    Every method takes ``unit=``, ``coder=``, ``value=`` column names (defaults ``"unit"``,
    ``"coder"``, ``"value"``) and forwards to the function of the same name in
    :mod:`pandas_agree`, with the frame as first argument. The frame is never modified.

    Examples
    --------
    >>> import pandas_agree as pa
    >>> df = pa.datasets.krippendorff_2011()
    >>> round(df.agree.alpha("interval").alpha, 3)
    0.849
    """

    def __init__(self, obj: pd.DataFrame) -> None:
        self._obj = obj

    def alpha(self, distance: Any = "nominal", **kwargs: Any) -> reliability.AlphaResult:
        """Krippendorff's alpha; see :func:`pandas_agree.alpha`."""
        return reliability.alpha(self._obj, distance, **kwargs)

    def matrix(self, **kwargs: Any) -> pd.DataFrame:
        """Reliability matrix, coders x units; see :func:`pandas_agree.matrix`."""
        return reliability.matrix(self._obj, **kwargs)

    def coincidences(self, **kwargs: Any) -> Any:
        """Coincidence matrix, values x values; see :func:`pandas_agree.coincidences`."""
        return reliability.coincidences(self._obj, **kwargs)

    def values_by_units(self, **kwargs: Any) -> pd.DataFrame:
        """Values x units counts; see :func:`pandas_agree.values_by_units`."""
        return reliability.values_by_units(self._obj, **kwargs)

    def report(self, distance: Any = "nominal", by: Any = None, **kwargs: Any) -> pd.DataFrame:
        """Alpha per group for several distances; see :func:`pandas_agree.report`."""
        return _report.report(self._obj, distance, by, **kwargs)
