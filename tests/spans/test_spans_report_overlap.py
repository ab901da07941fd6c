"""span_report and unitizing_alpha: one default for overlapping spans of one coder and label.

Krippendorff's unitizing model (Krippendorff 2004, Content Analysis, 2nd ed., section 12.4)
has no overlapping units of one coder and category. Both functions refuse them by default
(``on_overlap="raise"``: the report leaves ``alpha_u`` empty and says why) and merge them
with ``on_overlap="merge"`` (the report notes the merge). The merged value is checked
against unitizing alpha of the spans merged by hand (a loop over sorted spans).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import InvalidParameterError
from pandas_agree.frontends.cli import main

COLS = ["document", "coder", "start", "end", "label"]


def _merged_by_hand(spans: pd.DataFrame) -> pd.DataFrame:
    """Overlapping spans of one (document, coder, label) joined, by a loop over sorted spans."""
    rows = []
    for (doc, coder, label), part in spans.groupby(["document", "coder", "label"], sort=True):
        current = None
        for s, e in sorted(zip(part["start"], part["end"])):
            if current is not None and s < current[1]:
                current[1] = max(current[1], e)
            else:
                if current is not None:
                    rows.append((doc, coder, current[0], current[1], label))
                current = [s, e]
        rows.append((doc, coder, current[0], current[1], label))
    return pd.DataFrame(rows, columns=COLS)


def _random_overlapping(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 30
    start = rng.integers(0, 90, n)
    return pd.DataFrame(
        {
            "document": rng.choice(["d1", "d2"], n),
            "coder": rng.choice(["A", "B", "C"], n),
            "start": start,
            "end": start + rng.integers(1, 10, n),
            "label": rng.choice(["x", "y"], n),
        }
    )


OVERLAP = pd.DataFrame(
    [("d", "A", 0, 5, "x"), ("d", "A", 3, 8, "x"), ("d", "B", 0, 8, "x"), ("d", "B", 9, 10, "y")],
    columns=COLS,
)


def test_one_default_refuses_overlaps_in_both():
    # span_report merged silently while unitizing_alpha refused the same spans.
    with pytest.raises(InvalidParameterError, match="on_overlap='merge'"):
        pa.unitizing_alpha(OVERLAP, continuum=10)
    table = pa.span_report(OVERLAP, "char", texts={"d": "x" * 10})
    pooled = table.loc["(pooled)"]
    assert np.isnan(pooled["alpha_u"])
    assert "alpha_u: 1 span(s) overlap an earlier span" in pooled["reason"]
    assert "on_overlap='merge'" in pooled["reason"]
    assert not np.isnan(pooled["f1_exact"])  # the other columns do not need the choice


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_merge_is_the_same_in_both_and_noted(seed):
    spans = _random_overlapping(seed)
    cont = {"d1": 100, "d2": 100}
    texts = dict.fromkeys(cont, "x" * 100)
    by_hand = pa.unitizing_alpha(_merged_by_hand(spans), cont)  # no overlaps left
    merged = pa.unitizing_alpha(spans, cont, on_overlap="merge")
    assert float(merged) == pytest.approx(float(by_hand), abs=1e-12)
    assert merged.n_merged == len(spans) - len(_merged_by_hand(spans))
    pooled = pa.span_report(spans, "char", texts=texts, on_overlap="merge").loc["(pooled)"]
    assert pooled["alpha_u"] == pytest.approx(float(by_hand), abs=1e-12)
    if merged.n_merged:
        assert f"alpha_u: {merged.n_merged} span(s) overlapping" in pooled["reason"]
        assert "merged" in pooled["reason"]
        with pytest.raises(InvalidParameterError, match="overlap an earlier span"):
            pa.unitizing_alpha(spans, cont)


def test_the_cli_takes_on_overlap(tmp_path, capsys):
    root = tmp_path / "brat"
    for coder, lines in (
        ("A", ["T1\tx 0 5\txxxxx", "T2\tx 3 8\txxxxx"]),
        ("B", ["T1\tx 0 8\txxxxxxxx"]),
    ):
        (root / coder).mkdir(parents=True)
        (root / coder / "d.txt").write_text("x" * 10)
        (root / coder / "d.ann").write_text("\n".join(lines) + "\n")
    got = {}
    for rule in ("raise", "merge"):
        code = main(["spans", str(root), "--from", "brat", "--to", "json",
                     "--unit", "char", "--on-overlap", rule])  # fmt: skip
        out, err = capsys.readouterr()
        assert code == 0, err
        got[rule] = pd.read_json(__import__("io").StringIO(out)).iloc[-1]
    assert np.isnan(got["raise"]["alpha_u"])
    assert "overlap" in got["raise"]["reason"]
    spans = pa.io.read_brat(root)
    assert got["merge"]["alpha_u"] == pytest.approx(
        float(pa.unitizing_alpha(spans, {"d": 10}, on_overlap="merge")), abs=1e-12
    )


def test_bad_on_overlap():
    with pytest.raises(InvalidParameterError, match="`on_overlap` must be 'raise' or 'merge'"):
        pa.span_report(OVERLAP, "char", on_overlap="join")


# ---------------------------------------------------------------------------------------------
# per label: span_report(by_label=True) and pandas-agree spans --by label


def _nominal_alpha_brute(units: pd.DataFrame) -> float:
    """Nominal alpha from its definition (Krippendorff 2011), by loops over units."""
    by_unit: dict = {}
    for u, v in zip(units["unit"], units["value"]):
        by_unit.setdefault(u, []).append(v)
    pairable = [vals for vals in by_unit.values() if len(vals) >= 2]
    values = [v for vals in pairable for v in vals]
    n = len(values)
    d_o = sum(
        (a != b) / (len(vals) - 1) for vals in pairable for i, a in enumerate(vals)
        for j, b in enumerate(vals) if i != j
    ) / n  # fmt: skip
    d_e = sum(a != b for i, a in enumerate(values) for j, b in enumerate(values) if i != j)
    return 1.0 - d_o / (d_e / (n * (n - 1)))


def _random_labelled(seed: int) -> tuple[pd.DataFrame, dict[str, str]]:
    rng = np.random.default_rng(seed)
    texts = {d: " ".join(["w"] * 25) for d in ("d1", "d2")}
    rows = []
    for d in texts:
        for c in ("A", "B", "C"):
            for _ in range(int(rng.integers(2, 6))):
                s = 2 * int(rng.integers(0, 24))
                rows.append(
                    (d, c, s, s + 1 + 2 * int(rng.integers(0, 2)), str(rng.choice(["P", "Q", "R"])))
                )
    return pd.DataFrame(rows, columns=COLS).drop_duplicates(), texts


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_by_label_rows_are_the_python_pieces(seed):
    spans, texts = _random_labelled(seed)
    cont = {d: len(t) for d, t in texts.items()}
    table = pa.span_report(spans, texts=texts, by_label=True, on_overlap="merge")
    plain = pa.span_report(spans, texts=texts, on_overlap="merge")
    all_row = table.loc[("(pooled)", "(all)")]
    pd.testing.assert_series_equal(
        all_row.drop("reason"), plain.loc["(pooled)"].drop("reason"), check_names=False
    )
    f1 = {m: pa.span_f1(spans, m) for m in ("exact", "overlap")}
    per_category = pa.unitizing_alpha(spans, cont, on_overlap="merge").per_category
    coverage = sorted({(d, c) for d, c in zip(spans["document"], spans["coder"])})
    for lab in sorted(spans["label"].unique()):
        row = table.loc[("(pooled)", lab)]
        assert row["n_spans"] == (spans["label"] == lab).sum()
        for m, frame in f1.items():
            expected = frame.loc[frame["label"] == lab, "f1"].mean()
            assert row[f"f1_{m}"] == pytest.approx(expected, abs=1e-12)
        assert row["alpha_u"] == pytest.approx(per_category.loc[lab, "alpha"], abs=1e-12)
        # alpha of this label alone: its spans on the same units, every coder who saw the
        # document counted (empty where they did not mark the label), by the definition
        units = pa.spans_to_units(spans[spans["label"] == lab], texts=texts, coverage=coverage)
        brute = _nominal_alpha_brute(units)
        assert row["alpha_nominal"] == pytest.approx(brute, abs=1e-12)
        assert row["alpha_masi"] == pytest.approx(brute, abs=1e-12)


@pytest.mark.slow
def test_cli_by_label_is_span_report_by_label(capsys):
    path = pa.io.example_path("brat")
    for by, kwargs in ((["label"], {}), (["document", "label"], {"by_document": True})):
        code = main(["spans", str(path), "--from", "brat", "--by", *by, "--to", "json"])
        out, err = capsys.readouterr()
        assert code == 0, err
        got = pd.read_json(__import__("io").StringIO(out), orient="records")
        spans = pa.io.read_brat(path)
        texts = {"sony": (path / "alice" / "sony.txt").read_text()}
        want = pa.span_report(
            spans, texts=texts, coverage=spans.attrs["coverage"], by_label=True, **kwargs
        ).reset_index()
        assert got["label"].tolist() == want["label"].tolist()
        for col in ["n_spans", "alpha_masi", "alpha_nominal", "alpha_u", "f1_exact", "f1_overlap"]:
            np.testing.assert_allclose(got[col].to_numpy(float), want[col].to_numpy(float))
