"""Pairwise span precision, recall and F1: :func:`span_f1` and :data:`ALL_LABELS`."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..declare import declared
from ..errors import InvalidParameterError
from ._frame import Spans, coverage_pairs, subset, validate

__all__ = [
    "ALL_LABELS",
    "span_f1",
    "unmatched_pairs",
]


#: The ``label`` of the all-labels (micro) rows of :func:`span_f1`.
ALL_LABELS = "(all)"

# ---------------------------------------------------------------------------------------------
# span F1


def _pair_matches(
    key_a: np.ndarray,
    sa: np.ndarray,
    ea: np.ndarray,
    key_b: np.ndarray,
    sb: np.ndarray,
    eb: np.ndarray,
    match: str,
) -> tuple[np.ndarray, np.ndarray]:
    """One-to-one matched span pairs (indices into a and b) within equal ``key``s."""
    if key_a.size == 0 or key_b.size == 0:
        return np.array([], dtype=np.intp), np.array([], dtype=np.intp)
    if match == "exact":
        fa = pd.DataFrame({"k": key_a, "s": sa, "e": ea, "i": np.arange(key_a.size)})
        fb = pd.DataFrame({"k": key_b, "s": sb, "e": eb, "j": np.arange(key_b.size)})
        # the n-th copy of a span pairs with the n-th copy in the other coder's spans
        fa["n"] = fa.groupby(["k", "s", "e"]).cumcount()
        fb["n"] = fb.groupby(["k", "s", "e"]).cumcount()
        m = fa.merge(fb, on=["k", "s", "e", "n"])
        return m["i"].to_numpy(np.intp), m["j"].to_numpy(np.intp)
    # overlap: candidate pairs sharing a character, then greedy one-to-one matching
    span = int(max(ea.max(), eb.max())) + 2
    gb = key_b.astype(np.int64) * span
    order_b = np.lexsort((sb, key_b))
    g_sb = (gb + sb)[order_b]
    longest = int((eb - sb).max())
    lo = np.searchsorted(g_sb, key_a.astype(np.int64) * span + np.maximum(sa - longest, 0))
    hi = np.searchsorted(g_sb, key_a.astype(np.int64) * span + ea, side="left")
    count = np.maximum(hi - lo, 0)
    ia = np.repeat(np.arange(key_a.size), count)
    jb = order_b[
        np.repeat(lo, count) + np.arange(ia.size) - np.repeat(np.cumsum(count) - count, count)
    ]
    inter = np.minimum(ea[ia], eb[jb]) - np.maximum(sa[ia], sb[jb])
    keep = (inter > 0) & (key_a[ia] == key_b[jb])
    ia, jb, inter = ia[keep], jb[keep], inter[keep]
    # rank: larger overlap first, then earlier start in a, then earlier start in b (then index)
    rank = np.empty(ia.size, dtype=np.intp)
    rank[np.lexsort((jb, ia, sb[jb], sa[ia], -inter))] = np.arange(ia.size)
    matched_a: list[np.ndarray] = []
    matched_b: list[np.ndarray] = []
    alive = np.ones(ia.size, dtype=bool)
    # Locally dominant edges (best for both ends) are taken together each round: the same
    # matching as taking pairs one by one in rank order.
    while alive.any():
        idx = np.flatnonzero(alive)
        best_a = np.full(key_a.size, np.iinfo(np.intp).max)
        best_b = np.full(key_b.size, np.iinfo(np.intp).max)
        np.minimum.at(best_a, ia[idx], rank[idx])
        np.minimum.at(best_b, jb[idx], rank[idx])
        take = idx[(best_a[ia[idx]] == rank[idx]) & (best_b[jb[idx]] == rank[idx])]
        matched_a.append(ia[take])
        matched_b.append(jb[take])
        used_a = np.zeros(key_a.size, dtype=bool)
        used_b = np.zeros(key_b.size, dtype=bool)
        used_a[ia[take]] = True
        used_b[jb[take]] = True
        alive &= ~(used_a[ia] | used_b[jb])
    if not matched_a:
        return np.array([], dtype=np.intp), np.array([], dtype=np.intp)
    return np.concatenate(matched_a), np.concatenate(matched_b)


def _coder_pairs(
    spans: pd.DataFrame,
    match: str,
    coders: Sequence[Hashable] | None,
    coverage: Iterable[tuple[Hashable, Hashable]] | None,
    document: Hashable,
    coder: Hashable,
    start: Hashable,
    end: Hashable,
    label: Hashable,
) -> tuple[Spans, pd.Index, Iterator[tuple[int, int, Any, Any, Any, Any]]]:
    """The checked spans, the coders compared, and the pairs of coders with their matches.

    The pairs are yielded lazily, one per pair of coders ``a < b``: ``(a, b, in_a, in_b,
    ia, jb)`` with the masks of the spans of ``a`` and of ``b`` in documents both saw and
    the matched pairs as positions within those masked spans.
    """
    if match not in ("exact", "overlap"):
        raise InvalidParameterError(f"`match` must be 'exact' or 'overlap', got {match!r}")
    v = validate(spans, document, coder, start, end, label)
    if any(x == ALL_LABELS for x in v.labels):
        raise InvalidParameterError(
            f"the label {ALL_LABELS!r} names the all-labels rows of span_f1; rename that label"
        )
    coder_index = subset(coders, v.coders, "coders")
    pairs = coverage_pairs(coverage, None)
    if pairs is not None and coders is None:
        extra = pd.Index(pd.unique(pd.Series([p[1] for p in pairs], dtype=object)))
        coder_index = coder_index.union(extra, sort=False)
    if len(coder_index) < 2:
        raise InvalidParameterError(
            f"span F1 needs at least two coders, got {len(coder_index)}: {list(coder_index)!r}"
        )
    s_coder = coder_index.get_indexer(v.coders)[v.coder]
    seen = np.ones((len(v.documents), len(coder_index)), dtype=bool)
    if pairs is not None:
        seen[:] = False
        d_code = v.documents.get_indexer(pd.Index([p[0] for p in pairs], dtype=object))
        c_code = coder_index.get_indexer(pd.Index([p[1] for p in pairs], dtype=object))
        ok = (d_code >= 0) & (c_code >= 0)
        seen[d_code[ok], c_code[ok]] = True
        unseen = ~seen[v.doc, s_coder]
        if unseen.any():
            k = np.flatnonzero(unseen)[0]
            raise InvalidParameterError(
                f"`coverage` leaves out ({v.documents[v.doc[k]]!r}, {coder_index[s_coder[k]]!r}),"
                " which has spans"
            )
    key = v.doc.astype(np.int64) * len(v.labels) + v.label

    def runs() -> Iterator[tuple[int, int, Any, Any, Any, Any]]:
        for a in range(len(coder_index)):
            for b in range(a + 1, len(coder_index)):
                both = seen[:, a] & seen[:, b]  # documents both coders saw
                in_a = (s_coder == a) & both[v.doc]
                in_b = (s_coder == b) & both[v.doc]
                ia, jb = _pair_matches(
                    key[in_a], v.start[in_a], v.end[in_a], key[in_b], v.start[in_b],
                    v.end[in_b], match,
                )
                yield a, b, in_a, in_b, ia, jb

    return v, coder_index, runs()


@declared(frontends=("frame",))
def span_f1(
    spans: pd.DataFrame,
    match: Literal["exact", "overlap"] = "exact",
    *,
    coders: Sequence[Hashable] | None = None,
    coverage: Iterable[tuple[Hashable, Hashable]] | None = None,
    document: Hashable = "document",
    coder: Hashable = "coder",
    start: Hashable = "start",
    end: Hashable = "end",
    label: Hashable = "label",
) -> pd.DataFrame:
    """Pairwise precision, recall and F1 of span annotations, per coder pair and label.

    Two spans *match* when they are in the same document, have the same label and either
    the same offsets (``match="exact"``) or at least one character in common
    (``match="overlap"``). Matching is one to one. With exact matching, duplicated spans
    pair copy by copy. With overlap matching, candidate pairs are taken greedily: larger
    overlap first, ties broken by the earlier start of ``coder_a``'s span, then of
    ``coder_b``'s span, then by row order (a greedy matching, not always the largest one
    possible when one span overlaps several).

    For coders ``a`` (the reference) and ``b``: precision = matched / spans of b, recall =
    matched / spans of a, F1 = 2 matched / (spans of a + spans of b). Counts are pooled over
    documents. The ``label == ALL_LABELS`` ("(all)") row of each pair pools every label
    (micro average). Swapping a and b swaps precision and recall; F1 is symmetric.

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame. Not modified.
    match : {"exact", "overlap"}, default "exact"
    coders : sequence, optional
        Coders to compare, in order (pairs ``(a, b)`` with ``a`` listed first); default all
        coders of the spans, sorted.
    coverage : iterable of (document, coder) pairs, optional
        Who saw which document (the readers' ``frame.attrs["coverage"]``). With it, a pair
        of coders is compared on the documents both saw, as bratiaa does; without it, every
        coder is taken to have seen every document, so spans of a document one coder never
        saw count as misses.
    document, coder, start, end, label : hashable
        Column names.

    Returns
    -------
    pandas.DataFrame
        One row per coder pair and label (the "(all)" row first): ``coder_a``, ``coder_b``,
        ``label``, ``n_a``, ``n_b``, ``matched``, ``precision``, ``recall``, ``f1``.
        Precision (recall) is NaN when b (a) has no span of the label.

    Examples
    --------
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
    """
    v, coder_index, runs = _coder_pairs(
        spans, match, coders, coverage, document, coder, start, end, label
    )
    n_labels = len(v.labels)
    rows = []
    for a, b, in_a, in_b, ia, _ in runs:
        n_a = np.bincount(v.label[in_a], minlength=n_labels)
        n_b = np.bincount(v.label[in_b], minlength=n_labels)
        matched = np.bincount(v.label[in_a][ia], minlength=n_labels)
        used = (n_a + n_b) > 0
        table = pd.DataFrame(
            {
                "coder_a": coder_index[a],
                "coder_b": coder_index[b],
                "label": np.concatenate([[ALL_LABELS], v.labels.to_numpy(dtype=object)[used]]),
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


def unmatched_pairs(
    spans: pd.DataFrame,
    match: Literal["exact", "overlap"] = "exact",
    *,
    coders: Sequence[Hashable] | None = None,
    coverage: Iterable[tuple[Hashable, Hashable]] | None = None,
    document: Hashable = "document",
    coder: Hashable = "coder",
    start: Hashable = "start",
    end: Hashable = "end",
    label: Hashable = "label",
) -> pd.DataFrame:
    """The spans :func:`span_f1` leaves unmatched, per coder pair, paired where they overlap.

    For each pair of coders ``(a, b)`` compared by :func:`span_f1` (same ``coders`` and
    ``coverage`` rules, same matching), the spans of ``a`` and of ``b`` that found no match
    are paired with each other when they overlap in the same document, whatever their
    labels (one to one, larger overlap first, as ``match="overlap"`` pairs spans); the
    others stand alone. Per pair and label, the spans of ``a`` listed are ``n_a - matched``
    of :func:`span_f1` and those of ``b`` are ``n_b - matched``.

    Parameters
    ----------
    spans, match, coders, coverage, document, coder, start, end, label
        As for :func:`span_f1`.

    Returns
    -------
    pandas.DataFrame
        One row per pair of unmatched spans or per unmatched span alone: ``coder_a``,
        ``coder_b``, ``document``, ``row_a``, ``row_b`` (positions of the spans in
        ``spans``, -1 on an absent side), ``start_a``, ``end_a``, ``label_a``, ``start_b``,
        ``end_b``, ``label_b`` (offsets as nullable integers, missing on an absent side;
        labels None there).

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
    v, coder_index, runs = _coder_pairs(
        spans, match, coders, coverage, document, coder, start, end, label
    )
    parts: list[pd.DataFrame] = []
    for a, b, in_a, in_b, ia, jb in runs:
        rows_a, rows_b = np.flatnonzero(in_a), np.flatnonzero(in_b)
        left_a = np.ones(rows_a.size, dtype=bool)
        left_b = np.ones(rows_b.size, dtype=bool)
        left_a[ia] = False
        left_b[jb] = False
        ra, rb = rows_a[left_a], rows_b[left_b]
        pa_, pb_ = _pair_matches(
            v.doc[ra].astype(np.int64), v.start[ra], v.end[ra],
            v.doc[rb].astype(np.int64), v.start[rb], v.end[rb], "overlap",
        )
        alone_a = np.ones(ra.size, dtype=bool)
        alone_b = np.ones(rb.size, dtype=bool)
        alone_a[pa_] = False
        alone_b[pb_] = False
        first = np.concatenate([ra[pa_], ra[alone_a], np.full(alone_b.sum(), -1)])
        second = np.concatenate([rb[pb_], np.full(alone_a.sum(), -1), rb[alone_b]])
        parts.append(_unmatched_frame(v, coder_index[a], coder_index[b], first, second))
    if not parts:
        return _unmatched_frame(v, None, None, np.array([], np.intp), np.array([], np.intp))
    return pd.concat(parts, ignore_index=True)


def _unmatched_frame(
    v: Spans, coder_a: Any, coder_b: Any, first: np.ndarray, second: np.ndarray
) -> pd.DataFrame:
    """Rows of :func:`unmatched_pairs` for the span positions ``first`` and ``second``."""
    doc = np.where(first >= 0, v.doc[first], v.doc[second]) if first.size else first
    labels = v.labels.to_numpy(dtype=object)

    def side(rows: np.ndarray) -> dict[str, Any]:
        present = rows >= 0
        at = np.where(present, rows, 0)
        return {
            "start": pd.arrays.IntegerArray(v.start[at].astype(np.int64), ~present),
            "end": pd.arrays.IntegerArray(v.end[at].astype(np.int64), ~present),
            "label": pd.Series(
                np.where(present, labels[v.label[at]] if at.size else at, None), dtype=object
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
            "row_a": first.astype(np.int64),
            "row_b": second.astype(np.int64),
            "start_a": sa["start"],
            "end_a": sa["end"],
            "label_a": sa["label"],
            "start_b": sb["start"],
            "end_b": sb["end"],
            "label_b": sb["label"],
        }
    )
