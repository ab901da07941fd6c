"""Pictures of agreement: a forest plot of a report and a coder x coder heatmap.

* :func:`forest`: alpha per group (one marker per group and distance) with confidence
  whiskers when the report has ``<distance>_low`` and ``<distance>_high`` columns, and a
  dashed line at each reliability threshold (Krippendorff's 0.667 and 0.8).
* :func:`heatmap`: the table of :func:`pandas_agree.pairwise`, with the value written in
  each cell and the (NaN) diagonal left blank.

Both draw on ``ax`` when given (else on a new figure) and return the Axes. matplotlib is
imported when a function is called, so ``import pandas_agree`` never needs it; install it
with ``pip install matplotlib`` (or ``pip install ".[plot]"`` in a clone of pandas_agree).

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import pandas_agree as pa
>>> from pandas_agree import plot
>>> rep = pa.report(pa.datasets.masi_figures(), ["nominal", "masi"], by="figure")
>>> ax = plot.forest(rep)
>>> ax.get_xlabel()
"Krippendorff's alpha"
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InvalidParameterError, ValueTypeError

__all__ = ["forest", "heatmap", "score_scatter"]

#: Columns of :func:`pandas_agree.report` that are not distances.
_REPORT_COLUMNS = ("n_units", "n_coders", "n_pairable", "reason")
_POOLED = "pooled"


def _pyplot() -> Any:
    """``matplotlib.pyplot``, or an ImportError that says how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(
            "pandas_agree.frontends.plot needs matplotlib, which is not installed: "
            'pip install matplotlib (or, in a clone of pandas_agree, pip install ".[plot]")'
        ) from exc
    return plt


def _check_frame(frame: Any, name: str) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise ValueTypeError(f"`{name}` must be a pandas DataFrame, got {type(frame).__name__}")
    if frame.empty:
        raise InvalidParameterError(f"`{name}` is empty (shape {frame.shape})")
    return frame


def _check_thresholds(thresholds: Any) -> list[float]:
    if thresholds is None:
        return []
    if np.isscalar(thresholds):
        thresholds = [thresholds]
    out = []
    for t in thresholds:
        try:
            value = float(t)
        except (TypeError, ValueError):
            value = np.nan
        if not np.isfinite(value):
            raise InvalidParameterError(f"`thresholds` must be finite numbers, got {thresholds!r}")
        out.append(value)
    return out


def _distance_columns(frame: pd.DataFrame, distances: Sequence[str] | None) -> list[str]:
    """The alpha columns of a report: every column but counts, reason and CI bounds."""
    cols = [str(c) for c in frame.columns]
    if distances is not None:
        names = [distances] if isinstance(distances, str) else list(distances)
        missing = [d for d in names if d not in cols]
        if missing or not names:
            raise InvalidParameterError(
                f"`distances` must name alpha columns of the report, got {distances!r}; "
                f"its columns are {cols}"
            )
        return names
    bounds = {f"{c}_{side}" for c in cols for side in ("low", "high")}
    names = [c for c in cols if c not in _REPORT_COLUMNS and c not in bounds]
    if not names:
        raise InvalidParameterError(
            f"`report_frame` has no alpha column (columns {cols}); pass the table of "
            "pandas_agree.report (not its tidy=True form)"
        )
    return names


def _group_label(label: Any) -> str:
    if isinstance(label, tuple):
        if all(part == _POOLED for part in label):
            return _POOLED
        return " / ".join(str(part) for part in label)
    return str(label)


def forest(
    report_frame: pd.DataFrame,
    thresholds: float | Sequence[float] | None = (0.667, 0.8),
    ax: Any = None,
    *,
    distances: str | Sequence[str] | None = None,
    title: str | None = None,
) -> Any:
    """Forest plot of a report: alpha per group and distance, with confidence whiskers.

    Groups run down the y axis in the order of the report (the pooled row last, set off by
    a line); alpha is on the x axis. Each distance has its own colour and a slight vertical
    offset, so every group has one marker per distance.

    Parameters
    ----------
    report_frame : pandas.DataFrame
        The table of :func:`pandas_agree.report` (``tidy=False``). With ``ci=``, the
        ``<distance>_low`` and ``<distance>_high`` columns become whiskers.
    thresholds : float or sequence of floats, default (0.667, 0.8)
        A dashed vertical line at each value (Krippendorff's thresholds for tentative and
        for firm conclusions). ``None`` or ``()`` draws none.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the number of groups.
    distances : str or sequence of str, optional
        The alpha columns to plot; default every distance column of the report.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.figure`` is the figure. NaN alphas (see the report's ``reason``) have no marker.

    Raises
    ------
    ImportError
        When matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas_agree as pa
    >>> rep = pa.report(pa.datasets.masi_figures(), ["nominal", "jaccard", "masi"],
    ...                 by="figure", ci=0.95, n_boot=200, rng=1)
    >>> ax = pa.plot.forest(rep)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['figure2', 'figure3', 'figure4', 'pooled']
    >>> ax.get_legend().get_title().get_text()
    'distance'
    """
    frame = _check_frame(report_frame, "report_frame")
    names = _distance_columns(frame, distances)
    lines = _check_thresholds(thresholds)
    plt = _pyplot()
    n = len(frame)
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 1.2 + 0.45 * n * max(1, len(names)) ** 0.5))
    labels = [_group_label(label) for label in frame.index]
    y = np.arange(n, dtype=float)
    width = 0.6
    offsets = (np.arange(len(names)) - (len(names) - 1) / 2) * (
        width / max(1, len(names)) if len(names) > 1 else 0.0
    )
    colours = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
    for i, name in enumerate(names):
        x = pd.to_numeric(frame[name], errors="coerce").to_numpy(dtype=float)
        low_col, high_col = f"{name}_low", f"{name}_high"
        xerr = None
        if low_col in frame.columns and high_col in frame.columns:
            low = pd.to_numeric(frame[low_col], errors="coerce").to_numpy(dtype=float)
            high = pd.to_numeric(frame[high_col], errors="coerce").to_numpy(dtype=float)
            # whiskers from alpha to each bound; a missing bound draws no whisker
            xerr = np.vstack([np.nan_to_num(x - low), np.nan_to_num(high - x)]).clip(min=0)
        ax.errorbar(
            x,
            y + offsets[i],
            xerr=xerr,
            fmt="o",
            color=colours[i % len(colours)],
            ecolor=colours[i % len(colours)],
            elinewidth=1.2,
            capsize=3,
            markersize=6,
            label=str(name),
        )
    for t in lines:
        ax.axvline(t, color="0.45", linestyle="--", linewidth=1, zorder=0, label=f"_threshold {t}")
        ax.text(
            t,
            1.0,
            f"{t:g}",
            transform=ax.get_xaxis_transform(),
            ha="center",
            va="bottom",
            fontsize="x-small",
            color="0.35",
        )
    if labels and labels[-1] == _POOLED and n > 1:
        ax.axhline(n - 1.5, color="0.75", linewidth=0.8, zorder=0)
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    for tick, label in zip(ax.get_yticklabels(), labels):
        if label == _POOLED:
            tick.set_fontweight("bold")
    ax.set_ylim(n - 0.5, -0.5)  # first group on top
    ax.set_xlabel("Krippendorff's alpha")
    index_names = [str(nm) for nm in frame.index.names if nm is not None]
    ax.set_ylabel(" / ".join(index_names) if index_names else "group")
    ax.legend(title="distance", loc="best", fontsize="small")
    if title is not None:
        ax.set_title(title, pad=14 if lines else 6)
    return ax


def heatmap(
    pairwise_frame: pd.DataFrame,
    ax: Any = None,
    *,
    cmap: str = "RdYlGn",
    vmin: float | None = None,
    vmax: float | None = 1.0,
    fmt: str = "{:.2f}",
    colorbar: bool = True,
    title: str | None = None,
) -> Any:
    """Heatmap of a coder x coder agreement table, with the values written in the cells.

    Parameters
    ----------
    pairwise_frame : pandas.DataFrame
        The table of :func:`pandas_agree.pairwise` (any numeric rows x columns table works).
        NaN cells (the diagonal, pairs that share no unit) are left blank.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    cmap : str, default "RdYlGn"
        Colour map: red for low, green for high agreement.
    vmin, vmax : float, optional
        Colour scale limits. ``vmin`` defaults to ``min(0, smallest value)`` (alpha and
        kappa can be negative), ``vmax`` to 1.
    fmt : str, default "{:.2f}"
        Format of the cell texts.
    colorbar : bool, default True
        Add a colour bar.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ImportError
        When matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas_agree as pa
    >>> table = pa.pairwise(pa.datasets.krippendorff_2011(), "percent")
    >>> ax = pa.plot.heatmap(table)
    >>> sorted(t.get_text() for t in ax.texts)[:3]
    ['0.62', '0.62', '0.67']
    """
    frame = _check_frame(pairwise_frame, "pairwise_frame")
    try:
        values = frame.to_numpy(dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueTypeError(
            f"`pairwise_frame` must hold numbers, got dtypes {sorted(set(map(str, frame.dtypes)))}"
        ) from exc
    plt = _pyplot()
    rows, cols = values.shape
    if ax is None:
        side = 1.6 + 0.55 * max(rows, cols)
        _, ax = plt.subplots(figsize=(side + (1.2 if colorbar else 0), side))
    finite = values[np.isfinite(values)]
    lo = vmin if vmin is not None else min(0.0, float(finite.min()) if finite.size else 0.0)
    hi = vmax if vmax is not None else (float(finite.max()) if finite.size else 1.0)
    masked = np.ma.masked_invalid(values)
    image = ax.imshow(masked, cmap=cmap, vmin=lo, vmax=hi, aspect="equal")
    colour_map = image.get_cmap()
    span = hi - lo if hi > lo else 1.0
    for i in range(rows):
        for j in range(cols):
            v = values[i, j]
            if not np.isfinite(v):
                continue
            r, g, b, _ = colour_map(np.clip((v - lo) / span, 0, 1))
            light = 0.299 * r + 0.587 * g + 0.114 * b > 0.5
            ax.text(
                j,
                i,
                fmt.format(v),
                ha="center",
                va="center",
                color="black" if light else "white",
                fontsize="small",
            )
    ax.set_xticks(np.arange(cols))
    ax.set_xticklabels([str(c) for c in frame.columns], rotation=45 if cols > 6 else 0)
    ax.set_yticks(np.arange(rows))
    ax.set_yticklabels([str(r) for r in frame.index])
    ax.set_xlabel(_axis_name(frame.columns.name, "coder"))
    ax.set_ylabel(_axis_name(frame.index.name, "coder"))
    if colorbar:
        ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    if title is not None:
        ax.set_title(title)
    return ax


def _axis_name(name: Hashable | None, default: str) -> str:
    return default if name is None else str(name)


def score_scatter(
    scores: pd.DataFrame,
    *,
    by: Hashable = "annotator",
    score: Hashable = "score_modified",
    docset: Hashable | None = "docset",
    peer: Hashable = "peer",
    levels: Sequence[Hashable] | None = None,
    ax: Any = None,
    title: str | None = None,
) -> Any:
    """Two annotators' (or pyramids') scores of the same peers, with the identity line.

    One point per peer both levels scored, one colour per docset; points on the dashed
    line ``y = x`` are scored alike (seed 003, Tables 3 and 5, as a picture).

    Parameters
    ----------
    scores : pandas.DataFrame
        Long scores, as :func:`pandas_agree.pyramid_scores` returns. Not
        modified.
    by : hashable, default "annotator"
        Column telling apart the two annotations (or pyramids).
    score : hashable, default "score_modified"
        The score column.
    docset : hashable or None, default "docset"
        Column naming the docset (one colour each); ``None`` for one colour.
    peer : hashable, default "peer"
        Column naming the peer; points pair rows on (docset, peer).
    levels : sequence of two hashables, optional
        The levels of ``by`` on the x and y axes; default the first two in the data.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pandas_agree import datasets, plot, pyramid_scoring
    >>> scores = pyramid_scoring.pyramid_scores(
    ...     datasets.pyramid_study_peers(), datasets.pyramid_study_pyramids(),
    ...     annotator="annotator")
    >>> ax = plot.score_scatter(scores)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('ann1', 'ann2')
    """
    frame = _check_frame(scores, "scores")
    keys = [docset, peer] if docset is not None else [peer]
    for name, col in (("by", by), ("score", score), ("peer", peer), ("docset", docset)):
        if col is not None and col not in frame.columns:
            raise InvalidParameterError(
                f"`{name}` column {col!r} is not in `scores`; its columns are "
                f"{list(frame.columns)}"
            )
    found = list(pd.unique(frame[by]))
    chosen = found[:2] if levels is None else list(levels)
    if len(chosen) != 2 or any(lvl not in found for lvl in chosen):
        raise InvalidParameterError(
            f"`levels` must name two levels of `by` column {by!r} (it has {found!r}), "
            f"got {levels!r}"
        )
    wide = frame[frame[by].isin(chosen)].pivot(index=keys, columns=by, values=score)
    wide = wide.dropna(subset=chosen)
    plt = _pyplot()
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 4.5))
    x_level, y_level = chosen
    if docset is not None:
        groups = wide.groupby(level=0, sort=False)
    else:
        groups = [(None, wide)]
    for label, part in groups:
        ax.scatter(
            part[x_level].to_numpy(float),
            part[y_level].to_numpy(float),
            label=None if label is None else str(label),
            alpha=0.8,
        )
    values = wide[[x_level, y_level]].to_numpy(float)
    lo = float(np.nanmin(values)) if values.size else 0.0
    hi = float(np.nanmax(values)) if values.size else 1.0
    pad = 0.05 * (hi - lo or 1.0)
    ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], linestyle="--", color="grey", lw=1)
    ax.set_xlabel(str(x_level))
    ax.set_ylabel(str(y_level))
    ax.set_aspect("equal", adjustable="datalim")
    if docset is not None:
        ax.legend(title=str(docset), fontsize="small")
    ax.set_title(str(score) if title is None else title)
    return ax
