"""span_report's measures (spans.report.MEASURES) and the CLI's ``spans --measures``."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from definitions import write_brat

import pandas_agree as pa
from pandas_agree.errors import InvalidParameterError
from pandas_agree.spans.report import DEFAULT_MEASURES, MEASURES, ReportContext

COLS = ["document", "coder", "start", "end", "label"]
TEXTS = {"d1": "Bill met Jill in Paris .", "d2": "Ann saw Bob ."}
SPANS = pd.DataFrame(
    [
        ("d1", "A", 0, 4, "PER"), ("d1", "A", 9, 13, "PER"), ("d1", "A", 17, 22, "LOC"),
        ("d1", "B", 0, 4, "PER"), ("d1", "B", 17, 22, "PER"),
        ("d2", "A", 0, 3, "PER"), ("d2", "B", 0, 3, "PER"), ("d2", "B", 8, 11, "PER"),
    ],
    columns=COLS,
)  # fmt: skip
U_FAMILY = ["u_alpha", "bar_u_alpha", "cu_alpha", "ku_alpha"]


@pytest.mark.slow
def test_default_columns_are_unchanged():
    table = pa.span_report(SPANS, by_document=True, texts=TEXTS)
    assert list(table.columns) == [
        "n_coders",
        "n_spans",
        "n_units",
        "alpha_masi",
        "alpha_nominal",
        "alpha_u",
        "f1_exact",
        "f1_overlap",
        "reason",
    ]
    assert DEFAULT_MEASURES == ("alpha_masi", "alpha_nominal", "alpha_u", "f1_exact", "f1_overlap")
    explicit = pa.span_report(SPANS, by_document=True, texts=TEXTS, measures=DEFAULT_MEASURES)
    pd.testing.assert_frame_equal(table, explicit)


def test_u_alpha_columns_are_the_function():
    lengths = {d: len(t) for d, t in TEXTS.items()}
    table = pa.span_report(SPANS, by_document=True, texts=TEXTS, measures=U_FAMILY)
    assert list(table.columns) == [
        "n_coders",
        "n_spans",
        "n_units",
        "u_alpha",
        "bar_u_alpha",
        "cu_alpha",
        "cu_coverage",
        "ku_alpha[LOC]",
        "ku_alpha[PER]",
        "reason",
    ]
    # Without coders or coverage, a coder unitized the documents where it has spans (here
    # both coders have spans in both documents).
    pooled = pa.u_alpha(SPANS, length=lengths)
    for row, res in [
        ("(pooled)", pooled),
        ("d1", pa.u_alpha(SPANS[SPANS.document == "d1"], length=lengths)),
    ]:
        got = table.loc[row]
        assert got["u_alpha"] == res.u_alpha
        assert got["bar_u_alpha"] == res.bar_u_alpha
        assert got["cu_alpha"] == res.cu_alpha
        assert got["cu_coverage"] == res.cu_coverage
        for lab in ("LOC", "PER"):
            assert got[f"ku_alpha[{lab}]"] == res.per_value.loc[lab, "ku_alpha"]
    # d2 has one label: cu is undefined, and the reason says so.
    assert np.isnan(table.loc["d2", "cu_alpha"])
    assert "cu_alpha: the intersecting units all have one value" in table.loc["d2", "reason"]
    assert np.isnan(table.loc["d2", "ku_alpha[LOC]"])


def test_u_alpha_needs_lengths_and_says_so_once():
    table = pa.span_report(SPANS, "char", measures=["u_alpha", "cu_alpha", "f1_exact"])
    assert np.isnan(table.loc["(pooled)", "u_alpha"])
    assert np.isnan(table.loc["(pooled)", "cu_alpha"])
    reason = table.loc["(pooled)", "reason"]
    assert reason.startswith("u_alpha: u-alpha needs the length L")
    assert "cu_alpha:" not in reason  # the shared computation's error is reported once
    assert table.loc["(pooled)", "f1_exact"] == pytest.approx(0.5)
    # The texts of the frame's attrs give the lengths.
    framed = SPANS.copy()
    framed.attrs["texts"] = TEXTS
    from_attrs = pa.span_report(framed, "char", measures=["u_alpha"])
    assert from_attrs.loc["(pooled)", "u_alpha"] == pa.u_alpha(framed).u_alpha


def test_coverage_reaches_u_alpha():
    # B marks nothing in d2 but unitized it: with coverage, d2 counts B's gap.
    spans = SPANS[~((SPANS.document == "d2") & (SPANS.coder == "B"))]
    cov = [(d, c) for d in ("d1", "d2") for c in ("A", "B")]
    table = pa.span_report(spans, texts=TEXTS, coverage=cov, measures=["u_alpha"])
    lengths = {d: len(t) for d, t in TEXTS.items()}
    want = pa.u_alpha(spans, length=lengths, coverage=cov)
    assert table.loc["(pooled)", "u_alpha"] == want.u_alpha
    without = pa.span_report(spans, texts=TEXTS, measures=["u_alpha"])
    assert without.loc["(pooled)", "u_alpha"] != want.u_alpha


def test_a_measure_is_one_entry():
    def n_labels(ctx: ReportContext):
        return {"n_labels": ctx.spans["label"].nunique(), "reason": "counted"}

    table = pa.span_report(SPANS, texts=TEXTS, by_document=True, measures={"labels": n_labels})
    assert table["n_labels"].tolist() == [2, 1, 2]
    assert (table["reason"] == "labels: counted").all()
    assert set(U_FAMILY) <= set(MEASURES)


@pytest.mark.parametrize(
    ("measures", "match"),
    [
        pytest.param(["gamma_x"], "got 'gamma_x'", id="unknown"),
        pytest.param([], "empty", id="empty"),
        pytest.param("u_alpha", "list of names", id="string"),
        pytest.param({"x": 1}, "'x' maps to 1", id="not-callable"),
    ],
)
def test_bad_measures(measures, match):
    with pytest.raises(InvalidParameterError, match=match):
        pa.span_report(SPANS, texts=TEXTS, measures=measures)




def _run(capsys, *argv):
    from pandas_agree.frontends.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_cli_measures(tmp_path, capsys):
    pytest.importorskip("pandas_agree.io")
    write_brat(tmp_path, SPANS, TEXTS)
    names = "u_alpha,cu_alpha,f1_exact"
    code, out, err = _run(
        capsys, "spans", tmp_path, "--format", "brat", "--by", "document", "--measures", names,
        "--output-format", "csv",
    )  # fmt: skip
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out), index_col=0)
    want = pa.span_report(SPANS, by_document=True, texts=TEXTS, measures=names.split(","))
    assert list(got.columns) == ["unit", *want.columns]
    for col in ["u_alpha", "cu_alpha", "cu_coverage", "f1_exact"]:
        np.testing.assert_allclose(got[col].to_numpy(), want[col].to_numpy(), rtol=1e-12)
    code, _, err = _run(capsys, "spans", tmp_path, "--format", "brat", "--measures", "u_alpha,x")
    assert code == 2 and "--measures must list names from" in err and "'u_alpha,x'" in err


def _relation_fixture():
    """Two coders, two documents; coder A relates (PER, ORG) in both, coder B in d1 only."""
    spans = pd.DataFrame(
        {
            "document": ["d1"] * 4 + ["d2"] * 4,
            "coder": ["A", "A", "B", "B"] * 2,
            "start": [0, 10, 0, 10] * 2,
            "end": [4, 14, 4, 14] * 2,
            "label": ["PER", "ORG"] * 4,
            "annotation": ["T1", "T2", "T1", "T2"] * 2,
        }
    )
    rel = pd.DataFrame(
        {
            "document": ["d1", "d1", "d2"],
            "coder": ["A", "B", "A"],
            "relation": ["R1", "R1", "R1"],
            "label": ["Works", "Works", "Works"],
            "head": ["T1"] * 3,
            "tail": ["T2"] * 3,
            "head_start": [0] * 3,
            "head_end": [4] * 3,
            "head_label": ["PER"] * 3,
            "tail_start": [10] * 3,
            "tail_end": [14] * 3,
            "tail_label": ["ORG"] * 3,
        }
    )
    return spans, rel


@pytest.mark.slow
def test_relation_measures_equal_the_functions():
    spans, rel = _relation_fixture()
    table = pa.span_report(spans, "char", relations=rel, by_document=True)
    # d1: both coders give the one relation (F1 1); d2: only A does (F1 0); pooled:
    # P = R = 1/2 ... by hand: A has 2 relations, B 1, one match: P = 1/1, R = 1/2 -> 2/3
    assert table.loc["d1", "relation_f1_exact"] == 1.0
    assert table.loc["d2", "relation_f1_exact"] == 0.0
    f1 = pa.relation_f1(rel, coders=["A", "B"])
    want = float(f1.loc[f1["label"] == "(all)", "f1"].mean())
    assert table.loc["(pooled)", "relation_f1_exact"] == pytest.approx(want) == pytest.approx(2 / 3)
    res = pa.relation_alpha(spans, rel)
    assert table.loc["(pooled)", "relation_alpha"] == pytest.approx(float(res), nan_ok=True)
    assert table.loc["(pooled)", "relation_pairs"] == res.n_pairs == 2
    # without relations= the relation measures say what they need
    plain = pa.span_report(spans, "char", measures=["relation_f1_exact"])
    assert np.isnan(plain.loc["(pooled)", "relation_f1_exact"])
    assert "pass relations=" in plain.loc["(pooled)", "reason"]


def test_cli_relations(tmp_path):
    from pandas_agree.frontends.cli import main

    root = tmp_path / "brat"
    for coder, rels in (("A", "R1\tWorks Arg1:T1 Arg2:T2\n"), ("B", "")):
        (root / coder).mkdir(parents=True)
        (root / coder / "d1.txt").write_text("Anna met ACME Inc.\n")
        (root / coder / "d1.ann").write_text("T1\tPER 0 4\tAnna\nT2\tORG 9 13\tACME\n" + rels)
    out = tmp_path / "out.csv"
    assert (
        main(
            [
                "spans",
                str(root),
                "--format",
                "brat",
                "--relations",
                "--output-format",
                "csv",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    table = pd.read_csv(out, index_col=0)
    assert table.loc["(pooled)", "relation_f1_exact"] == 0.0  # A relates, B does not
    assert table.loc["(pooled)", "relation_pairs"] == 1


def test_gamma_measures_equal_the_function():
    """span_report's gamma columns are pa.gamma with the report's seed (0), per document
    and pooled, and gamma_k in the label rows."""
    from pandas_agree import io

    spans = io.read_brat(io.example_path("brat"))
    table = pa.span_report(spans, measures=["gamma", "gamma_cat"], by_label=True)
    res = pa.gamma(spans, rng=0, continuum={d: len(t) for d, t in spans.attrs["texts"].items()})
    pooled = table.loc[("(pooled)", "(all)")]
    assert pooled["gamma"] == pytest.approx(float(res))
    assert pooled["gamma_cat"] == pytest.approx(res.gamma_cat)
    assert pooled["gamma_se"] == pytest.approx(res.expected_se)
    for lab, row in res.per_category.iterrows():
        assert table.loc[("(pooled)", lab), "gamma"] == pytest.approx(row["gamma_k"])
