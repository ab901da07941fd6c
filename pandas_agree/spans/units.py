"""Spans to units (one label set per unit and coder): :func:`spans_to_units`, whitespace tokens."""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..data.prepare import check_columns
from ..declare import declared
from ..errors import DegenerateDataWarning, InvalidParameterError, ValueTypeError, user_stacklevel
from ._attrs import texts_or_tokens
from ._frame import Spans, check_frame, coverage_pairs, offsets, subset, validate, which

__all__ = [
    "spans_to_units",
    "whitespace_tokens",
]


# Python's str.isspace() characters: the separators of whitespace tokenization.
_WHITESPACE = np.array(
    [
        *range(9, 14),
        *range(28, 33),
        *(133, 160, 5760),
        *range(8192, 8203),
        *(8232, 8233, 8239, 8287, 12288),
    ],
    dtype=np.uint32,
)


# ---------------------------------------------------------------------------------------------
# tokens


def whitespace_tokens(texts: Mapping[Hashable, str]) -> pd.DataFrame:
    """Whitespace tokens of each document: one row per token, ``document, start, end``.

    A token is a maximal run of characters that are not whitespace (``str.isspace``);
    offsets are character positions, ``end`` exclusive, as in span frames.

    Parameters
    ----------
    texts : mapping
        Document name -> its text.

    Returns
    -------
    pandas.DataFrame
        Columns ``document``, ``start``, ``end``, in document then text order.

    Examples
    --------
    >>> from pandas_agree.spans import whitespace_tokens
    >>> whitespace_tokens({"d1": "Bill  met\\tJill."})
      document  start  end
    0       d1      0    4
    1       d1      6    9
    2       d1     10   15
    """
    if not isinstance(texts, Mapping):
        raise ValueTypeError(
            f"`texts` must be a mapping of document -> text, got {type(texts).__name__}"
        )
    docs: list[Any] = []
    starts: list[np.ndarray] = []
    ends: list[np.ndarray] = []
    for doc, text in texts.items():
        if not isinstance(text, str):
            raise ValueTypeError(
                f"`texts` must map each document to a str; {doc!r} maps to {type(text).__name__}"
            )
        chars = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
        word = np.concatenate([[False], ~np.isin(chars, _WHITESPACE), [False]])
        edges = np.flatnonzero(np.diff(word.astype(np.int8)))
        starts.append(edges[0::2])
        ends.append(edges[1::2])
        docs.append(np.full(edges.size // 2, len(docs)))
    keys = list(texts.keys())
    codes = np.concatenate(docs) if docs else np.array([], dtype=int)
    return pd.DataFrame(
        {
            "document": pd.Index(keys, dtype=object)[codes] if keys else pd.Index([], dtype=object),
            "start": np.concatenate(starts) if starts else np.array([], dtype=np.int64),
            "end": np.concatenate(ends) if ends else np.array([], dtype=np.int64),
        }
    ).astype({"start": np.int64, "end": np.int64})


def _unit_grid(
    v: Spans,
    unit: str,
    tokens: pd.DataFrame | None,
    texts: Mapping[Hashable, str] | None,
    documents: Sequence[Hashable] | None,
    document: Hashable,
    start: Hashable,
    end: Hashable,
    covered: pd.Index,
) -> tuple[pd.Index, np.ndarray, np.ndarray, np.ndarray]:
    """The documents, and every unit's document code, start and end (sorted).

    ``covered`` documents (from ``coverage``) join the documents; without a text, tokens or
    spans they have no units.
    """
    if unit not in ("token", "char"):
        raise InvalidParameterError(f"`unit` must be 'token' or 'char', got {unit!r}")
    if tokens is not None and texts is not None:
        raise InvalidParameterError("pass `tokens` or `texts`, not both")
    if tokens is not None and unit == "char":
        raise InvalidParameterError("`tokens` are for unit='token'; unit='char' takes `texts`")
    if texts is not None and not isinstance(texts, Mapping):
        raise ValueTypeError(
            f"`texts` must be a mapping of document -> text, got {type(texts).__name__}"
        )
    if unit == "token":
        if tokens is None and texts is None:
            raise InvalidParameterError(
                "unit='token' needs the tokens: pass texts={document: text} (whitespace "
                "tokens), tokens=<frame of document, start, end>, or unit='char'"
            )
        if tokens is None:
            tokens = whitespace_tokens(texts)  # type: ignore[arg-type]
            tcols = ("document", "start", "end")
        else:
            check_frame(tokens, "tokens")
            check_columns(tokens, document=document, start=start, end=end)
            tcols = (document, start, end)
        t_doc_raw = tokens[tcols[0]]
        t_start = offsets(tokens, tcols[1], "start", "tokens")
        t_end = offsets(tokens, tcols[2], "end", "tokens")
        if (t_end <= t_start).any():
            raise InvalidParameterError(
                f"every token must end after it starts; {which(t_end <= t_start, tokens.index)} "
                "do not"
            )
    if texts is not None:
        known = pd.Index(list(texts.keys()))
    elif tokens is not None:
        known = pd.Index(pd.unique(t_doc_raw))
    else:
        known = v.documents
    found = known.union(v.documents, sort=False).union(covered, sort=False)
    if documents is not None:
        found = v.documents
    docs = subset(documents, found, "documents")
    missing = v.documents.difference(known, sort=False)
    if len(missing):
        source = "`tokens`" if tokens is not None and texts is None else "`texts`"
        raise InvalidParameterError(
            f"{source} has no entry for the annotated document(s) {list(missing)[:5]!r}"
        )
    span_extent = np.zeros(len(v.documents), dtype=np.int64)
    np.maximum.at(span_extent, v.doc, v.end)
    if unit == "char":
        lengths = np.zeros(len(docs), dtype=np.int64)
        if texts is not None:
            for k, d in enumerate(docs):
                if d in texts:
                    lengths[k] = len(texts[d])
                elif d not in covered:
                    raise InvalidParameterError(f"`texts` has no entry for document {d!r}")
            too_long = span_extent > lengths[docs.get_indexer(v.documents)]
            if too_long.any():
                raise InvalidParameterError(
                    f"spans end after the text of document(s) {list(v.documents[too_long])[:5]!r}"
                )
        else:
            lengths[docs.get_indexer(v.documents)] = span_extent
        u_doc = np.repeat(np.arange(len(docs)), lengths)
        first = np.repeat(np.cumsum(lengths) - lengths, lengths)
        u_start = np.arange(u_doc.size, dtype=np.int64) - first
        return docs, u_doc, u_start, u_start + 1
    t_doc = docs.get_indexer(t_doc_raw)
    keep = t_doc >= 0  # tokens of documents outside `documents=` are not units
    t_doc, t_start, t_end = t_doc[keep], t_start[keep], t_end[keep]
    order = np.lexsort((t_start, t_doc))
    t_doc, t_start, t_end = t_doc[order], t_start[order], t_end[order]
    same = t_doc[1:] == t_doc[:-1]
    if (same & (t_start[1:] < t_end[:-1])).any():
        raise InvalidParameterError("tokens of one document overlap; tokens must not overlap")
    return docs, t_doc, t_start, t_end


def _covered(
    u_doc: np.ndarray,
    u_start: np.ndarray,
    u_end: np.ndarray,
    s_doc: np.ndarray,
    s_start: np.ndarray,
    s_end: np.ndarray,
    n_docs: int,
) -> tuple[np.ndarray, np.ndarray]:
    """For each span, the units it shares a character with: (span index, unit index) pairs."""
    extent = np.zeros(n_docs, dtype=np.int64)
    if u_end.size:
        np.maximum.at(extent, u_doc, u_end)
    if s_end.size:
        np.maximum.at(extent, s_doc, s_end)
    offset = np.concatenate([[0], np.cumsum(extent + 1)[:-1]])
    g_start = u_start + offset[u_doc]
    g_end = u_end + offset[u_doc]
    first = np.searchsorted(g_end, s_start + offset[s_doc], side="right")
    stop = np.searchsorted(g_start, s_end + offset[s_doc], side="left")
    count = np.maximum(stop - first, 0)
    span_idx = np.repeat(np.arange(s_start.size), count)
    within = np.arange(span_idx.size) - np.repeat(np.cumsum(count) - count, count)
    return span_idx, first[span_idx] + within


def _label_sets(cell: np.ndarray, lab: np.ndarray, n_cells: int, labels: pd.Index) -> np.ndarray:
    """An object array of ``n_cells`` frozensets: the labels ``lab`` listed for each ``cell``."""
    out = np.empty(n_cells, dtype=object)
    if len(labels) <= 62:
        mask = np.zeros(n_cells, dtype=np.int64)
        np.bitwise_or.at(mask, cell, np.left_shift(np.int64(1), lab.astype(np.int64)))
        inverse, distinct = pd.factorize(mask)
        bits = (np.asarray(distinct)[:, None] >> np.arange(len(labels), dtype=np.int64)) & 1
        sets = np.empty(len(distinct), dtype=object)
        sets[:] = [frozenset(labels[np.flatnonzero(row)]) for row in bits]
        return sets[inverse]
    empty = frozenset()
    out[:] = [empty] * n_cells
    if cell.size:
        grouped = pd.Series(labels[lab], dtype=object).groupby(cell).agg(frozenset)
        out[grouped.index.to_numpy()] = grouped.to_numpy()
    return out


# ---------------------------------------------------------------------------------------------
# spans -> units


def _coverage(
    pairs: list[tuple[Any, Any]] | None, docs: pd.Index, coder_index: pd.Index
) -> tuple[np.ndarray, np.ndarray, pd.Index]:
    """Codes of the (document, coder) pairs of ``coverage``; coders it adds join the index."""
    empty = np.array([], dtype=np.intp)
    if not pairs:
        return empty, empty, coder_index
    p_docs = pd.Index([p[0] for p in pairs], dtype=object)
    p_coders = pd.Index([p[1] for p in pairs], dtype=object)
    coder_index = coder_index.union(p_coders.unique(), sort=False)
    doc_codes = docs.get_indexer(p_docs)
    if (doc_codes < 0).any():
        raise InvalidParameterError(
            f"`coverage` names the document {p_docs[doc_codes < 0][0]!r}, which is not in "
            "`documents`"
        )
    return doc_codes.astype(np.intp), coder_index.get_indexer(p_coders).astype(np.intp), coder_index


@declared(frontends=("frame",))
def spans_to_units(
    spans: pd.DataFrame,
    unit: Literal["token", "char"] = "token",
    *,
    tokens: pd.DataFrame | None = None,
    texts: Mapping[Hashable, str] | None = None,
    coders,
    documents: Sequence[Hashable] | None = None,
    coverage,
    document, coder, start, end, label,
) -> pd.DataFrame:
    """Long reliability data from spans: each token (or character) gets the set of its labels.

    A unit is *covered* by a span when they share at least one character. Its value for a
    coder is the frozenset of the labels of that coder's spans covering it, and the empty
    frozenset where the coder annotated nothing there, so agreeing on "no label" counts.

    Who annotated what: without ``coders``, a coder annotated a document when the coder has
    at least one span in it, and only those coders get rows (empty sets included) for the
    document's units; a coder with no span in a document is *missing* there, not empty.
    With ``coders=[...]``, every listed coder is taken to have annotated every document
    (empty sets wherever they have no span). ``coverage=[(document, coder), ...]`` says
    who annotated what, including documents where a coder marked nothing (the readers of
    :mod:`pandas_agree.io` record this as ``frame.attrs["coverage"]``); those pairs get
    rows too. Documents are those of ``texts``/``tokens``
    in their order (without them, the documents of the spans, sorted), or the
    ``documents=`` list.

    Parameters
    ----------
    spans : pandas.DataFrame
        One row per span: document, coder, start, end (character offsets, end exclusive),
        label. Not modified.
    unit : {"token", "char"}, default "token"
        Tokens need ``tokens`` or ``texts``. Characters run from 0 to the length of the
        document's text (``texts``) or, without it, to the last span end in the document.
    tokens : pandas.DataFrame, optional
        The units: one row per token with the ``document``, ``start``, ``end`` columns (the
        tokens of a CoNLL or TSV file, or your own). Tokens must not overlap.
    texts : mapping, optional
        Document -> text; tokens are then its whitespace tokens (:func:`whitespace_tokens`).
        When neither ``texts`` nor ``tokens`` is given, those a reader of
        :mod:`pandas_agree.io` recorded are used: ``spans.attrs["texts"]``, or for
        CoNLL-2012 (token-index offsets) one token per index up to
        ``spans.attrs["n_tokens"]`` (``unit="token"``).
    coders : sequence, optional
        Coders who annotated every document (see above); must include every span's coder.
    documents : sequence, optional
        The documents, in order; must include every span's document.
    coverage : iterable of (document, coder) pairs, optional
        Pairs that annotated, in addition to those with spans (not with ``coders``).

    Returns
    -------
    pandas.DataFrame
        Columns ``unit`` (integer id, unique across documents, in document then text
        order), ``document``, ``start``, ``end`` (the unit's characters), ``coder`` and
        ``value`` (frozenset of labels). Ready for ``.agree.alpha(distance="masi")``, and
        for nominal alpha when each coder's spans do not overlap.

    Warns
    -----
    DegenerateDataWarning
        When some spans cover no unit (they lie in whitespace between tokens).

    See Also
    --------
    span_kappa : token-level Cohen's or Fleiss' kappa from these units.

    Examples
    --------
    Two coders mark the named entities of one sentence:

    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> spans = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B"],
    ...     "start": [0, 9, 0], "end": [4, 13, 4], "label": ["PER", "PER", "PER"]})
    >>> units = pa.spans_to_units(spans, texts={"d1": "Bill met Jill ."})
    >>> units[["unit", "coder", "value"]].assign(value=units["value"].map(sorted))
       unit coder  value
    0     0     A  [PER]
    1     0     B  [PER]
    2     1     A     []
    3     1     B     []
    4     2     A  [PER]
    5     2     B     []
    6     3     A     []
    7     3     B     []
    >>> round(units.agree.alpha("masi").alpha, 3)
    0.533
    """
    v = validate(spans, document, coder, start, end, label)
    texts, tokens = texts_or_tokens(spans, texts, tokens, unit, document, start, end)
    pairs = coverage_pairs(coverage, coders)
    covered = pd.Index(pd.unique(pd.Series([p[0] for p in pairs or []], dtype=object)))
    docs, u_doc, u_start, u_end = _unit_grid(
        v, unit, tokens, texts, documents, document, start, end, covered
    )
    s_doc = docs.get_indexer(v.documents)[v.doc]
    coder_index = subset(coders, v.coders, "coders")
    cov_doc, cov_coder, coder_index = _coverage(pairs, docs, coder_index)
    s_coder = coder_index.get_indexer(v.coders)[v.coder]
    n_docs, n_coders = len(docs), len(coder_index)

    span_idx, unit_idx = _covered(u_doc, u_start, u_end, s_doc, v.start, v.end, n_docs)
    uncovered = np.bincount(span_idx, minlength=v.start.size) == 0
    if uncovered.any():
        warnings.warn(
            f"{int(uncovered.sum())} span(s) cover no {unit} (they lie between tokens), "
            f"e.g. row {spans.index[np.flatnonzero(uncovered)[0]]!r}: they add no label",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(),
        )

    # The (document, coder) pairs that get rows.
    if coders is None:
        annotated = np.unique(
            np.concatenate([s_doc * n_coders + s_coder, cov_doc * n_coders + cov_coder])
        )
    else:
        annotated = np.arange(n_docs * n_coders)
    pair_doc, pair_coder = np.divmod(annotated, n_coders)  # sorted by document, coder
    units_per_doc = np.bincount(u_doc, minlength=n_docs)
    doc_first = np.cumsum(units_per_doc) - units_per_doc
    k = np.bincount(pair_doc, minlength=n_docs)  # coders per document
    pair_first = np.cumsum(k) - k
    # Cells in (unit, coder) order: each document's units times its coders, unit-major.
    sizes = units_per_doc * k
    cell_doc = np.repeat(np.arange(n_docs), sizes)
    j = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    k_cell = k[cell_doc]
    cell_unit = doc_first[cell_doc] + j // np.maximum(k_cell, 1)
    cell_coder = pair_coder[pair_first[cell_doc] + j % np.maximum(k_cell, 1)]
    cell_key = cell_unit.astype(np.int64) * n_coders + cell_coder
    span_key = unit_idx.astype(np.int64) * n_coders + s_coder[span_idx]
    cell_of_span = np.searchsorted(cell_key, span_key)
    values = _label_sets(cell_of_span, v.label[span_idx], cell_key.size, v.labels)

    return pd.DataFrame(
        {
            "unit": cell_unit,
            "document": docs[u_doc[cell_unit]],
            "start": u_start[cell_unit],
            "end": u_end[cell_unit],
            "coder": coder_index[cell_coder],
            "value": values,
        }
    )
