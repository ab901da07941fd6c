"""A small, synthetic study of model annotators beside human ones.

The page "Can a model replace an annotator?" runs on this made-up study: 240 review
sentences in three domains (``books``, ``electronics``, ``restaurants``) labelled for
sentiment (``negative``, ``neutral``, ``positive``) by six humans (``h1`` to ``h6``, three
per item) and by three models (``model_a``, ``model_b``, ``model_c``), each model run three
times. It was generated once by ``docs/make_model_annotations.py`` (numpy, seed 2025; the
design is the simulation of Calderon, Reichart and Dror 2025, appendix C: gold labels from a
domain prior, each annotator right with a probability of its own and otherwise drawing from
the prior) and stored as CSV. No text was read and no model was run: the labels are
synthetic and its numbers are not published ones. It is distributed with pandas_agree under
the same licence (BSD-3-Clause).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["model_annotations", "model_runs"]

_CSV = Path(__file__).parent / "model_annotations.csv"


def _read() -> pd.DataFrame:
    return pd.read_csv(_CSV, dtype={"run": "Int64"})


def model_annotations() -> pd.DataFrame:
    """Humans' and models' labels: one row per annotation (each model's first run).

    Columns ``domain``, ``unit``, ``coder`` (``h1`` .. ``h6``, ``model_a``, ``model_b``,
    ``model_c``) and ``value``. ``model_c`` has no label for 11 of the 240 units.

    Examples
    --------
    >>> df = model_annotations()
    >>> df.groupby("coder").size().tolist()
    [103, 115, 138, 123, 121, 120, 240, 240, 229]
    """
    df = _read()
    first = df[df["run"].isna() | (df["run"] == 1)]
    return first.drop(columns="run").reset_index(drop=True)


def model_runs() -> pd.DataFrame:
    """The models' three runs: one row per model, unit and run.

    Columns ``domain``, ``unit``, ``coder`` (the model), ``run`` (1-3) and ``value``. Run 1 is
    the label of :func:`model_annotations`.

    Examples
    --------
    >>> runs = model_runs()
    >>> runs.groupby("coder")["run"].nunique().tolist()
    [3, 3, 3]
    """
    df = _read()
    return df[df["run"].notna()].reset_index(drop=True)
