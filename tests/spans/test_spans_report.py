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


@pytest.mark.parametrize("seed", range(6))
def test_merge_is_the_same_in_both_and_noted(seed):
    spans = _random_overlapping(seed)
    cont = {"d1": 100, "d2": 100}
    texts = {d: "x" * 100 for d in cont}
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
