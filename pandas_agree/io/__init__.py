"""Readers: annotation-tool exports to tidy pandas frames (pure Python, no tool SDK).

Each span reader returns a *span frame*: one row per annotated span, with the columns

``document``, ``coder``
    Which document and whose annotation (object dtype; ids keep their type).
``start``, ``end``
    int64 offsets, end exclusive: characters of the text as a Python string (code points,
    not bytes or UTF-16 units), except CoNLL-2012, which has no character offsets and gives
    document-level token indices.
``label``
    The span's label (object; None where the export has an unlabelled span).

plus ``text`` (the covered text) where the export has it, ``chain`` for coreference and
a few reader-specific columns (``annotation`` ids and so on). Rows are sorted by document,
coder, start, end, label; ``frame.attrs["coverage"]`` lists every (document, coder) pair
read, including documents in which a coder marked nothing. Readers never compute
statistics; malformed input raises :class:`~pandas_agree.errors.ReaderError` naming the
file and line. ``frame.attrs["texts"]`` holds the documents' texts where the export has them
(CoNLL-2012: ``frame.attrs["n_tokens"]``), used by the span functions.

Asked for relations (``read_brat(..., relations=True)``, ``read_label_studio(...,
relations=True)``, ``read_webanno_tsv(..., relation_layer=...)``), a reader returns a
:class:`SpansAndRelations` ``(spans, relations)``: the relation frame has the columns
:data:`RELATION_COLUMNS`, ``document, coder, relation, label, head, tail, head_start,
head_end, head_label, tail_start, tail_end, tail_label``.

=========================  ===============================================================
:func:`read_brat`          brat standoff (``.ann`` beside ``.txt``)
:func:`read_label_studio`  Label Studio JSON and JSON_MIN (spans, choices, taxonomy)
:func:`read_webanno_tsv`   WebAnno / INCEpTION TSV 3.x
:func:`read_conll2012`     CoNLL-2012 coreference (``*_conll``); :func:`conll2012_tokens`,
                           :func:`conll2012_to_codes`
:func:`read_jsonl`         doccano and Prodigy JSONL (spans, document labels)
=========================  ===============================================================
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InvalidParameterError
from ._common import RELATION_COLUMNS, SpansAndRelations
from .brat import read_brat
from .conll2012 import conll2012_to_codes, conll2012_tokens, read_conll2012
from .jsonl import read_jsonl
from .label_studio import read_label_studio
from .webanno import NAMED_ENTITY, read_webanno_tsv

__all__ = [
    "NAMED_ENTITY",
    "RELATION_COLUMNS",
    "SpansAndRelations",
    "conll2012_to_codes",
    "conll2012_tokens",
    "example_path",
    "read_brat",
    "read_conll2012",
    "read_jsonl",
    "read_label_studio",
    "read_webanno_tsv",
]

_EXAMPLES = Path(__file__).resolve().parent / "examples"


def example_path(name: str) -> Path:
    """The path of a bundled example export (used in the docstrings and the docs).

    Parameters
    ----------
    name : str
        One of ``"brat"`` (a directory, one subdirectory per annotator),
        ``"label_studio.json"``, ``"label_studio_min.json"``, ``"webanno"`` (a directory),
        ``"conll2012"`` (a directory), ``"doccano"`` (a directory), ``"prodigy.jsonl"``.

    Examples
    --------
    >>> from pandas_agree import io
    >>> io.example_path("brat").name
    'brat'
    """
    names = sorted(p.name for p in _EXAMPLES.iterdir() if not p.name.startswith("."))
    if not isinstance(name, str) or name not in names:
        raise InvalidParameterError(f"`name` must be one of {names}, got {name!r}")
    return _EXAMPLES / name
