"""Label Studio ``Taxonomy`` results as unit-level frozensets of paths.

Label Studio JSON (https://labelstud.io/guide/export.html; the Taxonomy tag,
https://labelstud.io/tags/taxonomy): a taxonomy result is ``{"type": "taxonomy", "value":
{"taxonomy": [["Animal", "Mammal", "Dog"], ["Animal", "Bird"]]}}``, one list per selected
path from the root. JSON_MIN (label-studio-sdk ``convert_to_json_min``) stores the control
as ``[{"taxonomy": [...]}]``. The reader joins each path with ``path_sep`` and gives one row
per annotation whose value is the frozenset of the joined paths.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from pandas_agree import io
from pandas_agree.errors import ReaderError

PATHS_A = [["Animal", "Mammal", "Dog"], ["Animal", "Bird"]]
PATHS_B = [["Animal", "Mammal", "Cat"]]


def _json(tmp_path, paths_by_coder):
    anns = [
        {
            "id": 10 + k,
            "completed_by": coder,
            "result": [
                {
                    "id": f"t{k}",
                    "from_name": "tax",
                    "type": "taxonomy",
                    "value": {"taxonomy": paths},
                }
            ],
        }
        for k, (coder, paths) in enumerate(paths_by_coder.items())
    ]
    path = tmp_path / "export.json"
    path.write_text(json.dumps([{"id": 1, "data": {"text": "x"}, "annotations": anns}]), "utf-8")
    return path


def _json_min(tmp_path, paths_by_coder):
    recs = [
        {
            "id": 1,
            "text": "x",
            "annotator": coder,
            "annotation_id": 10 + k,
            "tax": [{"taxonomy": paths}],
        }
        for k, (coder, paths) in enumerate(paths_by_coder.items())
    ]
    path = tmp_path / "min.json"
    path.write_text(json.dumps(recs), "utf-8")
    return path


@pytest.mark.parametrize("write", [_json, _json_min], ids=["json", "json_min"])
def test_paths_are_frozensets_by_default(write, tmp_path):
    path = write(tmp_path, {"a": PATHS_A, "b": PATHS_B})
    frame = io.read_label_studio(path, kind="taxonomy", from_name="tax")
    assert list(frame.columns) == ["unit", "coder", "value", "submission"]
    assert frame["value"].tolist() == [
        frozenset({"Animal/Mammal/Dog", "Animal/Bird"}),
        frozenset({"Animal/Mammal/Cat"}),  # one path is a set of one, not a string
    ]
    wide = io.read_label_studio(path, kind="taxonomy", from_name="tax", path_sep=" > ")
    assert wide["value"].tolist()[1] == frozenset({"Animal > Mammal > Cat"})


def test_label_containing_the_separator_is_named(tmp_path):
    path = _json(tmp_path, {"a": [["Animal", "Cat/Dog"]]})
    with pytest.raises(ReaderError) as info:
        io.read_label_studio(path, kind="taxonomy")
    assert "taxonomy label 'Cat/Dog' contains `path_sep` '/'" in str(info.value)
    assert info.value.file == str(path)
    assert io.read_label_studio(path, kind="taxonomy", path_sep="|")["value"].tolist() == [
        frozenset({"Animal|Cat/Dog"})
    ]


def test_multiple_false_and_the_old_name(tmp_path):
    path = _json(tmp_path, {"a": PATHS_B, "b": PATHS_A})
    with pytest.raises(ReaderError, match=r"2 choices .* but `multiple` is False"):
        io.read_label_studio(path, kind="taxonomy", multiple=False)
    (tmp_path / "one").mkdir()
    one = _json(tmp_path / "one", {"a": PATHS_B})
    assert io.read_label_studio(one, kind="taxonomy", multiple=False)["value"].tolist() == [
        "Animal/Mammal/Cat"
    ]
    with pytest.warns(DeprecationWarning, match="`taxonomy_sep` is now called `path_sep`"):
        old = io.read_label_studio(path, kind="taxonomy", taxonomy_sep=":")
    assert old["value"].tolist() == [
        frozenset({"Animal:Mammal:Cat"}),
        frozenset({"Animal:Mammal:Dog", "Animal:Bird"}),
    ]
    (tmp_path / "bad").mkdir()
    bad = _json(tmp_path / "bad", {"a": [[]]})
    with pytest.raises(ReaderError, match="holds an empty path"):
        io.read_label_studio(bad, kind="taxonomy")


@pytest.mark.parametrize("seed", range(4))
def test_random_paths_round_trip(seed, tmp_path):
    rng = np.random.default_rng(seed)
    names = ["A", "B", "C", "Dé", "中"]
    truth = {}
    for coder in ("u1", "u2", "u3"):
        paths = []
        for _ in range(int(rng.integers(1, 4))):
            paths.append([str(x) for x in rng.choice(names, size=int(rng.integers(1, 4)))])
        truth[coder] = paths
    for write in (_json, _json_min):
        frame = io.read_label_studio(write(tmp_path, truth), kind="taxonomy", from_name="tax")
        got = dict(zip(frame["coder"], frame["value"]))
        assert got == {c: frozenset("/".join(p) for p in ps) for c, ps in truth.items()}
