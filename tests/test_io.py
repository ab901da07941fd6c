"""pandas_agree.io: shared behaviour, brat standoff and WebAnno / INCEpTION TSV 3.x.

The fixtures under tests/data/io were written for these tests following each tool's
documented format:

* brat standoff: https://brat.nlplab.org/standoff.html ("T<n><TAB><type> <start> <end>
  <TAB><text>"; offsets 0-based, end exclusive; discontinuous "start end;start end", text
  of the fragments joined by a space; R, E, A, M, N, *, # lines for relations, events,
  attributes, normalizations, equivalences and notes).
* WebAnno TSV 3.x: INCEpTION user guide, appendix "WebAnno TSV 3.x" (header ``#T_SP=``
  lines, one column per feature, ``_`` empty, ``*`` no value, ``|`` stacking, ``[n]``
  disambiguation ids, sub-tokens ``s-t.k``, multi-line sentences as several ``#Text=``
  lines, every token line ending with a tab as INCEpTION's Tsv3XSerializer writes it);
  offsets are UTF-16 code units (Java strings).

Round-trip tests write a tiny export (or read a fixture) and check every row by hand; the
random differential tests write exports from the format definition (a writer in this file)
and compare the reader's frame with the spans they were written from.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pandas_agree import io
from pandas_agree.errors import InvalidParameterError, ReaderError

DATA = Path(__file__).parent / "data" / "io"
EMOJI = "\U0001f600"


def rows(frame: pd.DataFrame, columns: list[str]) -> list[tuple]:
    return [tuple(r) for r in frame[columns].itertuples(index=False, name=None)]


def check_schema(frame: pd.DataFrame) -> None:
    assert list(frame.columns[:5]) == ["document", "coder", "start", "end", "label"]
    assert frame["start"].dtype == np.int64 and frame["end"].dtype == np.int64
    for col in ("document", "coder", "label"):
        assert frame[col].dtype == object
    assert frame.index.equals(pd.RangeIndex(len(frame)))


# ---------------------------------------------------------------------------------------
# Shared


@pytest.mark.slow
def test_import_loads_nothing_heavy():
    # importing pandas_agree.io on top of pandas_agree must not add pyarrow, dask or any
    # tool SDK: only its own modules (and the package's errors, loaded on first use).
    code = (
        "import sys\n"
        "import pandas_agree\n"
        "before = set(sys.modules)\n"
        "import pandas_agree.io\n"
        "new = sorted(set(sys.modules) - before)\n"
        "print('\\n'.join(new))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    heavy = ("pyarrow", "dask", "xarray", "label_studio", "spacy", "prodigy", "lxml", "nltk")
    assert [m for m in out if m.split(".")[0] in heavy] == []
    mine = ("pandas_agree.io.", "json")
    allowed = {"pandas_agree.io", "pandas_agree.errors"}
    assert all(m in allowed or m.startswith(mine) for m in out), out


def test_example_path_rejects_unknown_names():
    with pytest.raises(InvalidParameterError, match=r"`name` must be one of \[.*'brat'.*got 'x'"):
        io.example_path("x")


def test_reader_error_carries_file_and_line(tmp_path):
    path = tmp_path / "a" / "doc.ann"
    path.parent.mkdir()
    path.write_text("T1\tPER 0 3\tabc\nT2 no tab here\n", encoding="utf-8")
    with pytest.raises(ReaderError) as info:
        io.read_brat([path])
    assert info.value.file == str(path)
    assert info.value.line == 2
    assert str(info.value).startswith(f"{path}, line 2: ")
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "reader, pattern",
    [
        pytest.param(io.read_brat, "*.ann", id="brat"),
        pytest.param(io.read_webanno_tsv, "*.tsv", id="webanno"),
        pytest.param(io.read_label_studio, "*.json", id="label_studio"),
        pytest.param(io.read_conll2012, "*conll", id="conll2012"),
        pytest.param(io.read_jsonl, "*.jsonl", id="jsonl"),
    ],
)
def test_bad_sources_raise(reader, pattern, tmp_path):
    with pytest.raises(InvalidParameterError, match=r"no such file or directory, got '.*nope'"):
        reader(tmp_path / "nope")
    with pytest.raises(InvalidParameterError, match=r"must be a path.*got int 3"):
        reader(3)
    with pytest.raises(InvalidParameterError, match=r"must name at least one file, got \[\]"):
        reader([])
    if reader is not io.read_brat:  # a directory source of brat has its own layout rule
        empty = tmp_path / "empty"
        empty.mkdir()
        with pytest.raises(
            InvalidParameterError, match=r"holds no files matching " + re.escape(repr(pattern))
        ):
            reader(empty)


def test_non_utf8_file_names_the_line(tmp_path):
    path = tmp_path / "x" / "doc.ann"
    path.parent.mkdir()
    path.write_bytes(b"T1\tPER 0 3\tabc\nT2\tPER 0 3\t\xe9t\xe9\n")
    with pytest.raises(ReaderError, match=r"doc.ann, line 2: not valid UTF-8 \(byte 0xe9"):
        io.read_brat([path])


def test_utf16_conversion_against_the_definition():
    # Differential: a UTF-16 offset is the length of the UTF-16 encoding of the prefix.
    from pandas_agree.io._common import utf16_to_codepoints

    rng = np.random.default_rng(5)
    alphabet = ["a", "é", EMOJI, "\U0001d11e", " ", "中"]
    for _ in range(20):
        text = "".join(rng.choice(alphabet, size=int(rng.integers(0, 30))))
        cps = np.arange(len(text) + 1)
        units = [len(text[:k].encode("utf-16-le")) // 2 for k in cps]
        assert utf16_to_codepoints(text, units).tolist() == cps.tolist()
    with pytest.raises(ValueError, match=r"inside a surrogate pair"):
        utf16_to_codepoints("a" + EMOJI, [2])
    with pytest.raises(ValueError, match=r"beyond the text"):
        utf16_to_codepoints("ab", [3])


# ---------------------------------------------------------------------------------------
# brat


def test_brat_fixture_every_row():
    # tests/data/io/brat: ann1 and ann2 annotated doc1 ("Zoë met 😀 Anna in Köln.\r\nShe
    # left Köln.\n"); ann2 also doc2, with an empty .ann. Offsets are characters: "Anna" is
    # 10-14 (its UTF-8 byte offsets would be 13-17), the CRLF counts two characters.
    frame = io.read_brat(DATA / "brat")
    check_schema(frame)
    assert list(frame.columns) == [
        "document",
        "coder",
        "start",
        "end",
        "label",
        "text",
        "annotation",
        "fragment",
    ]
    assert rows(frame, list(frame.columns)) == [
        ("doc1", "ann1", 0, 3, "Group", "Zoë", "T4", 0),
        ("doc1", "ann1", 0, 3, "Person", "Zoë", "T1", 0),
        ("doc1", "ann1", 10, 14, "Group", "Anna", "T4", 1),
        ("doc1", "ann1", 10, 14, "Person", "Anna", "T2", 0),
        ("doc1", "ann1", 18, 22, "City", "Köln", "T3", 0),
        ("doc1", "ann1", 34, 38, "City", "Köln", "T5", 0),
        ("doc1", "ann2", 0, 3, "Person", "Zoë", "T1", 0),
        ("doc1", "ann2", 25, 28, "Person", "She", "T2", 0),
        ("doc1", "ann2", 34, 38, "City", "Köln", "T3", 0),
    ]
    assert frame.attrs["coverage"] == (("doc1", "ann1"), ("doc1", "ann2"), ("doc2", "ann2"))
    text = (DATA / "brat" / "ann1" / "doc1.txt").read_bytes().decode("utf-8")
    for start, end, piece in rows(frame, ["start", "end", "text"]):
        assert text[start:end] == piece


def test_brat_file_list_and_coder_rules():
    files = [DATA / "brat" / "ann1" / "doc1.ann", DATA / "brat" / "ann2" / "doc1.ann"]
    by_parent = io.read_brat(files)
    by_root = io.read_brat(DATA / "brat")
    pd.testing.assert_frame_equal(by_parent, by_root[by_root["document"] == "doc1"])
    mapped = io.read_brat(files, coder={str(files[0]): "A", files[1]: "B"})
    assert sorted(set(mapped["coder"])) == ["A", "B"]
    called = io.read_brat(files, coder=lambda p: p.parent.name.upper())
    assert sorted(set(called["coder"])) == ["ANN1", "ANN2"]
    renamed = io.read_brat(DATA / "brat", coder={"ann1": "x", "ann2": "y"})
    assert renamed["coder"].tolist() == ["x"] * 6 + ["y"] * 3
    with pytest.raises(InvalidParameterError, match=r"mapping has no entry for the file"):
        io.read_brat(files, coder={files[0]: "A"})
    with pytest.raises(InvalidParameterError, match=r"no entry for the annotator directory 'ann2'"):
        io.read_brat(DATA / "brat", coder={"ann1": "x"})
    with pytest.raises(InvalidParameterError, match=r"must be 'parent'.*got 'stem'"):
        io.read_brat(DATA / "brat", coder="stem")
    with pytest.raises(InvalidParameterError, match=r"`coder` must be 'stem', 'parent'.*got 'dir'"):
        io.read_brat(files, coder="dir")


def test_brat_directory_layout_errors(tmp_path):
    (tmp_path / "doc.ann").write_text("", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"holds .ann files directly"):
        io.read_brat(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "alice").mkdir()
    with pytest.raises(InvalidParameterError, match=r"no annotator subdirectory holding .ann"):
        io.read_brat(other)
    with pytest.raises(InvalidParameterError, match=r"must be .ann files"):
        io.read_brat([DATA / "brat" / "ann1" / "doc1.txt"])


def test_brat_nested_documents_and_without_txt(tmp_path):
    # Documents in nested folders keep their relative path; without a .txt the text field
    # is split into fragments by their lengths (brat joins fragments with one space).
    ann = tmp_path / "alice" / "news" / "d1.ann"
    ann.parent.mkdir(parents=True)
    ann.write_text(f"T1\tX 2 5;9 11\tb{EMOJI}c de\nT2\tY 0 1\ta\n", encoding="utf-8")
    frame = io.read_brat(tmp_path)
    assert rows(frame, ["document", "coder", "start", "end", "label", "text", "fragment"]) == [
        ("news/d1", "alice", 0, 1, "Y", "a", 0),
        ("news/d1", "alice", 2, 5, "X", f"b{EMOJI}c", 0),
        ("news/d1", "alice", 9, 11, "X", "de", 1),
    ]


def test_brat_byte_offsets_are_caught(tmp_path):
    # "é" is two UTF-8 bytes: a tool writing byte offsets puts "Anna" at 8-12 in
    # "Zoé et Anna ici", whose characters 8-12 are "nna ": the text check catches it.
    d = tmp_path / "a"
    d.mkdir()
    (d / "t.txt").write_text("Zoé et Anna ici", encoding="utf-8")
    (d / "t.ann").write_text("T1\tPER 8 12\tAnna\n", encoding="utf-8")
    with pytest.raises(ReaderError, match=r"t.ann, line 1: annotation T1: the text field 'Anna'"):
        io.read_brat(tmp_path)
    lenient = io.read_brat(tmp_path, check_text=False)
    assert rows(lenient, ["start", "end", "text"]) == [(8, 12, "nna ")]
    with pytest.raises(InvalidParameterError, match=r"`check_text` must be True or False, got 1"):
        io.read_brat(tmp_path, check_text=1)


@pytest.mark.parametrize(
    "line, message",
    [
        pytest.param("T1 PER 0 3 abc", "expected '<id><TAB>...'", id="no-tab"),
        pytest.param("X1\tPER 0 3\tabc", "unknown annotation id 'X1'", id="unknown-id"),
        pytest.param("T1\tPER 0 3", "has no text field", id="no-text"),
        pytest.param("T1\tPER\tabc", "needs '<type> <start> <end>'", id="no-offsets"),
        pytest.param("T1\tPER 0 x\tabc", "offsets must be '<start> <end>' pairs", id="bad-int"),
        pytest.param("T1\tPER 0 3;4\tabc", "offsets must be '<start> <end>' pairs", id="half"),
        pytest.param("T1\tPER 3 1\tabc", "start 3 is after end 1", id="reversed"),
        pytest.param("T1\tPER 0 99\tabc", "end offset 99 is beyond the text", id="too-far"),
        pytest.param("T1\tPER 0 3\txyz", "the text field 'xyz' differs", id="text-mismatch"),
    ],
)
def test_brat_malformed_lines(line, message, tmp_path):
    d = tmp_path / "coder"
    d.mkdir()
    (d / "doc.txt").write_text("abc def", encoding="utf-8")
    (d / "doc.ann").write_text(f"T9\tPER 4 7\tdef\n\n{line}\n", encoding="utf-8")
    with pytest.raises(ReaderError, match=r"doc.ann, line 3: .*" + re.escape(message)):
        io.read_brat(tmp_path)


def test_brat_text_field_length_without_txt(tmp_path):
    ann = tmp_path / "a" / "doc.ann"
    ann.parent.mkdir()
    ann.write_text("T1\tPER 0 3;5 6\tabcd\n", encoding="utf-8")
    with pytest.raises(ReaderError, match=r"line 1: .*has 4 characters but the offsets"):
        io.read_brat(tmp_path)
    frame = io.read_brat(tmp_path, check_text=False)
    assert frame["text"].tolist() == [None, None]


def _write_brat(root: Path, truth: dict, texts: dict) -> None:
    """brat standoff from the documentation's definition: one T line per annotation."""
    for (coder, doc), anns in truth.items():
        d = root / coder
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{doc}.txt").write_bytes(texts[doc].encode("utf-8"))
        lines = []
        for k, (label, frags) in enumerate(anns, start=1):
            offsets = ";".join(f"{s} {e}" for s, e in frags)
            covered = " ".join(texts[doc][s:e] for s, e in frags)
            lines.append(f"T{k}\t{label} {offsets}\t{covered}")
            if k % 3 == 0:
                lines.append(f"R{k}\tRel Arg1:T{k} Arg2:T1")
                lines.append(f"A{k}\tFlag T{k}")
        (d / f"{doc}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("seed", range(6))
def test_brat_random_differential(seed, tmp_path):
    # Random texts with accents, CJK and astral characters (no newlines inside spans: brat's
    # .ann is line-oriented), random annotations of 1-3 non-empty fragments; the reader must return
    # exactly the fragments written, with Python string offsets.
    rng = np.random.default_rng(seed)
    alphabet = [*"abcde fgh", "é", "ß", "中", EMOJI, "\U0001d11e"]
    texts = {
        f"d{i}": "".join(rng.choice(alphabet, size=int(rng.integers(5, 60)))) + "\n"
        for i in range(3)
    }
    truth, expected = {}, []
    for coder in ("c1", "c2", "c3"):
        for doc, text in texts.items():
            anns = []
            for _ in range(int(rng.integers(0, 6))):
                cuts = sorted(rng.choice(len(text) - 1, size=2 * int(rng.integers(1, 4))))
                frags = [(int(a), int(b)) for a, b in zip(cuts[::2], cuts[1::2])]
                if any(a == b for a, b in frags):
                    continue  # zero-length spans are refused (tests/io/test_io_zero_length.py)
                anns.append((str(rng.choice(["PER", "LOC", "ORG"])), frags))
            truth[(coder, doc)] = anns
            for k, (label, frags) in enumerate(anns, start=1):
                for f, (s, e) in enumerate(frags):
                    expected.append((doc, coder, s, e, label, text[s:e], f"T{k}", f))
    _write_brat(tmp_path, truth, texts)
    frame = io.read_brat(tmp_path)
    check_schema(frame)
    got = rows(frame, list(frame.columns))
    assert sorted(got) == sorted(expected)
    keys = [(d, c, s, e, lab, a, f) for d, c, s, e, lab, _, a, f in got]
    assert keys == sorted(keys)
    assert len(frame.attrs["coverage"]) == 9


# ---------------------------------------------------------------------------------------
# WebAnno / INCEpTION TSV 3.x


def test_webanno_fixture_every_row():
    # tests/data/io/webanno/fixdoc/{alice,bob,carol}.tsv: document "Zoë met 😀 Anna. New\n
    # York is big." The emoji takes two UTF-16 units, so "Anna" is 11-15 in the file and
    # 10-14 in Python; "New York" is one sentence written as two #Text lines, annotated with
    # [3] across the line break; "Anna" has stacked PER[1]|ORG[2] and a sub-token "An"; "big"
    # has an annotation without a value ("*"). Carol annotated nothing.
    frame = io.read_webanno_tsv(DATA / "webanno")
    check_schema(frame)
    assert list(frame.columns) == [
        "document",
        "coder",
        "start",
        "end",
        "label",
        "text",
        "annotation",
    ]
    assert rows(frame, list(frame.columns)) == [
        ("fixdoc", "alice", 0, 3, "PER", "Zoë", "1-1"),
        ("fixdoc", "alice", 10, 12, "ABBR", "An", "1-4.1"),
        ("fixdoc", "alice", 10, 14, "ORG", "Anna", "2"),
        ("fixdoc", "alice", 10, 14, "PER", "Anna", "1"),
        ("fixdoc", "alice", 16, 24, "LOC", "New\nYork", "3"),
        ("fixdoc", "alice", 28, 31, None, "big", "2-4"),
        ("fixdoc", "bob", 10, 14, "PER", "Anna", "1-4"),
        ("fixdoc", "bob", 20, 24, "LOC", "York", "2-2"),
    ]
    document = "Zoë met 😀 Anna. New\nYork is big."
    for start, end, piece in rows(frame, ["start", "end", "text"]):
        assert document[start:end] == piece
    assert frame.attrs["coverage"] == (
        ("fixdoc", "alice"),
        ("fixdoc", "bob"),
        ("fixdoc", "carol"),
    )


def test_webanno_other_layer_and_rules():
    claims = io.read_webanno_tsv(DATA / "webanno", layer="custom.Claim", feature="stance")
    assert rows(claims, ["coder", "start", "end", "label", "text"]) == [
        ("alice", 25, 31, "pro", "is big")
    ]
    same = io.read_webanno_tsv(DATA / "webanno", layer=io.NAMED_ENTITY)
    by_suffix = io.read_webanno_tsv(DATA / "webanno", layer="NamedEntity")
    pd.testing.assert_frame_equal(same, by_suffix)
    ids = io.read_webanno_tsv(DATA / "webanno", feature="identifier")
    assert ids["label"].isna().all() and len(ids) == 8
    alice = DATA / "webanno" / "fixdoc" / "alice.tsv"
    one = io.read_webanno_tsv(alice, coder={alice: "A"}, document="stem")
    assert set(one["coder"]) == {"A"} and set(one["document"]) == {"alice"}
    with pytest.raises(InvalidParameterError, match=r"`layer` 'Token': no span layer .*POS"):
        io.read_webanno_tsv(alice, layer="Token")
    with pytest.raises(InvalidParameterError, match=r"`layer` 'Dependency': no span layer"):
        io.read_webanno_tsv(alice, layer="Dependency")
    with pytest.raises(
        InvalidParameterError, match=r"`feature` 'tag' is not a feature .*\['identifier', 'value'\]"
    ):
        io.read_webanno_tsv(alice, feature="tag")
    with pytest.raises(InvalidParameterError, match=r"`layer` must be a layer name, got ''"):
        io.read_webanno_tsv(alice, layer="")


HEAD = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n\n\n"
)


@pytest.mark.parametrize(
    "body, line, message",
    [
        pytest.param("#Text=ab\n1-1\t0-2\tab\t*\n", 6, "expected 5 tab-separated", id="columns"),
        pytest.param("#Text=ab\n1-1\t0-x\tab\t*\tX\t\n", 6, "bad offsets '0-x'", id="offsets"),
        pytest.param("#Text=ab\nx\t0-2\tab\t*\tX\t\n", 6, "bad token id 'x'", id="id"),
        pytest.param("#Text=ab\n1-1\t2-0\tab\t*\tX\t\n", 6, "begin 2 is after end 0", id="rev"),
        pytest.param("1-1\t0-2\tab\t*\tX\t\n", 5, "token line before any '#Text='", id="no-text"),
        pytest.param(
            "#Text=ab cd\n1-1\t0-2\tab\t*[1]\tX[1]\t\n1-2\t3-5\tcd\t*[1]\tY[1]\t\n",
            7,
            "annotation [1] has the value 'Y' here but 'X' on line 6",
            id="id-conflict",
        ),
        pytest.param("#Text=ab\n1-1\t0-2\tzz\t*\tX\t\n", 6, "token 'zz' does not occur", id="tok"),
        pytest.param(
            "#Text=ab cd\n1-1\t0-2\tab\t_\t_\t\n1-2\t3-5\tcx\t*\tX\t\n",
            7,
            "token 'cx' does not match the sentence text",
            id="mismatch",
        ),
        pytest.param("#Text=ab\n1-1\t0-9\tab\t*\tX\t\n", 6, "do not fit the sentence", id="far"),
    ],
)
def test_webanno_malformed(body, line, message, tmp_path):
    path = tmp_path / "doc" / "u.tsv"
    path.parent.mkdir()
    path.write_text(HEAD + body, encoding="utf-8")
    with pytest.raises(ReaderError) as info:
        io.read_webanno_tsv(path)
    assert info.value.line == line and message in str(info.value), str(info.value)


def test_webanno_needs_the_format_line(tmp_path):
    path = tmp_path / "u.tsv"
    path.write_text("#T_SP=x|value\n", encoding="utf-8")
    with pytest.raises(ReaderError, match=r"u.tsv, line 1: not a WebAnno TSV 3.x file"):
        io.read_webanno_tsv(path)


def test_webanno_escapes_and_no_trailing_tab(tmp_path):
    # Feature values escape reserved characters with a backslash (\| \[ \] \_ \* ...); a
    # line may also come without the trailing tab.
    path = tmp_path / "d" / "u.tsv"
    path.parent.mkdir()
    path.write_text(
        HEAD + "#Text=a\\\\b c\n1-1\t0-3\ta\\b\t*\tA\\|B\\[1\\]\n1-2\t4-5\tc\t*\t\\*\n",
        encoding="utf-8",
    )
    frame = io.read_webanno_tsv(path)
    assert rows(frame, ["start", "end", "label", "text"]) == [
        (0, 3, "A|B[1]", "a\\b"),
        (4, 5, "*", "c"),
    ]


def _write_webanno(path: Path, sentences: list[list[str]], spans: list[tuple]) -> str:
    """WebAnno TSV 3.3 from the format definition; returns the document text.

    ``spans`` are (first token, last token, label, stacked) with global token indices; a
    span over several tokens or stacked with another gets a [n] id, as INCEpTION writes them.
    """
    tokens, pieces, pos = [], [], 0
    for s, words in enumerate(sentences):
        if s:
            pieces.append("\n")
            pos += 1
        for t, w in enumerate(words):
            if t:
                pieces.append(" ")
                pos += 1
            tokens.append((s, t, pos, pos + len(w), w))
            pieces.append(w)
            pos += len(w)
    text = "".join(pieces)

    def u16(k: int) -> int:
        return len(text[:k].encode("utf-16-le")) // 2

    cells: dict[int, list[tuple[str, int | None]]] = {}
    next_id = 1
    for first, last, label, stacked in spans:
        ident = None
        if last > first or stacked:
            ident, next_id = next_id, next_id + 1
        for k in range(first, last + 1):
            cells.setdefault(k, []).append((label, ident))
    out = [HEAD.rstrip("\n") + "\n\n"]
    for s, words in enumerate(sentences):
        out.append(f"\n#Text={' '.join(words)}\n")
        for k, (ss, t, a, b, w) in enumerate(tokens):
            if ss != s:
                continue
            vals = cells.get(k, [])
            ident_cell = "|".join("*" + (f"[{i}]" if i else "") for _, i in vals) or "_"
            value_cell = "|".join(lab + (f"[{i}]" if i else "") for lab, i in vals) or "_"
            out.append(f"{s + 1}-{t + 1}\t{u16(a)}-{u16(b)}\t{w}\t{ident_cell}\t{value_cell}\t\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(out), encoding="utf-8")
    return text


@pytest.mark.parametrize("seed", range(6))
def test_webanno_random_differential(seed, tmp_path):
    rng = np.random.default_rng(100 + seed)
    vocab = ["Zoë", "met", EMOJI, "Anna", "in", "Köln", "中文", "x\U0001d11ey", "."]
    expected = []
    # one document, so one text for both coders (the reader refuses two)
    sentences = [
        list(rng.choice(vocab, size=int(rng.integers(1, 8))))
        for _ in range(int(rng.integers(1, 4)))
    ]
    for coder in ("alice", "bob"):
        n = sum(len(s) for s in sentences)
        spans = []
        for _ in range(int(rng.integers(0, 6))):
            a, b = sorted(int(x) for x in rng.integers(0, n, size=2))
            spans.append((a, b, str(rng.choice(["PER", "LOC"])), bool(rng.integers(0, 2))))
        text = _write_webanno(tmp_path / "doc" / f"{coder}.tsv", sentences, spans)
        starts, ends, pos = [], [], 0
        for s, words in enumerate(sentences):
            pos += 1 if s else 0
            for t, w in enumerate(words):
                pos += 1 if t else 0
                starts.append(pos)
                ends.append(pos + len(w))
                pos += len(w)
        for a, b, label, _ in spans:
            # Characters between sentences are not in the file: the reader shows spaces.
            covered = text[starts[a] : ends[b]].replace("\n", " ")
            expected.append(("doc", coder, starts[a], ends[b], label, covered))
    frame = io.read_webanno_tsv(tmp_path)
    check_schema(frame)
    got = rows(frame, ["document", "coder", "start", "end", "label", "text"])
    assert sorted(got) == sorted(expected)
    assert got == sorted(got, key=lambda r: r[:5])


def test_two_files_for_one_document_and_coder_raise():
    files = [DATA / "brat" / "ann1" / "doc1.ann", DATA / "brat" / "ann2" / "doc1.ann"]
    with pytest.raises(ReaderError, match=r"document 'doc1' of coder 'x' is also read from"):
        io.read_brat(files, coder=lambda p: "x")
    tsv = DATA / "webanno" / "fixdoc"
    with pytest.raises(ReaderError, match=r"document 'fixdoc' of coder 'x' is also read from"):
        io.read_webanno_tsv(tsv, coder=lambda p: "x")
