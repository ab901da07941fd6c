r"""The arithmetic of Beigman Klebanov & Beigman's (2009) noise model (numpy only).

The math of :mod:`pandas_agree.tasks.noise.model`: counts and integer codes in, numbers out; the
validation, warnings and result objects stay there.

* :func:`posterior`: summaries of the posterior of the number of hard agreed items
  (the paper's equation 1).
* :func:`largest_tolerable`: the search of section 3.1 for the most disagreements that keep
  the agreed subset within a noise rate.
* :func:`chance_bounds`: the section 4.1 bounds on the difference of two equally good
  algorithms.
* :func:`tally`, :func:`item_kappa`, :func:`hard_shares`, :func:`agree_hard_probability`:
  counts of agreed and disagreed items, Siegel & Castellan's K, the per-annotator label
  shares on disagreed items and the estimate of ``p`` from them (footnote 3).

References
----------
Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
*Computational Linguistics* 35(4), 495-503.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp, ndtri

from .agreement import rater_terms

__all__ = [
    "NEGLECT",
    "TOP_MASS_EPS",
    "Tally",
    "agree_hard_probability",
    "chance_bounds",
    "hard_shares",
    "item_kappa",
    "largest_tolerable",
    "posterior",
    "tally",
]

#: Posterior mass that may be left out of the sums (far right tail), relative to the total.
NEGLECT = 1e-20
#: Posterior probability that *all* agreed items are hard below which ``tau`` is provably
#: non-decreasing in ``d`` (see :func:`largest_tolerable`).
TOP_MASS_EPS = 1e-12


def posterior(n: int, d: int, p: float, alpha: float) -> tuple[int, float, float]:
    r"""Summaries of the posterior of :math:`K = X - d` (hard items among the agreed).

    With a uniform prior the posterior is :math:`P(K = k) \propto \binom{k+d}{d} p^k` on
    :math:`k = 0, \dots, n - d`, a negative binomial truncated at ``n - d``. The log weights
    are built as one cumulative sum, :math:`\log w_k = \sum_{m=1}^{k} (\log(1 + d/m) + \log p)`,
    which keeps ~1e-11 absolute accuracy at ``d`` in the millions (a difference of
    ``gammaln`` values of size 1e8 loses ~1e-8), and normalised with ``logsumexp``.

    Returns ``(k0, mean, top)``: ``k0 = t0 - d``, the smallest ``k`` with
    ``P(K > k) < alpha``; the posterior mean of ``K``; and (an upper bound on)
    ``P(K = n - d)``, the posterior probability that every agreed item is hard.

    Examples
    --------
    Section 3.1 of the paper: 1,000 items, 100 disagreements, ``p = 0.5``, 95 %: "up to 125
    agreements are due to coin-flipping".

    >>> posterior(1000, 100, 0.5, 0.05)[0]
    125
    """
    big_n = n - d
    if p == 0.0 or big_n == 0:  # hard items never agree, or there is no agreed item
        return 0, 0.0, 1.0 if big_n == 0 else 0.0
    log_p = math.log(p)
    # The weights are unimodal with ratios r_k = p (k + d + 1) / (k + 1), decreasing in k.
    # Past a point M where r_M < 1 the rest of the mass is at most w_M r_M / (1 - r_M), so a
    # window [0, M] that leaves out less than NEGLECT of the mass is exact in double precision.
    top_m = big_n
    if p < 1.0:
        mean = (d + 1) * p / (1.0 - p)
        sd = math.sqrt((d + 1) * p) / (1.0 - p)
        top_m = min(big_n, math.ceil(mean + 50.0 * sd + 100.0))
    for m_end in (top_m, big_n) if top_m < big_n else (big_n,):
        m = np.arange(1, m_end + 1, dtype=np.float64)
        steps = np.log1p(d / m)
        steps += log_p
        log_w = np.empty(m_end + 1)
        log_w[0] = 0.0
        np.cumsum(steps, out=log_w[1:])
        log_total = float(logsumexp(log_w))
        if m_end == big_n:
            left_out = -math.inf
            break
        ratio = p * (m_end + d + 1) / (m_end + 1)
        if ratio >= 1.0:
            left_out = math.inf
        elif ratio <= 0.0:  # p so small that the ratio underflows: nothing is left out
            left_out = -math.inf
        else:
            left_out = log_w[-1] + math.log(ratio) - math.log1p(-ratio) - log_total
        if left_out < math.log(NEGLECT):
            break
    prob = np.exp(log_w - log_total)
    at_least = np.cumsum(prob[::-1])[::-1]  # P(K >= k), summed from the small far tail up
    greater = np.empty_like(at_least)  # P(K > k)
    greater[:-1] = at_least[1:]
    greater[-1] = 0.0
    k0 = int(np.argmax(greater < alpha))
    mean_k = float(np.dot(prob, np.arange(m_end + 1, dtype=np.float64)))
    top = float(prob[-1]) if m_end == big_n else math.exp(left_out)
    return k0, mean_k, top


def _bisect(lo: int, hi: int, good: Callable[[int], bool]) -> int:
    """Largest d in [lo, hi) with good(d), given good(lo) and not good(hi), good monotone."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if good(mid):
            lo = mid
        else:
            hi = mid
    return lo


def largest_tolerable(n: int, p: float, tau_max: float, alpha: float) -> int | None:
    r"""The largest ``d`` with :math:`\tau(d') \le \tau_{max}` for every :math:`d' \le d`.

    ``alpha`` is ``1 - confidence``. None when even ``d = 0`` fails. Bisection on ``d``,
    certified by :math:`P(X = n \mid A_d) \le` :data:`TOP_MASS_EPS` at the answer; where the
    certificate fails, the region where it holds is found by bisection and the rest scanned
    (see :func:`pandas_agree.tasks.noise.model.max_disagreements` for the argument).

    Examples
    --------
    Section 3.1: 1,000 items, two annotators (``p = 0.5``), 5 % noise at 95 %: "Only 33".

    >>> largest_tolerable(1000, 0.5, 0.05, 0.05)
    33
    """
    cache: dict[int, tuple[bool, float]] = {}

    def evaluate(d: int) -> tuple[bool, float]:
        """(tau(d) <= tau_max, P(X = n | A_d)); d = n counts as failing."""
        if d not in cache:
            if d >= n:
                cache[d] = (False, 1.0)
            else:
                k0, _, top = posterior(n, d, p, alpha)
                cache[d] = (k0 <= tau_max * (n - d), top)
        return cache[d]

    def passes(d: int) -> bool:
        return evaluate(d)[0]

    if not passes(0):
        return None
    if p == 1.0:  # d > 0 is impossible data when hard items always agree
        return 0
    best = _bisect(0, n, passes)
    if evaluate(best)[1] <= TOP_MASS_EPS:
        return best
    # The certificate failed: tau is non-decreasing on [0, c + 1], c = last d with a small pi.
    if evaluate(0)[1] > TOP_MASS_EPS:
        c = -1
    else:
        c = _bisect(0, best, lambda d: evaluate(d)[1] <= TOP_MASS_EPS)
    if c + 1 < n and not passes(c + 1):
        return _bisect(0, c + 1, passes)
    d = c + 1
    while d + 1 < n and passes(d + 1):
        d += 1
    return d


def chance_bounds(n_noisy: int, confidence: float) -> tuple[float, float, float]:
    r"""``(sigma, k, z)`` of section 4.1: :math:`\sigma = \sqrt{R / 2}`, Chebyshev's
    :math:`k = 1 / \sqrt{1 - \gamma}` and the normal :math:`z = \Phi^{-1}((1 + \gamma) / 2)`.

    Examples
    --------
    >>> sigma, k, z = chance_bounds(125, 0.95)
    >>> round(k * sigma, 2), round(z * sigma, 2)   # the paper: "up to 35" answers
    (35.36, 15.5)
    """
    sigma = math.sqrt(n_noisy / 2.0)
    k = 1.0 / math.sqrt(1.0 - confidence)
    z = float(ndtri(0.5 + confidence / 2.0))
    return sigma, k, z


@dataclass(frozen=True)
class Tally:
    """Ratings reduced to dense codes, and which items are pairable and disagreed.

    Attributes
    ----------
    item_values, annotator_values, label_values : ndarray
        The distinct codes given, sorted; ``item_idx``, ``annotator_idx`` and ``label_idx``
        index into them, one element per rating.
    duplicate : tuple of int or None
        ``(item, annotator, times)`` of the first (item, annotator) rated twice, else None.
    pairable, disagreed : ndarray of bool
        Per item: two or more ratings; pairable with more than one distinct label.
    n_single : int
        Items with exactly one rating.
    """

    item_values: np.ndarray
    annotator_values: np.ndarray
    label_values: np.ndarray
    item_idx: np.ndarray
    annotator_idx: np.ndarray
    label_idx: np.ndarray
    duplicate: tuple[int, int, int] | None
    pairable: np.ndarray
    disagreed: np.ndarray
    n_single: int

    @property
    def n(self) -> int:
        """Pairable items."""
        return int(np.count_nonzero(self.pairable))

    @property
    def d(self) -> int:
        """Disagreed items."""
        return int(np.count_nonzero(self.disagreed))


def tally(items: np.ndarray, annotators: np.ndarray, labels: np.ndarray) -> Tally:
    """Dense codes of the ratings, duplicate (item, annotator) pairs, agreed and disagreed items.

    Examples
    --------
    >>> t = tally(np.array([0, 0, 1, 1, 2]), np.array([0, 1, 0, 1, 0]), np.array([0, 0, 0, 1, 1]))
    >>> t.n, t.d, t.n_single, t.duplicate
    (2, 1, 1, None)
    """
    item_values, item_idx = np.unique(items, return_inverse=True)
    ann_values, ann_idx = np.unique(annotators, return_inverse=True)
    label_values, label_idx = np.unique(labels, return_inverse=True)
    n_i, n_a, n_b = item_values.size, ann_values.size, label_values.size
    rater_key, rater_count = np.unique(item_idx * n_a + ann_idx, return_counts=True)
    duplicate = None
    if (rater_count > 1).any():
        first = int(rater_key[np.argmax(rater_count > 1)])
        duplicate = (
            int(item_values[first // n_a]),
            int(ann_values[first % n_a]),
            int(rater_count.max()),
        )
    per_item = np.bincount(item_idx, minlength=n_i)
    distinct = np.bincount(np.unique(item_idx * n_b + label_idx) // n_b, minlength=n_i)
    pairable = per_item >= 2
    return Tally(
        item_values=item_values,
        annotator_values=ann_values,
        label_values=label_values,
        item_idx=item_idx,
        annotator_idx=ann_idx,
        label_idx=label_idx,
        duplicate=duplicate,
        pairable=pairable,
        disagreed=pairable & (distinct > 1),
        n_single=int(np.count_nonzero(per_item == 1)),
    )


def item_kappa(t: Tally) -> float:
    """Siegel & Castellan's K over the pairable items (the paper's equation 2).

    ``P_A`` item by item (Gwet's per-unit terms, :func:`~.agreement.rater_terms`, so a
    varying number of annotators is allowed); ``P_E`` from the pooled label shares of the
    ratings of pairable items. NaN when ``P_E`` is 1.
    """
    rated = t.pairable[t.item_idx]
    n_b = t.label_values.size
    p_a = rater_terms(t.item_idx[rated], t.label_idx[rated], t.item_values.size, n_b, None)[0]
    marginals = np.bincount(t.label_idx[rated], minlength=n_b) / np.count_nonzero(rated)
    p_e = float(np.sum(marginals**2))
    return (p_a - p_e) / (1.0 - p_e) if p_e < 1.0 else math.nan


def hard_shares(t: Tally) -> tuple[np.ndarray, np.ndarray]:
    r"""Annotators x labels counts on disagreed items, and the shares
    :math:`\hat P(X_j = b \mid H)` (row shares; the pooled shares for an annotator with no
    rating on a disagreed item)."""
    n_a, n_b = t.annotator_values.size, t.label_values.size
    on_disagreed = t.disagreed[t.item_idx]
    counts = np.bincount(
        t.annotator_idx[on_disagreed] * n_b + t.label_idx[on_disagreed], minlength=n_a * n_b
    ).reshape(n_a, n_b)
    row = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = counts.sum(axis=0) / counts.sum()
        shares = np.where(row[:, None] > 0, counts / np.maximum(row, 1)[:, None], pooled)
    return counts, shares


def agree_hard_probability(t: Tally, shares: np.ndarray) -> float:
    r"""``p``: the mean over pairable items of :math:`\sum_b \prod_{j \in J_i} \hat P(X_j = b)`.

    One vectorised step per label (ratings and items are vectorised), capped at 1.
    """
    with np.errstate(divide="ignore"):
        log_shares = np.log(shares)
    rated = t.pairable[t.item_idx]
    r_items, r_ann = t.item_idx[rated], t.annotator_idx[rated]
    p_item = np.zeros(t.n)
    for b in range(t.label_values.size):
        log_prod = np.bincount(r_items, weights=log_shares[r_ann, b], minlength=t.item_values.size)
        p_item += np.exp(log_prod[t.pairable])
    return float(min(1.0, np.mean(p_item)))
