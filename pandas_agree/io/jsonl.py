"""doccano and Prodigy JSONL exports to span frames and unit-level (unit, coder, value) frames.

doccano (sequence labeling export, one JSON object per line): ``{"id": 1, "text": "...",
"label": [[start, end, "LABEL"], ...]}``, or with relations enabled ``"entities": [{"id",
"label", "start_offset", "end_offset"}]``; text classification: ``"label": ["A", "B"]``.
doccano writes one file per user (``alice.jsonl``), so the coder comes from the file.

Prodigy (``prodigy db-out``): ``{"text": "...", "spans": [{"start", "end", "label",
"token_start", "token_end"}], "answer": "accept", "_input_hash": ..., "_annotator_id":
"<dataset>-<session>"}``; the choice interface stores the selected options as ``"accept":
["A", "B"]``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..errors import InvalidParameterError, ReaderError
from ._common import (
    CoderRule,
    DocumentTexts,
    Source,
    check_choice,
    coder_of,
    expand_files,
    read_text,
    reader_result,
)

__all__ = ["read_jsonl"]

_FORMATS = ("doccano", "prodigy")
_KINDS = ("spans", "labels")
_SORT = ("document", "coder", "start", "end", "label")


def _records(path: Path):
    for number, raw in enumerate(read_text(path).split("\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise ReaderError(
                f"not valid JSON: {err.msg} (column {err.colno})", path, number
            ) from None
        if not isinstance(record, dict):
            raise ReaderError(f"each line must be a JSON object, got {line[:60]!r}", path, number)
        yield number, record


def _format_of(record: dict, kind: str, path: Path, number: int) -> str:
    if kind == "spans":
        prodigy, doccano = "spans" in record, "label" in record or "entities" in record
    else:
        prodigy, doccano = "accept" in record, "label" in record
    if prodigy and doccano:
        raise ReaderError(
            "the record has both doccano and Prodigy keys; pass format='doccano' or "
            "format='prodigy'",
            path,
            number,
        )
    if not (prodigy or doccano):
        keys = (
            "'label' or 'entities' (doccano) or 'spans' (Prodigy)"
            if kind == "spans"
            else ("'label' (doccano) or 'accept' (Prodigy)")
        )
        raise ReaderError(f"no {keys} key; its keys are {sorted(record)[:8]}", path, number)
    return "prodigy" if prodigy else "doccano"


def _lookup(record: dict, key: str, what: str, path: Path, number: int) -> Any:
    value: Any = record
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise ReaderError(f"no {what} key {key!r} in the record", path, number)
        value = value[part]
    return value


def _int(value: Any, what: str, path: Path, number: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ReaderError(f"{what} must be a non-negative integer, got {value!r}", path, number)
    return int(value)


def _spans_of(record: dict, fmt: str, path: Path, number: int) -> list[tuple[int, int, Any]]:
    out = []
    if fmt == "prodigy":
        items = record.get("spans") or []
        if not isinstance(items, list):
            raise ReaderError(f"'spans' must be a list, got {items!r:.60}", path, number)
        for item in items:
            if not isinstance(item, dict) or "start" not in item or "end" not in item:
                raise ReaderError(
                    f"a Prodigy span needs 'start' and 'end', got {item!r:.60}", path, number
                )
            start = _int(item["start"], "span start", path, number)
            end = _int(item["end"], "span end", path, number)
            out.append((start, end, item.get("label")))
        return out
    if "entities" in record:
        items = record["entities"]
        if not isinstance(items, list):
            raise ReaderError(f"'entities' must be a list, got {items!r:.60}", path, number)
        for item in items:
            if not isinstance(item, dict) or "start_offset" not in item or "end_offset" not in item:
                raise ReaderError(
                    f"a doccano entity needs 'start_offset' and 'end_offset', got {item!r:.60}",
                    path,
                    number,
                )
            start = _int(item["start_offset"], "start_offset", path, number)
            end = _int(item["end_offset"], "end_offset", path, number)
            out.append((start, end, item.get("label")))
        return out
    items = record["label"]
    if not isinstance(items, list):
        raise ReaderError(f"'label' must be a list, got {items!r:.60}", path, number)
    for item in items:
        if not (isinstance(item, list) and len(item) == 3):
            raise ReaderError(
                f"a doccano span is [start, end, label], got {item!r:.60} (a list of plain "
                "labels is a text classification export: pass kind='labels')",
                path,
                number,
            )
        start = _int(item[0], "span start", path, number)
        end = _int(item[1], "span end", path, number)
        out.append((start, end, item[2]))
    return out


def read_jsonl(
    source: Source,
    *,
    kind: Literal["spans", "labels"] = "spans",
    format: Literal["doccano", "prodigy"] | None = None,
    coder: CoderRule = "stem",
    coder_key: str | None = None,
    document_key: str | None = None,
    answer: str | None = "accept",
) -> pd.DataFrame:
    """Read doccano or Prodigy JSONL exports.

    Parameters
    ----------
    source : path, directory or list of paths
        A ``.jsonl`` file, a list of them, or a directory (its ``.jsonl`` files).
    kind : {"spans", "labels"}, default "spans"
        ``"spans"``: character spans (doccano ``label`` triples or ``entities``; Prodigy
        ``spans``) as a span frame. ``"labels"``: document-level labels (doccano text
        classification ``label`` lists; Prodigy choice ``accept`` lists) as a (unit, coder,
        value) frame whose values are frozensets of labels (an empty list is a coded empty
        set).
    format : {"doccano", "prodigy"}, optional
        The tool. When None it is read from each record's keys (``spans``/``accept`` are
        Prodigy's, ``label``/``entities`` doccano's); a record with both raises.
    coder : {"stem", "parent"}, mapping or callable, default "stem"
        How a file gets its coder when ``coder_key`` is None: doccano exports one file per
        user (``alice.jsonl`` -> ``"alice"``).
    coder_key : str, optional
        Read the coder from this key of each record instead (dots reach into nested
        objects, ``"meta.user"``). Default: ``"_annotator_id"`` for Prodigy records, the
        file for doccano.
    document_key : str, optional
        The key naming the document (dots reach into nested objects). Default: ``"id"``
        for doccano, ``"_input_hash"`` (the same for every annotator of one input) for
        Prodigy.
    answer : str or None, default "accept"
        Prodigy: read only records with this ``answer`` (records answered ``"reject"`` or
        ``"ignore"`` hold no accepted annotation); None reads every record and adds an
        ``answer`` column. doccano records have no answer and are all read.

    Returns
    -------
    pandas.DataFrame
        ``kind="spans"``: one row per span, sorted by document, coder, start, end, label;
        columns ``document``, ``coder``, ``start``, ``end`` (int64, Python string offsets
        into the record's ``text``, end exclusive), ``label``, ``text`` (the covered text,
        when the record has ``text``) and, for ``answer=None``, ``answer``.
        ``frame.attrs["coverage"]`` lists every (document, coder) pair read, including
        records without spans. ``frame.attrs["texts"]`` maps each document to its record's
        ``text`` when every record read has one; :func:`~pandas_agree.spans_to_units`,
        :func:`~pandas_agree.span_report` and :func:`~pandas_agree.unitizing_alpha` use it
        when no ``texts=`` is passed.

        ``kind="labels"``: one row per record, in file order; columns ``unit``,
        ``coder``, ``value`` (a frozenset) and, for ``answer=None``, ``answer``.

    Raises
    ------
    ReaderError
        A line that is not a JSON object, a record without the expected keys, bad offsets,
        a zero-length span or a span beyond the text (with the file and line number); two
        records of one document with different texts.
    InvalidParameterError
        A bad ``kind``, ``format``, ``answer`` or rule; a missing path.

    Examples
    --------
    doccano sequence labeling exports of two users (bundled):

    >>> from pandas_agree import io
    >>> io.read_jsonl(io.example_path("doccano"))
       document  coder  start  end label   text
    0         1  alice      0    5   PER  Alice
    1         1  alice     17   22   LOC  Paris
    2         1    bob      0    5   PER  Alice
    3         2  alice      4    9   ORG  Acmé!
    4         2    bob      4    8   ORG   Acmé
    """
    check_choice(kind, "kind", _KINDS)
    if format is not None:
        check_choice(format, "format", _FORMATS)
    for name, value in (("coder_key", coder_key), ("document_key", document_key)):
        if value is not None and (not isinstance(value, str) or not value):
            raise InvalidParameterError(f"`{name}` must be a key name or None, got {value!r}")
    if answer is not None and not isinstance(answer, str):
        raise InvalidParameterError(f"`answer` must be a string or None, got {answer!r}")
    files = expand_files(source, "source", "*.jsonl")
    names = (
        ("document", "coder", "start", "end", "label", "text")
        if kind == "spans"
        else ("unit", "coder", "value")
    )
    rows: dict[str, list[Any]] = {name: [] for name in names}
    answers: list[Any] = []
    coverage = set()
    texts = DocumentTexts()
    for path in files:
        file_coder = None
        for number, record in _records(path):
            fmt = format or _format_of(record, kind, path, number)
            if fmt == "prodigy":
                got = record.get("answer")
                if answer is not None and got != answer:
                    continue
            else:
                got = None
            key = coder_key or ("_annotator_id" if fmt == "prodigy" else None)
            if key is None:
                if file_coder is None:
                    file_coder = coder_of(path, coder)
                who = file_coder
            else:
                who = _lookup(record, key, "coder", path, number)
            doc_key = document_key or ("_input_hash" if fmt == "prodigy" else "id")
            doc = _lookup(record, doc_key, "document", path, number)
            coverage.add((doc, who))
            if kind == "labels":
                labels = record.get("accept" if fmt == "prodigy" else "label")
                if not isinstance(labels, list) or any(isinstance(v, (list, dict)) for v in labels):
                    raise ReaderError(
                        f"document labels must be a list of labels, got {labels!r:.60}",
                        path,
                        number,
                    )
                rows["unit"].append(doc)
                rows["coder"].append(who)
                rows["value"].append(frozenset(labels))
                answers.append(got)
                continue
            text = record.get("text")
            if isinstance(text, str):
                texts.add(doc, text, f"line {number} of {str(path)!r}", path, number)
            else:
                texts.saw(doc)
            for start, end, label in _spans_of(record, fmt, path, number):
                if start > end:
                    raise ReaderError(f"span start {start} is after its end {end}", path, number)
                if start == end:
                    raise ReaderError(
                        f"zero-length span {start}-{end} (a span covers at least one "
                        "character; remove it or widen it)",
                        path,
                        number,
                    )
                if isinstance(text, str) and end > len(text):
                    raise ReaderError(
                        f"span end {end} is beyond the text ({len(text)} characters)", path, number
                    )
                rows["document"].append(doc)
                rows["coder"].append(who)
                rows["start"].append(start)
                rows["end"].append(end)
                rows["label"].append(label)
                rows["text"].append(text[start:end] if isinstance(text, str) else None)
                answers.append(got)
    if answer is None:
        rows["answer"] = answers
    if kind == "labels":
        return pd.DataFrame({n: pd.Series(v, dtype=object) for n, v in rows.items()})
    return reader_result(rows, _SORT, coverage, texts)
