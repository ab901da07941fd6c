"""Every span reader refuses a zero-length span (start == end) with the file and line.

A span covers at least one character; a zero-length one used to be read and then made
``span_report`` fail far from the file ("every span must end after it starts"). Formats:
brat standoff (https://brat.nlplab.org/standoff.html), Label Studio JSON
(https://labelstud.io/guide/export.html), doccano and Prodigy JSONL, WebAnno TSV 3.3
(a zero-width annotation sits on a zero-width sub-token unit, ``1-2.1  4-4``).
"""

from __future__ import annotations

import json

import pytest

from pandas_agree import io
from pandas_agree.errors import ReaderError

TEXT = "Anna  met Ben."


def _brat(tmp_path, offsets):
    d = tmp_path / "alice"
    d.mkdir()
    (d / "doc.txt").write_text(TEXT, encoding="utf-8")
    (d / "doc.ann").write_text(f"T1\tPER 0 4\tAnna\nT2\tPER {offsets}\t\n", encoding="utf-8")
    return io.read_brat, tmp_path, d / "doc.ann", 2


def _label_studio(tmp_path):
    value = {"start": 6, "end": 6, "text": "", "labels": ["PER"]}
    task = {
        "id": 1,
        "data": {"text": TEXT},
        "annotations": [
            {"completed_by": 7, "result": [{"id": "r", "type": "labels", "value": value}]}
        ],
    }
    path = tmp_path / "export.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    return io.read_label_studio, path, path, None


def _doccano(tmp_path):
    path = tmp_path / "alice.jsonl"
    lines = [{"id": 1, "text": TEXT, "label": [[0, 4, "PER"]]}]
    lines.append({"id": 2, "text": TEXT, "label": [[6, 6, "PER"]]})
    path.write_text("\n".join(map(json.dumps, lines)), encoding="utf-8")
    return io.read_jsonl, path, path, 2


def _prodigy(tmp_path):
    path = tmp_path / "db.jsonl"
    rec = {"text": TEXT, "_input_hash": 1, "_annotator_id": "a", "answer": "accept"}
    rec["spans"] = [{"start": 6, "end": 6, "label": "PER"}]
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    return io.read_jsonl, path, path, 1


def _webanno(tmp_path):
    path = tmp_path / "doc" / "alice.tsv"
    path.parent.mkdir()
    path.write_text(
        "#FORMAT=WebAnno TSV 3.3\n"
        "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n\n\n"
        "#Text=Anna  met Ben.\n"
        "1-1\t0-4\tAnna\t*\tPER\t\n"
        "1-2\t6-9\tmet\t_\t_\t\n"
        "1-2.1\t6-6\t\t*\tPER\t\n"
        "1-3\t10-13\tBen\t_\t_\t\n"
        "1-4\t13-14\t.\t_\t_\t\n",
        encoding="utf-8",
    )
    return io.read_webanno_tsv, path, path, 8


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda p: _brat(p, "6 6"), id="brat"),
        pytest.param(lambda p: _brat(p, "0 4;6 6"), id="brat-fragment"),
        pytest.param(_label_studio, id="label-studio"),
        pytest.param(_doccano, id="doccano"),
        pytest.param(_prodigy, id="prodigy"),
        pytest.param(_webanno, id="webanno"),
    ],
)
def test_zero_length_span_is_refused_with_file_and_line(make, tmp_path):
    reader, source, file, line = make(tmp_path)
    with pytest.raises(ReaderError, match="zero-length span") as info:
        reader(source)
    assert info.value.file == str(file)
    assert info.value.line == line
    if line is None:  # JSON exports name the item by its JSON path
        assert "[0].annotations[0].result[0].value" in str(info.value)
