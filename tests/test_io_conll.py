"""pandas_agree.io: the CoNLL-2012 coreference reader and the conversion to chain codes.

Format: CoNLL-2012 shared task (Pradhan et al. 2012, "CoNLL-2012 Shared Task: Modeling
Multilingual Unrestricted Coreference in OntoNotes", section on data format) and the
OntoNotes ``*_conll`` files: ``#begin document (<name>); part <nnn>`` ... ``#end
document``, sentences separated by blank lines, whitespace-separated columns (document id,
part, word number, word, POS, parse bit, predicate lemma, frameset, sense, speaker, named
entities, predicate arguments, coreference), coreference entries ``(n``, ``n)``, ``(n)``
joined by ``|``, ``-`` for none. tests/data/io/conll2012 was written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from definitions import masi

import pandas_agree as pa
from pandas_agree import coref, io
from pandas_agree.datasets.passonneau import coref_sample2
from pandas_agree.errors import DuplicateRatingError, InvalidParameterError, ReaderError

DATA = Path(__file__).parent / "data" / "io" / "conll2012"


def rows(frame: pd.DataFrame, columns: list[str]) -> list[tuple]:
    return [tuple(r) for r in frame[columns].itertuples(index=False, name=None)]


def test_conll_fixture_every_row():
    # key: "Zoë Müller" (0-2) and "her" (3-4) in chain 1, "her sister" (3-5, nested around
    # "her") and "She" (token 6, the first of sentence 2) in chain 2; nw/wsj/02 part 001 has
    # "The city of Köln" (0-4) closing on the token where "(4)" opens and closes "Köln".
    frame = io.read_conll2012(DATA)
    assert list(frame.columns) == ["document", "coder", "start", "end", "label", "text", "chain"]
    assert rows(frame, list(frame.columns)) == [
        ("nw/wsj/01; part 000", "key", 0, 2, "mention", "Zoë Müller", 1),
        ("nw/wsj/01; part 000", "key", 3, 4, "mention", "her", 1),
        ("nw/wsj/01; part 000", "key", 3, 5, "mention", "her sister", 2),
        ("nw/wsj/01; part 000", "key", 6, 7, "mention", "She", 2),
        ("nw/wsj/01; part 000", "response", 0, 1, "mention", "Zoë", 1),
        ("nw/wsj/01; part 000", "response", 3, 5, "mention", "her sister", 2),
        ("nw/wsj/01; part 000", "response", 6, 7, "mention", "She", 1),
        ("nw/wsj/02; part 000", "key", 0, 1, "mention", "Köln", 3),
        ("nw/wsj/02; part 001", "key", 0, 4, "mention", "The city of Köln", 4),
        ("nw/wsj/02; part 001", "key", 3, 4, "mention", "Köln", 4),
    ]
    assert frame["start"].dtype == np.int64 and frame["chain"].dtype == np.int64
    assert len(frame.attrs["coverage"]) == 6  # three document parts, two files


def test_conll_tokens():
    frame, tokens = io.read_conll2012(DATA / "key.v4_gold_conll", tokens=True, label="ment")
    assert set(frame["label"]) == {"ment"} and set(frame["coder"]) == {"key"}
    assert list(tokens.columns) == ["document", "coder", "token", "sentence", "word"]
    doc1 = tokens[tokens["document"] == "nw/wsj/01; part 000"]
    assert rows(doc1, ["token", "sentence", "word"]) == [
        (0, 0, "Zoë"),
        (1, 0, "Müller"),
        (2, 0, "met"),
        (3, 0, "her"),
        (4, 0, "sister"),
        (5, 0, "."),
        (6, 1, "She"),
        (7, 1, "smiled"),
        (8, 1, "."),
    ]
    assert len(tokens) == 9 + 3 + 5
    pd.testing.assert_frame_equal(tokens, io.conll2012_tokens(DATA / "key.v4_gold_conll"))
    # The spans index the tokens: their words joined are the text column.
    words = dict(zip(zip(tokens["document"], tokens["token"]), tokens["word"]))
    for doc, start, end, text in rows(frame, ["document", "start", "end", "text"]):
        assert " ".join(words[(doc, k)] for k in range(start, end)) == text


def _conll_from_chains(path: Path, document: str, coders: dict[str, dict]) -> None:
    """One *_conll file per coder: each markable one token, coreference column "(chain)"."""
    for coder, chains in coders.items():
        lines = [f"#begin document ({document}); part 000"]
        for i, (mention, chain) in enumerate(chains.items()):
            cell = "-" if chain is None else f"({chain})"
            lines.append(f"{document} 0 {i} {mention} - - - - - - * {cell}")
        lines += ["", "#end document", ""]
        (path / f"{coder}.v4_gold_conll").write_text("\n".join(lines), encoding="utf-8")


def test_conll_to_codes_reproduces_passonneau_sample2(tmp_path):
    # Passonneau (1997), Figure 2: codings CA1 and CA3 of sample 2 (markables A-J and D').
    # Written as CoNLL-2012 files (one token per markable, in the figure's order), read and
    # converted in one call, the MASI alpha is that of the same chains given directly to
    # chains_to_codes, and equals NLTK's Krippendorff alpha with MASI written from the
    # definition of Passonneau (2006, section 3.3): two independent implementations.
    agreement = pytest.importorskip("nltk.metrics.agreement")
    df = coref_sample2()
    order = list(dict.fromkeys(df["mention"]))
    coders = {
        who: {m: int(c) for m, c in zip(part["mention"], part["chain"])}
        for who, part in df.groupby("coder")
    }
    coders = {who: {m: chains.get(m) for m in order} for who, chains in coders.items()}
    _conll_from_chains(tmp_path, "sample2", coders)
    codes = io.conll2012_to_codes(tmp_path)
    direct = coref.chains_to_codes(df, document=None)
    ours = pa.alpha(codes, distance="masi").alpha
    assert ours == pytest.approx(pa.alpha(direct, distance="masi").alpha, abs=1e-12)

    task = agreement.AnnotationTask(
        data=list(zip(codes["coder"], codes["unit"], codes["value"])), distance=masi
    )
    assert ours == pytest.approx(task.alpha(), abs=1e-12)
    # The markable of each unit is its token span: D' is token 4 in both files.
    d_prime = codes[codes["mention"] == (4, 5)]
    assert rows(d_prime, ["coder", "value"]) == [
        ("CA1", frozenset()),
        ("CA3", frozenset({("sample2; part 000", (3, 4))})),
    ]


def test_conll_to_codes_from_a_frame_and_missing_mentions():
    frame = io.read_conll2012(DATA)
    with pytest.raises(InvalidParameterError, match="missing_markables='singleton'"):
        io.conll2012_to_codes(frame)
    codes = io.conll2012_to_codes(DATA, missing_markables="singleton")
    key = codes[(codes["coder"] == "key") & (codes["document"] == "nw/wsj/01; part 000")]
    got = {m: sorted(x for _, x in v) for m, v in zip(key["mention"], key["value"])}
    assert got == {
        (0, 2): [(3, 4)],
        (3, 4): [(0, 2)],
        (3, 5): [(6, 7)],
        (6, 7): [(3, 5)],
        (0, 1): [],
    }
    with pytest.raises(InvalidParameterError, match=r"lacks the columns \['chain'\]"):
        io.conll2012_to_codes(frame.drop(columns="chain"))
    twice = pd.concat([frame, frame.iloc[[0]].assign(chain=9)], ignore_index=True)
    with pytest.raises(DuplicateRatingError):
        io.conll2012_to_codes(twice)


def _doc(body: str) -> str:
    return "#begin document (d); part 000\n" + body + "\n#end document\n"


def tok(i: int, word: str, cell: str) -> str:
    return f"d 0 {i} {word} - - - - - - * {cell}"


@pytest.mark.parametrize(
    "content, line, message",
    [
        pytest.param(_doc(tok(0, "a", "(x)")), 2, "bad coreference entry '(x)'", id="entry"),
        pytest.param(_doc(tok(0, "a", "(1)|2")), 2, "bad coreference entry '2'", id="piece"),
        pytest.param(
            _doc(tok(0, "a", "1)")), 2, "chain 1 closed here was never opened", id="close"
        ),
        pytest.param(_doc(tok(0, "a", "(1")), 3, "opened on line 2 is never closed", id="open"),
        pytest.param(
            tok(0, "a", "-") + "\n", 1, "token line outside '#begin document'", id="outside"
        ),
        pytest.param(
            _doc(tok(0, "a", "-")).replace("#end document\n", ""),
            2,
            "has no '#end document'",
            id="no-end",
        ),
        pytest.param("#end document\n", 1, "'#end document' without '#begin", id="end-only"),
        pytest.param(
            _doc(tok(0, "a", "-") + "\n#begin document (e); part 000"),
            3,
            "'#begin document' inside document",
            id="nested",
        ),
        pytest.param(
            _doc(tok(0, "a", "-") + "\n" + tok(2, "b", "-")),
            3,
            "word number 2 where 1 was expected",
            id="word-number",
        ),
        pytest.param(_doc(tok(0, "a", "-") + "\nd 0 1 b -"), 3, "5 columns where", id="columns"),
        pytest.param(_doc("d 0 0"), 2, "at least 4 columns", id="short"),
        pytest.param(_doc(tok(0, "a", "-")) + _doc(tok(0, "a", "-")), 4, "appears twice", id="dup"),
        pytest.param("#begin document\n", 1, "without a document name", id="no-name"),
    ],
)
def test_conll_malformed(content, line, message, tmp_path):
    path = tmp_path / "x_conll"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ReaderError) as info:
        io.read_conll2012(path)
    assert info.value.line == line and message in str(info.value), str(info.value)


def test_conll_same_document_in_two_files_of_one_coder(tmp_path):
    for name in ("a_conll", "b_conll"):
        (tmp_path / name).write_text(_doc(tok(0, "a", "-")), encoding="utf-8")
    with pytest.raises(ReaderError, match="document 'd; part 000' of coder 'x' is in more than"):
        io.read_conll2012(tmp_path, coder=lambda p: "x")
    with pytest.raises(InvalidParameterError, match="`label` must be a string, got 1"):
        io.read_conll2012(tmp_path, label=1)
    with pytest.raises(InvalidParameterError, match="`tokens` must be True or False"):
        io.read_conll2012(tmp_path, tokens="yes")


def _write_conll(path: Path, sentences: list[int], mentions: list[tuple[int, int, int]]) -> None:
    """A *_conll file from the definition: open "(n" on the first token, close "n)" on the
    last, "(n)" for one token; several entries on a token joined by "|"."""
    opens: dict[int, list[str]] = {}
    closes: dict[int, list[str]] = {}
    singles: dict[int, list[str]] = {}
    for start, end, chain in mentions:
        if end - start == 1:
            singles.setdefault(start, []).append(f"({chain})")
        else:
            opens.setdefault(start, []).append(f"({chain}")
            closes.setdefault(end - 1, []).append(f"{chain})")
    lines, k = ["#begin document (rand); part 000"], 0
    for length in sentences:
        for i in range(length):
            cell = "|".join(opens.get(k, []) + singles.get(k, []) + closes.get(k, [])) or "-"
            lines.append(f"rand\t0\t{i}\tw{k}\t-\t-\t-\t-\t-\t-\t*\t{cell}")
            k += 1
        lines.append("")
    lines.append("#end document")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("seed", range(8))
def test_conll_random_differential(seed, tmp_path):
    # Random mentions, each in its own chain id or sharing one with mentions it does not
    # overlap (the column cannot pair up two overlapping mentions of one chain unless they
    # nest, so the generator keeps same-chain mentions disjoint).
    rng = np.random.default_rng(seed)
    expected = []
    # one document, so one token sequence for both coders (the reader refuses two)
    sentences = [int(x) for x in rng.integers(1, 6, size=int(rng.integers(1, 4)))]
    for coder in ("a", "b"):
        n = sum(sentences)
        mentions: list[tuple[int, int, int]] = []
        for _ in range(int(rng.integers(0, 8))):
            start = int(rng.integers(0, n))
            end = int(rng.integers(start + 1, n + 1))
            chain = int(rng.integers(1, 4))
            if any(c == chain and s < end and start < e for s, e, c in mentions):
                chain = 100 + len(mentions)
            mentions.append((start, end, chain))
        _write_conll(tmp_path / f"{coder}.v4_gold_conll", sentences, mentions)
        words = [f"w{k}" for k in range(n)]
        expected += [
            ("rand; part 000", coder, s, e, " ".join(words[s:e]), c) for s, e, c in mentions
        ]
    frame = io.read_conll2012(tmp_path)
    got = rows(frame, ["document", "coder", "start", "end", "text", "chain"])
    assert sorted(got) == sorted(expected)
    assert got == sorted(got, key=lambda r: (r[0], r[1], r[2], r[3], r[5]))


def test_bundled_example_alpha_by_hand():
    # docs/io.md: alice chains {Anna, She}, {Ben, him}; bob {Anna, Ben, She}, {him}. MASI
    # distances per markable (Passonneau 2006: 1 - J * M): Anna {She} vs {Ben, She} = 2/3,
    # Ben {him} vs {Anna, She} = 1, She {Anna} vs {Anna, Ben} = 2/3, him {Ben} vs {} = 1, so
    # D_o = (2/3 + 1 + 2/3 + 1) / 4 = 5/6; the 28 pairs of the 8 values sum to 77/3, so
    # D_e = 2 * (77/3) / (8 * 7) = 11/12 and alpha = 1 - (5/6) / (11/12) = 1/11.
    codes = io.conll2012_to_codes(io.example_path("conll2012"))
    assert pa.alpha(codes, distance="masi").alpha == pytest.approx(1 / 11, abs=1e-12)
