"""plot.alignment: the best alignment of gamma drawn with Agg."""

from __future__ import annotations

import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import pandas_agree as pa  # noqa: E402
from pandas_agree import plot  # noqa: E402
from pandas_agree.errors import InvalidParameterError, ValueTypeError  # noqa: E402

# three coders: a shift, a split (B's ORG), a wrong label (B's PER), an extra unit (C's ORG)
SPANS = pd.DataFrame(
    {
        "document": "example",
        "coder": ["A", "A", "A", "B", "B", "B", "B", "C", "C", "C", "C"],
        "start": [10, 45, 75, 12, 45, 52, 75, 10, 46, 76, 96],
        "end": [30, 60, 90, 30, 52, 60, 90, 28, 60, 90, 104],
        "label": ["PER", "ORG", "LOC", "PER", "ORG", "ORG", "PER", "PER", "ORG", "LOC", "ORG"],
    }
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def result():
    return pa.gamma(SPANS, n_samples=5, rng=0)


@pytest.mark.slow
def test_bars_links_and_units_alone(result, tmp_path):
    ax = plot.alignment(result)
    bars = [p for p in ax.patches if p.get_width() > 0]
    assert len(bars) == len(SPANS)
    aln = result.alignment.dropna(subset=["span"])
    size = aln.groupby("alignment").size()
    # one grey line per unitary alignment of two or more units
    assert len(ax.get_lines()) == int((size > 1).sum())
    # dashed outlines: the units aligned with nothing (B's second ORG half, C's last ORG)
    dashed = [p for p in bars if p.get_linestyle() not in ("-", "solid")]
    assert len(dashed) == int((size == 1).sum()) == 2
    assert sorted(p.get_x() for p in dashed) == [45.0, 96.0]
    # one disorder written per unitary alignment
    assert len(ax.texts) == len(SPANS) + len(size)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "B", "C"]
    assert f"\u03b3 = {result.gamma:.3f}" in ax.get_title()
    ax.figure.savefig(tmp_path / "alignment.png")


def test_alignment_frame_and_document(result):
    two = pd.concat([SPANS, SPANS.assign(document="other")], ignore_index=True)
    res = pa.gamma(two, n_samples=3, rng=0)
    with pytest.raises(InvalidParameterError, match="document="):
        plot.alignment(res)
    with pytest.raises(InvalidParameterError, match="'nope'"):
        plot.alignment(res, document="nope")
    ax = plot.alignment(res.alignment, document="other", title="mine")
    assert ax.get_title() == "mine"
    _, given = plt.subplots()
    assert plot.alignment(result, ax=given) is given


def test_bad_input():
    with pytest.raises(ValueTypeError, match="DataFrame"):
        plot.alignment([1, 2])
    with pytest.raises(InvalidParameterError, match="disorder"):
        plot.alignment(SPANS)
