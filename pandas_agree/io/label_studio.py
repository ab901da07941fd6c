"""Label Studio JSON and JSON_MIN exports to span frames and unit-level (unit, coder, value) frames.

JSON (https://labelstud.io/guide/export.html, "Label Studio JSON format of annotated
tasks"): a list of tasks, each with ``id``, ``data`` and ``annotations``; an annotation has
``completed_by`` (a user id, or a user object in some exports), ``was_cancelled`` and a
``result`` list. A span result has ``type: "labels"`` and ``value`` with ``start``, ``end``,
``text`` and ``labels``; a classification result has ``type: "choices"`` and
``value.choices``; a taxonomy result ``type: "taxonomy"`` and ``value.taxonomy`` (a list of
paths, each a list of labels).

JSON_MIN (label-studio-sdk ``Converter.convert_to_json_min``): one record per annotation,
the task's data fields at the top level plus ``id`` (the task), ``annotator``,
``annotation_id`` and one key per control (``from_name``): a list of ``{start, end, text,
labels}`` for span controls; for a choices control the choice itself when one was picked,
otherwise ``{"choices": [...]}``; for a taxonomy ``[{"taxonomy": [[...], ...]}]``.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..errors import InvalidParameterError, ReaderError
from ._common import (
    DocumentTexts,
    Source,
    SpansAndRelations,
    add_relation,
    check_choice,
    expand_files,
    read_text,
    reader_result,
    relation_rows,
)

__all__ = ["read_label_studio"]

#: The label of a Label Studio relation that has none (the config defines no relation labels).
UNLABELED = "(unlabeled)"

_KINDS = ("spans", "choices", "taxonomy")
_EXPORTS = ("json", "json_min")
_DUPLICATES = ("raise", "first", "last")
_SORT = ("document", "coder", "start", "end", "label", "submission", "annotation")


def _load(path: Path) -> list[Any]:
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReaderError(
            f"not valid JSON: {err.msg} (column {err.colno})", path, err.lineno
        ) from None
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list):
        return data
    raise ReaderError(
        f"a Label Studio export is a JSON list of tasks (or one task object), got "
        f"{type(data).__name__}",
        path,
        1,
    )


def _export_of(record: Any, where: str, path: Path) -> str:
    if not isinstance(record, dict):
        raise ReaderError(f"{where}: a task must be a JSON object, got {record!r:.60}", path)
    if "annotations" in record or "completions" in record:
        return "json"
    if "annotation_id" in record or "annotator" in record:
        return "json_min"
    raise ReaderError(
        f"{where}: neither a JSON task (no 'annotations') nor a JSON_MIN record (no "
        f"'annotator'/'annotation_id'); its keys are {sorted(record)[:8]}",
        path,
    )


def _coder_of(who: Any) -> Any:
    if isinstance(who, dict):
        return who.get("email", who.get("id"))
    return who


def _need(obj: Any, key: str, where: str, path: Path) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise ReaderError(f"{where}: missing {key!r}", path)
    return obj[key]


def _offset(value: Any, key: str, where: str, path: Path) -> int:
    v = _need(value, key, where, path)
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise ReaderError(f"{where}.{key} must be a non-negative integer, got {v!r}", path)
    return int(v)


@dataclass
class _Annotation:
    """One annotator's annotation of one task: a JSON annotation or a JSON_MIN record."""

    document: Any
    coder: Any
    ident: Any  # the annotation id
    where: str  # its JSON path in the file
    path: Path
    items: Any  # JSON: [(JSON path, result object)]; JSON_MIN: the record
    text: str | None  # the task text the offsets index, where the export holds it
    text_where: str  # the JSON path of that text


def _task_text(holder: Any, text_key: str | None, where: str, path: Path) -> str | None:
    """The text ``holder[text_key]`` (``"text"`` when None and present), else None."""
    key = "text" if text_key is None else text_key
    if not isinstance(holder, dict) or key not in holder:
        if text_key is None:
            return None
        raise ReaderError(f"{where}: no text field {text_key!r} (`text_key`)", path)
    text = holder[key]
    if not isinstance(text, str):
        if text_key is None:
            return None
        raise ReaderError(f"{where}.{key} must be a string, got {text!r:.60}", path)
    return text


def _file_annotations(
    path: Path, export: str | None, text_key: str | None
) -> tuple[str, list[_Annotation]]:
    """The export kind of ``path`` and its annotations in file order (cancelled ones left out)."""
    records = _load(path)
    kinds = {_export_of(r, f"[{i}]", path) for i, r in enumerate(records)}
    if len(kinds) > 1:
        raise ReaderError("mixes JSON tasks and JSON_MIN records", path)
    kind = kinds.pop() if kinds else (export or "json")
    if export is not None and kind != export:
        raise ReaderError(f"`export` is {export!r} but the file is a {kind} export", path)
    out: list[_Annotation] = []
    if kind == "json_min":
        for i, rec in enumerate(records):
            where = f"[{i}]"
            doc = _need(rec, "id", where, path)
            coder = _coder_of(_need(rec, "annotator", where, path))
            text = _task_text(rec, text_key, where, path)
            key = "text" if text_key is None else text_key
            out.append(
                _Annotation(
                    doc, coder, rec.get("annotation_id"), where, path, rec, text, f"{where}.{key}"
                )
            )
        return kind, out
    for i, task in enumerate(records):
        where_task = f"[{i}]"
        doc = _need(task, "id", where_task, path)
        text = _task_text(task.get("data"), text_key, f"{where_task}.data", path)
        text_where = f"{where_task}.data.{'text' if text_key is None else text_key}"
        anns = task.get("annotations", task.get("completions"))
        if not isinstance(anns, list):
            raise ReaderError(f"{where_task}.annotations must be a list, got {anns!r:.60}", path)
        for j, ann in enumerate(anns):
            where_ann = f"{where_task}.annotations[{j}]"
            if not isinstance(ann, dict):
                raise ReaderError(f"{where_ann} must be an object, got {ann!r:.60}", path)
            if ann.get("was_cancelled") or ann.get("skipped"):
                continue
            coder = _coder_of(_need(ann, "completed_by", where_ann, path))
            results = ann.get("result", [])
            if not isinstance(results, list):
                raise ReaderError(f"{where_ann}.result must be a list, got {results!r:.60}", path)
            items = []
            for k, res in enumerate(results):
                where = f"{where_ann}.result[{k}]"
                if not isinstance(res, dict):
                    raise ReaderError(f"{where} must be an object, got {res!r:.60}", path)
                items.append((where, res))
            out.append(
                _Annotation(doc, coder, ann.get("id"), where_ann, path, items, text, text_where)
            )
    return kind, out


def _read_annotations(
    files: list[Path], export: str | None, on_duplicate: str, text_key: str | None = None
) -> list[tuple[str, _Annotation]]:
    """(export kind, annotation) of every file, one per (task, coder) by ``on_duplicate``."""
    found: list[tuple[str, _Annotation]] = []
    for path in files:
        kind, anns = _file_annotations(path, export, text_key)
        found += [(kind, ann) for ann in anns]
    keep: dict[tuple[Any, Any], int] = {}
    for index, (_, ann) in enumerate(found):
        key = (ann.document, ann.coder)
        if key in keep and on_duplicate == "raise":
            first = found[keep[key]][1]
            elsewhere = "" if first.path == ann.path else f" of {str(first.path)!r}"
            raise ReaderError(
                f"{ann.where}: task {ann.document!r} has a second annotation by coder "
                f"{ann.coder!r} (the first is {first.where}{elsewhere}); pass "
                "on_duplicate='first' or 'last' to keep one of them",
                ann.path,
            )
        if key not in keep or on_duplicate == "last":
            keep[key] = index
    return [found[i] for i in sorted(keep.values())]


def _span_rows(
    files: list[Path],
    export: str | None,
    from_name: str | None,
    on_duplicate: str,
    text_key: str | None,
    check_text: bool,
    links: dict[str, list[Any]] | None = None,
) -> tuple[dict[str, list[Any]], set[Any], DocumentTexts]:
    rows: dict[str, list[Any]] = {
        name: []
        for name in (
            "document",
            "coder",
            "start",
            "end",
            "label",
            "text",
            "from_name",
            "submission",
            "annotation",
        )
    }
    coverage: set[Any] = set()
    names_seen: set[Any] = set()
    texts = DocumentTexts()

    def add(ann: _Annotation, region, name, value, where):
        path = ann.path
        start = _offset(value, "start", where, path)
        end = _offset(value, "end", where, path)
        if start > end:
            raise ReaderError(f"{where}: start {start} is after end {end}", path)
        if start == end:
            raise ReaderError(
                f"{where}: zero-length span {start}-{end} (a span covers at least one "
                "character; remove the region or widen it)",
                path,
            )
        text = ann.text
        if text is not None:
            if end > len(text):
                raise ReaderError(
                    f"{where}: end offset {end} is beyond the task text {ann.text_where} "
                    f"({len(text)} characters)",
                    path,
                )
            stored = value.get("text")
            if check_text and isinstance(stored, str) and stored != text[start:end]:
                raise ReaderError(
                    f"{where}: the text {stored!r} differs from {ann.text_where} at "
                    f"{start}-{end}, which holds {text[start:end]!r} (Label Studio before "
                    "1.4 counted UTF-16 units, one more per emoji; pass check_text=False to "
                    "read anyway)",
                    path,
                )
        labels = value.get("labels", [])
        if not isinstance(labels, list):
            raise ReaderError(f"{where}.labels must be a list, got {labels!r:.60}", path)
        if region is not None:
            regions.setdefault(region, (start, end, set(), where))[2].update(labels)
        if region is not None and regions[region][:2] != (start, end):
            raise ReaderError(
                f"{where}: region {region!r} is {start}-{end} here but "
                f"{regions[region][0]}-{regions[region][1]} at {regions[region][3]}",
                path,
            )
        for label in labels or [None]:
            rows["document"].append(ann.document)
            rows["coder"].append(ann.coder)
            rows["start"].append(start)
            rows["end"].append(end)
            rows["label"].append(label)
            rows["text"].append(value.get("text"))
            rows["from_name"].append(name)
            rows["submission"].append(ann.ident)
            rows["annotation"].append(region)

    for kind, ann in _read_annotations(files, export, on_duplicate, text_key):
        coverage.add((ann.document, ann.coder))
        if ann.text is None:
            texts.saw(ann.document)
        else:
            texts.add(ann.document, ann.text, f"{ann.text_where} of {str(ann.path)!r}", ann.path)
        regions: dict[Any, tuple[int, int, set[Any], str]] = {}
        if kind == "json":
            for where, res in ann.items:
                if res.get("type") != "labels":
                    continue
                name = res.get("from_name")
                value = _need(res, "value", where, ann.path)
                names_seen.add(name)
                if from_name is None or name == from_name:
                    add(ann, res.get("id"), name, value, where + ".value")
            if links is not None:
                _relations(ann, regions, links)
            continue
        if links is not None:
            raise ReaderError(
                "a JSON_MIN export holds no relations; export the project as JSON to read them",
                ann.path,
            )
        for key, val in ann.items.items():
            if not (
                isinstance(val, list)
                and val
                and all(
                    isinstance(v, dict) and "start" in v and "end" in v and "labels" in v
                    for v in val
                )
            ):
                continue
            names_seen.add(key)
            if from_name is not None and key != from_name:
                continue
            for k, v in enumerate(val):
                add(ann, None, key, v, f"{ann.where}.{key}[{k}]")
    if from_name is not None and from_name not in names_seen:
        raise InvalidParameterError(
            f"`from_name` {from_name!r} names no span (labels) control of the export; its "
            f"span controls are {sorted(map(str, names_seen))}"
        )
    return rows, coverage, texts


def _region_label(labels: set[Any]) -> Any:
    """The label of a region: its one label, a frozenset of several, None without one."""
    if not labels:
        return None
    if len(labels) == 1:
        return next(iter(labels))
    return frozenset(labels)


def _relations(
    ann: _Annotation,
    regions: dict[Any, tuple[int, int, set[Any], str]],
    out: dict[str, list[Any]],
) -> None:
    """The ``relation`` results of one annotation as relation rows."""
    results = {res.get("id"): res for _, res in ann.items if res.get("type") != "relation"}
    for where, res in ann.items:
        if res.get("type") != "relation":
            continue
        ends = []
        for key in ("from_id", "to_id"):
            region = _need(res, key, where, ann.path)
            if region not in regions:
                if region in results:
                    other = results[region]
                    raise ReaderError(
                        f"{where}.{key}: region {region!r} is a {other.get('type')!r} result "
                        f"of {other.get('from_name')!r}, not a span read here (relations are "
                        "read between the spans of the labels controls read)",
                        ann.path,
                    )
                raise ReaderError(
                    f"{where}.{key}: no region {region!r} in this annotation", ann.path
                )
            start, end, labels, _ = regions[region]
            ends.append((region, start, end, _region_label(labels)))
        direction = res.get("direction", "right")
        if direction == "left":
            ends.reverse()
        elif direction == "bi":
            # no direction: the span that comes first in the text is the head
            ends.sort(key=lambda e: (e[1], e[2], str(e[0])))
        elif direction != "right":
            raise ReaderError(
                f"{where}.direction must be 'right', 'left' or 'bi', got {direction!r}", ann.path
            )
        labels = res.get("labels", [])
        if not isinstance(labels, list):
            raise ReaderError(f"{where}.labels must be a list, got {labels!r:.60}", ann.path)
        relation = res.get("id") or f"{res['from_id']}->{res['to_id']}"
        for label in labels or [UNLABELED]:
            add_relation(out, ann.document, ann.coder, relation, label, ends[0], ends[1])


def _choice_values(
    value: Any, kind: str, sep: str, where: str, path: Path, sep_name: str = "path_sep"
) -> list[Any]:
    if kind == "choices":
        items = _need(value, "choices", where, path)
        if not isinstance(items, list):
            raise ReaderError(f"{where}.choices must be a list, got {items!r:.60}", path)
        return items
    items = _need(value, "taxonomy", where, path)
    if not isinstance(items, list) or not all(isinstance(p, list) for p in items):
        raise ReaderError(
            f"{where}.taxonomy must be a list of paths (lists), got {items!r:.60}", path
        )
    out = []
    for item in items:
        if not item:
            raise ReaderError(f"{where}.taxonomy holds an empty path", path)
        parts = [str(p) for p in item]
        bad = [p for p in parts if sep in p]
        if bad:
            raise ReaderError(
                f"{where}: taxonomy label {bad[0]!r} contains `{sep_name}` {sep!r}; pass "
                "another separator",
                path,
            )
        out.append(sep.join(parts))
    return out


def _unit_rows(
    files: list[Path],
    kind: str,
    export: str | None,
    from_name: str | None,
    multiple: bool,
    sep: str,
    on_duplicate: str,
    text_key: str | None,
    sep_name: str = "path_sep",
) -> dict[str, list[Any]]:
    rows: dict[str, list[Any]] = {name: [] for name in ("unit", "coder", "value", "submission")}
    names_seen: set[Any] = set()

    def add(ann: _Annotation, values, where):
        if multiple:
            value: Any = frozenset(values)
        else:
            if len(values) != 1:
                raise ReaderError(
                    f"{where}: {len(values)} choices {values!r:.80} but `multiple` is False; "
                    "pass multiple=True when the control allows several choices",
                    ann.path,
                )
            value = values[0]
        rows["unit"].append(ann.document)
        rows["coder"].append(ann.coder)
        rows["value"].append(value)
        rows["submission"].append(ann.ident)

    for file_kind, ann in _read_annotations(files, export, on_duplicate, text_key):
        path = ann.path
        if file_kind == "json":
            seen: dict[Any, str] = {}
            for where, res in ann.items:
                if res.get("type") != kind:
                    continue
                name = res.get("from_name")
                value = _need(res, "value", where, path)
                where = where + ".value"
                names_seen.add(name)
                if from_name is not None and name != from_name:
                    continue
                if name in seen:
                    raise ReaderError(
                        f"{where}: a second {kind} result of {name!r} in one annotation (first "
                        f"at {seen[name]}); per-region controls are not unit-level",
                        path,
                    )
                seen[name] = where
                add(ann, _choice_values(value, kind, sep, where, path, sep_name), where)
            continue
        if from_name is None:
            raise InvalidParameterError(
                f"`from_name` must name the {kind} control for a JSON_MIN export (its records "
                f"do not say which keys are controls), got None; file {str(path)!r}"
            )
        rec = ann.items
        if from_name not in rec:
            continue  # the annotator left this control empty: missing, not a value
        names_seen.add(from_name)
        val = rec[from_name]
        where = f"{ann.where}.{from_name}"
        if isinstance(val, list):
            if len(val) != 1:
                raise ReaderError(
                    f"{where}: {len(val)} results for one control; per-region controls are "
                    "not unit-level",
                    path,
                )
            val = val[0]
        if kind == "choices" and isinstance(val, (str, int, float)) and not isinstance(val, bool):
            values = [val]
        elif isinstance(val, dict):
            values = _choice_values(val, kind, sep, where, path, sep_name)
        else:
            raise ReaderError(f"{where}: not a {kind} value, got {val!r:.60}", path)
        add(ann, values, where)
    if from_name is not None and from_name not in names_seen:
        raise InvalidParameterError(
            f"`from_name` {from_name!r} names no {kind} control of the export; its {kind} "
            f"controls are {sorted(map(str, names_seen))}"
        )
    if from_name is None and len(names_seen) > 1:
        raise InvalidParameterError(
            f"`from_name` must name one of the {kind} controls {sorted(map(str, names_seen))}, "
            "got None"
        )
    return rows


def read_label_studio(
    source: Source,
    *,
    kind: Literal["spans", "choices", "taxonomy"] = "spans",
    from_name: str | None = None,
    export: Literal["json", "json_min"] | None = None,
    multiple: bool | None = None,
    path_sep: str = "/",
    on_duplicate: Literal["raise", "first", "last"] = "raise",
    text_key: str | None = None,
    check_text: bool = True,
    relations: bool = False,
    taxonomy_sep: str | None = None,
) -> pd.DataFrame | SpansAndRelations:
    """Read a Label Studio JSON or JSON_MIN export.

    Parameters
    ----------
    source : path, directory or list of paths
        An export file (a JSON list of tasks or records, or one task object), a list of
        them, or a directory of ``.json`` files (cloud storage keeps one file per task).
    kind : {"spans", "choices", "taxonomy"}, default "spans"
        ``"spans"``: the text spans of ``labels`` controls, as a span frame.
        ``"choices"`` / ``"taxonomy"``: the task-level answers of a ``Choices`` /
        ``Taxonomy`` control, as a (unit, coder, value) frame.
    from_name : str, optional
        The control to read (the result's ``from_name``). Spans: all ``labels`` controls
        when None (the ``from_name`` column says which). Choices and taxonomy: required
        when the file has several such controls, and always for JSON_MIN (whose records do
        not say which keys are controls).
    export : {"json", "json_min"}, optional
        The export format. When None it is read from the structure: tasks with
        ``annotations`` are JSON, records with ``annotator``/``annotation_id`` are
        JSON_MIN; a file mixing both raises.
    multiple : bool, optional
        Choices and taxonomy: the control allows several choices (``choice="multiple"``),
        so each value is a frozenset of the choices (an empty selection is not stored by
        Label Studio). With False, each value is the single choice, and an answer with
        several raises. Default: False for choices, True for taxonomy (a Taxonomy control
        allows several paths unless ``maxUsages="1"``; its values are frozensets of paths).
    path_sep : str, default "/"
        Joins the labels of a taxonomy path (``["Animal", "Mammal", "Dog"]`` ->
        ``"Animal/Mammal/Dog"``); a label containing it raises, naming the label.
        ``taxonomy_sep=`` is the old name of this argument (it still works, with a
        ``DeprecationWarning``).
    on_duplicate : {"raise", "first", "last"}, default "raise"
        What to do when a coder has two annotations of one task (two annotations with the
        same ``completed_by`` in a task, or one task written twice, in one file or in two
        files read together): ``"raise"`` names the task, the coder and both places;
        ``"first"`` / ``"last"`` keep the whole annotation read first / last (files in the
        order given, sorted within a directory; annotations in file order) and drop the
        other. Tasks read more than once with different coders are merged: that is how one
        project exported per annotator reads.
    text_key : str, optional
        The field of the task ``data`` (JSON) or of the record (JSON_MIN) that holds the
        text the spans index: the ``value="$..."`` of the labeling config's ``Text`` tag.
        Default: ``"text"`` where the task has it (tasks without it are read unchecked);
        when given, every task must have it.
    check_text : bool, default True
        Spans: check each span's stored ``value.text`` against the task text at its
        offsets (a mismatch raises, typically an export whose offsets count UTF-16 units).
        Offsets past the end of the text raise whatever this says.
    relations : bool, default False
        Spans: also read the ``relation`` results (JSON export only; JSON_MIN drops
        them). ``direction="right"`` goes from ``from_id`` (head) to ``to_id`` (tail),
        ``"left"`` the other way; ``"bi"`` has no direction, and the region that starts
        first in the text is the head. A relation with several labels gives one row per
        label; ``relation`` is ``"<from_id>-><to_id>"`` (the result's ``id`` where it has
        one).

    Returns
    -------
    pandas.DataFrame
        ``kind="spans"``: one row per label of each span result (a region with two labels
        gives two rows), sorted by document, coder, start, end, label. Columns
        ``document`` (the task id), ``coder`` (``completed_by``: the user id, or the email
        of an expanded user; JSON_MIN: ``annotator``), ``start``, ``end`` (int64, character
        offsets into the task text, end exclusive, as Label Studio stores them: Python
        string offsets since Label Studio 1.4; older versions counted UTF-16 units, so a
        span after an emoji was off by one), ``label``, ``text``, ``from_name``,
        ``submission`` (Label Studio's annotation id: one coder's work on one task) and
        ``annotation`` (the id of the span, Label Studio's region id; None in JSON_MIN), the
        column that identifies one annotated span in every reader.
        ``frame.attrs["coverage"]`` lists every (document, coder) pair read, including
        annotations without spans. ``frame.attrs["texts"]`` maps each task id to its text
        (``data.text`` or ``text_key``) when every task read has one;
        :func:`~pandas_agree.spans_to_units`, :func:`~pandas_agree.span_report` and
        :func:`~pandas_agree.unitizing_alpha` use it when no ``texts=`` is passed.

        ``relations=True``: a :class:`~pandas_agree.io.SpansAndRelations` ``(spans,
        relations)``: the span frame and one row per relation label, columns ``document,
        coder, relation, label, head, tail, head_start, head_end, head_label, tail_start,
        tail_end, tail_label``; a relation without labels (a labelling config without
        relation labels) has the label ``"(unlabeled)"``. ``head`` and ``tail`` are region
        ids (the span frame's
        ``annotation`` column), with their offsets and labels joined in; a region with
        several labels has the
        frozenset of them as its label.

        ``kind="choices"`` / ``"taxonomy"``: one row per annotation that answered the
        control, in file order; columns ``unit`` (the task id), ``coder``, ``value`` and
        ``submission`` (Label Studio's annotation id). An annotation without an answer gives no row
        (a missing rating).

        Cancelled (skipped) annotations are not read: the annotator declined the task.
        Results of other controls (``hypertextlabels``, ``rectanglelabels``, ...) are not
        spans in this sense and are not read.

    Raises
    ------
    ReaderError
        Invalid JSON (with the file and line) or a malformed task (with the file and the
        JSON path of the offending item, e.g. ``[2].annotations[0].result[1].value``), such
        as a zero-length span, or a relation whose ``from_id`` / ``to_id`` is not a span
        region of its annotation; a
        coder with two annotations of one task under ``on_duplicate="raise"``.
    InvalidParameterError
        A bad ``kind``, ``export``, ``multiple`` or ``path_sep``; a missing
        ``from_name`` where it is required.

    Examples
    --------
    Two annotators on one task (bundled JSON export):

    >>> from pandas_agree import io
    >>> path = io.example_path("label_studio.json")
    >>> io.read_label_studio(path)[["document", "coder", "start", "end", "label", "text"]]
      document coder  start  end label   text
    0        1     1      0    5   PER  Alice
    1        1     1     17   22   LOC  Paris
    2        1     2      0    5   ORG  Alice
    3        1     2      0    5   PER  Alice
    4        1     2     17   22   LOC  Paris
    >>> spans, relations = io.read_label_studio(path, relations=True)
    >>> relations[["coder", "label", "head", "tail", "head_label", "tail_label"]]
      coder       label head tail head_label tail_label
    0     1    lives_in   r1   r2        PER        LOC
    >>> io.read_label_studio(path, kind="choices", from_name="sentiment")
      unit coder     value submission
    0    1     1  positive         11
    1    1     2   neutral         12
    """
    check_choice(kind, "kind", _KINDS)
    if export is not None:
        check_choice(export, "export", _EXPORTS)
    if from_name is not None and not isinstance(from_name, str):
        raise InvalidParameterError(
            f"`from_name` must be a control name or None, got {from_name!r}"
        )
    check_choice(on_duplicate, "on_duplicate", _DUPLICATES)
    if text_key is not None and (not isinstance(text_key, str) or not text_key):
        raise InvalidParameterError(f"`text_key` must be a field name or None, got {text_key!r}")
    if not isinstance(check_text, bool):
        raise InvalidParameterError(f"`check_text` must be True or False, got {check_text!r}")
    if not isinstance(relations, bool):
        raise InvalidParameterError(f"`relations` must be True or False, got {relations!r}")
    if relations and kind != "spans":
        raise InvalidParameterError(
            f"`relations` links spans: it needs kind='spans', got kind={kind!r}"
        )
    if multiple is not None and not isinstance(multiple, bool):
        raise InvalidParameterError(f"`multiple` must be True or False, got {multiple!r}")
    if multiple is None:
        multiple = kind == "taxonomy"
    sep_name = "path_sep"
    if taxonomy_sep is not None:
        warnings.warn(
            "`taxonomy_sep` is now called `path_sep`; the old name will be removed",
            DeprecationWarning,
            stacklevel=2,
        )
        if path_sep != "/":
            raise InvalidParameterError(
                "pass `path_sep` or `taxonomy_sep` (its old name), not both"
            )
        path_sep, sep_name = taxonomy_sep, "taxonomy_sep"
    if not isinstance(path_sep, str) or not path_sep:
        raise InvalidParameterError(f"`{sep_name}` must be a non-empty string, got {path_sep!r}")
    files = expand_files(source, "source", "*.json")
    if kind == "spans":
        links = relation_rows() if relations else None
        rows, coverage, texts = _span_rows(
            files, export, from_name, on_duplicate, text_key, check_text, links
        )
        return reader_result(rows, _SORT, coverage, texts, links)
    rows = _unit_rows(
        files, kind, export, from_name, multiple, path_sep, on_duplicate, text_key, sep_name
    )
    out = pd.DataFrame({name: pd.Series(values, dtype=object) for name, values in rows.items()})
    return out
