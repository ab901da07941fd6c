"""Pairwise span precision, recall and F1: :func:`span_f1` and :data:`ALL_LABELS`."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..declare import declared
from ..errors import InvalidParameterError, ValueTypeError
from ._frame import (
    Spans,
    compared_coders,
    coverage_pairs,
    coverage_seen,
    exact_pairs,
    greedy_pairs,
    overlap_candidates,
    validate,
)

__all__ = [
    "ALL_LABELS",
    "Annotations",
    "annotations_of",
    "span_f1",
    "unmatched_pairs",
]


#: The ``label`` of the all-labels (micro) rows of :func:`span_f1`.
ALL_LABELS = "(all)"

# ---------------------------------------------------------------------------------------------
# span F1


def _greedy(
    ia: np.ndarray,
    jb: np.ndarray,
    inter: np.ndarray,
    first_a: np.ndarray,
    first_b: np.ndarray,
    n_a: int,
    n_b: int,
) -> tuple[np.ndarray, np.ndarray]:
    """A one-to-one matching of the candidate pairs ``(ia, jb)``, taken greedily: larger
    ``inter`` first, then the earlier ``first_a``, then ``first_b``, then index order."""
    rank = np.empty(ia.size, dtype=np.intp)
    rank[np.lexsort((jb, ia, first_b[jb], first_a[ia], -inter))] = np.arange(ia.size)
    return greedy_pairs(ia, jb, rank, n_a, n_b)


@dataclass(frozen=True)
class Annotations:
    """The annotations of a span frame: the unit of F1 (one or several fragments each).

    ``of_row`` gives each row's annotation (numbered in order of first appearance); the
    other arrays have one entry per annotation: its document, coder and label codes, its
    first start, and an exact-match signature (``sig_start``, ``sig_end``: the offsets of a
    one-fragment annotation; for several fragments the first start and ``-1 - k``, ``k``
    numbering the distinct sets of fragments).
    """

    of_row: np.ndarray
    doc: np.ndarray
    coder: np.ndarray
    label: np.ndarray
    first: np.ndarray
    sig_start: np.ndarray
    sig_end: np.ndarray

    @property
    def n(self) -> int:
        """Number of annotations."""
        return int(self.doc.size)


def annotations_of(
    spans: pd.DataFrame,
    v: Spans,
    annotation: Hashable,
    fragment: Hashable,
    fragments: bool,
) -> Annotations:
    """Join the fragments of each annotation: rows of one document and coder that share an
    ``annotation`` id, when the frame has both the ``annotation`` and ``fragment`` columns
    (as :func:`pandas_agree.io.read_brat` gives them) and ``fragments`` is False. A row
    without an id, and every row otherwise, is an annotation of its own."""
    n = v.start.size
    joined = (
        not fragments
        and annotation in spans.columns
        and fragment in spans.columns
        and not isinstance(spans[annotation], pd.DataFrame)
    )
    if joined:
        ids = spans[annotation]
        missing = ids.isna().to_numpy()
        try:
            id_codes, _ = pd.factorize(ids)
        except TypeError:
            raise ValueTypeError(
                f"`annotation` column {annotation!r} of `spans` must hold hashable ids"
            ) from None
        id_codes = id_codes.astype(np.int64)
        id_codes[missing] = -1 - np.arange(int(missing.sum()), dtype=np.int64)  # each alone
        key = pd.MultiIndex.from_arrays([v.doc, v.coder, id_codes])
        of_row, _ = pd.factorize(key)
        of_row = of_row.astype(np.intp)
    else:
        of_row = np.arange(n, dtype=np.intp)
    n_ann = int(of_row.max()) + 1 if n else 0
    first_row = np.full(n_ann, n, dtype=np.intp)
    np.minimum.at(first_row, of_row, np.arange(n, dtype=np.intp))
    label = v.label[first_row] if n else v.label[:0]
    if joined and n:
        other = v.label != label[of_row]
        if other.any():
            k = np.flatnonzero(other)[0]
            raise InvalidParameterError(
                f"annotation {spans[annotation].iloc[k]!r} (document "
                f"{v.documents[v.doc[k]]!r}, coder {v.coders[v.coder[k]]!r}) has fragments "
                f"with different labels ({v.labels[label[of_row[k]]]!r} and "
                f"{v.labels[v.label[k]]!r}); the fragments of one annotation share its label "
                "(pass fragments=True to count each fragment as a span)"
            )
    first = np.full(n_ann, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first, of_row, v.start)
    size = np.bincount(of_row, minlength=n_ann)
    sig_start = first.copy()
    sig_end = np.zeros(n_ann, dtype=np.int64)
    single = size == 1
    sig_end[of_row[single[of_row]]] = v.end[single[of_row]]
    if not single.all():  # several fragments: number the distinct sets of (start, end)
        rows = np.flatnonzero(~single[of_row])
        order = rows[np.lexsort((v.end[rows], v.start[rows], of_row[rows]))]
        text = (
            pd.Series(v.start[order].astype(str), dtype=object)
            + " "
            + pd.Series(v.end[order].astype(str), dtype=object)
        )
        joined_text = text.groupby(of_row[order], sort=True).agg(";".join)
        codes, _ = pd.factorize(joined_text.to_numpy())
        sig_end[joined_text.index.to_numpy()] = -1 - codes.astype(np.int64)
    return Annotations(
        of_row=of_row,
        doc=v.doc[first_row] if n else v.doc[:0],
        coder=v.coder[first_row] if n else v.coder[:0],
        label=label,
        first=first,
        sig_start=sig_start,
        sig_end=sig_end,
    )


def _matched_annotations(
    ann: Annotations,
    in_a: np.ndarray,
    in_b: np.ndarray,
    key: np.ndarray,
    v: Spans,
    match: str,
) -> tuple[np.ndarray, np.ndarray]:
    """Indices into ``flatnonzero(in_a)`` and ``flatnonzero(in_b)`` of the annotations of
    coders a and b matched one to one (``in_a``, ``in_b``: masks over annotations; ``key``:
    per annotation)."""
    aa, bb = np.flatnonzero(in_a), np.flatnonzero(in_b)
    if match == "exact":
        return exact_pairs(
            {"k": key[aa], "s": ann.sig_start[aa], "e": ann.sig_end[aa]},
            {"k": key[bb], "s": ann.sig_start[bb], "e": ann.sig_end[bb]},
        )
    # overlap: candidate pairs of fragments, summed per pair of annotations
    ra = np.flatnonzero(in_a[ann.of_row])
    rb = np.flatnonzero(in_b[ann.of_row])
    row_key = key[ann.of_row]
    fa, fb, inter = overlap_candidates(
        row_key[ra], v.start[ra], v.end[ra], row_key[rb], v.start[rb], v.end[rb]
    )
    local_a = np.full(ann.n, -1, dtype=np.intp)
    local_b = np.full(ann.n, -1, dtype=np.intp)
    local_a[aa] = np.arange(aa.size)
    local_b[bb] = np.arange(bb.size)
    pa_ = local_a[ann.of_row[ra[fa]]]
    pb_ = local_b[ann.of_row[rb[fb]]]
    if pa_.size:
        pair = pa_.astype(np.int64) * max(bb.size, 1) + pb_
        uniq, inverse = np.unique(pair, return_inverse=True)
        inter = np.bincount(inverse, weights=inter).astype(np.int64)
        pa_ = (uniq // max(bb.size, 1)).astype(np.intp)
        pb_ = (uniq % max(bb.size, 1)).astype(np.intp)
    return _greedy(pa_, pb_, inter, ann.first[aa], ann.first[bb], aa.size, bb.size)


@dataclass(frozen=True)
class _Pairs:
    """The checked spans, their annotations, the coders compared and the pairs' matches.

    ``runs`` yields, for each pair of coders ``a < b``, ``(a, b, in_a, in_b, ia, jb)``: the
    masks of the annotations of ``a`` and of ``b`` in documents both saw, and the matched
    annotations as positions within those masks.
    """

    spans: Spans
    annotations: Annotations
    coders: pd.Index
    runs: Iterator[tuple[int, int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]


def _coder_pairs(
    spans: pd.DataFrame,
    match: str,
    coders: Sequence[Hashable] | None,
    coverage: Iterable[tuple[Hashable, Hashable]] | None,
    fragments: bool,
    document: Hashable,
    coder: Hashable,
    start: Hashable,
    end: Hashable,
    label: Hashable,
    annotation: Hashable,
    fragment: Hashable,
) -> _Pairs:
    """Check the span frame and match the annotations of every pair of coders (lazily)."""
    if match not in ("exact", "overlap"):
        raise InvalidParameterError(f"`match` must be 'exact' or 'overlap', got {match!r}")
    if not isinstance(fragments, bool):
        raise InvalidParameterError(f"`fragments` must be True or False, got {fragments!r}")
    v = validate(spans, document, coder, start, end, label)
    if any(x == ALL_LABELS for x in v.labels):
        raise InvalidParameterError(
            f"the label {ALL_LABELS!r} names the all-labels rows of span_f1; rename that label"
        )
    pairs = coverage_pairs(coverage, None)
    coder_index = compared_coders(coders, v.coders, pairs, "span F1")
    s_coder = coder_index.get_indexer(v.coders)[v.coder]
    seen = coverage_seen(pairs, v.documents, coder_index, v.doc, s_coder, "spans")
    n_labels = len(v.labels)
    ann = annotations_of(spans, v, annotation, fragment, fragments)
    key = ann.doc.astype(np.int64) * n_labels + ann.label
    a_coder = coder_index.get_indexer(v.coders)[ann.coder]

    def runs() -> Iterator[tuple[int, int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        for a in range(len(coder_index)):
            for b in range(a + 1, len(coder_index)):
                both = seen[:, a] & seen[:, b]  # documents both coders saw
                in_a = (a_coder == a) & both[ann.doc]
                in_b = (a_coder == b) & both[ann.doc]
                ia, jb = _matched_annotations(ann, in_a, in_b, key, v, match)
                yield a, b, in_a, in_b, ia, jb

    return _Pairs(v, ann, coder_index, runs())


@declared(frontends=("frame",))
def span_f1(
    spans: pd.DataFrame,
    match,
    *,
    coders, coverage, fragments,
    document, coder, start, end, label, annotation, fragment,
) -> pd.DataFrame:
    """Pairwise precision, recall and F1 of span annotations, per coder pair and label.

    The unit of F1 is the *annotation*. A discontinuous annotation (brat's
    ``T1 PER 0 5;10 15``) is one annotation of several fragments: the rows of one document
    and coder that share an ``annotation`` id, in a frame that has the ``annotation`` and
    ``fragment`` columns (as :func:`pandas_agree.io.read_brat` gives them). Every other row
    is an annotation of one fragment. ``fragments=True`` counts each fragment as a span
    instead.

    Two annotations *match* when they are in the same document, have the same label and
    either the same fragments (``match="exact"``: every (start, end) equal, whatever their
    order) or at least one character in common (``match="overlap"``: some fragment of one
    overlaps some fragment of the other). Matching is one to one. With exact matching,
    duplicated annotations pair copy by copy. With overlap matching, candidate pairs are
    taken greedily: more characters in common first, ties broken by the earlier start of
    ``coder_a``'s annotation, then of ``coder_b``'s, then by row order (a greedy matching,
    not always the largest one possible when one annotation overlaps several). This is
    bratiaa's exact instance-level F1 for brat projects, discontinuous annotations included.

    For coders ``a`` (the reference) and ``b``: precision = matched / annotations of b,
    recall = matched / annotations of a, F1 = 2 matched / (annotations of a + annotations of
    b). Counts are pooled over documents. The ``label == ALL_LABELS`` ("(all)") row of each
    pair pools every label (micro average). Swapping a and b swaps precision and recall; F1
    is symmetric.

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame. Not modified.
    match : {"exact", "overlap"}, default "exact"
        Two annotations match when they have the same fragments (``"exact"``) or at least
        one character in common (``"overlap"``), as described above.
    coders : sequence, optional
        Coders to compare, in order (pairs ``(a, b)`` with ``a`` listed first); default all
        coders of the spans, sorted.
    coverage : iterable of (document, coder) pairs, optional
        Who saw which document (the readers' ``frame.attrs["coverage"]``). With it, a pair
        of coders is compared on the documents both saw, as bratiaa does; without it, every
        coder is taken to have seen every document, so spans of a document one coder never
        saw count as misses.

    Returns
    -------
    pandas.DataFrame
        One row per coder pair and label (the "(all)" row first): ``coder_a``, ``coder_b``,
        ``label``, ``n_a``, ``n_b`` (annotations), ``matched``, ``precision``, ``recall``,
        ``f1``. Precision (recall) is NaN when b (a) has no annotation of the label.

    Examples
    --------
    Coders A and B mark the same two PER spans, but B's second one ends two characters
    later: one exact match out of two annotations each, and two overlap matches.

    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> spans = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B", "B"],
    ...     "start": [0, 9, 0, 9], "end": [4, 13, 4, 15], "label": ["PER", "PER", "PER", "PER"]})
    >>> pa.span_f1(spans)[["coder_a", "coder_b", "label", "matched", "f1"]]
      coder_a coder_b  label  matched   f1
    0       A       B  (all)        1  0.5
    1       A       B    PER        1  0.5
    >>> float(pa.span_f1(spans, "overlap")["f1"].iloc[0])
    1.0

    A discontinuous annotation (two fragments) against its first fragment alone: one
    annotation on each side, not the same, so no exact match:

    >>> brat = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B"], "start": [0, 10, 0],
    ...     "end": [5, 15, 5], "label": "PER", "annotation": "T1", "fragment": [0, 1, 0]})
    >>> pa.span_f1(brat)[["n_a", "n_b", "matched", "f1"]].iloc[:1]
       n_a  n_b  matched   f1
    0    1    1        0  0.0
    >>> pa.span_f1(brat, fragments=True)[["n_a", "n_b", "matched"]].iloc[0].tolist()
    [2, 1, 1]
    """
    pairs = _coder_pairs(
        spans, match, coders, coverage, fragments,
        document, coder, start, end, label, annotation, fragment,
    )  # fmt: skip
    n_labels = len(pairs.spans.labels)
    ann = pairs.annotations
    rows = []
    for a, b, in_a, in_b, ia, _ in pairs.runs:
        n_a = np.bincount(ann.label[in_a], minlength=n_labels)
        n_b = np.bincount(ann.label[in_b], minlength=n_labels)
        matched = np.bincount(ann.label[in_a][ia], minlength=n_labels)
        used = (n_a + n_b) > 0
        table = pd.DataFrame(
            {
                "coder_a": pairs.coders[a],
                "coder_b": pairs.coders[b],
                "label": np.concatenate(
                    [[ALL_LABELS], pairs.spans.labels.to_numpy(dtype=object)[used]]
                ),
                "n_a": np.concatenate([[n_a.sum()], n_a[used]]),
                "n_b": np.concatenate([[n_b.sum()], n_b[used]]),
                "matched": np.concatenate([[matched.sum()], matched[used]]),
            }
        )
        rows.append(table)
    out = pd.concat(rows, ignore_index=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = out["matched"].to_numpy(dtype=float)
        na = out["n_a"].to_numpy(dtype=float)
        nb = out["n_b"].to_numpy(dtype=float)
        out["precision"] = np.where(nb > 0, m / nb, np.nan)
        out["recall"] = np.where(na > 0, m / na, np.nan)
        out["f1"] = np.where(na + nb > 0, 2 * m / (na + nb), np.nan)
    return out.astype({"n_a": np.int64, "n_b": np.int64, "matched": np.int64})


@declared(frontends=(), register=False)
def unmatched_pairs(
    spans: pd.DataFrame,
    match,
    *,
    coders, coverage, fragments,
    document, coder, start, end, label, annotation, fragment,
) -> pd.DataFrame:
    """The annotations :func:`span_f1` leaves unmatched, per coder pair, paired where they
    overlap.

    For each pair of coders ``(a, b)`` compared by :func:`span_f1` (same ``coders``,
    ``coverage`` and ``fragments`` rules, same matching), the annotations of ``a`` and of
    ``b`` that found no match are paired with each other when their extents (first start to
    last end) overlap in the same document, whatever their labels (one to one, larger
    overlap first, as ``match="overlap"`` pairs annotations); the others stand alone. Per
    pair and label, the annotations of ``a`` listed are ``n_a - matched`` of
    :func:`span_f1` and those of ``b`` are ``n_b - matched``.

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame. Not modified.
    coders : sequence, optional
        Coders to compare, in order (pairs ``(a, b)`` with ``a`` listed first), as for
        :func:`span_f1`; default all coders of the spans, sorted.

    Returns
    -------
    pandas.DataFrame
        One row per pair of unmatched annotations or per unmatched annotation alone:
        ``coder_a``, ``coder_b``, ``document``, ``row_a``, ``row_b`` (position in ``spans``
        of each annotation's first row, -1 on an absent side), ``start_a``, ``end_a``,
        ``label_a``, ``start_b``, ``end_b``, ``label_b`` (the annotation's extent as
        nullable integers, missing on an absent side; labels None there).

    Examples
    --------
    >>> import pandas as pd
    >>> from pandas_agree.spans import unmatched_pairs
    >>> spans = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B", "B"],
    ...     "start": [0, 9, 0, 9], "end": [4, 13, 4, 15], "label": "PER"})
    >>> unmatched_pairs(spans)[["coder_a", "row_a", "row_b", "end_a", "end_b"]]
      coder_a  row_a  row_b  end_a  end_b
    0       A      1      3     13     15
    """
    pairs = _coder_pairs(
        spans, match, coders, coverage, fragments,
        document, coder, start, end, label, annotation, fragment,
    )  # fmt: skip
    v, ann = pairs.spans, pairs.annotations
    n_rows = v.start.size
    first_row = np.full(ann.n, n_rows, dtype=np.intp)
    np.minimum.at(first_row, ann.of_row, np.arange(n_rows, dtype=np.intp))
    last = np.zeros(ann.n, dtype=np.int64)
    np.maximum.at(last, ann.of_row, v.end.astype(np.int64))
    extent = (ann.first, last)
    parts: list[pd.DataFrame] = []
    for a, b, in_a, in_b, ia, jb in pairs.runs:
        aa, bb = np.flatnonzero(in_a), np.flatnonzero(in_b)
        left_a = np.ones(aa.size, dtype=bool)
        left_b = np.ones(bb.size, dtype=bool)
        left_a[ia] = False
        left_b[jb] = False
        ra, rb = aa[left_a], bb[left_b]
        doc_a, doc_b = ann.doc[ra].astype(np.int64), ann.doc[rb].astype(np.int64)
        ca, cb, inter = overlap_candidates(
            doc_a, ann.first[ra], last[ra], doc_b, ann.first[rb], last[rb]
        )
        pa_, pb_ = _greedy(ca, cb, inter, ann.first[ra], ann.first[rb], ra.size, rb.size)
        alone_a = np.ones(ra.size, dtype=bool)
        alone_b = np.ones(rb.size, dtype=bool)
        alone_a[pa_] = False
        alone_b[pb_] = False
        first = np.concatenate([ra[pa_], ra[alone_a], np.full(alone_b.sum(), -1)])
        second = np.concatenate([rb[pb_], np.full(alone_a.sum(), -1), rb[alone_b]])
        parts.append(
            _unmatched_frame(
                v, ann, first_row, extent, pairs.coders[a], pairs.coders[b], first, second
            )
        )
    if not parts:
        none = np.array([], np.intp)
        return _unmatched_frame(v, ann, first_row, extent, None, None, none, none)
    return pd.concat(parts, ignore_index=True)


def _unmatched_frame(
    v: Spans,
    ann: Annotations,
    first_row: np.ndarray,
    extent: tuple[np.ndarray, np.ndarray],
    coder_a: Any,
    coder_b: Any,
    first: np.ndarray,
    second: np.ndarray,
) -> pd.DataFrame:
    """Rows of :func:`unmatched_pairs` for the annotations ``first`` and ``second`` (-1:
    absent)."""
    doc = np.where(first >= 0, ann.doc[first], ann.doc[second]) if first.size else first
    labels = v.labels.to_numpy(dtype=object)

    def side(items: np.ndarray) -> dict[str, Any]:
        present = items >= 0
        at = np.where(present, items, 0)
        return {
            "row": np.where(present, first_row[at] if at.size else at, -1).astype(np.int64),
            "start": pd.arrays.IntegerArray(extent[0][at].astype(np.int64), ~present),
            "end": pd.arrays.IntegerArray(extent[1][at].astype(np.int64), ~present),
            "label": pd.Series(
                np.where(present, labels[ann.label[at]] if at.size else at, None), dtype=object
            ),
        }

    sa, sb = side(first), side(second)
    return pd.DataFrame(
        {
            "coder_a": pd.Series(np.full(first.size, coder_a, dtype=object), dtype=object),
            "coder_b": pd.Series(np.full(first.size, coder_b, dtype=object), dtype=object),
            "document": pd.Series(
                v.documents.to_numpy(dtype=object)[doc] if first.size else doc, dtype=object
            ),
            "row_a": sa["row"],
            "row_b": sb["row"],
            "start_a": sa["start"],
            "end_a": sa["end"],
            "label_a": sa["label"],
            "start_b": sb["start"],
            "end_b": sb["end"],
            "label_b": sb["label"],
        }
    )
