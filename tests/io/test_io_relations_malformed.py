"""Malformed relations: ReaderError naming the file and line (or the JSON path).

brat standoff (https://brat.nlplab.org/standoff.html): relation arguments and event
triggers and arguments are ids of annotations of the same ``.ann``; a relation has exactly
two arguments; an event nested in itself has no meaning (it would be its own participant).
Label Studio JSON: ``from_id`` / ``to_id`` are region ids of the same annotation. WebAnno
TSV 3.3: the governor column names a unit of the file, with ``[governor_dependent]``
disambiguation ids of annotations of the relation layer's base type.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pandas_agree import io
from pandas_agree.errors import InvalidParameterError, ReaderError

DATA = Path(__file__).resolve().parents[1] / "data" / "io"
TEXT = "Acme bought Beta in Paris."
SPANS = "T1\tORG 0 4\tAcme\nT2\tBuy 5 11\tbought\nT3\tORG 12 16\tBeta\n"


@pytest.mark.parametrize(
    "extra, line, message",
    [
        pytest.param(
            "R1\tOwns Arg1:T1 Arg2:T9\n",
            4,
            "relation R1: argument T9 is not an annotation",
            id="r-missing",
        ),
        pytest.param(
            "R1\tOwns Arg1:T1\n",
            4,
            "relation R1 needs '<type> Arg1:<id> Arg2:<id>'",
            id="r-one-arg",
        ),
        pytest.param(
            "R1\tOwns Arg1:T1 T3\n", 4, "relation R1: expected 'Role:ID', got 'T3'", id="r-no-role"
        ),
        pytest.param(
            "E1\tBuy:T8 Buyer:T1\n",
            4,
            "event E1: its trigger T8 is not a text-bound",
            id="e-trigger",
        ),
        pytest.param(
            "E1\tBuy Buyer:T1\n", 4, "event E1: expected 'Role:ID', got 'Buy'", id="e-no-trigger"
        ),
        pytest.param(
            "E1\tBuy:T2 Theme:T7\n", 4, "event E1: argument T7 is not an annotation", id="e-arg"
        ),
        pytest.param(
            "E1\tBuy:T2 Theme:E5\n", 4, "event E1: argument E5 is not an annotation", id="e-event"
        ),
        pytest.param(
            "E1\tBuy:T2 Theme:E2\nE2\tBuy:T2 Theme:E1\n",
            5,  # found while following E1 -> E2: E2's argument E1 is still open
            "event E2 takes event E1 as an argument, which leads back to E2",
            id="e-cycle",
        ),
        pytest.param("E1\tBuy:T2 Theme:E1\n", 4, "leads back to E1", id="e-self"),
        pytest.param(
            "*\tEquiv T1 T6\n", 4, "equivalence *: argument T6 is not an annotation", id="equiv"
        ),
        pytest.param(
            "T1\tORG 12 16\tBeta\n",
            4,
            "annotation id T1 is used twice (first on line 1)",
            id="dup-id",
        ),
        pytest.param(
            "E1\tBuy:T2\nE1\tBuy:T2\n",
            5,
            "event id E1 is used twice (first on line 4)",
            id="dup-event",
        ),
    ],
)
def test_brat(extra, line, message, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "d.txt").write_text(TEXT, encoding="utf-8")
    ann = tmp_path / "a" / "d.ann"
    ann.write_text(SPANS + extra, encoding="utf-8")
    with pytest.raises(ReaderError) as info:
        io.read_brat(tmp_path, relations=True)
    assert info.value.file == str(ann) and info.value.line == line
    assert message in str(info.value), str(info.value)


def _ls(tmp_path, relation, **extra):
    value = {"start": 0, "end": 4, "text": "Acme", "labels": ["ORG"]}
    result = [
        {"id": "a", "from_name": "label", "type": "labels", "value": value},
        {"id": "m", "from_name": "mood", "type": "choices", "value": {"choices": ["ok"]}},
        {"type": "relation", **relation},
    ]
    task = {"id": 1, "data": {"text": TEXT}, "annotations": [{"completed_by": 1, "result": result}]}
    path = tmp_path / "x.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "relation, message",
    [
        pytest.param(
            {"from_id": "a", "to_id": "zz"}, r"result\[2\]\.to_id: no region 'zz'", id="missing"
        ),
        pytest.param(
            {"from_id": "m", "to_id": "a"},
            r"result\[2\]\.from_id: region 'm' is a 'choices' result of 'mood', not a span",
            id="not-a-span",
        ),
        pytest.param({"to_id": "a"}, r"result\[2\]: missing 'from_id'", id="no-from"),
        pytest.param(
            {"from_id": "a", "to_id": "a", "direction": "up"},
            r"direction must be 'right', 'left' or 'bi', got 'up'",
            id="direction",
        ),
    ],
)
def test_label_studio(relation, message, tmp_path):
    path = _ls(tmp_path, relation)
    with pytest.raises(ReaderError, match=message) as info:
        io.read_label_studio(path, relations=True)
    assert info.value.file == str(path)


def test_label_studio_other_cases(tmp_path):
    path = _ls(tmp_path, {"from_id": "a", "to_id": "a"})
    # a span read under another from_name is not read, so the relation cannot be placed
    with pytest.raises(
        InvalidParameterError, match="`relations` links spans: it needs kind='spans'"
    ):
        io.read_label_studio(path, kind="choices", from_name="mood", relations=True)
    rec = {"id": 1, "text": TEXT, "annotator": 1, "annotation_id": 1}
    mini = tmp_path / "min.json"
    mini.write_text(json.dumps([rec]), encoding="utf-8")
    with pytest.raises(ReaderError, match="a JSON_MIN export holds no relations"):
        io.read_label_studio(mini, relations=True)


HEAD = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n"
    "#T_RL=webanno.custom.Link|kind|BT_de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity\n"
    "\n\n#Text=Acme bought Beta\n"
)


@pytest.mark.parametrize(
    "rows, line, message",
    [
        pytest.param(
            ["*\tORG\t_\t_", "_\t_\t_\t_", "*\tORG\towns\t1-1[0_4]"],
            9,
            "relation dependent [4] on 1-3: no annotation of the layer has the id [4]",
            id="dependent-id",
        ),
        pytest.param(
            ["*\tORG\t_\t_", "_\t_\t_\t_", "*\tORG\towns\t1-2"],
            9,
            "relation governor 1-2: no annotation of the layer without an id there",
            id="governor-empty",
        ),
        pytest.param(
            ["*\tORG\t_\t_", "_\t_\t_\t_", "*\tORG\towns\t1-7"],
            9,
            "relation governor 1-7: no such token",
            id="no-token",
        ),
        pytest.param(
            ["*\tORG\t_\t_", "_\t_\t_\t_", "*\tORG\towns|x\t1-1"],
            9,
            "do not pair up",
            id="stack-count",
        ),
        pytest.param(
            ["*\tORG\t_\t_", "_\t_\t_\t_", "*\tORG\towns\tT1"],
            9,
            "bad governor reference 'T1'",
            id="bad-ref",
        ),
        pytest.param(
            ["*\tORG\t_\t_", "_\t_\t_\t_", "*[1]|*[2]\tORG[1]|PER[2]\towns\t1-1"],
            9,
            "relation dependent 1-3: no annotation of the layer without an id there",
            id="ambiguous",
        ),
    ],
)
def test_webanno(rows, line, message, tmp_path):
    tokens = ["1-1\t0-4\tAcme", "1-2\t5-11\tbought", "1-3\t12-16\tBeta"]
    path = tmp_path / "d" / "a.tsv"
    path.parent.mkdir()
    path.write_text(HEAD + "".join(f"{t}\t{r}\t\n" for t, r in zip(tokens, rows)), encoding="utf-8")
    with pytest.raises(ReaderError) as info:
        io.read_webanno_tsv(path, relation_layer="Link")
    assert info.value.file == str(path) and info.value.line == line
    assert message in str(info.value), str(info.value)


def test_webanno_parameters(tmp_path):
    path = tmp_path / "d" / "a.tsv"
    path.parent.mkdir()
    path.write_text(HEAD + "1-1\t0-4\tAcme\t*\tORG\t_\t_\t\n", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"`relation_layer` 'Nope': no relation layer"):
        io.read_webanno_tsv(path, relation_layer="Nope")
    with pytest.raises(InvalidParameterError, match=r"`relation_feature` 'x' is not a feature"):
        io.read_webanno_tsv(path, relation_layer="Link", relation_feature="x")
    with pytest.raises(InvalidParameterError, match=r"`relation_feature` 'kind' needs"):
        io.read_webanno_tsv(path, relation_feature="kind")
    # INCEpTION's Dependency layer links POS annotations and has two features
    fixdoc = DATA / "webanno" / "fixdoc" / "alice.tsv"
    with pytest.raises(
        InvalidParameterError, match=r"links annotations of .*pos\.POS, but `layer`"
    ):
        io.read_webanno_tsv(fixdoc, relation_layer="Dependency", relation_feature="flavor")
    with pytest.raises(
        InvalidParameterError, match=r"one of \['DependencyType', 'flavor'\], got None"
    ):
        io.read_webanno_tsv(fixdoc, layer="POS", feature="PosValue", relation_layer="Dependency")
