"""Small published examples as long DataFrames (columns ``unit``, ``coder``, ``value``).

Each loader returns a new DataFrame, so callers may modify it freely.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pandas as pd

__all__ = [
    "coref_sample2",
    "diagnoses",
    "from_matrix",
    "krippendorff_2011",
    "masi_figures",
    "model_annotations",
    "model_runs",
    "pyramid_figure1",
    "pyramid_figure5",
    "pyramid_study_peers",
    "pyramid_study_pyramids",
    "wikipedia_alpha",
]


def __dir__() -> list[str]:
    """The loaders only (not the modules this one imports), for ``dir()`` and tab completion."""
    return sorted(__all__)


def from_matrix(rows: dict[Any, Sequence[Any]], units: Sequence[Any] | None = None) -> pd.DataFrame:
    """Long data from a reliability matrix given as ``{coder: [value per unit]}``.

    ``None`` and NaN cells are missing and left out.

    Examples
    --------
    >>> from_matrix({"A": [1, None], "B": [1, 2]})
       unit coder  value
    0     1     A      1
    1     1     B      1
    2     2     B      2
    """
    length = len(next(iter(rows.values())))
    units = list(range(1, length + 1)) if units is None else list(units)
    records = [
        (u, coder, v)
        for j, u in enumerate(units)
        for coder, values in rows.items()
        if not _missing(v := values[j])
    ]
    return pd.DataFrame(records, columns=["unit", "coder", "value"])


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def krippendorff_2011() -> pd.DataFrame:
    """Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C.

    4 coders (A-D), 12 units, values 1-5, missing cells left out. Published alphas:
    nominal 0.743 (113/152), ordinal 0.815, interval 0.849, ratio 0.797. Unit 12 has a
    single value and is not pairable.

    Examples
    --------
    >>> krippendorff_2011().shape
    (41, 3)
    """
    _ = None
    return from_matrix(
        {
            "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
            "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
            "C": [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
            "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
        }
    )


def wikipedia_alpha() -> pd.DataFrame:
    """The computational example of Wikipedia's "Krippendorff's alpha" article.

    3 coders, 15 units, values 1-4. Published alphas: nominal 0.691, interval 0.811.

    Examples
    --------
    >>> from pandas_agree import alpha
    >>> [round(alpha(wikipedia_alpha(), d).alpha, 3) for d in ("nominal", "interval")]
    [0.691, 0.811]
    """
    _ = None
    return from_matrix(
        {
            "A": [_, _, _, _, _, 3, 4, 1, 2, 1, 1, 3, 3, _, 3],
            "B": [1, _, 2, 1, 3, 3, 4, 3, _, _, _, _, _, _, _],
            "C": [_, _, 2, 1, 3, 4, 4, _, 2, 1, 1, 3, 3, _, 4],
        }
    )


def masi_figures() -> pd.DataFrame:
    """The set-valued agreement matrices of Passonneau (2006), Figures 2, 3 and 4.

    Column ``figure`` names the figure. Figures 2 and 3 (annotators A3, A4; units x, y, z)
    are printed with the unit itself still in its set; Figure 4 (annotators A1, A2) codes
    spans 1-7 of Figure 1 by their SCU's equivalence class. Values are frozensets.

    Examples
    --------
    >>> masi_figures().groupby("figure").size()
    figure
    figure2     6
    figure3     6
    figure4    14
    dtype: int64
    """
    f = frozenset
    fig2 = {
        "A3": [f("xy"), f("xy"), f("x")],
        "A4": [f("xyz"), f("xyz"), f("xyz")],
    }
    fig3 = {
        "A3": [f("xy"), f("xy"), f("z")],
        "A4": [f("x"), f("yz"), f("yz")],
    }
    a1_big, a1_57, a1_6 = f({1, 2, 3, 4}), f({5, 7}), f({6})
    a2 = f(range(1, 8))
    fig4 = {
        "A1": [a1_big, a1_big, a1_big, a1_big, a1_57, a1_6, a1_57],
        "A2": [a2] * 7,
    }
    frames = [
        from_matrix(fig2, units=["x", "y", "z"]).assign(figure="figure2"),
        from_matrix(fig3, units=["x", "y", "z"]).assign(figure="figure3"),
        from_matrix(fig4, units=list(range(1, 8))).assign(figure="figure4"),
    ]
    return pd.concat(frames, ignore_index=True)[["figure", "unit", "coder", "value"]]


from .fleiss import diagnoses  # noqa: E402
from .model_study import model_annotations, model_runs  # noqa: E402
from .passonneau import coref_sample2, pyramid_figure1, pyramid_figure5  # noqa: E402
from .pyramid_study import pyramid_study_peers, pyramid_study_pyramids  # noqa: E402
