"""The span report: :func:`span_report`, the table of ``pandas-agree spans``."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..declare import declared
from ..errors import AgreementError, DegenerateDataWarning, InvalidParameterError
from ._attrs import reader_lengths, texts_or_tokens, without_attrs
from ._frame import validate
from .f1 import ALL_LABELS, annotations_of, span_f1
from .unitizing import unitizing_alpha
from .units import spans_to_units

__all__ = [
    "DEFAULT_MEASURES",
    "MEASURES",
    "RELATION_MEASURES",
    "ReportContext",
    "span_report",
]


# ---------------------------------------------------------------------------------------------
# the measures: one entry each, name -> function of the context giving its columns


@dataclass(frozen=True)
class ReportContext:
    """What a measure of :func:`span_report` sees: one row's spans and the report's options.

    ``spans`` holds the rows of one document (``by_document``) or all of them (the pooled
    row). :meth:`units`, :meth:`unitizing`, :meth:`f1` and :meth:`u_alpha` compute once per
    row and are shared by the measures that need them, and by the rows of each label
    (``by_label``: ``label_key`` is the label of the row, None for the all-labels row; a
    measure that has no per-label reading raises for label rows).
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
    relations: pd.DataFrame | None = None
    fragments: bool = False
    on_overlap: str = "raise"
    label_key: Hashable | None = None
    annotation_cols: dict[str, Hashable] = field(default_factory=dict)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def for_label(self, label: Hashable) -> ReportContext:
        """The same context for the row of one label (sharing the computations)."""
        return replace(self, label_key=label)

    def relation_frame(self) -> pd.DataFrame:
        """The row's relations (``relations=`` of :func:`span_report`), or an error."""
        if self.relations is None:
            raise InvalidParameterError(
                "the relation measures need the relation frame: pass relations= (a reader's "
                "relations=True gives it)"
            )
        return self.relations

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

    def unitizing(self) -> Any:
        """:func:`unitizing_alpha` of the row's spans (2004), with the report's ``on_overlap``."""
        return self._once(
            "unitizing",
            lambda: unitizing_alpha(
                self.spans, self.continuum, coders=self.coders, on_overlap=self.on_overlap,
                **self.cols,
            ),
        )

    def f1(self, match: str) -> pd.DataFrame:
        """:func:`span_f1` of the row's spans with ``match`` (annotations or fragments)."""
        return self._once(
            f"f1_{match}",
            lambda: span_f1(
                self.spans,
                match,  # type: ignore[arg-type]
                coders=self.coders,
                coverage=self.coverage if self.coders is None else None,
                fragments=self.fragments,
                **self.cols,
                **self.annotation_cols,
            ),
        )

    def all_labels_only(self, name: str) -> None:
        """Raise for a label row: measure ``name`` has no per-label reading."""
        if self.label_key is not None:
            raise InvalidParameterError(f"{name} is not computed per label")

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


def _label_sets(values: Any, label: Hashable) -> np.ndarray:
    """Each label set reduced to ``{label}`` or the empty set: did the coder mark ``label``?"""
    codes, uniques = pd.factorize(pd.Series(values, dtype=object))
    has = np.fromiter((label in u for u in uniques), dtype=bool, count=len(uniques))
    marked, empty = frozenset([label]), frozenset()
    out = np.empty(len(codes), dtype=object)
    out[:] = empty
    out[has[codes]] = marked
    return out


def _alpha_on_units(distance: str) -> Callable[[ReportContext], dict[str, Any]]:
    def measure(ctx: ReportContext) -> dict[str, Any]:
        from ..krippendorff.alpha import alpha

        data = ctx.units()
        if ctx.label_key is not None:  # did each coder mark this label on each unit?
            values = _label_sets(data["value"].to_numpy(dtype=object), ctx.label_key)
            data = data.assign(value=values)
        return {f"alpha_{distance}": float(alpha(data, distance))}

    return measure


def _alpha_u(ctx: ReportContext) -> dict[str, Any]:
    res = ctx.unitizing()
    out: dict[str, Any] = {"alpha_u": float(res)}
    if ctx.label_key is not None:
        table = res.per_category
        if ctx.label_key not in table.index:
            return {"alpha_u": float("nan"), "reason": "no unit of this label"}
        out["alpha_u"] = float(table.loc[ctx.label_key, "alpha"])
    elif getattr(res, "n_merged", 0):
        out["reason"] = (
            f"{res.n_merged} span(s) overlapping a span of the same coder and label merged "
            "into it (on_overlap='merge')"
        )
    return out


def _f1(match: str) -> Callable[[ReportContext], dict[str, Any]]:
    def measure(ctx: ReportContext) -> dict[str, Any]:
        table = ctx.f1(match)
        key = ALL_LABELS if ctx.label_key is None else ctx.label_key
        # mean over the coder pairs (for a label: where one of the two marked it)
        return {f"f1_{match}": float(table.loc[table["label"] == key, "f1"].mean())}

    return measure


def _relation_f1(match: str) -> Callable[[ReportContext], dict[str, Any]]:
    def measure(ctx: ReportContext) -> dict[str, Any]:
        from .relations import relation_f1

        ctx.all_labels_only(f"relation_f1_{match}")
        # coders without relations still count: they are the span frame's coders
        coders = ctx.coders
        if coders is None and ctx.coverage is None:
            coders = list(pd.unique(ctx.spans[ctx.cols["coder"]]))
        table = relation_f1(
            ctx.relation_frame(),
            match,  # type: ignore[arg-type]
            coders=coders,
            coverage=ctx.coverage if coders is None else None,
            document=ctx.cols["document"],
            coder=ctx.cols["coder"],
        )
        return {
            f"relation_f1_{match}": float(table.loc[table["label"] == ALL_LABELS, "f1"].mean())
        }

    return measure


def _relation_alpha(ctx: ReportContext) -> dict[str, Any]:
    from .relations import relation_alpha

    ctx.all_labels_only("relation_alpha")
    # relation_alpha names the span label and the relation label with one parameter: the
    # relation frame's own column is "label", so the span frame's label column takes it
    spans = ctx.spans
    own = ctx.cols["label"]
    if own != "label":
        spans = spans.drop(columns=["label"], errors="ignore").rename(columns={own: "label"})
    cols = {k: ctx.cols[k] for k in ("document", "coder", "start", "end")}
    res = relation_alpha(spans, ctx.relation_frame(), **cols)
    return {"relation_alpha": float(res), "relation_pairs": int(res.n_pairs)}


def _gamma_result(ctx: ReportContext) -> Any:
    """:func:`~pandas_agree.spans.gamma` of the row's spans: expected disorder from the
    default statistical sampler seeded with 0, so a report reads the same every time."""
    from .gamma import gamma

    lengths = None
    if ctx.lengths is not None:
        docs = set(pd.unique(ctx.spans[ctx.cols["document"]]))
        lengths = {d: n for d, n in ctx.lengths.items() if d in docs} or None
    return ctx._once(
        "gamma",
        lambda: gamma(
            ctx.spans,
            rng=0,
            continuum=lengths,
            coders=ctx.coders,
            coverage=None if ctx.coders is not None else ctx.coverage,
            **ctx.cols,
        ),
    )


def _gamma(ctx: ReportContext) -> dict[str, Any]:
    res = _gamma_result(ctx)
    if ctx.label_key is not None:
        table = res.per_category
        if ctx.label_key not in table.index:
            return {"gamma": float("nan"), "reason": "no unit of this label"}
        return {"gamma": float(table.loc[ctx.label_key, "gamma_k"])}
    out: dict[str, Any] = {"gamma": float(res), "gamma_se": float(res.expected_se)}
    if res.reason:
        out["reason"] = res.reason
    return out


def _gamma_cat(ctx: ReportContext) -> dict[str, Any]:
    ctx.all_labels_only("gamma_cat")
    return {"gamma_cat": float(_gamma_result(ctx).gamma_cat)}


def _u_family(measure: str, column: str, coverage: bool = False):
    def compute(ctx: ReportContext) -> dict[str, Any]:
        ctx.all_labels_only(column)
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
    ctx.all_labels_only("ku_alpha")
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
    "gamma": _gamma,
    "gamma_cat": _gamma_cat,
    "relation_f1_exact": _relation_f1("exact"),
    "relation_f1_overlap": _relation_f1("overlap"),
    "relation_alpha": _relation_alpha,
}

#: The measures added to the defaults when :func:`span_report` is given ``relations=``.
RELATION_MEASURES: tuple[str, ...] = ("relation_f1_exact", "relation_f1_overlap", "relation_alpha")

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
    v = validate(ctx.spans, *(ctx.cols[k] for k in ("document", "coder", "start", "end", "label")))
    ann = annotations_of(
        ctx.spans, v, ctx.annotation_cols["annotation"], ctx.annotation_cols["fragment"],
        ctx.fragments,
    )
    if ctx.label_key is None:
        n_spans = ann.n
    else:
        where = v.labels.get_indexer([ctx.label_key])[0]
        n_spans = int((ann.label == where).sum()) if where >= 0 else 0
    row: dict[str, Any] = {
        "n_coders": int(ctx.spans[ctx.cols["coder"]].nunique()) if coders is None else len(coders),
        "n_spans": n_spans,
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
    by_label: bool = False,
    texts: Mapping[Hashable, str] | None = None,
    tokens: pd.DataFrame | None = None,
    coders, coverage,
    measures: Sequence[str]
    | Mapping[str, Callable[[ReportContext], Mapping[str, Any]]]
    | None = None,
    relations: pd.DataFrame | None = None,
    fragments,
    on_overlap: Literal["raise", "merge"] = "raise",
    document, coder, start, end, label, annotation, fragment,
) -> pd.DataFrame:
    r"""One table of span agreement: alpha on units (MASI, nominal), :math:`\alpha_U`, F1, ...

    The pooled row uses every document; with ``by_document=True`` one row per document
    comes first. With ``by_label=True`` every row splits into one row per label and the
    all-labels row ``"(all)"`` (the index becomes document x label). Columns: ``n_coders``,
    ``n_spans`` (annotations: the fragments of a discontinuous annotation count once, as in
    :func:`span_f1`), ``n_units``, the columns of the ``measures``, and ``reason``, which
    says why a cell is NaN (too few coders in a document, no pairable unit, ...) and notes
    what was done to the data.

    The measures (:data:`MEASURES`; the first five are the default):

    * ``alpha_masi``, ``alpha_nominal``: Krippendorff's alpha on the units of
      :func:`spans_to_units`, whose values are label sets;
    * ``alpha_u``: :func:`unitizing_alpha` (2004), continuum: the text of each document
      when ``texts`` is given, else 0 to its last span end;
    * ``f1_exact``, ``f1_overlap``: the all-labels F1 of :func:`span_f1`, averaged over
      coder pairs;
    * ``u_alpha``, ``bar_u_alpha``, ``cu_alpha`` (with ``cu_coverage``), ``ku_alpha``
      (one column ``ku_alpha[<label>]`` per label): the u-alpha family of
      :func:`~pandas_agree.spans.u_alpha` (2016), overlapping spans of one coder and label
      merged, each document's length the length of its text (``texts``, else
      ``spans.attrs["texts"]``); a coder unitized the documents where it has spans unless
      ``coders`` or ``coverage`` say otherwise;
    * ``gamma`` (with ``gamma_se``, the standard error of its expected disorder) and
      ``gamma_cat``: Mathet et al.'s :math:`\gamma` and :math:`\gamma_{cat}` of
      :func:`~pandas_agree.spans.gamma`, expected disorder from 30 continua of the
      statistical sampler seeded with 0 (the same table every run); in a label's row,
      :math:`\gamma_k` of the label;
    * ``relation_f1_exact``, ``relation_f1_overlap``, ``relation_alpha``: see
      ``relations``.

    In a label's row (``by_label``): ``n_spans`` counts its annotations; ``alpha_masi`` and
    ``alpha_nominal`` are alpha on the same units with each value reduced to the label or
    the empty set (did the coder mark this label here?; the two are equal); ``alpha_u`` is
    :math:`\alpha_c` of the label; ``f1_exact`` and ``f1_overlap`` are the label's F1,
    averaged over the coder pairs in which one of the two marked it. The other measures are
    computed for the all-labels rows only.

    Overlapping spans of one coder and label have one default here and in
    :func:`unitizing_alpha`: ``on_overlap="raise"``, so ``alpha_u`` is NaN and ``reason``
    says which spans overlap; ``on_overlap="merge"`` joins them into one unit, and
    ``reason`` notes how many were merged. Units take the union of the labels covering them
    and F1 matches spans as they are, so they need no choice; the u-alpha family merges.

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame. Not modified.
    unit : {"token", "char"}, default "token"
        The units of the unit-level columns: tokens (which need ``tokens`` or ``texts``)
        or characters, as for :func:`spans_to_units`.
    by_document : bool, default False
        One row per document before the pooled row.
    by_label : bool, default False
        One row per label before each all-labels row.
    texts, tokens, coders, coverage
        As for :func:`spans_to_units` (``coverage``: who counts as having labelled nothing
        in the units, and which documents each pair of coders is compared on for F1).
        Without ``texts`` and ``tokens``, those a reader of :mod:`pandas_agree.io`
        recorded in ``spans.attrs`` are used, for the units and for the continuum of
        :math:`\alpha_U`.
    measures : list of names or mapping, optional
        Names from :data:`MEASURES` (default :data:`DEFAULT_MEASURES`, and
        :data:`RELATION_MEASURES` when ``relations`` is given), or a mapping name -> function
        of a :class:`ReportContext` returning a mapping of columns.
    relations : pandas.DataFrame, optional
        The relation frame of the same annotations (a reader's ``relations=True``), for the
        relation measures: ``relation_f1_exact``, ``relation_f1_overlap``
        (:func:`~pandas_agree.spans.relation_f1`, mean F1 over coder pairs) and
        ``relation_alpha`` (:func:`~pandas_agree.spans.relation_alpha`, with
        ``relation_pairs``, the span pairs it rests on).
    fragments : bool, default False
        Count each fragment of a discontinuous annotation as a span in ``n_spans`` and F1
        (see :func:`span_f1`).
    on_overlap : {"raise", "merge"}, default "raise"
        Overlapping spans of one coder and label in ``alpha_u``: a NaN with the reason, or
        merged into one unit (noted in ``reason``); see :func:`unitizing_alpha`.

    Returns
    -------
    pandas.DataFrame
        Indexed by document, with ``"(pooled)"`` last; with ``by_label``, by document and
        label, the ``"(all)"`` row last in each document.

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
    for name, flag in (("by_document", by_document), ("by_label", by_label),
                       ("fragments", fragments)):
        if not isinstance(flag, bool):
            raise InvalidParameterError(f"`{name}` must be True or False, got {flag!r}")
    if on_overlap not in ("raise", "merge"):
        raise InvalidParameterError(f"`on_overlap` must be 'raise' or 'merge', got {on_overlap!r}")
    if relations is not None and not isinstance(relations, pd.DataFrame):
        raise InvalidParameterError(
            f"`relations` must be a relation frame (a DataFrame), got {type(relations).__name__}"
        )
    if measures is None and relations is not None:
        measures = [*DEFAULT_MEASURES, *RELATION_MEASURES]
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
        rel = relations
        if rel is not None and part is not spans:
            rel = rel[rel[document].isin(pd.unique(part[document]))]
        return ReportContext(
            part, unit, sub_texts, sub_tokens, coders, sub_cov, sub_cont, lengths, cols, rel,
            fragments, on_overlap, None, {"annotation": annotation, "fragment": fragment},
        )

    def add(ctx: ReportContext, name: Hashable) -> None:
        if by_label:
            for lab in validate(ctx.spans, document, coder, start, end, label).labels:
                rows.append(_report_row(ctx.for_label(lab), chosen))
                index.append((name, lab))
        rows.append(_report_row(ctx, chosen))
        index.append((name, ALL_LABELS) if by_label else name)

    if by_document:
        for d in v.documents:
            part = spans[spans[document] == d]
            sub_texts = {d: texts[d]} if texts is not None and d in texts else None
            sub_tokens = None if tokens is None else tokens[tokens[document] == d]
            sub_cont = {d: continuum[d]} if continuum is not None and d in continuum else None
            sub_cov = None if cov is None else [p for p in cov if p[0] == d]
            add(context(part, sub_texts, sub_tokens, sub_cov, sub_cont), d)
    add(context(spans, texts, tokens, cov, continuum), "(pooled)")
    if by_label:
        names = ["document", label if isinstance(label, str) else "label"]
        idx = pd.MultiIndex.from_tuples(index, names=names)
    else:
        idx = pd.Index(index, name="document", dtype=object)
    table = pd.DataFrame(rows, index=idx)
    columns = ["n_coders", "n_spans", "n_units"]
    for row in rows:
        columns += [c for c in row if c not in columns and c != "reason"]
    return table[[*columns, "reason"]]
