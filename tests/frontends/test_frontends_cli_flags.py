"""One meaning per flag: --from is the input format and --to the output format everywhere.

``--format`` was the input format of ``spans`` and the output format of ``report``. The old
spellings (``report --input-format/--format``, ``spans --format/--output-format``) still
work, with the same values, and warn on stderr.
"""

from __future__ import annotations

import io

import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.frontends.cli import build_parser, main

ROLES = {"input_format": "input format", "span_format": "input format", "format": "output format"}


def _subparsers():
    parser = build_parser()
    return next(a for a in parser._actions if a.dest == "command").choices


def test_every_format_flag_has_one_meaning_in_every_subcommand():
    meanings: dict[str, set[str]] = {}
    for sub in _subparsers().values():
        for action in sub._actions:
            if action.dest in ROLES and action.help != "==SUPPRESS==":
                for flag in action.option_strings:
                    meanings.setdefault(flag, set()).add(ROLES[action.dest])
    assert meanings == {"--from": {"input format"}, "--to": {"output format"}}


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "figures.csv"
    pa.datasets.masi_figures().to_csv(path, index=False)
    return path


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (["--format", "json"], ["--to", "json"]),
        (["--input-format", "csv"], ["--from", "csv"]),
        (["--input-format", "csv", "--format", "markdown"], ["--from", "csv", "--to", "markdown"]),
    ],
)
def test_report_old_spellings_work_and_warn(capsys, csv_file, old, new):
    code, want, err = _run(capsys, "report", csv_file, "--by", "figure", *new)
    assert code == 0 and err == ""
    code, got, err = _run(capsys, "report", csv_file, "--by", "figure", *old)
    assert code == 0 and got == want
    warnings = err.strip().splitlines()
    assert len(warnings) == len(old) // 2
    for line, (flag, replacement) in zip(warnings, zip(old[::2], new[::2])):
        assert line.startswith("pandas-agree report: warning:")
        assert f"{flag} is deprecated here; use {replacement}" in line


def test_spans_old_spellings_work_and_warn(capsys):
    example = pa.io.example_path("brat")
    code, want, err = _run(capsys, "spans", example, "--from", "brat", "--to", "csv")
    assert code == 0 and err == ""
    code, got, err = _run(capsys, "spans", example, "--format", "brat", "--output-format", "csv")
    assert code == 0 and got == want
    assert "--format is deprecated here; use --from" in err
    assert "--output-format is deprecated here; use --to" in err
    ls = pa.io.example_path("label_studio.json")
    code, old_name, _ = _run(capsys, "spans", ls, "--format", "labelstudio", "--to", "csv")
    code2, new_name, _ = _run(capsys, "spans", ls, "--from", "label-studio", "--to", "csv")
    assert code == code2 == 0 and old_name == new_name


@pytest.mark.parametrize(
    ("example", "fmt"),
    [
        ("brat", "brat"),
        ("label_studio.json", "label-studio"),
        ("webanno", "webanno"),
        ("conll2012", "conll2012"),
        ("doccano", "doccano"),
        ("prodigy.jsonl", "prodigy"),
    ],
)
@pytest.mark.slow
def test_spans_reads_the_format_from_the_path(capsys, example, fmt):
    path = pa.io.example_path(example)
    code, told, err = _run(capsys, "spans", path, "--from", fmt, "--to", "csv")
    assert code == 0, err
    code, guessed, err = _run(capsys, "spans", path, "--to", "csv")
    assert code == 0, err
    pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(guessed)), pd.read_csv(io.StringIO(told)))


def test_spans_cannot_guess_a_mixed_directory(capsys, tmp_path):
    (tmp_path / "a.json").write_text("[]")
    (tmp_path / "b.tsv").write_text("")
    code, _, err = _run(capsys, "spans", tmp_path)
    assert code == 2 and "cannot tell the export format" in err and "--from" in err
