"""Span frames: units with label sets, span F1, token kappa.

Sources
-------
* Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
  Methodology 25: 47-76, p. 57: pairs A-C digitized position by position. Published (and
  reproduced by DKPro Statistics, Krippendorff1995Test.testDigitizedAgreement): A (Bertha,
  Bill) Cohen's kappa .385, Scott's pi .314, nominal alpha .329; B (John, Jill) kappa .385,
  pi .314; C (Gerret, Gill) kappa .314, pi .314.
* bratiaa 0.1.4 (test-only oracle, skipped when not installed): pairwise instance-level F1
  with exact matching, pooled over documents, overall and per label.
"""

from __future__ import annotations

import json
import re
import warnings
from collections import Counter
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from definitions import write_brat
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree.errors import DegenerateDataWarning, InvalidParameterError, ValueTypeError
from pandas_agree.spans import ALL_LABELS, whitespace_tokens

COLS = ["document", "coder", "start", "end", "label"]


def frame(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=COLS)


# Krippendorff (1995, p. 57), as (coder, begin, length); every unit is "x".
K1995_DIGITIZED = {
    "A": [("Bertha", 2, 8), ("Bertha", 14, 6), ("Bill", 4, 4), ("Bill", 15, 2)],
    "B": [("John", 0, 18)]
    + [("Jill", b, n) for b, n in [(0, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 3), (9, 1)]],
    "C": [("Gerret", b, n) for b, n in [(2, 6), (10, 2), (14, 4), (20, 2)]]
    + [("Gill", b, n) for b, n in [(0, 2), (4, 4), (10, 4), (16, 2), (20, 2)]],
}


def k1995_spans(pair: str) -> pd.DataFrame:
    return frame([(pair, c, b, b + n, "x") for c, b, n in K1995_DIGITIZED[pair]])


# ---------------------------------------------------------------------------------------------
# published values


@pytest.mark.parametrize(
    ("pair", "kappa", "pi"),
    [
        pytest.param("A", 0.385, 0.314, id="A-Bertha-Bill"),
        pytest.param("B", 0.385, 0.314, id="B-John-Jill"),
        pytest.param("C", 0.314, 0.314, id="C-Gerret-Gill"),
    ],
)
def test_krippendorff_1995_digitized(pair, kappa, pi):
    spans = k1995_spans(pair)
    texts = {pair: "." * 24}  # 24 positions; text content is irrelevant for characters
    assert round(float(pa.span_kappa(spans, unit="char", texts=texts)), 3) == kappa
    units = pa.spans_to_units(spans, "char", texts=texts)
    assert len(units) == 48
    assert round(float(units.agree.scott_pi()), 3) == pi
    if pair == "A":
        assert round(float(units.agree.alpha("nominal")), 3) == 0.329


# ---------------------------------------------------------------------------------------------
# whitespace tokens


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=" \t\n\u00a0\u3000ab\u00e9\U0001f600.", max_size=30), max_size=3))
def test_whitespace_tokens_match_regex(texts):
    mapping = {f"d{k}": t for k, t in enumerate(texts)}
    got = whitespace_tokens(mapping)
    want = [(d, m.start(), m.end()) for d, t in mapping.items() for m in re.finditer(r"\S+", t)]
    assert list(got.itertuples(index=False, name=None)) == want
    assert list(got.columns) == ["document", "start", "end"]


def test_whitespace_tokens_bad_input():
    with pytest.raises(ValueTypeError, match=r"`texts` must be a mapping .* got list"):
        whitespace_tokens(["a b"])
    with pytest.raises(ValueTypeError, match="'d' maps to int"):
        whitespace_tokens({"d": 3})


# ---------------------------------------------------------------------------------------------
# spans_to_units against a brute force


def brute_units(spans, unit, texts, coders=None):
    """Per document, per unit (in text order), per coder: the labels of covering spans."""
    rows = []
    uid = 0
    docs = list(texts)
    for d in docs:
        text = texts[d]
        if unit == "char":
            grid = [(p, p + 1) for p in range(len(text))]
        else:
            grid = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        mine = spans[spans["document"] == d]
        who = list(coders) if coders is not None else sorted(mine["coder"].unique())
        for s, e in grid:
            for c in who:
                labels = frozenset(
                    lab
                    for cc, ss, ee, lab in zip(
                        mine["coder"], mine["start"], mine["end"], mine["label"]
                    )
                    if cc == c and ss < e and ee > s
                )
                rows.append((uid, d, s, e, c, labels))
            uid += 1
    return rows


@st.composite
def span_data(draw):
    n_docs = draw(st.integers(1, 3))
    texts = {
        f"doc{k}": draw(st.text(alphabet="ab  ", min_size=1, max_size=20)) for k in range(n_docs)
    }
    rows = []
    for d, t in texts.items():
        for c in draw(st.lists(st.sampled_from(["A", "B", "C"]), unique=True, max_size=3)):
            for _ in range(draw(st.integers(0, 4))):
                if len(t) == 0:
                    break
                s = draw(st.integers(0, len(t) - 1))
                e = draw(st.integers(s + 1, len(t)))
                rows.append((d, c, s, e, draw(st.sampled_from(["PER", "LOC", "ORG"]))))
    return frame(rows), texts


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(span_data(), st.sampled_from(["char", "token"]), st.booleans())
def test_spans_to_units_matches_brute_force(data, unit, explicit_coders):
    spans, texts = data
    coders = ["A", "B", "C"] if explicit_coders else None
    want = brute_units(spans, unit, texts, coders)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)  # spans on whitespace only
        got = pa.spans_to_units(spans, unit, texts=texts, coders=coders)
    got_rows = list(
        got[["unit", "document", "start", "end", "coder", "value"]].itertuples(
            index=False, name=None
        )
    )
    if coders is None:  # documents nobody annotated have no rows
        want = [r for r in want if r[1] in set(spans["document"])]
        # unit ids still count every unit of every document, in order
    assert [r[1:] for r in got_rows] == [r[1:] for r in want]
    assert [r[0] for r in got_rows] == [r[0] for r in want]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(span_data(), st.booleans())
def test_spans_to_units_tokens_frame_matches_brute_force(data, explicit_coders):
    spans, texts = data
    # documents in text order, tokens of each document reversed: the function sorts them
    tokens = pd.DataFrame(
        [
            (d, m.start(), m.end())
            for d, t in texts.items()
            for m in reversed(list(re.finditer(r"\S+", t)))
        ],
        columns=["document", "start", "end"],
    )
    with_tokens = [d for d in texts if (tokens["document"] == d).any()]
    assume(set(spans["document"]) <= set(with_tokens))
    coders = ["A", "B", "C"] if explicit_coders else None
    want = brute_units(spans, "token", {d: texts[d] for d in with_tokens}, coders)
    if coders is None:
        want = [r for r in want if r[1] in set(spans["document"])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        got = pa.spans_to_units(
            spans, tokens=tokens, coders=coders, documents=with_tokens if coders else None
        )
    rows = list(got.itertuples(index=False, name=None))
    assert [r[1:] for r in rows] == [r[1:] for r in want]


def test_units_unique_across_documents_and_missing_is_not_empty():
    spans = frame([("d1", "A", 0, 3, "X"), ("d2", "B", 4, 7, "Y"), ("d2", "A", 0, 3, "Y")])
    texts = {"d1": "abc def", "d2": "abc def"}
    units = pa.spans_to_units(spans, texts=texts)
    assert units["unit"].tolist() == [0, 1, 2, 2, 3, 3]
    assert units.groupby("unit")["document"].nunique().max() == 1
    # B did not annotate d1: no rows (missing), not empty sets
    assert set(units.loc[units["document"] == "d1", "coder"]) == {"A"}
    explicit = pa.spans_to_units(spans, texts=texts, coders=["A", "B"])
    d1b = explicit[(explicit["document"] == "d1") & (explicit["coder"] == "B")]
    assert d1b["value"].tolist() == [frozenset(), frozenset()]


def test_tokens_frame_and_column_names():
    spans = frame([("d", "A", 0, 4, "PER"), ("d", "B", 2, 4, "PER")]).rename(
        columns={"document": "doc", "label": "tag"}
    )
    tokens = pd.DataFrame({"doc": ["d", "d", "d"], "start": [4, 0, 2], "end": [6, 2, 4]})
    units = pa.spans_to_units(spans, tokens=tokens, document="doc", label="tag")
    assert units["start"].tolist() == [0, 0, 2, 2, 4, 4]
    assert units["value"].tolist() == [{"PER"}, set(), {"PER"}, {"PER"}, set(), set()]
    same = spans.agree.spans_to_units(tokens=tokens, document="doc", label="tag")
    pd.testing.assert_frame_equal(units, same)


def test_many_labels_use_the_general_encoder():
    rows = [("d", "A", 0, 5, f"L{k}") for k in range(70)] + [("d", "B", 0, 5, "L3")]
    units = pa.spans_to_units(frame(rows), "char")
    assert units.loc[units["coder"] == "A", "value"].iloc[0] == {f"L{k}" for k in range(70)}
    assert units.loc[units["coder"] == "B", "value"].tolist() == [{"L3"}] * 5


def test_char_units_without_text_run_to_last_end():
    units = pa.spans_to_units(frame([("d", "A", 2, 4, "X"), ("d", "B", 0, 1, "X")]), "char")
    assert units["start"].unique().tolist() == [0, 1, 2, 3]


def test_masi_alpha_ready():
    # Two coders, one nested annotation: MASI gives partial credit, nominal none.
    spans = frame([("d", "A", 0, 3, "X"), ("d", "A", 0, 3, "Y"), ("d", "B", 0, 3, "X")])
    units = pa.spans_to_units(spans, texts={"d": "abc def ghi"})
    assert units["value"].tolist() == [{"X", "Y"}, {"X"}, set(), set(), set(), set()]
    # MASI({X,Y},{X}) = 1 - 1/2 * 2/3 = 2/3 (Passonneau 2006); n = 6, D_o = 2 * 2/3 / 6
    # D_e = 2 * (1 * 1 * 2/3 + 1 * 4 * 1 + 1 * 4 * 1) / (6 * 5)
    want = 1 - (2 * (2 / 3) / 6) / (2 * (2 / 3 + 4 + 4) / 30)
    assert float(units.agree.alpha("masi")) == pytest.approx(want, abs=1e-12)


def test_uncovered_spans_warn():
    spans = frame([("d", "A", 3, 4, "X"), ("d", "B", 0, 3, "X")])
    with pytest.warns(DegenerateDataWarning, match="1 span.* cover no token"):
        pa.spans_to_units(spans, texts={"d": "abc def"})


def test_does_not_modify_input():
    spans = frame([("d", "A", 0, 3, "X"), ("d", "B", 0, 7, "X")])
    before = spans.copy()
    pa.spans_to_units(spans, texts={"d": "abc def"})
    pa.span_f1(spans, "overlap")
    pd.testing.assert_frame_equal(spans, before)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"unit": "word"}, InvalidParameterError, "`unit` must be 'token' or 'char', got 'word'"),
        ({}, InvalidParameterError, "unit='token' needs the tokens"),
        ({"texts": {"other": "x"}}, InvalidParameterError, r"no entry .*\['d'\]"),
        ({"texts": "abc"}, ValueTypeError, "`texts` must be a mapping"),
        (
            {"texts": {"d": "abc def"}, "coders": ["A"]},
            InvalidParameterError,
            r"leaves out \['B'\]",
        ),
        ({"texts": {"d": "abc def"}, "documents": ["x"]}, InvalidParameterError, "leaves out"),
        ({"unit": "char", "texts": {"d": "ab"}}, InvalidParameterError, "end after the text"),
        (
            {"tokens": pd.DataFrame({"document": ["d", "d"], "start": [0, 1], "end": [3, 4]})},
            InvalidParameterError,
            "tokens of one document overlap",
        ),
        ({"label": "tag", "texts": {"d": "abc def"}}, KeyError, "`label` column 'tag'"),
    ],
)
def test_spans_to_units_bad_input(kwargs, exc, match):
    spans = frame([("d", "A", 0, 3, "X"), ("d", "B", 0, 7, "X")])
    with pytest.raises(exc, match=match):
        pa.spans_to_units(spans, **kwargs)


# ---------------------------------------------------------------------------------------------
# span F1


def test_span_f1_hand_computed():
    spans = frame(
        [
            ("d1", "A", 0, 4, "PER"),
            ("d1", "A", 9, 13, "PER"),
            ("d1", "A", 20, 25, "LOC"),
            ("d1", "B", 0, 4, "PER"),
            ("d1", "B", 9, 15, "PER"),
            ("d1", "B", 20, 25, "ORG"),
            ("d2", "B", 0, 4, "PER"),  # same offsets as A's d1 span: another document
        ]
    )
    exact = pa.span_f1(spans).set_index("label")
    # A: 3 spans, B: 4; exact matches: d1 PER 0-4 only
    assert exact.loc[ALL_LABELS, ["n_a", "n_b", "matched"]].tolist() == [3, 4, 1]
    assert exact.loc[ALL_LABELS, "f1"] == pytest.approx(2 / 7)
    assert exact.loc[ALL_LABELS, "precision"] == pytest.approx(1 / 4)
    assert exact.loc[ALL_LABELS, "recall"] == pytest.approx(1 / 3)
    assert exact.loc["PER", ["n_a", "n_b", "matched"]].tolist() == [2, 3, 1]
    assert np.isnan(exact.loc["ORG", "recall"]) and exact.loc["ORG", "f1"] == 0
    assert np.isnan(exact.loc["LOC", "precision"])
    overlap = pa.span_f1(spans, "overlap").set_index("label")
    assert overlap.loc["PER", "matched"] == 2 and overlap.loc[ALL_LABELS, "f1"] == pytest.approx(
        4 / 7
    )


def test_overlap_matching_is_one_to_one_largest_overlap_first():
    # A's 0-10 overlaps B's 0-3 (3 chars) and 2-10 (8): it takes 2-10; B's 0-3 stays unmatched.
    spans = frame([("d", "A", 0, 10, "X"), ("d", "B", 0, 3, "X"), ("d", "B", 2, 10, "X")])
    row = pa.span_f1(spans, "overlap").iloc[0]
    assert (row["n_a"], row["n_b"], row["matched"]) == (1, 2, 1)


def brute_f1(spans, match):
    """Exact: multiset intersection; overlap: candidates sorted by the documented rule."""
    coders = sorted(spans["coder"].unique())
    out = {}
    for a, b in combinations(coders, 2):
        sa = [
            tuple(r)
            for r in spans[spans["coder"] == a][["document", "label", "start", "end"]].itertuples(
                index=False
            )
        ]
        sb = [
            tuple(r)
            for r in spans[spans["coder"] == b][["document", "label", "start", "end"]].itertuples(
                index=False
            )
        ]
        if match == "exact":
            matched = list((Counter(sa) & Counter(sb)).elements())
            per_label = Counter(m[1] for m in matched)
        else:
            cands = []
            for i, x in enumerate(sa):
                for j, y in enumerate(sb):
                    inter = min(x[3], y[3]) - max(x[2], y[2])
                    if x[0] == y[0] and x[1] == y[1] and inter > 0:
                        cands.append((-inter, x[2], y[2], i, j))
            used_a, used_b, per_label = set(), set(), Counter()
            for _, _, _, i, j in sorted(cands):
                if i not in used_a and j not in used_b:
                    used_a.add(i)
                    used_b.add(j)
                    per_label[sa[i][1]] += 1
        out[(a, b)] = (len(sa), len(sb), sum(per_label.values()), per_label)
    return out


@st.composite
def f1_spans(draw):
    rows = []
    for d in ["d1", "d2"][: draw(st.integers(1, 2))]:
        for c in ["A", "B", "C"][: draw(st.integers(2, 3))]:
            for _ in range(draw(st.integers(0, 6))):
                s = draw(st.integers(0, 15))
                rows.append((d, c, s, s + draw(st.integers(1, 6)), draw(st.sampled_from("XY"))))
    return frame(rows)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(f1_spans(), st.sampled_from(["exact", "overlap"]))
def test_span_f1_matches_brute_force(spans, match):
    if spans["coder"].nunique() < 2:
        return
    got = pa.span_f1(spans, match)
    for (a, b), (na, nb, m, per_label) in brute_f1(spans, match).items():
        rows = got[(got["coder_a"] == a) & (got["coder_b"] == b)].set_index("label")
        assert rows.loc[ALL_LABELS, ["n_a", "n_b", "matched"]].tolist() == [na, nb, m]
        for lab in rows.index.drop(ALL_LABELS):
            assert rows.loc[lab, "matched"] == per_label.get(lab, 0)
        if na + nb:
            assert rows.loc[ALL_LABELS, "f1"] == pytest.approx(2 * m / (na + nb))




def test_span_f1_against_bratiaa(tmp_path):
    bratiaa = pytest.importorskip("bratiaa")
    texts = {"d1": "Bill met Jill in Paris and Rome .", "d2": "Ann and Bob saw Berlin ."}
    spans = frame(
        [
            ("d1", "A", 0, 4, "PER"), ("d1", "A", 9, 13, "PER"), ("d1", "A", 17, 22, "LOC"),
            ("d1", "B", 0, 4, "PER"), ("d1", "B", 17, 22, "LOC"), ("d1", "B", 27, 31, "PER"),
            ("d1", "C", 0, 4, "PER"), ("d1", "C", 9, 13, "PER"), ("d1", "C", 27, 31, "LOC"),
            ("d2", "A", 0, 3, "PER"), ("d2", "A", 16, 22, "LOC"),
            ("d2", "B", 0, 3, "PER"), ("d2", "B", 8, 11, "PER"), ("d2", "B", 16, 22, "LOC"),
            ("d2", "C", 8, 11, "PER"), ("d2", "C", 16, 22, "PER"),
        ]
    )  # fmt: skip
    write_brat(tmp_path, spans, texts)
    agreement = bratiaa.compute_f1_agreement(str(tmp_path))
    matrix = agreement.compute_total_f1_matrix()
    names = agreement.annotators
    got = pa.span_f1(spans)
    total = got[got["label"] == ALL_LABELS]
    for a, b, f1 in zip(total["coder_a"], total["coder_b"], total["f1"]):
        assert f1 == pytest.approx(matrix[names.index(a), names.index(b)], abs=1e-12)
    mean_per_label, _ = agreement.mean_sd_per_label()
    per_label = got[got["label"] != ALL_LABELS].groupby("label")["f1"].mean()
    for lab, value in zip(agreement.labels, mean_per_label):
        assert per_label[lab] == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"match": "fuzzy"}, "`match` must be 'exact' or 'overlap', got 'fuzzy'"),
        ({"coders": ["A"]}, r"leaves out \['B'\]"),
    ],
)
def test_span_f1_bad_input(kwargs, match):
    spans = frame([("d", "A", 0, 3, "X"), ("d", "B", 0, 7, "X")])
    with pytest.raises(InvalidParameterError, match=match):
        pa.span_f1(spans, **kwargs)


def test_span_f1_needs_two_coders_and_reserved_label():
    with pytest.raises(InvalidParameterError, match=r"at least two coders, got 1: \['A'\]"):
        pa.span_f1(frame([("d", "A", 0, 3, "X")]))
    with pytest.raises(InvalidParameterError, match="rename that label"):
        pa.span_f1(frame([("d", "A", 0, 3, ALL_LABELS), ("d", "B", 0, 3, "X")]))


# ---------------------------------------------------------------------------------------------
# token kappa


def test_span_kappa_fleiss_equals_coefficient_on_units():
    spans = frame(
        [
            ("d", "A", 0, 3, "X"),
            ("d", "B", 0, 7, "X"),
            ("d", "C", 4, 7, "Y"),
            ("d", "A", 8, 11, "Y"),
        ]
    )
    texts = {"d": "abc def ghi jkl"}
    got = pa.span_kappa(spans, "fleiss", texts=texts)
    units = pa.spans_to_units(spans, texts=texts)
    # Fleiss by hand over 4 tokens x 3 coders: categories per token
    # t0: X X O, t1: O X Y, t2: Y O O, t3: O O O
    counts = np.array([[2, 0, 1], [1, 1, 1], [0, 1, 2], [0, 0, 3]])  # columns X, Y, O
    p_bar = ((counts * (counts - 1)).sum(axis=1) / 6).mean()
    p_e = ((counts.sum(axis=0) / 12) ** 2).sum()
    assert float(got) == pytest.approx((p_bar - p_e) / (1 - p_e), abs=1e-12)
    assert len(units) == 12


def test_span_kappa_multiple_labels():
    spans = frame([("d", "A", 0, 3, "X"), ("d", "A", 0, 3, "Y"), ("d", "B", 0, 3, "X")])
    texts = {"d": "abc def"}
    with pytest.raises(InvalidParameterError, match=r"1 token\(s\) carry several labels"):
        pa.span_kappa(spans, texts=texts)
    res = pa.span_kappa(spans, texts=texts, multiple="join")
    # token abc: A "X+Y", B "X"; token def: O, O. p_o = 1/2, p_e = 1/2 * 1/2 (O only)
    assert list(res.categories) == ["O", "X", "X+Y"]
    assert float(res) == pytest.approx((0.5 - 0.25) / 0.75, abs=1e-12)
    with pytest.raises(InvalidParameterError, match="`outside`='X' is also a span label"):
        pa.span_kappa(spans, texts=texts, outside="X")
    with pytest.raises(InvalidParameterError, match="`method` must be 'cohen' or 'fleiss'"):
        pa.span_kappa(spans, "scott", texts=texts)


# ---------------------------------------------------------------------------------------------
# span_report and the `pandas-agree spans` command


def test_span_report_rows_are_the_functions():
    texts = {"d1": "Bill met Jill in Paris .", "d2": "Ann saw Bob ."}
    spans = frame(
        [
            ("d1", "A", 0, 4, "PER"), ("d1", "A", 9, 13, "PER"), ("d1", "A", 17, 22, "LOC"),
            ("d1", "B", 0, 4, "PER"), ("d1", "B", 17, 22, "PER"),
            ("d2", "A", 0, 3, "PER"), ("d2", "B", 0, 3, "PER"), ("d2", "B", 8, 11, "PER"),
        ]
    )  # fmt: skip
    table = pa.span_report(spans, by_document=True, texts=texts)
    assert list(table.index) == ["d1", "d2", "(pooled)"]
    units = pa.spans_to_units(spans, texts=texts)
    pooled = table.loc["(pooled)"]
    assert pooled["alpha_masi"] == float(units.agree.alpha("masi"))
    assert pooled["alpha_nominal"] == float(units.agree.alpha("nominal"))
    cont = {"d1": len(texts["d1"]), "d2": len(texts["d2"])}
    assert pooled["alpha_u"] == float(pa.unitizing_alpha(spans, cont, on_overlap="merge"))
    f1 = pa.span_f1(spans, "overlap")
    assert pooled["f1_overlap"] == f1.loc[f1["label"] == ALL_LABELS, "f1"].iloc[0]
    d2 = pa.span_f1(spans[spans["document"] == "d2"])
    assert table.loc["d2", "f1_exact"] == pytest.approx(2 * 1 / 3)
    assert table.loc["d2", "f1_exact"] == d2["f1"].iloc[0]
    assert table["reason"].isna().all()


def test_span_report_reason_for_one_coder_document():
    spans = frame([("d1", "A", 0, 3, "X"), ("d1", "B", 0, 3, "X"), ("d2", "A", 0, 3, "X")])
    table = pa.span_report(spans, "char", by_document=True)
    assert np.isnan(table.loc["d2", "alpha_u"])
    assert "alpha_u: unitizing alpha needs at least two coders" in table.loc["d2", "reason"]


def _run(capsys, *argv):
    from pandas_agree.frontends.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_spans_brat(tmp_path, capsys):
    pytest.importorskip("pandas_agree.io")
    texts = {"d1": "Bill met Jill in Paris .", "d2": "Ann saw Bob ."}
    spans = frame(
        [
            ("d1", "A", 0, 4, "PER"), ("d1", "A", 9, 13, "PER"), ("d1", "A", 17, 22, "LOC"),
            ("d1", "B", 0, 4, "PER"), ("d1", "B", 17, 22, "PER"),
            ("d2", "A", 0, 3, "PER"), ("d2", "B", 0, 3, "PER"), ("d2", "B", 8, 11, "PER"),
        ]
    )  # fmt: skip
    write_brat(tmp_path, spans, texts)
    code, out, err = _run(
        capsys, "spans", tmp_path, "--from", "brat", "--by", "document", "--to", "csv"
    )
    assert code == 0, err
    got = pd.read_csv(__import__("io").StringIO(out), index_col=0)
    want = pa.span_report(spans, by_document=True, texts=texts)
    assert list(got.index) == ["d1", "d2", "(pooled)"]
    assert (got["unit"] == "token").all()
    for col in ["alpha_masi", "alpha_nominal", "alpha_u", "f1_exact", "f1_overlap"]:
        np.testing.assert_allclose(got[col].to_numpy(), want[col].to_numpy(), rtol=1e-12)


def test_cli_spans_errors(tmp_path, capsys):
    pytest.importorskip("pandas_agree.io")
    code, _, err = _run(capsys, "spans", tmp_path / "nope", "--from", "brat")
    assert code == 2 and "no such file or directory" in err
    code, _, err = _run(capsys, "spans", tmp_path, "--from", "excel")
    assert code == 2 and "invalid choice: 'excel'" in err
    from pandas_agree.io import example_path

    # Label Studio holds the task texts: token units by default
    path = example_path("label_studio.json")
    code, out, err = _run(capsys, "spans", path, "--from", "label-studio")
    assert code == 0 and "token" in out, err
    # an export without texts: --unit token is refused, char units are the default
    tasks = json.loads(path.read_text(encoding="utf-8"))
    for task in tasks:
        task["data"] = {"page": task["data"]["text"]}
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(tasks), encoding="utf-8")
    code, _, err = _run(capsys, "spans", bare, "--from", "label-studio", "--unit", "token")
    assert code == 2 and "--unit token needs the document texts" in err
    code, out, err = _run(capsys, "spans", bare, "--from", "label-studio")
    assert code == 0 and "char" in out


@pytest.mark.parametrize(
    ("fmt", "example", "reader", "unit"),
    [
        # every bundled export holds its texts: token units by default
        pytest.param("label-studio", "label_studio.json", "read_label_studio", "token", id="ls"),
        pytest.param("webanno", "webanno", "read_webanno_tsv", "token", id="webanno"),
        pytest.param("jsonl", "doccano", "read_jsonl", "token", id="doccano"),
        pytest.param("jsonl", "prodigy.jsonl", "read_jsonl", "token", id="prodigy"),
    ],
)
@pytest.mark.slow
def test_cli_spans_bundled_exports_match_span_report(capsys, fmt, example, reader, unit):
    io = pytest.importorskip("pandas_agree.io")
    path = io.example_path(example)
    code, out, err = _run(
        capsys, "spans", path, "--from", fmt, "--by", "document", "--to", "json"
    )
    assert code == 0, err
    got = pd.read_json(__import__("io").StringIO(out), orient="records")
    want = pa.span_report(getattr(io, reader)(path), unit, by_document=True)
    assert got["unit"].eq(unit).all()
    for col in ["alpha_masi", "alpha_nominal", "alpha_u", "f1_exact", "f1_overlap"]:
        np.testing.assert_allclose(got[col].to_numpy(float), want[col].to_numpy(float), rtol=1e-9)


def test_cli_spans_conll2012_counts_every_token(capsys):
    io = pytest.importorskip("pandas_agree.io")
    path = io.example_path("conll2012")
    code, out, err = _run(capsys, "spans", path, "--from", "conll2012", "--to", "csv")
    assert code == 0, err
    got = pd.read_csv(__import__("io").StringIO(out), index_col=0)
    n_tokens = io.conll2012_tokens(path).groupby("document")["token"].nunique().sum()
    assert got.loc["(pooled)", "unit"] == "token"
    assert got.loc["(pooled)", "n_units"] == n_tokens


def test_coverage_gives_empty_sets_to_coders_without_spans():
    spans = frame([("d1", "A", 0, 3, "X"), ("d1", "B", 0, 3, "X"), ("d2", "A", 0, 3, "X")])
    texts = {"d1": "abc d", "d2": "abc d", "d3": "abc"}
    cov = [("d1", "A"), ("d1", "B"), ("d2", "A"), ("d2", "B")]
    got = pa.spans_to_units(spans, texts=texts, coverage=iter(cov))
    want = brute_units(spans, "token", {"d1": texts["d1"], "d2": texts["d2"]}, ["A", "B"])
    assert [tuple(r) for r in got.drop(columns="unit").itertuples(index=False)] == [
        r[1:] for r in want
    ]
    # without coverage, B is missing in d2 (no rows), not empty
    plain = pa.spans_to_units(spans, texts=texts)
    assert set(plain.loc[plain["document"] == "d2", "coder"]) == {"A"}
    # a covered document without text, tokens or spans has no units
    char = pa.spans_to_units(spans, "char", coverage=[("d9", "A"), ("d9", "B")])
    assert "d9" not in set(char["document"])


def test_coverage_bad_input():
    spans = frame([("d1", "A", 0, 3, "X"), ("d1", "B", 0, 3, "X")])
    texts = {"d1": "abc"}
    with pytest.raises(InvalidParameterError, match="pass `coders` or `coverage`, not both"):
        pa.spans_to_units(spans, texts=texts, coders=["A", "B"], coverage=[("d1", "A")])
    with pytest.raises(InvalidParameterError, match=r"pairs, got the item \('d1',\)"):
        pa.spans_to_units(spans, texts=texts, coverage=[("d1",)])
    with pytest.raises(InvalidParameterError, match="pairs, got 'd1'"):
        pa.spans_to_units(spans, texts=texts, coverage="d1")
    with pytest.raises(InvalidParameterError, match="'d2', which is not in `documents`"):
        pa.spans_to_units(spans, texts=texts, documents=["d1"], coverage=[("d2", "A")])


def test_cli_spans_counts_empty_ann_files(tmp_path, capsys):
    pytest.importorskip("pandas_agree.io")
    texts = {"d1": "Bill met Jill .", "d2": "Ann saw Bob ."}
    spans = frame([("d1", "A", 0, 4, "PER"), ("d1", "B", 0, 4, "PER"), ("d2", "A", 0, 3, "PER")])
    write_brat(tmp_path, spans, texts)  # B's d2.ann is empty: B saw d2 and marked nothing
    code, out, err = _run(capsys, "spans", tmp_path, "--from", "brat", "--to", "csv")
    assert code == 0, err
    got = pd.read_csv(__import__("io").StringIO(out), index_col=0)
    units = pa.spans_to_units(spans, texts=texts, coders=["A", "B"])
    assert got.loc["(pooled)", "alpha_nominal"] == pytest.approx(
        float(units.agree.alpha("nominal")), rel=1e-12
    )
    assert got.loc["(pooled)", "n_units"] == 8  # 4 + 4 whitespace tokens


def test_span_f1_coverage_compares_documents_both_saw(tmp_path):
    bratiaa = pytest.importorskip("bratiaa")
    io = pytest.importorskip("pandas_agree.io")
    texts = {"d1": "Bill met Jill in Paris .", "d2": "Ann and Bob saw Berlin ."}
    spans = frame(
        [
            ("d1", "A", 0, 4, "PER"), ("d1", "A", 17, 22, "LOC"), ("d1", "B", 0, 4, "PER"),
            ("d2", "A", 0, 3, "PER"), ("d2", "A", 16, 22, "LOC"), ("d2", "B", 0, 3, "PER"),
            ("d1", "C", 0, 4, "PER"), ("d1", "C", 9, 13, "PER"),
        ]
    )  # fmt: skip
    write_brat(tmp_path, spans, texts)
    (tmp_path / "C" / "d2.ann").unlink()  # C never saw d2
    (tmp_path / "C" / "d2.txt").unlink()
    read = io.read_brat(tmp_path)
    assert ("d2", "C") not in read.attrs["coverage"]
    # bratiaa compares only documents every annotator has: here d1
    agreement = bratiaa.compute_f1_agreement(str(tmp_path))
    matrix, names = agreement.compute_total_f1_matrix(), agreement.annotators
    d1 = pa.span_f1(spans[spans["document"] == "d1"])
    d1 = d1[d1["label"] == ALL_LABELS]
    for a, b, f1 in zip(d1["coder_a"], d1["coder_b"], d1["f1"]):
        assert f1 == pytest.approx(matrix[names.index(a), names.index(b)], abs=1e-12)
    got = pa.span_f1(spans, coverage=read.attrs["coverage"])
    total = got[got["label"] == ALL_LABELS].set_index(["coder_a", "coder_b"])
    for a, b in [("A", "C"), ("B", "C")]:  # pairs with C: only d1, as bratiaa
        assert total.loc[(a, b), "f1"] == pytest.approx(matrix[names.index(a), names.index(b)])
    # A-B saw both documents: 4 and 2 spans, 2 matches; A-C and B-C only d1
    assert total.loc[("A", "B"), ["n_a", "n_b", "matched"]].tolist() == [4, 2, 2]
    assert total.loc[("A", "C"), ["n_a", "n_b", "matched"]].tolist() == [2, 2, 1]
    assert total.loc[("B", "C"), ["n_a", "n_b", "matched"]].tolist() == [1, 2, 1]
    without = pa.span_f1(spans).set_index(["coder_a", "coder_b"])
    assert without.loc[("A", "C")].iloc[0]["n_a"] == 4  # d2's spans count as C's misses
    with pytest.raises(InvalidParameterError, match=r"leaves out \('d2', 'A'\)"):
        pa.span_f1(spans, coverage=[("d1", "A"), ("d1", "B"), ("d1", "C")])
