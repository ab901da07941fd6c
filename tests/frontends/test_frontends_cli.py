"""The pandas-agree command: reading files, set-valued cells, output formats, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.frontends import cli
from pandas_agree.frontends.cli import main, markdown_table, read_table

DISTANCES = ["nominal", "jaccard", "masi"]


def _sets_frame() -> pd.DataFrame:
    """Passonneau (2006), Figures 2-4, with the sets as sorted lists (JSON-friendly)."""
    df = pa.datasets.masi_figures()
    return df.assign(value=df["value"].map(lambda s: sorted(s, key=str)))


def _expected(**kwargs) -> pd.DataFrame:
    return pa.report(pa.datasets.masi_figures(), DISTANCES, by="figure", **kwargs)


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "ratings.csv"
    df = _sets_frame()
    df.assign(value=df["value"].map(json.dumps)).to_csv(path, index=False)
    return path


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _read_csv_output(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), index_col=0)


# ---------------------------------------------------------------------------------------------
# report: same numbers as pandas_agree.report


def test_csv_with_json_lists_matches_report(capsys, csv_file):
    code, out, err = _run(
        capsys, "report", csv_file, "--by", "figure", "--distance", *DISTANCES, "--to", "csv"
    )
    assert code == 0, err
    got = _read_csv_output(out)
    want = _expected()
    assert list(got.index) == list(want.index)
    for d in DISTANCES:
        np.testing.assert_allclose(got[d], want[d], rtol=1e-12)
    assert got["n_pairable"].tolist() == want["n_pairable"].tolist()


def test_table_output_is_readable(capsys, csv_file):
    code, out, _ = _run(capsys, "report", csv_file, "--by", "figure", "--distance", *DISTANCES)
    assert code == 0
    assert "figure" in out and "pooled" in out
    assert "-0.349" in out  # MASI of Figure 2
    assert "reason" not in out  # an all-empty reason column is dropped from text tables


def test_column_names_and_tsv_with_set_separator(capsys, tmp_path):
    df = _sets_frame().rename(columns={"unit": "item", "coder": "annotator", "value": "labels"})
    path = tmp_path / "ratings.tsv"
    df.assign(labels=df["labels"].map(lambda s: ";".join(map(str, s)))).to_csv(
        path, sep="\t", index=False
    )
    code, out, err = _run(
        capsys,
        "report",
        path,
        "--unit",
        "item",
        "--coder",
        "annotator",
        "--value",
        "labels",
        "--set-sep",
        ";",
        "--by",
        "figure",
        "--distance",
        *DISTANCES,
        "--to",
        "csv",
    )
    assert code == 0, err
    got = _read_csv_output(out)
    want = _expected()
    for d in DISTANCES:
        np.testing.assert_allclose(got[d], want[d], rtol=1e-12)


def test_jsonl(capsys, tmp_path):
    path = tmp_path / "ratings.jsonl"
    _sets_frame().to_json(path, orient="records", lines=True)
    code, out, err = _run(
        capsys, "report", path, "--by", "figure", "--distance", "masi", "--to", "json"
    )
    assert code == 0, err
    records = json.loads(out)
    assert [r["figure"] for r in records] == ["figure2", "figure3", "figure4", "pooled"]
    np.testing.assert_allclose([r["masi"] for r in records], _expected()["masi"], rtol=1e-9)


def test_parquet_round_trip(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "ratings.parquet"
    df = _sets_frame()  # Parquet columns hold one type: labels as text
    df.assign(
        unit=df["unit"].astype(str), value=df["value"].map(lambda s: list(map(str, s)))
    ).to_parquet(path)
    code, out, err = _run(capsys, "report", path, "--by", "figure", "--distance", "masi")
    assert code == 0, err
    assert "0.116" in out  # pooled MASI alpha


def test_parquet_without_pyarrow_is_one_line(capsys, tmp_path, monkeypatch):
    path = tmp_path / "ratings.parquet"
    path.write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    code, _, err = _run(capsys, "report", path)
    assert code == 2
    assert err.strip().count("\n") == 0
    assert "pyarrow" in err and "pip install" in err


def test_empty_set_and_missing_cells():
    text = 'unit,coder,value\n1,A,"[1, 2]"\n1,B,[]\n1,C,\n2,A,3\n2,B,"[3]"\n'
    df = read_table(io.StringIO(text))
    assert df["value"].tolist() == [
        frozenset({1, 2}),
        frozenset(),
        None,
        frozenset({3}),  # a plain cell in a column of sets is a one-element set
        frozenset({3}),
    ]


def test_set_separator_reads_every_cell_as_labels():
    text = "unit\tcoder\tvalue\n1\tA\ta; b\n1\tB\t1\n2\tA\t\n2\tB\t[]\n"
    df = read_table(io.StringIO(text), input_format="tsv", set_sep=";")
    assert df["value"].tolist() == [frozenset("ab"), frozenset({"1"}), None, frozenset()]


def test_scalars_stay_scalars(capsys, tmp_path):
    path = tmp_path / "k.csv"
    pa.datasets.krippendorff_2011().to_csv(path, index=False)
    code, out, _ = _run(
        capsys, "report", path, "--distance", "nominal", "interval", "--to", "csv",
        "--numeric",
    )
    assert code == 0
    got = _read_csv_output(out)
    assert round(got.loc["pooled", "nominal"], 3) == 0.743
    assert round(got.loc["pooled", "interval"], 3) == 0.849


def test_markdown_output_and_output_file(capsys, csv_file, tmp_path):
    target = tmp_path / "alpha.md"
    code, out, _ = _run(
        capsys,
        "report",
        csv_file,
        "--by",
        "figure",
        "--distance",
        "masi",
        "--to",
        "markdown",
        "--output",
        target,
    )
    assert code == 0 and out == ""
    lines = target.read_text().splitlines()
    assert lines[0] == "| figure | masi | n_units | n_coders | n_pairable |"
    assert lines[1] == "| --- | ---: | ---: | ---: | ---: |"
    assert lines[2] == "| figure2 | -0.349 | 3 | 2 | 6 |"
    assert len(lines) == 6


def test_markdown_table_escapes_and_blanks():
    table = pd.DataFrame({"x": [np.nan, 1.23456], "note": ["a|b", None]}, index=["p", "q"])
    text = markdown_table(table, digits=2)
    assert text.splitlines()[2] == "| p |  | a\\|b |"
    assert text.splitlines()[3] == "| q | 1.23 |  |"


def test_bootstrap_columns_match_report_per_distance(capsys, csv_file):
    code, out, err = _run(
        capsys,
        "report",
        csv_file,
        "--by",
        "figure",
        "--distance",
        "jaccard",
        "masi",
        "--ci",
        "0.9",
        "--n-boot",
        "200",
        "--seed",
        "7",
        "--to",
        "csv",
    )
    assert code == 0, err
    got = _read_csv_output(out)
    assert list(got.columns) == [
        "jaccard",
        "masi",
        "n_units",
        "n_coders",
        "n_pairable",
        "jaccard_low",
        "jaccard_high",
        "masi_low",
        "masi_high",
        "reason",
    ]
    want = pa.report(
        pa.datasets.masi_figures(), ["jaccard", "masi"], by="figure", ci=0.9, n_boot=200, rng=7
    )
    for d in ("jaccard", "masi"):
        np.testing.assert_allclose(got[f"{d}_low"], want[f"{d}_low"], rtol=1e-9)
        np.testing.assert_allclose(got[f"{d}_high"], want[f"{d}_high"], rtol=1e-9)


def test_progress_bar_only_on_a_terminal(monkeypatch):
    calls = []

    class FakeTqdm:
        def __init__(self, **kwargs):
            calls.append(kwargs)
            self.n = 0

        def update(self, k):
            self.n += k

        def close(self):
            calls.append(("closed", self.n))

    fake = type(sys)("tqdm")
    fake.tqdm = FakeTqdm
    monkeypatch.setitem(sys.modules, "tqdm", fake)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert cli._progress_bar(10, True, "x") is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert cli._progress_bar(10, False, "x") is None
    bar = cli._progress_bar(10, True, "x")
    assert calls == [
        {"total": 10, "desc": "x", "unit": "replicate", "file": sys.stderr, "leave": False}
    ]
    monkeypatch.setitem(sys.modules, "tqdm", None)  # tqdm not installed: no bar, no error
    assert cli._progress_bar(10, True, "x") is None
    assert bar is not None


def test_progress_bar_counts_every_replicate(monkeypatch, capsys, csv_file):
    # 3 figures + pooled row, 2 distances, 50 replicates each: 400 replicates in all.
    done = []

    class FakeTqdm:
        def __init__(self, **kwargs):
            self.total = kwargs["total"]
            self.n = 0

        def update(self, k):
            self.n += k

        def close(self):
            done.append((self.total, self.n))

    fake = type(sys)("tqdm")
    fake.tqdm = FakeTqdm
    monkeypatch.setitem(sys.modules, "tqdm", fake)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, _, err = _run(
        capsys,
        "report",
        csv_file,
        "--by",
        "figure",
        "--distance",
        "jaccard",
        "masi",
        "--ci",
        "0.9",
        "--n-boot",
        "50",
        "--ci-method",
        "units",
        "--seed",
        "1",
    )
    assert code == 0, err
    assert done == [(400, 400)]


def test_degenerate_data_warns_in_one_line(capsys, tmp_path):
    path = tmp_path / "same.csv"
    path.write_text("unit,coder,value\n1,A,x\n1,B,x\n2,A,x\n2,B,x\n")
    code, out, err = _run(capsys, "report", path)
    assert code == 0
    assert "NaN" in out
    assert err.startswith("pandas-agree: warning:") and err.count("\n") == 1


# ---------------------------------------------------------------------------------------------
# errors: one line, exit status 2


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["report", "{missing}"], "no such file"),
        (["report", "{csv}", "--by", "nope"], "--by column 'nope'"),
        (["report", "{csv}", "--value", "labels"], "--value column 'labels'"),
        (["report", "{csv}", "--by", "figure", "--distance", "bogus"], "'bogus'"),
        (["report", "{csv}", "--distance", "masi"], "--on-duplicate"),  # units repeat per figure
        (["report", "{csv}", "--by", "figure", "--distance", "interval"], "interval"),
        (["report", "{csv}", "--ci", "1.5"], "--ci"),
        (["report", "{csv}", "--n-boot", "0"], "--n-boot"),
        (["report", "{csv}", "--to", "xml"], "--to"),
        (["report", "{txt}"], "--from"),
        (["report", "{bad}"], "cannot parse"),
        (["report", "{empty}"], "empty"),
        (["report", "{badset}"], "as a JSON list"),
        (["report", "{csv}", "--digits", "-1"], "--digits"),
        (["report", "{dir}"], "directory"),
        (["report", "{csv}", "--by", "figure", "-o", "{dir}/no/such/dir/x.md"], "--output"),
        (["frobnicate"], "invalid choice"),
        ([], "required"),
    ],
)
@pytest.mark.slow
def test_user_errors_are_one_line_with_status_2(capsys, tmp_path, csv_file, argv, needle):
    (tmp_path / "notes.txt").write_text("a,b\n")
    (tmp_path / "bad.jsonl").write_text('{"unit": 1\n')
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "badset.csv").write_text('unit,coder,value\n1,A,"[1, 2"\n1,B,[1]\n')
    names = {
        "missing": tmp_path / "missing.csv",
        "csv": csv_file,
        "txt": tmp_path / "notes.txt",
        "bad": tmp_path / "bad.jsonl",
        "empty": tmp_path / "empty.csv",
        "badset": tmp_path / "badset.csv",
        "dir": tmp_path,
    }
    code, out, err = _run(capsys, *[a.format(**names) for a in argv])
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("pandas-agree")
    assert "error:" in err and needle in err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", [["--help"], ["report", "--help"], ["demo", "--help"]])
def test_help_everywhere(capsys, argv):
    code, out, _ = _run(capsys, *argv)
    assert code == 0
    assert out.startswith("usage: pandas-agree")


def test_report_help_documents_sets(capsys):
    _, out, _ = _run(capsys, "report", "--help")
    assert '"[]" is the empty set' in out and "--set-sep" in out


def test_version(capsys):
    code, out, _ = _run(capsys, "--version")
    assert code == 0 and pa.__version__ in out


# ---------------------------------------------------------------------------------------------
# demo


def test_demo(capsys):
    code, out, _ = _run(capsys, "demo")
    assert code == 0
    assert "figure2" in out and "pooled" in out
    assert "-0.349" in out  # MASI alpha of Figure 2
    assert "0.743" in out and "0.849" in out  # Krippendorff (2011)
    assert len(out.splitlines()) <= 25  # one screen


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_python_m_pandas_agree_demo():
    proc = subprocess.run(
        [sys.executable, "-m", "pandas_agree", "demo"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "masi" in proc.stdout and "0.743" in proc.stdout


def test_input_not_modified(csv_file):
    before = csv_file.read_bytes()
    main(["report", str(csv_file), "--by", "figure", "--to", "csv", "-o", "-"])
    assert csv_file.read_bytes() == before


def test_missing_by_column_with_ci_is_a_one_line_error(capsys, csv_file):
    code, _out, err = _run(
        capsys, "report", csv_file, "--by", "nope", "--ci", "0.9", "--n-boot", "10"
    )
    assert code == 2
    assert "nope" in err and "Traceback" not in err
