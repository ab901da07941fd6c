"""Tests of pandas_agree.tasks.pyramid.annotation against Passonneau (2006), "Measuring Agreement on
Set-valued Items (MASI)" (seed paper 000: section 2, section 3.3, Figures 1, 4, 5, Tables 1,
2) and Passonneau (2005), the DUC 2003 pyramid report (seed paper 003: sections 4 and 7).
"""

from __future__ import annotations

import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree import pyramid
from pandas_agree.datasets.passonneau import pyramid_figure1, pyramid_figure5
from pandas_agree.errors import ColumnNotFoundError, DuplicateRatingError, InvalidParameterError

# Passonneau (2006), Figure 4, transcribed: span -> (A1's set, A2's set), span kept in its set.
FIGURE4 = {
    1: ({1, 2, 3, 4}, {1, 2, 3, 4, 5, 6, 7}),
    2: ({1, 2, 3, 4}, {1, 2, 3, 4, 5, 6, 7}),
    3: ({1, 2, 3, 4}, {1, 2, 3, 4, 5, 6, 7}),
    4: ({1, 2, 3, 4}, {1, 2, 3, 4, 5, 6, 7}),
    5: ({5, 7}, {1, 2, 3, 4, 5, 6, 7}),
    6: ({6}, {1, 2, 3, 4, 5, 6, 7}),
    7: ({5, 7}, {1, 2, 3, 4, 5, 6, 7}),
}


def matrix(codes: pd.DataFrame) -> dict:
    return {(u, c): v for u, c, v in zip(codes["unit"], codes["coder"], codes["value"])}


def test_figure1_equivalence_classes():
    # Passonneau (2006), Figure 1, bottom: "A1 {1, 2, 3, 4} {5, 7} {6}; A2 {1, ..., 7}".
    df = pyramid_figure1()
    got = {
        who: {frozenset(g["span"]) for _, g in part.groupby("scu")}
        for who, part in df.groupby("annotator")
    }
    assert got == {
        "A1": {frozenset({1, 2, 3, 4}), frozenset({5, 7}), frozenset({6})},
        "A2": {frozenset(range(1, 8))},
    }


def test_figure4_reproduced_with_keep_self():
    # Passonneau (2006), Figure 4: the agreement matrix of Figure 1 with spans as units. It is
    # printed with each span still in its own set, so keep_self=True reproduces it exactly.
    codes = pyramid.scus_to_codes(pyramid_figure1(), docset=None, token="span", keep_self=True)
    expected = {
        (span, who): frozenset(sets[i])
        for span, sets in FIGURE4.items()
        for i, who in enumerate(("A1", "A2"))
    }
    assert matrix(codes) == expected
    assert len(codes) == 14


def test_figure4_agrees_with_the_core_transcription():
    # Passonneau (2006), Figure 4, as transcribed independently in pa.datasets.masi_figures().
    codes = pyramid.scus_to_codes(pyramid_figure1(), docset=None, token="span", keep_self=True)
    fig4 = pa.datasets.masi_figures().query("figure == 'figure4'")
    assert matrix(codes) == matrix(fig4)


def test_default_excludes_the_token_itself():
    # Passonneau (2005), section 4: "each coding value is the set of tokens in the SCU the word
    # was assigned to, excluding the current token"; Passonneau (2006), section 3.3: "the
    # coding unit itself must be removed".
    codes = pyramid.scus_to_codes(pyramid_figure1(), docset=None, token="span")
    expected = {
        (span, who): frozenset(sets[i]) - {span}
        for span, sets in FIGURE4.items()
        for i, who in enumerate(("A1", "A2"))
    }
    assert matrix(codes) == expected
    assert codes.loc[(codes["unit"] == 6) & (codes["coder"] == "A1"), "value"].item() == frozenset()


def test_table1_nominal_spans_is_zero_without_self():
    # Passonneau (2006), Table 1, row "spans", column "Nominal": 0. With the span removed
    # (section 3.3) all fourteen sets of Figure 4 differ, so nominal alpha is exactly 0. The
    # Jaccard (-.44) and MASI (0.14) cells of that row are not reproduced from Figure 4
    # (documented in docs/coref_pyramid.md), and are not tested.
    codes = pyramid.scus_to_codes(pyramid_figure1(), docset=None, token="span")
    assert codes["value"].nunique() == 14
    assert pa.alpha(codes, "nominal").alpha == pytest.approx(0.0, abs=1e-12)


def test_docset_column_qualifies_units():
    # Passonneau (2006), Table 2 / Passonneau (2005), Table 4 report one alpha per docset.
    # Figure 1 is docset 31038; the units become (docset, span) pairs and per-docset alpha is
    # unchanged by the qualification.
    df = pyramid_figure1()
    codes = pyramid.scus_to_codes(df, token="span")
    assert list(codes.columns) == ["docset", "span", "unit", "coder", "value"]
    assert codes["unit"].tolist() == [(31038, s) for s in df["span"]]
    plain = pyramid.scus_to_codes(df, docset=None, token="span")
    for distance in ("nominal", "jaccard", "masi"):
        assert pa.alpha(codes, distance).alpha == pytest.approx(
            pa.alpha(plain, distance).alpha, abs=1e-12
        )


def test_alpha_by_docset_via_groupby():
    # Passonneau (2006), Table 2 layout: docsets x {nominal, jaccard, masi}. Figures 1 and 5 as
    # two docsets (Figure 5 names no docset; "fig5" is a label for this test). Each docset's
    # row equals alpha of that figure alone.
    fig1 = pyramid_figure1()
    fig5 = pyramid_figure5().assign(docset="fig5")
    both = pd.concat([fig1.astype({"docset": object}), fig5], ignore_index=True)
    codes = pyramid.scus_to_codes(both, token="span")
    distances = ["nominal", "jaccard", "masi"]
    table = codes.groupby("docset", sort=False).apply(
        lambda g: pd.Series({d: pa.alpha(g, d).alpha for d in distances}), include_groups=False
    )
    assert table.index.tolist() == [31038, "fig5"]
    for doc, part in ((31038, fig1), ("fig5", fig5)):
        alone = pyramid.scus_to_codes(part, docset=None, token="span")
        for d in distances:
            assert table.loc[doc, d] == pytest.approx(pa.alpha(alone, d).alpha, abs=1e-12)
    # The report gives the same rows in one call (the table of Passonneau 2006, Table 2).
    rep = pa.report(codes.astype({"docset": str}), distances, by="docset")
    for doc in (31038, "fig5"):
        for d in distances:
            assert rep.loc[str(doc), d] == pytest.approx(table.loc[doc, d], abs=1e-12)


def test_scu_weights_figure1_and_figure5():
    # Passonneau (2006), Figure 1: A1's SCU "Weight=4", A2's "Weight=5" (seven spans, two each
    # from Sum1 and Sum3 in A2's box). Figure 5: SCU-101 weight 2, SCU-102 1, SCU-201 2,
    # SCU-202 1. (A1's spans 5-7 have no printed summaries and are left out.)
    fig1 = pyramid_figure1()
    w1 = pyramid.scu_weights(fig1[fig1["summary"].notna()])
    assert w1[["annotator", "scu", "weight", "n_tokens"]].to_numpy().tolist() == [
        ["A1", 1, 4, 4],
        ["A2", 1, 5, 7],
    ]
    w5 = pyramid.scu_weights(pyramid_figure5(), docset=None)
    assert dict(zip(w5["scu"], w5["weight"])) == {101: 2, 102: 1, 201: 2, 202: 1}


def test_mean_scu_weight_figure5():
    # Passonneau (2005), section 7: MSW is the mean SCU weight of a pyramid; Passonneau (2006),
    # Figure 5: each annotator's SCUs weigh 2 and 1.
    msw = pyramid.mean_scu_weight(pyramid_figure5(), docset=None)
    assert msw.name == "mean_scu_weight" and msw.index.name == "annotator"
    assert msw.to_dict() == {"A1": (2 + 1) / 2, "A2": (2 + 1) / 2}


def test_mean_scu_weight_table7_layout():
    # Passonneau (2005), Table 7: one MSW per (docset, annotator). Figure 1 (docset 31038,
    # printed summaries only) and Figure 5 (labelled "fig5" here).
    fig1 = pyramid_figure1()
    fig1 = fig1[fig1["summary"].notna()].astype({"docset": object})
    both = pd.concat([fig1, pyramid_figure5().assign(docset="fig5")], ignore_index=True)
    msw = pyramid.mean_scu_weight(both)
    assert msw.index.names == ["docset", "annotator"]
    assert msw.to_dict() == {
        (31038, "A1"): 4.0,
        (31038, "A2"): 5.0,
        ("fig5", "A1"): 1.5,
        ("fig5", "A2"): 1.5,
    }


def test_unassigned_words_are_singletons_not_scus():
    # Passonneau (2006), section 3.3: "words that are not grouped with other words [...] form
    # singleton sets". A missing SCU id is such a word: an empty set (span removed), no SCU.
    df = pyramid_figure5()
    df["scu"] = df["scu"].astype(object)
    df.loc[df["span"] == 3, "scu"] = None
    df = df[~((df["annotator"] == "A2") & (df["span"] == 3))]
    df = pd.concat([df, pd.DataFrame([{"annotator": "A2", "scu": None, "span": 3}])])
    codes = pyramid.scus_to_codes(df, docset=None, token="span")
    got = matrix(codes)
    assert got[(3, "A1")] == frozenset() and got[(3, "A2")] == frozenset()
    assert got[(1, "A2")] == frozenset()  # SCU-201 lost span 3
    w = pyramid.scu_weights(df[df["scu"].notna()], docset=None)
    assert sorted(w["scu"]) == [101, 201, 202]
    pd.testing.assert_frame_equal(pyramid.scu_weights(df, docset=None), w)


def test_missing_tokens():
    # Passonneau (2006), section 3.3: "every word token, belongs to exactly one class"; a span
    # one annotator lacks is an error unless asked to count it as a singleton.
    df = pyramid_figure1()
    partial = df[~((df["annotator"] == "A1") & (df["span"] == 6))]
    with pytest.raises(InvalidParameterError) as err:
        pyramid.scus_to_codes(partial, token="span")
    msg = str(err.value)
    assert "docset 31038, annotator 'A1' lacks [6]" in msg and "['A2']" in msg
    assert "missing_tokens='singleton'" in msg
    filled = pyramid.scus_to_codes(partial, token="span", docset=None, missing_tokens="singleton")
    full = pyramid.scus_to_codes(df, token="span", docset=None)
    assert matrix(filled) == matrix(full)
    assert len(filled) == len(full)


def test_validation_and_no_mutation():
    df = pyramid_figure1()
    before = df.copy()
    with pytest.raises(ColumnNotFoundError, match="`token` column 'token'"):
        pyramid.scus_to_codes(df)
    with pytest.raises(ColumnNotFoundError, match="`docset` column 'pyramid'"):
        pyramid.scus_to_codes(df, docset="pyramid", token="span")
    with pytest.raises(InvalidParameterError, match="`keep_self` must be True or False"):
        pyramid.scus_to_codes(df, token="span", keep_self="no")
    with pytest.raises(InvalidParameterError, match="`missing_tokens` must be one of"):
        pyramid.scus_to_codes(df, token="span", missing_tokens=True)
    dup = pd.concat([df, df.iloc[[0]]], ignore_index=True)
    with pytest.raises(DuplicateRatingError, match="docset 31038: annotator 'A1', token 1"):
        pyramid.scus_to_codes(dup, token="span")
    with pytest.raises(InvalidParameterError, match="`summary` column 'summary' is missing in 3"):
        pyramid.scu_weights(df)
    with pytest.raises(ColumnNotFoundError, match="`summary` column 'sum'"):
        pyramid.mean_scu_weight(df, summary="sum")
    pyramid.scus_to_codes(df, token="span")
    pyramid.scu_weights(df[df["summary"].notna()])
    pd.testing.assert_frame_equal(df, before)
