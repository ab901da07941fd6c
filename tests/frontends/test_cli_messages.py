"""Errors name what the user wrote, in the interface the user used.

Python: a grouped report says the same as an ungrouped one (the user's column names and unit
labels, not the internal ``"value"`` column and unit codes). Command line: every message,
warning and ``reason`` cell speaks in the subcommand's own options (``--set-sep``, not
``sep=``), and every option it names exists.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import AgreementError, ValueTypeError
from pandas_agree.frontends.cli import _cli_message, build_parser, main

BASE = pd.DataFrame(
    {
        "item": [1, 1, 2, 2, 3, 3],
        "who": ["A", "B", "A", "B", "A", "B"],
        "labels": ["a", "b", "b", "b", "a", "a"],
        "g": [1, 1, 1, 1, 2, 2],
    }
)
NAMES = {"unit": "item", "coder": "who", "value": "labels"}

BAD_VALUES = [
    pytest.param(["a;b", "a", "b", "b", "a", "a"], "masi", {}, id="ambiguous-text"),
    pytest.param([[1], [2], [None], [1], [1], [2]], "masi", {}, id="missing-in-set"),
    pytest.param(["a", "b", "b", "b", "a", "a"], "nominal", {"categories": ["x"]},
                 id="outside-categories"),
    pytest.param([{1: 2}, "a", "b", "b", "a", "a"], "nominal", {}, id="unhashable"),
    pytest.param(["['a']", "a", "b", "b", "a", "a"], "masi", {}, id="python-list-text"),
    pytest.param(["x", "a", "b", "b", "a", "a"], "ordinal", {}, id="ordinal-text"),
]  # fmt: skip


@pytest.mark.parametrize(("values", "distance", "kwargs"), BAD_VALUES)
def test_a_grouped_report_says_what_an_ungrouped_one_says(values, distance, kwargs):
    # report(by=...) said "`value` column 'value'" and named units by internal codes.
    data = BASE.assign(labels=values)
    with pytest.raises((AgreementError, ValueTypeError)) as ungrouped:
        pa.report(data, distance, **NAMES, **kwargs)
    with pytest.raises((AgreementError, ValueTypeError)) as grouped:
        pa.report(data, distance, by="g", **NAMES, **kwargs)
    assert str(grouped.value) == str(ungrouped.value)
    assert type(grouped.value) is type(ungrouped.value)
    assert "'value'" not in str(grouped.value)


def _options(subcommand: str) -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[subcommand]
    return {flag for action in sub._actions for flag in action.option_strings}


PYTHON_KEYWORD = re.compile(r"(?<![-\w])[a-z]+(?:_[a-z]+)*=(?!\S*--)")


def _check_cli_text(text: str, subcommand: str) -> None:
    assert "`" not in text, text
    assert PYTHON_KEYWORD.search(text) is None, text
    known = _options(subcommand)
    for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]*", text):
        assert flag in known, (flag, text)


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


CSV = "unit,coder,labels\n1,A,{a}\n1,B,{b}\n2,A,b\n2,B,b\n3,A,a\n3,B,a\n"


@pytest.mark.parametrize(
    ("cells", "flags"),
    [
        pytest.param(("a;b", "a"), ["--distance", "masi"], id="ambiguous"),
        pytest.param(('"[1, 2"', "[1]"), [], id="not-json"),
        pytest.param(("x", "a"), ["--distance", "ordinal"], id="ordinal-text"),
        pytest.param(("x", "a"), ["--categories", "a", "b"], id="outside-categories"),
        pytest.param(("a", "b"), ["--by", "nope"], id="missing-by"),
        pytest.param(("a", "b"), ["--distance", "interval"], id="interval-text"),
        pytest.param(("a", "b"), ["--unit", "labels"], id="same-column"),
    ],
)
def test_cli_errors_name_cli_options(tmp_path, capsys, cells, flags):
    path = _write(tmp_path, "t.csv", CSV.format(a=cells[0], b=cells[1]))
    code = main(["report", path, "--value", "labels", *flags])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1, err
    _check_cli_text(err, "report")


def test_cli_duplicate_error_names_cli_options(tmp_path, capsys):
    path = _write(tmp_path, "d.csv", "unit,coder,value\n1,A,a\n1,A,b\n1,B,a\n")
    assert main(["report", path]) == 2
    _, err = capsys.readouterr()
    _check_cli_text(err, "report")
    assert "--on-duplicate first, last or union" in err


def test_cli_reasons_name_cli_options(tmp_path, capsys):
    root = tmp_path / "brat"
    for coder, lines in (
        ("A", ["T1\tx 0 5\txxxxx", "T2\tx 3 8\txxxxx"]),
        ("B", ["T1\tx 0 8\txxxxxxxx"]),
    ):
        (root / coder).mkdir(parents=True)
        (root / coder / "d.txt").write_text("x" * 10)
        (root / coder / "d.ann").write_text("\n".join(lines) + "\n")
    assert main(["spans", str(root), "--from", "brat", "--to", "json"]) == 0
    out, _ = capsys.readouterr()
    reason = pd.read_json(__import__("io").StringIO(out))["reason"].iloc[-1]
    assert "--on-overlap merge" in reason
    _check_cli_text(reason, "spans")


@pytest.mark.parametrize(
    ("python", "cli"),
    [
        ("Pass sep=';' (or another separator)", "Pass --set-sep ';' (or another separator)"),
        ("or sep=False to read", "or --no-set-sep to read"),
        ("pass multiple=True when", "pass --multiple when"),
        ("pass on_overlap='merge' to join", "pass --on-overlap merge to join"),
        ("`value` column 'labels'", "--value column 'labels'"),
        ("(pass by=<column name>)", "(pass --by <column name>)"),
        ("pass categories=[...] in rank order", "pass --categories LABEL ... in rank order"),
        ("`sep` splits strings", "--set-sep splits strings"),
    ],
)
def test_cli_message_translations(python, cli):
    assert _cli_message(python) == cli
