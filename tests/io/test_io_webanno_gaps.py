"""WebAnno / INCEpTION TSV 3.x: a multi-token annotation covers every token in its range.

WebAnno TSV 3.3 (WebAnno/INCEpTION user guide, "WebAnno TSV 3.x"; the serializer
``Tsv3XCasDocumentBuilder`` adds a span annotation to every token from its begin token to
its end token): the tokens of one multi-token annotation share its ``[n]`` disambiguation
id, and there is no way to leave a token out. A ``[n]`` missing from a token between two
that carry it is a malformed file, not a discontinuous span.
"""

from __future__ import annotations

import numpy as np
import pytest

from pandas_agree import io
from pandas_agree.errors import ReaderError

HEAD = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n\n\n"
)


def _write(path, sentences, marks):
    """A TSV file of ``sentences`` (lists of words) where ``marks`` maps a global token
    index to its value cell (``"LOC[1]"``); returns the document text."""
    lines, pos, k, pieces = [HEAD.rstrip("\n") + "\n\n"], 0, 0, []
    for s, words in enumerate(sentences):
        if s:
            pieces.append(" ")
            pos += 1
        lines.append(f"\n#Text={' '.join(words)}\n")
        for t, word in enumerate(words):
            if t:
                pieces.append(" ")
                pos += 1
            value = marks.get(k, "_")
            ident = "_" if value == "_" else "*" + value[value.index("[") :]
            lines.append(f"{s + 1}-{t + 1}\t{pos}-{pos + len(word)}\t{word}\t{ident}\t{value}\t\n")
            pieces.append(word)
            pos += len(word)
            k += 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")
    return "".join(pieces)


def test_the_issue_case_names_the_untagged_token(tmp_path):
    path = tmp_path / "doc" / "alice.tsv"
    _write(path, [["New", "and", "York"]], {0: "LOC[1]", 2: "LOC[1]"})
    with pytest.raises(ReaderError) as info:
        io.read_webanno_tsv(path)
    assert info.value.file == str(path)
    assert info.value.line == 7  # the line of token 1-2
    assert "annotation [1] ('LOC') is on 1-1 and 1-3 but not on the token 1-2" in str(info.value)


def test_a_contiguous_annotation_across_sentences_reads(tmp_path):
    path = tmp_path / "doc" / "alice.tsv"
    _write(path, [["in", "New"], ["York", "."]], {1: "LOC[1]", 2: "LOC[1]"})
    frame = io.read_webanno_tsv(path)
    assert frame[["start", "end", "label", "annotation"]].values.tolist() == [[3, 11, "LOC", "1"]]


def test_sub_token_then_token_is_contiguous(tmp_path):
    # A span from the middle of a token to the end of the next one: a suffix sub-token unit
    # (1-1.1) and the whole next token carry the id, the partly covered token 1-1 does not.
    path = tmp_path / "doc" / "alice.tsv"
    path.parent.mkdir()
    path.write_text(
        HEAD + "#Text=NewYork is\n"
        "1-1\t0-7\tNewYork\t_\t_\t\n"
        "1-1.1\t3-7\tYork\t*[1]\tLOC[1]\t\n"
        "1-2\t8-10\tis\t*[1]\tLOC[1]\t\n",
        encoding="utf-8",
    )
    frame = io.read_webanno_tsv(path)
    assert frame[["start", "end", "text"]].values.tolist() == [[3, 10, "York is"]]


@pytest.mark.parametrize("seed", range(6))
def test_random_ranges_read_and_any_hole_raises(seed, tmp_path):
    # Differential: a random multi-token range reads as one span from its first token's
    # start to its last token's end; the same file with one inner token's mark removed
    # raises on that token's line.
    rng = np.random.default_rng(seed)
    sentences = [["w"] * int(rng.integers(2, 6)) for _ in range(int(rng.integers(1, 4)))]
    n = sum(map(len, sentences))
    first = int(rng.integers(0, n - 1))
    last = int(rng.integers(first + 1, n))
    marks = dict.fromkeys(range(first, last + 1), "X[1]")
    path = tmp_path / "doc" / "u.tsv"
    text = _write(path, sentences, marks)
    frame = io.read_webanno_tsv(path)
    assert frame[["start", "end"]].values.tolist() == [[2 * first, 2 * last + 1]]
    assert frame["text"].tolist() == [text[2 * first : 2 * last + 1]]
    if last - first >= 2:
        hole = int(rng.integers(first + 1, last))
        del marks[hole]
        _write(path, sentences, marks)
        with pytest.raises(ReaderError) as info:
            io.read_webanno_tsv(path)
        token_lines = [
            number
            for number, line in enumerate(path.read_text().splitlines(), start=1)
            if line[:1].isdigit()
        ]
        assert info.value.line == token_lines[hole]
