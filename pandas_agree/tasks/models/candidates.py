r"""Where a candidate annotator sits among the humans: replacement alpha, pairwise agreement,
the majority label and agreement per label.

For each candidate ``c`` and the humans :math:`H`:

* **Replacement alpha.** :math:`\alpha_H`, Krippendorff's alpha of the humans alone, and
  :math:`\alpha_{H - j + c}`, alpha of the data where ``c`` takes the place of human ``j``:
  the candidate's values on exactly the units ``j`` coded (a unit ``j`` coded and the
  candidate did not loses that value), so the data keep their shape. The report gives the
  mean, smallest and largest :math:`\alpha_{H - j + c}` over the humans, and
  :math:`\Delta\alpha = \mathrm{mean}_j \alpha_{H - j + c} - \alpha_H`. Intervals come from
  one paired bootstrap: each replicate resamples the units (or, with ``by``, whole clusters
  of units) once and recomputes every alpha on that resample.
* **Pairwise agreement.** :math:`a(x, y)`, Cohen's kappa of two coders for labels (distance
  ``"nominal"``) and alpha with the distance otherwise, on the units both coded. A coder's
  mean pairwise agreement with the humans is :math:`a_x = \mathrm{mean}_{h \ne x} a(x, h)`;
  the candidate's :math:`a_c` is set beside the humans' leave-one-out values :math:`a_j`,
  with :math:`z = (a_c - \mathrm{mean}_j a_j) / \mathrm{sd}_j a_j` (sample sd, ``ddof=1``).
  Han et al. (2025, "Judge's Verdict") read :math:`|z| < 1` as human-like and
  :math:`z > 1` as "super-consistent" (more agreement than people have with each other).
* **The human majority.** Per unit, the label most humans gave (every unit with a human
  label). A tie goes to the tied label the humans used most often over all units, then to
  the first in sorted order (order of first appearance when labels do not sort). The
  candidate's accuracy and Cohen's kappa against it.
* **Per label.** :func:`pandas_agree.category_agreement` of the humans beside its mean over
  the replacements (specific agreement and category kappa).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..._core.bootstrap import multiplicities, weighted_replicates
from ...declare import declared
from ...errors import InvalidParameterError
from ...results import Result
from ._coders import as_label_list, coder_positions, human_coders

__all__ = ["CandidateReport", "candidate_report"]

_COLUMNS = ("unit", "coder", "value")


@dataclass(frozen=True)
class CandidateReport(Result):
    """The candidates among the humans: one row per candidate.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per candidate: ``alpha_humans``, ``alpha_replaced_mean``,
        ``alpha_replaced_min``, ``alpha_replaced_max``, ``delta_alpha`` (with ``_low`` and
        ``_high`` bounds when ``ci`` is given), ``agreement_candidate`` (:math:`a_c`),
        ``agreement_humans`` (the humans' mean pairwise agreement among themselves),
        ``z_score``, ``majority_accuracy``, ``majority_kappa``, ``n_majority_units``,
        ``n_majority_ties`` (labels only, else NaN) and ``reason``.
    replacements : pandas.DataFrame
        One row per candidate and replaced human: ``alpha``, ``delta_alpha`` (and bounds),
        ``n_units`` (units the human coded), ``n_missing`` (of those, units the candidate
        did not code).
    pairwise : pandas.DataFrame
        The coders x coders agreement table (humans and candidates) the means come from.
    labels : pandas.DataFrame or None
        For labels: one row per candidate and category, ``humans_specific_agreement``,
        ``replaced_specific_agreement``, ``humans_kappa``, ``replaced_kappa``,
        ``humans_share``, ``candidate_share``.
    distance : str
    metric : str
        ``"kappa"`` or ``"alpha"``: the pairwise coefficient.
    ci : float or None
    n_boot : int
    """

    table: pd.DataFrame = field(repr=False)
    replacements: pd.DataFrame = field(repr=False)
    pairwise: pd.DataFrame = field(repr=False)
    labels: pd.DataFrame | None = field(repr=False)
    distance: str
    metric: str
    ci: float | None
    n_boot: int

    def to_frame(self) -> pd.DataFrame:
        """The per-candidate table (a copy)."""
        return self.table.copy()

    def __repr__(self) -> str:
        parts = ", ".join(
            f"{c!r}: delta_alpha={r.delta_alpha:+.4f}, z={r.z_score:.2f}"
            for c, r in self.table.iterrows()
        )
        return (
            f"CandidateReport({parts}; alpha_humans={self.table['alpha_humans'].iloc[0]:.4f}, "
            f"distance={self.distance!r}, metric={self.metric!r})"
        )


def _check_ci(ci: Any, n_boot: Any) -> None:
    if ci is not None and (
        isinstance(ci, bool) or not isinstance(ci, (int, float, np.floating)) or not 0 < ci < 1
    ):
        raise InvalidParameterError(f"`ci` must be None or a number in (0, 1), got {ci!r}")
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
        raise InvalidParameterError(f"`n_boot` must be a positive integer, got {n_boot!r}")


def _coders(
    data: pd.DataFrame, coder: Hashable, value: Hashable, candidates: list, humans: Any
) -> tuple[list, list]:
    """The candidate and human labels, checked against the coders with a value."""
    labels = pd.Index(pd.unique(data.loc[data[value].notna(), coder]))
    coder_positions(labels, candidates, "candidates")
    known = human_coders(labels, candidates, humans, "candidates")
    if len(known) < 2:
        raise InvalidParameterError(
            f"`humans` must hold at least two coders (alpha of the humans alone), got {known!r}"
        )
    return candidates, known


def _replaced(
    humans_frame: pd.DataFrame,
    cand_rows: pd.DataFrame,
    human: Hashable,
    unit: Hashable,
    coder: Hashable,
) -> tuple[pd.DataFrame, int, int]:
    """The humans' frame with ``human``'s values replaced by the candidate's on the same units."""
    mine = humans_frame[coder] == human
    units = humans_frame.loc[mine, unit]
    take = cand_rows[cand_rows[unit].isin(units)].copy()
    take[coder] = human
    out = pd.concat([humans_frame[~mine], take], ignore_index=True)
    n_units = int(units.nunique())
    return out, n_units, n_units - int(take[unit].nunique())


def _unit_weights(
    fit: Any, master: pd.Index, item_of: np.ndarray, item_w: np.ndarray
) -> np.ndarray:
    """Replicate weights of the unit codes of ``fit`` from the items' draw counts."""
    pos = master.get_indexer(fit.coded.units)
    w = np.zeros((item_w.shape[0], len(fit.coded.units)))
    ok = pos >= 0
    items = item_of[pos[ok]]
    has = items >= 0
    cols = np.flatnonzero(ok)[has]
    w[:, cols] = item_w[:, items[has]]
    return w


def _replicates(fit: Any, weights: np.ndarray) -> np.ndarray:
    return weighted_replicates(fit.kernel, fit.counts, fit.observed_by_unit, weights)


def _interval(reps: np.ndarray, level: float) -> tuple[float, float]:
    ok = reps[np.isfinite(reps)]
    if ok.size == 0:
        return math.nan, math.nan
    low, high = np.quantile(ok, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)


def _majority(humans_frame: pd.DataFrame, unit: Hashable, value: Hashable) -> tuple[pd.Series, int]:
    """The humans' majority label per unit (ties: most used overall, then sorted) and n ties."""
    overall = humans_frame[value].value_counts()
    labels = list(overall.index)
    try:
        order = sorted(labels)
    except TypeError:
        order = list(pd.unique(humans_frame[value]))
    rank_sorted = {v: i for i, v in enumerate(order)}
    counts = humans_frame.groupby([unit, value], sort=False).size().rename("n").reset_index()
    counts["overall"] = counts[value].map(overall)
    counts["order"] = counts[value].map(rank_sorted)
    counts = counts.sort_values(
        [unit, "n", "overall", "order"], ascending=[True, False, False, True], kind="stable"
    )
    top = counts.groupby(unit, sort=False)["n"].transform("max")
    ties = int((counts[counts["n"] == top].groupby(unit, sort=False).size() > 1).sum())
    first = counts.drop_duplicates(unit, keep="first")
    return first.set_index(unit)[value], ties


@declared(defaults={"ci": 0.95})
def candidate_report(
    data: pd.DataFrame,
    *,
    candidates: Hashable | Sequence[Hashable],
    distance: Any = "nominal",
    humans: Sequence[Hashable] | None = None,
    by: Hashable | None = None,
    ci, n_boot, rng,
    weights: Any = None,
    unit, coder, value,
) -> CandidateReport:
    r"""Where each candidate annotator sits among the humans, one row per candidate.

    Formulas in :mod:`pandas_agree.tasks.models.candidates`: alpha of the humans and alpha
    with the candidate replacing each human in turn (:math:`\Delta\alpha` with a paired
    bootstrap interval), the candidate's mean pairwise agreement with the humans beside
    theirs and its z-score, agreement with the human majority label, and per-label
    agreement.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per annotation; candidates are coders like the humans. Not
        modified.
    candidates : label or list of labels
        The candidate coders.
    distance : str, callable or Distance, default "nominal"
        The distance of alpha (see :func:`pandas_agree.alpha`). With ``"nominal"`` on labels
        the pairwise coefficient is Cohen's kappa and the majority and per-label columns are
        filled; otherwise the pairwise coefficient is alpha with ``distance``.
    humans : list of labels, optional
        Default every coder that is not a candidate. A candidate listed here is refused.
    by : column name, optional
        Clusters of units (constant within a unit, for example a domain or document): the
        bootstrap resamples whole clusters instead of units.
    ci : float or None, default 0.95
        The level of the bootstrap intervals; None for none.
    n_boot : int, default 2000
        Bootstrap replicates (each recomputes ``1 + n_humans * n_candidates`` alphas on the
        same resample).
    weights : mapping or callable, optional
        Element weights of ``weighted_dice`` and ``weighted_jaccard``.

    Returns
    -------
    CandidateReport
        ``table`` (one row per candidate), ``replacements``, ``pairwise``, ``labels``.

    Raises
    ------
    InvalidParameterError
        An unknown candidate or human, a candidate listed among the humans, fewer than two
        humans, bad ``ci`` or ``n_boot``.
    NoPairableUnitsError
        When no unit has two human values.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.

    Han, S., Titericz Junior, G., Balough, T. and Zhou, W. (2025). Judge's Verdict: A
    Comprehensive Analysis of LLM Judge Capability Through Human Agreement.
    arXiv:2510.09738.

    Examples
    --------
    The bundled synthetic study (:func:`pandas_agree.datasets.model_annotations`):

    >>> import pandas_agree as pa
    >>> df = pa.datasets.model_annotations()
    >>> models = ["model_a", "model_b", "model_c"]
    >>> rep = pa.candidate_report(df, candidates=models, n_boot=200, rng=1)
    >>> rep.table[["alpha_humans", "alpha_replaced_mean", "delta_alpha", "z_score"]].round(3)
             alpha_humans  alpha_replaced_mean  delta_alpha  z_score
    coder
    model_a         0.558                0.595        0.037    3.331
    model_b         0.558                0.545       -0.013   -0.991
    model_c         0.558                0.516       -0.042   -3.247
    """
    import pandas_agree as pa

    _check_ci(ci, n_boot)
    cands = as_label_list(candidates, "candidates")
    cols = [unit, coder, value] + ([by] if by is not None else [])
    for param, col in zip([*_COLUMNS, "by"], cols):
        if col not in getattr(data, "columns", ()):
            from ...errors import ColumnNotFoundError, ValueTypeError

            if not isinstance(data, pd.DataFrame):
                raise ValueTypeError(
                    f"`data` must be a pandas DataFrame, got {type(data).__name__}"
                )
            raise ColumnNotFoundError(
                f"`{param}` column {col!r} is not in the DataFrame; its columns are "
                f"{list(data.columns)}"
            )
    if by is not None and any(by == c for c in (unit, coder, value)):
        raise InvalidParameterError(
            f"`by` must be a column other than unit, coder and value (clusters of units), "
            f"got by={by!r}"
        )
    cands, human_labels = _coders(data, coder, value, cands, humans)
    frame = data[cols]
    frame = frame[frame[value].notna()]
    is_human = frame[coder].isin(human_labels)
    humans_frame = frame[is_human].reset_index(drop=True)
    kw = {"unit": unit, "coder": coder, "value": value, "weights": weights}
    res_h = pa.alpha(humans_frame, distance, **kw)
    dist_name = res_h.distance
    # Which alpha fits to compute: humans alone, then each candidate replacing each human.
    fits: dict[tuple, Any] = {}
    frames: dict[tuple, pd.DataFrame] = {}
    repl_rows = []
    for c in cands:
        cand_rows = frame[frame[coder] == c]
        for h in human_labels:
            replaced, n_units, n_missing = _replaced(humans_frame, cand_rows, h, unit, coder)
            frames[(c, h)] = replaced
            res = pa.alpha(replaced, distance, **kw)
            fits[(c, h)] = res
            repl_rows.append(
                {
                    "candidate": c,
                    "human": h,
                    "alpha": res.alpha,
                    "delta_alpha": res.alpha - res_h.alpha,
                    "n_units": n_units,
                    "n_missing": n_missing,
                }
            )
    bounds = _bootstrap(res_h, fits, cands, human_labels, humans_frame, ci, n_boot, rng, by, unit)
    is_labels = dist_name == "nominal" and not _has_sets(frame[value])
    metric = "kappa" if is_labels else "alpha"
    table_pw = pa.pairwise(
        frame[frame[coder].isin([*human_labels, *cands])],
        metric,
        **({"distance": distance, "weights": weights} if metric == "alpha" else {}),
        unit=unit,
        coder=coder,
        value=value,
    )
    majority = _majority(humans_frame, unit, value) if is_labels else None
    rows = []
    for c in cands:
        rep = [r for r in repl_rows if r["candidate"] == c]
        alphas = np.array([r["alpha"] for r in rep])
        row: dict[str, Any] = {
            "candidate": c,
            "alpha_humans": res_h.alpha,
            "alpha_replaced_mean": float(np.mean(alphas)),
            "alpha_replaced_min": float(np.min(alphas)),
            "alpha_replaced_max": float(np.max(alphas)),
            "delta_alpha": float(np.mean(alphas)) - res_h.alpha,
        }
        if ci is not None:
            b = bounds[c]
            row.update(
                alpha_humans_low=bounds["humans"][0],
                alpha_humans_high=bounds["humans"][1],
                delta_alpha_low=b[0],
                delta_alpha_high=b[1],
            )
            for r in rep:
                r["delta_alpha_low"], r["delta_alpha_high"] = bounds[(c, r["human"])]
        row.update(_pairwise_columns(table_pw, c, human_labels))
        row.update(_majority_columns(majority, frame, c, unit, coder, value))
        rows.append(row)
    table = _table(rows, coder)
    replacements = pd.DataFrame(repl_rows).set_index(["candidate", "human"])
    replacements.index = replacements.index.set_names([coder, "human"])
    labels = (
        _label_table(humans_frame, frames, frame, cands, human_labels, unit, coder, value)
        if is_labels
        else None
    )
    return CandidateReport(
        table=table,
        replacements=replacements,
        pairwise=table_pw,
        labels=labels,
        distance=dist_name,
        metric=metric,
        ci=None if ci is None else float(ci),
        n_boot=int(n_boot),
    )


def _has_sets(values: pd.Series) -> bool:
    if values.dtype != object:
        return False
    return bool(
        values.map(lambda v: isinstance(v, (set, frozenset, list, tuple, np.ndarray))).any()
    )


def _table(rows: list[dict], coder: Hashable) -> pd.DataFrame:
    table = pd.DataFrame(rows).set_index("candidate")
    table.index.name = coder
    order = [
        "alpha_humans",
        "alpha_humans_low",
        "alpha_humans_high",
        "alpha_replaced_mean",
        "alpha_replaced_min",
        "alpha_replaced_max",
        "delta_alpha",
        "delta_alpha_low",
        "delta_alpha_high",
        "agreement_candidate",
        "agreement_humans",
        "z_score",
        "majority_accuracy",
        "majority_kappa",
        "n_majority_units",
        "n_majority_ties",
        "reason",
    ]
    return table[[c for c in order if c in table.columns]]


def _bootstrap(
    res_h: Any,
    fits: dict,
    cands: list,
    human_labels: list,
    humans_frame: pd.DataFrame,
    ci: float | None,
    n_boot: int,
    rng: Any,
    by: Hashable | None,
    unit: Hashable,
) -> dict:
    """Paired percentile intervals: alpha of the humans, delta alpha per candidate and human."""
    if ci is None:
        return {}
    gen = np.random.default_rng(rng)
    fit_h = res_h.fit
    master = fit_h.coded.units
    pairable = fit_h.counts.m > 0
    if by is None:
        item_of = np.full(len(master), -1, dtype=np.intp)
        item_of[pairable] = np.arange(int(pairable.sum()))
        n_items = int(pairable.sum())
    else:
        cluster = humans_frame.groupby(unit, sort=False)[by].agg(["first", "nunique"])
        if (cluster["nunique"] > 1).any():
            bad = cluster.index[int(np.argmax(cluster["nunique"].to_numpy() > 1))]
            raise InvalidParameterError(
                f"`by` column {by!r} must be constant within a unit; unit {bad!r} is in several "
                "clusters"
            )
        labels = cluster["first"].reindex(master)
        codes, uniq = pd.factorize(labels)
        item_of = np.where(pairable, codes, -1).astype(np.intp)
        n_items = len(uniq)
    draws = multiplicities(n_items, n_boot, gen)
    cache: dict[bytes, np.ndarray] = {}

    def weights_of(fit: Any) -> np.ndarray:
        key = master.get_indexer(fit.coded.units).tobytes()
        if key not in cache:
            cache[key] = _unit_weights(fit, master, item_of, draws)
        return cache[key]

    rep_h = _replicates(fit_h, weights_of(fit_h))
    out: dict[Any, tuple[float, float]] = {"humans": _interval(rep_h, ci)}
    for c in cands:
        per_h = []
        for h in human_labels:
            fit = fits[(c, h)].fit
            reps = _replicates(fit, weights_of(fit))
            out[(c, h)] = _interval(reps - rep_h, ci)
            per_h.append(reps)
        out[c] = _interval(np.mean(per_h, axis=0) - rep_h, ci)
    return out


def _pairwise_columns(table: pd.DataFrame, c: Hashable, humans: list) -> dict[str, Any]:
    sub = table.loc[humans, humans].to_numpy(dtype=float, copy=True)
    np.fill_diagonal(sub, np.nan)
    a_h = _nanmean(list(sub))  # symmetric: column j is human j's row
    upper = sub[np.triu_indices(len(humans), 1)]
    a_c = _finite_mean(table.loc[c, humans].to_numpy(dtype=float))
    finite = a_h[np.isfinite(a_h)]
    sd = float(np.std(finite, ddof=1)) if finite.size >= 2 else math.nan
    reason = None
    if finite.size < 2:
        z = math.nan
        reason = "z_score needs two humans with a pairwise agreement"
    elif sd == 0:
        z = math.nan
        reason = "z_score undefined: every human has the same mean pairwise agreement"
    else:
        z = (a_c - float(np.mean(finite))) / sd
    return {
        "agreement_candidate": a_c,
        "agreement_humans": _finite_mean(upper),
        "z_score": z,
        "reason": reason,
    }


def _majority_columns(
    majority_ties: tuple[pd.Series, int] | None,
    frame: pd.DataFrame,
    c: Hashable,
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
) -> dict[str, Any]:
    if majority_ties is None:
        return {
            "majority_accuracy": math.nan,
            "majority_kappa": math.nan,
            "n_majority_units": 0,
            "n_majority_ties": 0,
        }
    import pandas_agree as pa

    majority, ties = majority_ties
    cand = frame[frame[coder] == c].set_index(unit)[value]
    both = majority.index.intersection(cand.index)
    acc = (
        float((majority[both].to_numpy() == cand[both].to_numpy()).mean())
        if len(both)
        else math.nan
    )
    pair = pd.DataFrame(
        {
            "unit": np.concatenate([both.to_numpy(), both.to_numpy()]),
            "coder": ["majority"] * len(both) + ["candidate"] * len(both),
            "value": np.concatenate([majority[both].to_numpy(), cand[both].to_numpy()]),
        }
    )
    kappa = math.nan
    if len(both):
        res = pa.cohen_kappa(pair, coders=["majority", "candidate"])
        kappa = float(res)
    return {
        "majority_accuracy": acc,
        "majority_kappa": kappa,
        "n_majority_units": len(both),
        "n_majority_ties": ties,
    }


def _finite_mean(x: np.ndarray) -> float:
    """The mean of the finite entries (pairs sharing no unit are NaN), NaN when none."""
    ok = x[np.isfinite(x)]
    return float(ok.mean()) if ok.size else math.nan


def _nanmean(rows: list[np.ndarray]) -> np.ndarray:
    """Column means skipping NaN (NaN where a column has no number), without warnings."""
    stack = np.stack(rows)
    ok = np.isfinite(stack)
    n = ok.sum(axis=0)
    total = np.where(ok, stack, 0.0).sum(axis=0)
    return np.divide(total, n, out=np.full(total.shape, np.nan), where=n > 0)


def _label_table(
    humans_frame: pd.DataFrame,
    frames: dict[tuple, pd.DataFrame],
    frame: pd.DataFrame,
    cands: list,
    human_labels: list,
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
) -> pd.DataFrame:
    import pandas_agree as pa

    values = pd.unique(frame[value])
    try:
        categories = sorted(values)
    except TypeError:
        categories = list(values)
    kw = {"unit": unit, "coder": coder, "value": value, "categories": categories}
    base = pa.category_agreement(humans_frame, **kw)
    parts = []
    for c in cands:
        cand_rows = frame[frame[coder] == c]
        per = [pa.category_agreement(frames[(c, h)], **kw) for h in human_labels]
        spec = _nanmean([p["specific_agreement"].to_numpy(dtype=float) for p in per])
        kap = _nanmean([p["kappa"].to_numpy(dtype=float) for p in per])
        shares = cand_rows[value].value_counts(normalize=True).reindex(categories, fill_value=0.0)
        parts.append(
            pd.DataFrame(
                {
                    "candidate": c,
                    "category": categories,
                    "humans_specific_agreement": base["specific_agreement"].to_numpy(),
                    "replaced_specific_agreement": spec,
                    "humans_kappa": base["kappa"].to_numpy(),
                    "replaced_kappa": kap,
                    "humans_share": humans_frame[value]
                    .value_counts(normalize=True)
                    .reindex(categories, fill_value=0.0)
                    .to_numpy(),
                    "candidate_share": shares.to_numpy(),
                }
            )
        )
    out = pd.concat(parts, ignore_index=True).set_index(["candidate", "category"])
    out.index = out.index.set_names([coder, "category"])
    return out
