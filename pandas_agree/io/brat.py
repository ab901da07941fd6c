"""brat standoff (``.ann`` beside ``.txt``) to a span frame.

Format: https://brat.nlplab.org/standoff.html. A text-bound annotation is one line
``T<n><TAB><type> <start> <end>[;<start> <end>...]<TAB><text>``; offsets are characters of
the ``.txt`` file, 0-based, end exclusive; the text of a discontinuous annotation is its
fragments joined by one space.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, overload

import pandas as pd

from ..errors import InvalidParameterError, ReaderError
from ._common import (
    CoderRule,
    DocumentTexts,
    Source,
    SpansAndRelations,
    add_relation,
    coder_of,
    expand_files,
    read_text,
    reader_result,
    relation_rows,
)

__all__ = ["read_brat"]

_FRAGMENT = re.compile(r"^\s*(\d+)\s+(\d+)\s*$")
# Line kinds brat writes besides text-bound annotations: relations, events, attributes
# (A and the older M), normalizations, equivalences (*) and notes (#).
_OTHER_KINDS = frozenset("REAMN*#")
_SORT = ("document", "coder", "start", "end", "label", "annotation", "fragment")


def _root_files(root: Path, coder: CoderRule) -> list[tuple[Path, str, Any]]:
    """(ann file, document, coder) for the layout ``root/<coder>/<doc>.ann``."""
    direct = sorted(p.name for p in root.glob("*.ann"))
    if direct:
        raise InvalidParameterError(
            f"`source` directory {str(root)!r} holds .ann files directly ({direct[:3]}); a "
            "directory source must hold one subdirectory per annotator (root/<coder>/<doc>.ann). "
            "For one annotator's files pass them as a list, e.g. "
            "read_brat(sorted(Path(d).glob('*.ann')), coder='parent')"
        )
    if not (coder == "parent" or isinstance(coder, Mapping)):
        raise InvalidParameterError(
            "`coder` for a directory source must be 'parent' (the subdirectory names) or a "
            f"mapping from subdirectory names to coders, got {coder!r}"
        )
    out = []
    for sub in sorted(d for d in root.iterdir() if d.is_dir() and not d.name.startswith(".")):
        if isinstance(coder, Mapping):
            if sub.name not in coder:
                raise InvalidParameterError(
                    f"`coder` mapping has no entry for the annotator directory {sub.name!r}; "
                    f"its keys are {list(coder)[:5]}"
                )
            name = coder[sub.name]
        else:
            name = sub.name
        for ann in sorted(sub.rglob("*.ann")):
            document = ann.relative_to(sub).with_suffix("").as_posix()
            out.append((ann, document, name))
    if not out:
        raise InvalidParameterError(
            f"`source` directory {str(root)!r} has no annotator subdirectory holding .ann files"
        )
    return out


def _parse_ann(
    ann: Path,
    document: str,
    coder: Any,
    check_text: bool,
    rows: dict[str, list[Any]],
    texts: DocumentTexts,
    relations: dict[str, list[Any]] | None = None,
) -> None:
    source = read_text(ann)
    bounds: dict[str, tuple[int, int, str, int]] = {}  # T id -> (start, end, label, line)
    pending: list[tuple[int, str, str]] = []  # (line, id, rest) of R, E and * lines
    txt_path = ann.with_suffix(".txt")
    doc_text = read_text(txt_path, bom=False) if txt_path.is_file() else None
    if doc_text is None:
        texts.saw(document)
    else:
        texts.add(document, doc_text, repr(str(txt_path)), txt_path)
    for number, raw in enumerate(source.split("\n"), start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line.strip():
            continue
        ident, tab, rest = line.partition("\t")
        if not tab or not ident:
            raise ReaderError(f"expected '<id><TAB>...', got {line!r}", ann, number)
        kind = ident[0]
        if kind in _OTHER_KINDS:
            if kind in "RE*":
                pending.append((number, ident, rest))
            continue  # relations, events, attributes, notes: not spans (documented)
        if kind != "T":
            raise ReaderError(
                f"unknown annotation id {ident!r} (brat ids start with T, R, E, A, M, N, * or #)",
                ann,
                number,
            )
        middle, tab, ann_text = rest.partition("\t")
        if not tab:
            raise ReaderError(
                f"text-bound annotation {ident} has no text field "
                f"('<id><TAB><type> <start> <end><TAB><text>'), got {line!r}",
                ann,
                number,
            )
        label, _, offsets = middle.partition(" ")
        if not label or not offsets:
            raise ReaderError(
                f"text-bound annotation {ident} needs '<type> <start> <end>', got {middle!r}",
                ann,
                number,
            )
        fragments = []
        for piece in offsets.split(";"):
            match = _FRAGMENT.match(piece)
            if match is None:
                raise ReaderError(
                    f"annotation {ident}: offsets must be '<start> <end>' pairs joined by ';', "
                    f"got {offsets!r}",
                    ann,
                    number,
                )
            start, end = int(match.group(1)), int(match.group(2))
            if start > end:
                raise ReaderError(
                    f"annotation {ident}: start {start} is after end {end}", ann, number
                )
            if start == end:
                raise ReaderError(
                    f"annotation {ident}: zero-length span {start}-{end} (a span covers at "
                    "least one character; remove the annotation or widen it)",
                    ann,
                    number,
                )
            fragments.append((start, end))
        if doc_text is not None:
            too_far = [e for _, e in fragments if e > len(doc_text)]
            if too_far:
                raise ReaderError(
                    f"annotation {ident}: end offset {too_far[0]} is beyond the text of "
                    f"{txt_path.name} ({len(doc_text)} characters)",
                    ann,
                    number,
                )
            pieces = [doc_text[s:e] for s, e in fragments]
            if check_text and " ".join(pieces) != ann_text:
                raise ReaderError(
                    f"annotation {ident}: the text field {ann_text!r} differs from "
                    f"{txt_path.name} at {offsets!r}, which holds {' '.join(pieces)!r} (offsets "
                    "must count characters of the UTF-8 text, not bytes; pass check_text=False "
                    "to read anyway)",
                    ann,
                    number,
                )
        else:
            lengths = [e - s for s, e in fragments]
            if sum(lengths) + len(lengths) - 1 == len(ann_text):
                pieces, pos = [], 0
                for length in lengths:
                    pieces.append(ann_text[pos : pos + length])
                    pos += length + 1
            elif check_text:
                raise ReaderError(
                    f"annotation {ident}: the text field {ann_text!r} has {len(ann_text)} "
                    f"characters but the offsets {offsets!r} cover {sum(lengths)} (plus one "
                    "space between fragments); pass check_text=False to read anyway",
                    ann,
                    number,
                )
            else:
                pieces = [ann_text if len(fragments) == 1 else None] * len(fragments)
        if ident in bounds:
            raise ReaderError(
                f"annotation id {ident} is used twice (first on line {bounds[ident][3]})",
                ann,
                number,
            )
        bounds[ident] = (min(f[0] for f in fragments), max(f[1] for f in fragments), label, number)
        for index, ((start, end), piece) in enumerate(zip(fragments, pieces)):
            rows["document"].append(document)
            rows["coder"].append(coder)
            rows["start"].append(start)
            rows["end"].append(end)
            rows["label"].append(label)
            rows["text"].append(piece)
            rows["annotation"].append(ident)
            rows["fragment"].append(index)
    if relations is not None:
        _relations(ann, document, coder, bounds, pending, relations)


def _argument(text: str, what: str, ident: str, ann: Path, number: int) -> tuple[str, str]:
    """``Role:ID`` split, or a ReaderError naming the line."""
    role, colon, target = text.partition(":")
    if not colon or not role or not target:
        raise ReaderError(f"{what} {ident}: expected 'Role:ID', got {text!r}", ann, number)
    return role, target


def _relations(
    ann: Path,
    document: str,
    coder: Any,
    bounds: dict[str, tuple[int, int, str, int]],
    pending: list[tuple[int, str, str]],
    out: dict[str, list[Any]],
) -> None:
    """The relation rows of one ``.ann``: R lines, E lines (trigger -> each argument), * lines."""
    events: dict[str, tuple[str, list[tuple[str, str]], int]] = {}
    for number, ident, rest in pending:
        if ident[0] != "E":
            continue
        if ident in events:
            raise ReaderError(
                f"event id {ident} is used twice (first on line {events[ident][2]})", ann, number
            )
        fields = rest.split("\t")[0].split()
        if not fields:
            raise ReaderError(f"event {ident} has no 'Type:Trigger'", ann, number)
        _, trigger = _argument(fields[0], "event", ident, ann, number)
        if trigger not in bounds:
            raise ReaderError(
                f"event {ident}: its trigger {trigger} is not a text-bound annotation of the file",
                ann,
                number,
            )
        args = [_argument(f, "event", ident, ann, number) for f in fields[1:]]
        events[ident] = (trigger, args, number)

    def endpoint(target: str, what: str, ident: str, number: int) -> tuple[str, int, int, str]:
        if target in events:
            target = events[target][0]  # an event stands for its trigger
        if target not in bounds:
            raise ReaderError(
                f"{what} {ident}: argument {target} is not an annotation of the file",
                ann,
                number,
            )
        start, end, label, _ = bounds[target]
        return target, start, end, label

    # An event cannot be its own argument, directly or through nested events.
    state: dict[str, int] = {}

    def visit(event: str) -> None:
        state[event] = 1
        for _, target in events[event][1]:
            if target in events:
                if state.get(target) == 1:
                    raise ReaderError(
                        f"event {event} takes event {target} as an argument, which leads back "
                        f"to {event}: nested events cannot form a cycle",
                        ann,
                        events[event][2],
                    )
                if target not in state:
                    visit(target)
        state[event] = 2

    for event in events:
        if event not in state:
            visit(event)

    for number, ident, rest in pending:
        fields = rest.split("\t")[0].split()
        if ident[0] == "R":
            if len(fields) != 3:
                raise ReaderError(
                    f"relation {ident} needs '<type> Arg1:<id> Arg2:<id>', got {rest!r}",
                    ann,
                    number,
                )
            label = fields[0]
            (_, head), (_, tail) = (
                _argument(f, "relation", ident, ann, number) for f in fields[1:]
            )
            add_relation(
                out,
                document,
                coder,
                ident,
                label,
                endpoint(head, "relation", ident, number),
                endpoint(tail, "relation", ident, number),
            )
        elif ident[0] == "E":
            trigger, args, _ = events[ident]
            roles = {role for role, _ in args}
            head = endpoint(trigger, "event", ident, number)
            for role, target in args:
                base = role.rstrip("0123456789")
                # brat numbers the 2nd, 3rd, ... argument of a repeated role (Theme,
                # Theme2, Theme3); a role whose own name ends in a digit (Arg1) is kept.
                label = base if base != role and base in roles else role
                tail = endpoint(target, "event", ident, number)
                add_relation(out, document, coder, f"{ident}:{role}", label, head, tail)
        else:  # "*": an equivalence class, one relation per pair in written order
            if len(fields) < 3:
                raise ReaderError(
                    f"equivalence needs '<type> <id> <id> ...', got {rest!r}", ann, number
                )
            label, members = fields[0], fields[1:]
            ends = [endpoint(m, "equivalence", "*", number) for m in members]
            for i, j in itertools.combinations(range(len(members)), 2):
                relation = f"*{number}:{members[i]}-{members[j]}"
                add_relation(out, document, coder, relation, label, ends[i], ends[j])


@overload
def read_brat(
    source: Source,
    *,
    coder: CoderRule = ...,
    check_text: bool = ...,
    relations: Literal[False] = ...,
) -> pd.DataFrame: ...
@overload
def read_brat(
    source: Source, *, coder: CoderRule = ..., check_text: bool = ..., relations: Literal[True]
) -> SpansAndRelations: ...
def read_brat(
    source: Source,
    *,
    coder: CoderRule = "parent",
    check_text: bool = True,
    relations: bool = False,
) -> pd.DataFrame | SpansAndRelations:
    """Read brat standoff annotations (``.ann`` files) into a span frame.

    Parameters
    ----------
    source : path, directory or list of paths
        A directory laid out as ``root/<coder>/<doc>.ann`` (one subdirectory per annotator,
        the layout bratiaa uses; documents may sit in nested folders), or one ``.ann`` file or
        a list of them (directories in a list are searched recursively for ``.ann`` files).
        Each ``.ann`` is read beside its ``.txt`` (same name) when that exists.
    coder : {"parent", "stem"}, mapping or callable, default "parent"
        How a file gets its coder. For a directory source: the annotator subdirectory's name,
        or a mapping from those names to coder names. For files: ``"parent"`` (the name of
        the directory holding the file), ``"stem"``, a mapping from file paths to coders, or
        a callable taking the :class:`~pathlib.Path`.
    check_text : bool, default True
        Check the text field of each annotation against the ``.txt`` slice at its offsets
        (fragments joined by one space, as brat writes them); a mismatch (typically byte
        offsets or another encoding) raises. Without a ``.txt`` the text field is split into
        fragments by their lengths, and a length mismatch raises.
    relations : bool, default False
        Also read the relations: ``R`` lines (head the first argument, ``Arg1``, tail the
        second), ``E`` lines (events: one relation from the trigger's ``T`` annotation to
        each argument, labelled by its role; brat writes the 2nd, 3rd ... argument of a
        repeated role as ``Theme2``, ``Theme3``, which are labelled ``Theme``, while a role
        whose own name ends in a digit, such as ``Arg1``, is kept; an argument that is an
        event stands for its trigger) and ``*`` lines (an equivalence class ``* Equiv T1 T2
        T3``: one relation per pair, in written order, labelled by the type; compare them
        unordered). Relation ids: the ``R`` id, ``E1:Role`` for an event argument,
        ``*<line>:T1-T2`` for a pair of an equivalence.

    Returns
    -------
    pandas.DataFrame
        One row per fragment of each text-bound (``T``) annotation, sorted by document,
        coder, start, end, label. Columns:

        ``document`` (str)
            The path of the ``.ann`` below the annotator directory, without suffix (for a
            file source: the file stem).
        ``coder``
            From ``coder``.
        ``start``, ``end`` (int64)
            Character offsets into the ``.txt`` as a Python string (code points, not bytes;
            line ends counted as written, so ``\\r\\n`` is two characters), end exclusive.
        ``label`` (str)
            The annotation type.
        ``text`` (str)
            The fragment's text.
        ``annotation`` (str), ``fragment`` (int64)
            The brat id (``T3``) and the fragment's position in it: a discontinuous
            annotation ``T3 Label 0 4;9 14`` gives two rows with the same ``annotation``
            and fragments 0 and 1.

        ``frame.attrs["coverage"]`` lists every (document, coder) pair read, including
        documents in which a coder marked nothing (an empty ``.ann``).
        ``frame.attrs["texts"]`` maps each document to the text of its ``.txt`` when every
        document has one; :func:`~pandas_agree.spans_to_units`,
        :func:`~pandas_agree.span_report` and :func:`~pandas_agree.unitizing_alpha` use it
        when no ``texts=`` is passed.

        Relations (``R``), events (``E``), attributes (``A``, ``M``), normalizations
        (``N``), equivalences (``*``) and notes (``#``) are not spans: attributes,
        normalizations and notes are not read, relations, events and equivalences with
        ``relations=True``.

    SpansAndRelations
        With ``relations=True``: ``(spans, relations)``, the span frame above and one row
        per relation with the columns ``document, coder, relation, label, head, tail,
        head_start, head_end, head_label, tail_start, tail_end, tail_label``: ``head`` and
        ``tail`` are ``T`` ids of the span frame's ``annotation`` column, their offsets
        and labels joined in (a discontinuous annotation from its first fragment's start
        to its last fragment's end); sorted by document, coder, head and tail offsets.

    Raises
    ------
    ReaderError
        A malformed line (with the file and line number), a zero-length span
        (``T2 PER 6 6``), offsets beyond the text, a text
        field that does not match the ``.txt`` (with ``check_text=True``), an annotation id
        used twice in a file; with ``relations=True``, a relation or event argument, or an
        event trigger, that is not an annotation of the file, a relation without exactly
        two arguments, events that are their own arguments (directly or through nested
        events); two files
        giving the same (document, coder), or two annotators' ``.txt`` of one document
        that differ (their offsets could not be compared).
    InvalidParameterError
        A missing path, a directory without annotator subdirectories, a bad ``coder``.

    Examples
    --------
    The example of the brat standoff documentation, annotated by two people (bundled):

    >>> from pandas_agree import io
    >>> spans = io.read_brat(io.example_path("brat"))
    >>> spans[["document", "coder", "start", "end", "label", "text"]]
      document  coder  start  end         label          text
    0     sony  alice      0    4  Organization          Sony
    1     sony  alice     33   41  Organization      Ericsson
    2     sony  alice     75   81       Country        Sweden
    3     sony    bob      0    4  Organization          Sony
    4     sony    bob     33   41       Company      Ericsson
    5     sony    bob     45   57  Organization  mobile phone
    6     sony    bob     75   81       Country        Sweden

    Its relations (alice's ``R1 Partner Arg1:T1 Arg2:T2``; bob marked none):

    >>> spans, relations = io.read_brat(io.example_path("brat"), relations=True)
    >>> relations[["coder", "relation", "label", "head", "tail", "head_start", "tail_start"]]
       coder relation    label head tail  head_start  tail_start
    0  alice       R1  Partner   T1   T2           0          33
    """
    if not isinstance(check_text, bool):
        raise InvalidParameterError(f"`check_text` must be True or False, got {check_text!r}")
    if not isinstance(relations, bool):
        raise InvalidParameterError(f"`relations` must be True or False, got {relations!r}")
    if isinstance(source, (str, os.PathLike)) and Path(source).is_dir():
        files = _root_files(Path(source), coder)
    else:
        found = expand_files(source, "source", "*.ann", recursive=True)
        files = [(f, f.stem, coder_of(f, coder)) for f in found]
        for f, _, _ in files:
            if f.suffix != ".ann":
                raise InvalidParameterError(f"`source` files must be .ann files, got {str(f)!r}")
    rows: dict[str, list[Any]] = {
        name: []
        for name in ("document", "coder", "start", "end", "label", "text", "annotation", "fragment")
    }
    first: dict[tuple[Any, Any], Path] = {}
    texts = DocumentTexts()
    links = relation_rows() if relations else None
    for ann, document, name in files:
        if (document, name) in first:
            raise ReaderError(
                f"document {document!r} of coder {name!r} is also read from "
                f"{str(first[(document, name)])!r}; pass a `coder` rule that tells the files apart",
                ann,
            )
        first[(document, name)] = ann
        _parse_ann(ann, document, name, check_text, rows, texts, links)
    return reader_result(rows, _SORT, {(d, c) for _, d, c in files}, texts, links)
