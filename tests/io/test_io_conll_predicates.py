"""CoNLL-2012 ``*_conll`` files whose sentences have different numbers of predicates.

Column layout of the CoNLL-2012 shared task (Pradhan et al. 2012; the task's data page,
"*_conll File Format"): 1 document id, 2 part number, 3 word number, 4 word, 5 POS, 6 parse
bit, 7 predicate lemma, 8 predicate frameset id, 9 word sense, 10 speaker, 11 named
entities, 12..N-1 one predicate-argument column per predicate of the sentence, N the
coreference column. A sentence with k predicates therefore has 12 + k columns.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pandas_agree import io
from pandas_agree.errors import ReaderError

# (word, POS, parse bit, lemma, frameset, NE, predicate-argument cells, coreference)
SENTENCES = [
    # 0 predicates: 12 columns
    [
        ("The", "DT", "(TOP(NP*", "-", "-", "(GPE*", [], "(1"),
        ("city", "NN", "*", "-", "-", "*)", [], "1)"),
        (".", ".", "*))", "-", "-", "*", [], "-"),
    ],
    # 1 predicate: 13 columns
    [
        ("Anna", "NNP", "(TOP(S(NP*)", "-", "-", "(PERSON)", ["(ARG0*)"], "(2)"),
        ("smiled", "VBD", "(VP*)", "smile", "01", "*", ["(V*)"], "-"),
        (".", ".", "*))", "-", "-", "*", ["*"], "-"),
    ],
    # 3 predicates: 15 columns; argument cells hold parentheses too, like coreference
    [
        ("She", "PRP", "(TOP(S(NP*)", "-", "-", "*", ["(ARG0*)", "*", "*"], "(2)"),
        ("said", "VBD", "(VP*", "say", "01", "*", ["(V*)", "*", "*"], "-"),
        ("the", "DT", "(SBAR(S(NP*", "-", "-", "*", ["(ARG1*", "(ARG0*", "(ARG0*"], "(1"),
        ("city", "NN", "*)", "-", "-", "*", ["*", "*)", "*)"], "1)"),
        ("wanted", "VBD", "(VP*", "want", "01", "*", ["*", "(V*)", "*"], "-"),
        ("to", "TO", "(S(VP*", "-", "-", "*", ["*", "(ARG1*", "*"], "-"),
        ("grow", "VB", "(VP*)))))))", "grow", "01", "*", ["*)", "*)", "(V*)"], "-"),
        (".", ".", "*))", "-", "-", "*", ["*", "*", "*"], "-"),
    ],
]


def _write(path: Path, keep_arguments: bool) -> None:
    lines = ["#begin document (bc/cnn/00/cnn_0001); part 000"]
    for sentence in SENTENCES:
        for number, (word, pos, parse, lemma, frame, ne, args, coref) in enumerate(sentence):
            cells = ["bc/cnn/00/cnn_0001", "0", str(number), word, pos, parse, lemma, frame]
            cells += ["-", "speaker1", ne]
            cells += args if keep_arguments else []
            cells.append(coref)
            lines.append("   ".join(cells))
        lines.append("")
    lines.append("#end document")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_sentences_with_0_1_and_3_predicates(tmp_path):
    _write(tmp_path / "alice.v4_gold_conll", keep_arguments=True)
    widths = {
        len(line.split())
        for line in (tmp_path / "alice.v4_gold_conll").read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert widths == {12, 13, 15}
    frame = io.read_conll2012(tmp_path)
    # By hand: chain 1 "The city" (tokens 0-1) and "the city" (tokens 8-9 of the document);
    # chain 2 "Anna" (token 3) and "She" (token 6).
    got = [tuple(r) for r in frame[["start", "end", "text", "chain"]].itertuples(index=False)]
    assert got == [
        (0, 2, "The city", 1),
        (3, 4, "Anna", 2),
        (6, 7, "She", 2),
        (8, 10, "the city", 1),
    ]


def test_predicate_columns_do_not_change_the_mentions(tmp_path):
    # Differential: the same document with and without its predicate-argument columns.
    (tmp_path / "with").mkdir()
    (tmp_path / "without").mkdir()
    _write(tmp_path / "with" / "a.v4_gold_conll", keep_arguments=True)
    _write(tmp_path / "without" / "a.v4_gold_conll", keep_arguments=False)
    with_args, tokens_with = io.read_conll2012(tmp_path / "with", tokens=True)
    without, tokens_without = io.read_conll2012(tmp_path / "without", tokens=True)
    assert with_args.equals(without)
    assert tokens_with.equals(tokens_without)
    assert tokens_with["sentence"].tolist() == [0] * 3 + [1] * 3 + [2] * 8


def test_column_count_still_fixed_within_a_sentence(tmp_path):
    path = tmp_path / "x_conll"
    path.write_text(
        "#begin document (d); part 000\n"
        "d 0 0 Anna NNP * - - - - * (ARG0*) (1)\n"
        "d 0 1 smiled VBD * smile 01 - - * (1)\n"
        "\n#end document\n",
        encoding="utf-8",
    )
    with pytest.raises(ReaderError) as info:
        io.read_conll2012(path)
    assert info.value.line == 3
    assert "12 columns where the sentence's first token line (line 2) has 13" in str(info.value)
