"""plot.forest on every table it is given: coefficient columns only, the pooled row set apart.

The tables are those of :func:`pandas_agree.span_report` (bundled brat example of the brat
standoff documentation, two annotators) and of :func:`pandas_agree.report` with other
coefficients (Passonneau 2006, Figures 2-4, bundled).
"""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import pandas_agree as pa  # noqa: E402
from pandas_agree import plot  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _span_table():
    io = pytest.importorskip("pandas_agree.io")
    spans = io.read_brat(io.example_path("brat"))
    spans = spans.assign(document=["sony", "sony", "other", "sony", "sony", "sony", "other"])
    return pa.span_report(spans, "char", by_document=True)


def _plotted(ax) -> dict[str, np.ndarray]:
    return {c.get_label(): np.asarray(c.lines[0].get_xdata(), dtype=float) for c in ax.containers}


@pytest.mark.slow
def test_forest_of_a_span_report_plots_coefficients_only(tmp_path):
    # forest plotted n_spans (a count) on the alpha axis, and did not set "(pooled)" apart.
    table = _span_table()
    ax = plot.forest(table)
    ax.figure.savefig(tmp_path / "spans.png")
    plotted = _plotted(ax)
    assert list(plotted) == ["alpha_masi", "alpha_nominal", "alpha_u", "f1_exact", "f1_overlap"]
    for name, xs in plotted.items():
        np.testing.assert_array_equal(xs, table[name].to_numpy(dtype=float))
        finite = xs[np.isfinite(xs)]
        assert ((finite >= -1) & (finite <= 1)).all(), name  # coefficients, not counts
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[-1] == "(pooled)"
    assert ax.get_yticklabels()[-1].get_fontweight() == "bold"
    separators = [ln for ln in ax.get_lines() if list(ln.get_ydata()) == [len(labels) - 1.5] * 2]
    assert len(separators) == 1  # the line above the pooled row
    assert ax.get_xlabel() == "agreement"
    assert ax.get_legend().get_title().get_text() == "coefficient"


def test_forest_of_a_report_with_other_coefficients():
    rep = pa.report(
        pa.datasets.masi_figures(), ["nominal", "masi"], by="figure", coefficients=["gwet_ac1"]
    )
    ax = plot.forest(rep)
    assert list(_plotted(ax)) == ["nominal", "masi", "gwet_ac1"]
    assert ax.get_legend().get_title().get_text() == "coefficient"
    only_alpha = plot.forest(pa.report(pa.datasets.masi_figures(), ["nominal"], by="figure"))
    assert only_alpha.get_xlabel() == "Krippendorff's alpha"
    assert only_alpha.get_legend().get_title().get_text() == "distance"
