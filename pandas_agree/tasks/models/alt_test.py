r"""The alternative annotator test (alt-test): can a candidate annotator replace the humans?

Calderon, Reichart and Dror (2025) compare a candidate annotator ``f`` (a language model, a
cheaper crowd) with each human annotator ``j`` in turn, leaving ``j`` out:

* :math:`I_j`: the items ``j`` annotated, the candidate annotated, and at least one *other*
  human annotated. Humans with fewer than ``min_items`` such items are left out (with a
  reason); they still count among the other humans of everyone else's items.
* :math:`S_i(x)`: the mean over the other humans :math:`k \ne j` of item ``i`` of a
  similarity :math:`s(x, y_k)`: ``1[x = y]`` (``"accuracy"``), the negative root mean
  squared error :math:`-\sqrt{\mathrm{mean}_k (x - y_k)^2}` (``"neg_rmse"``), ``1 - d(x, y)``
  for a bounded set distance ``d`` of :mod:`pandas_agree.krippendorff.distances` (``"jaccard"``,
  ``"masi"``, ...), or a callable ``s(x, y) -> float``.
* :math:`W^f_i = 1[S_i(f) \ge S_i(h_j)]`, :math:`W^h_i = 1[S_i(h_j) \ge S_i(f)]` (a tie
  counts for both), :math:`d_i = W^h_i - W^f_i`; :math:`\rho^f_j` and :math:`\rho^h_j` are
  the means of :math:`W^f` and :math:`W^h` over :math:`I_j`.
* :math:`H_0: \mathrm{mean}(d) \ge \varepsilon` against :math:`H_1: \mathrm{mean}(d) <
  \varepsilon`, one p-value per human (one-sided one-sample t-test, or Wilcoxon's signed-rank
  test), and the Benjamini-Yekutieli procedure at level ``q`` over the ``m`` humans.
* The winning rate :math:`\omega = r / m` (``r`` humans rejected); the candidate passes when
  :math:`\omega \ge 0.5`. The average advantage probability :math:`\rho = \mathrm{mean}_j
  \rho^f_j` ranks candidates.

:math:`\varepsilon` is the cost-benefit margin: how much worse than a human the candidate may
be, given that it is cheaper and faster. The authors' guidance: 0.2 when the humans are
experts, 0.15 for skilled annotators, 0.1 for crowd workers, and lower when the humans'
own agreement is low. There is no default: the choice is part of the claim.

References
----------
Calderon, N., Reichart, R. and Dror, R. (2025). The Alternative Annotator Test for
LLM-as-a-Judge: How to Statistically Justify Replacing Human Annotators with LLMs.
Proceedings of ACL 2025, 16051-16081. arXiv:2501.10970.

Benjamini, Y. and Yekutieli, D. (2001). The control of the false discovery rate in multiple
testing under dependency. Annals of Statistics 29(4), 1165-1188.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ..._core.alt_test import (
    benjamini_yekutieli,
    compare_means,
    leave_one_out_matches,
    leave_one_out_sums,
    sign_counts,
    t_statistics,
)
from ...declare import declared
from ...errors import InvalidParameterError, NoEligibleHumansError, UnknownDistanceError
from ...results import Result
from ._coders import as_label_list, coder_positions, human_coders
from ._data import Form, Wide, wide

__all__ = ["TESTS", "AltTestResult", "alt_test", "check_epsilon"]

#: The tests of ``test=``.
TESTS = ("t", "wilcoxon")

# Set similarities whose values are rationals of (|A & B|, |A|, |B|): decided exactly.
_RATIONAL_SETS = ("jaccard", "dice", "masi", "masi_dice", "masi_jaccard")
# |sum_f - sum_h| below this (per other human) is re-decided in exact arithmetic.
_NEAR_TIE = 1e-9
_DENSE_PAIRS = 1 << 22


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class AltTestResult(Result):
    """The alt-test of one or more candidates against the human annotators.

    Attributes
    ----------
    summary : pandas.DataFrame
        One row per candidate, best first (by advantage probability; with ``by``, by
        domains passed, then advantage probability). Without ``by``:
        ``winning_rate`` (:math:`\\omega`), ``advantage_probability`` (:math:`\\rho`),
        ``passed`` (:math:`\\omega \\ge 0.5`), ``n_humans`` (``m``, humans tested),
        ``n_rejected`` (``r``), ``n_left_out``. With ``by``: ``domains_passed``,
        ``n_domains`` (domains with a human tested) and ``advantage_probability``, the
        mean of the domains' :math:`\\rho`.
    table : pandas.DataFrame
        One row per candidate (and domain) and human: ``n_items`` (:math:`|I_j|`),
        ``rho_f``, ``rho_h``, ``mean_d``, ``statistic``, ``p_value``, ``p_adjusted``
        (Benjamini-Yekutieli), ``rejected`` and ``reason`` (why a human was left out or a
        p-value is a limit; else None).
    domains : pandas.DataFrame or None
        With ``by``: one row per candidate and domain, with the columns of ``summary``
        without ``by`` and a ``reason`` for a domain where no human could be tested.
    epsilon, q : float
    test, similarity : str
    min_items : int

    Examples
    --------
    >>> import pandas_agree as pa
    >>> df = pa.datasets.model_annotations()
    >>> humans = ["h1", "h2", "h3", "h4", "h5", "h6"]
    >>> res = pa.alt_test(df, candidate="model_a", epsilon=0.15, humans=humans)
    >>> res.winning_rate, res.passed
    (1.0, True)
    """

    summary: pd.DataFrame = field(repr=False)
    table: pd.DataFrame = field(repr=False)
    domains: pd.DataFrame | None = field(repr=False)
    epsilon: float
    q: float
    test: str
    similarity: str
    min_items: int

    @property
    def candidates(self) -> list[Hashable]:
        """The candidates, best first."""
        return list(self.summary.index)

    def _single(self, name: str) -> Any:
        if self.domains is not None:
            raise InvalidParameterError(
                f"`{name}` is per domain with by=: see result.domains (and result.summary for "
                "'passes in X of N domains')"
            )
        if len(self.summary) != 1:
            raise InvalidParameterError(
                f"`{name}` is per candidate with several candidates {self.candidates}: see "
                "result.summary"
            )
        return self.summary[name].iloc[0]

    @property
    def winning_rate(self) -> float:
        """:math:`\\omega = r / m` of the one candidate (several: see ``summary``)."""
        return float(self._single("winning_rate"))

    @property
    def advantage_probability(self) -> float:
        """:math:`\\rho` of the one candidate (several: see ``summary``)."""
        return float(self._single("advantage_probability"))

    @property
    def passed(self) -> bool:
        """Whether the one candidate passes (:math:`\\omega \\ge 0.5`)."""
        return bool(self._single("passed"))

    def __float__(self) -> float:
        return self.winning_rate

    def to_frame(self) -> pd.DataFrame:
        """The per-human table (a copy)."""
        return self.table.copy()

    def __repr__(self) -> str:
        head = f"epsilon={self.epsilon:g}, q={self.q:g}, test={self.test!r}"
        if self.domains is not None:
            parts = [
                f"{c!r}: passes in {int(r.domains_passed)} of {int(r.n_domains)} domains"
                for c, r in self.summary.iterrows()
            ]
            return f"AltTestResult({'; '.join(parts)}, {head})"
        if len(self.summary) == 1:
            c, r = next(self.summary.iterrows())
            return (
                f"AltTestResult(candidate={c!r}, winning_rate={r.winning_rate:.4f}, "
                f"advantage_probability={r.advantage_probability:.4f}, passed={bool(r.passed)}, "
                f"n_humans={int(r.n_humans)}, {head})"
            )
        best = ", ".join(
            f"{c!r}: {r.winning_rate:.2f}/{r.advantage_probability:.2f}"
            for c, r in self.summary.iterrows()
        )
        return f"AltTestResult(omega/rho {{{best}}}, {head})"


# ---------------------------------------------------------------------------------------------
# Parameters


def check_epsilon(epsilon: Any) -> float:
    """``epsilon`` as a float in [0, 1); else an InvalidParameterError."""
    if (
        isinstance(epsilon, bool)
        or not isinstance(epsilon, (int, float, np.integer, np.floating))
        or not 0 <= epsilon < 1
    ):
        raise InvalidParameterError(
            f"`epsilon` must be a number in [0, 1) (the cost-benefit margin: 0.2 for expert "
            f"humans, 0.15 skilled, 0.1 crowd workers), got {epsilon!r}"
        )
    return float(epsilon)


def _check_args(q: Any, test: Any, min_items: Any) -> None:
    if (
        isinstance(q, bool)
        or not isinstance(q, (int, float, np.integer, np.floating))
        or not (0 < q < 1)
    ):
        raise InvalidParameterError(f"`q` must be a number in (0, 1), got {q!r}")
    if test not in TESTS:
        raise InvalidParameterError(f"`test` must be one of {list(TESTS)}, got {test!r}")
    if isinstance(min_items, bool) or not isinstance(min_items, (int, np.integer)) or min_items < 2:
        raise InvalidParameterError(
            f"`min_items` must be an integer of at least 2 (a test needs two items), got "
            f"{min_items!r}"
        )


# ---------------------------------------------------------------------------------------------
# Similarities on value codes


@dataclass(frozen=True)
class _Scorer:
    """How two annotations score against each other, on value codes."""

    name: str
    pair: Callable[[np.ndarray, np.ndarray], np.ndarray]
    exact: bool
    finish: Callable[[np.ndarray], np.ndarray] | None = None
    exact_pair: Callable[[int, int], Fraction] | None = None
    equality: bool = False  # the score is 1[a = b] on codes: counted, not paired
    is_callable: bool = False  # a user's similarity function
    lift: Callable[[np.ndarray], np.ndarray] | None = None  # codes to what ``pair`` takes

    def sums(
        self, codes: np.ndarray, present: np.ndarray, probe: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """:math:`\\sum_{k \\ne j} s(x, y_k)` per item and human, and the number of others."""
        if self.equality:
            return leave_one_out_matches(codes, present, probe)
        if self.lift is not None:
            codes = self.lift(codes)
            probe = None if probe is None else self.lift(probe)
        return leave_one_out_sums(codes, present, self.pair, probe)


def _form(similarity: Any, weights: Any) -> tuple[Form, Any]:
    """What the values must be for ``similarity``, and the resolved similarity."""
    import pandas_agree as pa

    if isinstance(similarity, pa.distances.Distance):
        similarity = similarity.name if similarity.kind != "set" else similarity
    if callable(similarity) and not isinstance(similarity, (str, pa.distances.Distance)):
        if weights is not None:
            raise InvalidParameterError(
                "`weights` only applies to weighted set distances, got a callable similarity"
            )
        return "labels", similarity
    if not isinstance(similarity, (str, pa.distances.Distance)):
        raise InvalidParameterError(
            f"`similarity` must be 'accuracy', 'neg_rmse', a set distance name or a callable "
            f"s(x, y) -> float, got {similarity!r}"
        )
    if similarity in ("accuracy", "neg_rmse"):
        if weights is not None:
            raise InvalidParameterError(
                f"`weights` only applies to weighted set distances, got similarity={similarity!r}"
            )
        return ("labels" if similarity == "accuracy" else "numbers"), similarity
    try:
        dist = pa.distances.get_distance(similarity)
    except UnknownDistanceError:
        raise InvalidParameterError(
            f"`similarity` must be 'accuracy', 'neg_rmse', a set distance "
            f"({[n for n in pa.distances.available_distances() if _is_set(n)]}) or a callable "
            f"s(x, y) -> float, got {similarity!r}"
        ) from None
    if dist.kind != "set":
        raise InvalidParameterError(
            f"`similarity` {similarity!r} is a {dist.kind} distance for alpha, not a set "
            "distance; use 'accuracy' for labels, 'neg_rmse' for numbers, or a set distance "
            "(similarity 1 - d) for sets"
        )
    if dist.weighted and weights is None:
        raise InvalidParameterError(
            f"`similarity` {similarity!r} needs element weights: pass weights={{element: weight}}"
        )
    if weights is not None and not dist.weighted:
        raise InvalidParameterError(
            f"`weights` only applies to weighted set distances, got similarity={similarity!r}"
        )
    return "sets", dist


def _is_set(name: str) -> bool:
    import pandas_agree as pa

    return pa.distances.get_distance(name).kind == "set"


class _PairTable:
    """Scores of ordered pairs of value codes, each distinct pair evaluated once."""

    def __init__(self, n_values: int, evaluate: Callable[[np.ndarray, np.ndarray], np.ndarray]):
        self.n = n_values
        self.evaluate = evaluate
        self.dense = np.full(n_values * n_values, np.nan) if n_values**2 <= _DENSE_PAIRS else None
        self.cache: dict[int, float] = {}

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        a, b = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
        keys = a * self.n + b
        if self.dense is not None:
            got = self.dense[keys]
            todo = np.unique(keys[np.isnan(got)])
            if todo.size:
                self.dense[todo] = self.evaluate(todo // self.n, todo % self.n)
                got = self.dense[keys]
            return got
        uniq, inverse = np.unique(keys, return_inverse=True)
        todo = np.array([k for k in uniq.tolist() if k not in self.cache], dtype=np.int64)
        if todo.size:
            self.cache.update(zip(todo.tolist(), self.evaluate(todo // self.n, todo % self.n)))
        vals = np.array([self.cache[k] for k in uniq.tolist()], dtype=float)
        return vals[inverse].reshape(keys.shape)


def _finite(name: str, out: Any, size: int) -> np.ndarray:
    try:
        arr = np.asarray(out, dtype=float).reshape(size)
    except (TypeError, ValueError):
        raise InvalidParameterError(
            f"`similarity` {name!r} must return one number per pair, got {out!r:.200}"
        ) from None
    if not np.isfinite(arr).all():
        raise InvalidParameterError(
            f"`similarity` {name!r} must return finite numbers, got {arr[~np.isfinite(arr)][:3]}"
        )
    return arr


def _callable_scorer(func: Callable[[Any, Any], float], values: np.ndarray) -> _Scorer:
    name = getattr(func, "__name__", None) or type(func).__name__

    def evaluate(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = []
        for x, y in zip(a.tolist(), b.tolist()):
            try:
                out.append(func(values[x], values[y]))
            except Exception as exc:
                raise InvalidParameterError(
                    f"`similarity` {name!r} raised {type(exc).__name__} on "
                    f"({values[x]!r}, {values[y]!r}): {exc}"
                ) from exc
        return _finite(name, out, len(out))

    return _Scorer(name, _PairTable(len(values), evaluate), exact=False, is_callable=True)


def exact_set_similarity(name: str, inter: int, na: int, nb: int) -> Fraction:
    """``1 - d`` of a built-in set distance as an exact fraction of (|A & B|, |A|, |B|).

    The formulas of :mod:`pandas_agree.krippendorff.distances` in rational arithmetic
    (MASI's thirds are exact thirds), for deciding ties exactly.

    Examples
    --------
    >>> exact_set_similarity("masi", 2, 2, 3)  # Passonneau (2006), Figure 2: J = M = 2/3
    Fraction(4, 9)
    """
    union = na + nb - inter
    jac = Fraction(inter, union) if union else Fraction(1)
    dice = Fraction(2 * inter, na + nb) if na + nb else Fraction(1)
    # MASI's monotonicity M: 1 for equal sets, 2/3 when one is a subset of the other, 1/3
    # when they only intersect, 0 when disjoint; Passonneau's overlap penalty is 1 - M.
    if inter == na == nb:
        mono = Fraction(1)
    elif inter == min(na, nb) and inter > 0:
        mono = Fraction(2, 3)
    elif inter > 0:
        mono = Fraction(1, 3)
    else:
        mono = Fraction(0)
    penalty = 1 - mono
    if name == "jaccard":
        return jac
    if name == "dice":
        return dice
    if name == "masi":
        return jac * mono
    if name == "masi_dice":
        return 1 - (1 - dice) * penalty
    if name == "masi_jaccard":
        return 1 - (1 - jac) * penalty
    raise InvalidParameterError(f"no exact form for set distance {name!r}")


def _set_scorer(dist: Any, values: np.ndarray, weights: Any) -> _Scorer:
    import pandas_agree as pa

    sets = list(values)
    sizes = np.array([len(s) for s in sets], dtype=float)
    name = dist.name
    if dist.weighted:

        def evaluate(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            d = [
                dist.func(sets[x], sets[y], weights=weights) for x, y in zip(a.tolist(), b.tolist())
            ]
            return 1.0 - _bounded(name, _finite(name, d, len(d)))

        return _Scorer(name, _PairTable(len(sets), evaluate), exact=False)
    kernel = pa.distances.set_kernel(dist)

    def evaluate(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        inter = np.array([len(sets[x] & sets[y]) for x, y in zip(a.tolist(), b.tolist())], float)
        d = _finite(name, kernel(inter, sizes[a], sizes[b]), a.size)
        return 1.0 - _bounded(name, d)

    exact_pair = None
    if name in _RATIONAL_SETS and pa.distances.get_distance(name) is dist:

        def exact_pair(x: int, y: int) -> Fraction:
            return exact_set_similarity(name, len(sets[x] & sets[y]), len(sets[x]), len(sets[y]))

    return _Scorer(name, _PairTable(len(sets), evaluate), exact=False, exact_pair=exact_pair)


def _bounded(name: str, d: np.ndarray) -> np.ndarray:
    if ((d < 0) | (d > 1)).any():
        raise InvalidParameterError(
            f"`similarity` {name!r} must be a bounded set distance with values in [0, 1], got "
            f"{d[(d < 0) | (d > 1)][:3]}"
        )
    return d


def _scorer(similarity: Any, resolved: Any, values: np.ndarray, weights: Any) -> _Scorer:
    if resolved == "accuracy":
        return _Scorer("accuracy", np.equal, exact=True, equality=True)
    if resolved == "neg_rmse":
        x = np.asarray(values, dtype=float)

        def squared(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            diff = a - b
            return diff * diff

        return _Scorer(
            "neg_rmse",
            squared,
            exact=False,
            finish=lambda m: -np.sqrt(m),
            lift=lambda codes: x[codes],
        )
    if callable(resolved) and not hasattr(resolved, "kind"):
        return _callable_scorer(resolved, values)
    return _set_scorer(resolved, values, weights)


# ---------------------------------------------------------------------------------------------
# The comparisons


def _signs(
    codes: np.ndarray,
    present: np.ndarray,
    sums_h: np.ndarray,
    n_other: np.ndarray,
    candidate: np.ndarray,
    scorer: _Scorer,
) -> tuple[np.ndarray, np.ndarray]:
    """Items of each :math:`I_j` and ``sign(S(f) - S(h_j))`` on them, for one candidate."""
    has = candidate >= 0
    probe = np.where(has, candidate, 0)
    sums_f, _ = scorer.sums(codes, present, probe)
    eligible = present & has[:, None] & (n_other >= 1)
    sign = np.zeros(codes.shape, dtype=np.int8)
    sign[eligible] = compare_means(
        sums_f[eligible],
        sums_h[eligible],
        n_other[eligible],
        exact=scorer.exact,
        finish=scorer.finish,
    )
    if scorer.exact_pair is not None:
        near = eligible & (np.abs(sums_f - sums_h) <= _NEAR_TIE * np.maximum(1, n_other))
        for i, j in zip(*np.nonzero(near)):
            sign[i, j] = _exact_sign(codes[i], present[i], j, int(candidate[i]), scorer.exact_pair)
    return eligible, sign


def _exact_sign(
    row: np.ndarray,
    present: np.ndarray,
    j: int,
    cand: int,
    exact_pair: Callable[[int, int], Fraction],
) -> int:
    own = int(row[j])
    if own == cand:
        return 0
    others = [int(row[k]) for k in np.flatnonzero(present) if k != j]
    diff = sum(exact_pair(cand, y) for y in others) - sum(exact_pair(own, y) for y in others)
    return (diff > 0) - (diff < 0)


def _p_values(
    test: str,
    epsilon: float,
    counts: dict[str, np.ndarray],
    tested: np.ndarray,
    d_of: Callable[[int, int], np.ndarray],
) -> tuple[np.ndarray, np.ndarray, list[str | None]]:
    """Statistic, p-value and reason per tested (group, human) cell, in ``np.nonzero`` order."""
    from scipy import special, stats

    g_idx, j_idx = np.nonzero(tested)
    n = counts["n"][tested]
    sum_d = counts["sum_d"][tested]
    reasons: list[str | None] = [None] * n.size
    if test == "t":
        stat, flat = t_statistics(n, sum_d, counts["sum_d2"][tested], epsilon)
        with np.errstate(invalid="ignore"):
            p = special.stdtr(n - 1.0, stat)
        for k in np.flatnonzero(flat):
            mean = sum_d[k] / n[k]
            below = mean < epsilon
            p[k] = 0.0 if below else 1.0
            reasons[k] = (
                f"every d_i equals {int(sum_d[k] // n[k])}, so the t statistic is undefined (no "
                f"spread); the p-value is its limit {0 if below else 1} "
                f"(mean(d) {'<' if below else '>='} epsilon)"
            )
        return stat, p, reasons
    stat = np.full(n.size, np.nan)
    p = np.ones(n.size)
    for k, (g, j) in enumerate(zip(g_idx, j_idx)):
        shifted = d_of(int(g), int(j)) - epsilon
        if not shifted.any():
            reasons[k] = (
                "every d_i equals epsilon: no difference to rank, so the p-value is 1 "
                "(mean(d) = epsilon, not below it)"
            )
            continue
        res = stats.wilcoxon(shifted, alternative="less")
        stat[k], p[k] = float(res.statistic), float(res.pvalue)
    return stat, p, reasons


def _mean_fraction(parts: Sequence[Fraction]) -> float:
    """The mean of exact fractions, rounded once."""
    return float(sum(parts, Fraction(0)) / len(parts)) if parts else math.nan


@declared()
def alt_test(
    data: pd.DataFrame,
    *,
    candidate: Hashable | Sequence[Hashable],
    epsilon: float,
    similarity: str | Callable[[Any, Any], float] = "accuracy",
    q: float = 0.05,
    test: str = "t",
    min_items: int = 30,
    humans: Sequence[Hashable] | None = None,
    by: Hashable | None = None,
    weights: Any = None,
    unit, coder, value,
) -> AltTestResult:
    r"""The alternative annotator test: can ``candidate`` replace the human annotators?

    The procedure of Calderon, Reichart and Dror (2025), formulas in
    :mod:`pandas_agree.tasks.models.alt_test`: for each human ``j``, on the items ``j``, the
    candidate and another human annotated, does the candidate represent the other humans at
    least as well as ``j`` does, up to the margin ``epsilon``?

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per annotation; the candidates are coders like the humans. Not
        modified. NaN, None and ``pd.NA`` values are missing annotations.
    candidate : label or list of labels
        The coder(s) to test. Each is tested against the humans only (never against another
        candidate); several give one row each in ``summary``, best first.
    epsilon : float in [0, 1)
        The cost-benefit margin (required): 0.2 when the humans are experts, 0.15 for
        skilled annotators, 0.1 for crowd workers (Calderon et al. 2025); lower when the
        humans agree little among themselves.
    similarity : {"accuracy", "neg_rmse"}, set distance name or callable, default "accuracy"
        ``"accuracy"``: ``1[x = y]`` on labels (non-integer floats are refused: use
        ``"neg_rmse"``); ``"neg_rmse"``: :math:`S = -\sqrt{\mathrm{mean}_k (x - y_k)^2}` on
        numbers; a set distance of :func:`pandas_agree.krippendorff.distances.available_distances`
        with
        values in [0, 1] (``"jaccard"``, ``"dice"``, ``"masi"``, ``"masi_dice"``,
        ``"masi_jaccard"``, ``"weighted_jaccard"``, ...): ``1 - d(x, y)`` on set-valued cells;
        a callable: a pairwise similarity ``s(x, y) -> float`` of the scored annotation ``x``
        and another human's ``y``, called once per distinct ordered pair of values.
    q : float, default 0.05
        The false discovery rate of the Benjamini-Yekutieli procedure.
    test : {"t", "wilcoxon"}, default "t"
        ``"t"``: ``scipy.stats.ttest_1samp(d, epsilon, alternative="less")``. When every
        :math:`d_i` is equal the statistic is undefined; its limit is reported: p = 0 when
        :math:`\bar d < \varepsilon`, else 1, with a ``reason``. ``"wilcoxon"`` (the
        authors' advice below 30 items): ``scipy.stats.wilcoxon(d - epsilon,
        alternative="less")`` with scipy's defaults: zero differences dropped
        (``zero_method="wilcox"``), tied absolute differences given their mean rank, the
        exact distribution for at most 50 non-zero differences without ties, else the normal
        approximation, no continuity correction. When every :math:`d_i` equals
        :math:`\varepsilon` nothing is left to rank: p = 1 with a ``reason``.
    min_items : int, default 30
        Humans with fewer items in :math:`I_j` are left out (a row with a reason). They
        still count among the other humans of the remaining humans' items.
    humans : list of labels, optional
        The human coders; default every coder that is not a candidate. A candidate listed
        here is refused.
    by : column name, optional
        Domains (constant within a unit): :math:`\omega` and :math:`\rho` per domain, the
        Benjamini-Yekutieli procedure over all domain x human p-values of a candidate
        together (as the authors advise), and "passes in X of N domains".
    weights : mapping or callable, optional
        Element weights for ``weighted_dice`` and ``weighted_jaccard``.

    Returns
    -------
    AltTestResult
        ``winning_rate``, ``advantage_probability`` and ``passed`` (one candidate, no
        ``by``), ``summary``, ``table`` (one row per human), ``domains`` (with ``by``).

    Raises
    ------
    InvalidParameterError
        An unknown candidate or human, a candidate listed among the humans, ``epsilon``
        outside [0, 1), ``q`` outside (0, 1), an unknown ``test`` or ``similarity``.
    ValueTypeError
        A similarity that does not fit the values (``"accuracy"`` on non-integer floats,
        ``"neg_rmse"`` on text or sets, a set distance on scalars).
    NoEligibleHumansError
        No human of a candidate has ``min_items`` items to compare.
    DuplicateRatingError, ColumnNotFoundError

    Notes
    -----
    Ties are decided exactly, so rounding never turns a tie into a loss: for labels the
    numbers of matching other humans are compared as integers; for the set distances
    ``jaccard``, ``dice``, ``masi``, ``masi_dice`` and ``masi_jaccard`` any two means closer
    than 1e-9 are compared again as exact fractions; for numbers (``neg_rmse``), weighted or
    user set distances and callables, two scores within 1e-12 (relative to the larger when
    it exceeds 1) are a tie. :math:`\rho^f_j` and :math:`\rho` are computed from exact
    fractions and rounded once.

    References
    ----------
    Calderon, N., Reichart, R. and Dror, R. (2025). The Alternative Annotator Test for
    LLM-as-a-Judge. ACL 2025. arXiv:2501.10970.

    Examples
    --------
    The bundled synthetic study (:func:`pandas_agree.datasets.model_annotations`): six
    humans and three models label sentiment.

    >>> import pandas_agree as pa
    >>> df = pa.datasets.model_annotations()
    >>> res = pa.alt_test(df, candidate=["model_a", "model_b", "model_c"], epsilon=0.15)
    >>> res.summary[["winning_rate", "advantage_probability", "passed"]].round(3)
             winning_rate  advantage_probability  passed
    coder
    model_a         1.000                   0.95    True
    model_b         0.833                   0.86    True
    model_c         0.000                   0.79   False

    With one candidate, every other coder counts as a human unless ``humans=`` says which
    coders are the humans.
    """
    epsilon = check_epsilon(epsilon)
    _check_args(q, test, min_items)
    form, resolved = _form(similarity, weights)
    cands = as_label_list(candidate, "candidate")
    tab = wide(data, unit=unit, coder=coder, value=value, form=form, by=by)
    cand_pos = coder_positions(tab.coders, cands, "candidate")
    human_pos = _human_positions(tab, cands, humans)
    scorer = _scorer(similarity, resolved, tab.values, weights)
    present = tab.codes[:, human_pos] >= 0
    codes = np.where(present, tab.codes[:, human_pos], 0)
    sums_h, n_other = scorer.sums(codes, present)
    if tab.group is None:
        group, group_labels = np.zeros(len(tab.units), dtype=np.intp), [None]
    else:
        group, group_labels = tab.group, list(tab.groups)
    n_groups = len(group_labels)
    coded_in = np.stack(
        [np.bincount(group[present[:, j]], minlength=n_groups) for j in range(len(human_pos))],
        axis=1,
    )
    human_labels = list(tab.coders[human_pos])
    name = scorer.name if not scorer.is_callable else f"callable {scorer.name}"
    rows, domain_rows, summary_rows = [], [], []
    for c_label, c_pos in zip(cands, cand_pos):
        eligible, sign = _signs(codes, present, sums_h, n_other, tab.codes[:, c_pos], scorer)
        counts = sign_counts(sign, eligible, group, n_groups)
        n = counts["n"]
        tested = n >= min_items
        if not tested.any():
            best = int(n.max()) if n.size else 0
            raise NoEligibleHumansError(
                f"candidate {c_label!r} cannot be compared with any human: the most items a "
                f"human shares with it and another human is {best}, fewer than "
                f"min_items={min_items} (humans: {human_labels[:10]})"
            )

        def d_of(
            g: int, j: int, eligible: np.ndarray = eligible, sign: np.ndarray = sign
        ) -> np.ndarray:
            rows_j = np.flatnonzero(eligible[:, j] & (group == g))
            return -sign[rows_j, j].astype(float)

        stat, p, reasons = _p_values(test, epsilon, counts, tested, d_of)
        rejected, adjusted = benjamini_yekutieli(p, float(q))
        cell = {key: k for k, key in enumerate(zip(*np.nonzero(tested)))}
        per_group: list[list[tuple[Fraction, bool]]] = [[] for _ in range(n_groups)]
        for g in range(n_groups):
            for j in range(len(human_pos)):
                if coded_in[g, j] == 0 and n[g, j] == 0:
                    continue
                k = cell.get((g, j))
                nj = int(n[g, j])
                row = {
                    "candidate": c_label,
                    "domain": group_labels[g],
                    "human": human_labels[j],
                    "n_items": nj,
                    "rho_f": counts["wins_f"][g, j] / nj if nj else math.nan,
                    "rho_h": counts["wins_h"][g, j] / nj if nj else math.nan,
                    "mean_d": counts["sum_d"][g, j] / nj if nj else math.nan,
                    "statistic": math.nan if k is None else float(stat[k]),
                    "p_value": math.nan if k is None else float(p[k]),
                    "p_adjusted": math.nan if k is None else float(adjusted[k]),
                    "rejected": False if k is None else bool(rejected[k]),
                    "reason": (
                        f"{nj} item(s) annotated by this human, the candidate and another human: "
                        f"fewer than min_items={min_items}, left out"
                        if k is None
                        else reasons[k]
                    ),
                }
                rows.append(row)
                if k is not None:
                    per_group[g].append(
                        (Fraction(int(counts["wins_f"][g, j]), nj), bool(rejected[k]))
                    )
        for g in range(n_groups):
            tested_here = per_group[g]
            m = len(tested_here)
            r = sum(rej for _, rej in tested_here)
            left_out = int(((coded_in[g] > 0) | (n[g] > 0)).sum()) - m
            omega = r / m if m else math.nan
            domain_rows.append(
                {
                    "candidate": c_label,
                    "domain": group_labels[g],
                    "winning_rate": omega,
                    "advantage_probability": _mean_fraction([f for f, _ in tested_here]),
                    "passed": bool(m and omega >= 0.5),
                    "n_humans": m,
                    "n_rejected": int(r),
                    "n_left_out": left_out,
                    "reason": None
                    if m
                    else (
                        f"no human has min_items={min_items} items with this candidate in "
                        "this domain"
                    ),
                }
            )
        mine = [d for d in domain_rows if d["candidate"] == c_label]
        if by is None:
            d = mine[0]
            summary_rows.append({k: v for k, v in d.items() if k not in ("domain", "reason")})
        else:
            testable = [d for d in mine if d["n_humans"]]
            summary_rows.append(
                {
                    "candidate": c_label,
                    "domains_passed": sum(d["passed"] for d in testable),
                    "n_domains": len(testable),
                    "advantage_probability": float(
                        np.mean([d["advantage_probability"] for d in testable])
                    ),
                }
            )
    return _result(rows, domain_rows, summary_rows, by, coder, epsilon, q, test, name, min_items)


def _human_positions(tab: Wide, cands: list[Hashable], humans: Any) -> np.ndarray:
    """The columns of ``tab`` of the human coders (:func:`human_coders` checked each one)."""
    labels = human_coders(tab.coders, cands, humans, "candidate")
    if not labels:
        raise InvalidParameterError(
            f"`humans`: every coder is a candidate ({cands}); there is no human to compare with"
        )
    return tab.coders.get_indexer(pd.Index(labels, dtype=object)).astype(np.intp)


def _result(
    rows: list[dict],
    domain_rows: list[dict],
    summary_rows: list[dict],
    by: Hashable | None,
    coder: Hashable,
    epsilon: float,
    q: float,
    test: str,
    similarity: str,
    min_items: int,
) -> AltTestResult:
    table = pd.DataFrame(rows)
    summary = pd.DataFrame(summary_rows).set_index("candidate")
    summary.index.name = coder
    key = ["candidate", "domain", "human"] if by is not None else ["candidate", "human"]
    table = table.drop(columns=[] if by is not None else ["domain"]).set_index(key)
    names = [coder, by, "human"] if by is not None else [coder, "human"]
    table.index = table.index.set_names(names)
    domains = None
    if by is not None:
        domains = pd.DataFrame(domain_rows).set_index(["candidate", "domain"])
        domains.index = domains.index.set_names([coder, by])
        order = summary.sort_values(
            ["domains_passed", "advantage_probability"], ascending=False, kind="stable"
        ).index
    else:
        order = summary.sort_values("advantage_probability", ascending=False, kind="stable").index
    summary = summary.loc[order]
    return AltTestResult(
        summary=summary,
        table=table,
        domains=domains,
        epsilon=epsilon,
        q=float(q),
        test=test,
        similarity=similarity,
        min_items=int(min_items),
    )
