"""Do systems and docsets separate? The analysis of variance of seed 003, sections 5 and 6.

Passonneau (2005) fits a linear model of the pyramid score with peer and docset as
factors, reports the p-value of each factor, and compares all pairs of peers (Table 1) and
all pairs of docsets (Table 6) with Tukey's Honest Significant Difference (HSD), listing
for each set of peers the peers they score significantly higher than. The report does not
name its software.

* :func:`score_anova`: the additive two-factor analysis of variance (no interaction), by
  least squares in numpy, with type II sums of squares: each factor's sum of squares is the
  drop in the residual sum of squares when it is added to the model holding the other
  factor. For a balanced design (every peer x docset cell holding the same number of
  scores) these are the classical closed-form sums of squares, equal to the sequential
  (type I) ones in either order. statsmodels' ``anova_lm(typ=2)`` gives the same table; it
  is a test oracle, not a dependency.
* :func:`tukey_hsd`: every pair of levels of one factor, with the studentized range
  distribution of :data:`scipy.stats.studentized_range`, the residual mean square and
  degrees of freedom of the two-factor model (``block=``) or of the one-way model
  (``block=None``, where it equals :func:`scipy.stats.tukey_hsd`). Level means are the raw
  means and standard errors are Tukey-Kramer's ``sqrt(MSE / 2 (1/n_i + 1/n_j))``, exact for
  a balanced design. ``scipy.stats.tukey_hsd`` and statsmodels'
  ``pairwise_tukeyhsd`` are one-way only: with them the docset effect would stay in the
  error term.
* :meth:`HSDResult.groups`: the layout of Tables 1 and 6 (see there for the algorithm).

References
----------
Passonneau, R. J. (2005). Evaluating an Evaluation Method: The Pyramid Method Applied to
2003 Document Understanding Conference (DUC) Data. Technical Report CUCS-010-06, Columbia
University.

Tukey, J. W. (1953). The problem of multiple comparisons. Princeton University.
Kramer, C. Y. (1956). Extension of multiple range tests to group means with unequal
numbers of replications. Biometrics 12(3).
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...data.prepare import check_columns
from ...declare import declared
from ...errors import InvalidParameterError, ValueTypeError
from ...results import Result

__all__ = ["HSDResult", "score_anova", "tukey_hsd"]


def _show(values: list[Any], limit: int = 5) -> str:
    head = ", ".join(repr(v) for v in values[:limit])
    return head + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def _prepare(
    scores: Any, score: Hashable, factors: dict[str, Hashable | None]
) -> tuple[np.ndarray, dict[str, tuple[np.ndarray, pd.Index]]]:
    if not isinstance(scores, pd.DataFrame):
        raise ValueTypeError(f"`scores` must be a pandas DataFrame, got {type(scores).__name__}")
    if scores.empty:
        raise InvalidParameterError(f"`scores` is empty (shape {scores.shape})")
    named = {p: c for p, c in factors.items() if c is not None}
    check_columns(scores, score=score, **named)
    cols = [score, *named.values()]
    if len(set(cols)) != len(cols):
        raise InvalidParameterError(
            f"`score` and the factors must be distinct columns, got {cols!r}"
        )
    y = scores[score]
    if not pd.api.types.is_numeric_dtype(y) or pd.api.types.is_bool_dtype(y):
        raise ValueTypeError(f"`score` column {score!r} must be numeric, got {y.dtype}")
    for param, col in {"score": score, **named}.items():
        bad = scores[col].isna().to_numpy()
        if bad.any():
            raise InvalidParameterError(
                f"`{param}` column {col!r} has missing values (rows "
                f"{_show(list(scores.index[bad]))}); drop or fill them first"
            )
    coded = {}
    for param, col in named.items():
        codes, uniques = pd.factorize(scores[col], sort=True)
        if uniques.size < 2:
            raise InvalidParameterError(
                f"`{param}` column {col!r} needs at least two levels, got {list(uniques)!r}"
            )
        coded[param] = (codes.astype(np.int64), pd.Index(uniques, name=col))
    return y.to_numpy(np.float64), coded


def _rss(factors: list[tuple[np.ndarray, int]], y: np.ndarray) -> tuple[float, int]:
    """Residual sum of squares and rank of the additive model of ``y`` on the factors.

    The normal equations are built from level counts and cross-tabulations (one
    intercept and, per factor, indicator columns for every level but the first), so
    their size is the number of levels, not of scores; the residuals are then taken row
    by row from the fitted effects.
    """
    blocks = [(codes, k - 1) for codes, k in factors]
    sizes = [1] + [m for _, m in blocks]
    offsets = np.cumsum([0, *sizes])
    p = int(offsets[-1])
    xtx = np.zeros((p, p))
    xty = np.zeros(p)
    xtx[0, 0] = y.size
    xty[0] = y.sum()
    for b, (codes, m) in enumerate(blocks):
        lo = offsets[b + 1]
        counts = np.bincount(codes, minlength=m + 1)[1:].astype(np.float64)
        sums = np.bincount(codes, weights=y, minlength=m + 1)[1:]
        xtx[0, lo : lo + m] = xtx[lo : lo + m, 0] = counts
        xtx[lo : lo + m, lo : lo + m] = np.diag(counts)
        xty[lo : lo + m] = sums
        for c, (other, m2) in enumerate(blocks[:b]):
            lo2 = offsets[c + 1]
            cells = np.bincount(codes * (m2 + 1) + other, minlength=(m + 1) * (m2 + 1))
            table = cells.reshape(m + 1, m2 + 1).astype(np.float64)
            xtx[lo : lo + m, lo2 : lo2 + m2] = table[1:, 1:]
            xtx[lo2 : lo2 + m2, lo : lo + m] = table[1:, 1:].T
    coef, _, rank, _ = np.linalg.lstsq(xtx, xty, rcond=None)
    fitted = np.full(y.size, coef[0])
    for b, (codes, m) in enumerate(blocks):
        effects = np.concatenate(([0.0], coef[offsets[b + 1] : offsets[b + 1] + m]))
        fitted += effects[codes]
    resid = y - fitted
    return float(resid @ resid), int(rank)


def _fit(
    y: np.ndarray, coded: dict[str, tuple[np.ndarray, pd.Index]]
) -> tuple[dict[str, tuple[float, int]], float, int]:
    """Type II sums of squares and df of each factor; residual SS and df of the full model."""
    factors = {p: (c, len(u)) for p, (c, u) in coded.items()}
    rss_full, rank_full = _rss(list(factors.values()), y)
    effects = {}
    for p in factors:
        rss_r, rank_r = _rss([f for q, f in factors.items() if q != p], y)
        effects[p] = (rss_r - rss_full, rank_full - rank_r)
    return effects, rss_full, y.size - rank_full


@declared(frontends=("frame",))
def score_anova(
    scores: pd.DataFrame,
    *,
    score: Hashable = "score_modified",
    peer, docset,
) -> pd.DataFrame:
    """Two-factor analysis of variance of pyramid scores (seed 003, section 5).

    The additive model ``score ~ peer + docset`` (no interaction), fitted by least squares;
    each factor's sum of squares is type II (see the module notes). With ``docset=None``
    it is the one-way analysis of variance of ``peer``.

    Parameters
    ----------
    scores : pandas.DataFrame
        One row per score (for example :func:`pandas_agree.pyramid_scores`;
        several annotators' scores of a peer are replicates). Not modified.
    score : hashable, default "score_modified"
        The dependent variable.
    peer, docset : hashable
        The factor columns (any two factors may be named here).

    Returns
    -------
    pandas.DataFrame
        Indexed by the factor column names and ``"Residual"``, with columns ``df``,
        ``sum_sq``, ``mean_sq``, ``F`` and ``p`` (NaN on the residual row). With no
        residual degrees of freedom (one score per cell of a saturated design) F and p
        are NaN.

    Raises
    ------
    ColumnNotFoundError
        A named column is not in ``scores``.
    InvalidParameterError
        Missing values; a factor with fewer than two levels.
    ValueTypeError
        A non-numeric score column.

    Examples
    --------
    A balanced 3 x 2 layout, checked by hand: grand mean 5, peer means 3, 5 and 7, so
    SS_peer = 2 (4 + 0 + 4) = 16; docset means 13/3 and 17/3, so SS_docset = 3 (4/9 + 4/9)
    = 8/3; total SS 19, so the residual SS is 19 - 16 - 8/3 = 1/3 on 6 - 1 - 2 - 1 = 2 df:

    >>> import pandas as pd
    >>> from pandas_agree import pyramid_study
    >>> df = pd.DataFrame({"peer": list("aabbcc"), "docset": [1, 2] * 3,
    ...                    "score_modified": [2.0, 4.0, 4.5, 5.5, 6.5, 7.5]})
    >>> pyramid_study.score_anova(df).round(4)
              df   sum_sq  mean_sq     F       p
    peer       2  16.0000   8.0000  48.0  0.0204
    docset     1   2.6667   2.6667  16.0  0.0572
    Residual   2   0.3333   0.1667   NaN     NaN
    """
    from scipy import stats  # imported here: scipy.stats costs ~0.5 s at import

    y, coded = _prepare(scores, score, {"peer": peer, "docset": docset})
    effects, rss, df_resid = _fit(y, coded)
    mse = rss / df_resid if df_resid > 0 else np.nan
    rows = {}
    for p, (ss, dfe) in effects.items():
        ms = ss / dfe if dfe > 0 else np.nan
        f = ms / mse if df_resid > 0 and mse > 0 else np.nan
        pval = float(stats.f.sf(f, dfe, df_resid)) if np.isfinite(f) else np.nan
        rows[coded[p][1].name] = (dfe, ss, ms, f, pval)
    rows["Residual"] = (df_resid, rss, mse, np.nan, np.nan)
    columns = ["df", "sum_sq", "mean_sq", "F", "p"]
    out = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    out["df"] = out["df"].astype(np.int64)
    return out


@dataclass(frozen=True)
class HSDResult(Result):
    """Tukey's HSD for all pairs of levels of one factor.

    Attributes
    ----------
    factor, score : hashable
        The compared factor's column and the score column.
    block : hashable or None
        The second factor of the model, or None for the one-way model.
    confidence : float
        Family-wise confidence level; a pair differs significantly (``reject``) when its
        studentized range ``q`` exceeds the critical value at this level, that is, when
        its interval excludes 0 (equivalently ``p < 1 - confidence``).
    df_resid : int
        Residual degrees of freedom of the model.
    mse : float
        Residual mean square of the model.
    means : pandas.Series
        Mean score and (in ``counts``) number of scores per level, highest mean first.
    counts : pandas.Series
        Number of scores per level, in the order of ``means``.
    pairs : pandas.DataFrame
        One row per pair of levels (the first with the higher mean): ``<factor>_a``,
        ``<factor>_b``, ``mean_a``, ``mean_b``, ``diff`` (a minus b), ``low``, ``high``
        (simultaneous confidence interval of the difference), ``q`` (studentized range
        statistic), ``p`` and ``reject``.
    """

    factor: Hashable
    score: Hashable
    block: Hashable | None
    confidence: float
    df_resid: int
    mse: float
    means: pd.Series = field(repr=False)
    counts: pd.Series = field(repr=False)
    pairs: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """The pairwise comparisons (a copy of :attr:`pairs`)."""
        return self.pairs.copy()

    def groups(self) -> pd.DataFrame:
        """Sets of levels and the levels they score significantly higher than (Tables 1, 6).

        Algorithm: for each level (highest mean first) collect the levels it is
        significantly higher than (``reject`` and a higher mean); drop levels that are
        higher than none; put levels with the same collection in one row, rows in order of
        their first level. As the seed notes, the means of a row are shown for exposition
        only: the comparisons are level by level. ``better_than`` lists the lowest mean
        first, as Tables 1 and 6 do ("15, 17, 21, ...": 15 is the lowest peer).

        Returns
        -------
        pandas.DataFrame
            One row per set: ``levels`` (highest mean first) and ``better_than`` (lowest
            mean first),
            ``n_better``, ``mean`` (mean of the set's level means) and
            ``mean_better_than`` (mean of the level means it is higher than).

        Examples
        --------
        >>> import pandas as pd
        >>> from pandas_agree import pyramid_study
        >>> df = pd.DataFrame({"peer": list("aaabbbccc"),
        ...                    "score": [10, 11, 12, 5, 6, 7, 5.5, 6.5, 7.5]})
        >>> res = pyramid_study.tukey_hsd(df, score="score", block=None)
        >>> res.groups()
          levels better_than  n_better  mean  mean_better_than
        0    [a]      [b, c]         2  11.0              6.25
        """
        pairs = self.pairs
        fa, fb = f"{_label(self.factor)}_a", f"{_label(self.factor)}_b"
        better: dict[Any, list[Any]] = {}
        order = list(self.means.index)
        rank = {lvl: i for i, lvl in enumerate(order)}
        sig = pairs[pairs["reject"].to_numpy() & (pairs["diff"].to_numpy() > 0)]
        for a, b in zip(sig[fa].tolist(), sig[fb].tolist()):
            better.setdefault(a, []).append(b)
        rows: dict[tuple[Any, ...], list[Any]] = {}
        for lvl in order:
            if lvl in better:
                key = tuple(sorted(better[lvl], key=rank.__getitem__, reverse=True))
                rows.setdefault(key, []).append(lvl)
        means = self.means
        records = [
            {
                "levels": members,
                "better_than": list(key),
                "n_better": len(key),
                "mean": float(means[members].mean()),
                "mean_better_than": float(means[list(key)].mean()),
            }
            for key, members in rows.items()
        ]
        cols = ["levels", "better_than", "n_better", "mean", "mean_better_than"]
        return pd.DataFrame.from_records(records, columns=cols)


def _label(col: Hashable) -> str:
    return col if isinstance(col, str) else str(col)


@declared(frontends=("frame",))
def tukey_hsd(
    scores: pd.DataFrame,
    factor: Hashable = "peer",
    *,
    score: Hashable = "score_modified",
    block: Hashable | None = "docset",
    confidence: float = 0.95,
) -> HSDResult:
    """Tukey's HSD for all pairs of peers (or docsets) (seed 003, Tables 1 and 6).

    Parameters
    ----------
    scores : pandas.DataFrame
        One row per score. Not modified.
    factor : hashable, default "peer"
        The column whose levels are compared (``"docset"`` for Table 6).
    score : hashable, default "score_modified"
        The score column.
    block : hashable or None, default "docset"
        The other factor of the additive two-factor model, whose residual mean square and
        degrees of freedom the comparisons use (``"peer"`` for Table 6); ``None`` for the
        one-way model of ``factor`` alone.
    confidence : float, default 0.95
        Family-wise confidence level, in (0, 1).

    Returns
    -------
    HSDResult
        ``pairs`` holds every pair; ``groups()`` the layout of Tables 1 and 6. Each
        p-value is a numerical integration in :data:`scipy.stats.studentized_range`
        (about a millisecond per pair: 0.1 s for the 120 pairs of 16 peers, minutes for
        hundreds of levels); ``reject`` needs only the one critical value.

    Raises
    ------
    ColumnNotFoundError, InvalidParameterError, ValueTypeError
        As for :func:`score_anova`; also a bad ``confidence``, or no residual degrees of
        freedom.

    Examples
    --------
    Three peers on two docsets, one score each (the docset effect is taken out of the
    error term; with so few scores only peers a and c separate):

    >>> import pandas as pd
    >>> from pandas_agree import pyramid_study
    >>> df = pd.DataFrame({"peer": list("aabbcc"), "docset": [1, 2] * 3,
    ...                    "score_modified": [2.0, 4.0, 4.5, 5.5, 6.5, 7.5]})
    >>> res = pyramid_study.tukey_hsd(df)
    >>> res.pairs[["peer_a", "peer_b", "diff", "p", "reject"]].round(4)
      peer_a peer_b  diff       p  reject
    0      c      b   2.0  0.0707   False
    1      c      a   4.0  0.0187    True
    2      b      a   2.0  0.0707   False
    """
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not (0 < confidence < 1)
    ):
        raise InvalidParameterError(f"`confidence` must be a number in (0, 1), got {confidence!r}")
    y, coded = _prepare(scores, score, {"factor": factor, "block": block})
    _, rss, df_resid = _fit(y, coded)
    if df_resid <= 0:
        raise InvalidParameterError(
            f"the model of `score` {score!r} on {factor!r}"
            + (f" and {block!r}" if block is not None else "")
            + " leaves no residual degrees of freedom: Tukey's HSD needs replicates"
        )
    mse = rss / df_resid
    codes, levels = coded["factor"]
    k = len(levels)
    counts = np.bincount(codes, minlength=k).astype(np.float64)
    means = np.bincount(codes, weights=y, minlength=k) / counts
    order = np.argsort(-means, kind="stable")
    means_s, counts_s, levels_s = means[order], counts[order], levels[order]
    i, j = np.triu_indices(k, 1)
    diff = means_s[i] - means_s[j]
    se = np.sqrt(mse / 2.0 * (1.0 / counts_s[i] + 1.0 / counts_s[j]))
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.abs(diff) / se
    from scipy import stats  # imported here: scipy.stats costs ~0.5 s at import
    from scipy.integrate import IntegrationWarning

    with warnings.catch_warnings():  # far in the tail scipy's quadrature warns; p is ~0
        warnings.simplefilter("ignore", IntegrationWarning)
        p = stats.studentized_range.sf(q, k, df_resid)
        crit = float(stats.studentized_range.ppf(confidence, k, df_resid))
    p = np.where(np.isnan(q), 1.0, np.clip(p, 0.0, 1.0))
    name = _label(factor)
    pairs = pd.DataFrame(
        {
            f"{name}_a": levels_s[i],
            f"{name}_b": levels_s[j],
            "mean_a": means_s[i],
            "mean_b": means_s[j],
            "diff": diff,
            "low": diff - crit * se,
            "high": diff + crit * se,
            "q": q,
            "p": p,
            "reject": q > crit,
        }
    )
    return HSDResult(
        factor=factor,
        score=score,
        block=block,
        confidence=float(confidence),
        df_resid=int(df_resid),
        mse=float(mse),
        means=pd.Series(means_s, index=levels_s, name="mean"),
        counts=pd.Series(counts_s.astype(np.int64), index=levels_s, name="n"),
        pairs=pairs,
    )
