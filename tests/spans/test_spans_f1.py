"""Span F1 on annotations: discontinuous brat annotations are one annotation each.

Sources
-------
* bratiaa 0.1.4 (test-only oracle, skipped when not installed), the inter-annotator
  agreement tool for brat projects: pairwise instance-level F1 with exact matching, pooled
  over documents, overall and per label; an annotation is its type, label and tuple of
  fragments (``bratiaa/evaluation.py``, ``exact_match_instance_evaluation``).
* The brat standoff format (https://brat.nlplab.org/standoff.html): ``T1 PER 0 5;10 15``
  is one annotation of two fragments.
"""

from __future__ import annotations

from itertools import combinations, pairwise

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import InvalidParameterError
from pandas_agree.spans import ALL_LABELS

LABELS = ("LOC", "ORG", "PER")


def _random_project(seed: int) -> tuple[dict[str, str], dict[tuple[str, str], list]]:
    """Texts and, per (coder, document), a list of annotations (label, [(start, end), ...]).

    Each document has a pool of candidate annotations of 1-3 fragments (ascending, apart
    from each other); each coder takes a random part of the pool, sometimes with a fragment
    dropped, moved, or the label changed, so exact, partial and no matches all occur.
    """
    rng = np.random.default_rng(seed)
    coders = ["A", "B", "C"][: int(rng.integers(2, 4))]
    texts, annotations = {}, {}
    for d in range(int(rng.integers(1, 4))):
        doc = f"d{d}"
        length = int(rng.integers(30, 80))
        texts[doc] = "".join(rng.choice(list("abcdefgh "), size=length))
        pool = []
        for _ in range(int(rng.integers(1, 7))):
            n_frag = int(rng.choice([1, 1, 2, 2, 3]))
            cuts = np.sort(rng.choice(np.arange(length + 1), size=2 * n_frag, replace=False))
            frags = [(int(cuts[2 * k]), int(cuts[2 * k + 1])) for k in range(n_frag)]
            if any(b[0] - a[1] < 1 for a, b in pairwise(frags)):
                frags = frags[:1]  # fragments of one annotation stay apart
            pool.append((str(rng.choice(LABELS)), frags))
        for c in coders:
            mine = []
            for lab, frags in pool:
                if rng.random() < 0.3:
                    continue
                frags = list(frags)
                change = rng.random()
                if change < 0.15 and len(frags) > 1:
                    frags = frags[: len(frags) - 1]  # a fragment left out
                elif change < 0.3:
                    s, e = frags[0]
                    frags[0] = (s, min(e + 1, length)) if e < length else (s, e)
                    if len(frags) > 1 and frags[0][1] >= frags[1][0]:
                        frags = [(s, e), *frags[1:]]
                elif change < 0.4:
                    lab = str(rng.choice(LABELS))
                if (lab, frags) not in mine:  # bratiaa counts a set: no copies
                    mine.append((lab, frags))
            annotations[(c, doc)] = mine
    return texts, annotations


def _write(root, texts, annotations) -> None:
    (root / "annotation.conf").write_text(
        "[entities]\n" + "\n".join(LABELS) + "\n[relations]\n[events]\n[attributes]\n"
    )
    for (c, doc), mine in annotations.items():
        (root / c).mkdir(exist_ok=True)
        text = texts[doc]
        (root / c / f"{doc}.txt").write_text(text)
        lines = []
        for k, (lab, frags) in enumerate(mine):
            offsets = ";".join(f"{s} {e}" for s, e in frags)
            covered = " ".join(text[s:e] for s, e in frags)
            lines.append(f"T{k + 1}\t{lab} {offsets}\t{covered}")
        (root / c / f"{doc}.ann").write_text("\n".join(lines) + ("\n" if lines else ""))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_span_f1_on_discontinuous_brat_matches_bratiaa(tmp_path, seed):
    bratiaa = pytest.importorskip("bratiaa")
    texts, annotations = _random_project(seed)
    _write(tmp_path, texts, annotations)
    spans = pa.io.read_brat(tmp_path)
    agreement = bratiaa.compute_f1_agreement(str(tmp_path))
    matrix, names = agreement.compute_total_f1_matrix(), agreement.annotators
    got = pa.span_f1(spans, coverage=spans.attrs["coverage"])
    total = got[got["label"] == ALL_LABELS]
    assert len(total) == len(list(combinations(names, 2)))
    for a, b, f1 in zip(total["coder_a"], total["coder_b"], total["f1"]):
        expected = matrix[names.index(a), names.index(b)]
        np.testing.assert_allclose(f1, expected, atol=1e-12, equal_nan=True)
    # bratiaa's per-label mean over pairs is NaN when a pair has no annotation of the label
    mean_per_label, _ = agreement.mean_sd_per_label()
    rows = got[got["label"] != ALL_LABELS]
    n_pairs = len(total)
    for lab, value in zip(agreement.labels, mean_per_label):
        f1s = rows.loc[rows["label"] == lab, "f1"]
        if len(f1s) < n_pairs:
            assert np.isnan(value)
        else:
            np.testing.assert_allclose(f1s.mean(), value, atol=1e-12, equal_nan=True)
    # n_a, n_b count annotations: one per T line
    for a, b, n_a, n_b in zip(total["coder_a"], total["coder_b"], total["n_a"], total["n_b"]):
        assert n_a == sum(len(m) for (c, _), m in annotations.items() if c == a)
        assert n_b == sum(len(m) for (c, _), m in annotations.items() if c == b)


def _brute_overlap(annotations, a, b) -> tuple[int, int, int]:
    """Annotation-level overlap F1 counts from the definition: candidate pairs of one label
    and document sharing a character, taken greedily (more characters in common, then the
    earlier first start of a's, then of b's, then order of appearance)."""
    ann_a = [(doc, lab, frags) for (c, doc), m in annotations.items() if c == a for lab, frags in m]
    ann_b = [(doc, lab, frags) for (c, doc), m in annotations.items() if c == b for lab, frags in m]

    def chars(frags):
        return {x for s, e in frags for x in range(s, e)}

    edges = []
    for i, (da, la, fa) in enumerate(ann_a):
        for j, (db, lb, fb) in enumerate(ann_b):
            if da == db and la == lb:
                common = len(chars(fa) & chars(fb))
                if common:
                    edges.append((-common, min(s for s, _ in fa), min(s for s, _ in fb), i, j))
    used_a, used_b, matched = set(), set(), 0
    for _, _, _, i, j in sorted(edges):
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            matched += 1
    return len(ann_a), len(ann_b), matched


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_overlap_f1_on_annotations_matches_brute_force(tmp_path, seed):
    texts, annotations = _random_project(seed)
    _write(tmp_path, texts, annotations)
    spans = pa.io.read_brat(tmp_path)
    # rows in the order the brute force enumerates annotations: coder, document, T number
    spans = spans.assign(_n=spans["annotation"].str[1:].astype(int))
    spans = spans.sort_values(["coder", "document", "_n", "fragment"], kind="stable")
    spans = spans.drop(columns="_n").reset_index(drop=True)
    got = pa.span_f1(spans, "overlap")
    total = got[got["label"] == ALL_LABELS]
    for a, b, n_a, n_b, m in zip(
        total["coder_a"], total["coder_b"], total["n_a"], total["n_b"], total["matched"]
    ):
        assert (n_a, n_b, m) == _brute_overlap(annotations, a, b)


def _issue_project(root) -> None:
    (root / "annotation.conf").write_text("[entities]\nPER\n[relations]\n[events]\n[attributes]\n")
    for coder, line in (("A", "T1\tPER 0 5;10 15\tAlice Smith"), ("B", "T1\tPER 0 5\tAlice")):
        (root / coder).mkdir()
        (root / coder / "doc.txt").write_text("Alice met Smith at noon .")
        (root / coder / "doc.ann").write_text(line + "\n")


def test_a_discontinuous_annotation_against_its_first_fragment(tmp_path):
    # brat: T1 PER 0 5;10 15 (coder A) against T1 PER 0 5 (coder B): one annotation on each
    # side, not the same, so exact F1 is 0 (bratiaa's reading); fragment by fragment, as
    # before, one of A's two fragments matched: F1 2/3.
    _issue_project(tmp_path)
    spans = pa.io.read_brat(tmp_path)
    exact = pa.span_f1(spans).iloc[0]
    assert (exact["n_a"], exact["n_b"], exact["matched"], exact["f1"]) == (1, 1, 0, 0.0)
    overlap = pa.span_f1(spans, "overlap").iloc[0]
    assert (overlap["matched"], overlap["f1"]) == (1, 1.0)
    by_fragment = pa.span_f1(spans, fragments=True).iloc[0]
    assert (by_fragment["n_a"], by_fragment["matched"]) == (2, 1)
    assert by_fragment["f1"] == pytest.approx(2 / 3)
    table = pa.span_report(spans, "char")
    assert table.loc["(pooled)", "n_spans"] == 2
    assert table.loc["(pooled)", "f1_exact"] == 0.0
    assert pa.span_report(spans, "char", fragments=True).loc["(pooled)", "n_spans"] == 3
    bratiaa = pytest.importorskip("bratiaa")
    agreement = bratiaa.compute_f1_agreement(str(tmp_path))
    assert agreement.compute_total_f1_matrix()[0, 1] == 0.0


def test_the_cli_counts_annotations(tmp_path, capsys):
    from pandas_agree.frontends.cli import main

    _issue_project(tmp_path)
    code = main(["spans", str(tmp_path), "--from", "brat", "--to", "csv"])
    out, err = capsys.readouterr()
    assert code == 0, err
    got = pd.read_csv(__import__("io").StringIO(out), index_col=0)
    assert got.loc["(pooled)", "f1_exact"] == 0.0
    assert got.loc["(pooled)", "n_spans"] == 2
    code = main(["spans", str(tmp_path), "--from", "brat", "--to", "csv", "--fragments"])
    out, err = capsys.readouterr()
    assert code == 0, err
    got = pd.read_csv(__import__("io").StringIO(out), index_col=0)
    assert got.loc["(pooled)", "n_spans"] == 3
    assert got.loc["(pooled)", "f1_exact"] == pytest.approx(2 / 3)


def test_fragments_of_one_annotation_share_its_label():
    spans = pd.DataFrame(
        {
            "document": "d", "coder": ["A", "A", "B"], "start": [0, 10, 0], "end": [5, 15, 5],
            "label": ["PER", "LOC", "PER"], "annotation": ["T1", "T1", "T1"],
            "fragment": [0, 1, 0],
        }
    )  # fmt: skip
    with pytest.raises(InvalidParameterError, match=r"annotation 'T1'.*different labels"):
        pa.span_f1(spans)
    assert pa.span_f1(spans, fragments=True)["n_a"].iloc[0] == 2
    with pytest.raises(InvalidParameterError, match="`fragments` must be True or False"):
        pa.span_f1(spans, fragments="yes")


def test_without_a_fragment_column_every_row_is_an_annotation():
    # Label Studio's `annotation` column is the id of a whole annotation (all spans of one
    # coder on one task), not of one span: without `fragment`, rows are never joined.
    spans = pd.DataFrame(
        {
            "document": 1, "coder": ["A", "A", "B", "B"], "start": [0, 10, 0, 10],
            "end": [5, 15, 5, 15], "label": "PER", "annotation": [11, 11, 12, 12],
        }
    )  # fmt: skip
    assert pa.span_f1(spans).iloc[0][["n_a", "matched"]].tolist() == [2, 2]
