"""Label Studio: span offsets are checked against the task text the export holds.

Label Studio JSON (https://labelstud.io/guide/export.html): the task text is
``data.<field>`` (``data.text`` for the usual ``<Text value="$text"/>``); a ``labels`` result
stores ``value.start``, ``value.end`` (Python string offsets since Label Studio 1.4, UTF-16
units before; https://github.com/HumanSignal/label-studio/pull/1559) and ``value.text``, the covered
text. JSON_MIN keeps the data fields at the top level of each record.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from pandas_agree import io
from pandas_agree.errors import InvalidParameterError, ReaderError

EMOJI = "\U0001f600"
TEXT = f"Zoë {EMOJI} met Anna."


def _task(start, end, covered, data=None):
    value = {"start": start, "end": end, "text": covered, "labels": ["PER"]}
    result = [{"id": "r", "from_name": "label", "type": "labels", "value": value}]
    return {
        "id": 1,
        "data": {"text": TEXT} if data is None else data,
        "annotations": [{"id": 9, "completed_by": 7, "result": result}],
    }


def _write(path, tasks):
    path.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
    return path


def test_end_past_the_text_raises(tmp_path):
    path = _write(tmp_path / "x.json", [_task(10, len(TEXT) + 3, "Anna.")])
    with pytest.raises(ReaderError) as info:
        io.read_label_studio(path)
    assert info.value.file == str(path)
    assert (
        "[0].annotations[0].result[0].value: end offset 18 is beyond the task text "
        "[0].data.text (15 characters)" in str(info.value)
    )
    # the check holds with check_text=False too: the offsets cannot index the text
    with pytest.raises(ReaderError, match="is beyond the task text"):
        io.read_label_studio(path, check_text=False)


def test_utf16_offsets_of_old_exports_are_caught(tmp_path):
    # "Anna" is 10-14 in Python; an export counting UTF-16 units says 11-15.
    assert TEXT[10:14] == "Anna"
    path = _write(tmp_path / "x.json", [_task(11, 15, "Anna")])
    with pytest.raises(ReaderError, match=r"the text 'Anna' differs from \[0\]\.data\.text at"):
        io.read_label_studio(path)
    frame = io.read_label_studio(path, check_text=False)
    assert frame[["start", "end", "text"]].values.tolist() == [[11, 15, "Anna"]]


def test_json_min_text_is_checked(tmp_path):
    rec = {"id": 1, "text": TEXT, "annotator": 7, "annotation_id": 9}
    rec["label"] = [{"start": 10, "end": 20, "text": "Anna.", "labels": ["PER"]}]
    path = _write(tmp_path / "min.json", [rec])
    with pytest.raises(
        ReaderError, match=r"\[0\]\.label\[0\]: end offset 20 is beyond .*\[0\]\.text"
    ):
        io.read_label_studio(path)


def test_text_key(tmp_path):
    data = {"content": TEXT}
    path = _write(tmp_path / "x.json", [_task(10, 30, "Anna.", data=data)])
    # no "text" field: nothing to check against by default
    assert io.read_label_studio(path)["end"].tolist() == [30]
    with pytest.raises(ReaderError, match=r"beyond the task text \[0\]\.data\.content"):
        io.read_label_studio(path, text_key="content")
    with pytest.raises(ReaderError, match=r"\[0\]\.data: no text field 'body' \(`text_key`\)"):
        io.read_label_studio(path, text_key="body")
    with pytest.raises(InvalidParameterError, match=r"`text_key` must be a field name"):
        io.read_label_studio(path, text_key=3)
    with pytest.raises(InvalidParameterError, match=r"`check_text` must be True or False"):
        io.read_label_studio(path, check_text="no")


@pytest.mark.parametrize("seed", range(4))
def test_random_spans_inside_read_and_outside_raise(seed, tmp_path):
    # Differential: spans drawn inside the text read back exactly; moving one span's end
    # past the text raises for that span's JSON path.
    rng = np.random.default_rng(seed)
    alphabet = [*"ab c", "é", EMOJI, "中"]
    text = "".join(rng.choice(alphabet, size=int(rng.integers(2, 30))))
    spans = []
    for _ in range(int(rng.integers(1, 6))):
        a = int(rng.integers(0, len(text)))
        b = int(rng.integers(a + 1, len(text) + 1))
        spans.append((a, b))
    result = [
        {
            "id": f"r{k}",
            "type": "labels",
            "value": {"start": a, "end": b, "text": text[a:b], "labels": ["X"]},
        }
        for k, (a, b) in enumerate(spans)
    ]
    task = {"id": 1, "data": {"text": text}, "annotations": [{"completed_by": 1, "result": result}]}
    path = _write(tmp_path / "x.json", [task])
    frame = io.read_label_studio(path)
    assert sorted(frame[["start", "end"]].itertuples(index=False, name=None)) == sorted(spans)
    k = int(rng.integers(0, len(result)))
    result[k]["value"]["end"] = len(text) + int(rng.integers(1, 4))
    _write(path, [task])
    with pytest.raises(ReaderError, match=rf"result\[{k}\]\.value: end offset"):
        io.read_label_studio(path)
