"""Shared pieces of the readers: the span-frame schema, file lists, coder rules, errors.

Everything here is a public name of an internal module, used by the reader modules of
:mod:`pandas_agree.io` only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..declare import RELATION_COLUMNS, SPAN_COLUMNS
from ..errors import InvalidParameterError, ReaderError

__all__ = [
    "RELATION_COLUMNS",
    "SPAN_COLUMNS",
    "CoderRule",
    "DocumentTexts",
    "PathLike",
    "Source",
    "SpansAndRelations",
    "add_relation",
    "check_choice",
    "coder_of",
    "decode_error",
    "expand_files",
    "read_text",
    "reader_result",
    "relation_frame",
    "relation_rows",
    "span_frame",
    "utf16_to_codepoints",
]

PathLike = str | os.PathLike
Source = PathLike | Sequence[PathLike]
CoderRule = str | Mapping[Any, Any] | Callable[[Path], Any]

_INT_COLUMNS = frozenset(
    {
        "start",
        "end",
        "chain",
        "token",
        "sentence",
        "fragment",
        "head_start",
        "head_end",
        "tail_start",
        "tail_end",
    }
)
_RELATION_SORT = (
    "document",
    "coder",
    "head_start",
    "head_end",
    "tail_start",
    "tail_end",
    "relation",
)


class SpansAndRelations(NamedTuple):
    """What a reader returns when asked for relations: the span frame and the relation frame.

    ``spans`` is the span frame the reader returns without relations; ``relations`` has one
    row per relation, columns ``document, coder, relation, label, head, tail, head_start,
    head_end, head_label, tail_start, tail_end, tail_label`` (see :doc:`/io`). Unpack it
    (``spans, relations = read_brat(path, relations=True)``) or use the fields.
    """

    spans: pd.DataFrame
    relations: pd.DataFrame


def relation_frame(rows: Mapping[str, Sequence[Any]], spans: pd.DataFrame) -> pd.DataFrame:
    """A relation frame from ``rows`` (the columns of :data:`RELATION_COLUMNS`), sorted by
    document, coder, head and tail offsets, relation id; ``attrs["coverage"]`` of ``spans``."""
    frame = span_frame({name: rows[name] for name in RELATION_COLUMNS}, _RELATION_SORT)
    if "coverage" in spans.attrs:
        frame.attrs["coverage"] = spans.attrs["coverage"]
    return frame


def relation_rows() -> dict[str, list[Any]]:
    """Empty columns for :func:`relation_frame`."""
    return {name: [] for name in RELATION_COLUMNS}


def add_relation(
    rows: dict[str, list[Any]],
    document: Any,
    coder: Any,
    relation: Any,
    label: Any,
    head: tuple[Any, int, int, Any],
    tail: tuple[Any, int, int, Any],
) -> None:
    """Append one relation; ``head`` and ``tail`` are (annotation id, start, end, label)."""
    values = (document, coder, relation, label, head[0], tail[0], *head[1:], *tail[1:])
    for name, value in zip(RELATION_COLUMNS, values):
        rows[name].append(value)


_SHOW = 5


def check_choice(value: Any, param: str, choices: Sequence[Any]) -> Any:
    """Return ``value`` if it is one of ``choices``; raise naming ``param`` otherwise."""
    if isinstance(value, str) and value in choices:
        return value
    raise InvalidParameterError(f"`{param}` must be one of {list(choices)}, got {value!r}")


def _as_path(item: Any, param: str) -> Path:
    if isinstance(item, (str, os.PathLike)):
        return Path(item)
    raise InvalidParameterError(
        f"`{param}` must be a path, a directory or a list of paths, got {type(item).__name__} "
        f"{item!r}"
    )


def expand_files(source: Any, param: str, pattern: str, recursive: bool = False) -> list[Path]:
    """The files named by ``source``: a path, a directory (its files matching ``pattern``)
    or a list of paths and directories. Sorted within each directory, duplicates kept out.
    """
    if isinstance(source, (str, os.PathLike)):
        items: Iterable[Any] = [source]
    elif isinstance(source, Sequence) and not isinstance(source, (bytes, bytearray)):
        items = list(source)
        if not items:
            raise InvalidParameterError(f"`{param}` must name at least one file, got []")
    else:
        raise InvalidParameterError(
            f"`{param}` must be a path, a directory or a list of paths, got "
            f"{type(source).__name__} {source!r}"
        )
    files: list[Path] = []
    seen: set[Path] = set()
    for item in items:
        path = _as_path(item, param)
        if path.is_dir():
            found = sorted(path.rglob(pattern) if recursive else path.glob(pattern))
            found = [f for f in found if f.is_file()]
            if not found:
                raise InvalidParameterError(
                    f"`{param}` directory {str(path)!r} holds no files matching {pattern!r}"
                )
        elif path.is_file():
            found = [path]
        else:
            raise InvalidParameterError(f"`{param}`: no such file or directory, got {str(path)!r}")
        for f in found:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                files.append(f)
    return files


def coder_of(path: Path, rule: CoderRule, param: str = "coder") -> Any:
    """The coder of the file ``path`` under ``rule``.

    ``"stem"`` (the file name without its suffix), ``"parent"`` (the name of the directory
    holding the file), a mapping from paths to coder names (keys compared as resolved
    paths), or a callable taking the :class:`~pathlib.Path` and returning the name.
    """
    if isinstance(rule, str):
        if rule == "stem":
            return path.stem
        if rule == "parent":
            return path.resolve().parent.name
        raise InvalidParameterError(
            f"`{param}` must be 'stem', 'parent', a mapping from paths to coders or a "
            f"callable, got {rule!r}"
        )
    if isinstance(rule, Mapping):
        resolved = {}
        for key, value in rule.items():
            resolved[_as_path(key, param).resolve()] = value
        try:
            return resolved[path.resolve()]
        except KeyError:
            raise InvalidParameterError(
                f"`{param}` mapping has no entry for the file {str(path)!r}; its keys are "
                f"{[str(k) for k in list(rule)[:_SHOW]]}"
            ) from None
    if callable(rule):
        return rule(path)
    raise InvalidParameterError(
        f"`{param}` must be 'stem', 'parent', a mapping from paths to coders or a callable, "
        f"got {type(rule).__name__} {rule!r}"
    )


def decode_error(path: Path, raw: bytes, err: UnicodeDecodeError) -> ReaderError:
    """A :class:`ReaderError` naming the line of the first byte that is not UTF-8."""
    line = raw.count(b"\n", 0, err.start) + 1
    return ReaderError(
        f"not valid UTF-8 (byte {raw[err.start]:#04x} at offset {err.start}); the readers "
        "expect UTF-8 files",
        path,
        line,
    )


def read_text(path: Path, *, bom: bool = True) -> str:
    """The text of ``path`` decoded as UTF-8, line ends kept exactly as written.

    ``bom=True`` drops a leading byte-order mark (for formats where offsets do not count
    the file's own characters); ``bom=False`` keeps it as a character.
    """
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as err:
        raise decode_error(path, raw, err) from None


def utf16_to_codepoints(text: str, offsets: Any) -> np.ndarray:
    """Convert UTF-16 code-unit offsets into ``text`` to Python string (code point) offsets.

    Java (WebAnno, INCEpTION) and JavaScript tools count a character outside the Basic
    Multilingual Plane (an emoji, say) as two units; Python counts it as one. Raises
    ``ValueError`` for an offset beyond the text or inside a surrogate pair.

    Examples
    --------
    >>> utf16_to_codepoints("a\\U0001F600b", [0, 1, 3, 4]).tolist()
    [0, 1, 2, 3]
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    units = np.concatenate(([0], np.cumsum(1 + (codes > 0xFFFF), dtype=np.int64)))
    idx = np.searchsorted(units, offsets)
    bad = (idx >= units.size) | (offsets < 0)
    idx_clipped = np.minimum(idx, units.size - 1)
    bad |= units[idx_clipped] != offsets
    if bad.any():
        first = int(offsets[np.flatnonzero(bad)[0]])
        raise ValueError(
            f"UTF-16 offset {first} is beyond the text ({int(units[-1])} units) or inside a "
            "surrogate pair"
        )
    return idx.astype(np.int64)


def span_frame(
    columns: Mapping[str, Sequence[Any]],
    sort_by: Sequence[str],
) -> pd.DataFrame:
    """A span frame with stable dtypes, rows sorted by ``sort_by`` (stable, NA last).

    Integer columns (``start``, ``end``, ``chain``, ...) are int64; every other column is
    object (labels may be missing, document and coder ids keep their type).
    """
    data = {}
    for name, values in columns.items():
        if name in _INT_COLUMNS:
            data[name] = np.asarray(values, dtype=np.int64)
        else:
            arr = np.empty(len(values), dtype=object)
            arr[:] = list(values)
            data[name] = pd.Series(arr, dtype=object, copy=False)
    frame = pd.DataFrame(data)
    if len(frame) > 1:
        frame = frame.sort_values(list(sort_by), kind="mergesort", na_position="last")
    return frame.reset_index(drop=True)


def _sorted(keys: Iterable[Any]) -> list[Any]:
    keys = list(keys)
    try:
        return sorted(keys)
    except TypeError:  # ids of mixed types
        return sorted(keys, key=repr)


class DocumentTexts:
    """The text of each document as read, one text per document whoever annotated it.

    Offsets of two coders can only be compared when they index the same text, so a
    document read with two different texts raises (naming both places). ``attach`` puts
    the texts in ``frame.attrs[key]`` when every document read has one: partial texts
    would make the span functions refuse the documents without one.
    """

    def __init__(self, what: str = "text") -> None:
        self.what = what
        self.texts: dict[Any, Any] = {}
        self.where: dict[Any, str] = {}
        self.documents: set[Any] = set()

    def saw(self, document: Any) -> None:
        """``document`` was read (with or without a text)."""
        self.documents.add(document)

    def add(self, document: Any, text: Any, where: str, file: Any, line: int | None = None) -> None:
        """Record ``text`` as the text of ``document`` read at ``where``."""
        self.documents.add(document)
        if document not in self.texts:
            self.texts[document] = text
            self.where[document] = where
            return
        first = self.texts[document]
        if first == text:
            return
        k = next(
            (i for i, (a, b) in enumerate(zip(first, text)) if a != b), min(len(first), len(text))
        )
        raise ReaderError(
            f"document {document!r} has another {self.what} at {where} than at "
            f"{self.where[document]} (they differ from position {k} on, lengths "
            f"{len(text)} and {len(first)}); offsets into two different texts cannot be "
            "compared",
            file,
            line,
        )

    def attach(
        self, frame: pd.DataFrame, key: str = "texts", value: Callable[[Any], Any] = str
    ) -> None:
        """``frame.attrs[key] = {document: value(text)}`` when every document has a text."""
        if self.documents and self.documents.issubset(self.texts):
            frame.attrs[key] = {d: value(self.texts[d]) for d in _sorted(self.documents)}


def reader_result(
    rows: Mapping[str, Sequence[Any]],
    sort_by: Sequence[str],
    coverage: Iterable[tuple[Any, Any]],
    texts: DocumentTexts,
    links: Mapping[str, Sequence[Any]] | None = None,
) -> pd.DataFrame | SpansAndRelations:
    """What a reader returns: the span frame of ``rows`` (:func:`span_frame`) with
    ``attrs["coverage"]``, every (document, coder) pair read, and ``attrs["texts"]`` (see
    :meth:`DocumentTexts.attach`); with relation ``links`` (:func:`relation_rows`), the
    :class:`SpansAndRelations` of that frame and their :func:`relation_frame`."""
    frame = span_frame(rows, sort_by)
    frame.attrs["coverage"] = tuple(sorted(coverage, key=repr))
    texts.attach(frame)
    if links is None:
        return frame
    return SpansAndRelations(frame, relation_frame(links, frame))
