"""pandas_agree.io: Label Studio (JSON, JSON_MIN) and doccano / Prodigy JSONL readers.

Fixtures under tests/fixtures/io were written for these tests following each tool's documented
format:

* Label Studio JSON: https://labelstud.io/guide/export.html and the task format page
  ("id", "data", "annotations" with "completed_by", "was_cancelled", "result"; span results
  of type "labels" with value start/end/text/labels; "choices" and "taxonomy" results).
* Label Studio JSON_MIN: label-studio-sdk ``Converter.convert_to_json_min`` (one record per
  annotation: the task data, "id", one key per control, "annotator" = user id or email,
  "annotation_id"; a single choice is stored as the bare string, several as
  {"choices": [...]}; span controls as lists of {start, end, text, labels}).
* doccano JSONL: sequence labeling export ("label": [[start, end, label]]), the
  relation-enabled export ("entities": [{start_offset, end_offset, label}]) and text
  classification ("label": [labels]); one file per user.
* Prodigy JSONL (``prodigy db-out``): "spans" [{start, end, label, token_start,
  token_end}], "answer", "_input_hash", "_annotator_id", choice answers in "accept".

Round trips are checked row by row; random differential tests write each format from its
definition and compare the frame with the spans written.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from definitions import FIXTURES

from pandas_agree import io
from pandas_agree.errors import InvalidParameterError, ReaderError

DATA = FIXTURES / "io"
EMOJI = "\U0001f600"
T1 = "Zoë met 😀 Anna in Köln."


def rows(frame: pd.DataFrame, columns: list[str]) -> list[tuple]:
    return [tuple(r) for r in frame[columns].itertuples(index=False, name=None)]


# ---------------------------------------------------------------------------------------
# Label Studio


def test_label_studio_json_every_row():
    # Task 101: annotation 1 by user 7 (a region with two labels gives two rows), annotation
    # 2 by an expanded user (coder = email; one span in a second control "label2"),
    # annotation 3 cancelled (not read); task 102: user 7, no result (coverage only). The
    # emoji makes Python offsets differ from UTF-16 ones: "Anna" is 10-14.
    frame = io.read_label_studio(DATA / "label_studio" / "export.json")
    assert list(frame.columns) == [
        "document",
        "coder",
        "start",
        "end",
        "label",
        "text",
        "from_name",
        "submission",
        "annotation",
    ]
    assert rows(frame, list(frame.columns)) == [
        (101, 7, 0, 3, "PER", "Zoë", "label", 1, "a"),
        (101, 7, 10, 14, "ORG", "Anna", "label", 1, "b"),
        (101, 7, 10, 14, "PER", "Anna", "label", 1, "b"),
        (101, 7, 18, 22, "LOC", "Köln", "label", 1, "c"),
        (101, "b@example.org", 10, 14, "PER", "Anna", "label", 2, "d"),
        (101, "b@example.org", 18, 22, "LOC", "Köln", "label2", 2, "e"),
    ]
    for start, end, text in rows(frame, ["start", "end", "text"]):
        assert T1[start:end] == text
    assert set(frame.attrs["coverage"]) == {(101, 7), (101, "b@example.org"), (102, 7)}
    assert frame["start"].dtype == np.int64 and frame["document"].dtype == object
    only = io.read_label_studio(DATA / "label_studio" / "export.json", from_name="label2")
    assert rows(only, ["coder", "start", "label"]) == [("b@example.org", 18, "LOC")]


def test_label_studio_json_min_matches_json():
    # The JSON_MIN file holds the same annotations: the same frame except the region ids,
    # which JSON_MIN does not keep.
    full = io.read_label_studio(DATA / "label_studio" / "export.json")
    mini = io.read_label_studio(DATA / "label_studio" / "export_min.json")
    assert mini["annotation"].isna().all()
    pd.testing.assert_frame_equal(full.drop(columns="annotation"), mini.drop(columns="annotation"))
    assert set(mini.attrs["coverage"]) == set(full.attrs["coverage"])
    explicit = io.read_label_studio(DATA / "label_studio" / "export_min.json", export="json_min")
    pd.testing.assert_frame_equal(mini, explicit)


@pytest.mark.parametrize("name", ["export.json", "export_min.json"])
def test_label_studio_choices_and_taxonomy(name):
    path = DATA / "label_studio" / name
    single = io.read_label_studio(path, kind="choices", from_name="sentiment")
    assert list(single.columns) == ["unit", "coder", "value", "submission"]
    assert rows(single, ["unit", "coder", "value", "submission"]) == [
        (101, 7, "positive", 1),
        (101, "b@example.org", "negative", 2),
    ]
    many = io.read_label_studio(path, kind="choices", from_name="topics", multiple=True)
    assert many["value"].tolist() == [frozenset({"travel", "people"}), frozenset({"travel"})]
    with pytest.raises(ReaderError, match=r"2 choices .* but `multiple` is False"):
        io.read_label_studio(path, kind="choices", from_name="topics")
    tax = io.read_label_studio(path, kind="taxonomy", from_name="place", multiple=True)
    assert tax["value"].tolist() == [frozenset({"Place/City"}), frozenset({"Place/City", "Person"})]
    tax = io.read_label_studio(
        path, kind="taxonomy", from_name="place", multiple=True, path_sep=" > "
    )
    assert tax["value"].tolist()[1] == frozenset({"Place > City", "Person"})
    with pytest.raises(ReaderError, match=r"taxonomy label 'Place' contains `path_sep` 'a'"):
        io.read_label_studio(path, kind="taxonomy", from_name="place", path_sep="a")
    with pytest.raises(InvalidParameterError, match=r"`from_name` 'nope' names no choices control"):
        io.read_label_studio(path, kind="choices", from_name="nope")


def test_label_studio_from_name_rules():
    path = DATA / "label_studio" / "export.json"
    with pytest.raises(
        InvalidParameterError,
        match=r"`from_name` must name one of the choices controls \['sentiment', 'topics'\]",
    ):
        io.read_label_studio(path, kind="choices", multiple=True)
    only = io.read_label_studio(path, kind="taxonomy", multiple=True)  # one taxonomy control
    assert len(only) == 2
    with pytest.raises(InvalidParameterError, match=r"`from_name` must name the choices control"):
        io.read_label_studio(DATA / "label_studio" / "export_min.json", kind="choices")
    with pytest.raises(InvalidParameterError, match=r"`from_name` 'x' names no span .*'label2'"):
        io.read_label_studio(path, from_name="x")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        pytest.param({"kind": "span"}, r"`kind` must be one of \['spans', .*got 'span'", id="kind"),
        pytest.param({"export": "csv"}, r"`export` must be one of .*got 'csv'", id="export"),
        pytest.param({"multiple": 1}, r"`multiple` must be True or False, got 1", id="multiple"),
        pytest.param({"path_sep": ""}, r"`path_sep` must be a non-empty", id="sep"),
        pytest.param(
            {"from_name": 3}, r"`from_name` must be a control name or None, got 3", id="fn"
        ),
    ],
)
def test_label_studio_bad_parameters(kwargs, message):
    with pytest.raises(InvalidParameterError, match=message):
        io.read_label_studio(DATA / "label_studio" / "export.json", **kwargs)


def _task(result, **ann):
    return {
        "id": 5,
        "data": {"text": "abc"},
        "annotations": [{"completed_by": 1, "result": result, **ann}],
    }


def _lab(**value):
    return {"id": "r", "from_name": "l", "type": "labels", "value": value}


@pytest.mark.parametrize(
    "content, message",
    [
        pytest.param("[{]", r"line 1: not valid JSON", id="json"),
        pytest.param('[\n{"id": 1,\n "data": }]', r"line 3: not valid JSON", id="json-line3"),
        pytest.param('"abc"', r"line 1: a Label Studio export is a JSON list", id="scalar"),
        pytest.param(json.dumps([3]), r"\[0\]: a task must be a JSON object", id="task"),
        pytest.param(json.dumps([{"id": 1}]), r"\[0\]: neither a JSON task", id="neither"),
        pytest.param(
            json.dumps([_task([_lab(start=0, end=1, labels=["A"])]), {"id": 1, "annotator": 2}]),
            "mixes JSON tasks and JSON_MIN records",
            id="mixed",
        ),
        pytest.param(
            json.dumps([{"id": 5, "annotations": [{"result": []}]}]),
            r"\[0\].annotations\[0\]: missing 'completed_by'",
            id="no-coder",
        ),
        pytest.param(
            json.dumps([_task([_lab(start="0", end=1, labels=["A"])])]),
            r"\[0\].annotations\[0\].result\[0\].value.start must be a non-negative integer",
            id="str-start",
        ),
        pytest.param(
            json.dumps([_task([_lab(start=2, end=1, labels=["A"])])]),
            r"start 2 is after end 1",
            id="reversed",
        ),
        pytest.param(
            json.dumps([_task([_lab(start=0, end=1, labels="A")])]),
            r"value.labels must be a list",
            id="labels",
        ),
        pytest.param(
            json.dumps([_task([{"id": "r", "type": "labels", "from_name": "l"}])]),
            r"result\[0\]: missing 'value'",
            id="no-value",
        ),
        pytest.param(
            json.dumps([_task("x")]), r"annotations\[0\].result must be a list", id="result"
        ),
    ],
)
def test_label_studio_malformed(content, message, tmp_path):
    path = tmp_path / "export.json"
    path.write_text(content, encoding="utf-8")
    # JSON syntax errors name the line; structural ones the JSON path of the item.
    prefix = r"export\.json, " if message.startswith("line") else r"export\.json: .*"
    with pytest.raises(ReaderError, match=prefix + message):
        io.read_label_studio(path)


def test_label_studio_export_mismatch_and_directory(tmp_path):
    with pytest.raises(ReaderError, match=r"`export` is 'json_min' but the file is a json export"):
        io.read_label_studio(DATA / "label_studio" / "export.json", export="json_min")
    # Cloud storage writes one file per task, each a single task object.
    tasks = json.loads((DATA / "label_studio" / "export.json").read_text(encoding="utf-8"))
    for task in tasks:
        (tmp_path / f"{task['id']}.json").write_text(json.dumps(task), encoding="utf-8")
    pd.testing.assert_frame_equal(
        io.read_label_studio(tmp_path), io.read_label_studio(DATA / "label_studio" / "export.json")
    )


def _random_tasks(rng) -> tuple[list, list, list]:
    alphabet = [*"abc xyz", "é", "中", EMOJI]
    tasks, mins, expected = [], [], []
    for task_id in range(1, int(rng.integers(2, 5))):
        text = "".join(rng.choice(alphabet, size=int(rng.integers(3, 40))))
        anns = []
        for user in (11, 12, 13):
            result, regions = [], []
            for k in range(int(rng.integers(0, 5))):
                a, b = sorted(int(x) for x in rng.integers(0, len(text) + 1, size=2))
                if a == b:
                    continue  # zero-length spans are refused (tests/io/test_io_zero_length.py)
                labels = sorted(
                    {str(x) for x in rng.choice(["A", "B", "C"], size=int(rng.integers(1, 3)))}
                )
                value = {"start": a, "end": b, "text": text[a:b], "labels": labels}
                result.append(
                    {
                        "id": f"{task_id}-{user}-{k}",
                        "from_name": "lab",
                        "to_name": "text",
                        "type": "labels",
                        "value": value,
                    }
                )
                regions.append(value)
                expected += [(task_id, user, a, b, lab, text[a:b]) for lab in labels]
            anns.append(
                {
                    "id": task_id * 100 + user,
                    "completed_by": user,
                    "result": result,
                    "was_cancelled": False,
                }
            )
            rec = {
                "text": text,
                "id": task_id,
                "annotator": user,
                "annotation_id": task_id * 100 + user,
            }
            if regions:
                rec["lab"] = regions
            mins.append(rec)
        tasks.append({"id": task_id, "data": {"text": text}, "annotations": anns})
    return tasks, mins, expected


@pytest.mark.parametrize("seed", range(5))
def test_label_studio_random_differential(seed, tmp_path):
    tasks, mins, expected = _random_tasks(np.random.default_rng(seed))
    (tmp_path / "full.json").write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "min.json").write_text(json.dumps(mins), encoding="utf-8")
    cols = ["document", "coder", "start", "end", "label", "text"]
    full = io.read_label_studio(tmp_path / "full.json")
    mini = io.read_label_studio(tmp_path / "min.json")
    assert sorted(rows(full, cols)) == sorted(expected)
    assert rows(full, cols) == sorted(rows(full, cols), key=lambda r: r[:5])
    assert rows(mini, cols) == rows(full, cols)


# ---------------------------------------------------------------------------------------
# doccano and Prodigy


def test_doccano_every_row():
    # One file per user; alice's export uses [start, end, label] triples, bob's the
    # relation-enabled "entities" form. Document 2 has no spans (coverage only).
    files = [DATA / "jsonl" / "doccano_alice.jsonl", DATA / "jsonl" / "doccano_bob.jsonl"]
    frame = io.read_jsonl(files)
    assert list(frame.columns) == ["document", "coder", "start", "end", "label", "text"]
    assert rows(frame, list(frame.columns)) == [
        (1, "doccano_alice", 0, 3, "PER", "Zoë"),
        (1, "doccano_alice", 10, 14, "PER", "Anna"),
        (1, "doccano_alice", 18, 22, "LOC", "Köln"),
        (1, "doccano_bob", 10, 14, "PER", "Anna"),
        (1, "doccano_bob", 18, 22, "ORG", "Köln"),
    ]
    assert set(frame.attrs["coverage"]) == {
        (d, c) for d in (1, 2) for c in ("doccano_alice", "doccano_bob")
    }
    named = io.read_jsonl(files, coder=lambda p: p.stem.split("_")[1], format="doccano")
    assert sorted(set(named["coder"])) == ["alice", "bob"]


def test_prodigy_every_row():
    # Bob's record for input 77 was rejected: not read by default; with answer=None it is,
    # with an answer column. Coder from _annotator_id, document from _input_hash.
    path = DATA / "jsonl" / "prodigy.jsonl"
    frame = io.read_jsonl(path)
    assert rows(frame, list(frame.columns)) == [
        (-51, "ner-alice", 0, 3, "PER", "Zoë"),
        (-51, "ner-alice", 10, 14, "PER", "Anna"),
        (-51, "ner-bob", 18, 22, "LOC", "Köln"),
    ]
    assert set(frame.attrs["coverage"]) == {(-51, "ner-alice"), (-51, "ner-bob"), (77, "ner-alice")}
    everything = io.read_jsonl(path, answer=None, document_key="meta.id", coder_key="_session_id")
    assert rows(everything, list(everything.columns)) == [
        ("d1", "ner-alice", 0, 3, "PER", "Zoë", "accept"),
        ("d1", "ner-alice", 10, 14, "PER", "Anna", "accept"),
        ("d1", "ner-bob", 18, 22, "LOC", "Köln", "accept"),
        ("d2", "ner-bob", 0, 7, "MISC", "Nothing", "reject"),
    ]
    rejected = io.read_jsonl(path, answer="reject")
    assert rows(rejected, ["document", "coder", "label"]) == [(77, "ner-bob", "MISC")]


def test_document_labels():
    doccano = io.read_jsonl(DATA / "jsonl" / "doccano_textcat_alice.jsonl", kind="labels")
    assert list(doccano.columns) == ["unit", "coder", "value"]
    assert rows(doccano, ["unit", "coder", "value"]) == [
        (1, "doccano_textcat_alice", frozenset({"travel", "people"})),
        (2, "doccano_textcat_alice", frozenset()),
    ]
    prodigy = io.read_jsonl(DATA / "jsonl" / "prodigy_choice.jsonl", kind="labels")
    assert rows(prodigy, ["unit", "coder", "value"]) == [
        (-51, "cat-alice", frozenset({"A", "B"})),
        (-51, "cat-bob", frozenset()),
    ]
    with pytest.raises(ReaderError, match=r"line 1: .*a list of plain labels is a text class"):
        io.read_jsonl(DATA / "jsonl" / "doccano_textcat_alice.jsonl")


@pytest.mark.parametrize(
    "lines, line, message",
    [
        pytest.param(['{"id": 1, "label": []}', "{oops"], 2, "not valid JSON", id="json"),
        pytest.param(["[1, 2]"], 1, "each line must be a JSON object", id="array"),
        pytest.param(['{"id": 1, "text": "a"}'], 1, "no 'label' or 'entities'", id="neither"),
        pytest.param(
            ['{"id": 1, "label": [], "spans": []}'], 1, "both doccano and Prodigy keys", id="both"
        ),
        pytest.param(
            ['{"text": "ab", "label": [[0, 9, "X"]]}'], 1, "no document key 'id'", id="doc"
        ),
        pytest.param(
            ['{"id": 1, "text": "ab", "label": [[0, 9, "X"]]}'], 1, "span end 9 is beyond", id="far"
        ),
        pytest.param(
            ['{"id": 1, "label": [[2, 1, "X"]]}'], 1, "start 2 is after its end", id="rev"
        ),
        pytest.param(['{"id": 1, "label": [[-1, 1, "X"]]}'], 1, "non-negative integer", id="neg"),
        pytest.param(
            ['{"id": 1, "label": [[0, 1]]}'], 1, "doccano span is [start, end, label]", id="pair"
        ),
        pytest.param(
            ['{"id": 1, "entities": [{"start": 0}]}'], 1, "needs 'start_offset'", id="ent"
        ),
        pytest.param(
            [
                '{"_input_hash": 1, "spans": [{"start": 0}], "answer": "accept",'
                ' "_annotator_id": "a"}'
            ],
            1,
            "Prodigy span needs 'start' and 'end'",
            id="pspan",
        ),
        pytest.param(
            ['{"_input_hash": 1, "spans": [], "answer": "accept"}'],
            1,
            "no coder key '_annotator_id'",
            id="pcoder",
        ),
    ],
)
def test_jsonl_malformed(lines, line, message, tmp_path):
    path = tmp_path / "alice.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReaderError) as info:
        io.read_jsonl(path)
    assert info.value.line == line and message in str(info.value), str(info.value)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        pytest.param({"kind": "span"}, r"`kind` must be one of", id="kind"),
        pytest.param(
            {"format": "brat"}, r"`format` must be one of \['doccano', 'prodigy'\]", id="fmt"
        ),
        pytest.param({"coder_key": ""}, r"`coder_key` must be a key name or None, got ''", id="ck"),
        pytest.param({"document_key": 1}, r"`document_key` must be a key name", id="dk"),
        pytest.param({"answer": 1}, r"`answer` must be a string or None, got 1", id="answer"),
    ],
)
def test_jsonl_bad_parameters(kwargs, message):
    with pytest.raises(InvalidParameterError, match=message):
        io.read_jsonl(DATA / "jsonl" / "prodigy.jsonl", **kwargs)


@pytest.mark.parametrize("seed", range(5))
def test_jsonl_random_differential(seed, tmp_path):
    # doccano files per user and one Prodigy file for everyone, written from the same random
    # spans; both readers must give the spans back with Python string offsets.
    rng = np.random.default_rng(40 + seed)
    alphabet = [*"ab cd", "é", "中", EMOJI, "\U0001d11e"]
    texts = ["".join(rng.choice(alphabet, size=int(rng.integers(1, 30)))) for _ in range(4)]
    expected, prodigy = [], []
    for user in ("u1", "u2"):
        doccano = []
        for doc, text in enumerate(texts):
            spans = []
            for _ in range(int(rng.integers(0, 4))):
                a, b = sorted(int(x) for x in rng.integers(0, len(text) + 1, size=2))
                if a == b:
                    continue  # zero-length spans are refused (tests/io/test_io_zero_length.py)
                spans.append((a, b, str(rng.choice(["X", "Y"]))))
            expected += [(doc, user, a, b, lab, text[a:b]) for a, b, lab in spans]
            doccano.append({"id": doc, "text": text, "label": [list(s) for s in spans]})
            prodigy.append(
                {
                    "text": text,
                    "_input_hash": doc,
                    "_annotator_id": user,
                    "answer": "accept",
                    "spans": [{"start": a, "end": b, "label": lab} for a, b, lab in spans],
                }
            )
        (tmp_path / f"{user}.jsonl").write_text(
            "\n".join(json.dumps(r, ensure_ascii=False) for r in doccano), encoding="utf-8"
        )
    (tmp_path / "prodigy").mkdir()
    (tmp_path / "prodigy" / "all.jsonl").write_text(
        "\n".join(json.dumps(r) for r in prodigy), encoding="utf-8"
    )
    cols = ["document", "coder", "start", "end", "label", "text"]
    got = rows(io.read_jsonl([tmp_path / "u1.jsonl", tmp_path / "u2.jsonl"]), cols)
    assert sorted(got) == sorted(expected)
    assert got == sorted(got, key=lambda r: r[:5])
    assert rows(io.read_jsonl(tmp_path / "prodigy"), cols) == got
