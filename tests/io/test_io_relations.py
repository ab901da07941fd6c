"""Relations read as a tidy frame: brat R, E and * lines, Label Studio relation results,
WebAnno / INCEpTION relation layers.

Formats:

* brat standoff (https://brat.nlplab.org/standoff.html): ``R1<TAB>Type Arg1:T1 Arg2:T2``
  (brat's parser takes the first argument as arg1, the second as arg2);
  ``E1<TAB>Type:T2 Role:T1 Role2:T3`` (an event's trigger and arguments; brat numbers the
  2nd, 3rd ... argument of a repeated role, and a role ending in a digit cannot be repeated:
  brat's projectconfig.py); ``*<TAB>Equiv T1 T2 T3`` (an equivalence class).
* Label Studio JSON (https://labelstud.io/guide/export.html): ``{"type": "relation",
  "from_id", "to_id", "direction": "right" | "left" | "bi", "labels": [...]}`` between the
  region ids of one annotation.
* WebAnno TSV 3.3 (user guide, "Relation Annotations" and "Disambiguation IDs"): a
  relation sits on the dependent's row; its last column is the governor's unit id, with
  ``[governor_dependent]`` disambiguation ids when an endpoint is ambiguous (0: the one
  annotation without an id).

The fixtures under tests/fixtures/io/relations are hand-made; the expected rows are worked out
by hand in the comments. Random differential tests write exports from the definitions and
compare with a join written here.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from definitions import FIXTURES, RELATION_FRAME_COLUMNS

from pandas_agree import io
from pandas_agree.spans.relations import relation_f1 as io_relation_f1

DATA = FIXTURES / "io" / "relations"
COLUMNS = RELATION_FRAME_COLUMNS


def rows(frame):
    return [tuple(r) for r in frame[COLUMNS].itertuples(index=False, name=None)]


def check_schema(result, id_column):
    spans, relations = result  # a NamedTuple unpacks
    assert isinstance(result, io.SpansAndRelations)
    assert result.spans is spans and result.relations is relations
    assert list(relations.columns) == COLUMNS
    for col in ("head_start", "head_end", "tail_start", "tail_end"):
        assert relations[col].dtype == np.int64
    assert relations.index.equals(pd.RangeIndex(len(relations)))
    assert relations.attrs["coverage"] == spans.attrs["coverage"]
    # every head and tail is an annotation of the span frame, with its offsets and label
    for end in ("head", "tail"):
        for doc, coder, ident, start, stop in relations[
            ["document", "coder", end, f"{end}_start", f"{end}_end"]
        ].itertuples(index=False):
            own = spans[
                (spans["document"] == doc) & (spans["coder"] == coder) & (spans[id_column] == ident)
            ]
            assert len(own) and own["start"].min() == start and own["end"].max() == stop


def test_brat_fixture_every_row():
    # alice: T1 Acme ORG 0-4, T2 bought Buy 5-11, T3 Beta ORG 12-16, T4 Gamma ORG 21-26,
    # T5 Paris LOC 30-35, T6 "Beta ... Gamma" ORG 12-16;21-26 (discontinuous: 12-26).
    # E1 Buy:T2 Buyer:T1 Theme:T3 Theme2:T4 Place:T5 -> four relations from the trigger
    # T2, Theme2 labelled Theme (a repeated role); R1 Located T1 -> T5; "* Equiv T3 T6 T4"
    # (line 9) -> the pairs T3-T6, T3-T4, T6-T4 in written order; E2 Buy:T2 Arg1:E1 -> from
    # T2 to E1's trigger T2, labelled Arg1 (kept: there is no "Arg" role). bob: R2 Owns
    # T1 -> T2, R1 Located T1 -> T3. Sorted by head and tail offsets.
    result = io.read_brat(DATA / "brat", relations=True)
    check_schema(result, "annotation")
    a, b = "alice", "bob"
    assert rows(result.relations) == [
        ("news", a, "R1", "Located", "T1", "T5", 0, 4, "ORG", 30, 35, "LOC"),
        ("news", a, "E1:Buyer", "Buyer", "T2", "T1", 5, 11, "Buy", 0, 4, "ORG"),
        ("news", a, "E2:Arg1", "Arg1", "T2", "T2", 5, 11, "Buy", 5, 11, "Buy"),
        ("news", a, "E1:Theme", "Theme", "T2", "T3", 5, 11, "Buy", 12, 16, "ORG"),
        ("news", a, "E1:Theme2", "Theme", "T2", "T4", 5, 11, "Buy", 21, 26, "ORG"),
        ("news", a, "E1:Place", "Place", "T2", "T5", 5, 11, "Buy", 30, 35, "LOC"),
        ("news", a, "*9:T3-T6", "Equiv", "T3", "T6", 12, 16, "ORG", 12, 26, "ORG"),
        ("news", a, "*9:T3-T4", "Equiv", "T3", "T4", 12, 16, "ORG", 21, 26, "ORG"),
        ("news", a, "*9:T6-T4", "Equiv", "T6", "T4", 12, 26, "ORG", 21, 26, "ORG"),
        ("news", b, "R2", "Owns", "T1", "T2", 0, 4, "ORG", 12, 16, "ORG"),
        ("news", b, "R1", "Located", "T1", "T3", 0, 4, "ORG", 30, 35, "LOC"),
    ]
    # the span frame is the one read without relations
    pd.testing.assert_frame_equal(result.spans, io.read_brat(DATA / "brat"))


def test_label_studio_fixture_every_row():
    # coder 1: regions a Acme ORG 0-4, b Beta ORG 12-16, c Paris LOC 20-25; a -> b right
    # "Owns"; c -> a left "Located" (the arrow points from a to c); b -> a "bi" without a
    # label (no direction: the span first in the text, a, is the head). coder 2: region d
    # Acme with two labels (head_label the frozenset of both), d -> e right with two labels
    # (one row each).
    result = io.read_label_studio(DATA / "label_studio.json", relations=True)
    check_schema(result, "annotation")
    both = frozenset({"ORG", "PER"})
    assert rows(result.relations) == [
        (1, 1, "a->b", "Owns", "a", "b", 0, 4, "ORG", 12, 16, "ORG"),
        (1, 1, "b->a", "(unlabeled)", "a", "b", 0, 4, "ORG", 12, 16, "ORG"),
        (1, 1, "c->a", "Located", "a", "c", 0, 4, "ORG", 20, 25, "LOC"),
        (1, 2, "d->e", "Located", "d", "e", 0, 4, both, 20, 25, "LOC"),
        (1, 2, "d->e", "Near", "d", "e", 0, 4, both, 20, 25, "LOC"),
    ]
    pd.testing.assert_frame_equal(result.spans, io.read_label_studio(DATA / "label_studio.json"))


def test_webanno_fixture_every_row():
    # alice: Acme ORG on 1-1 (no id), Beta ORG[1]|PER[2] stacked on 1-3, New York LOC[3]
    # on 1-5..1-6. Relations (layer webanno.custom.Link, feature kind): on 1-1 "near" from
    # 1-5[3_0] (governor [3], dependent the one plain annotation on 1-1); on 1-3 "owns"
    # from 1-1[0_1] (to ORG[1]); on 1-5 stacked "loc|loc2" from 1-1[0_3] and 1-3[2_3].
    # bob: Acme and Beta unambiguous, "owns" on 1-3 from 1-1.
    result = io.read_webanno_tsv(DATA / "webanno", relation_layer="Link")
    check_schema(result, "annotation")
    a, b = "alice", "bob"
    assert rows(result.relations) == [
        ("news", a, "1-3/1", "owns", "1-1", "1", 0, 4, "ORG", 12, 16, "ORG"),
        ("news", a, "1-5/1", "loc", "1-1", "3", 0, 4, "ORG", 20, 28, "LOC"),
        ("news", a, "1-5/2", "loc2", "2", "3", 12, 16, "PER", 20, 28, "LOC"),
        ("news", a, "1-1/1", "near", "3", "1-1", 20, 28, "LOC", 0, 4, "ORG"),
        ("news", b, "1-3/1", "owns", "1-1", "1-3", 0, 4, "ORG", 12, 16, "ORG"),
    ]
    full = io.read_webanno_tsv(
        DATA / "webanno", relation_layer="webanno.custom.Link", relation_feature="kind"
    )
    pd.testing.assert_frame_equal(full.relations, result.relations)
    pd.testing.assert_frame_equal(result.spans, io.read_webanno_tsv(DATA / "webanno"))


def test_inception_dependency_layer_on_pos():
    # tests/fixtures/io/webanno/fixdoc/alice.tsv: Dependency|DependencyType|flavor|BT_...POS,
    # "nsubj  *  1-2" on token 1-4: met (VERB, 4-7) governs Anna (PROPN, 10-14).
    _, rels = io.read_webanno_tsv(
        DATA.parent / "webanno" / "fixdoc" / "alice.tsv",
        layer="POS",
        feature="PosValue",
        relation_layer="Dependency",
        relation_feature="DependencyType",
    )
    assert rows(rels) == [
        ("fixdoc", "alice", "1-4/1", "nsubj", "1-2", "1-4", 4, 7, "VERB", 10, 14, "PROPN")
    ]


@pytest.mark.parametrize("seed", range(6))
def test_brat_random_differential(seed, tmp_path):
    rng = np.random.default_rng(seed)
    text = "".join(rng.choice([*"abc de", "é", "\U0001f600"], size=60))
    expected = []
    for coder in ("c1", "c2"):
        (tmp_path / coder).mkdir()
        (tmp_path / coder / "d.txt").write_text(text, encoding="utf-8")
        anns, lines = {}, []
        for k in range(1, int(rng.integers(2, 8))):
            cuts = sorted(rng.choice(60, size=2 * int(rng.integers(1, 3)), replace=False))
            frags = [(int(x), int(y)) for x, y in zip(cuts[::2], cuts[1::2])]
            label = str(rng.choice(["A", "B"]))
            anns[f"T{k}"] = (min(f[0] for f in frags), max(f[1] for f in frags), label)
            offsets = ";".join(f"{x} {y}" for x, y in frags)
            covered = " ".join(text[x:y] for x, y in frags)
            lines.append(f"T{k}\t{label} {offsets}\t{covered}")
        ids = list(anns)
        for r in range(1, int(rng.integers(1, 6))):
            h, t = (str(x) for x in rng.choice(ids, size=2))
            label = str(rng.choice(["R", "S"]))
            lines.insert(int(rng.integers(0, len(lines) + 1)), f"R{r}\t{label} Arg1:{h} Arg2:{t}")
            expected.append(("d", coder, f"R{r}", label, h, t, *anns[h], *anns[t]))
        (tmp_path / coder / "d.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _, relations = io.read_brat(tmp_path, relations=True)
    got = rows(relations)
    assert sorted(got, key=repr) == sorted(expected, key=repr)
    assert [(r[0], r[1], r[6], r[7], r[9], r[10]) for r in got] == sorted(
        (r[0], r[1], r[6], r[7], r[9], r[10]) for r in got
    )


@pytest.mark.parametrize("seed", range(6))
def test_label_studio_random_differential(seed, tmp_path):
    rng = np.random.default_rng(100 + seed)
    text = "".join(rng.choice([*"abc de", "中"], size=40))
    anns, expected = [], []
    for coder in (1, 2, 3):
        regions, result = {}, []
        for k in range(int(rng.integers(2, 6))):
            a = int(rng.integers(0, 39))
            b = int(rng.integers(a + 1, 41))
            label = str(rng.choice(["A", "B"]))
            rid = f"{coder}-{k}"
            regions[rid] = (a, b, label)
            value = {"start": a, "end": b, "text": text[a:b], "labels": [label]}
            result.append({"id": rid, "from_name": "l", "type": "labels", "value": value})
        ids = list(regions)
        for _ in range(int(rng.integers(0, 5))):
            f, t = (str(x) for x in rng.choice(ids, size=2, replace=False))
            direction = str(rng.choice(["right", "left"]))
            label = str(rng.choice(["R", "S"]))
            result.append(
                {
                    "from_id": f,
                    "to_id": t,
                    "type": "relation",
                    "direction": direction,
                    "labels": [label],
                }
            )
            h, t2 = (f, t) if direction == "right" else (t, f)
            expected.append((1, coder, f"{f}->{t}", label, h, t2, *regions[h], *regions[t2]))
        anns.append({"completed_by": coder, "result": result})
    path = tmp_path / "x.json"
    path.write_text(json.dumps([{"id": 1, "data": {"text": text}, "annotations": anns}]), "utf-8")
    _, relations = io.read_label_studio(path, relations=True)
    assert sorted(rows(relations), key=repr) == sorted(expected, key=repr)


def test_no_relations_gives_an_empty_frame_with_the_schema(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "d.ann").write_text("T1\tX 0 2\tab\n", encoding="utf-8")
    spans, relations = io.read_brat(tmp_path, relations=True)
    assert len(relations) == 0 and list(relations.columns) == COLUMNS
    assert relations["head_start"].dtype == np.int64
    assert relations.attrs["coverage"] == (("d", "a"),)
    pd.testing.assert_frame_equal(spans, io.read_brat(tmp_path))


def test_label_studio_relation_without_labels_is_measurable(tmp_path):
    """A labelling config without relation labels gives relations with no ``labels``: they
    read as "(unlabeled)", so relation F1 compares them (both coders relate Anna -> Bob)."""
    import json

    def result(coder, ids):
        head, tail = ids
        spans = [
            {
                "id": head,
                "from_name": "l",
                "to_name": "t",
                "type": "labels",
                "value": {"start": 0, "end": 4, "text": "Anna", "labels": ["PER"]},
            },
            {
                "id": tail,
                "from_name": "l",
                "to_name": "t",
                "type": "labels",
                "value": {"start": 9, "end": 12, "text": "Bob", "labels": ["PER"]},
            },
            {"from_id": head, "to_id": tail, "type": "relation", "direction": "right"},
        ]
        return {"id": coder * 10, "completed_by": coder, "result": spans}

    tasks = [
        {
            "id": 1,
            "data": {"text": "Anna met Bob here"},
            "annotations": [result(1, "ab"), result(2, "cd")],
        }
    ]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    _, rel = io.read_label_studio(path, relations=True)
    assert rel["label"].tolist() == ["(unlabeled)", "(unlabeled)"]
    f1 = io_relation_f1(rel)
    assert f1.loc[f1["label"] == "(all)", "f1"].tolist() == [1.0]
