"""Readers return the documents' texts (``frame.attrs["texts"]``) and the span functions use them.

Where an export holds the text the offsets index (brat ``.txt``; Label Studio ``data.text``;
WebAnno TSV ``#Text=`` lines; doccano/Prodigy ``text``), the reader records it, and
``spans_to_units``, ``span_report``, ``unitizing_alpha`` and ``pandas-agree spans`` use it
when no ``texts=`` is passed. CoNLL-2012 offsets are token indices: the reader records each
document's number of tokens (``attrs["n_tokens"]``) and the units are its tokens.

Each test is a differential: the frame used on its own against the same frame stripped of
its ``attrs`` with the texts passed by hand (read independently from the export files).
"""

from __future__ import annotations

import io as stdio
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from definitions import FIXTURES

import pandas_agree as pa
from pandas_agree import io
from pandas_agree.errors import ReaderError
from pandas_agree.frontends.cli import main

DATA = FIXTURES / "io"


def bare(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out.attrs = {}
    return out


def _brat_texts(root: Path) -> dict:
    texts = {}
    for txt in sorted(root.glob("*/*.txt")):
        texts.setdefault(txt.stem, txt.read_bytes().decode("utf-8"))  # line ends as written
    return texts


def _label_studio_texts(path: Path) -> dict:
    return {t["id"]: t["data"]["text"] for t in json.loads(path.read_text(encoding="utf-8"))}


def _jsonl_texts(path: Path, key: str) -> dict:
    texts = {}
    for f in sorted(path.glob("*.jsonl")) if path.is_dir() else [path]:
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                if rec.get("answer", "accept") == "accept":  # what read_jsonl reads
                    texts[rec[key]] = rec["text"]
    return texts


CASES = [
    pytest.param(
        lambda: io.read_brat(io.example_path("brat")),
        lambda: _brat_texts(io.example_path("brat")),
        id="brat",
    ),
    pytest.param(
        lambda: io.read_brat(DATA / "brat"), lambda: _brat_texts(DATA / "brat"), id="brat-tests"
    ),
    pytest.param(
        lambda: io.read_label_studio(io.example_path("label_studio.json")),
        lambda: _label_studio_texts(io.example_path("label_studio.json")),
        id="label-studio",
    ),
    pytest.param(
        lambda: io.read_label_studio(DATA / "label_studio" / "export.json"),
        lambda: _label_studio_texts(DATA / "label_studio" / "export.json"),
        id="label-studio-tests",
    ),
    pytest.param(
        lambda: io.read_jsonl(io.example_path("doccano")),
        lambda: _jsonl_texts(io.example_path("doccano"), "id"),
        id="doccano",
    ),
    pytest.param(
        lambda: io.read_jsonl(io.example_path("prodigy.jsonl")),
        lambda: _jsonl_texts(io.example_path("prodigy.jsonl"), "_input_hash"),
        id="prodigy",
    ),
    pytest.param(
        lambda: io.read_webanno_tsv(io.example_path("webanno")),
        # the #Text= line of the bundled one-sentence document
        lambda: {"review.txt": "Label Café is in Paris."},
        id="webanno",
    ),
]


@pytest.mark.parametrize("read, texts", CASES)
def test_attrs_texts_are_the_export_texts(read, texts):
    frame = read()
    assert frame.attrs["texts"] == texts()


@pytest.mark.slow
@pytest.mark.parametrize("read, texts", CASES)
def test_span_functions_use_the_recorded_texts(read, texts):
    frame, given = read(), texts()
    plain = bare(frame)
    for unit in ("token", "char"):
        pd.testing.assert_frame_equal(
            pa.spans_to_units(frame, unit), pa.spans_to_units(plain, unit, texts=given)
        )
        pd.testing.assert_frame_equal(
            pa.span_report(frame, unit, by_document=True),
            pa.span_report(plain, unit, by_document=True, texts=given),
        )
    with_spans = set(frame["document"])
    continuum = {d: len(t) for d, t in given.items() if d in with_spans}
    got, want = pa.unitizing_alpha(frame), pa.unitizing_alpha(plain, continuum)
    assert got.length == want.length == sum(continuum.values())
    np.testing.assert_equal(float(got), float(want))
    # a filtered frame keeps them (pandas carries attrs through)
    first = frame["label"].dropna().iloc[0]
    sub = frame[frame["label"] == first]
    pd.testing.assert_frame_equal(pa.spans_to_units(sub), pa.spans_to_units(bare(sub), texts=given))


def test_explicit_texts_win(tmp_path):
    frame = io.read_label_studio(io.example_path("label_studio.json"))
    longer = {d: t + " and more words" for d, t in frame.attrs["texts"].items()}
    pd.testing.assert_frame_equal(
        pa.spans_to_units(frame, texts=longer), pa.spans_to_units(bare(frame), texts=longer)
    )


def test_conll_tokens_are_the_units():
    path = io.example_path("conll2012")
    frame, toks = io.read_conll2012(path, tokens=True)
    counts = toks[toks["coder"] == "alice"].groupby("document")["token"].size()
    assert frame.attrs["n_tokens"] == counts.to_dict()
    one = toks[toks["coder"] == "alice"]
    tokens = pd.DataFrame(
        {"document": one["document"], "start": one["token"], "end": one["token"] + 1}
    )
    pd.testing.assert_frame_equal(
        pa.spans_to_units(frame, "token"), pa.spans_to_units(bare(frame), tokens=tokens)
    )
    pd.testing.assert_frame_equal(
        pa.span_report(frame, "token"), pa.span_report(bare(frame), "token", tokens=tokens)
    )
    got = pa.unitizing_alpha(frame)
    assert got.length == int(counts.sum())
    assert float(got) == float(pa.unitizing_alpha(bare(frame), counts.to_dict()))


def test_texts_only_when_every_document_has_one(tmp_path):
    for coder in ("a", "b"):
        (tmp_path / coder).mkdir()
        for doc in ("d1", "d2"):
            (tmp_path / coder / f"{doc}.ann").write_text("T1\tX 0 2\tab\n", encoding="utf-8")
    (tmp_path / "a" / "d1.txt").write_text("ab cd", encoding="utf-8")
    frame = io.read_brat(tmp_path)
    assert "texts" not in frame.attrs  # d2 has no .txt anywhere
    (tmp_path / "b" / "d2.txt").write_text("ab ef", encoding="utf-8")
    assert io.read_brat(tmp_path).attrs["texts"] == {"d1": "ab cd", "d2": "ab ef"}


def _two_brat_texts(tmp_path, a, b):
    for coder, text in (("a", a), ("b", b)):
        (tmp_path / coder).mkdir()
        (tmp_path / coder / "d.txt").write_text(text, encoding="utf-8")
        (tmp_path / coder / "d.ann").write_text("T1\tX 0 2\tab\n", encoding="utf-8")
    return io.read_brat, tmp_path


def _two_webanno_texts(tmp_path, a, b):
    head = (
        "#FORMAT=WebAnno TSV 3.3\n"
        "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n\n\n"
    )
    (tmp_path / "d").mkdir()
    for coder, text in (("a", a), ("b", b)):
        w1, w2 = text.split(" ")
        body = f"#Text={text}\n1-1\t0-2\t{w1}\t*\tX\t\n1-2\t3-5\t{w2}\t_\t_\t\n"
        (tmp_path / "d" / f"{coder}.tsv").write_text(head + body, encoding="utf-8")
    return io.read_webanno_tsv, tmp_path


def _two_label_studio_texts(tmp_path, a, b):
    def task(text, coder):
        value = {"start": 0, "end": 2, "text": "ab", "labels": ["X"]}
        res = [{"id": "r", "type": "labels", "value": value}]
        return {
            "id": 1,
            "data": {"text": text},
            "annotations": [{"completed_by": coder, "result": res}],
        }

    path = tmp_path / "x.json"
    path.write_text(json.dumps([task(a, 1), task(b, 2)]), encoding="utf-8")
    return io.read_label_studio, path


def _two_jsonl_texts(tmp_path, a, b):
    for coder, text in (("a", a), ("b", b)):
        rec = {"id": 1, "text": text, "label": [[0, 2, "X"]]}
        (tmp_path / f"{coder}.jsonl").write_text(json.dumps(rec) + "\n", encoding="utf-8")
    return io.read_jsonl, tmp_path


def _two_conll_token_lists(tmp_path, a, b):
    for coder, text in (("a", a), ("b", b)):
        lines = ["#begin document (d); part 000"]
        lines += [f"d 0 {k} {w} - - - - - - * -" for k, w in enumerate(text.split(" "))]
        lines += ["", "#end document", ""]
        (tmp_path / f"{coder}.v4_gold_conll").write_text("\n".join(lines), encoding="utf-8")
    return io.read_conll2012, tmp_path


@pytest.mark.parametrize(
    "make, position",
    [
        pytest.param(_two_brat_texts, 4, id="brat"),
        pytest.param(_two_webanno_texts, 4, id="webanno"),
        pytest.param(_two_label_studio_texts, 4, id="label-studio"),
        pytest.param(_two_jsonl_texts, 4, id="jsonl"),
        pytest.param(_two_conll_token_lists, 1, id="conll2012"),  # the 2nd token differs
    ],
)
def test_one_document_with_two_texts_raises(make, position, tmp_path):
    reader, source = make(tmp_path, "ab cd", "ab ce")
    with pytest.raises(
        ReaderError, match=rf"document .* has another .* \(they differ from position {position} on"
    ):
        reader(source)


def _cli(*argv):
    out, err = stdio.StringIO(), stdio.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def test_cli_label_studio_unit_token_uses_the_task_texts():
    path = io.example_path("label_studio.json")
    code, out, err = _cli(
        "spans", path, "--format", "labelstudio", "--unit", "token", "--output-format", "csv"
    )
    assert code == 0, err
    got = pd.read_csv(stdio.StringIO(out), index_col=0)
    frame = io.read_label_studio(path)
    want = pa.span_report(
        bare(frame), "token", texts=_label_studio_texts(path), coverage=frame.attrs["coverage"]
    )
    for col in ["n_units", "alpha_masi", "alpha_nominal", "alpha_u", "f1_exact", "f1_overlap"]:
        np.testing.assert_allclose(got[col].to_numpy(float), want[col].to_numpy(float), rtol=1e-12)


def test_cli_no_check_text(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for coder in ("a", "b"):
        (tmp_path / coder / "d.txt").write_text("Zoë met Anna.", encoding="utf-8")
    # byte offsets: "Anna" is 8-12 in characters, 9-13 in UTF-8 bytes
    (tmp_path / "a" / "d.ann").write_text("T1\tPER 9 13\tAnna\n", encoding="utf-8")
    (tmp_path / "b" / "d.ann").write_text("T1\tPER 8 12\tAnna\n", encoding="utf-8")
    code, _, err = _cli("spans", tmp_path, "--format", "brat")
    assert code == 2 and "pass --no-check-text to read anyway" in err, err
    code, out, err = _cli(
        "spans", tmp_path, "--format", "brat", "--no-check-text", "--output-format", "csv"
    )
    assert code == 0, err
    got = pd.read_csv(stdio.StringIO(out), index_col=0)
    assert got.loc["(pooled)", "f1_exact"] == 0.0
    code, _, err = _cli("spans", io.example_path("doccano"), "--format", "jsonl", "--no-check-text")
    assert code == 2 and "--no-check-text applies to --from brat, label-studio, webanno" in err
