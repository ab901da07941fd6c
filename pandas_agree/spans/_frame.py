"""Shared pieces of :mod:`pandas_agree.spans`: the span-frame checks, the `coverage` list and
the one-to-one matching of spans (exact copies, overlap candidates, greedy by rank).

Everything here is a public name of an internal module, used by the modules of
:mod:`pandas_agree.spans` only.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..data.prepare import check_columns
from ..errors import InvalidParameterError, ValueTypeError

__all__ = [
    "Coded",
    "Spans",
    "check_frame",
    "compared_coders",
    "coverage_pairs",
    "coverage_seen",
    "exact_pairs",
    "greedy_pairs",
    "offsets",
    "overlap_candidates",
    "py_scalar",
    "require_labels",
    "subset",
    "validate",
    "which",
]


# ---------------------------------------------------------------------------------------------
# validation (the public edge)


@dataclass(frozen=True)
class Coded:
    """The document, coder and label columns of a validated frame as codes into their
    names (the first fields of :class:`Spans` and of the relation frame's codes)."""

    doc: np.ndarray
    documents: pd.Index
    coder: np.ndarray
    coders: pd.Index
    label: np.ndarray
    labels: pd.Index


@dataclass(frozen=True)
class Spans(Coded):
    """A validated span frame as codes and integer offsets."""

    start: np.ndarray
    end: np.ndarray


def _factorize(series: pd.Series) -> tuple[np.ndarray, pd.Index]:
    try:
        codes, uniques = pd.factorize(series, sort=True)
    except TypeError:  # labels of mixed types do not sort: order of appearance
        codes, uniques = pd.factorize(series)
    return codes.astype(np.intp), pd.Index(uniques)


def which(mask: np.ndarray, index: pd.Index) -> str:
    where = index[np.flatnonzero(mask)[:5]].tolist()
    more = ", ..." if mask.sum() > 5 else ""
    return f"{int(mask.sum())} row(s), index {where}{more}"


def offsets(frame: pd.DataFrame, col: Hashable, param: str, name: str) -> np.ndarray:
    raw = frame[col]
    if pd.api.types.is_bool_dtype(raw.dtype):
        raise ValueTypeError(f"`{param}` column {col!r} must hold integer offsets, got booleans")
    num = pd.to_numeric(raw, errors="coerce")
    bad = num.isna().to_numpy() | ~np.isfinite(num.to_numpy(dtype=float, na_value=np.nan))
    if bad.any():
        first = raw[bad].iloc[0]
        raise InvalidParameterError(
            f"`{param}` column {col!r} of `{name}` must hold integer offsets; "
            f"{which(bad, frame.index)} hold {first!r}"
        )
    values = num.to_numpy(dtype=float)
    frac = values != np.round(values)
    if frac.any():
        raise InvalidParameterError(
            f"`{param}` column {col!r} of `{name}` must hold integer offsets; "
            f"{which(frac, frame.index)} hold {values[frac][0]!r}"
        )
    neg = values < 0
    if neg.any():
        raise InvalidParameterError(
            f"`{param}` column {col!r} of `{name}` must hold offsets >= 0; "
            f"{which(neg, frame.index)} hold {values[neg][0]!r}"
        )
    return values.astype(np.int64)


def check_frame(frame: Any, name: str) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise ValueTypeError(f"`{name}` must be a pandas DataFrame, got {type(frame).__name__}")


def require_labels(
    frame: pd.DataFrame, name: str, noun: str, columns: Mapping[str, Hashable]
) -> None:
    """Every row of ``frame`` (the argument ``name``) names its document, coder and label.

    ``columns`` maps the parameters ``document``, ``coder`` and ``label`` to their columns;
    ``noun`` is what a row is (a span, a relation), for the message.
    """
    for param, col in columns.items():
        missing = frame[col].isna().to_numpy()
        if missing.any():
            raise InvalidParameterError(
                f"`{param}` column {col!r} of `{name}` is missing in {which(missing, frame.index)};"
                f" every {noun} needs a document, a coder and a label"
            )


def validate(
    spans: Any,
    document: Hashable,
    coder: Hashable,
    start: Hashable,
    end: Hashable,
    label: Hashable,
) -> Spans:
    check_frame(spans, "spans")
    check_columns(spans, document=document, coder=coder, start=start, end=end, label=label)
    require_labels(spans, "spans", "span", {"document": document, "coder": coder, "label": label})
    s = offsets(spans, start, "start", "spans")
    e = offsets(spans, end, "end", "spans")
    empty = e <= s
    if empty.any():
        k = np.flatnonzero(empty)[0]
        raise InvalidParameterError(
            f"every span must end after it starts (`end` > `start`); {which(empty, spans.index)}"
            f" do not, e.g. start={int(s[k])}, end={int(e[k])}"
        )
    doc, documents = _factorize(spans[document])
    cod, coders = _factorize(spans[coder])
    lab, labels = _factorize(spans[label])
    return Spans(doc, documents, cod, coders, lab, labels, s, e)


def subset(given: Sequence[Hashable] | None, found: pd.Index, param: str) -> pd.Index:
    """The explicit list ``given`` (which must contain everything found) or ``found``."""
    if given is None:
        return found
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence | pd.Index | np.ndarray):
        raise InvalidParameterError(f"`{param}` must be a list of names, got {given!r}")
    index = pd.Index(list(given))
    if index.has_duplicates:
        raise InvalidParameterError(f"`{param}` lists a name twice: {list(given)!r}")
    unknown = found.difference(index, sort=False)
    if len(unknown):
        raise InvalidParameterError(
            f"`{param}`={list(given)!r} leaves out {list(unknown)[:5]!r}, which the spans have; "
            "filter the span frame first to leave them out"
        )
    return index


def coverage_pairs(coverage: Any, coders: Any) -> list[tuple[Any, Any]] | None:
    """``coverage`` checked and listed once (it may be a generator)."""
    if coverage is None:
        return None
    if coders is not None:
        raise InvalidParameterError("pass `coders` or `coverage`, not both")
    if isinstance(coverage, (str, bytes, Mapping)) or not isinstance(coverage, Iterable):
        raise InvalidParameterError(
            f"`coverage` must be a list of (document, coder) pairs, got {coverage!r}"
        )
    pairs = list(coverage)
    bad = [p for p in pairs if not (isinstance(p, (tuple, list)) and len(p) == 2)]
    if bad:
        raise InvalidParameterError(
            f"`coverage` must be a list of (document, coder) pairs, got the item {bad[0]!r}"
        )
    return [(p[0], p[1]) for p in pairs]


def py_scalar(x: Any) -> Any:
    """A NumPy scalar as the Python scalar it holds (for messages)."""
    return x.item() if isinstance(x, np.generic) else x


def compared_coders(
    coders: Sequence[Hashable] | None,
    found: pd.Index,
    pairs: list[tuple[Any, Any]] | None,
    measure: str,
) -> pd.Index:
    """The coders a measure compares: ``coders`` (checked by :func:`subset`), or those
    ``found`` in the spans plus those the ``coverage`` pairs name; at least two."""
    index = subset(coders, found, "coders")
    if pairs is not None and coders is None:
        extra = pd.Index(pd.unique(pd.Series([p[1] for p in pairs], dtype=object)))
        index = index.union(extra, sort=False)
    if len(index) < 2:
        raise InvalidParameterError(
            f"{measure} needs at least two coders, got {len(index)}: {list(index)!r}"
        )
    return index


def coverage_seen(
    pairs: list[tuple[Any, Any]] | None,
    documents: pd.Index,
    coder_index: pd.Index,
    row_doc: np.ndarray,
    row_coder: np.ndarray,
    rows: str,
) -> np.ndarray:
    """Which coder saw which document, a boolean ``(document, coder)`` matrix.

    Without ``coverage`` every coder saw every document. With it, only the listed pairs
    (pairs naming an unknown document or coder are ignored), and every row of the input
    (``row_doc``, ``row_coder`` codes into ``documents`` and ``coder_index``) must lie in a
    seen pair: ``rows`` names what the rows are in the error.
    """
    seen = np.ones((len(documents), len(coder_index)), dtype=bool)
    if pairs is None:
        return seen
    seen[:] = False
    d_code = documents.get_indexer(pd.Index([p[0] for p in pairs], dtype=object))
    c_code = coder_index.get_indexer(pd.Index([p[1] for p in pairs], dtype=object))
    ok = (d_code >= 0) & (c_code >= 0)
    seen[d_code[ok], c_code[ok]] = True
    unseen = ~seen[row_doc, row_coder]
    if unseen.any():
        k = int(np.flatnonzero(unseen)[0])
        raise InvalidParameterError(
            f"`coverage` leaves out ({py_scalar(documents[row_doc[k]])!r}, "
            f"{py_scalar(coder_index[row_coder[k]])!r}), which has {rows}"
        )
    return seen


# ---------------------------------------------------------------------------------------------
# one-to-one matching


def exact_pairs(
    a: Mapping[str, np.ndarray], b: Mapping[str, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """One-to-one pairs (indices into a and b) of items equal in every array of ``a`` and
    ``b`` (same keys): the n-th copy of an item pairs with the n-th copy on the other side,
    a largest one-to-one matching."""
    keys = list(a)
    if a[keys[0]].size == 0 or b[keys[0]].size == 0:
        return np.array([], dtype=np.intp), np.array([], dtype=np.intp)
    fa = pd.DataFrame({k: a[k] for k in keys})
    fb = pd.DataFrame({k: b[k] for k in keys})
    fa["i"] = np.arange(len(fa))
    fb["j"] = np.arange(len(fb))
    fa["n"] = fa.groupby(keys, sort=False).cumcount()
    fb["n"] = fb.groupby(keys, sort=False).cumcount()
    m = fa.merge(fb, on=[*keys, "n"])
    return m["i"].to_numpy(np.intp), m["j"].to_numpy(np.intp)


def overlap_candidates(
    key_a: np.ndarray,
    sa: np.ndarray,
    ea: np.ndarray,
    key_b: np.ndarray,
    sb: np.ndarray,
    eb: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs of spans (indices into a and b) with equal ``key`` sharing a character, and the
    number of characters they share (a sweep over b's spans sorted by key and start)."""
    empty = np.array([], dtype=np.intp)
    if key_a.size == 0 or key_b.size == 0:
        return empty, empty, empty.astype(np.int64)
    width = int(max(ea.max(), eb.max())) + 2
    order_b = np.lexsort((sb, key_b))
    g_sb = (key_b.astype(np.int64) * width + sb)[order_b]
    longest = int((eb - sb).max())
    base = key_a.astype(np.int64) * width
    lo = np.searchsorted(g_sb, base + np.maximum(sa - longest, 0))
    hi = np.searchsorted(g_sb, base + ea, side="left")
    count = np.maximum(hi - lo, 0)
    ia = np.repeat(np.arange(key_a.size), count)
    first = np.repeat(lo, count) + np.arange(ia.size) - np.repeat(np.cumsum(count) - count, count)
    jb = order_b[first]
    inter = np.minimum(ea[ia], eb[jb]) - np.maximum(sa[ia], sb[jb])
    keep = (inter > 0) & (key_a[ia] == key_b[jb])
    return ia[keep], jb[keep], inter[keep]


def greedy_pairs(
    ia: np.ndarray, jb: np.ndarray, rank: np.ndarray, n_a: int, n_b: int
) -> tuple[np.ndarray, np.ndarray]:
    """Greedy one-to-one matching of candidate pairs ``(ia, jb)``, best (lowest) ``rank`` first.

    Pairs that rank first for both of their ends are taken together in each round; this
    gives the same matching as taking the pairs one by one in rank order and skipping those
    whose ends are used (ranks are distinct).
    """
    if ia.size == 0:
        return np.array([], dtype=np.intp), np.array([], dtype=np.intp)
    taken_a: list[np.ndarray] = []
    taken_b: list[np.ndarray] = []
    alive = np.ones(ia.size, dtype=bool)
    big = np.iinfo(np.intp).max
    while alive.any():
        idx = np.flatnonzero(alive)
        best_a = np.full(n_a, big)
        best_b = np.full(n_b, big)
        np.minimum.at(best_a, ia[idx], rank[idx])
        np.minimum.at(best_b, jb[idx], rank[idx])
        take = idx[(best_a[ia[idx]] == rank[idx]) & (best_b[jb[idx]] == rank[idx])]
        taken_a.append(ia[take])
        taken_b.append(jb[take])
        used_a = np.zeros(n_a, dtype=bool)
        used_b = np.zeros(n_b, dtype=bool)
        used_a[ia[take]] = True
        used_b[jb[take]] = True
        alive &= ~(used_a[ia] | used_b[jb])
    return np.concatenate(taken_a), np.concatenate(taken_b)
