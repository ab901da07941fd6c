"""Generate pandas_agree/datasets/model_annotations.csv, the synthetic study of
docs/model_annotators.md ("Can a model replace an annotator?"), and its figure.

Run from anywhere: ``python docs/make_model_annotations.py`` (``--figure`` also draws
docs/_static/model_candidates.png, which needs matplotlib). Numpy only, seed 2025: the same
file every time. Nothing here is real: no text was read and no model was run. The design
follows the simulation of Calderon, Reichart and Dror (2025), appendix C: every item has a
gold label drawn from its domain's prior; an annotator with noise ``eta`` gives the gold label
with probability ``1 - eta`` and otherwise a label drawn from the prior.

* 3 domains (``books``, ``electronics``, ``restaurants``), 80 items each, labels
  ``negative``, ``neutral``, ``positive``.
* 6 humans (``h1`` .. ``h6``), noise 0.20 to 0.35; each item is labelled by 3 of them
  chosen at random, so each human labels about 120 items and each item misses 3 humans.
* 3 models: ``model_a`` (noise 0.12), ``model_b`` (0.28, as noisy as the humans) and
  ``model_c`` (0.45, and when it errs it says ``neutral`` 70 % of the time); ``model_c``
  gives no label for about 4 % of the items (an output that could not be parsed).
* 3 runs of each model (column ``run``): run 1 is the label above; runs 2 and 3 keep it with
  the model's stability (0.85, 0.70 and 0.95: ``model_c`` is the most consistent with
  itself and the least with people) and otherwise draw again from the same noisy process.
  Human rows have no run.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "pandas_agree" / "datasets" / "model_annotations.csv"
FIGURE = Path(__file__).resolve().parent / "_static" / "model_candidates.png"

SEED = 2025
LABELS = ("negative", "neutral", "positive")
DOMAINS = {
    "books": (0.30, 0.20, 0.50),
    "electronics": (0.35, 0.25, 0.40),
    "restaurants": (0.25, 0.15, 0.60),
}
ITEMS_PER_DOMAIN = 80
HUMANS = {"h1": 0.20, "h2": 0.30, "h3": 0.25, "h4": 0.35, "h5": 0.20, "h6": 0.30}
HUMANS_PER_ITEM = 3
MODELS = {  # noise, share of "neutral" among its errors (None: the prior), stability, missing
    "model_a": (0.12, None, 0.85, 0.0),
    "model_b": (0.28, None, 0.70, 0.0),
    "model_c": (0.45, 0.70, 0.95, 0.04),
}
RUNS = 3


def _noisy(
    rng: np.random.Generator, gold: int, prior: np.ndarray, eta: float, neutral: float | None = None
) -> int:
    if rng.random() >= eta:
        return gold
    if neutral is not None and rng.random() < neutral:
        return LABELS.index("neutral")
    return int(rng.choice(len(LABELS), p=prior))


def generate() -> list[tuple[str, str, str, str, str]]:
    """Rows (domain, unit, coder, run, value); ``run`` is "" for humans."""
    rng = np.random.default_rng(SEED)
    rows = []
    humans = list(HUMANS)
    number = 0
    for domain, prior in DOMAINS.items():
        p = np.array(prior)
        for _ in range(ITEMS_PER_DOMAIN):
            number += 1
            unit = f"r{number:03d}"
            gold = int(rng.choice(len(LABELS), p=p))
            chosen = sorted(rng.choice(len(humans), size=HUMANS_PER_ITEM, replace=False))
            for h in chosen:
                label = _noisy(rng, gold, p, HUMANS[humans[h]])
                rows.append((domain, unit, humans[h], "", LABELS[label]))
            for model, (eta, neutral, stability, missing) in MODELS.items():
                first = _noisy(rng, gold, p, eta, neutral)
                skip = rng.random() < missing
                for run in range(1, RUNS + 1):
                    label = first
                    if run > 1 and rng.random() >= stability:
                        label = _noisy(rng, gold, p, eta, neutral)
                    if not skip:
                        rows.append((domain, unit, model, str(run), LABELS[label]))
    return rows


def main(out: Path = OUT) -> Path:
    lines = ["domain,unit,coder,run,value"]
    lines += [",".join(row) for row in generate()]
    out.write_text("\n".join(lines) + "\n")
    return out


def figure(out: Path = FIGURE) -> Path:
    """Draw the alt-test and the replacement alpha of the three models (bootstrap seed 1)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import pandas_agree as pa

    df = pa.datasets.model_annotations()
    models = ["model_a", "model_b", "model_c"]
    res = pa.alt_test(df, candidate=models, epsilon=0.15)
    rep = pa.candidate_report(df, candidates=models, n_boot=2000, rng=1)
    axes = pa.plot.candidates(res, rep, title="Synthetic study: three models beside six humans")
    axes[0].figure.savefig(out, dpi=110, bbox_inches="tight")
    plt.close(axes[0].figure)
    return out


if __name__ == "__main__":
    import sys

    print(main())
    if "--figure" in sys.argv:
        print(figure())
