"""Label Studio: a coder with two annotations of one task is an error or an explicit rule.

Label Studio JSON export (https://labelstud.io/guide/export.html): a list of tasks, each
with ``id``, ``data`` and ``annotations`` (``completed_by``, ``result``). A coder annotates
a task once; two annotations with the same (task, ``completed_by``) come from exports read
together or a task written twice. Merging them would give that coder the spans of both.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from pandas_agree import io
from pandas_agree.errors import InvalidParameterError, ReaderError

TEXT = "Anna met Ben in Paris."


def _span(rid, start, end, label):
    return {
        "id": rid,
        "from_name": "label",
        "to_name": "text",
        "type": "labels",
        "value": {"start": start, "end": end, "text": TEXT[start:end], "labels": [label]},
    }


def _choice(value):
    return {"id": "c", "from_name": "mood", "type": "choices", "value": {"choices": [value]}}


def _ann(ident, coder, *results):
    return {"id": ident, "completed_by": coder, "was_cancelled": False, "result": list(results)}


def _task(task_id, *anns):
    return {"id": task_id, "data": {"text": TEXT}, "annotations": list(anns)}


FIRST = _ann(1, 7, _span("a", 0, 4, "PER"), _choice("happy"))
SECOND = _ann(2, 7, _span("b", 9, 12, "PER"), _choice("sad"))
OTHER = _ann(3, 8, _span("c", 16, 21, "LOC"), _choice("happy"))


def _write(path, tasks):
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "tasks, where",
    [
        pytest.param([_task(1, FIRST, SECOND)], r"\[0\].annotations\[1\]", id="coder-twice"),
        pytest.param(
            [_task(1, FIRST), _task(1, SECOND)], r"\[1\].annotations\[0\]", id="task-twice"
        ),
    ],
)
@pytest.mark.parametrize("kind", ["spans", "choices"])
def test_second_annotation_of_a_coder_raises(tasks, where, kind, tmp_path):
    path = _write(tmp_path / "export.json", tasks)
    kwargs = {"from_name": "mood"} if kind == "choices" else {}
    with pytest.raises(ReaderError, match=where + r": task 1 has a second annotation by coder 7"):
        io.read_label_studio(path, kind=kind, **kwargs)


def test_task_in_two_files_names_both(tmp_path):
    a = _write(tmp_path / "a.json", [_task(1, FIRST)])
    b = _write(tmp_path / "b.json", [_task(1, SECOND)])
    with pytest.raises(ReaderError) as info:
        io.read_label_studio([a, b])
    message = str(info.value)
    assert info.value.file == str(b)
    assert "task 1 has a second annotation by coder 7" in message and str(a) in message


def test_json_min_record_twice(tmp_path):
    rec = {"id": 1, "text": TEXT, "annotator": 7, "annotation_id": 1}
    path = _write(tmp_path / "min.json", [rec, {**rec, "annotation_id": 2}])
    with pytest.raises(ReaderError, match=r"\[1\]: task 1 has a second annotation by coder 7"):
        io.read_label_studio(path)


@pytest.mark.parametrize("rule, kept", [("first", FIRST), ("last", SECOND)])
@pytest.mark.parametrize("kind", ["spans", "choices"])
def test_first_and_last_keep_one_whole_annotation(rule, kept, kind, tmp_path):
    # Differential: the rule gives what a file holding only the kept annotation gives.
    kwargs = {"from_name": "mood"} if kind == "choices" else {}
    both = _write(tmp_path / "both.json", [_task(1, FIRST, OTHER), _task(1, SECOND)])
    alone = _write(tmp_path / "alone.json", [_task(1, kept, OTHER)])
    got = io.read_label_studio(both, kind=kind, on_duplicate=rule, **kwargs)
    want = io.read_label_studio(alone, kind=kind, **kwargs)

    # (unit-level frames are in file order: compare them sorted by coder)
    def by_coder(frame):
        return frame.sort_values("coder", kind="stable").reset_index(drop=True)

    pd.testing.assert_frame_equal(by_coder(got), by_coder(want))
    if kind == "spans":
        assert got.attrs["coverage"] == want.attrs["coverage"]


def test_task_twice_with_other_coders_is_merged(tmp_path):
    # One project exported once per annotator: the task appears in both files.
    split = [
        _write(tmp_path / "a.json", [_task(1, FIRST)]),
        _write(tmp_path / "b.json", [_task(1, OTHER)]),
    ]
    whole = _write(tmp_path / "whole.json", [_task(1, FIRST, OTHER)])
    pd.testing.assert_frame_equal(io.read_label_studio(split), io.read_label_studio(whole))


def test_on_duplicate_is_checked(tmp_path):
    path = _write(tmp_path / "x.json", [_task(1, FIRST)])
    with pytest.raises(InvalidParameterError, match=r"`on_duplicate` must be one of .*got 'union'"):
        io.read_label_studio(path, on_duplicate="union")
