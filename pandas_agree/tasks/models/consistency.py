r"""How well repeated runs of a model agree with each other.

A model asked twice (sampling at a temperature above 0, or with prompt variants) need not
give the same label twice. Treating each run as a coder, Krippendorff's alpha across the runs
measures the model's consistency with itself, on the same scale as the humans' agreement
with each other. It is a different question from agreement with people: a model that always
gives the same wrong label is perfectly consistent (alpha across runs 1) and still a poor
annotator, and a model whose runs disagree cannot agree well with anyone.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...declare import declared
from ...errors import ColumnNotFoundError, InvalidParameterError, ValueTypeError
from ...results import Result
from ._coders import as_label_list, coder_positions

__all__ = ["SelfConsistencyResult", "self_consistency"]


@dataclass(frozen=True)
class SelfConsistencyResult(Result):
    """Alpha across the runs of each model.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per model: ``alpha`` (across runs), ``alpha_low`` and ``alpha_high`` (when
        ``ci`` is given), ``n_units``, ``n_runs``, ``n_pairable`` and ``reason`` (why alpha
        is NaN, else None).
    distance : str
    ci : float or None
    """

    table: pd.DataFrame = field(repr=False)
    distance: str
    ci: float | None

    def __float__(self) -> float:
        if len(self.table) != 1:
            raise InvalidParameterError(
                f"float() needs a single model, got {list(self.table.index)}: see result.table"
            )
        return float(self.table["alpha"].iloc[0])

    def to_frame(self) -> pd.DataFrame:
        """The per-model table (a copy)."""
        return self.table.copy()

    def __repr__(self) -> str:
        parts = ", ".join(f"{m!r}: {a:.4f}" for m, a in self.table["alpha"].items())
        return f"SelfConsistencyResult(alpha {{{parts}}}, distance={self.distance!r})"


@declared(defaults={"ci": 0.95})
def self_consistency(
    data: pd.DataFrame,
    *,
    run: Hashable = "run",
    candidate: Hashable | Sequence[Hashable] | None = None,
    distance: Any = "nominal",
    ci, n_boot, rng,
    weights: Any = None,
    unit, coder, value,
) -> SelfConsistencyResult:
    """Krippendorff's alpha across repeated runs of each model, with a bootstrap interval.

    Each model's rows are taken as a reliability study of their own whose coders are the
    runs: alpha of (unit, run, value) with ``distance``, from :func:`pandas_agree.report`
    with one group per model.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data with a run column: one row per model, unit and run. Not modified.
    run : column name, default "run"
        The run (repetition) of each row.
    candidate : label or list of labels, optional
        The models; default every coder with a run. Their rows must all have a run.
    distance : str, callable or Distance, default "nominal"
        As for :func:`pandas_agree.alpha`.
    ci : float or None, default 0.95
        Level of the interval: a bootstrap over units (``ci_method="units"`` of
        :func:`pandas_agree.report`); None for none.
    weights : mapping or callable, optional
        Element weights of ``weighted_dice`` and ``weighted_jaccard``.

    Returns
    -------
    SelfConsistencyResult
        ``table`` with one row per model; ``float(result)`` is alpha for one model. A model
        with fewer than two runs on any unit has NaN and a ``reason``.

    Raises
    ------
    InvalidParameterError
        An unknown model, a model with rows that have no run, a bad ``ci``.

    Examples
    --------
    The bundled synthetic study (:func:`pandas_agree.datasets.model_runs`), three runs of
    each model:

    >>> import pandas_agree as pa
    >>> res = pa.self_consistency(pa.datasets.model_runs(), n_boot=200, rng=1)
    >>> res.table[["alpha", "alpha_low", "alpha_high", "n_runs"]].round(3)
             alpha  alpha_low  alpha_high  n_runs
    coder
    model_a  0.978      0.952       0.992       3
    model_b  0.866      0.825       0.909       3
    model_c  0.962      0.937       0.986       3

    ``model_c`` is nearly as consistent with itself as ``model_a`` and still the model
    that agrees least with the humans (see :func:`pandas_agree.alt_test`).
    """
    import pandas_agree as pa

    if not isinstance(data, pd.DataFrame):
        raise ValueTypeError(f"`data` must be a pandas DataFrame, got {type(data).__name__}")
    for param, col in (("unit", unit), ("coder", coder), ("value", value), ("run", run)):
        if col not in data.columns:
            raise ColumnNotFoundError(
                f"`{param}` column {col!r} is not in the DataFrame; its columns are "
                f"{list(data.columns)} (pass {param}=<column name>)"
            )
    if ci is not None and (
        isinstance(ci, bool) or not isinstance(ci, (int, float, np.floating)) or not 0 < ci < 1
    ):
        raise InvalidParameterError(f"`ci` must be None or a number in (0, 1), got {ci!r}")
    with_run = data[data[run].notna()]
    if candidate is None:
        models = list(pd.unique(with_run[coder]))
        if not models:
            raise InvalidParameterError(f"`run` column {run!r} has no value: no model has a run")
    else:
        models = as_label_list(candidate, "candidate")
        coder_positions(pd.Index(pd.unique(data[coder])), models, "candidate")
    rows = data[data[coder].isin(models)]
    no_run = rows[run].isna().to_numpy()
    if no_run.any():
        at = rows.index[int(np.argmax(no_run))]
        raise InvalidParameterError(
            f"`run` column {run!r} is missing for model {rows.loc[at, coder]!r} (row {at!r}); "
            "every row of a model must name its run"
        )
    sub = rows[[coder, unit, run, value]]
    rep = pa.report(
        sub,
        distance,
        by=coder,
        unit=unit,
        coder=run,
        value=value,
        weights=weights,
        ci=ci,
        ci_method="units",
        n_boot=n_boot,
        rng=rng,
        pooled=False,
    )
    name = rep.columns[0]  # the alpha column, named by the distance
    out = pd.DataFrame(index=pd.Index(models, name=coder))
    out["alpha"] = rep[name].reindex(models).astype(float)
    if ci is not None:
        out["alpha_low"] = rep[f"{name}_low"].reindex(models).astype(float)
        out["alpha_high"] = rep[f"{name}_high"].reindex(models).astype(float)
    out["n_units"] = rep["n_units"].reindex(models).fillna(0).astype(np.int64)
    out["n_runs"] = sub.groupby(coder)[run].nunique().reindex(models).astype(np.int64)
    out["n_pairable"] = rep["n_pairable"].reindex(models).fillna(0).astype(np.int64)
    out["reason"] = rep["reason"].reindex(models)
    dist = str(name)
    return SelfConsistencyResult(table=out, distance=dist, ci=None if ci is None else float(ci))
