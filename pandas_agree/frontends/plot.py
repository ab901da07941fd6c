"""Pictures of agreement: a forest plot of a report and a coder x coder heatmap.

* :func:`forest`: alpha per group (one marker per group and distance) with confidence
  whiskers when the report has ``<distance>_low`` and ``<distance>_high`` columns, and a
  dashed line at each reliability threshold (Krippendorff's 0.667 and 0.8). It takes the
  table of :func:`pandas_agree.report` or of :func:`pandas_agree.span_report` and plots
  its coefficient columns only (never counts such as ``n_units`` or ``n_spans``).
* :func:`heatmap`: the table of :func:`pandas_agree.pairwise`, with the value written in
  each cell and the (NaN) diagonal left blank.
* :func:`candidates`: model annotators beside the humans: each candidate's advantage
  probability and winning rate from :func:`pandas_agree.alt_test`, and the change in alpha
  when it replaces a human from :func:`pandas_agree.candidate_report`.
* :func:`alignment`: the best alignment of :func:`pandas_agree.gamma`, one row of units per
  coder, the units of each unitary alignment joined.

Each draws on ``ax`` when given (else on a new figure) and returns the Axes. matplotlib is
imported when a function is called, so ``import pandas_agree`` never needs it; every function
raises ImportError when it is not installed: install it with ``pip install matplotlib`` (or
``pip install ".[plot]"`` in a clone of pandas_agree).

Examples
--------
The examples here and in each function draw without a display, on matplotlib's Agg backend:

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

from ..data.frames import nonempty_frame
from ..errors import InvalidParameterError, ValueTypeError

__all__ = ["alignment", "candidates", "forest", "heatmap", "score_scatter"]

#: Columns of :func:`pandas_agree.report` that are not distances.
_REPORT_COLUMNS = ("n_units", "n_coders", "n_pairable", "reason")
_POOLED = "pooled"
#: Labels of the row over all groups: report's, span_report's, and the all-labels row.
_POOLED_LABELS = frozenset({_POOLED, "(pooled)", "(all)"})


def _is_coefficient(frame: pd.DataFrame, name: str) -> bool:
    """Whether column ``name`` holds a coefficient: numbers that are not a count (``n_*``)
    nor a text such as ``reason``."""
    if name.startswith("n_") or "reason" in name:
        return False
    column = frame[name]
    if isinstance(column, pd.DataFrame):
        return False
    dtype = column.dtype
    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)


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
    """The coefficient columns of a report: numbers, but not counts, reasons or CI bounds."""
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
    names = [
        c
        for c in cols
        if c not in _REPORT_COLUMNS and c not in bounds and _is_coefficient(frame, c)
    ]
    if not names:
        raise InvalidParameterError(
            f"`report_frame` has no alpha column (columns {cols}); pass the table of "
            "pandas_agree.report or pandas_agree.span_report (not report's tidy=True form)"
        )
    return names


def _all_distances(names: list[str]) -> bool:
    """Whether every plotted column is a distance (alpha by distance), not another
    coefficient (F1, kappa, ...)."""
    import pandas_agree as pa

    return set(names) <= set(pa.available_distances())


def _group_label(label: Any) -> str:
    if isinstance(label, tuple):
        if all(part in _POOLED_LABELS for part in label):
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
    a line and in bold); alpha is on the x axis. Each distance has its own colour and a
    slight vertical offset, so every group has one marker per distance. Only coefficient
    columns are plotted: counts (``n_units``, ``n_spans``, ...), ``reason`` and interval
    bounds are not. When a column is not a distance (the F1 and unitizing alpha of
    :func:`pandas_agree.span_report`, another coefficient of ``report``), the axis reads
    "agreement" and the legend "coefficient".

    Parameters
    ----------
    report_frame : pandas.DataFrame
        The table of :func:`pandas_agree.report` (``tidy=False``) or of
        :func:`pandas_agree.span_report`. With ``ci=``, the ``<distance>_low`` and
        ``<distance>_high`` columns become whiskers.
    thresholds : float or sequence of floats, default (0.667, 0.8)
        A dashed vertical line at each value (Krippendorff's thresholds for tentative and
        for firm conclusions). ``None`` or ``()`` draws none.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the number of groups.
    distances : str or sequence of str, optional
        The columns to plot; default every coefficient column of the report.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.figure`` is the figure. NaN alphas (see the report's ``reason``) have no marker.

    Examples
    --------
    >>> import pandas_agree as pa
    >>> rep = pa.report(pa.datasets.masi_figures(), ["nominal", "jaccard", "masi"],
    ...                 by="figure", ci=0.95, n_boot=200, rng=1)
    >>> ax = pa.plot.forest(rep)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['figure2', 'figure3', 'figure4', 'pooled']
    >>> ax.get_legend().get_title().get_text()
    'distance'
    """
    frame = nonempty_frame(report_frame, "report_frame")
    names = _distance_columns(frame, distances)
    lines = _check_thresholds(thresholds)
    plt = _pyplot()
    n = len(frame)
    if ax is None:
        width = 6.4 + (1.6 if len(names) > 3 else 0.0)  # room for a legend beside the axes
        _, ax = plt.subplots(
            figsize=(width, 1.2 + 0.45 * n * max(1, len(names)) ** 0.5), layout="constrained"
        )
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
    if labels and labels[-1] in _POOLED_LABELS and n > 1:
        ax.axhline(n - 1.5, color="0.75", linewidth=0.8, zorder=0)
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    for tick, label in zip(ax.get_yticklabels(), labels):
        if label in _POOLED_LABELS:
            tick.set_fontweight("bold")
    ax.set_ylim(n - 0.5, -0.5)  # first group on top
    alphas = _all_distances(names)
    ax.set_xlabel("Krippendorff's alpha" if alphas else "agreement")
    index_names = [str(nm) for nm in frame.index.names if nm is not None]
    ax.set_ylabel(" / ".join(index_names) if index_names else "group")
    title_ = "distance" if alphas else "coefficient"
    if len(names) > 3:  # many series: the legend beside the axes, where it hides no marker
        ax.legend(title=title_, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    else:
        ax.legend(title=title_, loc="best", fontsize="small")
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
        The axes drawn on (``ax`` when given).

    Examples
    --------
    >>> import pandas_agree as pa
    >>> table = pa.pairwise(pa.datasets.krippendorff_2011(), "percent")
    >>> ax = pa.plot.heatmap(table)
    >>> sorted(t.get_text() for t in ax.texts)[:3]
    ['0.62', '0.62', '0.67']
    """
    frame = nonempty_frame(pairwise_frame, "pairwise_frame")
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
        One point per peer scored at both levels.

    Examples
    --------
    >>> from pandas_agree import datasets, plot, pyramid_scoring
    >>> scores = pyramid_scoring.pyramid_scores(
    ...     datasets.pyramid_study_peers(), datasets.pyramid_study_pyramids(),
    ...     annotator="annotator")
    >>> ax = plot.score_scatter(scores)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('ann1', 'ann2')
    """
    frame = nonempty_frame(scores, "scores")
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


def candidates(
    result: Any,
    report: Any = None,
    ax: Any = None,
    *,
    title: str | None = None,
) -> Any:
    """Candidate annotators beside the humans: the alt-test, and alpha when one replaces a human.

    Left (or the only) panel, from :func:`pandas_agree.alt_test`: one row per candidate, in
    the order of ``result.summary`` (best first). A grey dot per human is
    :math:`\\rho^f_j`, the share of that human's items on which the candidate represents the
    others at least as well as the human does; the large marker is their mean, the
    advantage probability :math:`\\rho`, green when the candidate passes and red when it
    fails; the text gives the winning rate :math:`\\omega`. With ``by=`` the dots are per
    human and domain, the text gives the domains passed, and green means more than half.

    Right panel, when ``report`` (a :func:`pandas_agree.candidate_report`) is given:
    :math:`\\Delta\\alpha`, the mean change in alpha when the candidate replaces each human,
    with its bootstrap interval, and a grey dot per replaced human; the dashed line is no
    change.

    Parameters
    ----------
    result : AltTestResult
        From :func:`pandas_agree.alt_test`.
    report : CandidateReport, optional
        From :func:`pandas_agree.candidate_report` on the same candidates.
    ax : matplotlib Axes, or a pair of them with ``report``, optional
        Where to draw; a new figure when omitted.
    title : str, optional
        Figure title (above both panels).

    Returns
    -------
    matplotlib.axes.Axes, or an array of two with ``report``

    Raises
    ------
    InvalidParameterError
        When ``result`` or ``report`` is not what the functions above return, or the report
        has no candidate of the result.

    Examples
    --------
    >>> import pandas_agree as pa
    >>> df = pa.datasets.model_annotations()
    >>> models = ["model_a", "model_b", "model_c"]
    >>> res = pa.alt_test(df, candidate=models, epsilon=0.15)
    >>> rep = pa.candidate_report(df, candidates=models, n_boot=200, rng=1)
    >>> left, right = pa.plot.candidates(res, rep)
    >>> [t.get_text() for t in left.get_yticklabels()]
    ['model_a', 'model_b', 'model_c']
    >>> right.get_xlabel()
    'change in alpha when the candidate replaces a human'
    """
    summary = getattr(result, "summary", None)
    table = getattr(result, "table", None)
    if not isinstance(summary, pd.DataFrame) or not isinstance(table, pd.DataFrame):
        raise InvalidParameterError(
            f"`result` must be the result of pandas_agree.alt_test, got {type(result).__name__}"
        )
    names = list(summary.index)
    if report is not None:
        rep_table = getattr(report, "table", None)
        if not isinstance(rep_table, pd.DataFrame) or "delta_alpha" not in rep_table:
            raise InvalidParameterError(
                "`report` must be the result of pandas_agree.candidate_report, got "
                f"{type(report).__name__}"
            )
        missing = [c for c in names if c not in rep_table.index]
        if missing:
            raise InvalidParameterError(
                f"`report` has no row for candidate {missing[0]!r} of `result` (its candidates "
                f"are {list(rep_table.index)})"
            )
    plt = _pyplot()
    n = len(names)
    if ax is None:
        height = 1.6 + 0.7 * n
        if report is None:
            _, ax = plt.subplots(figsize=(5.5, height), layout="constrained")
        else:
            _, ax = plt.subplots(
                1, 2, figsize=(11, height), sharey=True, layout="constrained"
            )
    axes = list(np.atleast_1d(ax))
    if len(axes) != (1 if report is None else 2):
        raise InvalidParameterError(
            f"`ax` must be {'one Axes' if report is None else 'two Axes'}, got {len(axes)}"
        )
    y = np.arange(n)[::-1].astype(float)
    left = axes[0]
    by_domain = "domains_passed" in summary.columns
    for k, name in enumerate(names):
        per_human = table.xs(name, level=0)["rho_f"].to_numpy(dtype=float)
        per_human = per_human[np.isfinite(per_human)]
        left.scatter(per_human, np.full(per_human.size, y[k]), s=14, color="0.6", zorder=2)
        row = summary.loc[name]
        if by_domain:
            ok = row["domains_passed"] > row["n_domains"] / 2
            text = f"passes in {int(row['domains_passed'])} of {int(row['n_domains'])} domains"
        else:
            ok = bool(row["passed"])
            text = f"\u03c9 = {row['winning_rate']:.2f} ({'passes' if ok else 'fails'})"
        colour = "tab:green" if ok else "tab:red"
        left.scatter([row["advantage_probability"]], [y[k]], s=90, color=colour, zorder=3,
                     edgecolor="black", linewidth=0.6)
        left.annotate(text, (row["advantage_probability"], y[k]), xytext=(0, 9),
                      textcoords="offset points", ha="center", va="bottom",
                      fontsize="small", color=colour)
    left.set_yticks(y)
    left.set_yticklabels([str(c) for c in names])
    left.set_xlim(0, 1.02)
    left.set_ylim(-0.6, n - 0.2)
    left.set_xlabel("advantage probability \u03c1 (dots: \u03c1 per human)")
    left.grid(axis="x", color="0.9")
    left.set_axisbelow(True)
    left.set_title(f"alt-test, \u03b5 = {result.epsilon:g}", fontsize="medium")
    if report is not None:
        right = axes[1]
        rep_table, repl = report.table, report.replacements
        for k, name in enumerate(names):
            deltas = repl.xs(name, level=0)["delta_alpha"].to_numpy(dtype=float)
            right.scatter(deltas, np.full(deltas.size, y[k]), s=14, color="0.6", zorder=2)
            row = rep_table.loc[name]
            if "delta_alpha_low" in rep_table.columns:
                low, high = row["delta_alpha_low"], row["delta_alpha_high"]
                if np.isfinite(low) and np.isfinite(high):
                    right.plot([low, high], [y[k], y[k]], color="black", lw=1.5, zorder=3)
            right.scatter([row["delta_alpha"]], [y[k]], s=60, color="black", zorder=4)
        right.axvline(0, color="grey", linestyle="--", lw=1)
        right.set_xlabel("change in alpha when the candidate replaces a human")
        right.grid(axis="x", color="0.9")
        right.set_axisbelow(True)
        level = "" if report.ci is None else f" ({report.ci:.0%} interval)"
        right.set_title(f"replacement \u0394\u03b1{level}", fontsize="medium")
        right.tick_params(axis="y", left=False)
    fig = left.figure
    if title is not None:
        fig.suptitle(title)
    return left if report is None else np.array(axes)


def alignment(
    result: Any,
    document: Hashable | None = None,
    *,
    ax: Any = None,
    title: str | None = None,
) -> Any:
    r"""The best alignment of :func:`pandas_agree.gamma`: every coder's units and their links.

    One row per coder; each unit is a bar from its start to its end, coloured by its label
    (written on it when it fits). The units of one unitary alignment are joined by a grey
    line, with the alignment's disorder written above its first unit; a unit aligned with
    nothing has a dashed outline.

    Parameters
    ----------
    result : GammaResult or pandas.DataFrame
        The result of :func:`pandas_agree.gamma`, or its ``alignment`` frame.
    document : hashable, optional
        The document to draw; required when the alignment covers several.
    ax : matplotlib Axes, optional
    title : str, optional
        Default: the document, and :math:`\gamma` and the observed disorder when ``result``
        is a GammaResult with one document.

    Returns
    -------
    matplotlib.axes.Axes
        One row of units per coder.

    Examples
    --------
    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> from pandas_agree import plot
    >>> spans = pd.DataFrame({
    ...     "document": "d", "coder": ["A", "A", "B", "B", "B"],
    ...     "start": [0, 30, 2, 30, 60], "end": [20, 50, 20, 52, 70],
    ...     "label": ["x", "y", "x", "x", "y"]})
    >>> ax = plot.alignment(pa.gamma(spans, n_samples=5, rng=0))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['A', 'B']
    """
    frame = result if isinstance(result, pd.DataFrame) else getattr(result, "alignment", result)
    frame = nonempty_frame(frame, "result")
    needed = ["document", "alignment", "coder", "start", "end", "label", "disorder"]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise InvalidParameterError(
            f"`result` must be a GammaResult or its alignment frame; it has no column(s) "
            f"{missing}"
        )
    docs = pd.unique(frame["document"])
    if document is None:
        if len(docs) > 1:
            raise InvalidParameterError(
                f"the alignment covers {len(docs)} documents; pass document= (one of "
                f"{list(docs[:5])})"
            )
        document = docs[0]
    elif document not in set(docs):
        raise InvalidParameterError(
            f"`document` {document!r} is not in the alignment (its documents: {list(docs[:5])})"
        )
    part = frame[frame["document"] == document]
    coders = list(pd.unique(part["coder"]))
    row_of = {c: i for i, c in enumerate(coders)}
    labels = sorted(pd.unique(part["label"].dropna()), key=str)
    plt = _pyplot()
    colours = plt.get_cmap("tab10")
    colour_of = {lab: colours(i % 10) for i, lab in enumerate(labels)}
    if ax is None:
        span = float(part["end"].max() - part["start"].min()) if part["start"].notna().any() else 1
        _, ax = plt.subplots(
            figsize=(min(12.0, 4.0 + span / 12.0), 1.2 + 0.9 * len(coders)), layout="constrained"
        )
    real = part[part["start"].notna()]
    n_units = real.groupby("alignment")["span"].transform("size")
    height = 0.5
    for (_, row), alone in zip(real.iterrows(), (n_units == 1).to_numpy(), strict=True):
        y = -row_of[row["coder"]]
        s, e = float(row["start"]), float(row["end"])
        ax.add_patch(
            plt.Rectangle(
                (s, y - height / 2), e - s, height,
                facecolor=colour_of[row["label"]], alpha=0.85, edgecolor="black",
                linewidth=1.0, linestyle="--" if alone else "-", zorder=3,
            )
        )  # fmt: skip
        ax.text((s + e) / 2, y, str(row["label"]), ha="center", va="center",
                fontsize="small", zorder=4, clip_on=True)  # fmt: skip
    for _, group in real.groupby("alignment", sort=False):
        ys = [-row_of[c] for c in group["coder"]]
        xs = ((group["start"] + group["end"]) / 2).astype(float).tolist()
        order = np.argsort(ys)[::-1]
        xs_o, ys_o = [xs[i] for i in order], [ys[i] for i in order]
        if len(group) > 1:
            ax.plot(xs_o, ys_o, color="0.45", lw=2.2, zorder=2, solid_capstyle="round")
        top = int(np.argmax(ys))
        ax.annotate(
            f"{float(group['disorder'].iloc[0]):.2f}",
            (xs[top], ys[top] + height / 2),
            xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
            fontsize="x-small", color="0.25",
        )  # fmt: skip
    lo = float(real["start"].min()) if len(real) else 0.0
    hi = float(real["end"].max()) if len(real) else 1.0
    pad = 0.02 * (hi - lo or 1.0)
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_ylim(-len(coders) + 0.4, 0.75)
    ax.set_yticks([-i for i in range(len(coders))])
    ax.set_yticklabels([str(c) for c in coders])
    ax.set_xlabel("position (numbers: the disorder of each unitary alignment)")
    ax.spines[["top", "right", "left"]].set_visible(False)
    ax.tick_params(axis="y", left=False)
    if title is None:
        title = f"best alignment of {document!r}"
        gamma_value = getattr(result, "gamma", None)
        if gamma_value is not None and len(docs) == 1:
            title += f": \u03b3 = {gamma_value:.3f}, observed disorder {result.observed:.3f}"
    ax.set_title(title, fontsize="medium")
    handles = [
        plt.Rectangle((0, 0), 1, 1, facecolor=colour_of[lab], alpha=0.85, edgecolor="black")
        for lab in labels
    ]
    handles.append(plt.Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="black", ls="--"))
    ax.legend(
        handles, [str(lab) for lab in labels] + ["aligned with nothing"],
        loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small", frameon=False,
    )  # fmt: skip
    return ax
