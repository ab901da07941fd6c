"""What the readers of :mod:`pandas_agree.io` record beside a span frame, for the span functions.

The readers put the documents' texts in ``frame.attrs["texts"]`` (``{document: text}``)
where the export holds them, and CoNLL-2012, whose offsets are token indices, the number of
tokens of each document in ``frame.attrs["n_tokens"]``. The span functions take them when
the caller passes no ``texts=`` / ``tokens=`` / ``continuum=``, so a frame read from an
export is used with its own texts without building a dict.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["reader_lengths", "texts_or_tokens", "without_attrs"]


def _attr(spans: Any, key: str) -> Mapping[Hashable, Any] | None:
    attrs = getattr(spans, "attrs", None)
    found = attrs.get(key) if isinstance(attrs, Mapping) else None
    return found if isinstance(found, Mapping) else None


def texts_or_tokens(
    spans: Any,
    texts: Mapping[Hashable, str] | None,
    tokens: pd.DataFrame | None,
    unit: str,
    document: Hashable,
    start: Hashable,
    end: Hashable,
) -> tuple[Mapping[Hashable, str] | None, pd.DataFrame | None]:
    """``texts`` and ``tokens`` as given, or, when neither is, those a reader recorded.

    ``attrs["texts"]`` gives the texts; ``attrs["n_tokens"]`` (token-index offsets) gives,
    for ``unit="token"``, one token ``[i, i + 1)`` per index of each document.
    """
    if texts is not None or tokens is not None:
        return texts, tokens
    found = _attr(spans, "texts")
    if found is not None:
        return found, None
    counts = _attr(spans, "n_tokens")
    if counts is None or unit != "token":
        return None, None
    docs = list(counts.keys())
    sizes = np.array([int(counts[d]) for d in docs], dtype=np.int64)
    first = np.repeat(np.cumsum(sizes) - sizes, sizes)
    index = np.arange(int(sizes.sum()), dtype=np.int64) - first
    names = np.empty(len(docs), dtype=object)
    names[:] = docs
    return None, pd.DataFrame(
        {document: names[np.repeat(np.arange(len(docs)), sizes)], start: index, end: index + 1}
    )


def reader_lengths(spans: Any, documents: pd.Index) -> dict[Hashable, int] | None:
    """Each document's length in offset units (text length, or number of tokens) as a
    reader recorded it, for the documents in ``documents`` with a positive length."""
    found = _attr(spans, "texts")
    if found is not None:
        lengths = {d: len(t) for d, t in found.items() if isinstance(t, str)}
    else:
        counts = _attr(spans, "n_tokens")
        if counts is None:
            return None
        lengths = {d: int(n) for d, n in counts.items()}
    keep = set(documents)
    out = {d: n for d, n in lengths.items() if d in keep and n > 0}
    return out or None


def without_attrs(spans: pd.DataFrame) -> pd.DataFrame:
    """A shallow copy of ``spans`` without ``attrs`` (the data are shared, not copied)."""
    out = spans.copy(deep=False)
    out.attrs = {}
    return out
