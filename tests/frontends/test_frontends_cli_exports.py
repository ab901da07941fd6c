"""``pandas-agree report`` on the unit-level answers of annotation tools.

Label Studio Choices and Taxonomy exports and doccano/Prodigy text classification exports go
straight into ``report`` (``--from label-studio|doccano|prodigy``, found from the file where
that is unambiguous). Each export is generated here from known answers; the command's alpha
is checked against the ``krippendorff`` package (Castro 2017, a test-only peer) on those
answers, and against ``pandas_agree.report`` on the frame of the Python reader.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.frontends.cli import main

CHOICES = ["neg", "neu", "pos"]


def _answers(seed: int, multiple: bool = False) -> dict[tuple[int, int], list[str]]:
    """(task, coder) -> the choices made; some pairs unanswered (missing ratings)."""
    rng = np.random.default_rng(seed)
    out = {}
    for task in range(1, 16):
        truth = int(rng.integers(0, 3))
        for coder in (1, 2, 3):
            if rng.random() < 0.15:
                continue
            pick = truth if rng.random() < 0.7 else int(rng.integers(0, 3))
            chosen = [CHOICES[pick]]
            if multiple and rng.random() < 0.4:
                chosen.append(CHOICES[(pick + 1) % 3])
            out[(task, coder)] = chosen
    return out


def _label_studio(answers, kind: str = "choices", control: str = "sentiment") -> list[dict]:
    tasks = []
    for task in sorted({t for t, _ in answers}):
        annotations = []
        for (t, coder), chosen in sorted(answers.items()):
            if t != task:
                continue
            value = (
                {"choices": chosen} if kind == "choices" else {"taxonomy": [[c] for c in chosen]}
            )
            result = [
                {"id": f"r{t}{coder}", "from_name": control, "to_name": "text", "type": kind,
                 "value": value, "origin": "manual"},
                {"id": f"s{t}{coder}", "from_name": "label", "to_name": "text", "type": "labels",
                 "value": {"start": 0, "end": 4, "text": "Some", "labels": ["X"]}},
            ]  # fmt: skip
            annotations.append(
                {"id": 100 * t + coder, "completed_by": coder, "was_cancelled": False,
                 "result": result}
            )  # fmt: skip
        # a skipped annotation is not read
        annotations.append({"id": 100 * task + 9, "completed_by": 9, "was_cancelled": True,
                            "result": []})  # fmt: skip
        tasks.append({"id": task, "data": {"text": "Some text."}, "annotations": annotations})
    return tasks


def _peer_nominal(answers) -> float:
    krippendorff = pytest.importorskip("krippendorff")
    tasks = sorted({t for t, _ in answers})
    matrix = np.full((3, len(tasks)), np.nan)
    for (t, coder), chosen in answers.items():
        matrix[coder - 1, tasks.index(t)] = CHOICES.index(chosen[0])
    return float(krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal"))


def _report(capsys, *argv) -> tuple[int, pd.DataFrame | None, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    table = pd.read_csv(io.StringIO(out), index_col=0) if code == 0 else None
    return code, table, err


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_label_studio_choices(tmp_path, capsys, seed):
    # "cannot tell the format" before; now found from .json, the one Choices control read.
    answers = _answers(seed)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(_label_studio(answers)))
    code, table, err = _report(capsys, "report", path, "--to", "csv")
    assert code == 0, err
    expected = _peer_nominal(answers)
    assert table.loc["pooled", "nominal"] == pytest.approx(expected, abs=1e-12)
    code, told, _ = _report(
        capsys, "report", path, "--from", "label-studio", "--control", "sentiment", "--to", "csv"
    )
    pd.testing.assert_frame_equal(told, table)
    frame = pa.io.read_label_studio(path, kind="choices", from_name="sentiment")
    assert pa.report(frame).loc["pooled", "nominal"] == pytest.approx(expected, abs=1e-12)


def test_label_studio_multiple_choices(tmp_path, capsys):
    answers = _answers(7, multiple=True)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(_label_studio(answers)))
    code, _, err = _report(capsys, "report", path, "--distance", "masi")
    assert code == 2 and "--multiple" in err and "multiple=" not in err
    code, table, err = _report(capsys, "report", path, "--multiple", "--distance", "masi",
                               "--to", "csv")  # fmt: skip
    assert code == 0, err
    sets = pd.DataFrame(
        [(t, c, frozenset(v)) for (t, c), v in answers.items()], columns=["unit", "coder", "value"]
    )
    expected = pa.alpha(sets, "masi").alpha
    assert table.loc["pooled", "masi"] == pytest.approx(expected, abs=1e-12)


def test_label_studio_taxonomy(tmp_path, capsys):
    answers = _answers(3)
    path = tmp_path / "taxonomy.json"
    path.write_text(json.dumps(_label_studio(answers, kind="taxonomy", control="topic")))
    code, table, err = _report(capsys, "report", path, "--to", "csv")
    assert code == 0, err
    assert table.loc["pooled", "nominal"] == pytest.approx(_peer_nominal(answers), abs=1e-12)


def test_label_studio_with_two_controls_needs_one_named(tmp_path, capsys):
    tasks = _label_studio(_answers(1))
    for task in tasks:
        for annotation in task["annotations"]:
            for result in list(annotation["result"]):
                if result["type"] == "choices":
                    annotation["result"].append({**result, "from_name": "topic", "id": "x"})
    path = tmp_path / "two.json"
    path.write_text(json.dumps(tasks))
    code, _, err = _report(capsys, "report", path)
    assert code == 2 and "--control NAME" in err and "['sentiment', 'topic']" in err
    assert _report(capsys, "report", path, "--control", "topic")[0] == 0


def test_a_span_export_is_sent_to_spans(tmp_path, capsys):
    tasks = _label_studio(_answers(2))
    for task in tasks:
        for annotation in task["annotations"]:
            annotation["result"] = [r for r in annotation["result"] if r["type"] == "labels"]
    path = tmp_path / "spans.json"
    path.write_text(json.dumps(tasks))
    code, _, err = _report(capsys, "report", path)
    assert code == 2 and "pandas-agree spans" in err
    code, _, err = _report(capsys, "report", pa.io.example_path("doccano"))
    assert code == 2 and "export of spans" in err and "pandas-agree spans" in err


def test_doccano_text_classification_directory(tmp_path, capsys):
    answers = _answers(5)
    root = tmp_path / "doccano"
    root.mkdir()
    for coder, name in ((1, "alice"), (2, "bob"), (3, "carol")):
        lines = [
            json.dumps({"id": t, "text": "Some text.", "label": chosen})
            for (t, c), chosen in sorted(answers.items())
            if c == coder
        ]
        (root / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    code, table, err = _report(capsys, "report", root, "--to", "csv")
    assert code == 0, err
    assert table.loc["pooled", "nominal"] == pytest.approx(_peer_nominal(answers), abs=1e-12)
    frame = pa.io.read_jsonl(root, kind="labels")
    assert table.loc["pooled", "nominal"] == pytest.approx(pa.report(frame).iloc[0, 0])


def test_prodigy_choice_file(tmp_path, capsys):
    answers = _answers(6)
    lines = [
        json.dumps({"text": "Some text.", "_input_hash": 1000 + t, "accept": chosen,
                    "answer": "accept", "_annotator_id": f"news-{c}"})
        for (t, c), chosen in sorted(answers.items())
    ]  # fmt: skip
    lines.append(json.dumps({"text": "x", "_input_hash": 1, "accept": ["neg"], "answer": "reject",
                             "_annotator_id": "news-1"}))  # fmt: skip
    path = tmp_path / "prodigy.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, table, err = _report(capsys, "report", path, "--to", "csv")
    assert code == 0, err
    assert table.loc["pooled", "nominal"] == pytest.approx(_peer_nominal(answers), abs=1e-12)
    code, told, _ = _report(capsys, "report", path, "--from", "prodigy", "--to", "csv")
    pd.testing.assert_frame_equal(told, table)


def test_a_jsonl_table_stays_a_table(tmp_path, capsys):
    df = pa.datasets.krippendorff_2011()
    path = tmp_path / "k.jsonl"
    df.to_json(path, orient="records", lines=True)
    code, table, err = _report(capsys, "report", path, "--to", "csv")
    assert code == 0, err
    assert round(table.loc["pooled", "nominal"], 3) == 0.743  # Krippendorff (2011), section C


def test_table_options_do_not_apply_to_exports(tmp_path, capsys):
    path = tmp_path / "export.json"
    path.write_text(json.dumps(_label_studio(_answers(0))))
    code, _, err = _report(capsys, "report", path, "--set-sep", ";")
    assert code == 2 and "--set-sep" in err
    code, _, err = _report(capsys, "report", path, "--value", "labels")
    assert code == 2 and "--value 'labels' does not apply" in err
