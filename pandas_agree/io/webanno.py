"""WebAnno / INCEpTION TSV 3.x to a span frame.

Format (INCEpTION user guide, "WebAnno TSV 3.x"): a ``#FORMAT=WebAnno TSV 3.x`` line, one
header line per layer (``#T_SP=<type>|<feature>|...`` for span layers, ``#T_CH=`` chains,
``#T_RL=`` relations; every listed feature is one column), then per sentence its ``#Text=``
line(s) and one line per token: ``<sent>-<tok>``, ``<begin>-<end>``, the token, then one
column per feature. ``_`` is an empty cell, ``*`` an annotation without a value for that
feature, ``|`` separates stacked annotations, and ``[n]`` ties the tokens of one
multi-token annotation together. Sub-token units are numbered ``<sent>-<tok>.<k>``.
Offsets are UTF-16 code units (Java strings); the reader converts them to Python string
offsets.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    utf16_to_codepoints,
)

__all__ = ["NAMED_ENTITY", "read_webanno_tsv"]

#: The DKPro Core named-entity layer INCEpTION and WebAnno use by default.
NAMED_ENTITY = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"

_UNIT_ID = re.compile(r"^(\d+)-(\d+)(?:\.(\d+))?$")
_OFFSETS = re.compile(r"^(\d+)-(\d+)$")
_TEXT_ESCAPES = {"t": "\t", "r": "\r", "n": "\n", "\\": "\\"}
_SORT = ("document", "coder", "start", "end", "label", "annotation")


@dataclass
class _Layer:
    kind: str
    name: str
    features: list[str]
    first_column: int


@dataclass
class _Sentence:
    text: str
    units: list[int] = field(default_factory=list)  # indices into the file's units


def _unescape_text(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _TEXT_ESCAPES.get(m.group(1), m.group(1)), text)


def _split_cell(cell: str) -> list[tuple[str | None, int | None]]:
    """Stacked values of one cell: (value or None for ``*``, disambiguation id or None)."""
    items: list[tuple[str | None, int | None]] = []
    buf: list[str] = []
    escaped: list[bool] = []
    i = 0
    pieces: list[tuple[list[str], list[bool]]] = []
    while i < len(cell):
        ch = cell[i]
        if ch == "\\" and i + 1 < len(cell):
            buf.append(cell[i + 1])
            escaped.append(True)
            i += 2
            continue
        if ch == "|":
            pieces.append((buf, escaped))
            buf, escaped = [], []
        else:
            buf.append(ch)
            escaped.append(False)
        i += 1
    pieces.append((buf, escaped))
    for chars, esc in pieces:
        ident = None
        # A trailing unescaped "[digits]" is the disambiguation id.
        if chars and chars[-1] == "]" and not esc[-1]:
            j = len(chars) - 2
            while j >= 0 and chars[j].isdigit() and not esc[j]:
                j -= 1
            if j >= 0 and j < len(chars) - 2 and chars[j] == "[" and not esc[j]:
                ident = int("".join(chars[j + 1 : -1]))
                chars, esc = chars[:j], esc[:j]
        value = "".join(chars)
        if value == "*" and not (esc and esc[0]):
            items.append((None, ident))
        else:
            items.append((value, ident))
    return items


def _pick_layer(layers: list[_Layer], layer: str, feature: str, path: Path) -> tuple[_Layer, int]:
    spans = [lay for lay in layers if lay.kind == "T_SP"]
    chosen = [lay for lay in spans if lay.name == layer]
    if not chosen:
        chosen = [lay for lay in spans if lay.name.endswith("." + layer)]
    if len(chosen) != 1:
        names = [lay.name for lay in spans]
        what = "no span layer" if not chosen else "several span layers"
        raise InvalidParameterError(
            f"`layer` {layer!r}: {what} of that name in {str(path)!r}; its span layers are {names}"
        )
    lay = chosen[0]
    if feature not in lay.features:
        raise InvalidParameterError(
            f"`feature` {feature!r} is not a feature of the layer {lay.name} in {str(path)!r}; "
            f"its features are {lay.features}"
        )
    return lay, lay.first_column + lay.features.index(feature)


def _pick_relation(
    layers: list[_Layer], name: str, feature: str | None, span_layer: str, path: Path
) -> tuple[int, int]:
    """The label column and the governor column of the relation layer ``name``."""
    relations = [lay for lay in layers if lay.kind == "T_RL"]
    chosen = [lay for lay in relations if lay.name == name]
    if not chosen:
        chosen = [lay for lay in relations if lay.name.endswith("." + name)]
    if len(chosen) != 1:
        what = "no relation layer" if not chosen else "several relation layers"
        raise InvalidParameterError(
            f"`relation_layer` {name!r}: {what} of that name in {str(path)!r}; its relation "
            f"layers are {[lay.name for lay in relations]}"
        )
    lay = chosen[0]
    base = lay.features[-1] if lay.features else ""
    if not base.startswith("BT_"):
        raise ReaderError(
            f"relation layer {lay.name} has no 'BT_<type>' column as its last feature", path
        )
    if base[3:] != span_layer:
        raise InvalidParameterError(
            f"`relation_layer` {lay.name} links annotations of {base[3:]}, but `layer` reads "
            f"{span_layer}; pass layer={base[3:]!r} to read the spans it links"
        )
    names = lay.features[:-1]
    if feature is None:
        if len(names) != 1:
            raise InvalidParameterError(
                f"`relation_feature` must name the feature of {lay.name} that holds the "
                f"relation label, one of {names}, got None"
            )
        feature = names[0]
    if feature not in names:
        raise InvalidParameterError(
            f"`relation_feature` {feature!r} is not a feature of the relation layer "
            f"{lay.name}; its features are {names}"
        )
    return lay.first_column + names.index(feature), lay.first_column + len(names)


_REFERENCE = re.compile(r"^(\d+-\d+(?:\.\d+)?)(?:\[(\d+)_(\d+)\])?$")


def _read_one(
    path: Path,
    layer: str,
    feature: str,
    check_text: bool,
    relation: tuple[str, str | None] | None = None,
) -> tuple[list[tuple[int, int, Any, str | None, int]], str, list[tuple[Any, ...]]]:
    """Annotations of one file as (start, end, annotation key, label, line), the text, and
    the relations of ``relation`` (layer, feature) as (id, label, head, tail) where head and
    tail are (annotation key, start, end, label)."""
    lines = read_text(path).split("\n")
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    if not lines or not lines[0].startswith("#FORMAT=WebAnno TSV 3"):
        first = lines[0] if lines else ""
        raise ReaderError(
            f"not a WebAnno TSV 3.x file: the first line must be '#FORMAT=WebAnno TSV 3.x', "
            f"got {first[:60]!r}",
            path,
            1,
        )
    layers: list[_Layer] = []
    n_columns = 0
    sentences: list[_Sentence] = []
    in_text = False
    column = None
    cells: list[tuple[str, int, int]] = []  # (cell, unit index, line)
    rel_cells: list[tuple[str, str, int, int]] = []  # (label cell, governor cell, unit, line)
    rel_columns: tuple[int, int] | None = None
    units: list[tuple[int, int, int, str, str]] = []  # start16, end16, line, token, id
    for number, line in enumerate(lines[1:], start=2):
        if line.startswith("#T_SP=") or line.startswith("#T_CH=") or line.startswith("#T_RL="):
            if sentences:
                raise ReaderError("layer header after the first sentence", path, number)
            kind, spec = line[1:5], line[6:]
            name, *features = spec.split("|")
            layers.append(_Layer(kind, name, features, 3 + n_columns))
            n_columns += len(features)
            in_text = False
            continue
        if line.startswith("#Text="):
            text = _unescape_text(line[len("#Text=") :])
            if in_text:
                sentences[-1].text += "\n" + text
            else:
                if column is None:
                    lay, column = _pick_layer(layers, layer, feature, path)
                    if relation is not None:
                        rel_columns = _pick_relation(layers, *relation, lay.name, path)
                sentences.append(_Sentence(text))
                in_text = True
            continue
        in_text = False
        if not line.strip() or line.startswith("#"):
            continue
        if not sentences:
            raise ReaderError(f"token line before any '#Text=' line: {line[:60]!r}", path, number)
        fields = line.split("\t")
        if len(fields) == n_columns + 4 and fields[-1] == "":
            fields.pop()  # INCEpTION ends every token line with a tab
        if len(fields) != n_columns + 3:
            raise ReaderError(
                f"expected {n_columns + 3} tab-separated fields (3 token fields and "
                f"{n_columns} feature columns from the header), got {len(fields)}",
                path,
                number,
            )
        if _UNIT_ID.match(fields[0]) is None:
            raise ReaderError(
                f"bad token id {fields[0]!r} (expected '<sentence>-<token>')", path, number
            )
        match = _OFFSETS.match(fields[1])
        if match is None:
            raise ReaderError(f"bad offsets {fields[1]!r} (expected '<begin>-<end>')", path, number)
        start16, end16 = int(match.group(1)), int(match.group(2))
        if start16 > end16:
            raise ReaderError(f"begin {start16} is after end {end16}", path, number)
        units.append((start16, end16, number, fields[2], fields[0]))
        sentences[-1].units.append(len(units) - 1)
        cells.append((fields[column], len(units) - 1, number))  # type: ignore[index]
        if rel_columns is not None:
            label_cell, governor = fields[rel_columns[0]], fields[rel_columns[1]]
            rel_cells.append((label_cell, governor, len(units) - 1, number))
    if column is None:
        lay, _ = _pick_layer(layers, layer, feature, path)  # raises for a missing layer
        if relation is not None:
            _pick_relation(layers, *relation, lay.name, path)

    # Python string offsets of every unit, sentence by sentence. Sentences sit at the
    # offset of their first token; characters between sentences are not in the file and
    # are assumed to be in the Basic Multilingual Plane (whitespace in practice).
    starts = [0] * len(units)
    ends = [0] * len(units)
    pieces: list[str] = []
    astral_before = 0
    doc_length = 0
    for sentence in sentences:
        if not sentence.units:
            continue
        first = units[sentence.units[0]]
        p = sentence.text.find(first[3]) if first[3] else 0
        if p < 0:
            raise ReaderError(
                f"token {first[3]!r} does not occur in its sentence text", path, first[2]
            )
        base16 = first[0] - len(sentence.text[:p].encode("utf-16-le")) // 2
        base = base16 - astral_before
        if base < doc_length:
            raise ReaderError("sentence overlaps the previous one", path, first[2])
        pieces.append(" " * (base - doc_length) + sentence.text)
        doc_length = base + len(sentence.text)
        local = []
        for index in sentence.units:
            local += [units[index][0] - base16, units[index][1] - base16]
        astral = len(sentence.text.encode("utf-16-le")) // 2 - len(sentence.text)
        try:
            if astral == 0 and min(local) >= 0 and max(local) <= len(sentence.text):
                converted = local  # only BMP characters: UTF-16 units are characters
            else:
                converted = utf16_to_codepoints(sentence.text, local)
        except ValueError as err:
            raise ReaderError(
                f"offsets do not fit the sentence text: {err}", path, first[2]
            ) from None
        for k, index in enumerate(sentence.units):
            s, e = int(converted[2 * k]), int(converted[2 * k + 1])
            token = units[index][3]
            if check_text and sentence.text[s:e] != token:
                raise ReaderError(
                    f"token {token!r} does not match the sentence text at its offsets "
                    f"{units[index][0]}-{units[index][1]}, which holds {sentence.text[s:e]!r}; "
                    "pass check_text=False to read anyway",
                    path,
                    units[index][2],
                )
            starts[index], ends[index] = s + base, e + base
        astral_before += astral
    text = "".join(pieces)

    # Group the cells of the chosen column into annotations.
    annotations: dict[Any, list[Any]] = {}
    marked: dict[Any, list[int]] = {}  # the units of each annotation with an [n] id
    for cell, unit, number in cells:
        if cell == "_":
            continue
        for value, ident in _split_cell(cell):
            key: Any = str(ident) if ident is not None else (units[unit][4], len(annotations))
            if key in annotations:
                entry = annotations[key]
                if entry[3] != value:
                    raise ReaderError(
                        f"annotation [{ident}] has the value {value!r} here but {entry[3]!r} "
                        f"on line {entry[4]}",
                        path,
                        number,
                    )
                entry[0] = min(entry[0], starts[unit])
                entry[1] = max(entry[1], ends[unit])
            else:
                name = key if isinstance(key, str) else key[0]
                annotations[key] = [starts[unit], ends[unit], name, value, number]
            if ident is not None:
                marked.setdefault(key, []).append(unit)
    for start, end, name, value, number in annotations.values():
        if start == end:
            raise ReaderError(
                f"annotation {name} ({value!r}) is a zero-length span at offset {start} (a "
                "span covers at least one character; remove the annotation or widen it)",
                path,
                number,
            )
    _check_contiguous(marked, annotations, units, starts, ends, path)
    links = _links(rel_cells, annotations, units, path) if rel_cells else []
    return [tuple(a) for a in annotations.values()], text, links  # type: ignore[misc]


def _links(
    rel_cells: list[tuple[str, str, int, int]],
    annotations: dict[Any, list[Any]],
    units: list[tuple[int, int, int, str, str]],
    path: Path,
) -> list[tuple[Any, ...]]:
    """Relations from the relation columns: the governor's unit is in the last column and
    the relation sits on the dependent's unit; ``[s_t]`` are the disambiguation ids of the
    governor and the dependent annotation (0: the one annotation without an id there)."""
    unit_ids = {u[4] for u in units}
    plain: dict[str, list[Any]] = {}  # unit id -> annotations without an [n] id on it
    for key, entry in annotations.items():
        if not isinstance(key, str):
            plain.setdefault(entry[2], []).append(key)

    def find(unit_id: str, ident: int, role: str, number: int) -> tuple[Any, int, int, Any]:
        if ident:
            entry = annotations.get(str(ident))
            if entry is None:
                raise ReaderError(
                    f"relation {role} [{ident}] on {unit_id}: no annotation of the layer has "
                    f"the id [{ident}]",
                    path,
                    number,
                )
        else:
            if unit_id not in unit_ids:
                raise ReaderError(f"relation {role} {unit_id}: no such token", path, number)
            keys = plain.get(unit_id, [])
            if len(keys) != 1:
                what = "no annotation" if not keys else f"{len(keys)} annotations"
                raise ReaderError(
                    f"relation {role} {unit_id}: {what} of the layer without an id there; "
                    "the relation cannot say which annotation it links",
                    path,
                    number,
                )
            entry = annotations[keys[0]]
        return entry[2], entry[0], entry[1], entry[3]

    out = []
    for label_cell, governor_cell, unit, number in rel_cells:
        if label_cell == "_" and governor_cell == "_":
            continue
        labels = [value for value, _ in _split_cell(label_cell)]
        refs = governor_cell.split("|")
        if label_cell == "_" or governor_cell == "_" or len(labels) != len(refs):
            raise ReaderError(
                f"relation columns {label_cell!r} and {governor_cell!r} do not pair up (one "
                "governor per stacked relation)",
                path,
                number,
            )
        for k, (label, ref) in enumerate(zip(labels, refs), start=1):
            match = _REFERENCE.match(ref)
            if match is None:
                raise ReaderError(
                    f"bad governor reference {ref!r} (expected '<sentence>-<token>' or "
                    "'<sentence>-<token>[<governor id>_<dependent id>]')",
                    path,
                    number,
                )
            source, s_id, t_id = match.group(1), int(match.group(2) or 0), int(match.group(3) or 0)
            head = find(source, s_id, "governor", number)
            tail = find(units[unit][4], t_id, "dependent", number)
            out.append((f"{units[unit][4]}/{k}", label, head, tail))
    return out


def _check_contiguous(
    marked: dict[Any, list[int]],
    annotations: dict[Any, list[Any]],
    units: list[tuple[int, int, int, str, str]],
    starts: list[int],
    ends: list[int],
    path: Path,
) -> None:
    """Raise for a multi-unit annotation that skips a token between its first and last unit.

    WebAnno and INCEpTION write a span annotation on every token from its first to its last
    (Tsv3XCasDocumentBuilder adds it to all tokens in between), so a token left out is not a
    gap the format can hold: the file was edited or two annotations share an id.
    """
    tokens = sorted((starts[k], ends[k], k) for k in range(len(units)) if "." not in units[k][4])
    token_starts = [t[0] for t in tokens]
    for key, members in marked.items():
        if len(members) < 2:
            continue
        ordered = sorted(set(members), key=lambda k: (starts[k], ends[k]))
        inside = set(ordered)
        for prev, nxt in itertools.pairwise(ordered):
            i = bisect.bisect_left(token_starts, ends[prev])
            while i < len(tokens) and tokens[i][1] <= starts[nxt]:
                gap = tokens[i][2]
                if gap not in inside and tokens[i][1] > tokens[i][0]:
                    raise ReaderError(
                        f"annotation [{key}] ({annotations[key][3]!r}) is on {units[prev][4]} "
                        f"and {units[nxt][4]} but not on the token {units[gap][4]} between "
                        "them; a WebAnno span covers every token from its first to its last "
                        "(two annotations sharing an id, or an edited file)",
                        path,
                        units[gap][2],
                    )
                i += 1


def read_webanno_tsv(
    source: Source,
    *,
    layer: str = NAMED_ENTITY,
    feature: str = "value",
    coder: CoderRule = "stem",
    document: CoderRule = "parent",
    check_text: bool = True,
    relation_layer: str | None = None,
    relation_feature: str | None = None,
) -> pd.DataFrame | SpansAndRelations:
    """Read WebAnno / INCEpTION TSV 3.x files (one per annotator) into a span frame.

    Parameters
    ----------
    source : path, directory or list of paths
        A ``.tsv`` file, a list of them, or a directory (every ``.tsv`` below it). An
        INCEpTION project export keeps ``annotation/<document>/<user>.tsv``, which the
        default ``coder`` and ``document`` rules read as it is.
    layer : str, default :data:`NAMED_ENTITY`
        The span layer (``#T_SP=``) to read, by its full type name or a unique suffix
        (``"NamedEntity"``, ``"custom.Claim"``). A name that is not a span layer of the file
        raises, listing the layers it has.
    feature : str, default "value"
        The feature whose values are the labels.
    coder, document : {"stem", "parent"}, mapping or callable
        How a file gets its coder (default: the file stem, ``alice.tsv`` -> ``"alice"``) and
        its document (default: the name of the directory holding it). A mapping goes from
        file paths to names; a callable takes the :class:`~pathlib.Path`.
    check_text : bool, default True
        Check every token against its sentence's ``#Text=`` at its offsets; a mismatch
        raises (a wrong file or an export that counts offsets differently).
    relation_layer : str, optional
        Also read this relation layer (``#T_RL=``, full name or unique suffix, e.g.
        ``"Dependency"``). Its ``BT_`` base type must be ``layer``: the relations link the
        annotations read as spans. A relation sits on the row of its dependent (target)
        annotation, and the layer's last column names the governor's (source) unit, with
        ``[governor_dependent]`` disambiguation ids where an endpoint is ambiguous. The
        governor is the head, the dependent the tail.
    relation_feature : str, optional
        The feature of ``relation_layer`` whose values are the relation labels; needed
        when the layer has more than one feature (``Dependency`` has ``DependencyType``
        and ``flavor``).

    Returns
    -------
    pandas.DataFrame
        One row per annotation of ``layer`` (a stacked annotation is one row per stacked
        value; a multi-token annotation, tied by its ``[n]`` id, is one row from its first
        token's start to its last token's end), sorted by document, coder, start, end,
        label. Columns:

        ``document``, ``coder``
            From the rules above.
        ``start``, ``end`` (int64)
            Character offsets into the document as a Python string, end exclusive. The
            file counts UTF-16 code units (Java); the reader converts them, so a text with
            an emoji gives the same offsets as Python's ``str.find``.
        ``label``
            The feature value; None for an annotation whose feature is empty (``*``).
        ``text`` (str)
            The covered text, taken from the ``#Text=`` lines. Characters between
            sentences are not in the file; a span crossing sentences shows them as spaces.
        ``annotation`` (str)
            The ``[n]`` id for multi-token or stacked annotations, otherwise the token id
            (``"1-4"``) of a single-token annotation.

        With ``relation_layer``: a :class:`~pandas_agree.io.SpansAndRelations` ``(spans,
        relations)``, the relation frame with one row per relation, columns ``document,
        coder, relation, label, head, tail, head_start, head_end, head_label, tail_start,
        tail_end, tail_label``; ``head`` and ``tail`` are values of the span frame's
        ``annotation`` column; ``relation`` is ``"<dependent unit>/<k>"`` (the k-th relation
        stacked on that row; the format gives relations no id).

        ``frame.attrs["coverage"]`` lists every (document, coder) pair read, including
        files with no annotation of the layer. ``frame.attrs["texts"]`` maps each document
        to its text as rebuilt from the ``#Text=`` lines (characters between sentences,
        which the file does not hold, as spaces); :func:`~pandas_agree.spans_to_units`,
        :func:`~pandas_agree.span_report` and :func:`~pandas_agree.unitizing_alpha` use it
        when no ``texts=`` is passed (``unit="token"`` then splits it at whitespace; pass
        ``tokens=`` for the file's own tokens). Chain (``#T_CH=``) layers are not read;
        relation layers with ``relation_layer``.

    Raises
    ------
    ReaderError
        A malformed file (with the file and line number): a missing ``#FORMAT`` line, a
        token line whose number of columns differs from the header, bad ids or offsets, a
        zero-length (zero-width) annotation, a relation whose governor or dependent is not
        an annotation of ``layer`` (or is ambiguous), relation columns that do not pair up,
        a
        multi-token annotation with different values on its tokens or missing from a token
        between its first and last (WebAnno writes a span on every token of its range, so
        the format has no gaps), text mismatches; two files giving the same (document,
        coder); two files of one document whose texts differ.
    InvalidParameterError
        A missing path, an unknown ``layer``, ``feature``, ``relation_layer`` or
        ``relation_feature``, a relation layer whose base type is not ``layer``, a bad
        rule.

    Examples
    --------
    Two annotators' INCEpTION exports of one document (bundled):

    >>> from pandas_agree import io
    >>> io.read_webanno_tsv(io.example_path("webanno"))
         document  coder  start  end label        text annotation
    0  review.txt  alice      0   10   ORG  Label Café          1
    1  review.txt  alice     17   22   LOC       Paris        1-5
    2  review.txt    bob      0    5   ORG       Label        1-1
    3  review.txt    bob     17   22   LOC       Paris          2
    4  review.txt    bob     17   22   ORG       Paris          3
    """
    if not isinstance(layer, str) or not layer:
        raise InvalidParameterError(f"`layer` must be a layer name, got {layer!r}")
    if not isinstance(feature, str):
        raise InvalidParameterError(f"`feature` must be a feature name, got {feature!r}")
    if not isinstance(check_text, bool):
        raise InvalidParameterError(f"`check_text` must be True or False, got {check_text!r}")
    for name, value in (("relation_layer", relation_layer), ("relation_feature", relation_feature)):
        if value is not None and (not isinstance(value, str) or not value):
            raise InvalidParameterError(f"`{name}` must be a name or None, got {value!r}")
    if relation_feature is not None and relation_layer is None:
        raise InvalidParameterError(
            f"`relation_feature` {relation_feature!r} needs `relation_layer`, got None"
        )
    relation = None if relation_layer is None else (relation_layer, relation_feature)
    links = relation_rows() if relation is not None else None
    files = expand_files(source, "source", "*.tsv", recursive=True)
    rows: dict[str, list[Any]] = {
        name: [] for name in ("document", "coder", "start", "end", "label", "text", "annotation")
    }
    first: dict[tuple[Any, Any], Path] = {}
    texts = DocumentTexts()
    for path in files:
        doc = coder_of(path, document, "document")
        who = coder_of(path, coder, "coder")
        if (doc, who) in first:
            raise ReaderError(
                f"document {doc!r} of coder {who!r} is also read from {str(first[(doc, who)])!r}; "
                "pass `document` and `coder` rules that tell the files apart",
                path,
            )
        first[(doc, who)] = path
        found, text, found_links = _read_one(path, layer, feature, check_text, relation)
        texts.add(doc, text, repr(str(path)), path)
        if links is not None:
            for ident, label, head, tail in found_links:
                add_relation(links, doc, who, ident, label, head, tail)
        for start, end, name, value, _ in found:
            rows["document"].append(doc)
            rows["coder"].append(who)
            rows["start"].append(start)
            rows["end"].append(end)
            rows["label"].append(value)
            rows["text"].append(text[start:end])
            rows["annotation"].append(name)
    return reader_result(rows, _SORT, first, texts, links)
