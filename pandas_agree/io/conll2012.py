"""CoNLL-2012 coreference files (``*_conll``) to mention frames, token tables and chain codes.

Format (CoNLL-2012 shared task, Pradhan et al. 2012; OntoNotes ``*_conll`` files): each
document part starts with ``#begin document (<name>); part <nnn>`` and ends with
``#end document``; sentences are separated by a blank line; each token line has
whitespace-separated columns: 1 document id, 2 part number, 3 word number in the sentence,
4 the word, 5 part of speech, 6 parse bit, 7 predicate lemma, 8 predicate frameset id,
9 word sense, 10 speaker, 11 named entities, then one predicate-argument column for each
predicate of the sentence, and last the coreference column. The number of columns therefore
varies from sentence to sentence (11 + number of predicates + 1), and is the same on every
line of one sentence. The coreference column holds ``-`` for none, else ``|``-separated
``(n`` (a mention of chain ``n`` starts here), ``n)`` (ends here) or ``(n)`` (a one-token
mention).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal, overload

import pandas as pd

from ..errors import InvalidParameterError, ReaderError
from ._common import (
    CoderRule,
    DocumentTexts,
    Source,
    coder_of,
    expand_files,
    read_text,
    span_frame,
)

__all__ = ["conll2012_to_codes", "conll2012_tokens", "read_conll2012"]

_BEGIN = re.compile(r"^#begin document\s+(?:\((.*)\);\s*part\s+(\S+)|(.*?))\s*$")
_PART = re.compile(r"^(?:\((\d+)\)|\((\d+)|(\d+)\))$")
_SORT = ("document", "coder", "start", "end", "chain")


def _parse(
    path: Path,
    coder: Any,
    spans: dict[str, list[Any]],
    tokens: dict[str, list[Any]],
    words_of: DocumentTexts,
) -> set:
    lines = read_text(path).split("\n")
    documents: set[str] = set()
    document: str | None = None
    n_columns = columns_line = 0
    index = sentence = position = 0
    words: list[str] = []
    open_mentions: dict[int, list[tuple[int, int]]] = {}
    doc_spans: list[tuple[int, int, int]] = []
    begin_line = 0

    def close_document(number: int) -> None:
        words_of.add(document, tuple(words), f"line {begin_line} of {str(path)!r}", path, number)
        for chain, stack in open_mentions.items():
            if stack:
                raise ReaderError(
                    f"mention of chain {chain} opened on line {stack[-1][1]} is never closed "
                    f"(document {document!r})",
                    path,
                    number,
                )
        for start, end, chain in doc_spans:
            spans["document"].append(document)
            spans["coder"].append(coder)
            spans["start"].append(start)
            spans["end"].append(end)
            spans["text"].append(" ".join(words[start:end]))
            spans["chain"].append(chain)

    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r")
        if line.startswith("#begin document"):
            if document is not None:
                raise ReaderError(
                    f"'#begin document' inside document {document!r} (begun on line "
                    f"{begin_line}); a '#end document' is missing",
                    path,
                    number,
                )
            match = _BEGIN.match(line)
            if match is None:
                raise ReaderError("'#begin document' without a document name", path, number)
            name = match.group(1) if match.group(1) is not None else match.group(3)
            part = match.group(2)
            document = name if part is None else f"{name}; part {part}"
            if not document:
                raise ReaderError("'#begin document' without a document name", path, number)
            if document in documents:
                raise ReaderError(f"document {document!r} appears twice", path, number)
            documents.add(document)
            begin_line = number
            n_columns = index = sentence = position = 0
            words, open_mentions, doc_spans = [], {}, []
            continue
        if line.startswith("#end document"):
            if document is None:
                raise ReaderError("'#end document' without '#begin document'", path, number)
            close_document(number)
            document = None
            continue
        if not line.strip():
            if position:
                sentence += 1
                position = 0
            n_columns = 0  # the next sentence may have another number of predicates
            continue
        if line.startswith("#"):
            continue
        if document is None:
            raise ReaderError(
                f"token line outside '#begin document' ... '#end document': {line[:60]!r}",
                path,
                number,
            )
        fields = line.split()
        if len(fields) < 4:
            raise ReaderError(
                f"a token line needs at least 4 columns (the word is the 4th, the coreference "
                f"column the last), got {len(fields)}",
                path,
                number,
            )
        if n_columns and len(fields) != n_columns:
            raise ReaderError(
                f"{len(fields)} columns where the sentence's first token line (line "
                f"{columns_line}) has {n_columns}; every line of a sentence has the same "
                "columns (one predicate-argument column per predicate of the sentence)",
                path,
                number,
            )
        if not n_columns:
            n_columns, columns_line = len(fields), number
        if fields[2].isdigit() and int(fields[2]) != position:
            raise ReaderError(
                f"word number {fields[2]} where {position} was expected (a missing blank line "
                "between sentences?)",
                path,
                number,
            )
        words.append(fields[3])
        tokens["document"].append(document)
        tokens["coder"].append(coder)
        tokens["token"].append(index)
        tokens["sentence"].append(sentence)
        tokens["word"].append(fields[3])
        cell = fields[-1]
        if cell != "-":
            for piece in cell.split("|"):
                match = _PART.match(piece)
                if match is None:
                    raise ReaderError(
                        f"bad coreference entry {piece!r} in {cell!r} (expected '(n', 'n)', "
                        "'(n)' or '-')",
                        path,
                        number,
                    )
                single, opening, closing = match.groups()
                if single is not None:
                    doc_spans.append((index, index + 1, int(single)))
                elif opening is not None:
                    open_mentions.setdefault(int(opening), []).append((index, number))
                else:
                    chain = int(closing)
                    stack = open_mentions.get(chain)
                    if not stack:
                        raise ReaderError(
                            f"mention of chain {chain} closed here was never opened", path, number
                        )
                    start, _ = stack.pop()
                    doc_spans.append((start, index + 1, chain))
        index += 1
        position += 1
    if document is not None:
        last = len(lines) - 1 if lines and lines[-1] == "" else len(lines)
        raise ReaderError(
            f"document {document!r} (begun on line {begin_line}) has no '#end document'",
            path,
            last,
        )
    return documents


def _read(source: Source, coder: CoderRule) -> tuple[pd.DataFrame, pd.DataFrame]:
    files = expand_files(source, "source", "*conll", recursive=True)
    spans: dict[str, list[Any]] = {
        name: [] for name in ("document", "coder", "start", "end", "text", "chain")
    }
    tokens: dict[str, list[Any]] = {
        name: [] for name in ("document", "coder", "token", "sentence", "word")
    }
    coverage = set()
    words_of = DocumentTexts("tokens")
    for path in files:
        who = coder_of(path, coder)
        for document in _parse(path, who, spans, tokens, words_of):
            if (document, who) in coverage:
                raise ReaderError(
                    f"document {document!r} of coder {who!r} is in more than one file", path
                )
            coverage.add((document, who))
    frame = span_frame(spans, _SORT)
    frame.attrs["coverage"] = tuple(sorted(coverage, key=repr))
    words_of.attach(frame, "n_tokens", len)
    token_frame = span_frame(tokens, ("document", "coder", "token"))
    return frame, token_frame


@overload
def read_conll2012(
    source: Source, *, coder: CoderRule = ..., label: str = ..., tokens: Literal[False] = ...
) -> pd.DataFrame: ...
@overload
def read_conll2012(
    source: Source, *, coder: CoderRule = ..., label: str = ..., tokens: Literal[True]
) -> tuple[pd.DataFrame, pd.DataFrame]: ...
def read_conll2012(
    source: Source,
    *,
    coder: CoderRule = "stem",
    label: str = "mention",
    tokens: bool = False,
) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """Read CoNLL-2012 coreference files (one per annotator) into a mention frame.

    The coreference column is the last column of each line and the word the 4th, whatever
    the number of columns: OntoNotes files have one predicate-argument column per predicate
    of a sentence, so sentences differ in width (all lines of one sentence have the same).

    Parameters
    ----------
    source : path, directory or list of paths
        A ``*_conll`` / ``*.conll`` file, a list of them, or a directory (every file below
        it whose name ends in ``conll``). A file may hold several documents.
    coder : {"stem", "parent"}, mapping or callable, default "stem"
        How a file gets its coder: the file name without its suffix
        (``alice.v4_gold_conll`` -> ``"alice"``), the directory name, a mapping from paths
        to coders, or a callable taking the :class:`~pathlib.Path`.
    label : str, default "mention"
        The ``label`` of every row: the coreference column has no mention types.
    tokens : bool, default False
        Also return the token table (see :func:`conll2012_tokens`).

    Returns
    -------
    pandas.DataFrame or (pandas.DataFrame, pandas.DataFrame)
        One row per mention, sorted by document, coder, start, end, chain. Columns:

        ``document`` (str)
            ``"<name>; part <nnn>"`` from the ``#begin document (<name>); part <nnn>``
            line (just the name when the line has no part).
        ``coder``
            From ``coder``.
        ``start``, ``end`` (int64)
            **Token** indices, not characters: CoNLL-2012 has no character offsets. The
            index counts tokens from the start of the document part (across sentences),
            end exclusive: a mention of the 3rd and 4th tokens is ``start=2, end=4``.
        ``label`` (str)
            ``label``.
        ``text`` (str)
            The mention's words joined by spaces.
        ``chain`` (int64)
            The chain id of the coreference column. Chain ids are local to a (document,
            coder): chain 1 of one coder has nothing to do with chain 1 of another.

        ``frame.attrs["coverage"]`` lists every (document, coder) pair read.
        ``frame.attrs["n_tokens"]`` maps each document to its number of tokens (the
        offsets are token indices, so the document's units are the tokens ``[i, i + 1)``);
        :func:`~pandas_agree.spans_to_units` (``unit="token"``),
        :func:`~pandas_agree.span_report` and :func:`~pandas_agree.unitizing_alpha` use it
        when no ``tokens=`` or ``texts=`` is passed. With ``tokens=True``, also the token
        table.

    Raises
    ------
    ReaderError
        A malformed file (with the file and line number): a bad coreference entry, a
        mention closed but never opened or never closed, a token line outside a document,
        a wrong word number, a token line whose number of columns differs from the first
        line of its sentence, a missing ``#end document``; two coders' files whose words
        of one document differ (their token indices could not be compared).
    InvalidParameterError
        A missing path or a bad rule.

    See Also
    --------
    conll2012_to_codes : the mentions as chain codes for Passonneau's coreference alpha.

    Examples
    --------
    Two annotators' ``*_conll`` files for one short document (bundled):

    >>> from pandas_agree import io
    >>> io.read_conll2012(io.example_path("conll2012"))
              document  coder  start  end    label  text  chain
    0  story; part 000  alice      0    1  mention  Anna      1
    1  story; part 000  alice      3    4  mention   Ben      2
    2  story; part 000  alice      5    6  mention   She      1
    3  story; part 000  alice      7    8  mention   him      2
    4  story; part 000    bob      0    1  mention  Anna      1
    5  story; part 000    bob      3    4  mention   Ben      1
    6  story; part 000    bob      5    6  mention   She      1
    7  story; part 000    bob      7    8  mention   him      2
    """
    if not isinstance(label, str):
        raise InvalidParameterError(f"`label` must be a string, got {label!r}")
    if not isinstance(tokens, bool):
        raise InvalidParameterError(f"`tokens` must be True or False, got {tokens!r}")
    frame, token_frame = _read(source, coder)
    frame.insert(4, "label", pd.Series([label] * len(frame), dtype=object))
    return (frame, token_frame) if tokens else frame


def conll2012_tokens(source: Source, *, coder: CoderRule = "stem") -> pd.DataFrame:
    """The tokens of CoNLL-2012 files, one row per token.

    Parameters
    ----------
    source, coder
        As in :func:`read_conll2012`.

    Returns
    -------
    pandas.DataFrame
        Columns ``document``, ``coder``, ``token`` (int64, the document-level index that
        :func:`read_conll2012` uses for ``start``/``end``), ``sentence`` (int64, 0-based
        within the document) and ``word``; sorted by document, coder, token.

    Examples
    --------
    >>> from pandas_agree import io
    >>> toks = io.conll2012_tokens(io.example_path("conll2012"))
    >>> toks[toks["coder"] == "alice"].head(4)
              document  coder  token  sentence   word
    0  story; part 000  alice      0         0   Anna
    1  story; part 000  alice      1         0    met
    2  story; part 000  alice      2         0  young
    3  story; part 000  alice      3         0    Ben
    """
    return _read(source, coder)[1]


def conll2012_to_codes(
    source: Source | pd.DataFrame,
    *,
    coder: CoderRule = "stem",
    keep_self: bool = False,
    missing_markables: Literal["raise", "singleton"] = "raise",
) -> pd.DataFrame:
    """CoNLL-2012 coreference as set-valued chain codes, in one call.

    Reads the files (or takes a frame from :func:`read_conll2012`), makes each mention
    span a markable ``(start, end)`` and passes the chains to
    :func:`pandas_agree.tasks.coref.chains_to_codes`, so that
    ``pandas_agree.alpha(codes, distance="masi")`` is Passonneau's coreference reliability.

    Parameters
    ----------
    source : path, directory, list of paths, or DataFrame
        Files as in :func:`read_conll2012`, or its result (columns ``document``, ``coder``,
        ``start``, ``end``, ``chain``).
    coder : rule, default "stem"
        As in :func:`read_conll2012` (files only).
    keep_self, missing_markables
        As in :func:`pandas_agree.tasks.coref.chains_to_codes`. CoNLL files list mentions, not
        markables: mentions one coder marked and another did not raise with the default
        ``"raise"``; ``"singleton"`` adds them to the other coder as singletons.

    Returns
    -------
    pandas.DataFrame
        The result of :func:`~pandas_agree.tasks.coref.chains_to_codes`: columns ``document``,
        ``mention`` (the span as ``(start, end)`` token indices), ``unit``, ``coder``,
        ``value``.

    Examples
    --------
    >>> import pandas_agree as pa
    >>> from pandas_agree import io
    >>> codes = io.conll2012_to_codes(io.example_path("conll2012"))
    >>> codes[codes["coder"] == "bob"][["mention", "value"]].assign(
    ...     value=lambda d: d["value"].map(lambda s: sorted(m for _, m in s)))
      mention             value
    4  (0, 1)  [(3, 4), (5, 6)]
    5  (3, 4)  [(0, 1), (5, 6)]
    6  (5, 6)  [(0, 1), (3, 4)]
    7  (7, 8)                []
    """
    from ..tasks.coref import chains_to_codes

    if isinstance(source, pd.DataFrame):
        missing = [c for c in ("document", "coder", "start", "end", "chain") if c not in source]
        if missing:
            raise InvalidParameterError(
                f"`source` frame lacks the columns {missing} of a read_conll2012 result; its "
                f"columns are {list(source.columns)}"
            )
        frame = source
    else:
        frame = read_conll2012(source, coder=coder)
    mentions = pd.DataFrame(
        {
            "document": frame["document"].to_numpy(),
            "coder": frame["coder"].to_numpy(),
            "mention": pd.Series(
                list(zip(frame["start"].tolist(), frame["end"].tolist())), dtype=object
            ).to_numpy(),
            "chain": frame["chain"].to_numpy(),
        }
    )
    return chains_to_codes(
        mentions,
        document="document",
        coder="coder",
        mention="mention",
        chain="chain",
        keep_self=keep_self,
        missing_markables=missing_markables,
    )
