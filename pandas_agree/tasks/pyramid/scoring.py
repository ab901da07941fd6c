"""Pyramid scores, and whether two annotators' scores agree (Passonneau 2005, seed 003).

A pyramid (Nenkova and Passonneau 2004) weights each Summary Content Unit (SCU) by the
number of model summaries that express it. A peer (system) summary is annotated with the
SCUs it expresses, and scored by comparing the summed weight of those SCUs with the weight
of an ideal summary:

* **OBS**: the sum of the weights of the distinct SCUs the peer expresses.
* **MAX**: the weight of an ideal summary of ``X`` SCUs, "computed by sampling SCUs without
  replacement from the pyramid, first taking those of the maximum weight, then each next
  weight" (Passonneau 2005, section 2). In Nenkova et al.'s (2007, section 3.1) closed form,
  with tiers ``T_1 .. T_n`` (``T_i`` the SCUs of weight ``i``),
  ``MAX = sum_{i=j+1..n} i |T_i| + j (X - sum_{i=j+1..n} |T_i|)``, where
  ``j = max_i (sum_{t=i..n} |T_t| >= X)``.
* The **original score** is OBS / MAX with ``X`` the number of SCUs in the peer (a
  precision-like score); the **modified score** uses ``X`` the average number of SCUs per
  model summary (a recall-like score, Passonneau et al. 2005).

Counting follows DUCView 1.4, the annotation and scoring tool of DUC 2005 and 2006: the
number of SCUs in a peer counts every annotated contributor (a repeated SCU and a content
unit that matches no pyramid SCU each count), OBS counts each distinct SCU once, and the
average number of SCUs per model summary (the pyramid's contributors over its models) is
rounded to the nearest whole number (halves up, Java's ``Math.round``). See
:func:`pyramid_scores` for the other roundings on offer.

:func:`score_agreement` then asks whether the scores computed from two annotators' work
agree (Passonneau 2005, Tables 3 and 5), and :func:`sentence_weight_variation` measures how
SCU weights vary inside a peer's sentences (Table 8). The analysis of variance and Tukey's
HSD of Tables 1 and 6 are in :mod:`pandas_agree.tasks.pyramid.study`.

References
----------
Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: the
pyramid method. HLT-NAACL.

Passonneau, R., Nenkova, A., McKeown, K. and Sigelman, S. (2005). Applying the pyramid
method in DUC 2005. DUC Workshop.

Passonneau, R. J. (2005). Evaluating an Evaluation Method: The Pyramid Method Applied to
2003 Document Understanding Conference (DUC) Data. Technical Report CUCS-010-06, Columbia
University.

Nenkova, A., Passonneau, R. and McKeown, K. (2007). The pyramid method: incorporating human
content selection variation in summarization evaluation. ACM Transactions on Speech and
Language Processing 4(2).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..._core.pyramid_scores import ideal_weight, sorted_pyramids, weight_deltas
from ...data.frames import nonempty_frame
from ...data.prepare import check_columns
from ...declare import declared
from ...errors import InvalidParameterError, ValueTypeError

__all__ = [
    "MODIFIED_SIZES",
    "pyramid_scores",
    "pyramid_sizes",
    "score_agreement",
    "sentence_weight_variation",
]

ModifiedSize = Literal["round", "floor", "ceil", "fractional"]
#: How the average number of SCUs per model summary becomes the size of the ideal summary.
MODIFIED_SIZES: tuple[str, ...] = ("round", "floor", "ceil", "fractional")

_SCORE_COLUMNS = ("score_original", "score_modified")
_POOLED = "pooled"

# internal column names of the standardized frames (never the caller's names)
_D, _V, _A, _P, _S, _M, _W, _G = "_d", "_v", "_a", "_p", "_s", "_m", "_w", "_g"


def _show(values: Sequence[Any], limit: int = 5) -> str:
    values = list(values)
    head = ", ".join(repr(v) for v in values[:limit])
    return head + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def _no_missing(data: pd.DataFrame, frame: str, **columns: Hashable | None) -> None:
    for param, col in columns.items():
        if col is None:
            continue
        bad = data[col].isna().to_numpy()
        if bad.any():
            raise InvalidParameterError(
                f"`{param}` column {col!r} of `{frame}` has missing labels (rows "
                f"{_show(list(data.index[bad]))}); every row needs a {param}"
            )


_ROLE = {_D: "docset", _V: "pyramid_by", _S: "scu"}


def _match(left: pd.DataFrame, right: pd.DataFrame, on: list[str]) -> pd.DataFrame:
    """Left merge of peer rows on pyramid keys; incomparable label types raise typed."""
    for col in on:
        if left[col].isna().all():  # nothing to match (all content unmatched): any type will do
            left = left.assign(**{col: pd.Series(np.nan, index=left.index, dtype=object)})
            right = right.assign(**{col: right[col].astype(object)})
            continue
        lk, rk = left[col].dtype, right[col].dtype
        numeric = pd.api.types.is_numeric_dtype
        if numeric(lk) != numeric(rk) and not (
            isinstance(lk, pd.CategoricalDtype) or isinstance(rk, pd.CategoricalDtype)
        ):
            raise ValueTypeError(
                f"`{_ROLE.get(col, col)}` labels of `peers` ({lk}) and of `pyramid` ({rk}) "
                "cannot be matched: give both the same type (for example both strings)"
            )
    return left.merge(right, on=on, how="left")


@dataclass(frozen=True)
class _Keys:
    """User column names of the standardized frames, in output order."""

    docset: Hashable | None
    pyramid_by: Hashable | None
    annotator: Hashable | None
    peer: Hashable

    def pyramid_cols(self) -> list[str]:
        return [c for c, k in ((_D, self.docset), (_V, self.pyramid_by)) if k is not None]

    def peer_cols(self) -> list[str]:
        extra = [_A] if self.annotator is not None else []
        return [*self.pyramid_cols(), *extra, _P]

    def names(self) -> dict[str, Hashable]:
        pairs = ((_D, self.docset), (_V, self.pyramid_by), (_A, self.annotator), (_P, self.peer))
        return {c: k for c, k in pairs if k is not None}


def _check_names(keys: _Keys, scu: Hashable, summary: Hashable, extra: dict[str, Hashable]) -> None:
    named = {
        "docset": keys.docset,
        "pyramid_by": keys.pyramid_by,
        "annotator": keys.annotator,
        "peer": keys.peer,
        "scu": scu,
        "summary": summary,
        **extra,
    }
    seen: dict[Hashable, str] = {}
    for param, col in named.items():
        if col is None:
            continue
        try:
            hash(col)
        except TypeError:
            raise InvalidParameterError(f"`{param}` must be one column name, got {col!r}") from None
        if col in seen:
            raise InvalidParameterError(
                f"`{param}` and `{seen[col]}` name the same column {col!r}; each role needs "
                "its own column"
            )
        seen[col] = param


def _pyramid_table(
    pyramid: pd.DataFrame, keys: _Keys, scu: Hashable, summary: Hashable
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """SCU weights (one row per pyramid SCU) and one row per pyramid with its sizes."""
    nonempty_frame(pyramid, "pyramid")
    cols = {"scu": scu, "summary": summary}
    if keys.docset is not None:
        cols["docset"] = keys.docset
    if keys.pyramid_by is not None:
        cols["pyramid_by"] = keys.pyramid_by
    check_columns(pyramid, **cols)
    _no_missing(pyramid, "pyramid", docset=keys.docset, pyramid_by=keys.pyramid_by)
    names = {c: k for c, k in keys.names().items() if c in keys.pyramid_cols()}
    std = pd.DataFrame({c: pyramid[k].to_numpy() for c, k in names.items()})
    std[_S] = pyramid[scu].to_numpy()
    std[_M] = pyramid[summary].to_numpy()
    pcols = keys.pyramid_cols()
    if not pcols:
        std[_D] = 0
        pcols = [_D]
    assigned = std[std[_S].notna().to_numpy()]
    if assigned.empty:
        raise InvalidParameterError(
            f"`pyramid` has no SCU: every row's `scu` column {scu!r} is missing"
        )
    no_summary = assigned[_M].isna().to_numpy()
    if no_summary.any():
        rows = list(pyramid.index[std[_S].notna().to_numpy()][no_summary])
        raise InvalidParameterError(
            f"`summary` column {summary!r} of `pyramid` is missing in {int(no_summary.sum())} "
            f"row(s) of SCUs (rows {_show(rows)}); an SCU's weight counts the model summaries "
            "of its contributors"
        )
    weights = assigned.groupby([*pcols, _S], sort=False)[_M].nunique().rename(_W).reset_index()
    groups = weights[pcols].drop_duplicates().reset_index(drop=True)
    groups[_G] = np.arange(len(groups))
    weights = weights.merge(groups, on=pcols, how="left")
    models = (
        std[std[_M].notna().to_numpy()].groupby(pcols, sort=False)[_M].nunique().rename("n_models")
    )
    groups = groups.merge(models.reset_index(), on=pcols, how="left")
    contributors = np.bincount(
        weights[_G].to_numpy(), weights=weights[_W].to_numpy(np.float64), minlength=len(groups)
    )
    groups["n_scus"] = np.bincount(weights[_G].to_numpy(), minlength=len(groups))
    groups["average_scus"] = contributors / groups["n_models"].to_numpy(np.float64)
    return weights, groups


def _peer_table(
    peers: Any, keys: _Keys, scu: Hashable, sentence: Hashable | None = None
) -> pd.DataFrame:
    """``peers`` checked (a frame with the named columns, no missing labels) and standardized:
    the key columns (``_d`` 0 for a single pyramid), the sentence (``_sent``, when given) and
    the SCU id (``_s``)."""
    nonempty_frame(peers, "peers")
    cols = {
        "peer": keys.peer,
        "scu": scu,
        "sentence": sentence,
        "docset": keys.docset,
        "annotator": keys.annotator,
        "pyramid_by": keys.pyramid_by,
    }
    check_columns(peers, **{param: col for param, col in cols.items() if col is not None})
    _no_missing(
        peers,
        "peers",
        docset=keys.docset,
        pyramid_by=keys.pyramid_by,
        annotator=keys.annotator,
        peer=keys.peer,
        sentence=sentence,
    )
    std = pd.DataFrame({c: peers[k].to_numpy() for c, k in keys.names().items()})
    if _D not in std:
        std[_D] = 0
    if sentence is not None:
        std["_sent"] = peers[sentence].to_numpy()
    std[_S] = peers[scu].to_numpy()
    return std


def _modified_size(average: np.ndarray, how: str) -> np.ndarray:
    if how == "round":  # Java's Math.round, as DUCView 1.4: halves go up
        return np.floor(average + 0.5)
    if how == "floor":
        return np.floor(average)
    if how == "ceil":
        return np.ceil(average)
    return average.astype(np.float64)


def _check_modified_size(modified_size: Any) -> str:
    if not isinstance(modified_size, str) or modified_size not in MODIFIED_SIZES:
        raise InvalidParameterError(
            f"`modified_size` must be one of {list(MODIFIED_SIZES)}, got {modified_size!r}"
        )
    return modified_size


@declared(frontends=(), register=False)  # docset, scu, summary: declare.SHARED
def pyramid_sizes(
    pyramid: pd.DataFrame,
    *,
    docset, scu, summary,
    pyramid_by: Hashable | None = None,
    modified_size: ModifiedSize = "round",
) -> pd.DataFrame:
    """The size of each pyramid and of the ideal summary behind its modified score.

    The pyramid side of :func:`pyramid_scores`: its modified scores divide by
    ``max_modified``, the weight of an ideal summary of ``modified_size`` SCUs.

    Parameters
    ----------
    pyramid : pandas.DataFrame
        One row per contributor (or per word): the docset, the SCU id (missing for a word
        in no SCU) and the model summary it comes from. Not modified.
    docset : hashable or None, default "docset"
        Column naming the docset; ``None`` when all rows are of one docset (``pyramid_by``
        may still tell several pyramids apart).
    pyramid_by : hashable or None
        Column telling apart several pyramids of one docset (for example the annotator who
        built it), as in seed 003's different-pyramids condition.
    modified_size : {"round", "floor", "ceil", "fractional"}, default "round"
        See :func:`pyramid_scores`.

    Returns
    -------
    pandas.DataFrame
        One row per pyramid: its key columns, ``n_models`` (distinct model summaries),
        ``n_scus``, ``mean_scu_weight``, ``average_scus`` (contributors per model summary:
        the summed SCU weights over ``n_models``), ``modified_size`` (the ``X`` of the
        modified score) and ``max_modified``.

    Examples
    --------
    Annotator A1's pyramid of Passonneau (2006), Figure 5: SCU-101 of weight 2 and SCU-102
    of weight 1 from three model summaries, so one SCU per model summary on average.

    >>> from pandas_agree import pyramid_scoring as ps
    >>> from pandas_agree.datasets import pyramid_figure5
    >>> fig5 = pyramid_figure5()
    >>> ps.pyramid_sizes(fig5[fig5["annotator"] == "A1"], docset=None)
       n_models  n_scus  mean_scu_weight  average_scus  modified_size  max_modified
    0         3       2              1.5           1.0            1.0           2.0
    """
    how = _check_modified_size(modified_size)
    keys = _Keys(docset, pyramid_by, None, "__peer__")
    _check_names(keys, scu, summary, {})
    weights, groups = _pyramid_table(pyramid, keys, scu, summary)
    cum, starts, sizes = sorted_pyramids(
        weights[_G].to_numpy(), weights[_W].to_numpy(np.float64), len(groups)
    )
    size = _modified_size(groups["average_scus"].to_numpy(np.float64), how)
    out = groups[keys.pyramid_cols()].rename(columns=keys.names())
    out["n_models"] = groups["n_models"].to_numpy(np.int64)
    out["n_scus"] = groups["n_scus"].to_numpy(np.int64)
    out["mean_scu_weight"] = weights.groupby(_G)[_W].mean().to_numpy(np.float64)
    out["average_scus"] = groups["average_scus"].to_numpy(np.float64)
    out["modified_size"] = size
    out["max_modified"] = ideal_weight(cum, starts, sizes, np.arange(len(groups)), size)
    return out


@declared(frontends=("frame",))
def pyramid_scores(
    peers: pd.DataFrame,
    pyramid: pd.DataFrame,
    *,
    docset, peer, scu, summary,
    annotator: Hashable | None = None,
    pyramid_by: Hashable | None = None,
    modified_size: ModifiedSize = "round",
) -> pd.DataFrame:
    """Original and modified pyramid scores of every annotated peer summary.

    Parameters
    ----------
    peers : pandas.DataFrame
        Peer annotations, one row per content unit an annotator found in a peer: the
        docset, the peer, and the SCU id it matches in that docset's pyramid, or a missing
        id (NaN, None) for content that matches no SCU (it counts in ``n_scus`` with
        weight 0). A repeated SCU id is a repetition: it counts in ``n_scus`` but its
        weight counts once in ``obs`` (as DUCView 1.4 scores). Not modified.
    pyramid : pandas.DataFrame
        The pyramid(s), one row per contributor (or word) with its docset, SCU id and model
        summary, as for :func:`pandas_agree.tasks.pyramid.annotation.scu_weights`: an SCU's weight
        is the
        number of distinct model summaries among its rows. Not modified.
    docset : hashable or None, default "docset"
        Column (in both frames) naming the docset; ``None`` for a single pyramid.
    peer, scu, summary : hashable
        Columns naming the peer summary (in ``peers``), the SCU id (in both) and the model
        summary (in ``pyramid``).
    annotator : hashable or None
        Column of ``peers`` naming the peer annotator, when several annotators scored the
        same peers (seed 003, Table 3); it is kept in the output.
    pyramid_by : hashable or None
        Column (in both frames) naming which of several pyramids of a docset a row belongs
        to, for two independently built pyramids from the same models (seed 003, Table 5):
        each peer annotation is scored against the pyramid with the same label.
    modified_size : {"round", "floor", "ceil", "fractional"}, default "round"
        The size ``X`` of the ideal summary of the modified score, from the average number
        of SCUs per model summary ``a`` (contributors over model summaries): ``"round"``
        rounds to the nearest whole number, halves up, as DUCView 1.4 (the scorer of DUC
        2005 and 2006) does with ``Math.round``; ``"floor"`` and ``"ceil"`` round down or
        up (``"ceil"`` is SacreROUGE's choice); ``"fractional"`` keeps ``a`` and adds the
        fraction of the next SCU's weight, Nenkova et al.'s (2007) formula for MAX read
        with a real ``X``. The seeds sample whole SCUs and do not say how ``a`` is
        rounded, so the default follows the published tool.

    Returns
    -------
    pandas.DataFrame
        One row per (docset, [pyramid_by], [annotator], peer), in order of first appearance
        in ``peers``, with columns ``docset``, ``pyramid_by`` and ``annotator`` (under their
        own names, when given), ``peer``, ``n_scus`` (annotated content units), ``obs``,
        ``max_original`` (MAX for ``n_scus`` SCUs), ``score_original``, ``max_modified``
        (MAX for the modified size) and ``score_modified``. A modified size of 0 (a pyramid
        with fewer than half an SCU per model summary) leaves ``score_modified`` NaN.

    Raises
    ------
    ColumnNotFoundError
        A named column is not in its frame.
    InvalidParameterError
        Missing docset, peer, annotator or pyramid labels; a peer's pyramid is not in
        ``pyramid``; an SCU id a peer lists is not in its pyramid; an SCU row of
        ``pyramid`` has no summary; a bad ``modified_size``.
    ValueTypeError
        ``peers`` or ``pyramid`` is not a DataFrame.

    See Also
    --------
    pyramid_sizes : the pyramids' sizes and the modified score's ``X``.
    score_agreement : whether two annotators' scores agree.

    Examples
    --------
    The pyramid of annotator A1 in Passonneau (2006), Figure 5: SCU-101 (weight 2) and
    SCU-102 (weight 1) from three model summaries, one SCU per model summary on average.
    A peer expressing only SCU-102 observes 1 of an ideal 2 (one SCU from the top tier).

    >>> import pandas as pd
    >>> from pandas_agree import pyramid_scoring as ps
    >>> from pandas_agree.datasets import pyramid_figure5
    >>> fig5 = pyramid_figure5()
    >>> pyr = fig5[fig5["annotator"] == "A1"]
    >>> peers = pd.DataFrame({"peer": ["p1", "p2", "p2"], "scu": [102, 101, None]})
    >>> ps.pyramid_scores(peers, pyr, docset=None)
      peer  n_scus  obs  max_original  score_original  max_modified  score_modified
    0   p1       1    1             2        0.500000           2.0             0.5
    1   p2       2    2             3        0.666667           2.0             1.0
    """
    how = _check_modified_size(modified_size)
    keys = _Keys(docset, pyramid_by, annotator, peer)
    _check_names(keys, scu, summary, {})
    weights, groups = _pyramid_table(pyramid, keys, scu, summary)
    std = _peer_table(peers, keys, scu)
    pcols = keys.pyramid_cols() or [_D]
    std = _match(std, groups[[*pcols, _G]], pcols)
    lost = std[_G].isna().to_numpy()
    if lost.any():
        missing = std.loc[lost, pcols].drop_duplicates().itertuples(index=False, name=None)
        raise InvalidParameterError(
            f"`peers` names pyramid(s) that are not in `pyramid`: {_show(list(missing))} "
            f"(rows {_show(list(peers.index[lost]))})"
        )
    std = _match(std, weights[[*pcols, _S, _W]], [*pcols, _S])
    unknown = (std[_S].notna() & std[_W].isna()).to_numpy()
    if unknown.any():
        bad = std.loc[unknown, [*pcols, _S]].drop_duplicates().itertuples(index=False, name=None)
        raise InvalidParameterError(
            f"`scu` ids in `peers` that are not in their pyramid: {_show(list(bad))} (rows "
            f"{_show(list(peers.index[unknown]))}); mark content that matches no SCU with a "
            "missing id"
        )
    pk = [*keys.peer_cols()] if keys.pyramid_cols() else [_D, *keys.peer_cols()]
    grouped = std.groupby(pk, sort=False)
    out = grouped[_G].first().astype(np.int64).rename(_G).reset_index()
    n_scus = grouped.size().to_numpy(np.int64)
    distinct = std[std[_S].notna().to_numpy()].drop_duplicates([*pk, _S])
    obs = distinct.groupby(pk, sort=False)[_W].sum()
    obs_values = obs.reindex(pd.MultiIndex.from_frame(out[pk])).fillna(0).to_numpy()
    cum, starts, sizes = sorted_pyramids(
        weights[_G].to_numpy(), weights[_W].to_numpy(np.float64), len(groups)
    )
    g = out[_G].to_numpy()
    max_original = ideal_weight(cum, starts, sizes, g, n_scus.astype(np.float64))
    size = _modified_size(groups["average_scus"].to_numpy(np.float64), how)[g]
    max_modified = ideal_weight(cum, starts, sizes, g, size)
    result = out[[c for c in pk if c in keys.names()]].rename(columns=keys.names())
    result["n_scus"] = n_scus
    result["obs"] = obs_values.astype(np.int64)
    result["max_original"] = max_original.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        result["score_original"] = obs_values / max_original
        result["max_modified"] = max_modified
        result["score_modified"] = np.where(max_modified > 0, obs_values / max_modified, np.nan)
    return result


def _fisher_interval(r: float, n: int, confidence: float, var: float) -> tuple[float, float]:
    if n <= 3 or not np.isfinite(r):
        return np.nan, np.nan
    from scipy import stats  # imported here: scipy.stats costs ~0.5 s at import

    z = np.arctanh(np.clip(r, -1 + 1e-15, 1 - 1e-15))
    half = stats.norm.ppf(0.5 + confidence / 2) * np.sqrt(var / (n - 3))
    return float(np.tanh(z - half)), float(np.tanh(z + half))


def _agreement_row(x: np.ndarray, y: np.ndarray, confidence: float) -> dict[str, Any]:
    from scipy import stats  # imported here: scipy.stats costs ~0.5 s at import

    n = x.size
    row: dict[str, Any] = {"n": n}
    nan = np.nan
    diff = x - y
    row["mean_abs_diff"] = float(np.mean(np.abs(diff))) if n else nan
    row["mean_diff"] = float(np.mean(diff)) if n else nan
    reasons = []
    constant = n > 0 and (np.ptp(x) == 0 or np.ptp(y) == 0)
    if n < 3:
        reasons.append("fewer than 3 paired peers")
    elif constant:
        reasons.append("constant scores")
    if n >= 3 and not constant:
        pr = stats.pearsonr(x, y)
        row["pearson"], row["pearson_p"] = float(pr.statistic), float(pr.pvalue)
        if n > 3:
            ci = pr.confidence_interval(confidence)
            row["pearson_low"], row["pearson_high"] = float(ci.low), float(ci.high)
        sr = stats.spearmanr(x, y)
        rho = float(sr.statistic)
        row["spearman"], row["spearman_p"] = rho, float(sr.pvalue)
        row["spearman_low"], row["spearman_high"] = _fisher_interval(rho, n, confidence, 1.06)
    if n >= 2 and np.ptp(diff) > 0:
        tt = stats.ttest_rel(x, y)
        row["t"], row["t_p"] = float(tt.statistic), float(tt.pvalue)
    elif n >= 2:
        reasons.append("identical differences (no paired t)")
    row["reason"] = "; ".join(reasons)
    return row


@declared(frontends=("frame",))
def score_agreement(
    scores: pd.DataFrame,
    *,
    by: Hashable = "annotator",
    docset, peer,
    score: Hashable | Sequence[Hashable] = _SCORE_COLUMNS,
    confidence: float = 0.95,
    pooled: bool = True,
) -> pd.DataFrame:
    """Do the scores computed from two annotators' work agree? (seed 003, Tables 3 and 5)

    For each pair of levels of ``by`` (two peer annotators of one pyramid, or two
    independently built pyramids), each score column, and each docset (then all docsets
    pooled): the peers both scored, Pearson's and Spearman's correlations of their scores
    with confidence intervals, the mean absolute and mean signed score differences, and a
    paired t-test of the differences.

    Pearson's interval is Fisher's z interval of :func:`scipy.stats.pearsonr` (the seed's
    printed intervals are Fisher's z intervals on 16 peers, reproduced in the tests).
    Spearman's interval is Fisher's z interval with the variance ``1.06 / (n - 3)`` of
    Fieller, Hartley and Pearson (1957).
    The t-test is :func:`scipy.stats.ttest_rel` (first level minus second).

    Parameters
    ----------
    scores : pandas.DataFrame
        Long scores, one row per (docset, level of ``by``, peer), such as the output of
        :func:`pyramid_scores`. Not modified.
    by : hashable, default "annotator"
        Column telling apart the annotations (or pyramids) to compare.
    docset : hashable or None, default "docset"
        Column naming the docset; ``None`` for one docset (then no pooled row).
    peer : hashable, default "peer"
        Column naming the peer summary; rows are paired on (docset, peer).
    score : hashable or sequence of hashable, default ("score_original", "score_modified")
        Score column(s) to compare.
    confidence : float, default 0.95
        Confidence level of the intervals, in (0, 1).
    pooled : bool, default True
        Add a row over all docsets together, with ``docset`` ``"pooled"``.

    Returns
    -------
    pandas.DataFrame
        One row per (pair of levels, score, docset): ``<by>_a`` and ``<by>_b`` (the
        levels, in order of first appearance), ``score``, ``docset``, ``n`` (paired peers),
        ``n_unpaired`` (peers scored under only one of the two levels: not in the
        statistics), ``pearson``, ``pearson_p``, ``pearson_low``, ``pearson_high``,
        ``spearman``, ``spearman_p``, ``spearman_low``, ``spearman_high``,
        ``mean_abs_diff``, ``mean_diff`` (a minus b), ``t``, ``t_p`` and ``reason``.
        Statistics that are undefined are NaN and ``reason`` says why: fewer than 3 paired
        peers or constant scores (no correlation; intervals need 4), identical
        differences (no t-test).

    Raises
    ------
    ColumnNotFoundError
        A named column is not in ``scores``.
    InvalidParameterError
        ``by`` has fewer than two levels; a (docset, level, peer) appears twice; missing
        labels or scores; a bad ``confidence``.

    Examples
    --------
    Passonneau (2006), Figure 5 once more, with two peers scored against each annotator's
    pyramid (too few for a correlation, so only the differences are reported):

    >>> import pandas as pd
    >>> from pandas_agree import pyramid_scoring as ps
    >>> from pandas_agree.datasets import pyramid_figure5
    >>> peers = pd.DataFrame({"annotator": ["A1", "A1", "A2", "A2"],
    ...                       "peer": ["p1", "p2", "p1", "p2"],
    ...                       "scu": [101, 102, 201, 202]})
    >>> peers["pyramid"] = peers["annotator"]
    >>> fig5 = pyramid_figure5().rename(columns={"annotator": "pyramid"})
    >>> scores = ps.pyramid_scores(peers, fig5, docset=None, annotator="annotator",
    ...                            pyramid_by="pyramid")
    >>> scores[["annotator", "peer", "score_original"]]
      annotator peer  score_original
    0        A1   p1             1.0
    1        A1   p2             0.5
    2        A2   p1             1.0
    3        A2   p2             0.5
    >>> agree = ps.score_agreement(scores, docset=None, score="score_original")
    >>> agree[["annotator_a", "annotator_b", "n", "mean_abs_diff", "pearson"]]
      annotator_a annotator_b  n  mean_abs_diff  pearson
    0          A1          A2  2            0.0      NaN
    >>> agree.loc[0, "reason"]
    'fewer than 3 paired peers; identical differences (no paired t)'
    """
    data = nonempty_frame(scores, "scores")
    score_cols = (
        [score] if isinstance(score, str) or not isinstance(score, Sequence) else list(score)
    )
    if not score_cols:
        raise InvalidParameterError("`score` names no column, got an empty sequence")
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not (0 < confidence < 1)
    ):
        raise InvalidParameterError(f"`confidence` must be a number in (0, 1), got {confidence!r}")
    if not isinstance(pooled, bool):
        raise InvalidParameterError(f"`pooled` must be True or False, got {pooled!r}")
    cols: dict[str, Hashable] = {"by": by, "peer": peer}
    if docset is not None:
        cols["docset"] = docset
    check_columns(data, **cols)
    for s in score_cols:
        check_columns(data, score=s)
    _no_missing(data, "scores", by=by, peer=peer, docset=docset)
    for s in score_cols:
        if not pd.api.types.is_numeric_dtype(data[s]) or pd.api.types.is_bool_dtype(data[s]):
            raise ValueTypeError(f"`score` column {s!r} must be numeric, got {data[s].dtype}")
        _no_missing(data, "scores", score=s)
    keys = [docset, peer] if docset is not None else [peer]
    dup = data.duplicated([*keys, by]).to_numpy()
    if dup.any():
        raise InvalidParameterError(
            f"`scores` has several rows for the same ({', '.join(map(repr, [*keys, by]))}) "
            f"(rows {_show(list(data.index[dup]))}); give one score per peer and level"
        )
    levels = list(pd.unique(data[by]))
    if len(levels) < 2:
        raise InvalidParameterError(
            f"`by` column {by!r} must have at least two levels to compare, got {levels!r}"
        )
    records = []
    for a, b in combinations(levels, 2):
        for s in score_cols:
            wide = data.pivot(index=keys, columns=by, values=s)[[a, b]]
            xa, xb = wide[a].to_numpy(np.float64), wide[b].to_numpy(np.float64)
            both = ~np.isnan(xa) & ~np.isnan(xb)
            either = ~np.isnan(xa) | ~np.isnan(xb)
            if docset is not None:
                ds = wide.index.get_level_values(0)
                group_labels = list(pd.unique(ds[either]))
                parts = [(d, np.asarray(ds == d)) for d in group_labels]
                if pooled:
                    parts.append((_POOLED, np.ones(len(wide), dtype=bool)))
            else:
                parts = [(None, np.ones(len(wide), dtype=bool))]
            for label, mask in parts:
                row = _agreement_row(xa[mask & both], xb[mask & both], float(confidence))
                row["n_unpaired"] = int((mask & either & ~both).sum())
                records.append({f"{by}_a": a, f"{by}_b": b, "score": s, "docset": label, **row})
    columns = [
        f"{by}_a", f"{by}_b", "score", "docset", "n", "n_unpaired",
        "pearson", "pearson_p", "pearson_low", "pearson_high",
        "spearman", "spearman_p", "spearman_low", "spearman_high",
        "mean_abs_diff", "mean_diff", "t", "t_p", "reason",
    ]  # fmt: skip
    out = pd.DataFrame.from_records(records).reindex(columns=columns)
    if docset is None:
        out = out.drop(columns="docset")
    elif docset != "docset":
        out = out.rename(columns={"docset": docset})
    float_cols = list(columns[6:-1])
    out[float_cols] = out[float_cols].astype(np.float64)
    out["reason"] = out["reason"].fillna("")
    return out


@declared(frontends=("frame",))
def sentence_weight_variation(
    peers: pd.DataFrame,
    pyramid: pd.DataFrame,
    *,
    sentence: Hashable = "sentence",
    docset, peer, scu, summary,
    annotator: Hashable | None = None,
    pyramid_by: Hashable | None = None,
) -> pd.DataFrame:
    """How SCU weights vary inside each sentence of a peer (seed 003, Table 8).

    For each sentence, over the SCUs annotated in it (a repeated SCU counts each time;
    content that matches no SCU has no weight and is only counted in ``n_unmatched``):

    * ``sum_delta``: the seed's "sum of weight δs between all pairs of SCUs", the sum of
      ``|w_i - w_j|`` over every *ordered* pair ``i != j`` (each pair counted twice), and
      ``mean_delta``, the seed's "average δ", ``sum_delta / n_scus``: the mean over SCUs of
      each SCU's summed distance to the others. Only these readings reproduce Table 8:
      its third sentence has 2 SCUs with sum 12 and average 6, impossible for one
      unordered pair in a 10-model pyramid (``|w_i - w_j| <= 9``) and not ``sum /
      n_pairs``; its rows (4, 8, 2), (8, 14, 1.75) and (2, 12, 6) all have average =
      sum / n.
    * ``pair_sum`` and ``pair_mean``: the same over *unordered* pairs,
      ``sum_{i<j} |w_i - w_j|`` and its mean over the ``n (n - 1) / 2`` pairs (Gini's
      mean difference; NaN with fewer than 2 SCUs).

    Parameters
    ----------
    peers : pandas.DataFrame
        Peer annotations as for :func:`pyramid_scores`, with a ``sentence`` column. Not
        modified.
    pyramid : pandas.DataFrame
        The pyramid(s), as for :func:`pyramid_scores`. Not modified.
    sentence : hashable, default "sentence"
        Column of ``peers`` naming the sentence of the peer a content unit is in.
    docset, peer, scu, summary, annotator, pyramid_by : hashable or None
        As for :func:`pyramid_scores`.

    Returns
    -------
    pandas.DataFrame
        One row per (docset, [pyramid_by], [annotator], peer, sentence) in order of first
        appearance: the key columns, ``n_scus`` (SCUs with a weight), ``n_unmatched``,
        ``sum_delta``, ``mean_delta`` (NaN without SCUs), ``pair_sum`` and ``pair_mean``.

    Raises
    ------
    ColumnNotFoundError, InvalidParameterError, ValueTypeError
        As for :func:`pyramid_scores`; also for missing sentence labels.

    Examples
    --------
    Two SCUs of weights 7 and 1 in a sentence give the third row of Table 8 (2 SCUs,
    sum δ 12, average δ 6):

    >>> import pandas as pd
    >>> from pandas_agree import pyramid_scoring as ps
    >>> pyr = pd.DataFrame({"scu": [1] * 7 + [2], "summary": list(range(7)) + [0]})
    >>> peers = pd.DataFrame({"peer": 13, "sentence": [3, 3], "scu": [1, 2]})
    >>> var = ps.sentence_weight_variation(peers, pyr, docset=None)
    >>> var[["peer", "sentence", "n_scus", "sum_delta", "mean_delta", "pair_sum"]]
       peer  sentence  n_scus  sum_delta  mean_delta  pair_sum
    0    13         3       2       12.0         6.0       6.0
    """
    keys = _Keys(docset, pyramid_by, annotator, peer)
    _check_names(keys, scu, summary, {"sentence": sentence})
    weights, _ = _pyramid_table(pyramid, keys, scu, summary)
    std = _peer_table(peers, keys, scu, sentence)
    # weights and unknown ids are checked exactly as for the scores
    pyramid_scores(
        peers,
        pyramid,
        docset=docset,
        peer=peer,
        scu=scu,
        summary=summary,
        annotator=annotator,
        pyramid_by=pyramid_by,
    )
    pcols = keys.pyramid_cols() or [_D]
    std = _match(std, weights[[*pcols, _S, _W]], [*pcols, _S])
    pk = [*pcols, *([_A] if annotator is not None else []), _P, "_sent"]
    codes = std.groupby(pk, sort=False).ngroup().to_numpy()
    n_groups = int(codes.max()) + 1
    keys_frame = std[pk].drop_duplicates().reset_index(drop=True)
    matched = std[_W].notna().to_numpy()
    n, pair_sum = weight_deltas(codes[matched], std.loc[matched, _W].to_numpy(np.float64), n_groups)
    n_unmatched = np.bincount(codes[~matched], minlength=n_groups)
    names = {**keys.names(), "_sent": sentence}
    out = keys_frame[[c for c in pk if c in names]].rename(columns=names)
    out["n_scus"] = n.astype(np.int64)
    out["n_unmatched"] = n_unmatched.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["sum_delta"] = 2.0 * pair_sum
        out["mean_delta"] = np.where(n > 0, 2.0 * pair_sum / np.maximum(n, 1), np.nan)
        out["pair_sum"] = pair_sum
        n_pairs = n * (n - 1) / 2
        out["pair_mean"] = np.where(n_pairs > 0, pair_sum / np.maximum(n_pairs, 1), np.nan)
    return out
