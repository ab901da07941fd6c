r"""Agreement on relations between spans: :func:`relation_f1` and :func:`relation_alpha`.

A *relation frame* has one row per relation: ``document, coder, relation, label, head,
tail`` (``relation``: the relation's id; ``label``: its type; ``head`` and ``tail``: the ids
of the two spans it links, as in the span frame) and the offsets and labels of the two
spans joined in: ``head_start, head_end, head_label, tail_start, tail_end, tail_label``.
Ids never match across coders, so relations are compared through those offsets and labels.
The readers of :mod:`pandas_agree.io` return such a frame next to the span frame.

* :func:`relation_f1`: pairwise precision, recall and F1 per coder pair and relation
  label, micro- and macro-averaged, with exact or overlapping spans (what brateval's
  ``CompareRelations`` and tagtog's ``exact_v1`` / ``overlapping_v1`` compute).
* :func:`relation_alpha`: Krippendorff's alpha on the relation labels of the span pairs
  that coders share: first agree on spans, then on the relations between agreed spans.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._core.unique import sorted_unique
from ..declare import RELATION_COLUMNS, declared
from ..errors import ColumnNotFoundError, InvalidParameterError
from ..results import Result
from ._frame import (
    Coded,
    check_frame,
    compared_coders,
    coverage_pairs,
    coverage_seen,
    exact_pairs,
    greedy_pairs,
    offsets,
    overlap_candidates,
    py_scalar,
    require_labels,
    which,
)
from .f1 import ALL_LABELS

__all__ = [
    "MACRO",
    "NO_RELATION",
    "RelationAlphaResult",
    "relation_alpha",
    "relation_f1",
]

#: The ``label`` of the macro-averaged rows of :func:`relation_f1`.
MACRO = "(macro)"

#: The value of :func:`relation_alpha` for a coder who marked both spans of a pair but did
#: not relate them.
NO_RELATION = "(no relation)"


# ---------------------------------------------------------------------------------------------
# the relation frame as codes


@dataclass(frozen=True)
class _Relations(Coded):
    """A validated relation frame as integer codes and offsets (head and tail in columns)."""

    hs: np.ndarray
    he: np.ndarray
    hl: np.ndarray  # span label codes (shared by head and tail); -1 without span labels
    ts: np.ndarray
    te: np.ndarray
    tl: np.ndarray
    span_labels: pd.Index


def _factorize(values: Any) -> tuple[np.ndarray, pd.Index]:
    series = pd.Series(values, dtype=object) if not isinstance(values, pd.Series) else values
    try:
        codes, uniques = pd.factorize(series, sort=True)
    except TypeError:  # labels of mixed types do not sort: order of appearance
        codes, uniques = pd.factorize(series)
    return codes.astype(np.intp), pd.Index(uniques, dtype=object)



def _columns(*names: Hashable) -> dict[str, Hashable]:
    """The relation-frame column names passed to a function, by their place in
    :data:`~pandas_agree.declare.RELATION_COLUMNS`."""
    return dict(zip(RELATION_COLUMNS, names, strict=True))


def _describe(frame: pd.DataFrame, k: int, cols: dict[str, Hashable]) -> str:
    """Which relation row ``k`` is, for messages."""
    row = frame.iloc[k]
    return (
        f"relation {py_scalar(row[cols['relation']])!r} of coder "
        f"{py_scalar(row[cols['coder']])!r} in "
        f"document {py_scalar(row[cols['document']])!r} (row index {py_scalar(frame.index[k])!r})"
    )


def _validate(
    relations: Any, cols: dict[str, Hashable], span_labels: bool, name: str = "relations"
) -> _Relations:
    check_frame(relations, name)
    for param, col in cols.items():
        if not span_labels and param in ("head_label", "tail_label"):
            continue
        if col not in relations.columns:
            raise ColumnNotFoundError(
                f"`{param}` column {col!r} is not in `{name}`; its columns are "
                f"{list(relations.columns)} (pass {param}=<column name>)"
            )
    labelled = {param: cols[param] for param in ("document", "coder", "label")}
    require_labels(relations, name, "relation", labelled)
    for end in ("head", "tail"):
        for part in ("start", "end") + (("label",) if span_labels else ()):
            col = cols[f"{end}_{part}"]
            missing = relations[col].isna().to_numpy()
            if missing.any():
                k = int(np.flatnonzero(missing)[0])
                raise InvalidParameterError(
                    f"{_describe(relations, k, cols)}: its {end} "
                    f"{py_scalar(relations[cols[end]].iloc[k])!r} is not in the span frame "
                    f"(`{end}_{part}` column {col!r} is missing in "
                    f"{which(missing, relations.index)}); join the span offsets and labels on "
                    "every relation, or drop relations whose spans are gone"
                )
    hs = offsets(relations, cols["head_start"], "head_start", name)
    he = offsets(relations, cols["head_end"], "head_end", name)
    ts = offsets(relations, cols["tail_start"], "tail_start", name)
    te = offsets(relations, cols["tail_end"], "tail_end", name)
    empty = (he <= hs) | (te <= ts)
    if empty.any():
        k = int(np.flatnonzero(empty)[0])
        raise InvalidParameterError(
            f"every span must end after it starts; {_describe(relations, k, cols)} links "
            f"head [{int(hs[k])}, {int(he[k])}) and tail [{int(ts[k])}, {int(te[k])})"
        )
    doc, documents = _factorize(relations[cols["document"]])
    cod, coders = _factorize(relations[cols["coder"]])
    lab, labels = _factorize(relations[cols["label"]])
    n = len(relations)
    if span_labels:
        both = pd.concat(
            [relations[cols["head_label"]], relations[cols["tail_label"]]], ignore_index=True
        )
        sl, span_index = _factorize(both)
        hl, tl = sl[:n], sl[n:]
    else:
        hl = tl = np.full(n, -1, dtype=np.intp)
        span_index = pd.Index([], dtype=object)
    return _Relations(doc, documents, cod, coders, lab, labels, hs, he, hl, ts, te, tl, span_index)


def _symmetric_mask(
    symmetric: bool | Collection[Hashable], v: _Relations, labels: bool
) -> np.ndarray:
    """Which relations are compared without direction (one flag per relation)."""
    if symmetric is True:
        return np.ones(v.label.size, dtype=bool)
    if symmetric is False or symmetric is None:
        return np.zeros(v.label.size, dtype=bool)
    if isinstance(symmetric, (str, bytes)) or not isinstance(symmetric, Iterable):
        raise InvalidParameterError(
            f"`symmetric` must be True, False or a collection of relation labels, got {symmetric!r}"
        )
    names = list(symmetric)
    sym_label = v.labels.isin(names)
    mask = sym_label[v.label] if v.label.size else np.zeros(0, dtype=bool)
    if not labels and mask.any() and not mask.all():
        some = v.labels[sym_label].tolist()[:3]
        other = v.labels[~sym_label].tolist()[:3]
        raise InvalidParameterError(
            f"with labels=False relations of different labels are compared, so direction must "
            f"count for all of them or for none: `symmetric` names {some} but not {other}. Pass "
            "symmetric=True (no relation has a direction) or symmetric=() (every relation has one)"
        )
    return mask


# ---------------------------------------------------------------------------------------------
# one-to-one matching


def _canonical(
    s1: np.ndarray,
    e1: np.ndarray,
    l1: np.ndarray,
    s2: np.ndarray,
    e2: np.ndarray,
    l2: np.ndarray,
    swap_ok: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """(head, tail) put in (start, end, label) order where ``swap_ok`` (symmetric relations)."""
    later = (s1 > s2) | ((s1 == s2) & ((e1 > e2) | ((e1 == e2) & (l1 > l2))))
    sw = swap_ok & later
    return (
        np.where(sw, s2, s1),
        np.where(sw, e2, e1),
        np.where(sw, l2, l1),
        np.where(sw, s1, s2),
        np.where(sw, e1, e2),
        np.where(sw, l1, l2),
    )


def _overlap_matches(
    a: dict[str, np.ndarray], b: dict[str, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Greedy one-to-one matching of relations whose heads and tails overlap."""
    na, nb = a["k"].size, b["k"].size
    parts_i, parts_j, parts_score = [], [], []
    # heads against heads (tails against tails), and for relations compared without
    # direction heads against tails (tails against heads)
    for b_head, b_tail, both_ways in (("h", "t", False), ("t", "h", True)):
        ia, jb, inter_h = overlap_candidates(
            a["k"], a["hs"], a["he"], b["k"], b[f"{b_head}s"], b[f"{b_head}e"]
        )
        if both_ways:
            keep = a["sym"][ia] & b["sym"][jb]
            ia, jb, inter_h = ia[keep], jb[keep], inter_h[keep]
        inter_t = np.minimum(a["te"][ia], b[f"{b_tail}e"][jb]) - np.maximum(
            a["ts"][ia], b[f"{b_tail}s"][jb]
        )
        keep = (
            (inter_t > 0)
            & (a["hl"][ia] == b[f"{b_head}l"][jb])
            & (a["tl"][ia] == b[f"{b_tail}l"][jb])
        )
        parts_i.append(ia[keep])
        parts_j.append(jb[keep])
        parts_score.append(inter_h[keep] + inter_t[keep])
    ia = np.concatenate(parts_i)
    jb = np.concatenate(parts_j)
    score = np.concatenate(parts_score)
    if ia.size == 0:
        return ia, jb
    # a pair found both ways keeps its better score
    order = np.lexsort((-score, jb, ia))
    ia, jb, score = ia[order], jb[order], score[order]
    first = np.ones(ia.size, dtype=bool)
    first[1:] = (ia[1:] != ia[:-1]) | (jb[1:] != jb[:-1])
    ia, jb, score = ia[first], jb[first], score[first]
    # rank: larger overlap first, then a's head start and tail start, then b's, then row order
    rank = np.empty(ia.size, dtype=np.intp)
    rank[np.lexsort((jb, ia, b["ts"][jb], b["hs"][jb], a["ts"][ia], a["hs"][ia], -score))] = (
        np.arange(ia.size)
    )
    return greedy_pairs(ia, jb, rank, na, nb)


def _exact_keys(side: dict[str, Any]) -> dict[str, np.ndarray]:
    """The arrays of a :func:`_side` that exact matching compares."""
    return {k: side[k] for k in ("k", "hs", "he", "hl", "ts", "te", "tl")}


def _side(v: _Relations, mask: np.ndarray, key: np.ndarray, sym: np.ndarray) -> dict[str, Any]:
    return {
        "k": key[mask],
        "hs": v.hs[mask],
        "he": v.he[mask],
        "hl": v.hl[mask],
        "ts": v.ts[mask],
        "te": v.te[mask],
        "tl": v.tl[mask],
        "sym": sym[mask],
    }


# ---------------------------------------------------------------------------------------------
# relation F1


@declared(frontends=("frame",))
def relation_f1(
    relations: pd.DataFrame,
    match,
    *,
    labels: bool = True,
    span_labels: bool = True,
    symmetric: bool | Collection[Hashable] = (),
    coders, coverage,
    document, coder, relation, label, head, tail, head_start, head_end, head_label, tail_start,
    tail_end, tail_label,
) -> pd.DataFrame:
    """Pairwise precision, recall and F1 of relations, per coder pair and relation label.

    A relation of coder ``a`` *matches* a relation of coder ``b`` when they are in the same
    document, their heads match and their tails match, and (with ``labels=True``) their
    relation labels are equal. Two spans match when they have the same offsets
    (``match="exact"``) or share at least one character (``match="overlap"``), and (with
    ``span_labels=True``) the same span label. A relation whose label is in ``symmetric``
    has no direction: it also matches a relation with head and tail swapped.

    Matching is one to one, as in :func:`~pandas_agree.spans.span_f1`. With exact matching,
    relations with equal spans and labels pair copy by copy; "matches" is then an
    equivalence, so this is a largest one-to-one matching. With overlap matching, candidate
    pairs are taken greedily: larger overlap (head overlap + tail overlap, in characters)
    first, ties broken by the earlier head start, then tail start, of ``a``'s relation,
    then of ``b``'s, then by row order. The greedy matching is a largest one-to-one
    matching whenever, within each group of relations linked by candidate pairs, every
    relation of ``a`` is a candidate for every relation of ``b`` (in particular when no
    relation has two candidates); otherwise it can be smaller, never below half of the
    largest.

    For coders ``a`` (the reference) and ``b``: precision = matched / relations of b,
    recall = matched / relations of a, F1 = 2 matched / (relations of a + relations of b),
    counts pooled over documents. Per coder pair, the ``"(all)"`` row pools every label
    (micro average) and the ``"(macro)"`` row averages the per-label precision, recall and
    F1 over the labels either coder used (labels whose precision or recall is undefined
    are left out of that average). One row per label follows. With ``labels=False``
    relations of different labels can match, and only the ``"(all)"`` row is given.

    brateval's ``CompareRelations`` (Verspoor et al. 2013) compares a gold and an evaluated
    folder by the same rules: ``-s exact`` / ``-s overlap`` is ``match``, ``-t exact`` /
    ``-t inexact`` is ``span_labels=True`` / ``False``, relation types always equal
    (``labels=True``), direction always kept. It differs in two details: its macro average
    counts an undefined precision or recall as 0, and with overlapping spans it takes the
    first candidate it finds rather than the best-overlapping one (so where one relation
    has several candidates its counts can differ).
    tagtog's ``exact_v1`` and ``overlapping_v1`` relation agreement is ``match="exact"`` and
    ``match="overlap"`` with ``labels=True, span_labels=True``.

    Parameters
    ----------
    relations : pandas.DataFrame
        The relation frame. Not modified.
    labels : bool, default True
        Require equal relation labels.
    span_labels : bool, default True
        Require equal span labels for heads and for tails (the ``head_label`` and
        ``tail_label`` columns are then needed).
    symmetric : bool or collection of labels, default ()
        Relation labels compared without direction; True for all. With ``labels=False``
        it must be True or empty (direction counts for every relation or for none).
    coders : sequence, optional
        Coders to compare, in order (pairs ``(a, b)`` with ``a`` listed first); default all
        coders of the relations, sorted. List coders who related nothing here.
    coverage : iterable of (document, coder) pairs, optional
        Who saw which document. With it, a pair of coders is compared on the documents both
        saw; without it, every coder is taken to have seen every document.

    Returns
    -------
    pandas.DataFrame
        One row per coder pair and label (``"(all)"`` first, then ``"(macro)"``):
        ``coder_a``, ``coder_b``, ``label``, ``n_a``, ``n_b``, ``matched``, ``precision``,
        ``recall``, ``f1``. Precision (recall) is NaN when b (a) has no relation of the
        label; the ``"(macro)"`` row repeats the counts of the ``"(all)"`` row.

    Raises
    ------
    InvalidParameterError
        For a relation whose head or tail has no offsets (not in the span frame), for
        ``match`` other than "exact" or "overlap", for fewer than two coders.

    Examples
    --------
    Coder B draws the first relation the other way round and labels the second span of the
    second one differently:

    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> rel = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B", "B"], "relation": ["R1", "R2", "R1", "R2"],
    ...     "label": ["Equiv", "Owns", "Equiv", "Owns"], "head": ["T1", "T1", "T2", "T1"],
    ...     "tail": ["T2", "T3", "T1", "T3"], "head_start": [0, 0, 10, 0],
    ...     "head_end": [4, 4, 14, 4], "head_label": "PER",
    ...     "tail_start": [10, 20, 0, 20], "tail_end": [14, 25, 4, 25],
    ...     "tail_label": ["PER", "ORG", "PER", "LOC"]})
    >>> pa.relation_f1(rel)[["label", "n_a", "n_b", "matched", "f1"]]
         label  n_a  n_b  matched   f1
    0    (all)    2    2        0  0.0
    1  (macro)    2    2        0  0.0
    2    Equiv    1    1        0  0.0
    3     Owns    1    1        0  0.0
    >>> table = pa.relation_f1(rel, symmetric={"Equiv"}, span_labels=False)
    >>> table[["label", "matched", "f1"]]
         label  matched   f1
    0    (all)        2  1.0
    1  (macro)        2  1.0
    2    Equiv        1  1.0
    3     Owns        1  1.0
    """
    if match not in ("exact", "overlap"):
        raise InvalidParameterError(f"`match` must be 'exact' or 'overlap', got {match!r}")
    for param, flag in (("labels", labels), ("span_labels", span_labels)):
        if not isinstance(flag, bool):
            raise InvalidParameterError(f"`{param}` must be True or False, got {flag!r}")
    cols = _columns(
        document, coder, relation, label, head, tail,
        head_start, head_end, head_label, tail_start, tail_end, tail_label,
    )  # fmt: skip
    v = _validate(relations, cols, span_labels)
    for name in (ALL_LABELS, MACRO):
        if labels and name in set(v.labels):
            raise InvalidParameterError(
                f"the relation label {name!r} names summary rows of relation_f1; rename that label"
            )
    sym = _symmetric_mask(symmetric, v, labels)
    pairs = coverage_pairs(coverage, None)
    coder_index = compared_coders(coders, v.coders, pairs, "relation F1")
    r_coder = coder_index.get_indexer(v.coders)[v.coder]
    seen = coverage_seen(pairs, v.documents, coder_index, v.doc, r_coder, "relations")
    n_labels = len(v.labels)
    key = v.doc.astype(np.int64) * n_labels + v.label if labels else v.doc.astype(np.int64)
    if match == "exact":
        # symmetric relations in a canonical direction: equal relations get equal keys
        hs, he, hl, ts, te, tl = _canonical(v.hs, v.he, v.hl, v.ts, v.te, v.tl, sym)
        v = _Relations(
            v.doc,
            v.documents,
            v.coder,
            v.coders,
            v.label,
            v.labels,
            hs,
            he,
            hl,
            ts,
            te,
            tl,
            v.span_labels,
        )
    tables = []
    for a in range(len(coder_index)):
        for b in range(a + 1, len(coder_index)):
            both = seen[:, a] & seen[:, b]
            in_a = (r_coder == a) & both[v.doc]
            in_b = (r_coder == b) & both[v.doc]
            side_a, side_b = _side(v, in_a, key, sym), _side(v, in_b, key, sym)
            if match == "exact":
                ia, _ = exact_pairs(*(_exact_keys(side) for side in (side_a, side_b)))
            else:
                ia, _ = _overlap_matches(side_a, side_b)
            tables.append(_pair_table(coder_index[a], coder_index[b], v, in_a, in_b, ia, labels))
    return pd.concat(tables, ignore_index=True)


def _pair_table(
    name_a: Hashable,
    name_b: Hashable,
    v: _Relations,
    in_a: np.ndarray,
    in_b: np.ndarray,
    ia: np.ndarray,
    labels: bool,
) -> pd.DataFrame:
    """The rows of one coder pair: micro, macro, then one per label."""
    n_labels = len(v.labels)
    n_a = np.bincount(v.label[in_a], minlength=n_labels)
    n_b = np.bincount(v.label[in_b], minlength=n_labels)
    matched = np.bincount(v.label[in_a][ia], minlength=n_labels)
    total = (int(n_a.sum()), int(n_b.sum()), int(ia.size))
    if not labels:
        rows = {"label": [ALL_LABELS], "n_a": [total[0]], "n_b": [total[1]], "matched": [total[2]]}
        out = pd.DataFrame(rows)
        p, r, f = _prf(out["matched"], out["n_a"], out["n_b"])
        out["precision"], out["recall"], out["f1"] = p, r, f
    else:
        used = (n_a + n_b) > 0
        lp, lr, lf = _prf(matched[used], n_a[used], n_b[used])
        mp, mr, mf = _prf(np.array([total[2]]), np.array([total[0]]), np.array([total[1]]))
        with np.errstate(invalid="ignore"):
            macro = [_nanmean(lp), _nanmean(lr), _nanmean(lf)]
        out = pd.DataFrame(
            {
                "label": np.concatenate(
                    [[ALL_LABELS, MACRO], v.labels.to_numpy(dtype=object)[used]]
                ),
                "n_a": np.concatenate([[total[0], total[0]], n_a[used]]),
                "n_b": np.concatenate([[total[1], total[1]], n_b[used]]),
                "matched": np.concatenate([[total[2], total[2]], matched[used]]),
                "precision": np.concatenate([mp, [macro[0]], lp]),
                "recall": np.concatenate([mr, [macro[1]], lr]),
                "f1": np.concatenate([mf, [macro[2]], lf]),
            }
        )
    out.insert(0, "coder_b", name_b)
    out.insert(0, "coder_a", name_a)
    return out.astype({"n_a": np.int64, "n_b": np.int64, "matched": np.int64})


def _nanmean(x: np.ndarray) -> float:
    x = np.asarray(x, dtype=float)
    ok = ~np.isnan(x)
    return float(x[ok].mean()) if ok.any() else float("nan")


def _prf(m: Any, na: Any, nb: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m = np.asarray(m, dtype=float)
    na = np.asarray(na, dtype=float)
    nb = np.asarray(nb, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(nb > 0, m / nb, np.nan)
        r = np.where(na > 0, m / na, np.nan)
        f = np.where(na + nb > 0, 2 * m / (na + nb), np.nan)
    return p, r, f


# ---------------------------------------------------------------------------------------------
# relation alpha


@dataclass(frozen=True)
class RelationAlphaResult(Result):
    """Krippendorff's alpha on relation labels between shared span pairs.

    Attributes
    ----------
    alpha : float
        Alpha on the units (NaN when the values do not vary; see ``reason``).
    distance : str
        The distance between relation labels.
    n_pairs : int
        Span pairs alpha rests on: pairs related by at least one coder and marked (both
        spans) by two or more coders.
    n_related : int
        Span pairs related by at least one coder, shared or not.
    n_coders : int
        Coders with at least one value in a unit alpha uses.
    reason : str or None
        Why ``alpha`` is NaN, when it is.
    result : AlphaResult
        The full alpha result on the units.
    units : pandas.DataFrame
        The units: one row per span pair and coder who marked both spans, with ``unit``,
        ``document``, the head and tail offsets (and labels), ``coder`` and ``value`` (the
        relation label or :data:`NO_RELATION`); names are categoricals.
    """

    alpha: float
    distance: str
    n_pairs: int
    n_related: int
    n_coders: int
    reason: str | None = None
    result: Any = field(default=None, repr=False)
    units: pd.DataFrame = field(default=None, repr=False)  # type: ignore[assignment]

    _headline = "alpha"
    _series_fields = ("alpha", "distance", "n_pairs", "n_related", "n_coders", "reason")
    _series_name = "relation_alpha"

    def __repr__(self) -> str:
        return (
            f"RelationAlphaResult(alpha={self.alpha:.4f}, distance={self.distance!r}, "
            f"n_pairs={self.n_pairs}, n_related={self.n_related}, n_coders={self.n_coders})"
        )

    def to_frame(self) -> pd.DataFrame:
        """The scalar fields as a one-row DataFrame."""
        return self.to_series().to_frame().T.reset_index(drop=True)


@declared(frontends=("frame",))
def relation_alpha(
    spans: pd.DataFrame,
    relations: pd.DataFrame,
    *,
    span_labels: bool = True,
    symmetric: bool | Collection[Hashable] = (),
    distance: str | Callable[[Any, Any], float] | Any = "nominal",
    document, coder, start, end, label, relation, head, tail, head_start, head_end, head_label,
    tail_start, tail_end, tail_label,
) -> RelationAlphaResult:
    """Krippendorff's alpha on the relation labels of the span pairs coders share.

    The two-step approach: agreement on spans is measured first (span F1, unitizing
    alpha); this measures agreement on relations given the spans. A *unit* is an ordered
    pair of spans (head, tail), identified by their document, offsets and (with
    ``span_labels=True``) span labels, that at least one coder related. A coder has a value
    for the unit when they marked both spans: the label of their relation from head to tail,
    or :data:`NO_RELATION` when they related the two spans in no way or only the other way
    round. Coders who did not mark both spans have no value there. Alpha (``distance``,
    default nominal) is computed on these units; pairs marked by fewer than two coders do
    not count (``n_pairs`` says how many count).

    A relation whose label is in ``symmetric`` (True: every relation) is counted on its
    pair in document order (by start, end, then span label), so its direction does not
    matter. A coder relating one ordered pair twice with the same label counts once; with
    two different labels it is an error (the unit would have two values).

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame (``document, coder, start, end, label``). Not modified.
    relations : pandas.DataFrame
        The relation frame of the same annotations. Not modified.
    span_labels : bool, default True
        Spans are the same when offsets and labels are equal (False: offsets only).
    symmetric : bool or collection of labels, default ()
        Relation labels whose two spans are compared without direction; True for all.
    distance : str, callable or Distance, default "nominal"
        Distance between relation labels (see :func:`~pandas_agree.alpha`).
    relation, head, tail, head_start, head_end, head_label, tail_start, tail_end, \
tail_label : hashable
        Column names of the relation frame (its document, coder and relation-label columns
        are ``document``, ``coder`` and ``label`` too).

    Returns
    -------
    RelationAlphaResult

    Raises
    ------
    InvalidParameterError
        For a relation whose head or tail is not among the spans of its coder and
        document, or a coder relating one pair with two labels.
    NoPairableUnitsError
        When no related span pair is marked by two coders.

    Examples
    --------
    Both coders mark the same three spans; A relates two pairs, B one of them with another
    label:

    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> spans = pd.DataFrame({
    ...     "document": "d1", "coder": ["A"] * 3 + ["B"] * 3,
    ...     "start": [0, 10, 20] * 2, "end": [4, 14, 25] * 2, "label": "ENT"})
    >>> rel = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B"], "relation": ["R1", "R2", "R1"],
    ...     "label": ["Cause", "Cause", "Precedes"], "head": ["T1", "T2", "T1"],
    ...     "tail": ["T2", "T3", "T2"], "head_start": [0, 10, 0], "head_end": [4, 14, 4],
    ...     "head_label": "ENT", "tail_start": [10, 20, 10], "tail_end": [14, 25, 14],
    ...     "tail_label": "ENT"})
    >>> res = pa.relation_alpha(spans, rel)  # D_o = 4/4, D_e = 10/12: alpha = 1 - 1.2
    >>> res
    RelationAlphaResult(alpha=-0.2000, distance='nominal', n_pairs=2, n_related=2, n_coders=2)
    >>> res.units[["unit", "coder", "value"]]
       unit coder          value
    0     0     A          Cause
    1     0     B       Precedes
    2     1     A          Cause
    3     1     B  (no relation)
    """
    for param, flag in (("span_labels", span_labels),):
        if not isinstance(flag, bool):
            raise InvalidParameterError(f"`{param}` must be True or False, got {flag!r}")
    from ._frame import validate

    sv = validate(spans, document, coder, start, end, label)
    cols = _columns(
        document, coder, relation, label, head, tail,
        head_start, head_end, head_label, tail_start, tail_end, tail_label,
    )  # fmt: skip
    rv = _validate(relations, cols, span_labels)
    if NO_RELATION in set(rv.labels):
        raise InvalidParameterError(
            f"the relation label {NO_RELATION!r} is the value of unrelated pairs; rename that label"
        )
    sym = _symmetric_mask(symmetric, rv, True)
    # one table of spans: the span frame's and the relations' heads and tails, numbered
    # by (document, start, end, label)
    n_s, n_r = sv.doc.size, rv.doc.size
    docs = pd.Index(sv.documents).append(pd.Index(rv.documents)).unique()
    coders_all = pd.Index(sv.coders).append(pd.Index(rv.coders)).unique()
    s_doc = docs.get_indexer(sv.documents)[sv.doc]
    r_doc = docs.get_indexer(rv.documents)[rv.doc]
    s_cod = coders_all.get_indexer(sv.coders)[sv.coder]
    r_cod = coders_all.get_indexer(rv.coders)[rv.coder]
    if span_labels:
        span_lab = pd.Index(sv.labels).append(pd.Index(rv.span_labels)).unique()
        s_lab = span_lab.get_indexer(sv.labels)[sv.label]
        h_lab = span_lab.get_indexer(rv.span_labels)[rv.hl]
        t_lab = span_lab.get_indexer(rv.span_labels)[rv.tl]
    else:
        s_lab = np.zeros(n_s, dtype=np.intp)
        h_lab = t_lab = np.zeros(n_r, dtype=np.intp)
    table = pd.DataFrame(
        {
            "d": np.concatenate([s_doc, r_doc, r_doc]),
            "s": np.concatenate([sv.start, rv.hs, rv.ts]),
            "e": np.concatenate([sv.end, rv.he, rv.te]),
            "l": np.concatenate([s_lab, h_lab, t_lab]),
        }
    )
    span_id = table.groupby(["d", "s", "e", "l"], sort=True).ngroup().to_numpy(np.int64)
    s_id, h_id, t_id = span_id[:n_s], span_id[n_s : n_s + n_r], span_id[n_s + n_r :]
    n_span = int(span_id.max()) + 1 if span_id.size else 0
    marked = sorted_unique(s_cod.astype(np.int64) * n_span + s_id)
    for end_name, ids in (("head", h_id), ("tail", t_id)):
        wanted = r_cod.astype(np.int64) * n_span + ids
        at = np.minimum(np.searchsorted(marked, wanted), max(marked.size - 1, 0))
        missing = marked[at] != wanted if marked.size else np.ones(wanted.size, dtype=bool)
        if missing.any():
            k = int(np.flatnonzero(missing)[0])
            s_ = rv.hs[k] if end_name == "head" else rv.ts[k]
            e_ = rv.he[k] if end_name == "head" else rv.te[k]
            lab = py_scalar(relations[cols[f"{end_name}_label"]].iloc[k]) if span_labels else None
            what = f"[{int(s_)}, {int(e_)})" + (f" labelled {lab!r}" if span_labels else "")
            raise InvalidParameterError(
                f"{_describe(relations, k, cols)}: its {end_name} "
                f"{py_scalar(relations[cols[end_name]].iloc[k])!r} at {what} "
                "is not in the span frame "
                f"({which(missing, relations.index)} have a {end_name} that coder did not mark)"
            )
    # symmetric relations on the pair in document order (span ids sort by document order)
    swap = sym & (h_id > t_id)
    h_id, t_id = np.where(swap, t_id, h_id), np.where(swap, h_id, t_id)
    pair = h_id * n_span + t_id
    rel = pd.DataFrame({"pair": pair, "c": r_cod, "lab": rv.label}).drop_duplicates()
    twice = rel.duplicated(["pair", "c"], keep=False).to_numpy()
    if twice.any():
        first = rel[twice].iloc[0]
        rows = np.flatnonzero((pair == first["pair"]) & (r_cod == first["c"]))
        got = sorted({str(rv.labels[rv.label[i]]) for i in rows})
        raise InvalidParameterError(
            f"{_describe(relations, int(rows[0]), cols)} and another relate the same spans "
            f"(head to tail) with different labels {got}; one coder can give one label per "
            "ordered span pair. Merge such labels into one, or compare them with relation_f1"
        )
    units = sorted_unique(pair)
    n_related = int(units.size)
    # coders who marked both spans of each unit
    by_span = pd.DataFrame({"span": s_id, "c": s_cod}).drop_duplicates()
    u = pd.DataFrame(
        {"unit": np.arange(units.size), "pair": units, "h": units // n_span, "t": units % n_span}
    )
    has_head = u.merge(by_span.rename(columns={"span": "h"}), on="h")
    shared = has_head.merge(by_span.rename(columns={"span": "t"}), on=["t", "c"])
    shared = shared.merge(rel, on=["pair", "c"], how="left")
    shared = shared.sort_values(["unit", "c"], kind="stable").reset_index(drop=True)
    lab_code = shared["lab"].to_numpy(dtype=float, na_value=np.nan)
    value_code = np.where(np.isnan(lab_code), len(rv.labels), np.nan_to_num(lab_code))
    # the spans of each unit, for reading the units table: attributes by span id
    order = np.argsort(span_id, kind="stable")
    first = order[np.r_[True, span_id[order][1:] != span_id[order][:-1]]] if order.size else order
    d_of, s_of, e_of, l_of = (table[c].to_numpy()[first] for c in ("d", "s", "e", "l"))
    h, t = shared["h"].to_numpy(), shared["t"].to_numpy()

    def categorical(codes: np.ndarray, names: pd.Index) -> pd.Categorical:
        return pd.Categorical.from_codes(codes.astype(np.intp), categories=names)

    out = pd.DataFrame(
        {
            "unit": shared["unit"].to_numpy(np.int64),
            "document": categorical(d_of[h], docs),
            "head_start": s_of[h].astype(np.int64),
            "head_end": e_of[h].astype(np.int64),
            "tail_start": s_of[t].astype(np.int64),
            "tail_end": e_of[t].astype(np.int64),
            "coder": categorical(shared["c"].to_numpy(), coders_all),
            "value": categorical(value_code, rv.labels.append(pd.Index([NO_RELATION]))),
        }
    )
    if span_labels:
        out.insert(4, "head_label", categorical(l_of[h], span_lab))
        out.insert(7, "tail_label", categorical(l_of[t], span_lab))
    from .. import alpha as _alpha

    res = _alpha(out, distance, unit="unit", coder="coder", value="value")
    n_pairs = int(res.n_units)
    return RelationAlphaResult(
        alpha=float(res.alpha),
        distance=res.distance,
        n_pairs=n_pairs,
        n_related=n_related,
        n_coders=int(res.n_coders),
        reason=res.reason,
        result=res,
        units=out,
    )
