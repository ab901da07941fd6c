"""The coders the model-annotator functions take: one label or a list of them, their
positions among the coders with a value, and the human coders beside the candidates."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from ...errors import InvalidParameterError

__all__ = ["as_label_list", "coder_positions", "human_coders"]


def as_label_list(labels: Any, param: str) -> list[Hashable]:
    """One label or a list of labels as a list (a string is one label)."""
    if isinstance(labels, (str, bytes)) or not isinstance(
        labels, (list, tuple, pd.Index, np.ndarray, pd.Series)
    ):
        labels = [labels]
    out = list(labels)
    if not out:
        raise InvalidParameterError(f"`{param}` must name at least one coder, got {labels!r}")
    if len(set(map(repr, out))) != len(out):
        raise InvalidParameterError(f"`{param}` names a coder twice: {out!r}")
    return out


def coder_positions(coders: pd.Index, labels: list[Hashable], param: str) -> np.ndarray:
    """Positions of ``labels`` among ``coders``, or an error naming ``param`` and the unknown."""
    positions = coders.get_indexer(pd.Index(labels, dtype=object))
    if (positions < 0).any():
        bad = [label for label, p in zip(labels, positions) if p < 0]
        known = list(coders[:20])
        raise InvalidParameterError(
            f"`{param}` {bad[0]!r} is not a coder with a value in the data; the coders are "
            f"{known}{' ...' if len(coders) > 20 else ''}"
        )
    return positions.astype(np.intp)


def human_coders(
    coders: pd.Index, candidates: list[Hashable], humans: Any, param: str
) -> list[Hashable]:
    """The human coders a candidate is compared with (``param`` names the candidates).

    ``humans`` as a list of coders of ``coders``, none of them a candidate; by default every
    coder that is not a candidate, in label order when the labels sort, else in order of
    appearance.
    """
    if humans is None:
        others = [h for h in coders if not any(h == c for c in candidates)]
        try:
            return sorted(others)
        except TypeError:
            return others
    labels = as_label_list(humans, "humans")
    both = [h for h in labels if any(h == c for c in candidates)]
    if both:
        raise InvalidParameterError(
            f"`humans` lists {both[0]!r}, which `{param}` names too; a candidate is compared "
            "with the humans, never counted among them"
        )
    coder_positions(coders, labels, "humans")
    return labels
