"""The base of every result object (:class:`Result`), and alpha's result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from ._core.states import AlphaState, ResultState
from .errors import InvalidParameterError, ValueTypeError

if TYPE_CHECKING:
    import numpy as np

    from ._core.counts import UnitValueCounts
    from ._core.kernels import Kernel
    from .data.prepare import CodedData
    from .krippendorff.bootstrap import AlphaBootstrap, ConfidenceInterval

__all__ = ["AlphaFit", "AlphaResult", "AlphaState", "Result", "fitted", "snapshot"]


class Result:
    """Base of every result: a frozen dataclass with ``float()``, ``to_frame()``, ``state``.

    A subclass is a ``@dataclass(frozen=True)`` that names

    * ``_headline``: the field ``float(result)`` returns (None: the result has no one number);
    * ``_series_fields``: the scalar fields of :meth:`to_series`, in order, and its name
      (``_series_name``: a class attribute, or a property when it depends on the result);
    * ``state``: what the computation found, as a code (an enum whose ``DEFINED`` member is 0),
      for programs to test; the default is :class:`~pandas_agree._core.states.ResultState`
      derived from the headline and ``reason``;
    * ``reason``: the same for people: a sentence, or None when there is nothing to say;
    * for the short repr (with ``repr=False`` in its ``@dataclass``): ``_shown``, the fields
      it shows, and ``_notes``, those shown only when set (default: ``reason``).

    :meth:`to_frame` is one row of :meth:`to_series` unless the result holds a table.
    """

    _headline: ClassVar[str | None] = None
    _series_fields: ClassVar[tuple[str, ...]] = ()
    _series_name: ClassVar[Any] = None
    _shown: ClassVar[tuple[str, ...]] = ()
    _notes: ClassVar[tuple[str, ...]] = ("reason",)

    def __float__(self) -> float:
        if self._headline is None:
            raise TypeError(f"{type(self).__name__} has no single number; see to_frame()")
        return float(getattr(self, self._headline))

    def __getattr__(self, name: str) -> Any:
        # The defaults of ``reason`` and ``state`` for results that do not define them (kept
        # out of the class namespace, where a dataclass would take them for field defaults).
        if name == "reason":
            return None
        if name == "state":
            if self._headline is not None:
                value = getattr(self, self._headline)
                if isinstance(value, float) and value != value:
                    return ResultState.UNDEFINED
            return ResultState.NOTED if self.reason else ResultState.DEFINED
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def to_series(self) -> pd.Series:
        """The scalar fields as a :class:`pandas.Series` of object dtype.

        The name says what was computed: the distance of an alpha, the method of a
        coefficient, the kind of result otherwise.
        """
        return pd.Series(
            {name: getattr(self, name) for name in self._series_fields},
            name=self._series_name,
            dtype=object,
        )

    def to_frame(self) -> pd.DataFrame:
        """The result as a table: here one row, the scalar fields of :meth:`to_series`."""
        return self.to_series().to_frame().T

    def __repr__(self) -> str:
        return self._repr()

    def _repr(self, head: str = "") -> str:
        """``Name(head, fields, notes)``: ``head`` (a headline the subclass formats, if
        any), then each field of :attr:`_shown` (``"name"``, ``"name:format spec"`` or
        ``"name!r"``), then each of :attr:`_notes` that is set, as its repr."""
        parts = [head] if head else []
        for spec in self._shown:
            name, _, fmt = spec.partition(":")
            if name.endswith("!r"):
                name = name[:-2]
                parts.append(f"{name}={getattr(self, name)!r}")
            else:
                parts.append(f"{name}={format(getattr(self, name), fmt)}")
        parts += [f"{name}={getattr(self, name)!r}" for name in self._notes if getattr(self, name)]
        return f"{type(self).__name__}({', '.join(parts)})"


def snapshot(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` that later changes to ``frame`` cannot reach.

    Under pandas' copy-on-write (the default from pandas 3) a shallow copy is such a copy
    and costs nothing until one side is modified; older pandas gets a deep copy.

    Examples
    --------
    >>> df = pd.DataFrame({"x": [1, 2]})
    >>> kept = snapshot(df)
    >>> df.loc[0, "x"] = 9
    >>> kept["x"].tolist()
    [1, 2]
    """
    return frame.copy(deep=not _COPY_ON_WRITE)


_COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3 or bool(
    getattr(pd.options.mode, "copy_on_write", False) is True
)


@dataclass(frozen=True, repr=False)
class AlphaFit:
    """What an alpha computation keeps for later questions (intervals, diagnostics).

    A fit owns its data: the codes and counts, and for ``source`` (the rows the codes came
    from, used to look up ``cluster=`` columns) a :func:`snapshot` taken when the fit is
    made, so sorting, dropping or editing the caller's frame afterwards changes nothing.
    """

    coded: CodedData
    counts: UnitValueCounts
    kernel: Kernel
    observed_by_unit: Any
    source: Any = None

    def __post_init__(self) -> None:
        if isinstance(self.source, pd.DataFrame):
            object.__setattr__(self, "source", snapshot(self.source))


#: The fields every alpha's result starts its :meth:`Result.to_series` with.
ALPHA_FIELDS = ("alpha", "observed", "expected", "n_units", "n_coders", "n_pairable")


@dataclass(frozen=True, repr=False)
class AlphaResult(Result):
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
        Why ``alpha`` is NaN, when it is; otherwise a note when the values could not be
        used at full float64 precision as given (integers too far apart to keep every
        difference, or values scaled by a power of two to stay in range). The sentence of
        ``state`` (rendered by :mod:`pandas_agree.reasons`), for people to read.
    state : AlphaState
        The same as a code, for programs to test: ``AlphaState.DEFINED``,
        ``PRECISION`` (defined, with a precision note), ``NO_VARIATION`` (``D_e = 0``) or
        ``NO_VARIATION_PRECISION`` (``D_e = 0`` once converted to float64).

    Examples
    --------
    >>> import pandas_agree as pa
    >>> res = pa.alpha(pa.datasets.krippendorff_2011(), "interval")
    >>> round(res.alpha, 3), res.state.name, res.reason
    (0.849, 'DEFINED', None)
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
    state: AlphaState = AlphaState.DEFINED

    _headline = "alpha"
    _series_fields = (*ALPHA_FIELDS, "n_values", "reason")

    @property
    def _series_name(self) -> str:
        return self.distance

    _shown = ("alpha:.4f", "distance!r", "n_units", "n_coders", "n_pairable")

    def bootstrap(
        self,
        method: str = "krippendorff",
        n_boot: int = 2000,
        rng: int | np.random.Generator | None = None,
        cluster: Any = None,
    ) -> AlphaBootstrap:
        """Bootstrap distribution of alpha; see
        :func:`pandas_agree.krippendorff.bootstrap.bootstrap_alpha`."""
        from .krippendorff.bootstrap import bootstrap_alpha

        return bootstrap_alpha(self, method, n_boot, rng, cluster)

    def confidence_interval(
        self,
        level: float = 0.95,
        method: str = "krippendorff",
        n_boot: int = 2000,
        rng: int | np.random.Generator | None = None,
        cluster: Any = None,
    ) -> ConfidenceInterval:
        """Bootstrap percentile interval of alpha at ``level``.

        ``method`` is ``"krippendorff"`` (Krippendorff's bootstrap from the coincidence
        matrix, ``D_e`` fixed), ``"units"`` (resample units) or ``"clusters"`` (resample
        groups of units named by ``cluster=``, a column). The same ``rng`` seed gives the
        same interval. See :mod:`pandas_agree.krippendorff.bootstrap` for each step.

        Examples
        --------
        >>> import pandas_agree as pa
        >>> res = pa.alpha(pa.datasets.krippendorff_2011(), "interval")
        >>> ci = res.confidence_interval(0.95, n_boot=2000, rng=7)
        >>> bool(ci.low < res.alpha < ci.high), ci.method
        (True, 'krippendorff')
        """
        from .krippendorff.bootstrap import check_level

        check_level(level)
        return self.bootstrap(method, n_boot, rng, cluster).confidence_interval(level)

    def prob_below(
        self,
        alpha_min: float,
        method: str = "krippendorff",
        n_boot: int = 2000,
        rng: int | np.random.Generator | None = None,
        cluster: Any = None,
    ) -> float:
        """Krippendorff's *q*: the bootstrap probability that alpha is below ``alpha_min``.

        The chance of failing to reach the smallest acceptable alpha. Common choices are
        .800 and .667 (tentative conclusions), but how reliable is reliable enough has "no
        set answer" (Krippendorff 1980, quoted by Passonneau 2006, section 3.1): it depends
        on the use the data will be put to.
        """
        return self.bootstrap(method, n_boot, rng, cluster).prob_below(alpha_min)

    def by_unit(self) -> pd.DataFrame:
        """Each unit's share of the observed disagreement, worst first.

        See :func:`pandas_agree.unit_disagreement`.
        """
        from .krippendorff.diagnostics import unit_disagreement

        return unit_disagreement(self)

    def by_coder(self) -> pd.DataFrame:
        """Each coder's share of the observed disagreement and leave-one-coder-out alpha.

        See :func:`pandas_agree.coder_disagreement`.
        """
        from .krippendorff.diagnostics import coder_disagreement

        return coder_disagreement(self)

    def disagreements(self, top: int | None = 50) -> pd.DataFrame:
        """The units to adjudicate: worst share of the disagreement first, coders' values.

        See :func:`pandas_agree.krippendorff.disagreements.ranked_disagreements`.

        Examples
        --------
        >>> import pandas_agree as pa
        >>> res = pa.alpha(pa.datasets.krippendorff_2011())
        >>> res.disagreements(top=1)[["unit", "share", "A", "B", "C", "D"]]
              unit  share  A  B  C  D
        rank
        1        6    0.5  1  2  3  4
        """
        from pandas_agree.krippendorff.disagreements import ranked_disagreements

        return ranked_disagreements(self, top)


def fitted(result: Any) -> AlphaResult:
    """``result``, checked to be an :class:`AlphaResult` that keeps its fit data.

    The questions asked of an alpha after the fact (each unit's or coder's part of the
    disagreement, the units to adjudicate) need the data :func:`pandas_agree.alpha` keeps.

    Raises
    ------
    ValueTypeError
        When ``result`` is not an :class:`AlphaResult`.
    InvalidParameterError
        When it carries no fit data (``result.fit`` is None).
    """
    if not isinstance(result, AlphaResult):
        raise ValueTypeError(
            "`result` must be an AlphaResult from pandas_agree.alpha(), got "
            f"{type(result).__name__}"
        )
    if result.fit is None:
        raise InvalidParameterError(
            "`result` carries no fit data (AlphaResult.fit is None); pass the result of "
            "pandas_agree.alpha()"
        )
    return result
