r"""Bootstrap distributions of alpha: confidence intervals and the chance of falling short.

Three resampling schemes (``method=``):

``"krippendorff"``
    Krippendorff's "Algorithm for bootstrapping a distribution of alpha" (2006, revised
    2011; Hayes & Krippendorff 2007). Steps, as implemented:

    1. From the observed coincidence matrix take the probability ``p_ck = o_ck / n..`` of
       each cell and its distance ``delta_ck`` (the distance of the original data; for
       ``ordinal`` the metric of the original marginals).
    2. Draws per replicate: ``M = min(25 Q, sum_u m_u (m_u - 1) / 2)``, the number of
       pairs of pairable values in the data, capped at 25 times the number ``Q`` of non-zero
       cells of the coincidence matrix (Krippendorff's "practical limit"; Hayes' KALPHA
       macro, version 3, uses the same cap with ``(judges - 1) n.. / 2`` pairs, which equals
       the pair count when no value is missing). The cap makes the interval describe a
       sample of at most ``25 Q`` pairs, so it does not shrink without bound as data grow.
    3. Each replicate draws ``M`` cells with replacement with probabilities ``p_ck`` and
       sets ``alpha_b = 1 - (sum of drawn delta / M) / D_e`` with ``D_e`` of the original
       data held fixed. (The drawn sum only depends on how many draws fall on each distance
       value, so a replicate is one multinomial draw.)
    4. Replicates below -1 are set to -1 (as KALPHA does: below it the disagreement
       exceeds twice what chance would produce, an artefact of resampling tiny samples).
       Replicates equal to 1 are corrected as in KALPHA: a replicate whose draws all hit a
       single diagonal cell stands for data with one value, where alpha is undefined; the
       expected number of such replicates, ``n_boot * sum_c (o_cc / n) ** M``, is set to 0
       (all of them when only one value is ever agreed on). The other replicates of 1
       (perfect agreement on several values) are kept.

``"units"``
    Resample the pairable units with replacement and recompute alpha (``D_e`` included).

``"clusters"``
    Resample whole clusters of units (``cluster=``, for example ``"docset"``) with
    replacement: units inside one document set are not independent, and this interval
    reflects that (it is wider when clusters differ).

Intervals are percentile intervals of the replicates. ``prob_below(alpha_min)`` is
Krippendorff's *q*, the share of replicates below the smallest acceptable alpha. The usual
thresholds are .800 (reliable) and .667 (tentative conclusions only; Krippendorff 2004), but
"how reliable is reliable enough" has "no set answer" (Krippendorff 1980, p. 146, quoted by
Passonneau 2006, section 3.1): it depends on what the data will be used for.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._core.bootstrap import krippendorff_replicates, resampled_replicates
from .._core.states import BootstrapState
from ..errors import DegenerateDataWarning, InvalidParameterError, user_stacklevel
from ..reasons import bootstrap_reason
from ..results import Result

if TYPE_CHECKING:
    from ..results import AlphaResult

__all__ = [
    "METHODS",
    "AlphaBootstrap",
    "ConfidenceInterval",
    "bootstrap_alpha",
    "bootstrap_state",
    "check_bootstrap_args",
    "check_level",
]

METHODS = ("krippendorff", "units", "clusters")


@dataclass(frozen=True, repr=False)
class ConfidenceInterval(Result):
    """A bootstrap percentile interval; unpacks as ``low, high``."""

    low: float
    high: float
    level: float
    method: str
    n_boot: int
    state: BootstrapState = BootstrapState.DEFINED
    n_undefined: int = 0
    value: float = float("nan")

    _series_fields = ("low", "high", "level", "method", "n_boot", "reason")
    _series_name = "confidence_interval"

    def __iter__(self):
        return iter((self.low, self.high))

    @property
    def reason(self) -> str | None:
        """What makes the interval degenerate, or which resamples it leaves out, in words."""
        return bootstrap_reason(self.state, self.n_boot, self.n_undefined, self.value)

    @property
    def note(self) -> str | None:
        """The same as :attr:`reason`."""
        return self.reason

    _shown = ("low:.4f", "high:.4f", "level", "method!r", "n_boot")
    _notes = ("note",)


@dataclass(frozen=True)
class AlphaBootstrap(Result):
    """Bootstrap replicates of alpha, with the interval and ``q`` computed from them.

    Attributes
    ----------
    alpha : float
        Alpha of the data.
    method : str
        Resampling scheme (see :mod:`pandas_agree.krippendorff.bootstrap`).
    replicates : ndarray
        The replicates (NaN where a resample had no expected disagreement).
    state : BootstrapState
        Whether the distribution is degenerate, or leaves resamples out, as a code.
    reason, note : str or None
        The same in words (``note`` is another name of ``reason``).
    """

    alpha: float
    method: str
    replicates: np.ndarray = field(repr=False)

    _headline = "alpha"
    _series_fields = ("alpha", "method", "n_boot", "reason")
    _series_name = "bootstrap"

    @property
    def state(self) -> BootstrapState:
        """What the distribution looks like, as a code."""
        return bootstrap_state(self.replicates)

    @property
    def reason(self) -> str | None:
        """What the distribution looks like, in words (None when it spreads and is whole)."""
        valid = self._valid()
        first = float(valid[0]) if valid.size else float("nan")
        return bootstrap_reason(self.state, self.n_boot, self.n_boot - valid.size, first)

    @property
    def note(self) -> str | None:
        """The same as :attr:`reason`."""
        return self.reason

    @property
    def n_boot(self) -> int:
        """Number of replicates."""
        return int(self.replicates.size)

    def _valid(self) -> np.ndarray:
        return self.replicates[~np.isnan(self.replicates)]

    def confidence_interval(self, level: float = 0.95) -> ConfidenceInterval:
        """Percentile interval of the replicates at ``level``."""
        level = check_level(level)
        valid = self._valid()
        extra = {
            "state": self.state,
            "n_undefined": self.n_boot - valid.size,
            "value": float(valid[0]) if valid.size else float("nan"),
        }
        if valid.size == 0:
            return ConfidenceInterval(np.nan, np.nan, level, self.method, self.n_boot, **extra)
        low, high = np.quantile(valid, [(1 - level) / 2, (1 + level) / 2])
        return ConfidenceInterval(float(low), float(high), level, self.method, self.n_boot, **extra)

    def prob_below(self, alpha_min: float) -> float:
        """Krippendorff's *q*: the share of replicates below ``alpha_min``.

        The probability of failing to reach the smallest acceptable alpha (commonly .800, or
        .667 for tentative conclusions).
        """
        if (
            isinstance(alpha_min, bool)
            or not isinstance(alpha_min, (int, float, np.integer, np.floating))
            or not -1 <= alpha_min <= 1
        ):
            raise InvalidParameterError(
                f"`alpha_min` must be a number in [-1, 1], got {alpha_min!r}"
            )
        valid = self._valid()
        return float(np.mean(valid < alpha_min)) if valid.size else float("nan")

    def to_series(self) -> pd.Series:
        """Mean, standard error and the 95 % interval of the replicates."""
        low, high = self.confidence_interval(0.95)
        valid = self._valid()
        return pd.Series(
            {
                "alpha": self.alpha,
                "boot_mean": float(valid.mean()) if valid.size else np.nan,
                "boot_se": float(valid.std(ddof=1)) if valid.size > 1 else np.nan,
                "low_95": low,
                "high_95": high,
                "n_boot": self.n_boot,
            },
            name=self.method,
        )


def check_level(level: Any) -> float:
    """``level`` as a float in (0, 1); else :class:`~pandas_agree.errors.InvalidParameterError`."""
    if (
        isinstance(level, bool)
        or not isinstance(level, (int, float, np.integer, np.floating))
        or not 0 < level < 1
    ):
        raise InvalidParameterError(f"`level` must be a number in (0, 1), got {level!r}")
    return float(level)


_check_level = check_level  # the former name


def check_bootstrap_args(method: Any, n_boot: Any, rng: Any) -> np.random.Generator:
    """Validate the common bootstrap arguments; return the generator."""
    if method not in METHODS:
        raise InvalidParameterError(f"`method` must be one of {list(METHODS)}, got {method!r}")
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
        raise InvalidParameterError(f"`n_boot` must be a positive integer, got {n_boot!r}")
    if rng is not None and not isinstance(
        rng, (int, np.integer, np.random.Generator, np.random.SeedSequence)
    ):
        raise InvalidParameterError(
            f"`rng` must be None, an integer seed or a numpy.random.Generator, got {rng!r}"
        )
    return np.random.default_rng(rng)


def _cluster_of_units(result: AlphaResult, cluster: Any) -> tuple[np.ndarray, int]:
    fit = result.fit
    coded = fit.coded
    if cluster is None:
        raise InvalidParameterError(
            "`cluster` is required with method='clusters': a column name of the data or one "
            "label per row"
        )
    if not isinstance(cluster, (pd.Series, pd.Index, np.ndarray, list)):
        if fit.source is None or cluster not in fit.source.columns:
            cols = [] if fit.source is None else list(fit.source.columns)
            raise InvalidParameterError(f"`cluster` column {cluster!r} is not in the data {cols}")
        labels = fit.source[cluster].to_numpy()
    else:
        labels = np.asarray(cluster, dtype=object)
        source = fit.source
        if (
            isinstance(cluster, pd.Series)
            and source is not None
            and cluster.index.is_unique
            and source.index.is_unique
            and len(cluster) == len(source)
            and not cluster.index.equals(source.index)
            and source.index.isin(cluster.index).all()
        ):
            # The same rows in another order (the caller sorted its frame after alpha()):
            # line the labels up with the rows alpha saw, by index label.
            labels = cluster.reindex(source.index).to_numpy(dtype=object)
        n_rows = coded.rows.max() + 1 if fit.source is None else len(fit.source)
        if labels.shape != (n_rows,):
            raise InvalidParameterError(
                f"`cluster` must have one label per row ({n_rows}), got shape {labels.shape}"
            )
    codes, uniques = pd.factorize(pd.Series(labels[coded.rows], dtype=object))
    if (codes < 0).any():
        raise InvalidParameterError(f"`cluster` {cluster!r} has missing labels")
    unit_cluster = np.full(len(coded.units), -1, dtype=np.intp)
    unit_cluster[coded.unit_codes] = codes
    mismatch = unit_cluster[coded.unit_codes] != codes
    if mismatch.any():
        bad = coded.units[coded.unit_codes[mismatch][0]]
        raise InvalidParameterError(
            f"`cluster` must be constant within a unit; unit {bad!r} spans several clusters"
        )
    return unit_cluster, len(uniques)


def bootstrap_alpha(
    result: AlphaResult,
    method: str = "krippendorff",
    n_boot: int = 2000,
    rng: int | np.random.Generator | None = None,
    cluster: Hashable | Sequence[Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> AlphaBootstrap:
    """Bootstrap distribution of alpha for an :class:`~pandas_agree.AlphaResult`.

    Parameters
    ----------
    result : AlphaResult
        From :func:`pandas_agree.alpha`.
    method : {"krippendorff", "units", "clusters"}
        Resampling scheme (see the module docstring for each step).
    n_boot : int, default 2000
        Number of replicates.
    rng : int, numpy.random.Generator or None
        Seed or generator; the same seed gives the same replicates.
    cluster : column name or sequence, optional
        Cluster of each row of the data (``method="clusters"`` only). A column name is
        looked up in the data as alpha saw them (the result keeps a snapshot, so later
        changes to the caller's frame do not matter); a Series with the same index labels
        in another order is aligned by label; any other sequence is taken by position.
    progress : callable, optional
        Called with the number of replicates finished, after each block of replicates
        (for a progress bar).

    Returns
    -------
    AlphaBootstrap

    Examples
    --------
    >>> import pandas_agree as pa
    >>> res = pa.alpha(pa.datasets.krippendorff_2011(), "nominal")
    >>> boot = bootstrap_alpha(res, n_boot=1000, rng=1)
    >>> low, high = boot.confidence_interval(0.95)
    >>> bool(low < res.alpha < high)
    True
    """
    gen = check_bootstrap_args(method, n_boot, rng)
    fit = result.fit
    if fit is None:
        raise InvalidParameterError("`result` carries no data to resample (fit is None)")
    if result.state.undefined or np.isnan(result.alpha):
        if progress is not None:
            progress(n_boot)
        return AlphaBootstrap(result.alpha, method, np.full(n_boot, np.nan), result.reason)
    counts, kernel = fit.counts, fit.kernel
    if method == "krippendorff":
        reps = krippendorff_replicates(kernel, counts, result.expected, n_boot, gen)
        if progress is not None:
            progress(n_boot)
    else:
        owner, n_items = _resampled_items(result, method, cluster)
        reps = resampled_replicates(
            kernel, counts, fit.observed_by_unit, owner, n_items, n_boot, gen, progress
        )
    boot = AlphaBootstrap(result.alpha, method, reps)
    if boot.state.degenerate and boot.state is not BootstrapState.NONE_DEFINED:
        warnings.warn(boot.reason, DegenerateDataWarning, stacklevel=user_stacklevel())
    return boot


def _resampled_items(result: AlphaResult, method: str, cluster: Any) -> tuple[np.ndarray, int]:
    """The item each unit code belongs to (-1: not pairable) and the number of items.

    ``"units"``: every pairable unit is an item; ``"clusters"``: the clusters of ``cluster``.
    """
    m = result.fit.counts.m
    pairable = np.flatnonzero(m > 0)
    if method == "units":
        owner = np.full(m.size, -1, dtype=np.intp)
        owner[pairable] = np.arange(pairable.size)
        return owner, pairable.size
    owner, n_items = _cluster_of_units(result, cluster)
    return np.where(m > 0, owner, -1), n_items


def bootstrap_state(reps: np.ndarray) -> BootstrapState:
    """What a vector of bootstrap replicates looks like (NaN: a resample without ``D_e``).

    Examples
    --------
    >>> import numpy as np
    >>> bootstrap_state(np.array([1.0, 1.0, np.nan])).name
    'ALL_AGREE'
    """
    valid = reps[~np.isnan(reps)]
    if valid.size == 0:
        return BootstrapState.NONE_DEFINED
    if np.all(valid == valid[0]):
        return BootstrapState.ALL_AGREE if valid[0] == 1 else BootstrapState.NO_SPREAD
    if valid.size < reps.size:
        return BootstrapState.SOME_UNDEFINED
    return BootstrapState.DEFINED
