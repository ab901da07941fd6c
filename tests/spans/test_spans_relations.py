"""Relation agreement: relation_f1 and relation_alpha (pandas_agree.spans.relations).

Checked against hand-computed tables (relation frames as the brat, Label Studio and WebAnno
readers give them), against a brute-force implementation of the definition (all pairs of
relations; an exhaustive largest one-to-one matching; the greedy choice taken pair by pair),
and relation_alpha against the ``krippendorff`` package on units built from the definition.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pandas as pd
import pytest
from definitions import RELATION_FRAME_COLUMNS

import pandas_agree as pa
from pandas_agree.errors import (
    ColumnNotFoundError,
    DegenerateDataWarning,
    InvalidParameterError,
    NoPairableUnitsError,
)
from pandas_agree.spans.relations import MACRO, NO_RELATION

ALL = "(all)"
COLS = RELATION_FRAME_COLUMNS


def frame(rows):
    """A relation frame from (doc, coder, label, (hs, he, hl), (ts, te, tl)) tuples."""
    out = []
    for k, (doc, coder, label, h, t) in enumerate(rows):
        out.append(
            {
                "document": doc,
                "coder": coder,
                "relation": f"R{k}",
                "label": label,
                "head": f"T{2 * k}",
                "tail": f"T{2 * k + 1}",
                "head_start": h[0],
                "head_end": h[1],
                "head_label": h[2],
                "tail_start": t[0],
                "tail_end": t[1],
                "tail_label": t[2],
            }
        )
    return pd.DataFrame(out, columns=COLS)


def row(table, label, a="A", b="B"):
    sel = table[(table["coder_a"] == a) & (table["coder_b"] == b) & (table["label"] == label)]
    assert len(sel) == 1, (label, table)
    return sel.iloc[0]


# ---------------------------------------------------------------------------------------------
# Hand-computed fixtures


# A brat-like document: "Ann works for Acme in Paris ." with spans
#   Ann [0, 3) PER, Acme [14, 18) ORG, Paris [22, 27) LOC.
# Coder A:  R1 Employer Arg1:Ann Arg2:Acme     R2 Located Arg1:Acme Arg2:Paris
#           R3 Equiv Arg1:Ann Arg2:Paris (a deliberately odd symmetric relation)
# Coder B:  R1 Employer Arg1:Ann Arg2:Acme     R2 Located Arg1:Acme Arg2:Par [22, 25) (short)
#           R3 Equiv Arg1:Paris Arg2:Ann (the other way round)
#           R4 Located Arg1:Ann Arg2:Paris (A has no such relation)
BRAT_LIKE = frame(
    [
        ("doc1", "A", "Employer", (0, 3, "PER"), (14, 18, "ORG")),
        ("doc1", "A", "Located", (14, 18, "ORG"), (22, 27, "LOC")),
        ("doc1", "A", "Equiv", (0, 3, "PER"), (22, 27, "LOC")),
        ("doc1", "B", "Employer", (0, 3, "PER"), (14, 18, "ORG")),
        ("doc1", "B", "Located", (14, 18, "ORG"), (22, 25, "LOC")),
        ("doc1", "B", "Equiv", (22, 27, "LOC"), (0, 3, "PER")),
        ("doc1", "B", "Located", (0, 3, "PER"), (22, 27, "LOC")),
    ]
)


@pytest.mark.parametrize(
    ("kwargs", "matched", "per_label"),
    [
        # exact, directed: only Employer matches. n_a = 3, n_b = 4: F1 = 2/7.
        pytest.param({}, 1, {"Employer": 1, "Located": 0, "Equiv": 0}, id="exact"),
        # Equiv symmetric: B's reversed Equiv matches too. F1 = 4/7.
        pytest.param(
            {"symmetric": {"Equiv"}}, 2, {"Employer": 1, "Located": 0, "Equiv": 1}, id="exact-sym"
        ),
        # overlap: Paris [22, 27) and Par [22, 25) share characters, so Located matches.
        pytest.param(
            {"match": "overlap"}, 2, {"Employer": 1, "Located": 1, "Equiv": 0}, id="overlap"
        ),
        pytest.param(
            {"match": "overlap", "symmetric": {"Equiv"}},
            3,
            {"Employer": 1, "Located": 1, "Equiv": 1},
            id="overlap-sym",
        ),
    ],
)
def test_brat_like_fixture_by_hand(kwargs, matched, per_label):
    kwargs = dict(kwargs)
    match = kwargs.pop("match", "exact")
    table = pa.relation_f1(BRAT_LIKE, match, **kwargs)
    allrow = row(table, ALL)
    assert (allrow["n_a"], allrow["n_b"], allrow["matched"]) == (3, 4, matched)
    assert allrow["precision"] == pytest.approx(matched / 4)
    assert allrow["recall"] == pytest.approx(matched / 3)
    assert allrow["f1"] == pytest.approx(2 * matched / 7)
    n_a = {"Employer": 1, "Located": 1, "Equiv": 1}
    n_b = {"Employer": 1, "Located": 2, "Equiv": 1}
    f1s = []
    for lab, m in per_label.items():
        r = row(table, lab)
        assert (r["n_a"], r["n_b"], r["matched"]) == (n_a[lab], n_b[lab], m)
        f1s.append(2 * m / (n_a[lab] + n_b[lab]))
    macro = row(table, MACRO)
    assert macro["f1"] == pytest.approx(np.mean(f1s))
    assert list(table["label"][:2]) == [ALL, MACRO]


def test_labels_false_compares_across_relation_labels():
    # Without relation labels, B's Located(Ann, Paris) can match A's Equiv(Ann, Paris)
    # (direction kept for all: symmetric=()), so 2 matches of 3 and 4 (Employer and that one).
    table = pa.relation_f1(BRAT_LIKE, labels=False)
    assert table["label"].tolist() == [ALL]
    assert table.iloc[0]["matched"] == 2
    # With symmetric=True every relation is undirected: A's Equiv(Ann, Paris) now has two
    # candidates, B's Equiv(Paris, Ann) and Located(Ann, Paris), and takes one: still 2.
    # With overlapping spans A's Located(Acme, Paris) also matches B's Located(Acme, Par): 3.
    assert pa.relation_f1(BRAT_LIKE, labels=False, symmetric=True).iloc[0]["matched"] == 2
    table = pa.relation_f1(BRAT_LIKE, "overlap", labels=False, symmetric=True)
    assert table.iloc[0]["matched"] == 3


def test_span_labels_false_ignores_span_types():
    # Label Studio-like: region labels differ (ORG vs COMPANY) but offsets agree.
    rel = frame(
        [
            ("task1", "ann1", "works_at", (0, 3, "PER"), (14, 18, "ORG")),
            ("task1", "ann2", "works_at", (0, 3, "PER"), (14, 18, "COMPANY")),
        ]
    )
    assert row(pa.relation_f1(rel), ALL, "ann1", "ann2")["matched"] == 0
    assert row(pa.relation_f1(rel, span_labels=False), ALL, "ann1", "ann2")["matched"] == 1
    # without span labels the head_label and tail_label columns are not needed
    bare = rel.drop(columns=["head_label", "tail_label"])
    assert row(pa.relation_f1(bare, span_labels=False), ALL, "ann1", "ann2")["f1"] == 1.0
    with pytest.raises(ColumnNotFoundError, match="head_label"):
        pa.relation_f1(bare)


def test_webanno_like_three_coders_all_pairs_and_coverage():
    # WebAnno-like dependency layer, three annotators, two sentences as documents.
    # s1: everyone draws nsubj(1->0). s2: a and b draw obj(3->5); c did not see s2.
    rel = frame(
        [
            ("s1", "a", "nsubj", (5, 9, "VERB"), (0, 4, "NOUN")),
            ("s1", "b", "nsubj", (5, 9, "VERB"), (0, 4, "NOUN")),
            ("s1", "c", "nsubj", (5, 9, "VERB"), (0, 4, "NOUN")),
            ("s2", "a", "obj", (3, 7, "VERB"), (10, 15, "NOUN")),
            ("s2", "b", "obj", (3, 7, "VERB"), (10, 15, "NOUN")),
        ]
    )
    table = pa.relation_f1(rel)
    assert [tuple(x) for x in table.loc[table["label"] == ALL, ["coder_a", "coder_b"]].values] == [
        ("a", "b"),
        ("a", "c"),
        ("b", "c"),
    ]
    # Without coverage c is taken to have seen s2: a-c has 2 and 1 relations, 1 matched.
    assert row(table, ALL, "a", "c")["f1"] == pytest.approx(2 / 3)
    cov = [("s1", "a"), ("s1", "b"), ("s1", "c"), ("s2", "a"), ("s2", "b")]
    table = pa.relation_f1(rel, coverage=cov)
    assert row(table, ALL, "a", "c")["f1"] == 1.0
    assert row(table, ALL, "a", "b")[["n_a", "matched"]].tolist() == [2, 2]


def test_coverage_must_include_documents_with_relations():
    with pytest.raises(InvalidParameterError, match="leaves out"):
        pa.relation_f1(BRAT_LIKE, coverage=[("doc1", "A")])


def test_coders_list_adds_a_coder_without_relations():
    table = pa.relation_f1(BRAT_LIKE, coders=["A", "B", "C"])
    r = row(table, ALL, "A", "C")
    assert (r["n_a"], r["n_b"], r["matched"]) == (3, 0, 0)
    assert math.isnan(r["precision"]) and r["recall"] == 0.0 and r["f1"] == 0.0


def test_brateval_semantics_direction_and_types():
    # brateval (CompareRelations, Document.findRelation): type equal, entity1 with entity1,
    # entity2 with entity2; with "-t inexact" entity types are ignored. A reversed relation
    # is a false positive and a false negative: tp 0, fp 1, fn 1.
    rel = frame(
        [
            ("d", "gold", "Part_of", (0, 4, "X"), (10, 14, "Y")),
            ("d", "eval", "Part_of", (10, 14, "Y"), (0, 4, "X")),
        ]
    )
    r = row(pa.relation_f1(rel, span_labels=False), ALL, "eval", "gold")
    assert (r["matched"], r["n_b"] - r["matched"], r["n_a"] - r["matched"]) == (0, 1, 1)


def test_frames_are_not_modified():
    before = BRAT_LIKE.copy(deep=True)
    pa.relation_f1(BRAT_LIKE, "overlap", symmetric={"Equiv"})
    pd.testing.assert_frame_equal(BRAT_LIKE, before)


# ---------------------------------------------------------------------------------------------
# Greedy and optimal


def test_greedy_overlap_can_be_smaller_than_the_largest_matching():
    # A: r1 = (H1 [0, 10), T [50, 55)), r2 = (H2 [8, 10), T)
    # B: s1 = (H [0, 9), T),           s2 = (H' [0, 3), T)
    # Candidates: r1-s1 (overlap 9 + 5), r1-s2 (3 + 5), r2-s1 (1 + 5); r2-s2 none.
    # Greedy takes r1-s1 first (largest overlap): 1 match. The largest matching is
    # {r1-s2, r2-s1}: 2. The docstring says greedy is optimal only when every relation of
    # a group is a candidate for every relation of the other coder; here r2-s2 is not.
    rel = frame(
        [
            ("d", "A", "R", (0, 10, "E"), (50, 55, "E")),
            ("d", "A", "R", (8, 10, "E"), (50, 55, "E")),
            ("d", "B", "R", (0, 9, "E"), (50, 55, "E")),
            ("d", "B", "R", (0, 3, "E"), (50, 55, "E")),
        ]
    )
    assert row(pa.relation_f1(rel, "overlap"), ALL)["matched"] == 1
    assert _largest_matching([(0, 0), (0, 1), (1, 0)]) == 2


# ---------------------------------------------------------------------------------------------
# Brute force from the definition


def _spans_match(s1, s2, match, span_labels):
    if span_labels and s1[2] != s2[2]:
        return False
    if match == "exact":
        return s1[0] == s2[0] and s1[1] == s2[1]
    return min(s1[1], s2[1]) - max(s1[0], s2[0]) > 0


def _overlap(s1, s2):
    return min(s1[1], s2[1]) - max(s1[0], s2[0])


def _candidate(ra, rb, match, labels, span_labels, sym):
    """None, or the overlap score of the best orientation in which ra and rb match."""
    if ra["document"] != rb["document"]:
        return None
    if labels and ra["label"] != rb["label"]:
        return None
    ha = (ra["head_start"], ra["head_end"], ra["head_label"])
    ta = (ra["tail_start"], ra["tail_end"], ra["tail_label"])
    hb = (rb["head_start"], rb["head_end"], rb["head_label"])
    tb = (rb["tail_start"], rb["tail_end"], rb["tail_label"])
    scores = []
    if _spans_match(ha, hb, match, span_labels) and _spans_match(ta, tb, match, span_labels):
        scores.append(_overlap(ha, hb) + _overlap(ta, tb))
    both_sym = sym(ra["label"]) and sym(rb["label"])
    if both_sym and _spans_match(ha, tb, match, span_labels):
        if _spans_match(ta, hb, match, span_labels):
            scores.append(_overlap(ha, tb) + _overlap(ta, hb))
    return max(scores) if scores else None


def _largest_matching(edges):
    """Size of a largest one-to-one matching, by exhaustive search per connected group."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for i, j in edges:
        parent[find(("a", i))] = find(("b", j))
    groups = {}
    for i, j in edges:
        groups.setdefault(find(("a", i)), []).append((i, j))
    total = 0
    for group in groups.values():
        a_nodes = sorted({i for i, _ in group})
        adj = {i: [j for k, j in group if k == i] for i in a_nodes}

        def best(k, used, a_nodes=a_nodes, adj=adj):
            if k == len(a_nodes):
                return 0
            out = best(k + 1, used)
            for j in adj[a_nodes[k]]:
                if j not in used:
                    out = max(out, 1 + best(k + 1, used | {j}))
            return out

        total += best(0, frozenset())
    return total


def brute_force(rel, match, labels, span_labels, symmetric):
    sym = (lambda lab: True) if symmetric is True else (lambda lab: lab in symmetric)
    records = rel.to_dict("records")
    coders = sorted({r["coder"] for r in records})
    out = {}
    for a, b in itertools.combinations(coders, 2):
        ra = [r for r in records if r["coder"] == a]
        rb = [r for r in records if r["coder"] == b]
        edges = []
        for i, x in enumerate(ra):
            for j, y in enumerate(rb):
                score = _candidate(x, y, match, labels, span_labels, sym)
                if score is not None:
                    edges.append((i, j, score))
        largest = _largest_matching([(i, j) for i, j, _ in edges])
        # greedy, pair by pair: larger overlap, then a's head and tail starts, then b's
        order = sorted(
            edges,
            key=lambda e: (
                -e[2],
                ra[e[0]]["head_start"],
                ra[e[0]]["tail_start"],
                rb[e[1]]["head_start"],
                rb[e[1]]["tail_start"],
                e[0],
                e[1],
            ),
        )
        used_a, used_b, taken = set(), set(), []
        for i, j, _ in order:
            if i not in used_a and j not in used_b:
                used_a.add(i)
                used_b.add(j)
                taken.append(i)
        per_label = {}
        for lab in sorted({r["label"] for r in ra + rb}):
            per_label[lab] = (
                sum(r["label"] == lab for r in ra),
                sum(r["label"] == lab for r in rb),
                sum(ra[i]["label"] == lab for i in taken),
            )
        out[(a, b)] = {"largest": largest, "greedy": len(taken), "per_label": per_label}
    return out


def random_relations(seed, n_docs=2, n_coders=3, per_coder=5, width=30):
    rng = random.Random(seed)
    rows = []
    for d in range(n_docs):
        pool = []
        for _ in range(5):
            s = rng.randrange(width)
            pool.append((s, s + rng.randint(1, 6), rng.choice("XY")))
        for c in range(n_coders):
            for _ in range(rng.randint(0, per_coder)):
                h = rng.choice(pool)
                t = rng.choice(pool)
                if rng.random() < 0.3:  # a coder's own variant of a span
                    s = max(0, h[0] + rng.randint(-2, 2))
                    h = (s, s + rng.randint(1, 6), h[2])
                rows.append((f"d{d}", f"c{c}", rng.choice(["R1", "R2", "S"]), h, t))
    rng.shuffle(rows)
    return frame(rows)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("match", ["exact", "overlap"])
@pytest.mark.parametrize(
    ("labels", "span_labels", "symmetric"),
    [
        pytest.param(True, True, (), id="labels-spanlabels"),
        pytest.param(True, False, {"S"}, id="labels-sym"),
        pytest.param(False, True, (), id="nolabels"),
        pytest.param(False, False, True, id="nolabels-allsym"),
    ],
)
@pytest.mark.slow
def test_against_brute_force(seed, match, labels, span_labels, symmetric):
    rel = random_relations(seed)
    table = pa.relation_f1(rel, match, labels=labels, span_labels=span_labels, symmetric=symmetric)
    expected = brute_force(rel, match, labels, span_labels, symmetric)
    for (a, b), exp in expected.items():
        got = row(table, ALL, a, b)
        if match == "exact":
            # exact matching: copy by copy is a largest one-to-one matching
            assert got["matched"] == exp["largest"] == exp["greedy"]
        else:
            assert got["matched"] == exp["greedy"]
            assert exp["greedy"] <= exp["largest"] <= 2 * exp["greedy"]
        if labels:
            for lab, (na, nb, m) in exp["per_label"].items():
                r = row(table, lab, a, b)
                assert (r["n_a"], r["n_b"]) == (na, nb)
                if match == "overlap":
                    assert r["matched"] == m
            assert row(table, ALL, a, b)["n_a"] == sum(v[0] for v in exp["per_label"].values())


@pytest.mark.parametrize("seed", range(8))
def test_greedy_is_largest_when_groups_are_complete(seed):
    # Relations that overlap their partners only as whole groups (every span of a group
    # shares a character with every other span of it): every group of candidates is complete
    # bipartite, so the greedy matching is a largest one.
    rng = random.Random(seed)
    rows = []
    for g in range(6):
        base = 20 * g
        for coder in ("A", "B"):
            for _ in range(rng.randint(0, 3)):
                h = (base + rng.randint(0, 2), base + 5 + rng.randint(0, 2), "E")
                t = (500 + base + rng.randint(0, 2), 505 + base + rng.randint(0, 2), "E")
                rows.append(("d", coder, "R", h, t))
    rel = frame(rows)
    if rel.empty or rel["coder"].nunique() < 2:
        pytest.skip("one coder drew nothing")
    exp = brute_force(rel, "overlap", True, True, ())[("A", "B")]
    assert row(pa.relation_f1(rel, "overlap"), ALL)["matched"] == exp["largest"]


def test_exact_agrees_with_span_f1_on_relations_as_composite_spans():
    # With exact matching a relation is its key; written as a one-character span whose label
    # is the key, span_f1's copy-by-copy matching must give the same counts.
    rel = random_relations(99)
    keyed = pd.DataFrame(
        {
            "document": rel["document"],
            "coder": rel["coder"],
            "start": 0,
            "end": 1,
            "label": rel[COLS[3:4] + COLS[6:]].astype(str).agg("|".join, axis=1),
        }
    )
    spans = pa.span_f1(keyed)
    rels = pa.relation_f1(rel, labels=True)
    for a, b in itertools.combinations(sorted(rel["coder"].unique()), 2):
        assert row(spans, ALL, a, b)["matched"] == row(rels, ALL, a, b)["matched"]


# ---------------------------------------------------------------------------------------------
# Bad input


def test_head_not_in_span_frame_is_named():
    rel = BRAT_LIKE.copy()
    rel.loc[2, ["head_start", "head_end", "head_label"]] = np.nan
    with pytest.raises(InvalidParameterError, match=r"relation 'R2'.*head 'T4' is not in the span"):
        pa.relation_f1(rel)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param(
            {"match": "fuzzy"}, "`match` must be 'exact' or 'overlap', got 'fuzzy'", id="m"
        ),
        pytest.param({"labels": "yes"}, "`labels` must be True or False, got 'yes'", id="labels"),
        pytest.param({"symmetric": "Equiv"}, "`symmetric` must be True, False or", id="sym-str"),
        pytest.param(
            {"labels": False, "symmetric": {"Equiv"}}, "direction must count", id="sym-mixed"
        ),
        pytest.param({"coders": ["A"]}, "leaves out", id="coders"),
    ],
)
def test_bad_parameters(kwargs, message):
    with pytest.raises(InvalidParameterError, match=message):
        pa.relation_f1(BRAT_LIKE, **kwargs)


def test_reserved_and_degenerate_inputs():
    rel = BRAT_LIKE.copy()
    rel.loc[0, "label"] = MACRO
    with pytest.raises(InvalidParameterError, match="summary rows"):
        pa.relation_f1(rel)
    with pytest.raises(InvalidParameterError, match="at least two coders"):
        pa.relation_f1(BRAT_LIKE[BRAT_LIKE["coder"] == "A"])
    bad = BRAT_LIKE.copy()
    bad.loc[0, "head_end"] = 0
    with pytest.raises(InvalidParameterError, match="must end after it starts"):
        pa.relation_f1(bad)
    with pytest.raises(TypeError, match="DataFrame"):
        pa.relation_f1(BRAT_LIKE.to_dict())


# ---------------------------------------------------------------------------------------------
# relation_alpha


def spans_of(rel, extra=()):
    """The span frame behind a relation frame (every head and tail), plus extra spans."""
    heads = rel[["document", "coder", "head_start", "head_end", "head_label"]]
    tails = rel[["document", "coder", "tail_start", "tail_end", "tail_label"]]
    names = ["document", "coder", "start", "end", "label"]
    parts = [heads.set_axis(names, axis=1), tails.set_axis(names, axis=1)]
    if extra:
        parts.append(pd.DataFrame(list(extra), columns=names))
    return pd.concat(parts, ignore_index=True).drop_duplicates(ignore_index=True)


def test_relation_alpha_by_hand():
    # Three spans marked by both coders; A: X->Y Cause, Y->Z Cause; B: X->Y Precedes.
    # Units (X, Y): A Cause, B Precedes; (Y, Z): A Cause, B no relation.
    # Nominal: n = 4, D_o = 4/4, D_e = (2*2*1 + 2*2*1 + 2*1*1) / 12 = 10/12, alpha = -0.2.
    rel = frame(
        [
            ("d", "A", "Cause", (0, 4, "E"), (10, 14, "E")),
            ("d", "A", "Cause", (10, 14, "E"), (20, 25, "E")),
            ("d", "B", "Precedes", (0, 4, "E"), (10, 14, "E")),
        ]
    )
    spans = spans_of(rel, extra=[("d", "B", 20, 25, "E")])
    res = pa.relation_alpha(spans, rel)
    assert res.alpha == pytest.approx(-0.2)
    assert (res.n_pairs, res.n_related, res.n_coders) == (2, 2, 2)
    assert float(res) == res.alpha
    assert res.to_frame().loc[0, "n_pairs"] == 2
    assert res.units["value"].tolist() == ["Cause", "Precedes", "Cause", NO_RELATION]
    # without B's third span the second pair is A's alone: alpha rests on one pair
    res1 = pa.relation_alpha(spans_of(rel), rel)
    assert (res1.n_pairs, res1.n_related) == (1, 2)


def test_relation_alpha_symmetric_and_reversed():
    # B draws the symmetric relation the other way round: agreement once it is symmetric.
    rel = frame(
        [
            ("d", "A", "Equiv", (0, 4, "E"), (10, 14, "E")),
            ("d", "B", "Equiv", (10, 14, "E"), (0, 4, "E")),
            ("d", "A", "Cause", (20, 24, "E"), (30, 34, "E")),
            ("d", "B", "Cause", (20, 24, "E"), (30, 34, "E")),
        ]
    )
    spans = spans_of(rel)
    directed = pa.relation_alpha(spans, rel)
    assert directed.n_related == 3
    undirected = pa.relation_alpha(spans, rel, symmetric={"Equiv"})
    assert undirected.n_related == 2
    assert undirected.alpha == 1.0


def test_relation_alpha_head_not_in_span_frame():
    rel = frame([("d", "A", "Cause", (0, 4, "E"), (10, 14, "E"))] * 1)
    rel = pd.concat([rel, frame([("d", "B", "Cause", (0, 4, "E"), (10, 14, "E"))])])
    rel = rel.reset_index(drop=True)
    spans = spans_of(rel)
    spans = spans[~((spans["coder"] == "B") & (spans["start"] == 0))]
    with pytest.raises(InvalidParameterError, match=r"coder 'B'.*head 'T0' at \[0, 4\) labelled"):
        pa.relation_alpha(spans, rel)


def test_relation_alpha_two_labels_on_one_pair_and_reserved_label():
    rel = frame(
        [
            ("d", "A", "Cause", (0, 4, "E"), (10, 14, "E")),
            ("d", "A", "Precedes", (0, 4, "E"), (10, 14, "E")),
            ("d", "B", "Cause", (0, 4, "E"), (10, 14, "E")),
        ]
    )
    with pytest.raises(InvalidParameterError, match=r"different labels \['Cause', 'Precedes'\]"):
        pa.relation_alpha(spans_of(rel), rel)
    same = rel.copy()
    same.loc[1, "label"] = "Cause"  # the same relation twice counts once
    with pytest.warns(DegenerateDataWarning, match="every pairable value is the same"):
        res = pa.relation_alpha(spans_of(same), same)
    assert res.units["value"].tolist() == ["Cause"] * 2
    assert math.isnan(res.alpha) and "D_e = 0" in res.reason
    bad = rel.copy()
    bad.loc[1, "label"] = NO_RELATION
    with pytest.raises(InvalidParameterError, match="rename that label"):
        pa.relation_alpha(spans_of(bad), bad)


def test_relation_alpha_no_shared_pair():
    rel = frame(
        [
            ("d", "A", "Cause", (0, 4, "E"), (10, 14, "E")),
            ("d", "B", "Cause", (50, 54, "E"), (60, 64, "E")),
        ]
    )
    with pytest.raises(NoPairableUnitsError):
        pa.relation_alpha(spans_of(rel), rel)


def brute_alpha_units(spans, rel, span_labels, symmetric):
    """units[(doc, head key, tail key)][coder] = value, from the definition."""

    def key(s, e, lab):
        return (s, e, lab if span_labels else None)

    marked = {}
    for r in spans.to_dict("records"):
        marked.setdefault((r["document"], r["coder"]), set()).add(
            key(r["start"], r["end"], r["label"])
        )
    given = {}
    for r in rel.to_dict("records"):
        h = key(r["head_start"], r["head_end"], r["head_label"])
        t = key(r["tail_start"], r["tail_end"], r["tail_label"])
        if r["label"] in symmetric and (t[0], t[1], str(t[2])) < (h[0], h[1], str(h[2])):
            h, t = t, h
        given[(r["document"], h, t, r["coder"])] = r["label"]
    units = {}
    coders = sorted(spans["coder"].unique())
    for doc, h, t, _ in given:
        units.setdefault((doc, h, t), {})
    for (doc, h, t), values in units.items():
        for c in coders:
            have = marked.get((doc, c), set())
            if h in have and t in have:
                values[c] = given.get((doc, h, t, c), NO_RELATION)
    return units, coders


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("span_labels", [True, False])
def test_relation_alpha_against_krippendorff(seed, span_labels):
    krippendorff = pytest.importorskip("krippendorff")
    rng = random.Random(seed)
    span_rows, rel_rows = [], []
    for d in range(3):
        pool = [(5 * k, 5 * k + 3, rng.choice("XY")) for k in range(6)]
        for c in ("A", "B", "C"):
            mine = [s for s in pool if rng.random() < 0.8]
            span_rows += [(f"d{d}", c, s, e, lab) for s, e, lab in mine]
            pairs = {}
            for _ in range(rng.randint(0, 6)):
                if len(mine) >= 2:
                    h, t = rng.sample(mine, 2)
                    pairs[(h, t)] = rng.choice(["Cause", "Part", "Sym"])
            rel_rows += [(f"d{d}", c, lab, h, t) for (h, t), lab in pairs.items()]
    spans = pd.DataFrame(span_rows, columns=["document", "coder", "start", "end", "label"])
    rel = frame(rel_rows)
    symmetric = {"Sym"}
    units, coders = brute_alpha_units(spans, rel, span_labels, symmetric)
    # one value per coder and ordered pair, or the function refuses (checked elsewhere)
    try:
        res = pa.relation_alpha(spans, rel, span_labels=span_labels, symmetric=symmetric)
    except InvalidParameterError as exc:
        assert "different labels" in str(exc)
        return
    except NoPairableUnitsError:
        assert all(len(v) < 2 for v in units.values())
        return
    values = sorted({v for u in units.values() for v in u.values()})
    code = {v: k for k, v in enumerate(values)}
    data = np.full((len(coders), len(units)), np.nan)
    for j, u in enumerate(units.values()):
        for c, v in u.items():
            data[coders.index(c), j] = code[v]
    pairable = sum(len(u) >= 2 for u in units.values())
    assert res.n_pairs == pairable
    assert res.n_related == len(units)
    if len(values) < 2:
        assert math.isnan(res.alpha)
        return
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert res.alpha == pytest.approx(expected, abs=1e-12)
