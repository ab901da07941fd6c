r"""The arithmetic of the alternative annotator test on arrays (numpy only).

Calderon, Reichart and Dror (2025) compare a candidate annotator ``f`` with each human ``j``
on the items ``j`` coded: for an item :math:`i`, :math:`S_i(x)` is the mean similarity of an
annotation :math:`x` to the annotations of the *other* humans :math:`k \ne j` of the item.
This module computes, for every human ``j`` at once and vectorised over items:

* :func:`leave_one_out_sums`: :math:`\sum_{k \ne j} s(x_{ij}, y_{ik})` and the number of
  other humans, where :math:`x_{ij}` is human ``j``'s own annotation or the candidate's
  (:func:`leave_one_out_matches` for ``s = 1[x = y]``, from counts of labels per item);
* :func:`compare_means`: the sign of :math:`S_i(f) - S_i(h_j)` from those sums, exactly
  for integer sums and within a relative 1e-12 for float scores;
* :func:`sign_counts`: per human (and group of items), the counts behind
  :math:`\rho^f_j`, :math:`\rho^h_j` and the moments of :math:`d_i = W^h_i - W^f_i`;
* :func:`t_statistics`: one-sample t statistics of ``d`` from its exact integer moments;
* :func:`benjamini_yekutieli`: the step-up procedure over the humans' p-values.

Humans are columns, items rows; a human's missing annotation is ``present[i, j] = False``
(its cell in the value array is any valid value, never read).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = [
    "TIE_TOL",
    "benjamini_yekutieli",
    "compare_means",
    "leave_one_out_matches",
    "leave_one_out_sums",
    "sign_counts",
    "t_statistics",
]

#: Two float scores within this (relative to the larger magnitude when it exceeds 1, else
#: absolute) are a tie: float rounding never splits a true tie.
TIE_TOL = 1e-12

PairScore = Callable[[np.ndarray, np.ndarray], np.ndarray]


def leave_one_out_sums(
    values: np.ndarray,
    present: np.ndarray,
    pair_score: PairScore,
    probe: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Per item and human ``j``: the sum of pair scores against the other humans, and their count.

    Parameters
    ----------
    values : ndarray, shape (n_items, n_humans)
        The humans' annotations (codes or numbers); cells where ``present`` is False hold
        any valid value and are never counted.
    present : ndarray of bool, same shape
        Which human annotated which item.
    pair_score : callable
        ``pair_score(a, b)`` elementwise on broadcast arrays of annotations: the score of
        annotation ``a`` against another human's annotation ``b``.
    probe : ndarray, shape (n_items,), optional
        Score this annotation (the candidate's) instead of human ``j``'s own.

    Returns
    -------
    sums : ndarray, shape (n_items, n_humans)
        ``sums[i, j] = sum over k != j with present[i, k] of pair_score(x, values[i, k])``,
        ``x = values[i, j]`` (or ``probe[i]``); 0 where ``present[i, j]`` is False. Every
        entry is summed over the same row layout, so two equal annotations get bit-for-bit
        equal sums.
    n_other : ndarray of int, same shape
        The number of other humans of the item (0 where ``present[i, j]`` is False).

    Examples
    --------
    Three humans on one item, labels 0, 0, 1; equality as the score:

    >>> v = np.array([[0, 0, 1]])
    >>> p = np.ones_like(v, dtype=bool)
    >>> sums, n = leave_one_out_sums(v, p, np.equal)
    >>> sums.tolist(), n.tolist()
    ([[1, 1, 0]], [[2, 2, 2]])
    >>> leave_one_out_sums(v, p, np.equal, probe=np.array([1]))[0].tolist()
    [[1, 1, 0]]
    """
    n_items, n_humans = values.shape
    per_item = present.sum(axis=1)
    n_other = np.where(present, per_item[:, None] - 1, 0)
    probe_scores = None if probe is None else pair_score(probe[:, None], values)
    sums: np.ndarray | None = None
    for j in range(n_humans):
        rows = np.flatnonzero(present[:, j])
        if rows.size == 0:
            continue
        every = rows.size == n_items  # then slices, not copies
        others = present.copy() if every else present[rows]
        others[:, j] = False
        block = values if every else values[rows]
        if probe_scores is None:
            scores = pair_score(block[:, j][:, None], block)
        else:
            scores = probe_scores if every else probe_scores[rows]
        col = np.where(others, scores, np.zeros((), dtype=scores.dtype)).sum(axis=1)
        if sums is None:
            sums = np.zeros((n_items, n_humans), dtype=col.dtype)
        sums[rows, j] = col
    if sums is None:
        sums = np.zeros((n_items, n_humans))
    return sums, n_other


#: Largest items x labels table counted densely by :func:`leave_one_out_matches`.
DENSE_COUNTS = 1 << 25


def leave_one_out_matches(
    codes: np.ndarray, present: np.ndarray, probe: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`leave_one_out_sums` for the score ``1[a = b]`` on integer codes, without pairs.

    The number of other humans of item ``i`` who gave label ``x`` is the item's count of
    ``x`` less one when ``x`` is human ``j``'s own label, and less ``1[y_ij = x]`` for the
    candidate's label: one count per (item, label), looked up once per (item, human).

    Examples
    --------
    >>> v = np.array([[0, 0, 1]])
    >>> p = np.ones_like(v, dtype=bool)
    >>> [a.tolist() for a in leave_one_out_matches(v, p)]
    [[[1, 1, 0]], [[2, 2, 2]]]
    >>> leave_one_out_matches(v, p, probe=np.array([1]))[0].tolist()
    [[1, 1, 0]]
    """
    n_items = codes.shape[0]
    per_item = present.sum(axis=1)
    n_other = np.where(present, per_item[:, None] - 1, 0)
    item = np.broadcast_to(np.arange(n_items, dtype=np.int64)[:, None], codes.shape)
    n_labels = int(codes[present].max()) + 1 if present.any() else 1
    if probe is not None:
        n_labels = max(n_labels, int(probe.max()) + 1 if probe.size else 1)
    own_key = item * n_labels + codes
    if n_items * n_labels <= DENSE_COUNTS:
        counts = np.bincount(own_key[present], minlength=n_items * n_labels)

        def count(keys: np.ndarray) -> np.ndarray:
            return counts[keys]
    else:
        uniq, tally = np.unique(own_key[present], return_counts=True)

        def count(keys: np.ndarray) -> np.ndarray:
            pos = np.minimum(np.searchsorted(uniq, keys), uniq.size - 1)
            return np.where(uniq[pos] == keys, tally[pos], 0)

    if probe is None:
        sums = np.where(present, count(own_key) - 1, 0)
    else:
        probe_key = np.arange(n_items, dtype=np.int64) * n_labels + probe
        sums = np.where(present, count(probe_key)[:, None] - (codes == probe[:, None]), 0)
    return sums.astype(np.int64), n_other


def compare_means(
    sum_f: np.ndarray,
    sum_h: np.ndarray,
    n: np.ndarray,
    *,
    exact: bool,
    finish: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    r"""``sign(S(f) - S(h))`` for scores that are means over the same ``n`` other humans.

    Parameters
    ----------
    sum_f, sum_h : ndarray
        Sums of the candidate's and the human's pair scores over the same other humans.
    n : ndarray of int
        The number of other humans (> 0 where the sign is wanted).
    exact : bool
        True when the sums are exact (integers, or rationals scaled to integers): the sign
        of ``sum_f - sum_h`` is the sign of the difference of the means.
    finish : callable, optional
        For float sums, maps the mean of the pair scores to the score :math:`S` (for
        example ``-sqrt`` of a mean squared error); default the mean itself. The two
        scores are a tie when they differ by at most :data:`TIE_TOL` times
        ``max(1, |S(f)|, |S(h)|)``.

    Returns
    -------
    ndarray of int8
        1 where the candidate's score is higher, -1 where the human's is, 0 for a tie.

    Examples
    --------
    >>> compare_means(np.array([2, 1, 1]), np.array([1, 1, 2]), np.array([2, 2, 2]), exact=True)
    array([ 1,  0, -1], dtype=int8)
    >>> a, b = np.array([0.1 + 0.2]), np.array([0.3])
    >>> compare_means(a, b, np.array([1]), exact=False)  # 0.30000000000000004 vs 0.3: a tie
    array([0], dtype=int8)
    """
    if exact:
        diff = sum_f - sum_h
        return np.asarray(diff > 0, dtype=np.int8) - np.asarray(diff < 0, dtype=np.int8)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_f = sum_f / n
        mean_h = sum_h / n
    if finish is not None:
        mean_f, mean_h = finish(mean_f), finish(mean_h)
    scale = np.maximum(1.0, np.maximum(np.abs(mean_f), np.abs(mean_h)))
    diff = mean_f - mean_h
    tie = np.abs(diff) <= TIE_TOL * scale
    sign = np.where(diff > 0, 1, -1).astype(np.int8)
    sign[tie] = 0
    return sign


def sign_counts(
    sign: np.ndarray, eligible: np.ndarray, group: np.ndarray, n_groups: int
) -> dict[str, np.ndarray]:
    r"""Per group of items and human: the counts behind :math:`\rho` and the moments of ``d``.

    With :math:`W^f = 1[S(f) \ge S(h)]` (``sign >= 0``), :math:`W^h = 1[S(h) \ge S(f)]`
    (``sign <= 0``) and :math:`d = W^h - W^f = -\mathrm{sign}`.

    Parameters
    ----------
    sign : ndarray of int8, shape (n_items, n_humans)
    eligible : ndarray of bool, same shape
        The items of :math:`I_j` (only these are counted).
    group : ndarray of int, shape (n_items,)
        The group (domain) of each item, ``0 .. n_groups - 1``.
    n_groups : int

    Returns
    -------
    dict of ndarray, each of shape (n_groups, n_humans), int64
        ``n`` (items), ``wins_f`` (:math:`\sum W^f`), ``wins_h`` (:math:`\sum W^h`),
        ``sum_d`` (:math:`\sum d`) and ``sum_d2`` (:math:`\sum d^2`).

    Examples
    --------
    >>> s = np.array([[1], [0], [-1], [1]], dtype=np.int8)
    >>> c = sign_counts(s, np.ones((4, 1), bool), np.zeros(4, int), 1)
    >>> [int(c[k][0, 0]) for k in ("n", "wins_f", "wins_h", "sum_d", "sum_d2")]
    [4, 3, 2, -1, 3]
    """
    n_humans = sign.shape[1]
    out = {
        k: np.zeros((n_groups, n_humans), dtype=np.int64)
        for k in ("n", "wins_f", "wins_h", "sum_d", "sum_d2")
    }
    for j in range(n_humans):
        rows = np.flatnonzero(eligible[:, j])
        g = group[rows]
        s = sign[rows, j].astype(np.int64)
        out["n"][:, j] = np.bincount(g, minlength=n_groups)
        out["wins_f"][:, j] = np.bincount(g, weights=s >= 0, minlength=n_groups)
        out["wins_h"][:, j] = np.bincount(g, weights=s <= 0, minlength=n_groups)
        out["sum_d"][:, j] = np.bincount(g, weights=-s, minlength=n_groups)
        out["sum_d2"][:, j] = np.bincount(g, weights=s != 0, minlength=n_groups)
    return out


def t_statistics(
    n: np.ndarray, sum_d: np.ndarray, sum_d2: np.ndarray, epsilon: float
) -> tuple[np.ndarray, np.ndarray]:
    r"""One-sample t statistics of ``d`` against ``epsilon`` from exact integer moments.

    :math:`t = (\bar d - \varepsilon) / (s / \sqrt n)` with the sample standard deviation
    :math:`s^2 = (n \sum d^2 - (\sum d)^2) / (n (n - 1))`, whose numerator is an exact
    integer. Where every ``d`` is equal (:math:`s = 0`) the statistic is its limit:
    ``-inf`` when :math:`\bar d < \varepsilon`, ``+inf`` when greater, NaN when equal.

    Returns
    -------
    statistic, zero_spread : ndarray
        The statistics, and where :math:`s = 0`.

    Examples
    --------
    >>> t, flat = t_statistics(np.array([4, 3]), np.array([-1, -3]), np.array([3, 3]), 0.1)
    >>> round(float(t[0]), 6), float(t[1]), flat.tolist()
    (-0.731126, -inf, [False, True])
    """
    n = np.asarray(n, dtype=np.int64)
    sum_d = np.asarray(sum_d, dtype=np.int64)
    sum_d2 = np.asarray(sum_d2, dtype=np.int64)
    spread = n * sum_d2 - sum_d * sum_d  # n (n - 1) s^2, an exact integer
    zero_spread = spread == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = sum_d / n
        sd = np.sqrt(spread / (n * (n - 1.0)))
        t = (mean - epsilon) / (sd / np.sqrt(n))
    limit = np.where(mean < epsilon, -np.inf, np.where(mean > epsilon, np.inf, np.nan))
    return np.where(zero_spread, limit, t), zero_spread


def benjamini_yekutieli(p: np.ndarray, q: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The Benjamini-Yekutieli step-up procedure: which p-values are rejected at level ``q``.

    With :math:`c(m) = \sum_{k=1}^m 1/k`, the ``r`` smallest p-values are rejected, where
    :math:`r = \max\{i : p_{(i)} \le i q / (m\, c(m))\}` (none when no such ``i``).
    The adjusted p-values are :math:`\min(1, \min_{k \ge i} p_{(k)} m c(m) / k)`, so a
    p-value is rejected exactly when its adjusted value is at most ``q`` (as
    ``scipy.stats.false_discovery_control(p, method="by")``).

    Parameters
    ----------
    p : ndarray
        The p-values (no NaN).
    q : float
        The false discovery rate.

    Returns
    -------
    rejected : ndarray of bool
    adjusted : ndarray of float

    Examples
    --------
    >>> rej, adj = benjamini_yekutieli(np.array([0.001, 0.02, 0.04, 0.5]), 0.05)
    >>> rej.tolist()
    [True, False, False, False]
    >>> adj.round(4).tolist()
    [0.0083, 0.0833, 0.1111, 1.0]
    """
    p = np.asarray(p, dtype=float)
    m = p.size
    if m == 0:
        return np.zeros(0, dtype=bool), np.zeros(0)
    order = np.argsort(p, kind="stable")
    ranked = p[order]
    harmonic = float(np.sum(1.0 / np.arange(1, m + 1)))
    ranks = np.arange(1, m + 1)
    passing = np.flatnonzero(ranked <= ranks * q / (m * harmonic))
    rejected = np.zeros(m, dtype=bool)
    if passing.size:
        rejected[order[: passing[-1] + 1]] = True
    scaled = ranked * m * harmonic / ranks
    adjusted_sorted = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    adjusted = np.empty(m)
    adjusted[order] = adjusted_sorted
    return rejected, adjusted
