"""The agreement report page: one self-contained HTML file for the people who read agreement.

:func:`report_page` (long data, the numbers of :func:`pandas_agree.report`) and
:func:`span_report_page` (span annotations, the numbers of :func:`pandas_agree.span_report`)
compute what the page shows and return a :class:`ReportPage`; ``page.to_html(path)`` writes
it. The command line does the same with ``pandas-agree report ... --html report.html`` and
``pandas-agree spans ... --html report.html``.

The page holds, in this order: what was measured (data, coders, units, groups, distances,
the call); the headline (pooled alpha per distance with its interval, read against
Krippendorff's 0.667 and 0.800); the table per group with a forest plot; agreement between
every two coders (heatmap) and alpha without each coder; agreement per label; the items to
adjudicate (:mod:`pandas_agree.krippendorff.disagreements`); notes in plain words; the library
version and the time it was written.

It is one file that needs nothing else when opened: styles inline, figures inline as SVG
images in ``data:`` URIs (drawn with matplotlib when it is installed; without it the page
says so), one short script that sorts a table when its column header is clicked (the page
reads the same without it), and a Content-Security-Policy that forbids every other source,
so the page makes no network request. Labels, coder and group names and text snippets are
escaped (:func:`html.escape` with ``quote=True``): a label ``<script>...</script>`` shows as
text. Long inputs stay small: tables are capped, each with the count of what was left out.
The file is written to a temporary file in the target directory and renamed into place, so
a failed write leaves nothing behind.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import io
import math
import os
import secrets
import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from pandas_agree.errors import (
    AgreementError,
    DegenerateDataWarning,
    InvalidParameterError,
    NoPairableUnitsError,
    ValueTypeError,
)
from pandas_agree.results import Result

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "THRESHOLDS",
    "ReportPage",
    "render",
    "report_page",
    "span_report_page",
    "write_file",
]

#: Krippendorff's levels: tentative conclusions from 0.667, firm ones from 0.800.
THRESHOLDS = (0.667, 0.8)

#: Okabe and Ito's palette, distinguishable with the common colour-vision deficiencies.
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")

#: Most rows of the table per group; more groups show those with the lowest alpha.
MAX_GROUP_ROWS = 500
#: Most groups in the forest plot (lowest alpha first when there are more).
MAX_FOREST_ROWS = 40
#: Most coders of the pairwise table and heatmap (one alpha per pair of coders).
MAX_PAIRWISE_CODERS = 40
#: Most coders of the leave-one-coder-out table (one alpha per coder).
MAX_LEAVE_ONE_OUT_CODERS = 200
#: Most rows of the per-label table.
MAX_LABEL_ROWS = 200
#: Most distinct values for which the per-label table is computed.
MAX_LABELS = 100
#: Most coder columns of the adjudication list; with more, one cell lists "coder: value".
MAX_VALUE_COLUMNS = 12
#: Most notes listed.
MAX_NOTES = 60
#: Longest text shown in a cell (characters); longer text ends with an ellipsis.
TEXT_LIMIT = 160

_SORT_SCRIPT = """\
(function () {
  "use strict";
  function key(cell) {
    var v = cell.getAttribute("data-v");
    if (v !== null) { return v === "" ? null : parseFloat(v); }
    return cell.textContent.trim().toLowerCase();
  }
  function compare(a, b, up) {
    if (a === null && b === null) { return 0; }
    if (a === null) { return 1; }
    if (b === null) { return -1; }
    var c = typeof a === "number" && typeof b === "number" ? a - b :
      String(a).localeCompare(String(b), undefined, {numeric: true});
    return up ? c : -c;
  }
  function sort(table, col, th) {
    var body = table.tBodies[0];
    var up = th.getAttribute("aria-sort") !== "ascending";
    var rows = Array.prototype.map.call(body.rows, function (row, i) {
      return {row: row, key: key(row.cells[col]), i: i};
    });
    rows.sort(function (a, b) { return compare(a.key, b.key, up) || a.i - b.i; });
    rows.forEach(function (r) { body.appendChild(r.row); });
    Array.prototype.forEach.call(th.parentNode.cells, function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    if (!table.tHead || !table.tBodies.length) { return; }
    var head = table.tHead.rows[table.tHead.rows.length - 1];
    Array.prototype.forEach.call(head.cells, function (th, col) {
      var button = document.createElement("button");
      button.type = "button";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () { sort(table, col, th); });
    });
    table.classList.add("sorting");
  });
})();
"""

_STYLE = """\
:root { color-scheme: light; --fg: #1b1b1b; --muted: #595959; --line: #d4d4d4;
  --head: #f2f2f2; --focus: #0072B2; --high: #0072B2; --mid: #E69F00; --low: #D55E00; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: #fff;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; }
a { color: #005a8c; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip, .sr { position: absolute; left: -9999px; width: 1px; height: 1px; overflow: hidden; }
.skip:focus { left: 1rem; top: 1rem; width: auto; height: auto; background: #fff;
  padding: .5rem; z-index: 2; }
header, main, footer { max-width: 76rem; margin: 0 auto; padding: 0 1.25rem; }
header { padding-top: 1.25rem; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 .6rem; padding-bottom: .2rem;
  border-bottom: 2px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
nav ol { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; padding: 0; margin: .5rem 0 0;
  list-style: none; font-size: .95rem; }
p, li, dd { overflow-wrap: anywhere; }
.muted, caption, figcaption, .note { color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1.25rem;
  margin: .5rem 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em;
  background: #f5f5f5; padding: .05rem .25rem; border-radius: .2rem; overflow-wrap: anywhere; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(12.5rem, 1fr));
  gap: 1rem; margin: .75rem 0; }
.card { border: 1px solid var(--line); border-left: .6rem solid var(--muted);
  border-radius: .3rem; padding: .7rem 1rem; }
.card.high { border-left-color: var(--high); }
.card.mid { border-left-color: var(--mid); }
.card.low { border-left-color: var(--low); }
.card h3 { margin: 0; font-size: 1rem; overflow-wrap: anywhere; }
.card .value { font-size: 2.1rem; font-weight: 700; line-height: 1.2;
  font-variant-numeric: tabular-nums; }
.card .interval { font-variant-numeric: tabular-nums; }
.verdict { font-weight: 600; }
.scroll { overflow-x: auto; margin: .5rem 0 1rem; max-width: 100%; }
table { border-collapse: collapse; font-size: .92rem; }
caption { text-align: left; padding: .25rem 0; caption-side: top; }
th, td { padding: .3rem .65rem; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
thead th { background: var(--head); font-weight: 600; white-space: nowrap; }
tbody th { font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tfoot th, tfoot td { border-top: 2px solid #8a8a8a; font-weight: 700; }
td.text { max-width: 28rem; overflow-wrap: break-word; }
td.na { color: var(--muted); }
th button { font: inherit; color: inherit; background: none; border: 0; padding: 0;
  cursor: pointer; text-align: inherit; }
th button::after { content: " \\2195"; color: var(--muted); font-weight: 400; }
th[aria-sort="ascending"] button::after { content: " \\2191"; }
th[aria-sort="descending"] button::after { content: " \\2193"; }
figure { margin: 1rem 0; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); }
.nofigure { border: 1px dashed var(--line); padding: .75rem 1rem; }
ul.notes li { margin: .25rem 0; }
footer { margin-top: 2.5rem; padding-bottom: 2rem; border-top: 1px solid var(--line);
  font-size: .9rem; }
@media (max-width: 40rem) {
  body { font-size: 15px; }
  header, main, footer { padding: 0 .8rem; }
  header { padding-top: 1rem; }
  h1 { font-size: 1.35rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: .4rem; }
  .card .value { font-size: 1.8rem; }
  th, td { padding: .25rem .45rem; }
}
@media print {
  nav, .skip { display: none; }
  .scroll { overflow: visible; }
  th button::after { content: ""; }
  h2 { break-after: avoid; }
  figure, .card, tr { break-inside: avoid; }
}
"""


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


#: The page's Content-Security-Policy: its own style and sorting script, ``data:`` images,
#: and nothing else (no request can leave the page).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; "
    f"style-src 'sha256-{_sha256(_STYLE)}'; "
    "img-src data:; "
    f"script-src 'sha256-{_sha256(_SORT_SCRIPT)}'; "
    "base-uri 'none'; form-action 'none'"
)


# ---------------------------------------------------------------------------------------------
# the result


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def _version() -> str:
    import pandas_agree as pa

    return pa.__version__


@dataclass(frozen=True)
class ReportPage(Result):
    """What an agreement report page shows; ``to_html()`` renders it.

    Built by :func:`report_page` or :func:`span_report_page`. Every table is the library's
    own result (computed once, held here); the page formats them.

    Attributes
    ----------
    kind : {"report", "spans"}
        Long data (:func:`pandas_agree.report`) or span annotations
        (:func:`pandas_agree.span_report`).
    title : str
        The page's title.
    call : str
        The exact call or command that made the page.
    facts : tuple of (str, str)
        What was measured, as (name, sentence) pairs.
    table : pandas.DataFrame
        The report: one row per group (or document) and the pooled row last.
    alphas : tuple of str
        The columns of ``table`` holding alphas (read against the thresholds).
    scores : tuple of str
        Other headline columns of ``table`` (span F1), shown without thresholds.
    level : float or None
        Confidence level of the intervals in ``table`` (``<alpha>_low``, ``<alpha>_high``).
    pairwise : pandas.DataFrame or None
        Coder x coder agreement (``pairwise_metric``), None when not computed.
    pairwise_metric : str
        What ``pairwise`` holds, in words.
    coders : pandas.DataFrame or None
        :func:`pandas_agree.coder_disagreement` of the pooled alpha (``coders_distance``).
    coders_distance : str
        The distance of ``coders`` and of the adjudication list.
    labels : pandas.DataFrame or None
        Agreement per label: :func:`pandas_agree.category_agreement` or span F1 per label.
    labels_metric : str
        What ``labels`` holds, in words.
    items : pandas.DataFrame
        The items to adjudicate, capped at ``top`` rows.
    n_items : int
        How many items there are in all (``len(items)`` or more).
    no_items : str
        What the page says when there is nothing to adjudicate (and why).
    notes : tuple of str
        Degenerate groups, units left out, caps, in plain words.
    digits : int
        Decimals of the numbers shown.
    version : str
        The pandas_agree version (default: the running one).
    created : str
        When the page's numbers were computed (UTC, ISO 8601; default: now).
    """

    kind: Literal["report", "spans"]
    title: str
    call: str
    facts: tuple[tuple[str, str], ...]
    table: pd.DataFrame = field(repr=False)
    alphas: tuple[str, ...]
    scores: tuple[str, ...]
    level: float | None
    pairwise: pd.DataFrame | None = field(repr=False)
    pairwise_metric: str
    coders: pd.DataFrame | None = field(repr=False)
    coders_distance: str
    labels: pd.DataFrame | None = field(repr=False)
    labels_metric: str
    items: pd.DataFrame = field(repr=False)
    n_items: int
    no_items: str
    notes: tuple[str, ...]
    digits: int
    version: str = field(default_factory=_version)
    created: str = field(default_factory=_now)

    def __repr__(self) -> str:
        return (
            f"ReportPage(kind={self.kind!r}, alphas={self.alphas!r}, rows={len(self.table)}, "
            f"items={len(self.items)} of {self.n_items}, notes={len(self.notes)})"
        )

    def __float__(self) -> float:
        """The pooled alpha of the first distance."""
        return float(self.table[self.alphas[0]].iloc[-1])

    def to_frame(self) -> pd.DataFrame:
        """The report table (a copy)."""
        return self.table.copy()

    def disagreements(self) -> pd.DataFrame:
        """The items to adjudicate shown on the page (a copy; ``n_items`` counts them all)."""
        return self.items.copy()

    def to_html(self, path: str | os.PathLike[str] | None = None) -> str:
        """The page as HTML text; with ``path``, also written there (atomically).

        Parameters
        ----------
        path : str or path, optional
            The file to write. It is written to a temporary file in the same directory and
            renamed into place: a failure leaves the old file (or none) and no partial file.

        Returns
        -------
        str
            The HTML text.

        Raises
        ------
        InvalidParameterError
            ``path`` cannot be written (a missing directory, no permission, a directory).
        """
        text = render(self)
        if path is not None:
            write_file(path, text)
        return text


# ---------------------------------------------------------------------------------------------
# writing


def write_file(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically: a temporary file, then a rename.

    The temporary file is created next to ``path`` (so the rename stays on one file
    system) with the permissions a new file gets (the umask applies); on any failure it is
    removed and ``path`` is left as it was.

    Parameters
    ----------
    path : str or path
        The file to write (replaced if it exists).
    text : str
        The content.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    InvalidParameterError
        ``path`` is not a path, is a directory, or cannot be written; the message names
        it and says why.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from pandas_agree.frontends.html import write_file
    >>> with tempfile.TemporaryDirectory() as d:
    ...     out = write_file(pathlib.Path(d) / "page.html", "<p>hi</p>")
    ...     out.read_text(), sorted(p.name for p in pathlib.Path(d).iterdir())
    ('<p>hi</p>', ['page.html'])
    """
    if not isinstance(path, (str, os.PathLike)) or (isinstance(path, str) and not path):
        raise InvalidParameterError(f"`path` must be a file name, got {path!r}")
    target = Path(os.fspath(path))
    if target.is_dir():
        raise InvalidParameterError(
            f"`path` {str(target)!r} is a directory; pass a file name such as "
            f"{str(target / 'report.html')!r}"
        )
    data = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").encode("utf-8")
    temp = target.parent / f".{target.name}.{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise InvalidParameterError(
            f"`path` {str(target)!r} cannot be written: {exc.strerror or exc}"
        ) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise InvalidParameterError(
                f"`path` {str(target)!r} cannot be written: {exc.strerror or exc}"
            ) from exc
        raise
    return target


# ---------------------------------------------------------------------------------------------
# building the page: long data


def _check_digits(digits: Any) -> int:
    if isinstance(digits, (bool, np.bool_)) or not isinstance(digits, (int, np.integer)):
        raise InvalidParameterError(f"`digits` must be an integer from 0 to 15, got {digits!r}")
    if not 0 <= digits <= 15:
        raise InvalidParameterError(f"`digits` must be an integer from 0 to 15, got {digits!r}")
    return int(digits)


def _check_top(top: Any) -> int:
    if isinstance(top, (bool, np.bool_)) or not isinstance(top, (int, np.integer)) or top < 1:
        raise InvalidParameterError(f"`top` must be a positive integer, got {top!r}")
    return int(top)


def _check_text(x: Any, name: str) -> str | None:
    if x is not None and not isinstance(x, str):
        raise InvalidParameterError(f"`{name}` must be a string or None, got {x!r}")
    return x


def _check_page_options(
    top: Any, digits: Any, title: Any, source: Any, call: Any
) -> tuple[int, int, str | None, str | None, str | None]:
    """The options every page takes, checked: ``top``, ``digits`` and three texts."""
    return (
        _check_top(top),
        _check_digits(digits),
        _check_text(title, "title"),
        _check_text(source, "source"),
        _check_text(call, "call"),
    )


def _as_list(x: Any) -> list[Any]:
    if x is None:
        return []
    if isinstance(x, str) or callable(x) or not isinstance(x, Sequence):
        return [x]
    return list(x)


def _short(value: Any) -> str:
    if callable(value) and hasattr(value, "__name__"):
        return str(value.__name__)
    if isinstance(value, np.random.Generator):
        return "np.random.Generator(...)"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _python_call(function: Callable[..., Any], first: str, args: Mapping[str, Any]) -> str:
    """The call of ``function`` on ``first`` that names the ``args`` not at their defaults."""
    given = [f"{k}={_short(v)}" for k, v in args.items() if not _is_default(function, k, v)]
    return f"pandas_agree.frontends.html.{function.__name__}({', '.join([first, *given])})"


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _names(labels: Iterable[Any], limit: int = 12) -> str:
    labels = list(labels)
    shown = ", ".join(str(x) for x in labels[:limit])
    return shown + (f" and {len(labels) - limit:,} more" if len(labels) > limit else "")


def _group_label(label: Any) -> str:
    if isinstance(label, tuple):
        return " / ".join(str(x) for x in label)
    return str(label)


def _alpha_columns(table: pd.DataFrame) -> list[str]:
    """The alpha columns of a report: those before ``n_units``."""
    return [str(c) for c in table.columns[: table.columns.get_loc("n_units")]]


def report_page(
    data: pd.DataFrame,
    distance: Any = "nominal",
    by: Hashable | Sequence[Hashable] | None = None,
    *,
    unit: Hashable = "unit",
    coder: Hashable = "coder",
    value: Hashable = "value",
    categories: Sequence[Hashable] | None = None,
    on_duplicate: Literal["raise", "first", "last", "union"] = "raise",
    weights: Any = None,
    sep: str | bool | None = None,
    ci: float | None = None,
    ci_method: str = "krippendorff",
    n_boot: int = 2000,
    rng: int | np.random.Generator | None = None,
    coefficients: Sequence[Any] | None = None,
    progress: Callable[[int], None] | None = None,
    top: int = 50,
    digits: int = 3,
    title: str | None = None,
    source: str | None = None,
    call: str | None = None,
) -> ReportPage:
    """The report page of long data: :func:`pandas_agree.report` and what explains it.

    Computes the report (one row per group and the pooled row), then, for the first
    distance on all the data (units nested in their groups): agreement between every two
    coders (:func:`pandas_agree.pairwise`), each coder's share of the disagreement and alpha
    without them (:func:`pandas_agree.coder_disagreement`), agreement per category
    (:func:`pandas_agree.category_agreement`, for scalar values) and the units to
    adjudicate (:func:`pandas_agree.krippendorff.disagreements.ranked_disagreements`). Data that
    leave something undefined (no pairable unit, one value only) give a page that says so.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified, and not kept.
    distance, by, unit, coder, value, categories, on_duplicate, weights, sep
        As for :func:`pandas_agree.report`.
    ci, ci_method, n_boot, rng, coefficients, progress
        As for :func:`pandas_agree.report`.
    top : int, default 50
        Most units in the list of items to adjudicate (the page says how many there are).
    digits : int, default 3
        Decimals of the numbers on the page.
    title : str, optional
        The page's title; default "Agreement report" (with ``source``).
    source : str, optional
        Where the data came from (a file name), shown under "what was measured".
    call : str, optional
        The call or command to show; default this function's call (arguments that differ
        from their defaults).

    Returns
    -------
    ReportPage
        ``page.to_html(path)`` writes the page.

    Raises
    ------
    InvalidParameterError, ColumnNotFoundError, UnknownDistanceError, DuplicateRatingError
        As :func:`pandas_agree.report`; ``top`` or ``digits`` out of range.

    Examples
    --------
    Passonneau (2006), Figures 2-4:

    >>> import pandas_agree as pa
    >>> from pandas_agree.frontends.html import report_page
    >>> page = report_page(pa.datasets.masi_figures(), ["nominal", "masi"], by="figure")
    >>> page
    ReportPage(kind='report', alphas=('nominal', 'masi'), rows=4, items=13 of 13, notes=0)
    >>> page.labels.loc["x", ["n_ratings", "alpha"]].astype(float).round(3).tolist()
    [9.0, 0.837]
    >>> round(float(page), 3)
    -0.136
    >>> page.to_html().startswith("<!DOCTYPE html>")
    True
    """
    import pandas_agree as pa
    from pandas_agree.krippendorff.disagreements import nested_units, ranked_disagreements

    top, digits, title, source, call = _check_page_options(top, digits, title, source, call)
    notes: list[str] = []
    # the arguments of the report, passed to it and named in the page's call
    report_args = {
        "distance": distance,
        "by": by,
        "unit": unit,
        "coder": coder,
        "value": value,
        "categories": categories,
        "on_duplicate": on_duplicate,
        "weights": weights,
        "sep": sep,
        "ci": ci,
        "ci_method": ci_method,
        "n_boot": n_boot,
        "rng": rng,
        "coefficients": coefficients,
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateDataWarning)
        table = pa.report(data, **report_args, progress=progress)
    by_cols = _as_list(by)
    alphas = _alpha_columns(table)
    first = _as_list(distance)[0]
    given = {**report_args, "top": top, "digits": digits}
    keys = None
    frame, cols = data, {"unit": unit, "coder": coder, "value": value}
    if by_cols:
        frame, keys = nested_units(data, by_cols, unit=unit, coder=coder, value=value)
        cols = {"unit": "unit", "coder": "coder", "value": "value"}
    fit_args = {"categories": categories, "on_duplicate": on_duplicate, "sep": sep}
    result = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            result = pa.alpha(frame, first, **cols, **fit_args, weights=weights)
    except NoPairableUnitsError:
        notes.append(
            "No unit was rated by two or more coders, so there is nothing to compare: "
            "alpha, the coder tables and the list of items to adjudicate are empty. Alpha "
            "needs units that at least two coders rated."
        )
    pairwise = coders_table = labels = None
    labels_metric = "agreement per category (nominal)"
    items = pd.DataFrame()
    n_items = 0
    coded = None
    no_items = "Nothing to adjudicate: no unit was rated by two or more coders."
    if result is not None:
        coded = result.fit.coded
        by_unit = pa.unit_disagreement(result)
        n_items = int((by_unit["disagreement"].to_numpy() > 0).sum())
        no_items = "Nothing to adjudicate: the coders agree on every unit."
        try:
            items = ranked_disagreements(result, top, unit_name=unit, unit_keys=keys)
        except InvalidParameterError as exc:
            notes.append(f"The list of items to adjudicate could not be made: {exc}")
            no_items = "The list of items to adjudicate could not be made (see the notes)."
        n_rated = int(np.count_nonzero(np.bincount(coded.coder_codes)))
        if n_rated <= MAX_LEAVE_ONE_OUT_CODERS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                coders_table = pa.coder_disagreement(result)
        else:
            notes.append(
                f"Alpha without each coder is computed for at most "
                f"{MAX_LEAVE_ONE_OUT_CODERS} coders; these data have {n_rated:,}."
            )
        if 2 <= n_rated <= MAX_PAIRWISE_CODERS:
            pairwise = pa.pairwise(frame, "alpha", first, **cols, **fit_args, weights=weights)
        elif n_rated > MAX_PAIRWISE_CODERS:
            notes.append(
                f"Agreement between every two coders is shown for at most "
                f"{MAX_PAIRWISE_CODERS} coders; these data have {n_rated:,}."
            )
        labels, why, labels_metric = _category_table(frame, cols, categories, on_duplicate, result)
        if why:
            notes.append(why)
        total_units = len(coded.units)
        if total_units > result.n_units:
            left = total_units - result.n_units
            notes.append(
                f"{_count(left, 'unit')} had fewer than two ratings and "
                f"{'is' if left == 1 else 'are'} left out: alpha compares the values that "
                "different coders gave the same unit."
            )
        if coded.n_missing:
            notes.append(
                f"{_count(coded.n_missing, 'rating')} with a missing value "
                f"{'was' if coded.n_missing == 1 else 'were'} left out."
            )
        if n_items > len(items) and len(items):
            notes.append(
                f"The list of items to adjudicate shows the {len(items):,} units with the "
                f"largest share of the disagreement out of {n_items:,}; "
                "pandas_agree.disagreements(..., top=None) lists them all."
            )
    notes = _group_notes(table, "group") + notes
    # "some groups have alpha NaN" repeats the reasons of the groups, listed above
    notes += [n for n in _warning_notes(caught) if not n.lower().startswith("some groups")]
    n_groups = len(table) - 1 if by_cols else 0
    facts = [
        ("Data", _data_fact(source, len(data), "row")),
        ("Columns", f"unit {unit!r}, coder {coder!r}, value {value!r}"),
    ]
    if coded is not None and result is not None:
        rated = coded.coders[np.unique(coded.coder_codes)]
        facts += [
            ("Coders", f"{len(rated):,}: {_names(rated)}"),
            (
                "Units",
                f"{len(coded.units):,} units, {result.n_units:,} of them rated by two or more "
                f"coders ({result.n_pairable:,} pairable values)",
            ),
        ]
    groups = (
        f"{n_groups:,} groups by {', '.join(map(str, by_cols))}, then all groups pooled "
        "(units are nested in their group)"
        if by_cols
        else "none: all the data as one group"
    )
    facts.append(("Groups", groups))
    facts.append(("Distances", ", ".join(alphas)))
    if ci is not None:
        seed = "" if rng is None else f", seed {_short(rng)}"
        facts.append(
            ("Intervals", f"{ci:.0%} bootstrap ({ci_method}, {n_boot:,} replicates{seed})")
        )
    else:
        facts.append(("Intervals", "none (pass ci=0.95, or --ci 0.95, for bootstrap intervals)"))
    facts.append(("Call", call or _python_call(report_page, "data", given)))
    name = first if isinstance(first, str) else str(getattr(first, "name", _short(first)))
    return ReportPage(
        kind="report",
        title=title or ("Agreement report" + (f": {source}" if source else "")),
        call=call or _python_call(report_page, "data", given),
        facts=tuple(facts),
        table=table,
        alphas=tuple(alphas),
        scores=(),
        level=ci,
        pairwise=pairwise,
        pairwise_metric=f"alpha ({name})",
        coders=coders_table,
        coders_distance=alphas[0] if alphas else name,
        labels=labels,
        labels_metric=labels_metric,
        items=items,
        n_items=n_items,
        no_items=no_items,
        notes=tuple(notes),
        digits=digits,
    )


def _is_default(function: Callable[..., Any], name: str, value: Any) -> bool:
    import inspect

    default = inspect.signature(function).parameters[name].default
    try:
        return bool(value is default or (type(value) is type(default) and value == default))
    except (TypeError, ValueError):
        return False


def _data_fact(source: str | None, n: int, word: str) -> str:
    where = f"{source}: " if source else ""
    return where + _count(n, word)


#: Most (rating, label) pairs for which the per-label table of set values is computed.
MAX_LABEL_PAIRS = 5_000_000


def _category_table(
    frame: pd.DataFrame,
    cols: Mapping[str, Hashable],
    categories: Any,
    on_duplicate: Any,
    result: Any,
) -> tuple[pd.DataFrame | None, str | None, str]:
    """The per-label table, or why there is none, and what it holds in words.

    Scalar values: :func:`pandas_agree.category_agreement`. Set values: for each label,
    the category agreement of the data recoded to "the set holds the label" or not (the
    row of ``True``), so a label's alpha is Krippendorff's alpha for that one value.
    """
    import pandas_agree as pa

    coded = result.fit.coded
    if coded.is_set:
        return _set_label_table(coded)
    metric = "agreement per category (nominal)"
    if result.n_values > MAX_LABELS:
        return (
            None,
            (
                f"Agreement per category is shown for at most {MAX_LABELS} distinct values; "
                f"these data have {result.n_values:,}."
            ),
            metric,
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            table = pa.category_agreement(
                frame, categories=categories, on_duplicate=on_duplicate, **cols
            )
    except (AgreementError, ValueTypeError) as exc:
        return None, f"Agreement per category could not be computed: {exc}", metric
    return table, None, metric


def _set_label_table(coded: Any) -> tuple[pd.DataFrame | None, str | None, str]:
    import pandas_agree as pa

    metric = "agreement per label: each label present or absent in a coder's set (nominal)"
    sets = coded.values.to_numpy(dtype=object)
    labels = pd.unique(pd.Series([x for s in sets for x in s], dtype=object))
    if len(labels) > MAX_LABELS or len(labels) * coded.n_ratings > MAX_LABEL_PAIRS:
        return (
            None,
            (
                f"Agreement per label is computed for at most {MAX_LABELS} labels and "
                f"{MAX_LABEL_PAIRS:,} (rating, label) pairs; these data have {len(labels):,} "
                f"labels in {coded.n_ratings:,} ratings."
            ),
            metric,
        )
    try:
        labels = sorted(labels)
    except TypeError:  # labels of mixed types do not sort: order of appearance
        pass
    rows = []
    for item in labels:
        holds = np.fromiter((item in s for s in sets), dtype=bool, count=len(sets))
        binary = pd.DataFrame(
            {
                "unit": coded.unit_codes,
                "coder": coded.coder_codes,
                "value": holds[coded.value_codes],
            }
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            table = pa.category_agreement(binary, categories=[False, True])
        rows.append(table.loc[True])
    out = pd.DataFrame(rows, index=pd.Index(labels, name="label", dtype=object))
    return out.astype({"n_ratings": np.int64}), None, metric


def _group_notes(table: pd.DataFrame, word: str) -> list[str]:
    notes = []
    for column in ("reason", "coefficient_reason"):
        if column not in table.columns:
            continue
        last = len(table) - 1
        for i, (label, reason) in enumerate(table[column].items()):
            if reason is None or (isinstance(reason, float) and math.isnan(reason)):
                continue
            where = (
                (f"Over all {word}s" if last > 0 else "Over all the data")
                if i == last
                else f"{word.capitalize()} {_group_label(label)}"
            )
            reason = str(reason).rstrip(".")
            notes.append(f"{where}: {reason}.")
    return notes


def _warning_notes(caught: Sequence[warnings.WarningMessage]) -> list[str]:
    seen: list[str] = []
    for w in caught:
        text = str(w.message).strip()
        if text and text not in seen:
            seen.append(text[0].upper() + text[1:] + ("" if text.endswith(".") else "."))
    return seen


# ---------------------------------------------------------------------------------------------
# building the page: spans


def span_report_page(
    spans: pd.DataFrame,
    unit: Literal["token", "char"] = "token",
    *,
    by_document: bool = True,
    texts: Mapping[Hashable, str] | None = None,
    tokens: pd.DataFrame | None = None,
    coders: Sequence[Hashable] | None = None,
    coverage: Iterable[tuple[Hashable, Hashable]] | None = None,
    match: Literal["exact", "overlap"] = "exact",
    top: int = 50,
    digits: int = 3,
    title: str | None = None,
    source: str | None = None,
    call: str | None = None,
    document: Hashable = "document",
    coder: Hashable = "coder",
    start: Hashable = "start",
    end: Hashable = "end",
    label: Hashable = "label",
) -> ReportPage:
    """The report page of span annotations: :func:`pandas_agree.span_report` explained.

    Computes the span report (one row per document with ``by_document``, and the pooled
    row), F1 between every two coders and per label (:func:`pandas_agree.span_f1` with
    ``match``), alpha on units without each coder (MASI on the units of
    :func:`pandas_agree.spans_to_units`), and the pairs of spans that failed to match
    with their text (:func:`pandas_agree.krippendorff.disagreements.span_disagreements`).

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame (``document, coder, start, end, label``). Not modified.
    unit, by_document, texts, tokens, coders, coverage
        As for :func:`pandas_agree.span_report` (``by_document`` defaults to True here).
    match : {"exact", "overlap"}, default "exact"
        The matching of the F1 tables and of the list of spans to adjudicate.
    top, digits, title, source, call
        As for :func:`report_page`.
    document, coder, start, end, label : hashable
        Column names.

    Returns
    -------
    ReportPage

    Examples
    --------
    >>> import pandas as pd
    >>> from pandas_agree.frontends.html import span_report_page
    >>> spans = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "A", "B", "B"],
    ...     "start": [0, 9, 21, 0, 9], "end": [4, 13, 26, 4, 17],
    ...     "label": ["PER", "PER", "LOC", "PER", "PER"]})
    >>> page = span_report_page(spans, texts={"d1": "Bill met Jill Ann in Paris ."})
    >>> page.table.loc["(pooled)", ["f1_exact", "f1_overlap"]].tolist()
    [0.4, 0.8]
    >>> page.items[["kind", "text_a", "text_b"]]
              kind text_a    text_b
    rank
    1     boundary   Jill  Jill Ann
    2       only a  Paris      None
    """
    import pandas_agree as pa
    from pandas_agree.krippendorff.disagreements import span_disagreements

    top, digits, title, source, call = _check_page_options(top, digits, title, source, call)
    cols = {"document": document, "coder": coder, "start": start, "end": end, "label": label}
    coverage = None if coverage is None else list(coverage)
    if texts is None and tokens is None and isinstance(spans.attrs.get("texts"), Mapping):
        texts = dict(spans.attrs["texts"])  # what a reader recorded (frame.attrs)
    table = pa.span_report(
        spans,
        unit,
        by_document=by_document,
        texts=texts,
        tokens=tokens,
        coders=coders,
        coverage=coverage,
        **cols,
    )
    notes = _group_notes(table, "document")
    alphas = ("alpha_masi", "alpha_nominal", "alpha_u")
    scores = ("f1_exact", "f1_overlap")
    pairwise = labels = coders_table = None
    f1_coverage = coverage if coders is None else None
    try:
        f1 = pa.span_f1(spans, match, coders=coders, coverage=f1_coverage, **cols)
    except AgreementError as exc:
        notes.append(f"Span F1 could not be computed: {exc}")
    else:
        pairwise, labels = _f1_tables(f1, spans[label])
    items = pd.DataFrame()
    n_items = 0
    no_items = "Nothing to adjudicate: every span found its match."
    try:
        everything = span_disagreements(
            spans, match, texts=texts, top=None, coders=coders, coverage=f1_coverage, **cols
        )
    except AgreementError as exc:
        notes.append(f"The list of spans to adjudicate could not be made: {exc}")
        no_items = "The list of spans to adjudicate could not be made (see the notes)."
    else:
        n_items = len(everything)
        items = everything.iloc[:top]
        if n_items > len(items):
            notes.append(
                f"The list of spans to adjudicate shows the first {len(items):,} of "
                f"{n_items:,} (by document and position); "
                "pandas_agree.krippendorff.disagreements.span_disagreements(..., top=None) lists "
                "them all."
            )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            units = pa.spans_to_units(
                spans, unit, texts=texts, tokens=tokens, coders=coders, coverage=coverage, **cols
            )
            result = pa.alpha(units, "masi")
            if len(result.fit.coded.coders) <= MAX_LEAVE_ONE_OUT_CODERS:
                coders_table = pa.coder_disagreement(result)
    except AgreementError as exc:
        notes.append(f"Alpha without each coder could not be computed: {exc}")
    n_docs = spans[document].nunique()
    listed = pd.unique(spans[coder]) if coders is None else list(coders)
    n_coders = len(listed)
    facts = [
        ("Data", _data_fact(source, len(spans), "span")),
        (
            "Columns",
            f"document {document!r}, coder {coder!r}, start {start!r}, end {end!r}, "
            f"label {label!r}",
        ),
        ("Coders", f"{n_coders:,}: {_names(listed)}"),
        ("Documents", f"{n_docs:,}" + (", one row each, then pooled" if by_document else "")),
        ("Labels", f"{spans[label].nunique():,}: {_names(pd.unique(spans[label]))}"),
        (
            "Units",
            f"{'tokens' if unit == 'token' else 'characters'}, each valued by the set of "
            "labels covering it (alpha with MASI and nominal); unitizing alpha on the "
            "continuum",
        ),
        ("Matching", f"{match} (span F1 and the spans to adjudicate)"),
    ]
    given = {
        "unit": unit,
        "by_document": by_document,
        "match": match,
        "top": top,
        "digits": digits,
        "coders": coders,
        "texts": "{...}" if texts is not None else None,
    }
    the_call = call or _python_call(span_report_page, "spans", given)
    facts.append(("Call", the_call))
    return ReportPage(
        kind="spans",
        title=title or ("Span agreement report" + (f": {source}" if source else "")),
        call=the_call,
        facts=tuple(facts),
        table=table,
        alphas=alphas,
        scores=scores,
        level=None,
        pairwise=pairwise,
        pairwise_metric=f"span F1 ({match} match)",
        coders=coders_table,
        coders_distance="alpha_masi",
        labels=labels,
        labels_metric=f"span F1 per label ({match} match, pooled over pairs of coders)",
        items=items,
        n_items=n_items,
        no_items=no_items,
        notes=tuple(notes),
        digits=digits,
    )


def _f1_tables(f1: pd.DataFrame, labels: pd.Series) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Coder x coder F1 (all labels) and F1 per label pooled over pairs of coders."""
    from pandas_agree.spans import ALL_LABELS

    pooled = f1[f1["label"] == ALL_LABELS]
    coders = pd.Index(pd.unique(pd.concat([pooled["coder_a"], pooled["coder_b"]])), name="coder")
    grid = pd.DataFrame(np.nan, index=coders, columns=coders.copy())
    for a, b, value in zip(pooled["coder_a"], pooled["coder_b"], pooled["f1"]):
        grid.loc[a, b] = grid.loc[b, a] = value
    per = f1[f1["label"] != ALL_LABELS]
    sums = per.groupby("label", sort=False)[["n_a", "n_b", "matched"]].sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        m, na, nb = (sums[c].to_numpy(dtype=float) for c in ("matched", "n_a", "n_b"))
        table = pd.DataFrame(
            {
                "n_spans": labels.value_counts().reindex(sums.index).fillna(0).astype(np.int64),
                "matched": sums["matched"].astype(np.int64),
                "precision": np.where(nb > 0, m / nb, np.nan),
                "recall": np.where(na > 0, m / na, np.nan),
                "f1": np.where(na + nb > 0, 2 * m / (na + nb), np.nan),
            },
            index=sums.index,
        )
    table.index.name = "label"
    return grid, table.sort_values("f1", kind="stable", na_position="first")


# ---------------------------------------------------------------------------------------------
# rendering


def _esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _clip(text: str, limit: int = TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _is_missing(x: Any) -> bool:
    if x is None or x is pd.NA or x is pd.NaT:
        return True
    return isinstance(x, (float, np.floating)) and math.isnan(x)


def _show(x: Any) -> str:
    """A value from the data as text (a set as {a, b}), clipped; not escaped."""
    if isinstance(x, (frozenset, set)):
        inner = sorted(str(e) for e in x)
        return _clip("{" + ", ".join(inner) + "}")
    return _clip(str(x))


def _cell(x: Any, digits: int, *, numeric: bool) -> str:
    """One ``<td>``: numbers right-aligned with ``digits`` and a sort key, text escaped."""
    if _is_missing(x):
        return '<td class="na num" data-v="">\u2014</td>' if numeric else '<td class="na"></td>'
    if numeric and isinstance(x, (bool, np.bool_)):
        return f"<td>{_esc(x)}</td>"
    if numeric and isinstance(x, (int, np.integer)):
        return f'<td class="num" data-v="{int(x)}">{int(x)}</td>'
    if numeric and isinstance(x, (float, np.floating)):
        return f'<td class="num" data-v="{float(x)!r}">{float(x):.{digits}f}</td>'
    return f'<td class="text">{_esc(_show(x))}</td>'


def _is_number_column(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
        series.dtype
    )


def _table(
    frame: pd.DataFrame,
    digits: int,
    *,
    caption: str,
    table_id: str,
    headers: Mapping[Any, str] | None = None,
    hidden: Mapping[Any, str] | None = None,
    foot: int = 0,
    index: bool = True,
    index_name: str = "",
) -> str:
    """A sortable ``<table>`` of ``frame``: index as row headers, the last ``foot`` rows in
    ``<tfoot>`` (they stay put when sorting). ``headers`` renames columns; ``hidden`` gives
    a header text that screen readers read before the visible one."""
    headers = headers or {}
    hidden = hidden or {}
    names = [n if n is not None else index_name for n in frame.index.names] if index else []
    head = "".join(f'<th scope="col">{_esc(n)}</th>' for n in names)
    numeric = [_is_number_column(frame[c]) for c in frame.columns]
    for c, num in zip(frame.columns, numeric):
        css = ' class="num"' if num else ""
        before = f'<span class="sr">{_esc(hidden[c])}</span>' if c in hidden else ""
        head += f'<th scope="col"{css}>{before}{_esc(headers.get(c, str(c)))}</th>'
    rows = []
    values = frame.to_numpy(dtype=object)
    for i, label in enumerate(frame.index):
        parts = label if isinstance(label, tuple) else (label,)
        cells = "".join(f'<th scope="row">{_esc(_show(p))}</th>' for p in parts) if index else ""
        cells += "".join(_cell(v, digits, numeric=num) for v, num in zip(values[i], numeric))
        rows.append(f"<tr>{cells}</tr>")
    body, tail = rows[: len(rows) - foot], rows[len(rows) - foot :]
    foot_html = f"<tfoot>{''.join(tail)}</tfoot>" if foot and tail else ""
    return (
        f'<div class="scroll"><table class="sortable" id="{table_id}">'
        f"<caption>{_esc(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody>{foot_html}</table></div>"
    )


def _verdict(alpha: float) -> tuple[str, str, str]:
    """(class, word, sentence) of an alpha read against :data:`THRESHOLDS`."""
    low, high = THRESHOLDS
    if not math.isfinite(alpha):
        return "", "undefined", "Alpha is not defined for these data (see the notes)."
    if alpha >= high:
        return (
            "high",
            "reliable",
            f"At or above {high:.3f}: the level Krippendorff asks for before relying on the data.",
        )
    if alpha >= low:
        return (
            "mid",
            "tentative",
            f"Between {low:.3f} and {high:.3f}: enough for tentative conclusions only.",
        )
    return (
        "low",
        "unreliable",
        f"Below {low:.3f}: Krippendorff advises against drawing conclusions from these data.",
    )


def _interval_sentence(low: float, high: float, level: float | None, digits: int) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return ""
    lo, hi = THRESHOLDS
    where = []
    for t in (lo, hi):
        if low < t <= high:
            where.append(f"{t:.3f}")
    level_text = f"{level:.0%} " if level is not None else ""
    text = (
        f'<p class="interval">{_esc(level_text)}interval: '
        f'<span class="num" data-v="{low!r}">{low:.{digits}f}</span> to '
        f'<span class="num" data-v="{high!r}">{high:.{digits}f}</span>'
    )
    if where:
        text += f" (it crosses {' and '.join(where)}: the data cannot settle which side)"
    return text + ".</p>"


def _pooled_row(table: pd.DataFrame) -> pd.Series:
    return table.iloc[-1]


def _headline(page: ReportPage) -> str:
    row = _pooled_row(page.table)
    cards = []
    for name in page.alphas:
        alpha = float(row[name]) if not _is_missing(row[name]) else math.nan
        kind, word, sentence = _verdict(alpha)
        shown = f"{alpha:.{page.digits}f}" if math.isfinite(alpha) else "\u2014"
        interval = ""
        if f"{name}_low" in page.table.columns:
            interval = _interval_sentence(
                float(row[f"{name}_low"]), float(row[f"{name}_high"]), page.level, page.digits
            )
        cards.append(
            f'<div class="card {kind}" data-metric="{_esc(name)}"><h3>{_esc(name)}</h3>'
            f'<p class="value" data-v="{"" if not math.isfinite(alpha) else repr(alpha)}">'
            f"{shown}</p>{interval}"
            f'<p><span class="verdict">{_esc(word.capitalize())}.</span> {_esc(sentence)}</p>'
            "</div>"
        )
    for name in page.scores:
        value = float(row[name]) if not _is_missing(row[name]) else math.nan
        shown = f"{value:.{page.digits}f}" if math.isfinite(value) else "\u2014"
        words = {"f1_exact": "F1, exact match", "f1_overlap": "F1, overlap match"}
        cards.append(
            f'<div class="card" data-metric="{_esc(name)}"><h3>{_esc(words.get(name, name))}'
            f'</h3><p class="value" data-v="{"" if not math.isfinite(value) else repr(value)}">'
            f"{shown}</p><p>Pairwise F1 over all labels, averaged over pairs of coders "
            "(not chance-corrected; no threshold applies).</p></div>"
        )
    if len(page.table) == 1:
        pooled = "over all the data"
    else:
        pooled = f"pooled over all {'groups' if page.kind == 'report' else 'documents'}"
    explain = (
        "<p>Krippendorff's alpha is 1 when coders agree perfectly and 0 when they agree no "
        "more than chance would; it can be negative. Krippendorff (2004, section 11.4) relies "
        "on data from 0.800 and draws tentative conclusions from 0.667. These levels are "
        "conventions, not tests: they say how far coders agree beyond chance under the chosen "
        "distance. They do <strong>not</strong> say the labels are right (coders can agree on "
        "the same mistake), they are not a significance test, an alpha under a lenient "
        "distance (MASI, Jaccard) is not comparable with a nominal one, and how much agreement "
        "is enough depends on what the data will be used for.</p>"
    )
    return (
        f'<section id="headline" aria-labelledby="h-headline"><h2 id="h-headline">Headline: '
        f"agreement {pooled}</h2>"
        f'<div class="cards">{"".join(cards)}</div>{explain}</section>'
    )


def _facts(page: ReportPage) -> str:
    items = []
    for name, text in page.facts:
        value = f"<code>{_esc(text)}</code>" if name == "Call" else _esc(text)
        items.append(f"<dt>{_esc(name)}</dt><dd>{value}</dd>")
    return (
        '<section id="measured" aria-labelledby="h-measured"><h2 id="h-measured">What was '
        f'measured</h2><dl class="facts">{"".join(items)}</dl></section>'
    )


def _group_section(page: ReportPage, figures: Mapping[str, str | None], plotting: bool) -> str:
    table = page.table
    word = "group" if page.kind == "report" else "document"
    body = table.iloc[:-1]
    pooled = table.iloc[-1:]
    shown = body
    note = ""
    hidden: dict[Any, str] = {}
    if len(body) > MAX_GROUP_ROWS:
        order = np.argsort(body[page.alphas[0]].to_numpy(dtype=float), kind="stable")
        shown = body.iloc[np.sort(order[:MAX_GROUP_ROWS])]
        note = (
            f'<p class="note">{len(body):,} {word}s: the {MAX_GROUP_ROWS} with the lowest '
            f"{_esc(page.alphas[0])} are shown.</p>"
        )
    frame = pd.concat([shown, pooled])
    frame = frame.drop(columns=[c for c in ("reason", "coefficient_reason") if c in frame])
    order: list[Any] = []
    headers: dict[Any, str] = {}
    level = f"{page.level:.0%} " if page.level is not None else ""
    for name in page.alphas:
        order.append(name)
        if f"{name}_low" in frame.columns:
            order += [f"{name}_low", f"{name}_high"]
            headers[f"{name}_low"] = f"{level}low"
            headers[f"{name}_high"] = f"{level}high"
            hidden[f"{name}_low"] = hidden[f"{name}_high"] = f"{name} "
    frame = frame[order + [c for c in frame.columns if c not in order]]
    if len(body) == 0:
        caption = f"Alpha over all the data (no {word}s)."
    else:
        caption = f"Alpha per {word}, then over all {word}s (last row)."
    html_table = _table(
        frame,
        page.digits,
        caption=caption,
        table_id="groups",
        foot=1,
        headers=headers,
        hidden=hidden,
        index_name=word,
    )
    figure = _figure_html(
        figures.get("forest"),
        plotting,
        f"Forest plot of Krippendorff's alpha per {word} and over all {word}s "
        f"({', '.join(page.alphas)})"
        + (f" with {page.level:.0%} intervals" if page.level is not None else "")
        + "; dashed lines mark 0.667 and 0.8. The table holds the same numbers.",
        f"Alpha per {word}" + (" (whiskers: the intervals)" if page.level is not None else ""),
    )
    title = "Per group" if page.kind == "report" else "Per document"
    return (
        f'<section id="groups-section" aria-labelledby="h-groups"><h2 id="h-groups">{title}</h2>'
        f"{note}{html_table}{figure}</section>"
    )


def _figure_html(uri: str | None, plotting: bool, alt: str, caption: str) -> str:
    if uri is None:
        if not plotting:
            return (
                '<p class="nofigure">Figures need matplotlib, which is not installed where '
                "this page was made (<code>pip install matplotlib</code>); the tables hold "
                "the numbers.</p>"
            )
        return ""
    return (
        f'<figure><img src="{uri}" alt="{_esc(alt)}">'
        f"<figcaption>{_esc(caption)}</figcaption></figure>"
    )


def _coders_section(page: ReportPage, figures: Mapping[str, str | None], plotting: bool) -> str:
    parts = []
    if page.pairwise is not None:
        parts.append(
            f"<h3>Every two coders: {_esc(page.pairwise_metric)}</h3>"
            + _figure_html(
                figures.get("heatmap"),
                plotting,
                f"Heatmap of {page.pairwise_metric} between each two of "
                f"{len(page.pairwise)} coders; darker cells agree less, and each cell shows "
                "its number. The table holds the same numbers.",
                f"{page.pairwise_metric} for each pair of coders (blank: the same coder, or "
                "no unit in common).",
            )
            + _table(
                page.pairwise,
                page.digits,
                caption="Each pair of coders.",
                table_id="pairwise",
            )
        )
    if page.coders is not None:
        frame = page.coders
        keep = [c for c in ("n_values", "share", "alpha_without", "alpha_change") if c in frame]
        parts.append(
            f"<h3>Who pulls agreement down: alpha ({_esc(page.coders_distance)}) without each "
            "coder</h3><p>Worst first: removing the first coder raises alpha the most. "
            "<em>share</em> is the coder's part of the observed disagreement (each "
            "disagreeing pair split equally between its two coders). With two coders, alpha "
            "without one is undefined.</p>"
            + _table(
                frame[keep],
                page.digits,
                caption="Worst first.",
                table_id="coders",
                headers={
                    "n_values": "values",
                    "alpha_without": "alpha without",
                    "alpha_change": "change",
                },
            )
        )
    if not parts:
        parts.append('<p class="note">Nothing to show: see the notes.</p>')
    return (
        '<section id="coders-section" aria-labelledby="h-coders"><h2 id="h-coders">Coders</h2>'
        + "".join(parts)
        + "</section>"
    )


def _labels_section(page: ReportPage) -> str:
    if page.labels is None:
        body = '<p class="note">Not computed for these data: see the notes.</p>'
    else:
        frame = page.labels.drop(columns=[c for c in ("reason",) if c in page.labels])
        note = ""
        if len(frame) > MAX_LABEL_ROWS:
            note = (
                f'<p class="note">{len(frame):,} labels: the first {MAX_LABEL_ROWS} are shown.</p>'
            )
            frame = frame.iloc[:MAX_LABEL_ROWS]
        if page.kind == "report":
            text = (
                "<p>For each category (or each label of a set): <em>specific agreement</em> "
                "(the chance that a second rating of a unit has it, given that one has), its "
                "kappa and alpha (it against everything else).</p>"
            )
        else:
            text = (
                "<p>For each label: spans of the label, spans matched between coders, and F1 "
                "(precision and recall pooled over every pair of coders), lowest F1 first.</p>"
            )
        body = (
            text
            + note
            + _table(
                frame,
                page.digits,
                caption=f"{page.labels_metric}.",
                table_id="labels",
                headers={
                    "specific_agreement": "specific agreement",
                    "n_ratings": "ratings",
                    "n_spans": "spans",
                },
            )
        )
    return (
        '<section id="labels-section" aria-labelledby="h-labels"><h2 id="h-labels">Per label'
        f"</h2>{body}</section>"
    )


def _values_in_one_column(items: pd.DataFrame, front: list[Any]) -> pd.DataFrame:
    coders = [c for c in items.columns if c not in front]
    joined = [
        "; ".join(f"{c}: {_show(v)}" for c, v in zip(coders, row) if not _is_missing(v))
        for row in items[coders].to_numpy(dtype=object)
    ]
    out = items[front].copy()
    out["values (coder: value)"] = pd.Series(joined, index=items.index, dtype=object)
    return out


def _span_items_shown(items: pd.DataFrame) -> pd.DataFrame:
    """The spans to adjudicate as shown: each side's coder, label, text and place."""
    if not len(items):
        return items

    def place(side: str) -> pd.Series:
        starts, ends = items[f"start_{side}"], items[f"end_{side}"]
        text = [None if _is_missing(s) else f"{int(s)}\u2013{int(e)}" for s, e in zip(starts, ends)]
        return pd.Series(text, index=items.index, dtype=object)

    out = items[["document", "kind"]].copy()
    for side in ("a", "b"):
        out[f"coder {side}"] = items[f"coder_{side}"]
        out[f"label {side}"] = items[f"label_{side}"]
        out[f"text {side}"] = items[f"text_{side}"]
        out[f"at {side}"] = place(side)
    return out


def _items_section(page: ReportPage) -> str:
    from pandas_agree.krippendorff.disagreements import RANK_COLUMNS

    items = page.items
    if page.kind == "report":
        heading = "Items to adjudicate"
        if len(items):
            lead = (
                f"<p>{page.n_items:,} unit(s) hold the observed disagreement of alpha "
                f"({_esc(page.coders_distance)}); the {len(items):,} with the largest share "
                "come first, with every coder's value (blank: not rated). <em>share</em> is "
                "the unit's part of the observed disagreement.</p>"
            )
        else:
            lead = f'<p class="note">{_esc(page.no_items)}</p>'
        if len(items.columns):
            cut = list(items.columns).index("share")
            keys = list(items.columns[:cut])
            values = list(items.columns[cut + len(RANK_COLUMNS) :])
            items = items[[*keys, "share", "n_values", *values]]
            if len(values) > MAX_VALUE_COLUMNS:
                items = _values_in_one_column(items, [*keys, "share", "n_values"])
    else:
        heading = "Spans to adjudicate"
        items = _span_items_shown(items)
        if len(items):
            lead = (
                f"<p>{page.n_items:,} span(s) or pairs of spans did not match; the first "
                f"{len(items):,} by document and position. <em>kind</em>: <em>label</em> "
                "(same place, other label), <em>boundary</em> (same label, other extent), "
                "<em>only a</em> / <em>only b</em> (the other coder marked nothing "
                "overlapping that was left unmatched).</p>"
            )
        else:
            lead = f'<p class="note">{_esc(page.no_items)}</p>'
    table = ""
    if len(items):
        table = _table(
            items,
            page.digits,
            caption=f"{heading}, {len(items):,} of {page.n_items:,}.",
            table_id="items",
            headers={"n_values": "values", "mean_distance": "mean distance"},
        )
    return (
        f'<section id="items-section" aria-labelledby="h-items"><h2 id="h-items">{heading}</h2>'
        f"{lead}{table}</section>"
    )


def _notes_section(page: ReportPage) -> str:
    notes = list(page.notes)
    if not notes:
        body = "<p>Nothing to note: no alpha is undefined and nothing was left out.</p>"
    else:
        more = ""
        if len(notes) > MAX_NOTES:
            more = f'<p class="note">and {len(notes) - MAX_NOTES:,} more.</p>'
            notes = notes[:MAX_NOTES]
        body = (
            '<ul class="notes">'
            + "".join(f"<li>{_esc(_clip(n, 800))}</li>" for n in notes)
            + "</ul>"
            + more
        )
    return (
        f'<section id="notes" aria-labelledby="h-notes"><h2 id="h-notes">Notes</h2>{body}</section>'
    )


_NAV = (
    ("measured", "What was measured"),
    ("headline", "Headline"),
    ("groups-section", "Per group"),
    ("coders-section", "Coders"),
    ("labels-section", "Per label"),
    ("items-section", "To adjudicate"),
    ("notes", "Notes"),
)


def render(page: ReportPage) -> str:
    """The HTML text of ``page`` (see the module docstring for what it holds).

    Parameters
    ----------
    page : ReportPage

    Returns
    -------
    str
        One self-contained HTML document.
    """
    if not isinstance(page, ReportPage):
        raise ValueTypeError(f"`page` must be a ReportPage, got {type(page).__name__}")
    figures, plotting = _figures(page)
    nav_items = [
        (anchor, "Per document" if (anchor == "groups-section" and page.kind == "spans") else text)
        for anchor, text in _NAV
    ]
    nav = "".join(f'<li><a href="#{a}">{_esc(t)}</a></li>' for a, t in nav_items)
    body = "".join(
        [
            _facts(page),
            _headline(page),
            _group_section(page, figures, plotting),
            _coders_section(page, figures, plotting),
            _labels_section(page),
            _items_section(page),
            _notes_section(page),
        ]
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="pandas_agree {_esc(page.version)}">'
        f"<title>{_esc(page.title)}</title><style>{_STYLE}</style></head>\n"
        '<body><a class="skip" href="#main">Skip to the report</a>'
        f'<header><h1>{_esc(page.title)}</h1><nav aria-label="Contents"><ol>{nav}</ol></nav>'
        f'</header>\n<main id="main">{body}</main>\n'
        f"<footer><p>Made with pandas_agree {_esc(page.version)} on "
        f'<time datetime="{_esc(page.created)}">{_esc(page.created)}</time> (UTC). '
        "Everything on this page is in this one file; it loads nothing from elsewhere.</p>"
        f"</footer>\n<script>{_SORT_SCRIPT}</script></body></html>\n"
    )


# ---------------------------------------------------------------------------------------------
# figures


def _matplotlib() -> Any:
    """matplotlib, or None when it is not installed."""
    try:
        import matplotlib
    except ImportError:
        return None
    return matplotlib


def _svg_uri(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _figures(page: ReportPage) -> tuple[dict[str, str | None], bool]:
    """The page's figures as ``data:`` URIs, and whether matplotlib was there to draw them."""
    mpl = _matplotlib()
    if mpl is None:
        return {}, False
    from matplotlib.figure import Figure

    import pandas_agree as pa

    out: dict[str, str | None] = {}
    style = {
        "axes.prop_cycle": mpl.cycler(color=list(OKABE_ITO)),
        "svg.hashsalt": "pandas_agree",
        "svg.fonttype": "path",
        "font.size": 10,
    }
    with mpl.rc_context(style), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = page.table
        body = table.iloc[:-1]
        if len(body) > MAX_FOREST_ROWS:
            order = np.argsort(body[page.alphas[0]].to_numpy(dtype=float), kind="stable")
            body = body.iloc[np.sort(order[:MAX_FOREST_ROWS])]
        frame = pd.concat([body, table.iloc[-1:]])
        frame.index = pd.Index(
            [_clip(_group_label(x))[:40] for x in frame.index], name=table.index.name
        )
        present = [a for a in page.alphas if frame[a].notna().any()]
        if present:
            fig = Figure(figsize=(7.5, 1.4 + 0.42 * len(frame) * max(1, len(present)) ** 0.5))
            ax = fig.subplots()
            pa.plot.forest(frame, ax=ax, distances=present)
            out["forest"] = _svg_uri(fig)
        if page.pairwise is not None and page.pairwise.notna().to_numpy().any():
            grid = page.pairwise.copy()
            grid.index = [_clip(str(x))[:24] for x in grid.index]
            grid.columns = [_clip(str(x))[:24] for x in grid.columns]
            side = 2.2 + 0.55 * len(grid)
            fig = Figure(figsize=(side + 1.3, side))
            ax = fig.subplots()
            pa.plot.heatmap(grid, ax=ax, cmap="cividis", fmt=f"{{:.{min(page.digits, 2)}f}}")
            if max(len(str(x)) for x in grid.columns) > 4:
                for tick in ax.get_xticklabels():
                    tick.set_rotation(35)
                    tick.set_horizontalalignment("right")
            out["heatmap"] = _svg_uri(fig)
    return out, True
