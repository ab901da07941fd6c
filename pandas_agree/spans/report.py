"""The span report: :func:`span_report`, the table of ``pandas-agree spans``."""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..errors import DegenerateDataWarning, InvalidParameterError
from ._frame import validate
from .f1 import ALL_LABELS, annotations_of, span_f1
from .unitizing import unitizing_alpha
from .units import spans_to_units

__all__ = [
    "span_report",
]


# ---------------------------------------------------------------------------------------------
# one table: what the `pandas-agree spans` command prints

_REPORT_COLUMNS = (
    "n_coders",
    "n_spans",
    "n_units",
    "alpha_masi",
    "alpha_nominal",
    "alpha_u",
    "f1_exact",
    "f1_overlap",
    "reason",
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


def _report_rows(
    spans: pd.DataFrame,
    unit: str,
    texts: Mapping[Hashable, str] | None,
    tokens: pd.DataFrame | None,
    coders: Sequence[Hashable] | None,
    coverage: list[tuple[Hashable, Hashable]] | None,
    continuum: Mapping[Hashable, Any] | None,
    cols: dict[str, Hashable],
    fragments: bool,
    on_overlap: str,
    by_label: bool,
) -> list[tuple[Hashable, dict[str, Any]]]:
    """The all-labels row of ``spans`` (keyed :data:`ALL_LABELS`), after one row per label
    when ``by_label``; each figure is computed once for all rows."""
    from ..errors import AgreementError
    from ..krippendorff.alpha import alpha

    v = validate(spans, cols["document"], cols["coder"], cols["start"], cols["end"], cols["label"])
    labels = list(v.labels) if by_label else []
    keys: list[Hashable] = [*labels, ALL_LABELS]
    n_coders = int(spans[cols["coder"]].nunique()) if coders is None else len(coders)
    ann = annotations_of(spans, v, cols["annotation"], cols["fragment"], fragments)
    per_label = np.bincount(ann.label, minlength=len(v.labels))
    rows: dict[Hashable, dict[str, Any]] = {
        k: {"n_coders": n_coders, "n_spans": int(per_label[i]) if k != ALL_LABELS else ann.n}
        for i, k in enumerate(keys)
    }
    reasons: dict[Hashable, list[str]] = {k: [] for k in keys}

    def attempt(name: str, func: Any, where: Sequence[Hashable] = tuple(keys)) -> Any:
        """``func()``; an error or a degenerate-data warning becomes a reason of the rows
        ``where`` (an error is a NaN)."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DegenerateDataWarning)
            try:
                out = func()
            except AgreementError as exc:
                for k in where:
                    reasons[k].append(f"{name}: {str(exc).splitlines()[0]}")
                return float("nan")
        for w in caught:
            for k in where:
                reasons[k].append(f"{name}: {w.message}")
        return out

    span_cols = {k: cols[k] for k in ("document", "coder", "start", "end", "label")}
    units = attempt(
        "units",
        lambda: spans_to_units(
            spans, unit, texts=texts, tokens=tokens, coders=coders, coverage=coverage, **span_cols
        ),
    )
    for k in keys:
        row = rows[k]
        if not isinstance(units, pd.DataFrame):
            row["n_units"] = 0
            row["alpha_masi"] = row["alpha_nominal"] = float("nan")
            continue
        row["n_coders"] = int(units["coder"].nunique())
        row["n_units"] = int(units["unit"].nunique())
        data = units
        if k != ALL_LABELS:  # did each coder mark label k on each unit?
            data = units.assign(value=_label_sets(units["value"].to_numpy(dtype=object), k))
        for name in ("masi", "nominal"):
            row[f"alpha_{name}"] = attempt(
                f"alpha_{name}", lambda d=data, n=name: float(alpha(d, n)), where=[k]
            )
    res_u = attempt(
        "alpha_u",
        lambda: unitizing_alpha(
            spans, continuum, coders=coders, on_overlap=on_overlap, **span_cols
        ),
    )
    rows[ALL_LABELS]["alpha_u"] = float(res_u)
    per_category = getattr(res_u, "per_category", None)
    for k in labels:
        found = per_category is not None and k in per_category.index
        rows[k]["alpha_u"] = float(per_category.loc[k, "alpha"]) if found else float("nan")
        if per_category is not None and not found:
            reasons[k].append("alpha_u: no unit of this label")
    if getattr(res_u, "n_merged", 0):
        reasons[ALL_LABELS].append(
            f"alpha_u: {res_u.n_merged} span(s) overlapping a span of the same coder and label "
            "merged into it (on_overlap='merge')"
        )
    for match in ("exact", "overlap"):
        table = attempt(
            f"f1_{match}",
            lambda m=match: span_f1(
                spans,
                m,
                coders=coders,
                coverage=coverage if coders is None else None,
                fragments=fragments,
                **cols,
            ),
        )
        for k in keys:
            if not isinstance(table, pd.DataFrame):
                rows[k][f"f1_{match}"] = float("nan")
                continue
            # mean over the coder pairs where one of the two marked the label
            rows[k][f"f1_{match}"] = float(table.loc[table["label"] == k, "f1"].mean())
    for k in keys:
        rows[k]["reason"] = "; ".join(reasons[k]) if reasons[k] else None
    return [(k, rows[k]) for k in keys]


def span_report(
    spans: pd.DataFrame,
    unit: Literal["token", "char"] = "token",
    *,
    by_document: bool = False,
    by_label: bool = False,
    texts: Mapping[Hashable, str] | None = None,
    tokens: pd.DataFrame | None = None,
    coders: Sequence[Hashable] | None = None,
    coverage: Iterable[tuple[Hashable, Hashable]] | None = None,
    fragments: bool = False,
    on_overlap: Literal["raise", "merge"] = "raise",
    document: Hashable = "document",
    coder: Hashable = "coder",
    start: Hashable = "start",
    end: Hashable = "end",
    label: Hashable = "label",
    annotation: Hashable = "annotation",
    fragment: Hashable = "fragment",
) -> pd.DataFrame:
    r"""One table of span agreement: alpha on units (MASI, nominal), :math:`\alpha_U`, F1.

    The pooled row uses every document; with ``by_document=True`` one row per document
    comes first. With ``by_label=True`` every row splits into one row per label and the
    all-labels row ``"(all)"`` (the index becomes document x label): the same numbers for
    that label alone, as :func:`span_f1`'s label rows and :func:`unitizing_alpha`'s
    ``per_category`` give them. Columns: ``n_coders``, ``n_spans`` (annotations: the fragments of a
    discontinuous annotation count once, as in :func:`span_f1`), ``n_units``; ``alpha_masi`` and
    ``alpha_nominal`` (Krippendorff's alpha on the units of :func:`spans_to_units`, whose
    values are label sets); ``alpha_u`` (:func:`unitizing_alpha`, continuum: the text of
    each document when ``texts`` is given, else 0 to its last span end); ``f1_exact`` and
    ``f1_overlap`` (the all-labels F1 of :func:`span_f1`, averaged over coder pairs);
    ``reason`` says why a cell is NaN (too few coders in a document, no pairable unit, ...)
    and notes what was done to the data.

    In a label's row: ``n_spans`` counts its annotations; ``alpha_masi`` and
    ``alpha_nominal`` are alpha on the same units with each value reduced to the label or
    the empty set (did the coder mark this label here?; the two are equal); ``alpha_u`` is
    :math:`\alpha_c` of the label; ``f1_exact`` and ``f1_overlap`` are the label's F1,
    averaged over the coder pairs in which one of the two marked it.

    Overlapping spans of one coder and label have one default here and in
    :func:`unitizing_alpha`: ``on_overlap="raise"``, so ``alpha_u`` is NaN and ``reason``
    says which spans overlap; ``on_overlap="merge"`` joins them into one unit, and
    ``reason`` notes how many were merged. The other columns do not need the choice: units
    take the union of the labels covering them, and F1 matches spans as they are.

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame. Not modified.
    unit : {"token", "char"}, default "token"
    by_document : bool, default False
        One row per document before the pooled row.
    by_label : bool, default False
        One row per label before each all-labels row.
    texts, tokens, coders, coverage : see :func:`spans_to_units`
        (``coverage``: who counts as having labelled nothing in the units, and which
        documents each pair of coders is compared on for F1)
    fragments : bool, default False
        Count each fragment of a discontinuous annotation as a span in ``n_spans`` and F1
        (see :func:`span_f1`).
    on_overlap : {"raise", "merge"}, default "raise"
        Overlapping spans of one coder and label in ``alpha_u``: a NaN with the reason, or
        merged into one unit (noted in ``reason``); see :func:`unitizing_alpha`.
    document, coder, start, end, label, annotation, fragment : hashable
        Column names.

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

    Per label (the same numbers as ``span_f1``'s label rows):

    >>> two = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B", "B"],
    ...     "start": [0, 9, 0, 9], "end": [4, 13, 4, 13], "label": ["PER", "PER", "PER", "LOC"]})
    >>> table = pa.span_report(two, texts={"d1": "Bill met Jill Ann ."}, by_label=True)
    >>> table[["n_spans", "alpha_nominal", "f1_exact"]].round(3)  # doctest: +NORMALIZE_WHITESPACE
                    n_spans  alpha_nominal  f1_exact
    document label
    (pooled) LOC          1          0.000     0.000
             PER          3          0.571     0.667
             (all)        4          0.667     0.500
    """
    if not isinstance(by_document, bool):
        raise InvalidParameterError(f"`by_document` must be True or False, got {by_document!r}")
    if not isinstance(by_label, bool):
        raise InvalidParameterError(f"`by_label` must be True or False, got {by_label!r}")
    if on_overlap not in ("raise", "merge"):
        raise InvalidParameterError(f"`on_overlap` must be 'raise' or 'merge', got {on_overlap!r}")
    if not isinstance(fragments, bool):
        raise InvalidParameterError(f"`fragments` must be True or False, got {fragments!r}")
    v = validate(spans, document, coder, start, end, label)
    cols = {
        "document": document,
        "coder": coder,
        "start": start,
        "end": end,
        "label": label,
        "annotation": annotation,
        "fragment": fragment,
    }
    continuum = None
    if texts is not None and isinstance(texts, Mapping):
        continuum = {d: len(t) for d, t in texts.items() if isinstance(t, str) and len(t) > 0}
        continuum = {d: n for d, n in continuum.items() if d in set(v.documents)} or None
    cov = None if coverage is None else list(coverage)
    rows: list[dict[str, Any]] = []
    index: list[Any] = []

    def add(
        part: pd.DataFrame,
        sub_texts: Mapping[Hashable, str] | None,
        sub_tokens: pd.DataFrame | None,
        sub_cov: list[tuple[Hashable, Hashable]] | None,
        sub_cont: Mapping[Hashable, Any] | None,
        name: Hashable,
    ) -> None:
        for key, row in _report_rows(
            part, unit, sub_texts, sub_tokens, coders, sub_cov, sub_cont, cols, fragments,
            on_overlap, by_label,
        ):  # fmt: skip
            rows.append(row)
            index.append((name, key) if by_label else name)

    if by_document:
        for d in v.documents:
            part = spans[spans[document] == d]
            sub_texts = {d: texts[d]} if texts is not None and d in texts else None
            sub_tokens = None if tokens is None else tokens[tokens[document] == d]
            sub_cont = None if continuum is None else {d: continuum[d]}
            sub_cov = None if cov is None else [p for p in cov if p[0] == d]
            add(part, sub_texts, sub_tokens, sub_cov, sub_cont, d)
    add(spans, texts, tokens, cov, continuum, "(pooled)")
    if by_label:
        names = ["document", label if isinstance(label, str) else "label"]
        idx = pd.MultiIndex.from_tuples(index, names=names)
    else:
        idx = pd.Index(index, name="document", dtype=object)
    table = pd.DataFrame(rows, index=idx)
    return table[list(_REPORT_COLUMNS)]
