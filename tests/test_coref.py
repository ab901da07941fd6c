"""Tests of pandas_agree.tasks.coref against Passonneau (1997), "Applying Reliability Metrics to
Co-Reference Annotation", CUCS-017-97 (seed paper 004), and Passonneau (2006), MASI
(seed paper 000), section 3.3.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from definitions import masi
from hypothesis import given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree import coref
from pandas_agree.datasets.passonneau import coref_sample2
from pandas_agree.errors import (
    ColumnNotFoundError,
    DegenerateDataWarning,
    DuplicateRatingError,
    InvalidParameterError,
)


def classes(df: pd.DataFrame, who: str) -> set[frozenset]:
    """A coder's equivalence classes, read off the chain indices of the figure."""
    rows = df[df["coder"] == who]
    return {frozenset(g["mention"]) for _, g in rows.groupby("chain")}


def long_chains(partitions: dict[str, list[set]], document: str | None = None) -> pd.DataFrame:
    """Long chain data from {coder: [class, ...]} (classes numbered from 1 per coder)."""
    rows = [
        (coder, m, k)
        for coder, parts in partitions.items()
        for k, part in enumerate(parts, start=1)
        for m in sorted(part)
    ]
    df = pd.DataFrame(rows, columns=["coder", "mention", "chain"])
    if document is not None:
        df.insert(0, "document", document)
    return df


# ---------------------------------------------------------------------------------------------
# The bundled data: Figures 1 and 2 of Passonneau (1997)


def test_sample2_figure2_matches_printed_equivalence_classes():
    # Passonneau (1997), Figure 2: the CA1 and CA3 index columns give the equivalence
    # classes printed beside them; D' is CA1's singleton (index 4, section 2.1).
    df = coref_sample2()
    f = frozenset
    assert classes(df, "CA1") == {f("ABDGI"), f("CEF"), f({"H", "J"}), f({"D'"})}
    assert classes(df, "CA3") == {f("ABGI"), f("CEF"), f({"D", "D'"}), f({"H", "J"})}
    assert df.groupby("coder").size().to_dict() == {"CA1": 11, "CA3": 11}


def test_sample2_figure1_matches_section2_text():
    # Passonneau (1997), section 2: CA1 = {A, B, D, G, I}, {C, E, F} (and {H, J}); CA2 puts
    # D with C: {A, B, G, I}, {C, D, E, F}. Ten markables A-J, no D'.
    df = coref_sample2(figure=1)
    f = frozenset
    assert classes(df, "CA1") == {f("ABDGI"), f("CEF"), f("HJ")}
    assert classes(df, "CA2") == {f("ABGI"), f("CDEF"), f("HJ")}
    assert sorted(df["mention"].unique()) == list("ABCDEFGHIJ")


def test_sample2_bad_figure():
    with pytest.raises(InvalidParameterError, match="`figure` must be 1 or 2, got 3"):
        coref_sample2(figure=3)


# ---------------------------------------------------------------------------------------------
# chains_to_codes


def test_codes_are_class_minus_self():
    # Passonneau (2006), section 3.3: "Before comparing the sets [...] the coding unit itself
    # must be removed." Figure 2 of Passonneau (1997): a chain of k markables gives k sets of
    # k - 1 markables; a singleton gives the empty set.
    df = coref_sample2()
    codes = coref.chains_to_codes(df, document=None)
    assert list(codes.columns) == ["mention", "unit", "coder", "value"]
    assert len(codes) == len(df)
    for who in ("CA1", "CA3"):
        for cls in classes(df, who):
            rows = codes[(codes["coder"] == who) & codes["unit"].isin(cls)]
            assert len(rows) == len(cls)
            for unit, value in zip(rows["unit"], rows["value"]):
                assert value == cls - {unit}
                assert len(value) == len(cls) - 1
    d_prime = codes[(codes["unit"] == "D'") & (codes["coder"] == "CA1")]["value"].item()
    assert d_prime == frozenset()


def test_keep_self_keeps_the_whole_class():
    # Passonneau (2006), Figures 2-4 print the sets with the unit still in them.
    df = coref_sample2()
    codes = coref.chains_to_codes(df, document=None, keep_self=True)
    for who in ("CA1", "CA3"):
        got = set(codes.loc[codes["coder"] == who, "value"])
        assert got == classes(df, who)


def test_masi_alpha_matches_an_independent_implementation():
    # Passonneau (2006), section 3.3: MASI = J * M (M = 1, 2/3, 1/3, 0), on the codes of
    # Passonneau (1997), Figure 2. Cross-check the whole path (conversion + alpha) with
    # NLTK's Krippendorff alpha and a MASI written from the paper's definition.
    agreement = pytest.importorskip("nltk.metrics.agreement")

    codes = coref.chains_to_codes(coref_sample2(), document=None)
    task = agreement.AnnotationTask(
        data=list(zip(codes["coder"], codes["unit"], codes["value"])), distance=masi
    )
    assert pa.alpha(codes, distance="masi").alpha == pytest.approx(task.alpha(), abs=1e-12)


def test_document_qualifies_units_and_set_elements():
    # Passonneau (1997), Table 4 scores many narratives; mentions are only comparable within
    # one. Two documents reusing the labels of sample 2 (Figures 1 and 2) never share units
    # or set elements, and each document's alpha is that of the document alone.
    fig2 = coref_sample2().replace({"coder": {"CA3": "other"}})
    fig1 = coref_sample2(figure=1).replace(
        {"coder": {"CA2": "other"}, "document": {"sample2": "f1"}}
    )
    both = pd.concat([fig2, fig1], ignore_index=True)
    codes = coref.chains_to_codes(both)
    assert list(codes.columns) == ["document", "mention", "unit", "coder", "value"]
    assert codes["unit"].tolist() == list(zip(both["document"], both["mention"]))
    for doc, value in zip(codes["document"], codes["value"]):
        assert all(element[0] == doc for element in value)
    for doc, part in (("sample2", fig2), ("f1", fig1)):
        alone = pa.alpha(coref.chains_to_codes(part, document=None), "masi").alpha
        within = pa.alpha(codes[codes["document"] == doc], "masi").alpha
        assert within == pytest.approx(alone, abs=1e-12)


def test_chain_ids_are_local_to_each_coder_and_missing_means_singleton():
    # Passonneau (1997), section 2: chain indices only name a coder's own classes; a markable
    # without coreferring expressions is a singleton (D' in CA1, section 2.1).
    df = coref_sample2()
    renamed = df.copy()
    ca3 = renamed["coder"] == "CA3"
    renamed.loc[ca3, "chain"] = renamed.loc[ca3, "chain"] + 100
    renamed["chain"] = renamed["chain"].astype(object)
    renamed.loc[(renamed["coder"] == "CA1") & (renamed["mention"] == "D'"), "chain"] = None
    a = coref.chains_to_codes(df, document=None)
    b = coref.chains_to_codes(renamed, document=None)
    pd.testing.assert_frame_equal(a, b)


def test_each_missing_chain_id_is_its_own_singleton():
    # Passonneau (1997), section 2.1: a markable with no coreferring expression is a class by
    # itself. Two mentions without a chain id are two singletons, not one chain.
    explicit = long_chains({"X": [{"A", "B"}, {"C"}, {"D"}], "Y": [{"A", "B", "C", "D"}]})
    implicit = explicit.astype({"chain": object})
    implicit.loc[implicit["mention"].isin(["C", "D"]) & (implicit["coder"] == "X"), "chain"] = None
    a = coref.chains_to_codes(explicit, document=None)
    b = coref.chains_to_codes(implicit, document=None)
    pd.testing.assert_frame_equal(a, b)
    assert set(b.loc[b["coder"] == "X", "value"]) == {frozenset("A"), frozenset("B"), frozenset()}
    assert coref.link_table(implicit, document=None).c == 0


def test_input_is_not_modified():
    df = coref_sample2()
    before = df.copy()
    coref.chains_to_codes(df)
    coref.link_table(df)
    pd.testing.assert_frame_equal(df, before)


def test_markables_must_match_and_singleton_option():
    # Passonneau (1997), section 2.1: CA1 "originally placed ten expressions into equivalence
    # classes, while coding CA3 does so for eleven", which "prevents creation of a contingency
    # table"; treating D' as a singleton in CA1 gives Figure 2's CA1.
    fig1_ca1 = coref_sample2(figure=1).query("coder == 'CA1'")
    fig2 = coref_sample2()
    mixed = pd.concat([fig1_ca1, fig2.query("coder == 'CA3'")], ignore_index=True)
    with pytest.raises(InvalidParameterError) as err:
        coref.chains_to_codes(mixed)
    msg = str(err.value)
    assert "coder 'CA1' lacks [\"D'\"]" in msg and "['CA3']" in msg
    assert "missing_markables='singleton'" in msg and "document 'sample2'" in msg
    with pytest.raises(InvalidParameterError, match="lacks"):
        coref.link_table(mixed)

    filled = coref.chains_to_codes(mixed, missing_markables="singleton")
    expected = coref.chains_to_codes(fig2)
    key = ["coder", "mention"]
    pd.testing.assert_frame_equal(
        filled.sort_values(key).reset_index(drop=True)[["unit", "coder", "value"]],
        expected.sort_values(key).reset_index(drop=True)[["unit", "coder", "value"]],
    )
    table = coref.link_table(mixed, coders=("CA1", "CA3"), missing_markables="singleton")
    assert (table.a, table.b, table.c, table.d) == (6, 1, 1, 2)


def test_every_lacking_markable_becomes_its_own_singleton():
    # Passonneau (1997), section 2.1 (D' in CA1): a markable a coder lacks is a singleton. If
    # CA3 of Figure 2 lacked both D and D', they would be two singletons, not one chain.
    fig2 = coref_sample2()
    lacking = fig2[~((fig2["coder"] == "CA3") & fig2["mention"].isin(["D", "D'"]))]
    explicit = fig2.copy()
    explicit.loc[(explicit["coder"] == "CA3") & (explicit["mention"] == "D"), "chain"] = 98
    explicit.loc[(explicit["coder"] == "CA3") & (explicit["mention"] == "D'"), "chain"] = 99
    filled = coref.link_table(lacking, missing_markables="singleton")
    direct = coref.link_table(explicit)
    assert (filled.a, filled.b, filled.c, filled.d) == (direct.a, direct.b, direct.c, direct.d)
    codes = coref.chains_to_codes(lacking, missing_markables="singleton")
    added = codes.iloc[len(lacking) :]
    assert added["unit"].tolist() == [("sample2", "D"), ("sample2", "D'")]
    assert added["value"].tolist() == [frozenset(), frozenset()]


def test_chains_to_codes_validation():
    df = coref_sample2()
    with pytest.raises(ColumnNotFoundError, match="`document` column 'doc'"):
        coref.chains_to_codes(df, document="doc")
    with pytest.raises(ColumnNotFoundError, match="`mention` column 'token'"):
        coref.chains_to_codes(df, mention="token")
    with pytest.raises(InvalidParameterError, match="`keep_self` must be True or False, got 1"):
        coref.chains_to_codes(df, keep_self=1)
    with pytest.raises(InvalidParameterError, match="`missing_markables` must be one of"):
        coref.chains_to_codes(df, missing_markables="drop")
    dup = pd.concat([df, df.iloc[[3]].assign(chain=9)], ignore_index=True)
    with pytest.raises(DuplicateRatingError, match="coder 'CA1', mention 'D'"):
        coref.chains_to_codes(dup)
    no_label = df.astype({"mention": object})
    no_label.loc[2, "mention"] = None
    with pytest.raises(InvalidParameterError, match=r"`mention` column 'mention' has 1 missing"):
        coref.chains_to_codes(no_label)
    with pytest.raises(InvalidParameterError, match="no rows"):
        coref.chains_to_codes(df.iloc[:0])
    with pytest.raises(InvalidParameterError, match="clash"):
        coref.chains_to_codes(df.rename(columns={"document": "value"}), document="value")


# ---------------------------------------------------------------------------------------------
# link_table and table_agreement


def test_table2_ca1_by_ca3():
    # Passonneau (1997), section 2.1 and Table 2: a = 6, b = c = 1, d = 2 (total = 11 - 1);
    # Recall = Precision = 6/7 = 85.7% (eqs. 18, 19); p_AO = .6 + .2 (21),
    # p_AE = .7 * .7 + .3 * .3 (22), p_DE = .7 * .3 + .7 * .3 (26); kappa = alpha = .52 (28).
    res = coref.link_table(coref_sample2(), coders=("CA1", "CA3"))
    assert (res.a, res.b, res.c, res.d) == (6, 1, 1, 2)
    assert res.n == 10 and res.n_markables == 11 and res.n_documents == 1
    assert res.recall == pytest.approx(0.857, abs=5e-4)
    assert res.precision == pytest.approx(0.857, abs=5e-4)
    assert res.observed_agreement == pytest.approx(0.6 + 0.2, abs=1e-12)
    assert res.expected_agreement == pytest.approx(0.7 * 0.7 + 0.3 * 0.3, abs=1e-12)
    assert res.kappa == pytest.approx(0.52, abs=5e-3)
    assert res.alpha == pytest.approx(1 - (0.1 + 0.1) / (0.7 * 0.3 + 0.7 * 0.3), abs=1e-12)
    assert res.alpha == pytest.approx(0.52, abs=5e-3)
    assert float(res) == res.kappa
    assert res.table.to_numpy().tolist() == [[6, 1], [1, 2]]
    assert res.table.index.name == "CA3" and res.table.columns.name == "CA1"
    assert repr(res) == (
        "LinkAgreement(kappa=0.5238, recall=0.8571, precision=0.8571, a=6, b=1, c=1, d=2)"
    )
    s = res.to_series()
    assert s["kappa"] == res.kappa and s["n"] == 10 and s.name == "link_table"


def test_default_coders_are_the_two_in_order_of_appearance():
    # Passonneau (1997), Table 2: the same table without naming the coders.
    res = coref.link_table(coref_sample2())
    assert res.coders == ("CA1", "CA3")
    assert (res.a, res.b, res.c, res.d) == (6, 1, 1, 2)


def test_figure1_recall_and_precision():
    # Passonneau (1997), eqs. (12) and (15): CA2 against CA1 has recall
    # ((5-2)+(3-1)+(2-1)) / ((5-1)+(3-1)+(2-1)) = .86 and precision
    # ((4-1)+(4-2)+(2-1)) / ((4-1)+(4-1)+(2-1)) = .86.
    res = coref.link_table(coref_sample2(figure=1), coders=("CA1", "CA2"))
    recall_12 = ((5 - 2) + (3 - 1) + (2 - 1)) / ((5 - 1) + (3 - 1) + (2 - 1))
    precision_15 = ((4 - 1) + (4 - 2) + (2 - 1)) / ((4 - 1) + (4 - 1) + (2 - 1))
    assert res.recall == pytest.approx(recall_12)
    assert res.precision == pytest.approx(precision_15)
    assert round(res.recall, 2) == 0.86 and round(res.precision, 2) == 0.86
    assert res.n == 10 - 1


def test_swapping_coders_swaps_b_and_c_recall_and_precision():
    # Passonneau (1997), Figure 3: recall is a / (a + c) with the column coding as target,
    # precision a / (a + b); kappa is symmetric.
    df = coref_sample2(figure=1)
    ab = coref.link_table(df, coders=("CA1", "CA2"))
    ba = coref.link_table(df, coders=("CA2", "CA1"))
    assert (ab.b, ab.c) == (ba.c, ba.b)
    assert (ab.recall, ab.precision) == pytest.approx((ba.precision, ba.recall))
    assert ab.kappa == pytest.approx(ba.kappa)


def test_table3_kappa():
    # Passonneau (1997), Table 3: (166, 19, 13, 44), total 242, kappa = .65 (31).
    res = coref.table_agreement(166, 19, 13, 44)
    assert res.kappa == pytest.approx(0.65, abs=5e-3)
    assert res.n == 242
    assert res.n_markables is None and res.coders is None


def test_table3_recall_and_precision_as_printed():
    # Passonneau (1997), Table 3 prints Recall .90 (29) and Precision .93 (30). With the table
    # laid out as printed (rows R2, columns R1) Figure 3's a / (a + c) is 166/179 = .93 and
    # a / (a + b) is 166/185 = .90: the printed values take R2 (the rows) as the target, i.e.
    # b and c exchanged.
    as_laid_out = coref.table_agreement(166, 19, 13, 44)
    assert as_laid_out.recall == pytest.approx(0.93, abs=5e-3)
    assert as_laid_out.precision == pytest.approx(0.90, abs=5e-3)
    r2_as_key = coref.table_agreement(166, 13, 19, 44)
    assert r2_as_key.recall == pytest.approx(0.90, abs=5e-3)
    assert r2_as_key.precision == pytest.approx(0.93, abs=5e-3)
    assert r2_as_key.kappa == pytest.approx(as_laid_out.kappa)


def test_table1_alpha_equals_kappa():
    # Passonneau (1997), Table 1: judges X and Y, [[47, 14], [10, 29]], alpha = kappa = .50
    # (9), and eqs. (5)-(8): alpha = 1 - p_DO/p_DE equals kappa for any table.
    res = coref.table_agreement(47, 14, 10, 29)
    assert res.kappa == pytest.approx(0.50, abs=5e-3)
    assert res.alpha == pytest.approx(0.50, abs=5e-3)
    assert res.expected_agreement == pytest.approx(0.61 * 0.57 + 0.39 * 0.43, abs=1e-12)
    for cells in [(47, 14, 10, 29), (166, 19, 13, 44), (6, 1, 1, 2), (3, 0, 5, 1), (0.5, 2, 1, 7)]:
        r = coref.table_agreement(*cells)
        assert r.alpha == pytest.approx(r.kappa, abs=1e-12)


def test_krippendorff_alpha_of_the_table_matches_alpha_on_the_links():
    # Passonneau (1997), Table 2 read as two coders (CA1, CA3) judging 10 possible links
    # +link/-link: Krippendorff's alpha with pooled marginals (what pandas_agree.alpha does)
    # is not the report's table alpha (= kappa) but must agree with pa.alpha on the links.
    res = coref.link_table(coref_sample2(), coders=("CA1", "CA3"))
    pairs = [("+", "+")] * res.a + [("-", "+")] * res.b + [("+", "-")] * res.c
    pairs += [("-", "-")] * res.d
    links = pd.DataFrame(
        [(i, coder, v) for i, p in enumerate(pairs) for coder, v in zip(("CA1", "CA3"), p)],
        columns=["unit", "coder", "value"],
    )
    assert res.krippendorff_alpha == pytest.approx(pa.alpha(links).alpha, abs=1e-12)


def test_documents_sum_and_per_document():
    # Passonneau (1997), Table 4 gives one table per narrative. Two documents with the codings
    # of Figure 2 (table 6, 1, 1, 2) and Figure 1 (table 6, 1, 1, 1): the summed table adds
    # the links; per_document keeps them apart.
    fig2 = coref_sample2().replace({"coder": {"CA3": "R"}, "document": {"sample2": "fig2"}})
    fig1 = coref_sample2(figure=1).replace({"coder": {"CA2": "R"}, "document": {"sample2": "fig1"}})
    both = pd.concat([fig2, fig1], ignore_index=True)
    per = coref.link_table_by_document(both, coders=("CA1", "R"))
    assert per.index.name == "document" and per.index.tolist() == ["fig2", "fig1"]
    assert per[["a", "b", "c", "d", "n", "n_markables"]].to_numpy().tolist() == [
        [6, 1, 1, 2, 10, 11],
        [6, 1, 1, 1, 9, 10],
    ]
    single = coref.link_table(fig2, coders=("CA1", "R"))
    assert per.loc["fig2", "kappa"] == pytest.approx(single.kappa)
    total = coref.link_table(both, coders=("CA1", "R"))
    assert (total.a, total.b, total.c, total.d) == (12, 2, 2, 3)
    assert total.n_markables == 21 and total.n_documents == 2
    assert total.kappa == pytest.approx(coref.table_agreement(12, 2, 2, 3).kappa)


def test_link_table_validation():
    df = coref_sample2()
    with pytest.raises(InvalidParameterError, match=r"`coders` must be a pair"):
        coref.link_table(df, coders="CA")
    with pytest.raises(InvalidParameterError, match="two different coders"):
        coref.link_table(df, coders=("CA1", "CA1"))
    with pytest.raises(InvalidParameterError, match="`coders` names 'CA9'"):
        coref.link_table(df, coders=("CA1", "CA9"))
    three = pd.concat([df, df[df["coder"] == "CA3"].assign(coder="CA4")], ignore_index=True)
    with pytest.raises(InvalidParameterError, match="holds 3"):
        coref.link_table(three)
    with pytest.raises(InvalidParameterError, match="needs a `document` column, got document=None"):
        coref.link_table_by_document(df, document=None)
    with pytest.raises(InvalidParameterError, match="`per_document` must be True or False, got 1"):
        coref.link_table(df, per_document=1)
    other = df[df["coder"] == "CA1"].assign(document="lonely")
    with pytest.raises(InvalidParameterError, match=r"only one of `coders`.*'lonely'"):
        coref.link_table(pd.concat([df, other], ignore_index=True), coders=("CA1", "CA3"))


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ((1, -1, 0, 0), "`b` must be a non-negative count, got -1"),
        ((1, 0, float("nan"), 0), "`c` must be a non-negative count, got nan"),
        ((True, 0, 0, 1), "`a` must be a non-negative count, got True"),
        ((1, 0, 0, "2"), "`d` must be a non-negative count, got '2'"),
        ((0, 0, 0, 0), "the table is empty"),
    ],
)
def test_table_agreement_validation(cells, message):
    with pytest.raises(InvalidParameterError, match=message):
        coref.table_agreement(*cells)


def test_undefined_kappa_warns():
    # Passonneau (1997), section 2.1: two codings that both leave every markable a singleton
    # have no links to find; the table is all d, expected agreement is 1 and kappa undefined.
    df = long_chains({"X": [{"A"}, {"B"}, {"C"}], "Y": [{"A"}, {"B"}, {"C"}]})
    with pytest.warns(DegenerateDataWarning, match="kappa is NaN"):
        res = coref.link_table(df, document=None)
    assert (res.a, res.b, res.c, res.d) == (0, 0, 0, 2)
    assert math.isnan(res.kappa) and math.isnan(res.recall) and math.isnan(res.precision)


def test_crossing_codings_give_negative_d_with_a_warning():
    # Passonneau (1997), section 2.1 defines d = (N - 1) - a - b - c. For codings that cross,
    # {A, B}, {C, D} against {A, C}, {B, D}, a = 0 and b = c = 2 exceed the N - 1 = 3 links.
    df = long_chains({"X": [{"A", "B"}, {"C", "D"}], "Y": [{"A", "C"}, {"B", "D"}]})
    with pytest.warns(DegenerateDataWarning, match="d < 0"):
        res = coref.link_table(df, document=None)
    assert (res.a, res.b, res.c, res.d) == (0, 2, 2, -1)


def test_no_warning_on_the_published_example():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        coref.link_table(coref_sample2())
        coref.chains_to_codes(coref_sample2())


# ---------------------------------------------------------------------------------------------
# Property: the vectorised counts equal the report's formulas on random partitions


def vilain(key: list[set], response: list[set]) -> tuple[int, int, int]:
    """Passonneau (1997) eqs. (11), (14), (16), (17): a both ways, and each coding's links."""

    def partition_size(cls: set, other: list[set]) -> int:
        return sum(1 for o in other if cls & o)

    a_from_key = sum(len(c) - partition_size(c, response) for c in key)
    a_from_response = sum(len(r) - partition_size(r, key) for r in response)
    assert a_from_key == a_from_response  # "Equivalently, a is ..." (section 2.1)
    return a_from_key, sum(len(c) - 1 for c in key), sum(len(r) - 1 for r in response)


@st.composite
def two_partitions(draw):
    n = draw(st.integers(min_value=1, max_value=12))
    mentions = [f"m{i}" for i in range(n)]
    labels = st.lists(st.integers(0, 4), min_size=n, max_size=n)
    out = []
    for lab in (draw(labels), draw(labels)):
        parts: dict[int, set] = {}
        for m, k in zip(mentions, lab):
            parts.setdefault(k, set()).add(m)
        out.append(list(parts.values()))
    return n, out[0], out[1]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(two_partitions())
def test_cells_follow_the_report_formulas(case):
    n, key, response = case
    a, key_links, response_links = vilain(key, response)
    df = long_chains({"K": key, "R": response})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = coref.link_table(df, coders=("K", "R"), document=None)
    assert res.a == a
    assert res.a + res.c == key_links  # eq. (16): a + c = sum(|C_i| - 1)
    assert res.a + res.b == response_links  # eq. (17)
    assert res.n == n - 1  # section 2.1: the table total is the number of markables less 1
    codes = coref.chains_to_codes(df, document=None)
    by_unit = codes.pivot(index="unit", columns="coder", values="value")
    for unit, value in by_unit["K"].items():
        assert next(c for c in key if unit in c) - {unit} == value


def test_values_are_arrays_of_frozensets():
    # Passonneau (2006), section 3.3: the coding values are sets.
    codes = coref.chains_to_codes(coref_sample2())
    assert codes["value"].map(type).eq(frozenset).all()
    assert np.array_equal(codes["coder"].to_numpy(), coref_sample2()["coder"].to_numpy())


def test_per_document_report():
    # Passonneau (1997) sample 2, CA1 vs CA3, twice as two documents: each document's row of
    # report(by="document") equals MASI alpha of that document alone (the
    # NLTK-checked value of the sample-2 test), and the pooled row treats both as one corpus.
    chains = coref_sample2()
    two = pd.concat([chains, chains.assign(document="copy")], ignore_index=True)
    codes = coref.chains_to_codes(two)
    rep = pa.report(codes, ["nominal", "masi"], by="document")
    alone = pa.alpha(coref.chains_to_codes(chains), "masi").alpha
    assert rep.loc["sample2", "masi"] == pytest.approx(alone, abs=1e-12)
    assert rep.loc["copy", "masi"] == pytest.approx(alone, abs=1e-12)
    assert rep.loc["pooled", "n_units"] == 22


def test_link_table_per_document_is_deprecated_and_unchanged():
    # The old call keeps working: the same DataFrame as link_table_by_document, with a
    # DeprecationWarning (its return type differs from link_table's LinkAgreement).
    fig2 = coref_sample2().replace({"coder": {"CA3": "R"}, "document": {"sample2": "fig2"}})
    fig1 = coref_sample2(figure=1).replace({"coder": {"CA2": "R"}, "document": {"sample2": "fig1"}})
    both = pd.concat([fig2, fig1], ignore_index=True)
    with pytest.warns(DeprecationWarning, match="link_table_by_document"):
        old = coref.link_table(both, coders=("CA1", "R"), per_document=True)
    pd.testing.assert_frame_equal(old, coref.link_table_by_document(both, coders=("CA1", "R")))
    with pytest.warns(DeprecationWarning):
        with pytest.raises(InvalidParameterError, match="document=None"):
            coref.link_table(coref_sample2(), document=None, per_document=True)
    assert isinstance(coref.link_table(both, coders=("CA1", "R")), coref.LinkAgreement)


def test_link_table_by_document_brute_force():
    """Each document's cells from the definitions, by loops: a = sum over key chains C of
    |C| - |p(C)|, p(C) the response's partition of C (Vilain et al. 1995; Passonneau 1997,
    eqs. (11), (16)); a coding with K chains of N markables makes N - K links; b and c are
    the response's and the key's links less a; d = N - 1 - a - b - c. Also the same cells
    as link_table on the document alone."""
    rng = np.random.default_rng(7)
    frames = []
    for doc in range(4):
        n = int(rng.integers(3, 9))
        for name in ("K", "R"):
            frames.append(
                pd.DataFrame(
                    {
                        "document": f"d{doc}",
                        "coder": name,
                        "mention": np.arange(n),
                        "chain": rng.integers(0, 3, n),
                    }
                )
            )
    df = pd.concat(frames, ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        per = coref.link_table_by_document(df, coders=("K", "R"))
    for doc, g in df.groupby("document", sort=False):
        key = g[g["coder"] == "K"].set_index("mention")["chain"]
        resp = g[g["coder"] == "R"].set_index("mention")["chain"].loc[key.index]
        n = len(key)
        a = 0
        for chain_id in set(key):
            members = [m for m in key.index if key[m] == chain_id]
            a += len(members) - len({resp[m] for m in members})
        b = (n - len(set(resp))) - a
        c = (n - len(set(key))) - a
        expected = [a, b, c, n - 1 - a - b - c]
        assert per.loc[doc, ["a", "b", "c", "d"]].tolist() == expected
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            alone = coref.link_table(g, coders=("K", "R"))
        assert [alone.a, alone.b, alone.c, alone.d] == expected
        assert per.loc[doc, "n"] == n - 1 and per.loc[doc, "n_markables"] == n


def test_link_table_by_document_through_the_accessor():
    chains = coref_sample2()
    via = chains.agree.link_table_by_document(coders=("CA1", "CA3"))
    pd.testing.assert_frame_equal(via, coref.link_table_by_document(chains, coders=("CA1", "CA3")))
    assert chains.equals(coref_sample2())  # the caller's frame is not modified
