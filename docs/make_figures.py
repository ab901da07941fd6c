"""Draw figures of the docs into docs/_static/ (forest.png, heatmap.png, gamma_alignment.png).

Run from anywhere: ``python docs/make_figures.py``. Needs matplotlib (``pip install
matplotlib``, or ``pip install ".[plot]"`` in the root of the clone). The figures use only the
published examples bundled with pandas_agree, with a fixed bootstrap seed, so they are
reproducible.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "_static"


def make_figures(out: Path = STATIC) -> list[Path]:
    """Write forest.png, heatmap.png and gamma_alignment.png to ``out``; return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import pandas_agree as pa
    from pandas_agree import plot

    out.mkdir(parents=True, exist_ok=True)
    paths = []

    rep = pa.report(
        pa.datasets.masi_figures(),
        ["nominal", "jaccard", "masi"],
        by="figure",
        ci=0.95,
        n_boot=2000,
        rng=1,
    )
    ax = plot.forest(rep, title="Passonneau (2006), Figures 2-4: alpha with 95% intervals")
    path = out / "forest.png"
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    paths.append(path)

    table = pa.pairwise(pa.datasets.krippendorff_2011(), "alpha", "interval")
    ax = plot.heatmap(table, title="Krippendorff (2011): pairwise interval alpha")
    path = out / "heatmap.png"
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    paths.append(path)

    # docs/which_span_measure.md: a shift, a split, a wrong label and an extra unit
    import pandas as pd

    spans = pd.DataFrame(
        {
            "document": "example",
            "coder": ["A", "A", "A", "B", "B", "B", "B", "C", "C", "C", "C"],
            "start": [10, 45, 75, 12, 45, 52, 75, 10, 46, 76, 96],
            "end": [30, 60, 90, 30, 52, 60, 90, 28, 60, 90, 104],
            "label": ["PER", "ORG", "LOC", "PER", "ORG", "ORG", "PER", "PER", "ORG", "LOC", "ORG"],
        }
    )
    ax = plot.alignment(pa.gamma(spans, n_samples=300, rng=0))
    path = out / "gamma_alignment.png"
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    paths.append(path)
    return paths


if __name__ == "__main__":
    for p in make_figures():
        print(p)
