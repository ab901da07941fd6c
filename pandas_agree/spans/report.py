"""The span report: :func:`span_report`, the table of ``pandas-agree spans``."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pandas as pd

from ..declare import declared
from ..errors import AgreementError, DegenerateDataWarning, InvalidParameterError
from ._attrs import reader_lengths, texts_or_tokens, without_attrs
from ._frame import validate
from .f1 import ALL_LABELS, span_f1
from .unitizing import unitizing_alpha
from .units import spans_to_units

__all__ = [
    "DEFAULT_MEASURES",
    "MEASURES",
    "ReportContext",
    "span_report",
]


# ---------------------------------------------------------------------------------------------
# the measures: one entry each, name -> function of the context giving its columns


@dataclass(frozen=True)
class ReportContext:
    """What a measure of :func:`span_report` sees: one row's spans and the report's options.

    ``spans`` holds the rows of one document (``by_document``) or all of them (the pooled
    row). :meth:`units` and :meth:`u_alpha` compute once per row and are shared by the
    measures that need them.
    """

    spans: pd.DataFrame
    unit: str
    texts: Mapping[Hashable, str] | None
    tokens: pd.DataFrame | None
    coders: Sequence[Hashable] | None
    coverage: list[tuple[Hashable, Hashable]] | None
    continuum: Mapping[Hashable, Any] | None
    lengths: Mapping[Hashable, int] | None
    cols: dict[str, Hashable]
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def _once(self, key: str, func: Callable[[], Any]) -> Any:
        if key not in self._cache:
            try:
                self._cache[key] = (func(), None)
            except AgreementError as exc:
                self._cache[key] = (None, exc)
        value, exc = self._cache[key]
        if exc is not None:
            raise exc
        return value

    def units(self) -> pd.DataFrame:
        """:func:`spans_to_units` of the row's spans."""
        return self._once(
            "units",
            lambda: spans_to_units(
                self.spans,
                self.unit,  # type: ignore[arg-type]
                texts=self.texts,
                tokens=self.tokens,
                coders=self.coders,
                coverage=self.coverage,
                **self.cols,
            ),
        )

    def u_alpha(self) -> Any:
        """:func:`~pandas_agree.spans.u_alpha` of the row's spans (lengths from the texts).

        Without ``coders`` or ``coverage``, a coder unitized the documents where it has
        spans, as for the units.
        """
        from .ualpha import u_alpha

        return self._once(
            "u_alpha",
            lambda: u_alpha(
                self.spans,
                self.lengths,
                coders=self.coders,
                coverage=None if self.coders is not None else (self.coverage or []),
                on_overlap="merge",
                **self.cols,
            ),
        )


def _alpha_on_units(distance: str) -> Callable[[ReportContext], dict[str, Any]]:
    def measure(ctx: ReportContext) -> dict[str, Any]:
        from ..krippendorff.alpha import alpha

        return {f"alpha_{distance}": float(alpha(ctx.units(), distance))}

    return measure


def _alpha_u(ctx: ReportContext) -> dict[str, Any]:
    res = unitizing_alpha(
        ctx.spans, ctx.continuum, coders=ctx.coders, on_overlap="merge", **ctx.cols
    )
    return {"alpha_u": float(res)}


def _f1(match: str) -> Callable[[ReportContext], dict[str, Any]]:
    def measure(ctx: ReportContext) -> dict[str, Any]:
        table = span_f1(
            ctx.spans,
            match,  # type: ignore[arg-type]
            coders=ctx.coders,
            coverage=ctx.coverage if ctx.coders is None else None,
            **ctx.cols,
        )
        return {f"f1_{match}": float(table.loc[table["label"] == ALL_LABELS, "f1"].mean())}

    return measure


def _u_family(measure: str, column: str, coverage: bool = False):
    def compute(ctx: ReportContext) -> dict[str, Any]:
        table = ctx.u_alpha().to_frame()
        row = table.loc[(measure, ALL_LABELS)]
        out: dict[str, Any] = {column: float(row["alpha"])}
        if coverage:
            out["cu_coverage"] = float(row["coverage"])
        if isinstance(row["reason"], str):
            out["reason"] = row["reason"]
        return out

    return compute


def _ku_alpha(ctx: ReportContext) -> dict[str, Any]:
    table = ctx.u_alpha().to_frame().loc["ku"]
    out: dict[str, Any] = {f"ku_alpha[{k}]": float(a) for k, a in table["alpha"].items()}
    why = [f"[{k}] {r}" for k, r in table["reason"].items() if isinstance(r, str)]
    if why:
        out["reason"] = "; ".join(why)
    return out


#: The measures :func:`span_report` can show: name -> function of a :class:`ReportContext`
#: returning the row's columns (a mapping; a ``"reason"`` entry joins the row's reasons). A
#: new measure is one entry here. An :class:`~pandas_agree.errors.AgreementError` raised by
#: the function leaves the measure's column NaN and its message in ``reason``.
MEASURES: dict[str, Callable[[ReportContext], Mapping[str, Any]]] = {
    "alpha_masi": _alpha_on_units("masi"),
    "alpha_nominal": _alpha_on_units("nominal"),
    "alpha_u": _alpha_u,
    "f1_exact": _f1("exact"),
    "f1_overlap": _f1("overlap"),
    "u_alpha": _u_family("u", "u_alpha"),
    "bar_u_alpha": _u_family("|u", "bar_u_alpha"),
    "cu_alpha": _u_family("cu", "cu_alpha", coverage=True),
    "ku_alpha": _ku_alpha,
}

#: The measures of :func:`span_report` by default.
DEFAULT_MEASURES: tuple[str, ...] = (
    "alpha_masi",
    "alpha_nominal",
    "alpha_u",
    "f1_exact",
    "f1_overlap",
)


def _measures(
    measures: Sequence[str] | Mapping[str, Callable[[ReportContext], Mapping[str, Any]]] | None,
) -> dict[str, Callable[[ReportContext], Mapping[str, Any]]]:
    if measures is None:
        return {name: MEASURES[name] for name in DEFAULT_MEASURES}
    if isinstance(measures, Mapping):
        bad = [name for name, f in measures.items() if not callable(f)]
        if bad:
            raise InvalidParameterError(
                f"`measures` must map names to functions of a ReportContext; {bad[0]!r} maps "
                f"to {measures[bad[0]]!r}"
            )
        chosen = dict(measures)
    elif isinstance(measures, str) or not isinstance(measures, Iterable):
        raise InvalidParameterError(
            f"`measures` must be a list of names from {list(MEASURES)}, got {measures!r}"
        )
    else:
        names = list(measures)
        unknown = [n for n in names if n not in MEASURES]
        if unknown:
            raise InvalidParameterError(
                f"`measures` must name measures of {list(MEASURES)}, got {unknown[0]!r}"
            )
        chosen = {n: MEASURES[n] for n in names}
    if not chosen:
        raise InvalidParameterError("`measures` is empty: name at least one measure")
    return chosen


def _report_row(
    ctx: ReportContext, measures: dict[str, Callable[[ReportContext], Mapping[str, Any]]]
) -> dict[str, Any]:
    coders = ctx.coders
    row: dict[str, Any] = {
        "n_coders": int(ctx.spans[ctx.cols["coder"]].nunique()) if coders is None else len(coders),
        "n_spans": len(ctx.spans),
    }
    reasons: list[str] = []
    reported: list[AgreementError] = []  # a shared computation's error is reported once

    def attempt(name: str, func: Callable[[], Any]) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DegenerateDataWarning)
            try:
                out = func()
            except AgreementError as exc:
                if not any(exc is seen for seen in reported):
                    reported.append(exc)
                    reasons.append(f"{name}: {str(exc).splitlines()[0]}")
                return None
        for w in caught:
            reasons.append(f"{name}: {w.message}")
        return out

    units = attempt("units", ctx.units)
    if isinstance(units, pd.DataFrame):
        row["n_coders"] = int(units["coder"].nunique())
        row["n_units"] = int(units["unit"].nunique())
    else:
        row["n_units"] = 0
    for name, func in measures.items():
        out = attempt(name, lambda func=func: func(ctx))
        if out is None:
            row.setdefault(name, float("nan"))
            continue
        out = dict(out)
        why = out.pop("reason", None)
        if why:
            reasons.append(f"{name}: {why}")
        row.update(out)
    row["reason"] = "; ".join(dict.fromkeys(reasons)) if reasons else None
    return row


@declared(frontends=("frame",))
def span_report(
    spans: pd.DataFrame,
    unit: Literal["token", "char"] = "token",
    *,
    by_document: bool = False,
    texts: Mapping[Hashable, str] | None = None,
    tokens: pd.DataFrame | None = None,
    coders: Sequence[Hashable] | None = None,
    coverage: Iterable[tuple[Hashable, Hashable]] | None = None,
    measures: Sequence[str]
    | Mapping[str, Callable[[ReportContext], Mapping[str, Any]]]
    | None = None,
    document: Hashable = "document",
    coder: Hashable = "coder",
    start: Hashable = "start",
    end: Hashable = "end",
    label: Hashable = "label",
) -> pd.DataFrame:
    r"""One table of span agreement: alpha on units (MASI, nominal), :math:`\alpha_U`, F1, ...

    The pooled row uses every document; with ``by_document=True`` one row per document
    comes first. Columns: ``n_coders``, ``n_spans``, ``n_units``, the columns of the
    ``measures``, and ``reason``, which says why a cell is NaN (too few coders in a
    document, no pairable unit, ...).

    The measures (:data:`MEASURES`; the first five are the default):

    * ``alpha_masi``, ``alpha_nominal``: Krippendorff's alpha on the units of
      :func:`spans_to_units`, whose values are label sets;
    * ``alpha_u``: :func:`unitizing_alpha` (2004) with overlapping spans of one coder and
      label merged, continuum: the text of each document when ``texts`` is given, else 0 to
      its last span end;
    * ``f1_exact``, ``f1_overlap``: the all-labels F1 of :func:`span_f1`, averaged over
      coder pairs;
    * ``u_alpha``, ``bar_u_alpha``, ``cu_alpha`` (with ``cu_coverage``), ``ku_alpha``
      (one column ``ku_alpha[<label>]`` per label): the u-alpha family of
      :func:`~pandas_agree.spans.u_alpha` (2016), overlapping spans of one coder and label
      merged, each document's length the length of its text (``texts``, else
      ``spans.attrs["texts"]``); a coder unitized the documents where it has spans unless
      ``coders`` or ``coverage`` say otherwise.

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame. Not modified.
    unit : {"token", "char"}, default "token"
    by_document : bool, default False
    texts, tokens, coders, coverage : see :func:`spans_to_units`
        (``coverage``: who counts as having labelled nothing in the units, and which
        documents each pair of coders is compared on for F1). Without ``texts`` and
        ``tokens``, those a reader of :mod:`pandas_agree.io` recorded in ``spans.attrs``
        are used, for the units and for the continuum of :math:`\alpha_U`.
    measures : list of names or mapping, optional
        Names from :data:`MEASURES` (default :data:`DEFAULT_MEASURES`), or a mapping name
        -> function of a :class:`ReportContext` returning a mapping of columns.
    document, coder, start, end, label : hashable
        Column names.

    Returns
    -------
    pandas.DataFrame
        Indexed by document, with ``"(pooled)"`` last.

    Examples
    --------
    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> spans = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B", "B"],
    ...     "start": [0, 9, 0, 9], "end": [4, 13, 4, 15], "label": "PER"})
    >>> table = pa.span_report(spans, texts={"d1": "Bill met Jill Ann ."})
    >>> table[["n_units", "alpha_masi", "f1_exact", "f1_overlap"]]
              n_units  alpha_masi  f1_exact  f1_overlap
    document
    (pooled)        5        0.64       0.5         1.0

    The u-alpha family instead, each document's length that of its text (one label, so
    :math:`{}_{|u}\alpha = {}_u\alpha` and :math:`{}_{cu}\alpha` is undefined):

    >>> table = pa.span_report(spans, texts={"d1": "Bill met Jill Ann ."},
    ...                        measures=["u_alpha", "bar_u_alpha", "cu_alpha"])
    >>> table[["u_alpha", "bar_u_alpha", "cu_alpha"]].round(3)
              u_alpha  bar_u_alpha  cu_alpha
    document
    (pooled)    0.804        0.804       NaN
    >>> table.loc["(pooled)", "reason"]
    'cu_alpha: the intersecting units all have one value'
    """
    if not isinstance(by_document, bool):
        raise InvalidParameterError(f"`by_document` must be True or False, got {by_document!r}")
    chosen = _measures(measures)
    v = validate(spans, document, coder, start, end, label)
    cols = {"document": document, "coder": coder, "start": start, "end": end, "label": label}
    continuum = None
    if texts is None and tokens is None:
        continuum = reader_lengths(spans, v.documents)
        texts, tokens = texts_or_tokens(spans, texts, tokens, unit, document, start, end)
    recorded = spans.attrs.get("texts")
    # what a reader recorded is taken here once: the calls below get it explicitly
    spans = without_attrs(spans)
    if texts is not None and isinstance(texts, Mapping):
        continuum = {d: len(t) for d, t in texts.items() if isinstance(t, str) and len(t) > 0}
        continuum = {d: n for d, n in continuum.items() if d in set(v.documents)} or None
    all_texts = texts if isinstance(texts, Mapping) else recorded
    lengths = None
    if isinstance(all_texts, Mapping):
        lengths = {d: len(t) for d, t in all_texts.items() if isinstance(t, str)}
    cov = None if coverage is None else list(coverage)
    rows = []
    index = []

    def context(part, sub_texts, sub_tokens, sub_cov, sub_cont) -> ReportContext:
        return ReportContext(
            part, unit, sub_texts, sub_tokens, coders, sub_cov, sub_cont, lengths, cols
        )

    if by_document:
        for d in v.documents:
            part = spans[spans[document] == d]
            sub_texts = {d: texts[d]} if texts is not None and d in texts else None
            sub_tokens = None if tokens is None else tokens[tokens[document] == d]
            sub_cont = None if continuum is None else {d: continuum[d]}
            sub_cov = None if cov is None else [p for p in cov if p[0] == d]
            rows.append(
                _report_row(context(part, sub_texts, sub_tokens, sub_cov, sub_cont), chosen)
            )
            index.append(d)
    rows.append(_report_row(context(spans, texts, tokens, cov, continuum), chosen))
    index.append("(pooled)")
    table = pd.DataFrame(rows, index=pd.Index(index, name="document", dtype=object))
    columns = ["n_coders", "n_spans", "n_units"]
    for row in rows:
        columns += [c for c in row if c not in columns and c != "reason"]
    return table[[*columns, "reason"]]
