r"""Noise in the agreed subset of annotated data (Beigman Klebanov & Beigman 2009).

The annotation generation model of Beigman Klebanov & Beigman (2009), "From Annotator
Agreement to Noise Models", *Computational Linguistics* 35(4): 495-503, splits items into
**easy** ones, on which every annotator gives the same label, and **hard** ones, on which each
annotator :math:`j` flips its own coin, independently of the others:

.. math::

    P(X_{i1} = \dots = X_{ik} \mid E) = 1, \qquad
    P(X_{i1} = b_1, \dots, X_{ik} = b_k \mid H) = \prod_{j=1}^{k} P(X_{ij} = b_j \mid H).

A hard item comes out agreed with probability

.. math::

    p = \sum_b \prod_{j=1}^{k} P(X_j = b \mid H),

so some of the agreed items are hard. Given :math:`d` disagreements among :math:`n` items and a
uniform prior on the number :math:`h` of hard items, the number :math:`X` of hard items has the
posterior tail (the paper's equation 1)

.. math::

    P(X > t \mid A_d) = \frac{\sum_{i=t+1}^{n} \binom{i}{d} p^{i-d}}
                             {\sum_{i=d}^{n} \binom{i}{d} p^{i-d}}.

With :math:`t_0` the smallest :math:`t` with :math:`P(X > t \mid A_d) < 1 - \gamma`, the agreed
subset holds at most :math:`\tau = (t_0 - d) / (n - d)` hard (noisy) items with confidence
:math:`\gamma`.

Functions
---------
agreed_noise
    :math:`\tau`, :math:`t_0` and the expected number of hard agreed items from ``n``, ``d``, ``p``.
noise_from_codes
    The same from integer-coded ratings, estimating ``p`` from the disagreed items.
max_disagreements
    The largest ``d`` that keeps the agreed subset within a noise rate (section 3.1).
chance_difference
    How many correct answers two equally good algorithms can differ by on a noisy test set (4.1).
kappa_view
    The kappa-based estimate of the noise of the agreed subset (section 3.3).
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from pandas_agree._core.noise import (
    agree_hard_probability,
    chance_bounds,
    hard_shares,
    item_kappa,
    largest_tolerable,
    posterior,
    tally,
)
from pandas_agree.errors import (
    DegenerateDataWarning,
    DuplicateRatingError,
    InvalidParameterError,
    NoPairableUnitsError,
    user_stacklevel,
)
from pandas_agree.results import Result

__all__ = [
    "ChanceDifference",
    "DataNoiseResult",
    "KappaView",
    "NoiseResult",
    "agreed_noise",
    "chance_difference",
    "kappa_view",
    "max_disagreements",
    "noise_from_codes",
]


# ----------------------------------------------------------------------------- validation


def _show(value: Any) -> str:
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def _check_int(name: str, value: Any, minimum: int = 0) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InvalidParameterError(f"`{name}` must be an integer >= {minimum}, got {_show(value)}")
    out = int(value)
    if out < minimum:
        raise InvalidParameterError(f"`{name}` must be an integer >= {minimum}, got {out}")
    return out


def _check_real(
    name: str, value: Any, low: float, high: float, *, low_open: bool, high_open: bool
) -> float:
    interval = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
    message = f"`{name}` must be in {interval}, got {_show(value)}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(message)
    out = float(value)
    if not math.isfinite(out):
        raise InvalidParameterError(message)
    if out < low or out > high or (low_open and out == low) or (high_open and out == high):
        raise InvalidParameterError(message)
    return out


def _check_confidence(confidence: Any) -> float:
    return _check_real("confidence", confidence, 0.0, 1.0, low_open=True, high_open=True)


def _check_p(p_agree_hard: Any) -> float:
    return _check_real("p_agree_hard", p_agree_hard, 0.0, 1.0, low_open=False, high_open=False)


def _check_counts(n_items: Any, n_disagreed: Any, p: float) -> tuple[int, int]:
    n = _check_int("n_items", n_items, minimum=1)
    d = _check_int("n_disagreed", n_disagreed, minimum=0)
    if d > n:
        raise InvalidParameterError(f"`n_disagreed` must be <= `n_items` ({n}), got {d}")
    if p == 1.0 and d > 0:
        raise InvalidParameterError(
            "`p_agree_hard` = 1 means hard items never show a disagreement, so `n_disagreed` "
            f"must be 0, got {d}"
        )
    return n, d


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True, repr=False)
class NoiseResult(Result):
    r"""Noise of the agreed subset under the easy/hard model.

    ``float(result)`` is :math:`\tau`.

    Attributes
    ----------
    tau : float
        Upper bound, with confidence ``confidence``, on the share of hard (coin-flip) items in
        the agreed subset: :math:`(t_0 - d) / (n - d)`. NaN when no item is agreed.
    t0 : int
        Smallest :math:`t` with :math:`P(X > t \mid A_d) < 1 - \gamma` (``X``: hard items).
    n_items : int
        Items ``n`` (with two or more annotators).
    n_disagreed : int
        Disagreed items ``d``.
    p_agree_hard : float
        Probability ``p`` that the annotators agree on a hard item.
    confidence : float
        The confidence :math:`\gamma`.
    expected_hard_agreed : float
        Posterior mean of :math:`X - d`, the expected number of hard items among the agreed.
    reason : str or None
        Why ``tau`` is NaN, when it is.
    """

    tau: float
    t0: int
    n_items: int
    n_disagreed: int
    p_agree_hard: float
    confidence: float
    expected_hard_agreed: float
    reason: str | None

    _headline = "tau"
    _series_fields = (
        "tau",
        "t0",
        "n_items",
        "n_disagreed",
        "n_agreed",
        "max_hard_agreed",
        "expected_hard_agreed",
        "p_agree_hard",
        "confidence",
        "reason",
    )
    _series_name = "noise"

    @property
    def n_agreed(self) -> int:
        """Agreed items, ``n - d``."""
        return self.n_items - self.n_disagreed

    @property
    def max_hard_agreed(self) -> int:
        """``t0 - d``: agreed items that may be coin-flips, at the given confidence."""
        return self.t0 - self.n_disagreed

    _shown = ("tau:.4g", "t0", "n_items", "n_disagreed", "p_agree_hard:.4g", "confidence:g")

    def chance_difference(self, confidence: float | None = None) -> ChanceDifference:
        """:func:`chance_difference` on the agreed subset: ``L = n - d``, ``R = t0 - d``.

        This is section 4.1's use of the section 3.1 numbers (``L = 900``, ``R = 125``).
        ``confidence`` defaults to this result's confidence.
        """
        if self.n_agreed == 0:
            raise InvalidParameterError(
                "`n_test` must be an integer >= 1, got 0 (the agreed subset is empty)"
            )
        return chance_difference(
            self.n_agreed,
            self.max_hard_agreed,
            self.confidence if confidence is None else confidence,
        )


@dataclass(frozen=True, repr=False)
class DataNoiseResult(NoiseResult):
    r"""A :class:`NoiseResult` computed from ratings, with what went into ``p``.

    Attributes
    ----------
    n_single : int
        Items with a single rating; they are neither agreed nor disagreed and are left out of
        ``n_items``.
    n_annotators : int
        Annotators with at least one rating.
    p_estimated : bool
        True when ``p_agree_hard`` was estimated from the disagreed items, False when given.
    kappa : float
        Siegel & Castellan's K (the paper's equation 2) on the items with two or more ratings;
        with a varying number of annotators per item, :math:`P_{A_i}` uses that item's count.
    counts : pandas.DataFrame
        Annotators x labels: how often each annotator used each label on the disagreed items.
    shares : pandas.DataFrame
        ``counts`` divided by row sums: the estimates of :math:`P(X_j = b \mid H)`. An
        annotator with no rating on a disagreed item gets the pooled shares of all annotators.
    """

    n_single: int
    n_annotators: int
    p_estimated: bool
    kappa: float
    counts: pd.DataFrame = field(repr=False, compare=False)
    shares: pd.DataFrame = field(repr=False, compare=False)

    _series_fields = (
        *NoiseResult._series_fields,
        "n_single",
        "n_annotators",
        "p_estimated",
        "kappa",
    )

    def __repr__(self) -> str:
        return super().__repr__()[:-1] + (
            f", kappa={self.kappa:.4f}, n_single={self.n_single}, p_estimated={self.p_estimated})"
        )

    def kappa_view(self) -> KappaView:
        """:func:`kappa_view` of this result's ``kappa``, ``n_items`` and ``n_agreed``."""
        return kappa_view(self.kappa, self.n_items, self.n_agreed)


@dataclass(frozen=True)
class ChanceDifference(Result):
    r"""Chance difference in correct answers between two equally good algorithms (section 4.1).

    ``float(result)`` is the Chebyshev bound in answers.

    Attributes
    ----------
    n_test : int
        Items ``L`` in the test set (gold standard).
    n_noisy : int
        Hard (coin-flip) items ``R`` among them.
    confidence : float
        Probability with which ``|S|`` stays within the bounds.
    sigma : float
        Standard deviation of the difference ``S``: :math:`\sqrt{R / 2}`.
    chebyshev_k, normal_z : float
        Multipliers of ``sigma``: :math:`1/\sqrt{1-\gamma}` and the two-sided normal quantile
        :math:`\Phi^{-1}((1+\gamma)/2)`.
    chebyshev_bound, normal_bound : float
        ``chebyshev_k * sigma`` and ``normal_z * sigma``, in answers.
    """

    n_test: int
    n_noisy: int
    confidence: float
    sigma: float
    chebyshev_k: float
    normal_z: float
    chebyshev_bound: float
    normal_bound: float

    _headline = "chebyshev_bound"
    _series_fields = (
        "n_test",
        "n_noisy",
        "confidence",
        "sigma",
        "chebyshev_k",
        "chebyshev_bound",
        "chebyshev_answers",
        "chebyshev_share",
        "normal_z",
        "normal_bound",
        "normal_answers",
        "normal_share",
    )
    _series_name = "chance_difference"

    @property
    def chebyshev_share(self) -> float:
        """``chebyshev_bound / n_test``: the bound as a share of the test set."""
        return self.chebyshev_bound / self.n_test

    @property
    def normal_share(self) -> float:
        """``normal_bound / n_test``."""
        return self.normal_bound / self.n_test

    @property
    def chebyshev_answers(self) -> int:
        """Largest whole number of answers within the Chebyshev bound."""
        return math.floor(self.chebyshev_bound)

    @property
    def normal_answers(self) -> int:
        """Largest whole number of answers within the normal bound."""
        return math.floor(self.normal_bound)

    def __repr__(self) -> str:
        return (
            f"ChanceDifference(chebyshev_bound={self.chebyshev_bound:.2f}, "
            f"normal_bound={self.normal_bound:.2f}, sigma={self.sigma:.4f}, "
            f"n_test={self.n_test}, n_noisy={self.n_noisy}, confidence={self.confidence:g})"
        )


@dataclass(frozen=True)
class KappaView(Result):
    r"""The kappa-based reading of section 3.3: kappa estimates the share of easy items.

    ``float(result)`` is ``implied_noise``.

    Attributes
    ----------
    kappa : float
        The agreement coefficient (Siegel & Castellan's K in the paper).
    n_items, n_agreed : int
        Items and agreed items.
    expected_easy : float
        ``kappa * n_items``: the estimated number of easy items.
    implied_noise : float
        ``(n_agreed - kappa * n_items) / n_agreed``: the share of hard items among the agreed,
        since easy items are a subset of the agreed ones. A point estimate, not a bound; compare
        with :attr:`NoiseResult.tau`.
    """

    kappa: float
    n_items: int
    n_agreed: int
    expected_easy: float
    implied_noise: float

    _headline = "implied_noise"
    _series_fields = ("kappa", "n_items", "n_agreed", "expected_easy", "implied_noise")
    _series_name = "kappa_view"

    def __repr__(self) -> str:
        return (
            f"KappaView(implied_noise={self.implied_noise:.4f}, "
            f"expected_easy={self.expected_easy:.1f}, kappa={self.kappa:.4f}, "
            f"n_items={self.n_items}, n_agreed={self.n_agreed})"
        )


# ----------------------------------------------------------------------------- public functions


def _noise(n: int, d: int, p: float, confidence: float) -> dict[str, Any]:
    k0, mean_k, _ = posterior(n, d, p, 1.0 - confidence)
    reason = None
    if d == n:
        tau = math.nan
        reason = "no agreed item (n_disagreed == n_items): the agreed subset is empty"
        warnings.warn(
            f"`n_disagreed` equals `n_items` ({n}): no item is agreed, so the noise of the "
            "agreed subset is undefined (tau is NaN)",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(),
        )
    else:
        tau = k0 / (n - d)
    return {
        "tau": tau,
        "t0": d + k0,
        "n_items": n,
        "n_disagreed": d,
        "p_agree_hard": p,
        "confidence": confidence,
        "expected_hard_agreed": mean_k,
        "reason": reason,
    }


def agreed_noise(
    n_items: int, n_disagreed: int, p_agree_hard: float, confidence: float = 0.95
) -> NoiseResult:
    r"""Upper bound on the noise of the agreed subset (Beigman Klebanov & Beigman 2009).

    Under the easy/hard model (easy items: all annotators agree; hard items: each annotator
    flips its own coin) with a uniform prior on the number of hard items, the posterior tail
    of the number ``X`` of hard items given ``d`` disagreements is the paper's equation (1),

    .. math::

        P(X > t \mid A_d) = \frac{\sum_{i=t+1}^{n} \binom{i}{d} p^{i-d}}
                                 {\sum_{i=d}^{n} \binom{i}{d} p^{i-d}},

    and with :math:`t_0` the smallest :math:`t` with :math:`P(X > t \mid A_d) < 1 - \gamma`,
    the agreed subset holds at most :math:`\tau = (t_0 - d) / (n - d)` hard items with
    confidence :math:`\gamma`.

    Parameters
    ----------
    n_items : int
        Items ``n`` (each with two or more annotators), ``n >= 1``.
    n_disagreed : int
        Items ``d`` on which the annotators did not all agree, ``0 <= d <= n``.
    p_agree_hard : float
        Probability ``p`` in [0, 1] that the annotators agree on a hard item,
        :math:`p = \sum_b \prod_j P(X_j = b \mid H)` (0.5 for two annotators and two
        equiprobable categories, :math:`2 \cdot 2^{-k}` for ``k`` such annotators).
        ``p = 1`` only with ``d = 0``.
    confidence : float, default 0.95
        The confidence :math:`\gamma`, in (0, 1).

    Returns
    -------
    NoiseResult
        ``tau``, ``t0``, ``expected_hard_agreed`` (posterior mean of :math:`X - d`) and the
        inputs; ``float(result)`` is ``tau``. With ``d == n`` there is no agreed item: ``tau``
        is NaN (with a :class:`~pandas_agree.errors.DegenerateDataWarning`).

    Raises
    ------
    InvalidParameterError
        For a non-integer or out-of-range count, ``p`` outside [0, 1], ``p = 1`` with
        ``d > 0`` (impossible data), or ``confidence`` outside (0, 1).

    See Also
    --------
    noise_from_codes : the same from ratings, estimating ``p``.
    max_disagreements : the inverse question.

    Notes
    -----
    The posterior of :math:`K = X - d` is proportional to :math:`\binom{k+d}{d} p^k`,
    :math:`k = 0, \dots, n - d` (a negative binomial truncated at ``n - d``). It is evaluated in
    log space, vectorised over ``k``, normalised with ``logsumexp``; far-tail terms whose total
    is provably below 1e-20 of the mass are left out, so large ``n`` costs little.

    The strict ``<`` is the paper's definition. On the paper's worked cases it makes no
    difference whether ``<`` or ``<=`` is used: the tail probabilities next to ``t0`` are
    0.0547 and 0.0480 (section 3.1), 0.0565 and 0.0497 (Poesio & Vieira), never 0.05 itself.
    The paper's "13.8 %" for section 3.1 is ``125 / 900 = 0.13889`` cut (not rounded) to one
    decimal: the paper's own "up to 125 agreements" and its section 4.1 use of ``R = 125``
    both say ``t0 - d = 125``, as computed here.

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503, section 2 and equation (1).

    Examples
    --------
    Section 3.1: two annotators, 1,000 items, 100 disagreements, ``p = 0.5``:

    >>> from pandas_agree.tasks.noise.model import agreed_noise
    >>> res = agreed_noise(1000, 100, 0.5)
    >>> res.max_hard_agreed          # "up to 125 agreements are due to coin-flipping"
    125
    >>> round(float(res), 4)         # the paper prints 13.8 % (125/900 cut to one decimal)
    0.1389
    >>> res  # doctest: +NORMALIZE_WHITESPACE
    NoiseResult(tau=0.1389, t0=225, n_items=1000, n_disagreed=100, p_agree_hard=0.5,
                confidence=0.95)

    Poesio & Vieira (1998), as quoted in section 3.1: ``tau = 15 %``.

    >>> round(agreed_noise(992, 121, 0.47).tau, 3)
    0.152
    """
    confidence = _check_confidence(confidence)
    p = _check_p(p_agree_hard)
    n, d = _check_counts(n_items, n_disagreed, p)
    return NoiseResult(**_noise(n, d, p, confidence))


def max_disagreements(
    n_items: int, p_agree_hard: float, tau_max: float = 0.05, confidence: float = 0.95
) -> int | None:
    r"""The most disagreements ``n`` items can show with the agreed subset within ``tau_max``.

    Section 3.1 reverses :func:`agreed_noise`: how many disagreements can be tolerated so that
    the agreed part is, with confidence :math:`\gamma`, at most ``tau_max`` noise? The answer is
    the largest ``d`` such that :math:`\tau(d') \le \tau_{max}` for every :math:`d' \le d`,
    with :math:`\tau(d) = (t_0(d) - d) / (n - d)` as in :func:`agreed_noise`.

    Parameters
    ----------
    n_items : int
        Items ``n``, ``n >= 1``.
    p_agree_hard : float
        Probability ``p`` in [0, 1] that the annotators agree on a hard item.
    tau_max : float, default 0.05
        Largest acceptable noise of the agreed subset, in [0, 1].
    confidence : float, default 0.95
        The confidence :math:`\gamma`, in (0, 1).

    Returns
    -------
    int or None
        The largest tolerable ``d`` (at most ``n - 1``: the agreed subset must not be empty),
        or None when even ``d = 0`` gives :math:`\tau > \tau_{max}`.

    Raises
    ------
    InvalidParameterError
        For a bad ``n_items``, ``p_agree_hard``, ``tau_max`` or ``confidence``.

    Notes
    -----
    :math:`t_0(d)` is non-decreasing in ``d``: the posteriors of ``X`` given ``d`` and
    ``d + 1`` share the top ``n`` and their ratio, :math:`(h - d) / ((d + 1) p)`, grows with
    ``h`` (likelihood-ratio order). :math:`\tau(d)` itself is **not** monotone in general: it
    can dip when the truncation at ``n`` bites (``n = 5``, ``p = 0.5``, :math:`\gamma = 0.5`:
    :math:`\tau(2) = 2/3`, :math:`\tau(3) = 1/2`). A dip needs :math:`t_0(d+1) = t_0(d)`, which
    needs the posterior probability :math:`\pi(d) = P(X = n \mid A_d)` (all agreed items hard)
    to exceed the gap between the tail probability and :math:`1 - \gamma`; :math:`\pi(d)` is
    itself non-decreasing in ``d``. So the search is a bisection on ``d``, followed by a check
    that :math:`\pi \le 10^{-12}` at the answer, which makes :math:`\tau` non-decreasing on
    every smaller ``d`` (up to ties at floating-point accuracy). When the check fails (tiny
    ``n`` or ``tau_max`` near 1) the region where :math:`\pi \le 10^{-12}` is found by bisection
    and the rest is scanned one ``d`` at a time. ``O(log n)`` posterior evaluations in the
    usual case.

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503, section 3.1.

    Examples
    --------
    Section 3.1: "For a two-annotator project with 1,000 instances, how many disagreements
    could we tolerate, so that the agreed part is 95% noise-free with 95% confidence?
    Only 33 disagreements".

    >>> from pandas_agree.tasks.noise.model import max_disagreements
    >>> max_disagreements(1000, 0.5, tau_max=0.05, confidence=0.95)
    33
    """
    confidence = _check_confidence(confidence)
    p = _check_p(p_agree_hard)
    n = _check_int("n_items", n_items, minimum=1)
    tau_max = _check_real("tau_max", tau_max, 0.0, 1.0, low_open=False, high_open=False)
    return largest_tolerable(n, p, tau_max, 1.0 - confidence)


def chance_difference(n_test: int, n_noisy: int, confidence: float = 0.95) -> ChanceDifference:
    r"""How many correct answers two equally good algorithms may differ by through noise alone.

    Section 4.1: on a test set of ``L`` items of which ``R`` are hard (their gold labels are
    coin-flips), take two algorithms equally good on the easy items and as good as
    coin-flipping allows on the hard ones. On each hard item the difference in correct answers
    is :math:`X_i \in \{-1, 0, 1\}` with probabilities 1/4, 1/2, 1/4, so
    :math:`S = \sum_{i=1}^{R} X_i` has mean 0 and :math:`\sigma_S = \sqrt{R / 2}`.
    Chebyshev's inequality :math:`\Pr(|S| > k\sigma) \le 1/k^2` gives
    :math:`|S| \le \sigma / \sqrt{1 - \gamma}` with probability at least :math:`\gamma`
    (:math:`k = \sqrt{20} \approx 4.47` at 95 %; the paper rounds to 4.5); the normal
    approximation (footnote 9, for large ``R``) gives :math:`|S| \le z \sigma` with
    :math:`z = \Phi^{-1}((1 + \gamma)/2)` (1.96 at 95 %; the paper rounds to 2).

    Parameters
    ----------
    n_test : int
        Items ``L`` in the test set, ``L >= 1``.
    n_noisy : int
        Noisy (hard) items ``R`` among them, ``0 <= R <= L``; for an agreed subset, use
        ``t0 - d`` from :func:`agreed_noise` (or :meth:`NoiseResult.chance_difference`).
    confidence : float, default 0.95
        Probability :math:`\gamma` in (0, 1) with which ``|S|`` stays within the bounds.

    Returns
    -------
    ChanceDifference
        ``sigma``, the bounds in answers (``chebyshev_bound``, ``normal_bound``), as shares of
        ``L`` (``chebyshev_share``, ``normal_share``) and as whole answers
        (``chebyshev_answers``, ``normal_answers``). ``float(result)`` is the Chebyshev bound.

    Raises
    ------
    InvalidParameterError
        For non-integer or out-of-range counts, or ``confidence`` outside (0, 1).

    Notes
    -----
    A difference between two algorithms no larger than the bound can be attributed to chance.
    For a constant noise rate the bound grows as :math:`\sqrt{L}`, so as a share of the test
    set it shrinks like :math:`1/\sqrt{L}` (footnote 10).

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503, section 4.1 and footnotes 9-10.

    Examples
    --------
    Section 4.1: ``L = 900``, ``R = 125``: "a difference of up to 35 'correct' answers (3.9% of
    the gold standard) can be attributed to chance".

    >>> from pandas_agree.tasks.noise.model import chance_difference
    >>> res = chance_difference(900, 125)
    >>> res.chebyshev_answers, round(res.chebyshev_share, 3)
    (35, 0.039)
    >>> round(res.normal_bound, 2)   # 1.96 sigma
    15.5
    """
    confidence = _check_confidence(confidence)
    big_l = _check_int("n_test", n_test, minimum=1)
    big_r = _check_int("n_noisy", n_noisy, minimum=0)
    if big_r > big_l:
        raise InvalidParameterError(f"`n_noisy` must be <= `n_test` ({big_l}), got {big_r}")
    sigma, k, z = chance_bounds(big_r, confidence)
    return ChanceDifference(
        n_test=big_l,
        n_noisy=big_r,
        confidence=confidence,
        sigma=sigma,
        chebyshev_k=k,
        normal_z=z,
        chebyshev_bound=k * sigma,
        normal_bound=z * sigma,
    )


def kappa_view(kappa: float, n_items: int, n_agreed: int) -> KappaView:
    r"""Noise of the agreed subset as read off kappa (section 3.3).

    If annotators flip the same coin on hard items and the categories are distributed alike
    on easy and hard items, Siegel & Castellan's K (Fleiss-style kappa) estimates the share of
    easy items, :math:`e / (e + h)`. Easy items are a subset of the agreed ones, so

    .. math::

        \text{expected easy} = \kappa n, \qquad
        \text{implied noise} = \frac{n_{agreed} - \kappa n}{n_{agreed}}.

    This is a point estimate; :func:`agreed_noise` gives the model's upper bound at a
    confidence. The paper compares the two.

    Parameters
    ----------
    kappa : float
        The kappa value (at most 1).
    n_items : int
        Items ``n``, ``n >= 1``.
    n_agreed : int
        Agreed items, ``0 <= n_agreed <= n_items``.

    Returns
    -------
    KappaView
        ``expected_easy`` and ``implied_noise`` (``float(result)``). Not clipped: a value
        outside [0, 1] (kappa below 0, or ``kappa * n`` above ``n_agreed``, which can happen
        with three or more annotators) means the section 3.3 reading does not fit the data,
        and a :class:`~pandas_agree.errors.DegenerateDataWarning` says so. NaN with a warning
        when ``n_agreed`` is 0 or ``kappa`` is NaN.

    Raises
    ------
    InvalidParameterError
        For a kappa above 1 or infinite, or bad counts.

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503, section 3.3. Siegel, S. and Castellan, N. J.
    (1988). *Nonparametric Statistics for the Behavioral Sciences*, 2nd ed.

    Examples
    --------
    Section 3.3: kappa = 0.8 on 1,000 items with 900 agreed gives "an estimate of 11% noise";
    kappa = 0.637 with 660 agreed gives 3.5 %.

    >>> from pandas_agree.tasks.noise.model import kappa_view
    >>> round(kappa_view(0.8, 1000, 900).implied_noise, 3)
    0.111
    >>> round(float(kappa_view(0.637, 1000, 660)), 3)
    0.035
    """
    n = _check_int("n_items", n_items, minimum=1)
    n_agreed = _check_int("n_agreed", n_agreed, minimum=0)
    if n_agreed > n:
        raise InvalidParameterError(f"`n_agreed` must be <= `n_items` ({n}), got {n_agreed}")
    if isinstance(kappa, (bool, np.bool_)) or not isinstance(kappa, numbers.Real):
        raise InvalidParameterError(f"`kappa` must be a real number <= 1, got {_show(kappa)}")
    kappa_f = float(kappa)
    if math.isinf(kappa_f) or kappa_f > 1.0:
        raise InvalidParameterError(f"`kappa` must be a real number <= 1, got {_show(kappa)}")
    easy = kappa_f * n
    if n_agreed == 0 or math.isnan(kappa_f):
        what = "`n_agreed` is 0" if n_agreed == 0 else "`kappa` is NaN"
        warnings.warn(
            f"{what}: the implied noise of the agreed subset is undefined",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(),
        )
        implied = math.nan
    else:
        implied = (n_agreed - easy) / n_agreed
        if not 0.0 <= implied <= 1.0:
            warnings.warn(
                f"kappa * n_items = {easy:g} is outside [0, n_agreed = {n_agreed}]: the "
                "section 3.3 reading of kappa as the share of easy items does not fit",
                DegenerateDataWarning,
                stacklevel=user_stacklevel(),
            )
    return KappaView(
        kappa=kappa_f, n_items=n, n_agreed=n_agreed, expected_easy=easy, implied_noise=implied
    )


def _codes(name: str, values: Any) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise InvalidParameterError(f"`{name}` must be one-dimensional, got shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "iu":
        raise InvalidParameterError(
            f"`{name}` must hold integer codes, got dtype {arr.dtype} (first value {_show(arr[0])})"
        )
    arr = arr.astype(np.int64, copy=False)
    if arr.size and arr.min() < 0:
        where = int(np.argmax(arr < 0))
        raise InvalidParameterError(
            f"`{name}` must hold non-negative codes (remove missing ratings first), got "
            f"{int(arr[where])} at position {where}"
        )
    return arr


def noise_from_codes(
    item_codes: Any,
    annotator_codes: Any,
    label_codes: Any,
    confidence: float = 0.95,
    *,
    p_agree_hard: float | None = None,
) -> DataNoiseResult:
    r"""Noise of the agreed subset of coded ratings, with ``p`` estimated from disagreements.

    An item is **agreed** when all its annotators gave the same label and **disagreed**
    otherwise; items with a single rating are neither, and are counted in ``n_single`` only.
    :math:`P(X_j = b \mid H)` is estimated by the share of the disagreed items rated by
    annotator ``j`` that ``j`` put in category ``b``: the paper's footnote 3, stated for two
    categories and used here for any number. Then

    .. math::

        p_i = \sum_b \prod_{j \in J_i} \hat P(X_j = b \mid H), \qquad
        p = \frac{1}{n} \sum_{i=1}^{n} p_i,

    with :math:`J_i` the annotators of item ``i``. When every item has the same annotators,
    every :math:`p_i` is the paper's ``p``. When annotator subsets differ, ``p`` is the mean
    over items of the chance that item's own annotators agree on it were it hard (hardness
    being independent of who rated the item); the exact likelihood would be Poisson-binomial
    rather than binomial, and this mean is the approximation. An annotator with no rating on a
    disagreed item gets the pooled shares of all annotators on disagreed items. ``p``,
    ``n`` and ``d`` then go into :func:`agreed_noise`.

    Parameters
    ----------
    item_codes, annotator_codes, label_codes : array_like of int
        One entry per rating: the item, the annotator, the label, as non-negative integer codes
        (for example from :func:`pandas.factorize`), missing ratings already removed, at most
        one rating per (item, annotator).
    confidence : float, default 0.95
        The confidence :math:`\gamma`, in (0, 1).
    p_agree_hard : float, optional
        Use this ``p`` instead of the estimate. Required when no item is disagreed (``d = 0``),
        since ``p`` cannot then be estimated.

    Returns
    -------
    DataNoiseResult
        A :class:`NoiseResult` (``tau``, ``t0``, ``n_items``, ``n_disagreed``, ``p_agree_hard``,
        ...) with ``n_single``, ``n_annotators``, ``p_estimated``, Siegel & Castellan's
        ``kappa`` and the per-annotator ``counts`` and ``shares`` on disagreed items
        (annotators x labels DataFrames indexed by the codes).

    Raises
    ------
    InvalidParameterError
        Arrays that are not 1-D non-negative integer codes of one length, a bad
        ``confidence`` or ``p_agree_hard``, or ``d = 0`` without ``p_agree_hard``.
    DuplicateRatingError
        An annotator rated an item twice.
    NoPairableUnitsError
        No item has two or more ratings.

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503, sections 2-3 and footnote 3.

    Examples
    --------
    Section 3.1 as data: two annotators, 1,000 items, 900 agreed (450 per category) and 100
    disagreed, split evenly both ways, so every share is 1/2 and ``p = 0.5``:

    >>> import numpy as np
    >>> from pandas_agree.tasks.noise.model import noise_from_codes
    >>> items = np.repeat(np.arange(1000), 2)
    >>> annotators = np.tile([0, 1], 1000)
    >>> labels = np.concatenate([np.zeros(900, int), np.ones(900, int), np.tile([0, 1], 50),
    ...                          np.tile([1, 0], 50)])
    >>> res = noise_from_codes(items, annotators, labels)
    >>> res.p_agree_hard, res.n_disagreed, res.max_hard_agreed, round(res.tau, 4)
    (0.5, 100, 125, 0.1389)
    >>> round(res.kappa, 3), round(res.kappa_view().implied_noise, 3)   # section 3.3
    (0.8, 0.111)
    >>> res.shares
    label        0    1
    annotator
    0          0.5  0.5
    1          0.5  0.5
    """
    confidence = _check_confidence(confidence)
    given_p = None if p_agree_hard is None else _check_p(p_agree_hard)
    items = _codes("item_codes", item_codes)
    annotators = _codes("annotator_codes", annotator_codes)
    labels = _codes("label_codes", label_codes)
    for name, arr in (("annotator_codes", annotators), ("label_codes", labels)):
        if arr.size != items.size:
            raise InvalidParameterError(
                f"`{name}` must have the same length as `item_codes` ({items.size}), got {arr.size}"
            )
    if items.size == 0:
        raise NoPairableUnitsError("no ratings: `item_codes` is empty")

    t = tally(items, annotators, labels)
    if t.duplicate is not None:
        item, annotator, times = t.duplicate
        raise DuplicateRatingError(
            f"annotator {annotator} rated item {item} {times} times or more; "
            "`item_codes`/`annotator_codes` must have at most one rating per (item, annotator)"
        )
    n, d = t.n, t.d
    if n == 0:
        raise NoPairableUnitsError(
            f"no item has two or more ratings ({t.n_single} items with one rating), so nothing "
            "is agreed or disagreed"
        )
    counts, shares = hard_shares(t)
    if given_p is not None:
        p = given_p
        _check_counts(n, d, p)  # p = 1 with disagreements is impossible data
    elif d == 0:
        raise InvalidParameterError(
            "`p_agree_hard` cannot be estimated when no item is disagreed (n_disagreed = 0); "
            "pass `p_agree_hard=` explicitly, got None"
        )
    else:
        p = agree_hard_probability(t, shares)

    index = pd.Index(t.annotator_values, name="annotator")
    columns = pd.Index(t.label_values, name="label")
    return DataNoiseResult(
        **_noise(n, d, p, confidence),
        n_single=t.n_single,
        n_annotators=t.annotator_values.size,
        p_estimated=given_p is None,
        kappa=item_kappa(t),
        counts=pd.DataFrame(counts, index=index, columns=columns),
        shares=pd.DataFrame(shares, index=index, columns=columns),
    )
