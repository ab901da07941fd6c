"""The ``pandas-agree`` command (also ``python -m pandas_agree``).

Subcommands:

* ``pandas-agree report FILE --unit U --coder C --value V [--by G ...] [--distance D ...]``:
  the table of :func:`pandas_agree.report` for a CSV, TSV, Parquet or JSON Lines file, as a
  text table, CSV, JSON or Markdown; ``--html`` also writes the agreement report page
  (:mod:`pandas_agree.frontends.html`), ``--disagreements`` the units to adjudicate as CSV.
* ``pandas-agree demo``: alpha on the published examples bundled with the package.
* ``pandas-agree spans PATH [--from FORMAT]``: alpha on token or character units,
  unitizing alpha and pairwise F1 of a span export of brat, Label Studio, WebAnno,
  CoNLL-2012, doccano or Prodigy (:func:`pandas_agree.span_report`), per document with
  ``--by document``, per label with ``--by label``; ``--measures`` chooses the columns,
  ``--relations`` adds agreement on relations; ``--html`` and ``--disagreements`` as for
  ``report``.

In every subcommand ``--from`` names the input format and ``--to`` the output format (the
old ``--input-format``, ``--format`` and ``--output-format`` still work and warn).

User mistakes (a missing file, a column that is not there, an unknown distance, ...) end
with one line ``pandas-agree: error: ...`` on stderr and exit status 2, without a traceback.
See ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shlex
import sys
import warnings
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from pathlib import Path
from typing import IO, Any, NoReturn

import numpy as np
import pandas as pd

from .. import datasets
from ..errors import AgreementError, DegenerateDataWarning, ValueTypeError
from ..krippendorff.report import report
from ..registry import available_coefficients
from ..tasks.coref import chains_to_codes, link_table

__all__ = [
    "build_parser",
    "demo",
    "disagreements_csv",
    "format_table",
    "main",
    "markdown_table",
    "read_table",
]

PROG = "pandas-agree"
DEMO_DISTANCES = ("nominal", "jaccard", "masi")
INPUT_FORMATS = ("csv", "tsv", "parquet", "jsonl")
#: Annotation-tool exports whose unit-level answers ``report`` reads (pandas_agree.io).
TOOL_FORMATS = ("label-studio", "doccano", "prodigy")
OUTPUT_FORMATS = ("table", "csv", "json", "markdown")
_EXTENSIONS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
_COMPRESSION = (".gz", ".bz2", ".xz", ".zst", ".zip")


class CLIError(Exception):
    """A user mistake reported as one line with exit status 2."""


# ---------------------------------------------------------------------------------------------
# reading


def _input_format(path: str, given: str | None) -> str:
    if given is not None:
        return given
    if path == "-":
        return "csv"
    suffixes = [s.lower() for s in Path(path).suffixes]
    if suffixes and suffixes[-1] in _COMPRESSION:
        suffixes = suffixes[:-1]
    fmt = _EXTENSIONS.get(suffixes[-1] if suffixes else "")
    if fmt is None:
        raise CLIError(
            f"cannot tell the format of {path!r} from its extension; pass --from "
            f"{{{','.join(INPUT_FORMATS)}}} (known extensions: {', '.join(sorted(_EXTENSIONS))})"
        )
    return fmt


def _to_sets(values: pd.Series, set_sep: str | bool | None) -> pd.Series:
    """Decode set-valued cells: text by :func:`pandas_agree.data.prepare.sets.text_sets` (the rule
    Python uses: "[...]" is a JSON list, ``set_sep`` splits, text that looks like several
    labels in a column of sets is refused), list and array cells of JSON Lines and Parquet.

    Missing and blank cells are missing. Once a column holds a set, its other cells are
    one-element sets, so every distance sees one kind of value. ``set_sep=False`` reads
    every text as one label.
    """
    from ..data.sets import text_sets

    if set_sep is False:
        return values
    if set_sep is None and (
        pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype)
    ):
        return values

    def native(cell: Any) -> Any:
        if cell is None or (isinstance(cell, float) and np.isnan(cell)) or cell is pd.NA:
            return None
        if isinstance(cell, np.ndarray):  # list columns of Parquet files
            return frozenset(cell.tolist())
        if isinstance(cell, (list, tuple, set, frozenset)):
            try:
                return frozenset(tuple(x) if isinstance(x, list) else x for x in cell)
            except TypeError:
                raise CLIError(
                    f"the value column {values.name!r} holds the set {cell!r}, whose elements "
                    "are not labels"
                ) from None
        if isinstance(cell, str):
            return cell.strip() or None
        return cell

    cells = np.empty(len(values), dtype=object)
    cells[:] = [native(c) for c in values.astype(object)]
    has_native = any(isinstance(c, frozenset) for c in cells)
    cells, has_text = text_sets(cells, set_sep, values.name, as_sets=has_native)
    if has_native or has_text or set_sep is not None:
        wrapped = np.empty(cells.size, dtype=object)
        wrapped[:] = [
            c
            if c is None or isinstance(c, frozenset)
            else frozenset([c if set_sep is None else str(c)])
            for c in cells
        ]
        cells = wrapped
    return pd.Series(cells, index=values.index, name=values.name, dtype=object)


def read_table(
    path: str | os.PathLike[str] | IO[str],
    *,
    value: Hashable = "value",
    input_format: str | None = None,
    set_sep: str | bool | None = None,
    na_values: Sequence[str] = (),
    numeric: bool = False,
) -> pd.DataFrame:
    """Read long annotation data as the command line does.

    CSV and TSV cells are read as text: ``"010"`` and ``"10"``, ``"7"`` and ``"7.0"``, or
    units ``"01"`` and ``"1"`` stay different labels, and ``NA``, ``None``, ``null``,
    ``nan``, ``n/a`` are labels like any other. Only an empty cell is missing, plus the
    markers of ``na_values`` in the value column. ``numeric=True`` reads the values as
    numbers (interval and ratio distances, and ordinal on numbers, need it). Parquet and
    JSON Lines files keep their own types.

    Parameters
    ----------
    path : str, path or text file object
        A ``.csv``, ``.tsv``/``.tab``, ``.parquet``/``.pq`` or ``.jsonl``/``.ndjson`` file
        (optionally compressed: ``.gz``, ``.bz2``, ``.xz``, ``.zst``, ``.zip``), or ``"-"``
        for standard input (CSV unless ``input_format`` says otherwise).
    value : hashable, default "value"
        The value column, where set-valued cells are decoded.
    input_format : {"csv", "tsv", "parquet", "jsonl"}, optional
        Overrides the extension.
    set_sep : str or False, optional
        Read each text cell of the value column as a set of labels separated by
        ``set_sep`` (``"a;b"`` is ``{"a", "b"}``, ``"a"`` is ``{"a"}``); ``False`` reads
        every text cell as one label, brackets and separators included. Text cells follow
        :func:`pandas_agree.data.prepare.sets.text_sets`, the rule of ``sep=`` in Python.
    na_values : sequence of str, default ()
        Further text cells of the value column that mean missing, for example
        ``["NA", "-"]`` (compared exactly, case and spaces included).
    numeric : bool, default False
        Read the value column as numbers: ``"7"`` and ``"7.0"`` are the same value. A
        cell that is not a finite number raises :class:`CLIError` naming it (mark missing
        values with ``na_values``).

    Returns
    -------
    pandas.DataFrame
        Cells of the value column written as JSON lists (``"[1, 2]"``; ``"[]"`` is the
        empty set) become frozensets, with or without ``set_sep``; so do list cells of JSON
        Lines and Parquet files. In a column that holds sets, every other cell is a
        one-element set, and a text that looks like several labels (``"a;b"``) raises
        :class:`~pandas_agree.errors.AmbiguousValuesError` unless ``set_sep`` says how to
        read it. Empty cells are missing.

    Examples
    --------
    >>> import io
    >>> from pandas_agree.frontends.cli import read_table
    >>> df = read_table(io.StringIO('unit,coder,value\\n1,A,"[1, 2]"\\n1,B,[]\\n1,C,\\n'))
    >>> df["value"].tolist()
    [frozenset({1, 2}), frozenset(), None]
    >>> text = "unit,coder,value\\n01,A,NA\\n1,A,7\\n1,B,7.0\\n"
    >>> read_table(io.StringIO(text))[["unit", "value"]].to_numpy().tolist()
    [['01', 'NA'], ['1', '7'], ['1', '7.0']]
    >>> read_table(io.StringIO(text), na_values=["NA"], numeric=True)["value"].tolist()
    [nan, 7.0, 7.0]
    """
    if isinstance(na_values, str) or not all(isinstance(x, str) for x in na_values):
        raise CLIError(f"--na-values must be a list of text markers, got {na_values!r}")
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    source: Any = path
    if not isinstance(path, str):  # a file-like object (tests, doctests)
        fmt = input_format or "csv"
    else:
        if path != "-" and Path(path).is_dir():
            raise CLIError(f"{path!r} is a directory, not a data file")
        if path != "-" and not Path(path).exists():
            raise CLIError(f"no such file: {path!r}")
        fmt = _input_format(path, input_format)
        if path == "-":
            stdin = sys.stdin.buffer if fmt == "parquet" else sys.stdin
            source = io.BytesIO(stdin.read()) if fmt == "parquet" else io.StringIO(stdin.read())
    try:
        if fmt in ("csv", "tsv"):
            # Every cell as text; only an empty cell is missing (see the docstring).
            frame = pd.read_csv(
                source,
                sep="," if fmt == "csv" else "\t",
                dtype=str,
                keep_default_na=False,
                na_values=[""],
            )
        elif fmt == "jsonl":
            frame = pd.read_json(source, lines=True, dtype=False)
        elif fmt == "parquet":
            frame = _read_parquet(source)
        else:
            raise CLIError(f"--from must be one of {', '.join(INPUT_FORMATS)}, got {fmt!r}")
    except pd.errors.EmptyDataError:
        raise CLIError(f"{path!r} is empty") from None
    except pd.errors.ParserError as exc:
        raise CLIError(f"cannot parse {path!r} as {fmt}: {_first_line(exc)}") from None
    except UnicodeDecodeError as exc:
        raise CLIError(f"{path!r} is not UTF-8 text ({exc.reason}); is it a {fmt} file?") from None
    except ValueError as exc:  # read_json on malformed lines
        raise CLIError(f"cannot parse {path!r} as {fmt}: {_first_line(exc)}") from None
    if value in frame.columns and not isinstance(frame[value], pd.DataFrame):
        if na_values:
            frame[value] = _mark_missing(frame[value], na_values)
        if numeric:
            frame[value] = _to_numbers(frame[value], value, set_sep)
        frame[value] = _to_sets(frame[value], set_sep)
    return frame


def _mark_missing(values: pd.Series, na_values: Sequence[str]) -> pd.Series:
    """``values`` with the text cells listed in ``na_values`` made missing."""
    if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
        return values
    try:
        hit = values.isin(list(na_values)).to_numpy()
    except TypeError:  # unhashable cells (list values of JSON Lines or Parquet)
        hit = np.fromiter(
            (isinstance(c, str) and c in set(na_values) for c in values),
            dtype=bool,
            count=len(values),
        )
    return values.astype(object).mask(hit, None)


def _to_numbers(values: pd.Series, column: Hashable, set_sep: str | bool | None) -> pd.Series:
    """The value column as numbers; a cell that is not a finite number is an error."""
    if pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(values.dtype):
        return values
    if isinstance(set_sep, str):
        raise CLIError("--numeric reads one number per cell; it does not go with --set-sep")
    present = values.notna().to_numpy()
    text = values.astype(object).where(present, None)
    if values[present].astype(str).str.lstrip().str.startswith("[").any():
        raise CLIError(
            f"--numeric reads one number per cell, but the value column {column!r} holds sets "
            "(JSON lists); their elements keep their JSON types without --numeric"
        )
    numbers = pd.to_numeric(text, errors="coerce")
    bad = present & ~np.isfinite(numbers.to_numpy(dtype=float))
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise CLIError(
            f"--numeric: {int(bad.sum())} cell(s) of the value column {column!r} are not finite "
            f"numbers, e.g. {values.iloc[first]!r} (data row {first + 1}); mark missing values "
            "with --na-values"
        )
    return numbers


def _read_parquet(source: Any) -> pd.DataFrame:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise CLIError(
            "reading Parquet needs pyarrow, which is not installed: pip install pyarrow"
        ) from None
    try:
        try:
            return pd.read_parquet(source)
        except TypeError:  # pandas metadata naming an Arrow dtype numpy cannot hold (lists)
            if hasattr(source, "seek"):
                source.seek(0)
            return _read_parquet_lists(source)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise CLIError(f"cannot read {source!r} as Parquet: {_first_line(exc)}") from None
    except Exception as exc:  # pyarrow.ArrowInvalid and friends (not importable here)
        if type(exc).__module__.startswith("pyarrow"):
            raise CLIError(f"cannot read {source!r} as Parquet: {_first_line(exc)}") from None
        raise


def _read_parquet_lists(source: Any) -> pd.DataFrame:
    """A Parquet file whose pandas metadata names Arrow list dtypes: list columns kept Arrow."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def arrow_lists(kind: Any) -> Any:
        return (
            pd.ArrowDtype(kind) if pa.types.is_list(kind) or pa.types.is_large_list(kind) else None
        )

    return pq.read_table(source).to_pandas(ignore_metadata=True, types_mapper=arrow_lists)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# ---------------------------------------------------------------------------------------------
# computing


def _progress_bar(total: int, enabled: bool, desc: str) -> Any:
    """A tqdm bar on stderr counting ``total`` steps, or None (no terminal, no tqdm, disabled)."""
    if not enabled or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit="replicate", file=sys.stderr, leave=False)


def _report_table(
    frame: pd.DataFrame, args: argparse.Namespace, build: Any = None
) -> Any:
    """The report of ``frame`` (or, with ``build``, what ``build`` makes of the same call)."""
    run = report if build is None else build
    kwargs: dict[str, Any] = {
        "unit": args.unit,
        "coder": args.coder,
        "value": args.value,
        "on_duplicate": args.on_duplicate,
    }
    if args.set_sep is False:  # --no-set-sep: every text one label, no check
        kwargs["sep"] = False
    if args.coefficients:
        kwargs["coefficients"] = args.coefficients
    if args.categories:
        kwargs["categories"] = _categories(args.categories, frame, args.value)
    by = args.by or None
    if args.ci is None:
        return run(frame, args.distance, by, **kwargs)
    # Group count for the bar's total; a missing column is left for report() to name.
    known = by is not None and all(c in frame.columns for c in args.by)
    groups = frame.groupby(args.by).ngroups + 1 if known else 1
    bar = _progress_bar(
        args.n_boot * groups * len(args.distance), not args.no_progress, "bootstrap"
    )
    try:
        return run(
            frame,
            args.distance,
            by,
            **kwargs,
            ci=args.ci,
            ci_method=args.ci_method,
            n_boot=args.n_boot,
            rng=args.seed,
            progress=None if bar is None else bar.update,
        )
    finally:
        if bar is not None:
            bar.close()


# ---------------------------------------------------------------------------------------------
# writing


def _named_index(table: pd.DataFrame) -> pd.DataFrame:
    if table.index.nlevels == 1 and table.index.name is None:
        return table.rename_axis("group")
    return table


def _human(table: pd.DataFrame) -> pd.DataFrame:
    """Drop the ``reason`` columns of text tables when they say nothing."""
    quiet = [
        c
        for c in table.columns
        if isinstance(c, str) and c.endswith("reason") and table[c].isna().all()
    ]
    return table.drop(columns=quiet) if quiet else table


def _cell(x: Any, digits: int) -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return ""
    if isinstance(x, (float, np.floating)):
        return f"{x:.{digits}f}"
    return str(x).replace("|", "\\|").replace("\n", " ")


def markdown_table(table: pd.DataFrame, digits: int = 3) -> str:
    """A GitHub-flavoured Markdown table of ``table`` and its index (no extra dependency).

    Examples
    --------
    >>> import pandas as pd
    >>> from pandas_agree.frontends.cli import markdown_table
    >>> print(markdown_table(pd.DataFrame({"alpha": [0.5, None]}, index=pd.Index(["a", "b"],
    ...       name="group"))))
    | group | alpha |
    | --- | ---: |
    | a | 0.500 |
    | b |  |
    """
    flat = table.reset_index()
    header = [str(c) for c in flat.columns]
    align = [
        "---:"
        if pd.api.types.is_numeric_dtype(flat[c]) and not pd.api.types.is_bool_dtype(flat[c])
        else "---"
        for c in flat.columns
    ]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    for row in flat.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(x, digits) for x in row) + " |")
    return "\n".join(lines)


def format_table(table: pd.DataFrame, fmt: str, digits: int = 3) -> str:
    """``table`` as text: ``"table"``, ``"csv"``, ``"json"`` (records) or ``"markdown"``."""
    table = _named_index(table)
    if fmt == "table":
        return _human(table).to_string(float_format=lambda x: f"{x:.{digits}f}")
    if fmt == "markdown":
        return markdown_table(_human(table), digits)
    if fmt == "csv":
        return table.to_csv().rstrip("\n")
    if fmt == "json":
        return table.reset_index().to_json(orient="records", indent=2)
    raise CLIError(f"--to must be one of {', '.join(OUTPUT_FORMATS)}, got {fmt!r}")


def _write(text: str, output: str | None) -> None:
    if output is None or output == "-":
        sys.stdout.write(text + "\n")
        return
    try:
        Path(output).write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise CLIError(f"cannot write --output {output!r}: {exc.strerror or exc}") from None


# ---------------------------------------------------------------------------------------------
# demo


def demo() -> str:
    """Alpha on the bundled published examples, in one screen.

    Passonneau (2006), Figures 2-4 (set-valued annotations; nominal, Jaccard and MASI per
    figure) and Krippendorff (2011), section C (one alpha per level of measurement).
    """
    table = report(datasets.masi_figures(), list(DEMO_DISTANCES), by="figure").drop(
        columns="reason"
    )
    levels = ["nominal", "ordinal", "interval", "ratio"]
    k2011 = report(datasets.krippendorff_2011(), levels).drop(columns="reason")
    k2011.index = ["alpha"]
    chains = datasets.coref_sample2()
    coref_alpha = report(chains_to_codes(chains), list(DEMO_DISTANCES)).drop(columns="reason")
    coref_alpha.index = ["alpha"]
    links = link_table(chains)
    lines = [
        "pandas_agree demo: Krippendorff's alpha on set-valued annotations",
        "(Passonneau 2006, Figures 2-4: coders give each unit a set; nominal counts only",
        " identical sets as agreement, Jaccard and MASI give credit for overlap)",
        "",
        table.to_string(float_format=lambda x: f"{x:.3f}"),
        "",
        "Krippendorff (2011), section C: 4 coders, 12 units, values 1-5, one alpha per",
        "level of measurement (published: 0.743, 0.815, 0.849, 0.797)",
        "",
        k2011.to_string(float_format=lambda x: f"{x:.3f}"),
        "",
        "Coreference, Passonneau (1997) sample 2, codings CA1 and CA3 (11 markables): each",
        "mention's value is the set of the other mentions in its chain",
        "",
        coref_alpha.to_string(float_format=lambda x: f"{x:.3f}"),
        f"link table (Vilain et al. 1995): a={links.a} b={links.b} c={links.c} d={links.d}, "
        f"recall {links.recall:.3f}, precision {links.precision:.3f}, kappa {links.kappa:.2f} "
        "(published: .857, .857, .52)",
        "",
        "Your own data: pandas-agree report FILE --unit U --coder C --value V --by G "
        "--distance nominal masi",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# argument parsing


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``pandas-agree report: error: ... (see --help)``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _number(
    text: str, convert: Callable[[str], Any], ok: Callable[[Any], bool], what: str
) -> Any:
    """``convert(text)`` when it converts and ``ok`` accepts it; else argparse's error."""
    try:
        x = convert(text)
    except ValueError:
        x = None
    if x is None or not ok(x):
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return x


def _probability(text: str) -> float:
    return _number(text, float, lambda x: 0 < x < 1, "a number in (0, 1)")


def _positive_int(text: str) -> int:
    return _number(text, int, lambda n: n >= 1, "a positive integer")


def _digits(text: str) -> int:
    return _number(text, int, lambda n: 0 <= n <= 15, "an integer from 0 to 15")


def _separator(text: str) -> str:
    if text == "":
        raise argparse.ArgumentTypeError("the set separator must not be empty")
    return text.encode().decode("unicode_escape") if text.startswith("\\") else text


REPORT_EPILOG = """\
set-valued cells (the rule of sep= in Python):
  A cell of the value column written as a JSON list is a set: "[1, 2]", '["a", "b"]'.
  "[]" is the empty set (a coded value), with or without --set-sep; an empty cell is
  missing. With --set-sep ";", every other non-empty cell is a set of labels: "a;b" is
  {a, b} and "a" is {a}. In a column that holds any set, plain cells are one-element
  sets, and a cell that looks like several labels ("a;b") is an error until --set-sep
  says how to split it (or --no-set-sep reads every cell as one label, "[]" included).
  JSON Lines and Parquet list values are sets too.

examples:
  pandas-agree report ratings.csv --unit item --coder annotator --value labels \\
      --by docset --distance nominal jaccard masi
  pandas-agree report ratings.tsv --set-sep ";" --distance masi --ci 0.95 --seed 1
  pandas-agree report ratings.parquet --to markdown --output alpha.md
"""


class _Alias(argparse.Action):
    """An old spelling of an option: sets the new option's value and warns on stderr."""

    def __init__(self, option_strings: list[str], dest: str, new: str = "", **kwargs: Any):
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        sys.stderr.write(
            f"{parser.prog}: warning: {option_string} is deprecated here; use {self.new} "
            f"(--from names the input format and --to the output format in every subcommand)\n"
        )
        setattr(namespace, self.dest, values)


def _alias(group: Any, old: str, new: str, dest: str, choices: Sequence[str]) -> None:
    """Keep ``old`` as a hidden, warning spelling of ``new``."""
    group.add_argument(
        old,
        dest=dest,
        choices=choices,
        action=_Alias,
        new=new,
        default=argparse.SUPPRESS,
        help=argparse.SUPPRESS,
    )


def _add_output_options(group: Any, command: str) -> None:
    """--to (and its old spelling), --digits and --output, the same in every subcommand."""
    group.add_argument(
        "--to",
        dest="format",
        choices=OUTPUT_FORMATS,
        default="table",
        metavar="FORMAT",
        help=f"output format: {', '.join(OUTPUT_FORMATS)} (default: %(default)s)",
    )
    old = "--format" if command == "report" else "--output-format"
    _alias(group, old, "--to", "format", OUTPUT_FORMATS)
    group.add_argument(
        "--digits",
        type=_digits,
        default=3,
        help="decimals in table and markdown output (default: %(default)s)",
    )
    group.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``pandas-agree`` (exposed for documentation tools)."""
    from .. import __version__

    parser = _Parser(
        prog=PROG,
        description="Inter-annotator agreement (Krippendorff's alpha, set distances) on long "
        "annotation data: one row per unit, coder and value.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser(
        "demo",
        help="run alpha on the bundled published examples",
        description="Alpha on the published examples bundled with pandas_agree.",
    )
    rep = sub.add_parser(
        "report",
        help="alpha per group and distance for a data file",
        description="Krippendorff's alpha per group (--by) for one or more distances, with\n"
        "optional bootstrap intervals. Reads CSV, TSV, Parquet or JSON Lines (by the\n"
        "extension of FILE, or --from); '-' reads CSV from standard input. --from names\n"
        "the input format and --to the output format, in every subcommand.",
        epilog=REPORT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rep.add_argument("file", metavar="FILE", help="the long data: one row per rating")
    cols = rep.add_argument_group("columns")
    cols.add_argument("--unit", default="unit", help="unit column (default: %(default)s)")
    cols.add_argument("--coder", default="coder", help="coder column (default: %(default)s)")
    cols.add_argument("--value", default="value", help="value column (default: %(default)s)")
    cols.add_argument(
        "--by", nargs="+", metavar="COLUMN", help="grouping column(s): one row per group"
    )
    rep.add_argument(
        "--distance",
        nargs="+",
        default=["nominal"],
        metavar="NAME",
        help="one alpha column per distance: nominal ordinal interval ratio jaccard dice masi "
        "masi_dice masi_jaccard (default: nominal)",
    )
    rep.add_argument(
        "--coefficients",
        nargs="+",
        metavar="NAME",
        help="other coefficients per group beside alpha, one column each: "
        + " ".join(available_coefficients()),
    )
    rep.add_argument(
        "--categories",
        nargs="+",
        metavar="LABEL",
        help="every value in rank order, for ordinal and order-based weights on text "
        "(e.g. low mid high); a value outside them is an error",
    )
    rep.add_argument(
        "--on-duplicate",
        choices=["raise", "first", "last", "union"],
        default="raise",
        help="two ratings of one unit by one coder: raise (default), keep first or last, or "
        "union their sets",
    )
    boot = rep.add_argument_group("bootstrap intervals")
    boot.add_argument(
        "--ci", type=_probability, metavar="LEVEL", help="confidence level, e.g. 0.95"
    )
    boot.add_argument(
        "--ci-method",
        choices=["krippendorff", "units", "clusters"],
        default="krippendorff",
        help="bootstrap (default: %(default)s)",
    )
    boot.add_argument(
        "--n-boot", type=_positive_int, default=2000, help="replicates (default: %(default)s)"
    )
    boot.add_argument("--seed", type=int, help="random seed, for reproducible intervals")
    boot.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (one is shown on a terminal when tqdm is installed)",
    )
    io_ = rep.add_argument_group("input and output")
    io_.add_argument(
        "--from",
        dest="input_format",
        choices=(*INPUT_FORMATS, *TOOL_FORMATS),
        metavar="FORMAT",
        help=f"input format: {', '.join((*INPUT_FORMATS, *TOOL_FORMATS))} (default: from "
        "FILE's extension; a .json file is a Label Studio export, a .jsonl file whose records "
        "lack the --unit/--coder/--value columns a doccano or Prodigy export)",
    )
    _alias(io_, "--input-format", "--from", "input_format", INPUT_FORMATS)
    tools = rep.add_argument_group(
        "annotation-tool exports (--from label-studio, doccano, prodigy)"
    )
    tools.add_argument(
        "--control",
        metavar="NAME",
        help="Label Studio: the Choices or Taxonomy control to read (its from_name); needed "
        "when the export has several, and for JSON_MIN exports",
    )
    tools.add_argument(
        "--multiple",
        action="store_true",
        help="Label Studio: the control allows several choices; each answer is a set",
    )
    seps = io_.add_mutually_exclusive_group()
    seps.add_argument(
        "--set-sep",
        type=_separator,
        metavar="SEP",
        help='read value cells as sets of labels separated by SEP, e.g. ";" ("[...]" cells '
        "are JSON lists either way)",
    )
    seps.add_argument(
        "--no-set-sep",
        dest="set_sep",
        action="store_false",
        help='read every text cell as one label, even "a;b" or "[1, 2]"',
    )
    io_.add_argument(
        "--na-values",
        nargs="+",
        default=[],
        metavar="TEXT",
        help="value cells that mean missing besides the empty cell, e.g. NA n/a "
        "(by default NA, None, null, nan are labels like any other)",
    )
    io_.add_argument(
        "--numeric",
        action="store_true",
        help="read the value column as numbers ('7' and '7.0' are one value); interval and "
        "ratio need it, and ordinal on numbers (text ranks '10' before '9')",
    )
    _add_output_options(io_, "report")
    _add_page_options(rep, "units", ranked_by_distance=True)
    _add_spans_parser(sub)
    return parser


def _add_page_options(
    parser: argparse.ArgumentParser,
    items: str,
    *,
    ranked_by_distance: bool = False,
    span_matching: bool = False,
) -> None:
    """--html, --disagreements and --top, with ``items`` naming what is adjudicated.

    ``ranked_by_distance``: the help of --disagreements says the list is ranked under the
    first --distance; ``span_matching``: --match (exact or overlapping spans) is added.
    """
    page = parser.add_argument_group("report page and adjudication")
    page.add_argument(
        "--html",
        metavar="FILE",
        help="also write the agreement report page: one self-contained HTML file (tables, "
        "figures when matplotlib is installed, the items to adjudicate)",
    )
    page.add_argument(
        "--disagreements",
        metavar="FILE",
        help=f"also write the {items} to adjudicate as CSV, worst first"
        + (" (ranked under the first --distance)" if ranked_by_distance else ""),
    )
    page.add_argument(
        "--top",
        type=_positive_int,
        metavar="N",
        help=f"most {items} to adjudicate: the page shows 50 by default, the CSV all",
    )
    if span_matching:
        page.add_argument(
            "--match",
            choices=["exact", "overlap"],
            default="exact",
            help="span matching of the page's F1 tables and of the spans to adjudicate "
            "(default: %(default)s)",
        )


def _run_report(args: argparse.Namespace) -> str:
    tool = _tool_format(args)
    if tool is not None:
        frame = _read_tool_export(args, tool)
    else:
        frame = read_table(
            args.file,
            value=args.value,
            input_format=args.input_format,
            set_sep=args.set_sep,
            na_values=args.na_values,
            numeric=args.numeric,
        )
    _check_columns_distinct(args)
    _check_numbers(frame, args.value, args.distance)
    if args.html is None:
        table = _report_table(frame, args)
    else:
        from .html import report_page

        build = partial(
            report_page,
            top=args.top or 50,
            digits=args.digits,
            source=args.file,
            call=_command(args),
        )
        page = _report_table(frame, args, build)
        _write_file(args.html, page.to_html(), "--html")
        table = page.table
    if args.disagreements is not None:
        from ..krippendorff.disagreements import disagreements

        items = disagreements(
            frame,
            args.distance[0],
            by=args.by or None,
            top=args.top,
            unit=args.unit,
            coder=args.coder,
            value=args.value,
            on_duplicate=args.on_duplicate,
        )
        _write_file(args.disagreements, disagreements_csv(items), "--disagreements")
    return format_table(_cli_table(table), args.format, args.digits)


# ---------------------------------------------------------------------------------------------
# report on the unit-level answers of annotation tools (Label Studio choices and taxonomy,
# doccano and Prodigy document labels), read by pandas_agree.io


def _first_record(path: Path) -> dict[str, Any] | None:
    """The first JSON object of a JSON Lines file (or of the first .jsonl file of a
    directory), or None."""
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    for f in files[:1]:
        try:
            with f.open(encoding="utf-8") as handle:
                for line in handle:
                    if line.strip():
                        record = json.loads(line)
                        return record if isinstance(record, dict) else None
        except (OSError, ValueError):
            return None
    return None


def _tool_format(args: argparse.Namespace) -> str | None:
    """The annotation tool of ``report``'s FILE: ``--from``, else what the file says when it
    says it unambiguously (None: a table)."""
    given = args.input_format
    if given in TOOL_FORMATS:
        return given
    if given is not None or args.file == "-":
        return None
    path = Path(args.file)
    if not path.exists():
        return None  # read_table names the missing file
    if path.is_dir():
        if next(path.glob("*.json"), None) is not None:
            return "label-studio"
        if next(path.glob("*.jsonl"), None) is None:
            return None
    elif path.suffix.lower() == ".json":
        return "label-studio"
    elif path.suffix.lower() not in (".jsonl", ".ndjson"):
        return None
    record = _first_record(path)
    if record is None or {args.unit, args.coder, args.value} <= set(record):
        return None  # a table in JSON Lines
    if "accept" in record or "_input_hash" in record:
        return "prodigy"
    if "label" in record and "text" in record:
        return "doccano"
    return None


def _label_studio_controls(path: Path) -> dict[str, str]:
    """Control name -> result type ("choices", "taxonomy", "labels", ...) of a JSON export."""
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    found: dict[str, str] = {}
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return found  # the reader says what is wrong
        for task in data if isinstance(data, list) else [data]:
            annotations = task.get("annotations") if isinstance(task, dict) else None
            for annotation in annotations if isinstance(annotations, list) else []:
                results = annotation.get("result") if isinstance(annotation, dict) else None
                for result in results if isinstance(results, list) else []:
                    if isinstance(result, dict) and isinstance(result.get("from_name"), str):
                        found.setdefault(result["from_name"], str(result.get("type")))
    return found


def _read_tool_export(args: argparse.Namespace, tool: str) -> pd.DataFrame:
    """The (unit, coder, value) frame of a tool export, as its pandas_agree.io reader
    gives it."""
    from .. import io as readers

    path = Path(args.file)
    if not path.exists():
        raise CLIError(f"no such file or directory: {args.file!r}")
    table_options = [
        flag
        for flag, used in (
            ("--set-sep", isinstance(args.set_sep, str)),
            ("--no-set-sep", args.set_sep is False),
            ("--na-values", bool(args.na_values)),
            ("--numeric", args.numeric),
        )
        if used
    ]
    if table_options:
        raise CLIError(
            f"{', '.join(table_options)} read the cells of a table; a {tool} export has its "
            "own types (leave them out)"
        )
    names = {"--unit": (args.unit, "unit"), "--coder": (args.coder, "coder"),
             "--value": (args.value, "value")}  # fmt: skip
    for flag, (given, column) in names.items():
        if given != column:
            raise CLIError(
                f"a {tool} export gives the columns unit, coder and value; {flag} {given!r} "
                "does not apply (leave it out)"
            )
    if tool == "label-studio":
        controls = _label_studio_controls(path)
        answers = {n: t for n, t in controls.items() if t in ("choices", "taxonomy")}
        name = args.control
        if name is None:
            if len(answers) == 1:
                name = next(iter(answers))
            elif answers:
                raise CLIError(
                    f"{args.file!r} has several Choices/Taxonomy controls {sorted(answers)}; "
                    "pass --control NAME"
                )
            elif controls:
                raise CLIError(
                    f"{args.file!r} holds no Choices or Taxonomy answers (its controls: "
                    f"{sorted(controls)}); for span annotations use pandas-agree spans"
                )
        kind = answers.get(name, "choices") if name is not None else "choices"
        return readers.read_label_studio(path, kind=kind, from_name=name, multiple=args.multiple)
    if args.control is not None or args.multiple:
        raise CLIError(f"--control and --multiple are Label Studio's; a {tool} export has none")
    record = _first_record(path) or {}
    labels = record.get("accept" if tool == "prodigy" else "label")
    spans = (tool == "prodigy" and "spans" in record and labels is None) or (
        isinstance(labels, list) and any(isinstance(x, list) for x in labels)
    )
    if spans:
        raise CLIError(
            f"{args.file!r} is a {tool} export of spans, not of document labels; use "
            f"pandas-agree spans {args.file} --from {tool}"
        )
    return readers.read_jsonl(path, kind="labels", format=tool)


def _command(args: argparse.Namespace) -> str:
    """The command line that is running, as a user would type it."""
    return shlex.join([PROG, *getattr(args, "argv", [])])


def _write_file(path: str, text: str, option: str) -> None:
    from .html import write_file

    try:
        write_file(path, text)
    except AgreementError as exc:
        raise CLIError(str(exc).replace("`path`", option, 1)) from None


def disagreements_csv(items: pd.DataFrame) -> str:
    """A list of items to adjudicate as CSV text: sets as JSON lists, no rating empty.

    Sets are written as :func:`read_table` reads them back (``["a", "b"]``, elements
    sorted), so an adjudicated file can be read again.

    Examples
    --------
    >>> import pandas as pd
    >>> from pandas_agree.frontends.cli import disagreements_csv
    >>> items = pd.DataFrame({"unit": [1], "A": [frozenset({"b", "a"})], "B": [None]})
    >>> print(disagreements_csv(items.rename_axis("rank")), end="")
    rank,unit,A,B
    0,1,"[""a"", ""b""]",
    """

    def cell(x: Any) -> Any:
        if isinstance(x, (frozenset, set)):
            return json.dumps(sorted(x, key=str), default=str, ensure_ascii=False)
        return x

    out = items.copy()
    for col in out.columns:
        if out[col].dtype == object:
            out[col] = out[col].map(cell)
    return out.to_csv()


# ---------------------------------------------------------------------------------------------
# spans: span exports of annotation tools (pandas_agree.io readers, pandas_agree.spans)

SPAN_FORMATS = ("brat", "label-studio", "webanno", "conll2012", "doccano", "prodigy", "jsonl")
# Old names of span formats, still read: labelstudio is label-studio.
_SPAN_ALIASES = {"labelstudio": "label-studio"}

SPANS_EPILOG = """\
columns:
  alpha_masi, alpha_nominal  Krippendorff's alpha on units (tokens or characters) whose
                             value is the set of labels covering them (empty: no label)
  alpha_u                    Krippendorff's unitizing alpha; overlapping spans of one
                             coder and label leave it empty, with the reason, unless
                             --on-overlap merge joins them (noted in reason)
  f1_exact, f1_overlap       pairwise F1 over all labels, averaged over coder pairs
  reason                     why a cell is empty

  with --measures (comma-separated; default alpha_masi,alpha_nominal,alpha_u,f1_exact,
  f1_overlap), also:
  u_alpha, bar_u_alpha       Krippendorff's u-alpha (2016): unitizing and coding together;
                             units against gaps
  cu_alpha, cu_coverage      the values where coders' units intersect, and the share of
                             the continuum that is
  ku_alpha                   one column ku_alpha[<label>] per label
  gamma, gamma_se, gamma_cat Mathet et al.'s gamma (best alignment of the units), the
                             standard error of its expected disorder, and gamma-cat
  relation_f1_exact, relation_f1_overlap, relation_alpha
                             agreement on relations (with --relations)
  The u-alpha family needs each document's length: the texts of the export.

  --by label gives one row per label, then the all-labels row "(all)": the label's
  annotations, alpha on the units reduced to "marked this label or not", its unitizing
  alpha (alpha_c) and its F1 averaged over the coder pairs in which one marked it.

units:
  --unit token needs the document texts, which the readers take from the export: brat's
  .txt files, Label Studio's task text, the #Text= lines of WebAnno/INCEpTION TSV, the
  records' text of doccano and Prodigy; tokens are the whitespace-separated words. Where
  an export lacks them use --unit char (the default then). CoNLL-2012 offsets are token
  indices, so its units are tokens either way.

text checks:
  brat, Label Studio and WebAnno exports store each span's text; the readers check it
  against the document text at the span's offsets. --no-check-text reads exports whose
  stored texts differ (offsets past the end of the text are refused all the same).

formats:
  --from names the export's tool; without it PATH says, where it can: a directory of
  annotator folders holding .ann files is brat, a .json file Label Studio, a .tsv file
  (or a directory of them) WebAnno/INCEpTION, a *_conll file CoNLL-2012, a .jsonl file
  doccano or Prodigy (each record says which). --to names the output format.

examples:
  pandas-agree spans annotations/ --from brat --by document
  pandas-agree spans export.json --from label-studio --unit char --to markdown
  pandas-agree spans annotations/ --from brat --measures u_alpha,cu_alpha,f1_exact
  pandas-agree spans annotations/ --from brat --relations --no-check-text
"""


def _add_spans_parser(sub: Any) -> None:
    sp = sub.add_parser(
        "spans",
        help="agreement on span annotations exported from an annotation tool",
        description="Alpha on token or character units (MASI and nominal), unitizing alpha and\n"
        "pairwise F1 for span annotations: brat, Label Studio, WebAnno/INCEpTION TSV,\n"
        "CoNLL-2012 or doccano/Prodigy JSONL exports.",
        epilog=SPANS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sp.add_argument("file", metavar="PATH", help="the export: a file or a directory")
    sp.add_argument(
        "--from",
        dest="span_format",
        choices=SPAN_FORMATS,
        metavar="FORMAT",
        help=f"input format: {', '.join(SPAN_FORMATS)} (default: from PATH where that is "
        "unambiguous)",
    )
    _alias(sp, "--format", "--from", "span_format", (*SPAN_FORMATS, *_SPAN_ALIASES))
    sp.add_argument(
        "--unit",
        dest="span_unit",
        choices=["token", "char"],
        help="token (default where the texts are known) or char",
    )
    sp.add_argument(
        "--by",
        dest="span_by",
        nargs="+",
        choices=["document", "label"],
        default=[],
        help="one row per document (then pooled), per label (then all labels), or both",
    )
    sp.add_argument(
        "--measures",
        dest="span_measures",
        metavar="NAMES",
        help="comma-separated measures (columns); see below",
    )
    sp.add_argument(
        "--relations",
        nargs="?",
        const=True,
        default=False,
        metavar="LAYER",
        help="also report agreement on relations (relation F1, relation alpha); "
        "--from webanno names the relation layer",
    )
    sp.add_argument(
        "--no-check-text",
        dest="check_text",
        action="store_false",
        help="brat, label-studio, webanno: do not compare each span's stored text with the "
        "document text at its offsets",
    )
    sp.add_argument(
        "--fragments",
        action="store_true",
        help="count each fragment of a discontinuous annotation (brat's T1 PER 0 5;10 15) "
        "as a span of its own in n_spans and F1 (default: one annotation)",
    )
    sp.add_argument(
        "--on-overlap",
        choices=["raise", "merge"],
        default="raise",
        help="overlapping spans of one coder and label in alpha_u: leave it empty with the "
        "reason (raise, the default) or merge them into one unit",
    )
    _add_output_options(sp, "spans")
    _add_page_options(sp, "spans", span_matching=True)


_CHECKS_TEXT = ("brat", "label-studio", "webanno")


# Span formats by the files they read: (format, glob pattern below a directory, suffixes).
_SPAN_FILES = (
    ("brat", "*.ann", (".ann",)),
    ("label-studio", "*.json", (".json",)),
    ("webanno", "*.tsv", (".tsv",)),
    ("conll2012", "*conll", ("conll",)),
    ("jsonl", "*.jsonl", (".jsonl",)),
)


def _span_format(path: Path, given: str | None) -> str:
    """The export format: ``--from``, else the one format whose files ``path`` holds."""
    if given is not None:
        return _SPAN_ALIASES.get(given, given)
    if path.is_dir():
        found = [f for f, pattern, _ in _SPAN_FILES if next(path.rglob(pattern), None)]
    else:
        name = path.name.lower()
        found = [f for f, _, suffixes in _SPAN_FILES if name.endswith(suffixes)]
    if len(found) != 1:
        what = f"it holds files of {', '.join(found)}" if found else "it holds no export file"
        raise CLIError(
            f"cannot tell the export format of {str(path)!r}: {what}; pass --from "
            f"{{{','.join(SPAN_FORMATS)}}}"
        )
    return found[0]


def _read_spans(
    path: str, fmt: str, check_text: bool = True, relations: str | bool = False
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The span frame of an export (its ``attrs`` hold the texts where the export has them),
    and its relation frame when ``relations`` asks for it (WebAnno: the layer's name)."""
    if not Path(path).exists():
        raise CLIError(f"no such file or directory: {path!r}")
    try:
        from .. import io as readers
    except ImportError:  # pragma: no cover - the readers ship with the package
        raise CLIError("the span readers (pandas_agree.io) are not available") from None
    name = {
        "brat": "read_brat",
        "label-studio": "read_label_studio",
        "webanno": "read_webanno_tsv",
        "conll2012": "read_conll2012",
        "doccano": "read_jsonl",
        "prodigy": "read_jsonl",
        "jsonl": "read_jsonl",
    }[fmt]
    reader = getattr(readers, name, None)
    if reader is None:
        raise CLIError(f"--from {fmt} needs pandas_agree.io.{name}, which this version lacks")
    kwargs: dict[str, Any] = {}
    if fmt in ("doccano", "prodigy"):
        kwargs["format"] = fmt
    if not check_text:
        if fmt not in _CHECKS_TEXT:
            raise CLIError(
                f"--no-check-text applies to --from {', '.join(_CHECKS_TEXT)} (the exports "
                f"that store each span's text), not to --from {fmt}"
            )
        kwargs["check_text"] = False
    if not relations:
        return reader(path, **kwargs), None
    if fmt in ("brat", "label-studio"):
        if relations is not True:
            raise CLIError(f"--relations takes no layer name with --from {fmt}")
        spans, rel = reader(path, relations=True, **kwargs)
    elif fmt == "webanno":
        if relations is True:
            raise CLIError("--from webanno needs the relation layer: --relations LAYER")
        spans, rel = reader(path, relation_layer=relations, **kwargs)
    else:
        raise CLIError(f"--relations applies to --format brat, labelstudio, webanno, not {fmt}")
    return spans, rel


def _span_measures(text: str | None) -> list[str] | None:
    """The names of ``--measures``, checked against the span report's measures."""
    if text is None:
        return None
    from ..spans.report import MEASURES

    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in MEASURES]
    if unknown or not names:
        raise CLIError(f"--measures must list names from {', '.join(MEASURES)}; got {text!r}")
    return names


def _run_spans(args: argparse.Namespace) -> str:
    from ..spans import span_report

    if not Path(args.file).exists():
        raise CLIError(f"no such file or directory: {args.file!r}")
    fmt = _span_format(Path(args.file), args.span_format)
    spans, relations = _read_spans(args.file, fmt, args.check_text, args.relations)
    has_texts = isinstance(spans.attrs.get("texts"), dict)
    token_offsets = isinstance(spans.attrs.get("n_tokens"), dict)  # CoNLL-2012
    unit = args.span_unit
    if unit is None:
        unit = "token" if has_texts or token_offsets else "char"
    if unit == "token" and not (has_texts or token_offsets):
        raise CLIError(
            f"--unit token needs the document texts, which this --from {fmt} export does "
            "not hold for every document; use --unit char"
        )
    if unit == "char" and token_offsets:
        unit = "token"  # CoNLL-2012 positions are tokens
    if len(spans) == 0:
        raise CLIError(f"no spans in {args.file!r}")
    coverage = spans.attrs.get("coverage")
    by_document = "document" in args.span_by
    measures = _span_measures(args.span_measures)
    if args.html is None:
        table = span_report(
            spans,
            unit,
            by_document=by_document,
            coverage=coverage,
            by_label="label" in args.span_by,
            measures=measures,
            relations=relations,
            on_overlap=args.on_overlap,
            fragments=args.fragments,
        )
    else:
        from .html import span_report_page

        page = span_report_page(
            spans,
            unit,
            coverage=coverage,
            match=args.match,
            top=args.top or 50,
            digits=args.digits,
            source=args.file,
            call=_command(args),
        )
        _write_file(args.html, page.to_html(), "--html")
        # the page has a row per document; its pooled row is the pooled row of the table
        table = page.table.copy() if by_document else page.table.iloc[-1:].copy()
    if args.disagreements is not None:
        from ..krippendorff.disagreements import span_disagreements

        items = span_disagreements(
            spans, args.match, texts=spans.attrs.get("texts"), top=args.top, coverage=coverage
        )
        _write_file(args.disagreements, disagreements_csv(items), "--disagreements")
    table.insert(0, "unit", unit)
    return format_table(_cli_table(table), args.format, args.digits)


def _categories(given: list[str], frame: pd.DataFrame, value: Hashable) -> list[Any]:
    """``--categories`` in the type of the value column: numbers where it holds numbers."""
    column = frame[value] if value in frame.columns else None
    if column is not None and pd.api.types.is_numeric_dtype(column.dtype):
        numbers = pd.to_numeric(pd.Series(given), errors="coerce")
        if numbers.isna().any():
            bad = given[int(np.flatnonzero(numbers.isna().to_numpy())[0])]
            raise CLIError(f"--categories: the value column holds numbers, got {bad!r}")
        return numbers.tolist()
    return list(given)


def _check_columns_distinct(args: argparse.Namespace) -> None:
    """--unit, --coder and --value name three different columns."""
    given = {"--unit": args.unit, "--coder": args.coder, "--value": args.value}
    seen: dict[str, str] = {}
    for option, column in given.items():
        if column in seen:
            raise CLIError(
                f"{seen[column]} and {option} name the same column {column!r}; "
                "they must be three different columns"
            )
        seen[column] = option


_NUMBER_DISTANCES = ("interval", "ratio")


def _check_numbers(frame: pd.DataFrame, value: Hashable, distances: Sequence[str]) -> None:
    """Interval and ratio need numbers; ordinal on numbers read as text ranks them as text."""
    wanted = [d for d in distances if d in (*_NUMBER_DISTANCES, "ordinal")]
    if not wanted or value not in frame.columns or isinstance(frame[value], pd.DataFrame):
        return
    col = frame[value]
    if col.dtype != object and not pd.api.types.is_string_dtype(col.dtype):
        return  # numbers, booleans, categoricals: the distance checks them
    cells = col[col.notna()]
    if cells.empty or pd.api.types.infer_dtype(cells, skipna=True) != "string":
        return  # sets or mixed cells: the distance says what is wrong
    example = cells.iloc[0]
    for name in wanted:
        if name in _NUMBER_DISTANCES:
            raise CLIError(
                f"--distance {name} needs numbers, but the value column {value!r} is read as "
                f"text (e.g. {example!r}); pass --numeric to read it as numbers"
            )
    if pd.to_numeric(cells, errors="coerce").notna().all():
        raise CLIError(
            f"--distance ordinal would rank the values of {value!r} as text ('10' before "
            f"'9'), but they are numbers (e.g. {example!r}); pass --numeric to rank them as "
            "numbers"
        )


# Parameters of the Python functions and the options that set them here, for messages.
_FLAGS = {
    "unit": "--unit",
    "coder": "--coder",
    "value": "--value",
    "by": "--by",
    "distance": "--distance",
    "on_duplicate": "--on-duplicate",
    "ci": "--ci",
    "ci_method": "--ci-method",
    "n_boot": "--n-boot",
    "rng": "--seed",
    "sep": "--set-sep",
    "categories": "--categories",
    "coefficients": "--coefficients",
    "on_overlap": "--on-overlap",
    "multiple": "--multiple",
    "from_name": "--control",
    "fragments": "--fragments",
}
# Keyword values that are a flag of their own.
_SWITCHES = {
    ("sep", "False"): "--no-set-sep",
    ("multiple", "True"): "--multiple",
    ("fragments", "True"): "--fragments",
}
# Whole phrases of the Python messages and what the command line says instead.
_PHRASES = (
    ("report(..., by=<column>)", "--by <column>"),
    (" or pass pooled=False", ""),
    ("on_duplicate='first', 'last' or 'union'", "--on-duplicate first, last or union"),
    ("is not in the DataFrame", "is not in the file"),
    ("; a callable d(a, b) -> float also works", ""),
    ("categories=[...]", "--categories LABEL ..."),
)


def _cli_message(message: str) -> str:
    """Speak in options: every Python keyword of a message becomes the command's flag.

    "`by` column ..." -> "--by column ...", "pass by=<x>" -> "--by <x>", "sep=';'" ->
    "--set-sep ';'", "sep=False" -> "--no-set-sep", "multiple=True" -> "--multiple".
    """
    for python, cli in _PHRASES:
        message = message.replace(python, cli)
    names = "|".join(sorted(_FLAGS, key=len, reverse=True))

    def switch(m: re.Match[str]) -> str:
        return _SWITCHES.get((m.group(1), m.group(2)), m.group(0))

    message = re.sub(rf"\b({names})=(True|False)\b", switch, message)

    def keyword(m: re.Match[str]) -> str:
        flag, quote, text = _FLAGS[m.group(1)], m.group(2), m.group(3)
        plain = re.fullmatch(r"[\w.-]+", text) is not None
        return f"{flag} {text}" if plain else f"{flag} {quote}{text}{quote}"

    message = re.sub(rf"\b({names})=(['\"])(.*?)\2", keyword, message)
    message = re.sub(rf"\b({names})=<", lambda m: _FLAGS[m.group(1)] + " <", message)
    message = re.sub(
        rf"\b({names})=(\S+?)([,;)]|\s|$)",
        lambda m: f"{_FLAGS[m.group(1)]} {m.group(2)}{m.group(3)}",
        message,
    )
    message = message.replace("is not in the DataFrame", "is not in the file")
    message = message.replace("pass check_text=False", "pass --no-check-text")
    message = message.replace("; a callable d(a, b) -> float also works", "")
    return re.sub(rf"`({names})`", lambda m: _FLAGS[m.group(1)], message)


def _cli_table(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its text columns (``reason``, ``coefficient_reason``) in options."""
    texts = [c for c in table.columns if isinstance(c, str) and c.endswith("reason")]
    if not texts:
        return table
    table = table.copy()
    for c in texts:
        table[c] = table[c].map(lambda x: _cli_message(x) if isinstance(x, str) else x)
    return table


def _fail(message: str) -> int:
    sys.stderr.write(f"{PROG}: error: {_cli_message(message)}\n")
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pandas-agree`` command; returns the exit status.

    Examples
    --------
    >>> from pandas_agree.frontends.cli import main
    >>> main(["demo"])  # doctest: +ELLIPSIS
    pandas_agree demo: ...
    0
    """
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    args.argv = argv
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateDataWarning)
        try:
            if args.command == "demo":
                text = demo()
            elif args.command == "spans":
                text = _run_spans(args)
            else:
                text = _run_report(args)
            _write(text, getattr(args, "output", None))
        except (CLIError, AgreementError, ValueTypeError) as exc:
            return _fail(_first_line(exc))
        except FileNotFoundError as exc:
            return _fail(f"no such file: {exc.filename or args.file!r}")
        except IsADirectoryError as exc:
            return _fail(f"is a directory, not a data file: {exc.filename!r}")
        except PermissionError as exc:
            return _fail(f"permission denied: {exc.filename!r}")
        finally:
            _show_warnings(caught)
    return 0


def _show_warnings(caught: list[warnings.WarningMessage]) -> None:
    seen = set()
    for w in caught:
        text = f"{PROG}: warning: {_cli_message(_first_line(w.message))}"
        if text not in seen:
            seen.add(text)
            sys.stderr.write(text + "\n")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
