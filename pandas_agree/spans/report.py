"""The span report: :func:`span_report`, the table of ``pandas-agree spans``."""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, Literal

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


def _count_annotations(spans: pd.DataFrame, cols: dict[str, Hashable], fragments: bool) -> int:
    """Annotations in ``spans`` (fragments of one annotation joined, as span_f1 counts)."""
    if len(spans) == 0:
        return 0
    v = validate(spans, cols["document"], cols["coder"], cols["start"], cols["end"], cols["label"])
    return annotations_of(spans, v, cols["annotation"], cols["fragment"], fragments).n


def _report_row(
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
) -> dict[str, Any]:
    from ..errors import AgreementError
    from ..krippendorff.alpha import alpha

    row: dict[str, Any] = {
        "n_coders": int(spans[cols["coder"]].nunique()) if coders is None else len(coders),
        "n_spans": _count_annotations(spans, cols, fragments),
    }
    reasons: list[str] = []

    def attempt(name: str, func: Any) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DegenerateDataWarning)
            try:
                out = func()
            except AgreementError as exc:
                reasons.append(f"{name}: {str(exc).splitlines()[0]}")
                return float("nan")
        for w in caught:
            reasons.append(f"{name}: {w.message}")
        return out

    span_cols = {k: cols[k] for k in ("document", "coder", "start", "end", "label")}
    units = attempt(
        "units",
        lambda: spans_to_units(
            spans, unit, texts=texts, tokens=tokens, coders=coders, coverage=coverage, **span_cols
        ),
    )
    if isinstance(units, pd.DataFrame):
        row["n_coders"] = int(units["coder"].nunique())
        row["n_units"] = int(units["unit"].nunique())
        row["alpha_masi"] = attempt("alpha_masi", lambda: float(alpha(units, "masi")))
        row["alpha_nominal"] = attempt("alpha_nominal", lambda: float(alpha(units, "nominal")))
    else:
        row["n_units"] = 0
        row["alpha_masi"] = row["alpha_nominal"] = float("nan")
    res_u = attempt(
        "alpha_u",
        lambda: unitizing_alpha(
            spans, continuum, coders=coders, on_overlap=on_overlap, **span_cols
        ),
    )
    row["alpha_u"] = float(res_u)
    if getattr(res_u, "n_merged", 0):
        reasons.append(
            f"alpha_u: {res_u.n_merged} span(s) overlapping a span of the same coder and label "
            "merged into it (on_overlap='merge')"
        )
    for match in ("exact", "overlap"):

        def f1(match: str = match) -> float:
            table = span_f1(
                spans,
                match,  # type: ignore[arg-type]
                coders=coders,
                coverage=coverage if coders is None else None,
                fragments=fragments,
                **cols,
            )
            return float(table.loc[table["label"] == ALL_LABELS, "f1"].mean())

        row[f"f1_{match}"] = attempt(f"f1_{match}", f1)
    row["reason"] = "; ".join(reasons) if reasons else None
    return row


def span_report(
    spans: pd.DataFrame,
    unit: Literal["token", "char"] = "token",
    *,
    by_document: bool = False,
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
    comes first. Columns: ``n_coders``, ``n_spans`` (annotations: the fragments of a
    discontinuous annotation count once, as in :func:`span_f1`), ``n_units``; ``alpha_masi`` and
    ``alpha_nominal`` (Krippendorff's alpha on the units of :func:`spans_to_units`, whose
    values are label sets); ``alpha_u`` (:func:`unitizing_alpha`, continuum: the text of
    each document when ``texts`` is given, else 0 to its last span end); ``f1_exact`` and
    ``f1_overlap`` (the all-labels F1 of :func:`span_f1`, averaged over coder pairs);
    ``reason`` says why a cell is NaN (too few coders in a document, no pairable unit, ...)
    and notes what was done to the data.

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
    """
    if not isinstance(by_document, bool):
        raise InvalidParameterError(f"`by_document` must be True or False, got {by_document!r}")
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
    rows = []
    index = []
    if by_document:
        for d in v.documents:
            part = spans[spans[document] == d]
            sub_texts = {d: texts[d]} if texts is not None and d in texts else None
            sub_tokens = None if tokens is None else tokens[tokens[document] == d]
            sub_cont = None if continuum is None else {d: continuum[d]}
            sub_cov = None if cov is None else [p for p in cov if p[0] == d]
            rows.append(
                _report_row(
                    part,
                    unit,
                    sub_texts,
                    sub_tokens,
                    coders,
                    sub_cov,
                    sub_cont,
                    cols,
                    fragments,
                    on_overlap,
                )
            )
            index.append(d)
    rows.append(
        _report_row(spans, unit, texts, tokens, coders, cov, continuum, cols, fragments, on_overlap)
    )
    index.append("(pooled)")
    table = pd.DataFrame(rows, index=pd.Index(index, name="document", dtype=object))
    return table[list(_REPORT_COLUMNS)]
