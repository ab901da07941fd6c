"""Forest plot of a report and heatmap of a pairwise table, rendered with Agg."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import pandas_agree as pa  # noqa: E402
from pandas_agree import plot  # noqa: E402
from pandas_agree.errors import InvalidParameterError, ValueTypeError  # noqa: E402

DISTANCES = ["nominal", "jaccard", "masi"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def report_ci() -> pd.DataFrame:
    return pa.report(pa.datasets.masi_figures(), DISTANCES, by="figure", ci=0.95, n_boot=100, rng=1)


def _data_lines(ax):
    """The marker lines of the errorbars, by label."""
    return {c.get_label(): c.lines[0] for c in ax.containers}


def _threshold_lines(ax):
    return [
        line
        for line in ax.get_lines()
        if line.get_linestyle() == "--" and line.get_xdata()[0] == line.get_xdata()[1]
    ]


@pytest.mark.slow
def test_forest_markers_whiskers_thresholds(report_ci, tmp_path):
    ax = plot.forest(report_ci)
    path = tmp_path / "forest.png"
    ax.figure.savefig(path)
    assert path.stat().st_size > 1000
    assert ax.get_xlabel() == "Krippendorff's alpha"
    assert ax.get_ylabel() == "figure"
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "figure2",
        "figure3",
        "figure4",
        "pooled",
    ]
    lines = _data_lines(ax)
    assert list(lines) == DISTANCES  # one colour per distance
    assert len({matplotlib.colors.to_hex(line.get_color()) for line in lines.values()}) == 3
    for d, line in lines.items():
        np.testing.assert_allclose(line.get_xdata(), report_ci[d])  # one marker per group
    # whiskers: the horizontal bar of each group spans [low, high]
    bars = next(c for c in ax.containers if c.get_label() == "masi").lines[2][0]
    spans = np.array([seg[:, 0] for seg in bars.get_segments()])
    np.testing.assert_allclose(spans[:, 0], report_ci["masi_low"])
    np.testing.assert_allclose(spans[:, 1], report_ci["masi_high"])
    thresholds = sorted(line.get_xdata()[0] for line in _threshold_lines(ax))
    assert thresholds == [0.667, 0.8]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == DISTANCES


def test_forest_without_ci_or_thresholds_on_given_axes():
    rep = pa.report(pa.datasets.krippendorff_2011(), ["nominal", "interval"])
    _, ax = plt.subplots()
    out = plot.forest(rep, thresholds=None, ax=ax, title="K2011")
    assert out is ax
    assert _threshold_lines(ax) == []
    assert ax.get_title() == "K2011"
    assert ax.get_ylabel() == "group"
    for c in ax.containers:
        assert c.has_xerr is False
        assert len(c.lines[0].get_xdata()) == 1


def test_forest_multiindex_groups_and_chosen_distances():
    df = pa.datasets.masi_figures().assign(half=lambda d: np.where(d.index % 2, "odd", "even"))
    df["unit"] = df["unit"].astype(str) + df["half"]
    rep = pa.report(df, DISTANCES, by=["figure", "half"])
    ax = plot.forest(rep, distances="masi", thresholds=0.8)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0] == "figure2 / even" and labels[-1] == "pooled"
    assert len(ax.containers) == 1
    assert ax.get_ylabel() == "figure / half"
    assert [line.get_xdata()[0] for line in _threshold_lines(ax)] == [0.8]


def test_forest_nan_alpha_has_no_marker():
    rep = pd.DataFrame(
        {"nominal": [0.5, np.nan], "n_units": [3, 0], "n_coders": [2, 0], "n_pairable": [6, 0],
         "reason": [None, "no pairable unit"]},
        index=pd.Index(["a", "b"], name="g"),
    )  # fmt: skip
    ax = plot.forest(rep)
    xs = ax.containers[0].lines[0].get_xdata()
    assert np.isnan(xs[1]) and xs[0] == 0.5


def test_heatmap_cells_and_blank_diagonal(tmp_path):
    table = pa.pairwise(pa.datasets.krippendorff_2011(), "percent")
    ax = plot.heatmap(table)
    ax.figure.savefig(tmp_path / "heatmap.png")
    texts = {
        (round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts
    }
    assert len(texts) == 12  # 4 x 4 without the diagonal
    assert all((i, i) not in texts for i in range(4))
    assert texts[(0, 2)] == "0.62"  # A and C agree on 5 of 8 units
    assert texts[(2, 0)] == "0.62"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["A", "B", "C", "D"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "B", "C", "D"]
    assert ax.get_xlabel() == "coder" and ax.get_ylabel() == "coder"
    image = ax.get_images()[0]
    assert np.ma.is_masked(image.get_array()[0, 0])
    assert len(ax.figure.axes) == 2  # with colour bar


def test_heatmap_options():
    table = pa.pairwise(pa.datasets.krippendorff_2011(), "alpha", "interval")
    fig, ax = plt.subplots()
    out = plot.heatmap(table, ax=ax, fmt="{:.1%}", colorbar=False, vmin=-1, title="t")
    assert out is ax and len(fig.axes) == 1
    assert all(t.get_text().endswith("%") for t in ax.texts)
    assert ax.get_images()[0].get_clim() == (-1, 1.0)


def test_bad_input():
    with pytest.raises(ValueTypeError, match="`report_frame`"):
        plot.forest([1, 2])
    with pytest.raises(InvalidParameterError, match="no alpha column"):
        plot.forest(pd.DataFrame({"n_units": [1]}))
    with pytest.raises(InvalidParameterError, match="`distances`"):
        plot.forest(pa.report(pa.datasets.krippendorff_2011()), distances=["masi"])
    with pytest.raises(InvalidParameterError, match="`thresholds`"):
        plot.forest(pa.report(pa.datasets.krippendorff_2011()), thresholds=["high"])
    with pytest.raises(InvalidParameterError, match="empty"):
        plot.heatmap(pd.DataFrame())
    with pytest.raises(ValueTypeError, match="numbers"):
        plot.heatmap(pd.DataFrame({"a": ["x"]}))


def test_clear_error_without_matplotlib(monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    # what to install, from an index (matplotlib) or from the clone (no index has pandas-agree)
    with pytest.raises(ImportError, match=r"pip install matplotlib .*pip install \"\.\[plot\]\""):
        plot.forest(pa.report(pa.datasets.krippendorff_2011()))


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_import_pandas_agree_does_not_import_matplotlib():
    import subprocess

    code = (
        "import sys, pandas_agree, pandas_agree.frontends.plot, pandas_agree.frontends.xarray; "
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
