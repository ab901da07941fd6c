"""Issue 14, items 3, 9, 10, 11: how the command line reads files, report labels, duplicate
messages, and columns or coordinates that cannot label units.

Published values: Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability",
section C (4 coders, 12 units, values 1-5): nominal 0.743, ordinal 0.815, interval 0.849,
ratio 0.797 (also Krippendorff 2019, Content Analysis, 4th ed., p. 290). Relabelling the
values or units one-to-one leaves nominal alpha unchanged, so a relabelled copy read
correctly must still give 0.743. Random inputs are checked against alpha computed here from
its definition (coincidences of pairable values, Krippendorff 2011, section A).
"""

from __future__ import annotations

import io
import itertools
import json
import warnings
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import DuplicateRatingError, InvalidParameterError
from pandas_agree.frontends.cli import main, read_table

# Krippendorff (2011), section C, as published.
K2011 = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}


def _k2011() -> pd.DataFrame:
    return pa.datasets.krippendorff_2011()


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _pooled(out: str, column: str = "nominal") -> float:
    table = pd.read_csv(io.StringIO(out), index_col=0)
    return float(table.loc["pooled", column])


def _write_text_csv(path, rows, header=("unit", "coder", "value")) -> None:
    """Rows written verbatim (no quoting, no number formatting): what a user's file holds."""
    lines = [",".join(header)] + [",".join(str(c) for c in row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _k2011_cells() -> list[tuple[int, str, float]]:
    """Every cell of Krippendorff's (2011) 4 x 12 reliability matrix; NaN where uncoded."""
    m = _k2011().agree.matrix()
    return [(int(u), str(c), m.loc[c, u]) for u in m.columns for c in m.index]


def _k2011_rows(value_text, unit_text=str):
    """Krippendorff (2011), one row per cell (the 7 uncoded cells empty), values and units
    spelled by the given functions."""
    return [
        (unit_text(u), c, "" if pd.isna(v) else value_text(int(v)))
        for u, c, v in _k2011_cells()
    ]


def _brute_alpha(rows, delta) -> float:
    """Alpha from the definition: o_ck from every ordered pair of values within a unit,
    weighted 1 / (m_u - 1); alpha = 1 - (n - 1) sum o_ck d_ck / sum n_c n_k d_ck."""
    by_unit = defaultdict(list)
    for unit, _coder, value in rows:
        by_unit[unit].append(value)
    o = defaultdict(float)
    for values in by_unit.values():
        m = len(values)
        if m < 2:
            continue
        for i, j in itertools.permutations(range(m), 2):
            o[values[i], values[j]] += 1.0 / (m - 1)
    n_c = defaultdict(float)
    for (c, _k), w in o.items():
        n_c[c] += w
    n = sum(n_c.values())
    observed = sum(w * delta(c, k) for (c, k), w in o.items())
    expected = sum(n_c[c] * n_c[k] * delta(c, k) for c in n_c for k in n_c)
    return 1.0 - (n - 1) * observed / expected


def _two_copies_alpha() -> float:
    """Nominal alpha of two copies of Krippendorff (2011) as different units, by definition."""
    rows = [
        ((doc, u), c, int(v))
        for doc in ("d1", "d2")
        for u, c, v in _k2011()[["unit", "coder", "value"]].itertuples(index=False)
        if not pd.isna(v)
    ]
    return _brute_alpha(rows, _nominal)


def _nominal(a, b) -> float:
    return float(a != b)


def _interval(a, b) -> float:
    return (a - b) ** 2


# ---------------------------------------------------------------------------------------------
# item 3: CSV and TSV cells are text; only an empty cell is missing


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_missing_like_labels_are_labels(capsys, tmp_path, fmt):
    # The five values of Krippendorff (2011) spelled NA, None, null, nan, n/a: read as
    # labels, nominal alpha is the published 0.743 (pandas' default reading drops them).
    spell = {1: "NA", 2: "None", 3: "null", 4: "nan", 5: "n/a"}
    rows = _k2011_rows(spell.get)
    path = tmp_path / f"k.{fmt}"
    sep = "," if fmt == "csv" else "\t"
    path.write_text(
        "\n".join(sep.join(r) for r in [("unit", "coder", "value"), *rows]) + "\n",
        encoding="utf-8",
    )
    values = read_table(path)["value"]
    assert sorted(values.dropna().unique()) == sorted(spell.values())
    assert int(values.isna().sum()) == sum(1 for r in rows if r[2] == "") == 7
    code, out, err = _run(capsys, "report", path, "--to", "csv")
    assert code == 0, err
    assert round(_pooled(out), 3) == K2011["nominal"]


def test_number_spellings_are_different_labels(capsys, tmp_path):
    # "7" and "7.0", "010" and "10" are four labels (Krippendorff 2011 relabelled 1-to-1).
    spell = {1: "7", 2: "7.0", 3: "010", 4: "10", 5: "5"}
    path = tmp_path / "k.csv"
    _write_text_csv(path, _k2011_rows(spell.get))
    assert set(read_table(path)["value"].dropna()) == set(spell.values())
    code, out, err = _run(capsys, "report", path, "--to", "csv")
    assert code == 0, err
    assert round(_pooled(out), 3) == K2011["nominal"]


def test_unit_ids_with_leading_zeros_are_different_units(capsys, tmp_path):
    # Units 1..12 spelled "1", "01", "001", ...: twelve units, as published.
    path = tmp_path / "k.csv"
    _write_text_csv(path, _k2011_rows(str, unit_text=lambda u: "0" * (u - 1) + "1"))
    assert read_table(path)["unit"].nunique() == 12
    code, out, err = _run(capsys, "report", path, "--to", "csv")
    assert code == 0, err
    assert round(_pooled(out), 3) == K2011["nominal"]
    assert int(pd.read_csv(io.StringIO(out), index_col=0).loc["pooled", "n_units"]) == 11


def test_group_labels_are_text(capsys, tmp_path):
    # Groups "01" and "1" are two groups, each a copy of Krippendorff (2011).
    rows = [("01", *r) for r in _k2011_rows(str)] + [("1", *r) for r in _k2011_rows(str)]
    path = tmp_path / "g.csv"
    _write_text_csv(path, rows, header=("doc", "unit", "coder", "value"))
    code, out, err = _run(capsys, "report", path, "--by", "doc", "--to", "csv")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out), index_col=0, dtype={"doc": str})
    assert list(table.index) == ["01", "1", "pooled"]
    assert [round(x, 3) for x in table["nominal"][:2]] == [K2011["nominal"]] * 2
    assert table.loc["pooled", "nominal"] == pytest.approx(_two_copies_alpha(), abs=1e-12)


@pytest.mark.parametrize("distance", ["nominal", "ordinal", "interval", "ratio"])
def test_numeric_reads_numbers_and_merges_spellings(capsys, tmp_path, distance):
    # Each value spelled two ways ("3" and "3.0", "1" and "01"): with --numeric they are one
    # value and every level of measurement gives its published alpha.
    spellings = {1: ["1", "01"], 2: ["2", "2.0"], 3: ["3", "3.00"], 4: ["4", "4e0"], 5: ["5", "5."]}
    rows = [
        (u, c, "" if pd.isna(v) else spellings[int(v)][i % 2])
        for i, (u, c, v) in enumerate(_k2011_cells())
    ]
    path = tmp_path / "k.csv"
    _write_text_csv(path, rows)
    code, out, err = _run(
        capsys, "report", path, "--distance", distance, "--numeric", "--to", "csv"
    )
    assert code == 0, err
    assert round(_pooled(out, distance), 3) == K2011[distance]


def test_without_numeric_the_spellings_stay_apart(capsys, tmp_path):
    # The same file read as text: "1" and "01" disagree, so nominal alpha is lower than the
    # published 0.743, and equals alpha computed from the definition on the text labels.
    rows = [
        (u, c, "" if pd.isna(v) else (str(int(v)) if i % 2 else f"0{int(v)}"))
        for i, (u, c, v) in enumerate(_k2011_cells())
    ]
    path = tmp_path / "k.csv"
    _write_text_csv(path, rows)
    code, out, err = _run(capsys, "report", path, "--to", "csv")
    assert code == 0, err
    want = _brute_alpha([r for r in rows if r[2] != ""], _nominal)
    assert _pooled(out) == pytest.approx(want, abs=1e-12)
    assert want < K2011["nominal"] - 0.1


@pytest.mark.parametrize("distance", ["interval", "ratio"])
def test_interval_and_ratio_on_text_ask_for_numeric(capsys, tmp_path, distance):
    path = tmp_path / "k.csv"
    _write_text_csv(path, _k2011_rows(str))
    code, out, err = _run(capsys, "report", path, "--distance", "nominal", distance)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert f"--distance {distance} needs numbers" in err
    assert "'value' is read as text (e.g. '1')" in err and "pass --numeric" in err


def test_ordinal_on_numbers_read_as_text_asks_for_numeric(capsys, tmp_path):
    path = tmp_path / "k.csv"
    _write_text_csv(path, _k2011_rows(str))
    code, _, err = _run(capsys, "report", path, "--distance", "ordinal")
    assert code == 2
    assert "--distance ordinal would rank the values of 'value' as text" in err
    assert "pass --numeric" in err


def test_na_values_marks_extra_missing_cells(capsys, tmp_path):
    # Missing ratings written "NA" and "-" instead of empty cells: with --na-values they are
    # missing and alpha is the published one; without, they are labels.
    rows = [(u, c, v if v else ("NA" if i % 2 else "-")) for i, (u, c, v) in
            enumerate(_k2011_rows(str))]
    path = tmp_path / "k.csv"
    _write_text_csv(path, rows)
    code, out, err = _run(capsys, "report", path, "--na-values", "NA", "-", "--to", "csv")
    assert code == 0, err
    assert round(_pooled(out), 3) == K2011["nominal"]
    code, out, err = _run(
        capsys, "report", path, "--na-values", "NA", "-", "--numeric", "--distance", "interval",
        "--to", "csv",
    )
    assert code == 0, err
    assert round(_pooled(out, "interval"), 3) == K2011["interval"]
    plain = read_table(path)["value"]
    assert {"NA", "-"} <= set(plain) and plain.notna().all()


def test_numeric_names_a_cell_that_is_not_a_number(capsys, tmp_path):
    path = tmp_path / "k.csv"
    _write_text_csv(path, [("1", "A", "3"), ("1", "B", "three"), ("2", "A", "nan")])
    code, _, err = _run(capsys, "report", path, "--numeric")
    assert code == 2 and err.count("\n") == 1
    assert "2 cell(s) of the value column 'value' are not finite numbers" in err
    assert "'three' (data row 2)" in err and "--na-values" in err


def test_numeric_refuses_sets(capsys, tmp_path):
    path = tmp_path / "s.csv"
    path.write_text('unit,coder,value\n1,A,"[1, 2]"\n1,B,1\n', encoding="utf-8")
    code, _, err = _run(capsys, "report", path, "--numeric")
    assert code == 2 and "holds sets (JSON lists)" in err
    code, _, err = _run(capsys, "report", path, "--numeric", "--set-sep", ";")
    assert code == 2 and "does not go with --set-sep" in err


def test_read_table_rejects_a_string_for_na_values():
    with pytest.raises(Exception, match=r"--na-values must be a list of text markers, got 'NA'"):
        read_table(io.StringIO("unit,coder,value\n1,A,x\n"), na_values="NA")


def test_jsonl_keeps_its_types(capsys, tmp_path):
    # JSON Lines numbers are numbers (interval works without --numeric); its strings, "NA"
    # included, are labels; null is missing.
    df = _k2011()
    path = tmp_path / "k.jsonl"
    path.write_text(
        "\n".join(
            json.dumps({"unit": int(u), "coder": c, "value": None if pd.isna(v) else int(v)})
            for u, c, v in df[["unit", "coder", "value"]].itertuples(index=False)
        )
        + "\n",
        encoding="utf-8",
    )
    code, out, err = _run(capsys, "report", path, "--distance", "interval", "--to", "csv")
    assert code == 0, err
    assert round(_pooled(out, "interval"), 3) == K2011["interval"]
    text = tmp_path / "t.jsonl"
    text.write_text('{"unit": 1, "coder": "A", "value": "NA"}\n'
                    '{"unit": 1, "coder": "B", "value": null}\n', encoding="utf-8")
    assert read_table(text)["value"].tolist()[0] == "NA"
    assert pd.isna(read_table(text)["value"].tolist()[1])


def test_parquet_keeps_its_types(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "k.parquet"
    _k2011().to_parquet(path)
    code, out, err = _run(capsys, "report", path, "--distance", "ratio", "--to", "csv")
    assert code == 0, err
    assert round(_pooled(out, "ratio"), 3) == K2011["ratio"]


@pytest.mark.parametrize("seed", range(6))
def test_text_reading_matches_alpha_from_the_definition(capsys, tmp_path, seed):
    # Random files of tricky labels and unit ids, against alpha from the definition on the
    # cells exactly as written (empty cells and the --na-values markers missing).
    rng = np.random.default_rng(seed)
    labels = ["NA", "None", "null", "nan", "n/a", "010", "10", "7", "7.0", "x", ""]
    units = ["1", "01", "001", "2", "02", "a", "A"]
    coders = ["c1", "c2", "c3", "C1"]
    rows = [
        (u, c, labels[rng.integers(len(labels))])
        for u in units
        for c in coders
        if rng.random() < 0.85
    ]
    path = tmp_path / "r.csv"
    _write_text_csv(path, rows)
    markers = ["n/a"] if seed % 2 else []
    argv = ["report", path, "--to", "csv"] + (["--na-values", *markers] if markers else [])
    code, out, err = _run(capsys, *argv)
    kept = [r for r in rows if r[2] != "" and r[2] not in markers]
    want = _brute_alpha(kept, _nominal)
    assert code == 0, err
    assert _pooled(out) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_numeric_reading_matches_interval_alpha_from_the_definition(capsys, tmp_path, seed):
    rng = np.random.default_rng(100 + seed)
    spellings = {0: ["0", "0.0", "-0"], 1: ["1", "01", "1.0"], 2.5: ["2.5", "2.50", "25e-1"],
                 7: ["7", "7.", "+7"]}
    keys = list(spellings)
    rows, numbers = [], []
    for u, c in itertools.product(range(8), ["A", "B", "C"]):
        if rng.random() < 0.8:
            x = keys[rng.integers(len(keys))]
            rows.append((str(u), c, spellings[x][rng.integers(3)]))
            numbers.append((str(u), c, float(x)))
    path = tmp_path / "n.csv"
    _write_text_csv(path, rows)
    code, out, err = _run(
        capsys, "report", path, "--numeric", "--distance", "interval", "--to", "csv"
    )
    assert code == 0, err
    assert _pooled(out, "interval") == pytest.approx(_brute_alpha(numbers, _interval), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# item 9: the pooled row and names of output columns


def _two_groups(first: str = "pooled", second: str = "other", by: str = "doc") -> pd.DataFrame:
    df = _k2011()
    return pd.concat([df.assign(**{by: first}), df.assign(**{by: second})], ignore_index=True)


def test_a_group_labelled_pooled_is_refused():
    data = _two_groups()
    with pytest.raises(InvalidParameterError, match=(
        r"`by` column 'doc' has a group labelled 'pooled', the label of the pooled row; "
        r"rename that group or pass pooled=False"
    )):
        pa.report(data, by="doc")
    # Without the pooled row the label is free; both rows are Krippendorff (2011).
    table = pa.report(data, by="doc", pooled=False)
    assert list(table.index) == ["other", "pooled"]
    assert [round(x, 3) for x in table["nominal"]] == [K2011["nominal"]] * 2


def test_a_pooled_label_in_any_level_is_refused():
    data = _two_groups().assign(round=lambda d: np.where(d.index % 2, "r1", "pooled"))
    data = data.assign(doc=data["doc"].replace({"pooled": "d1"}))
    with pytest.raises(InvalidParameterError, match="`by` column 'round' has a group labelled"):
        pa.report(data, by=["doc", "round"])


def test_cli_refuses_a_group_labelled_pooled(capsys, tmp_path):
    path = tmp_path / "g.csv"
    _two_groups().to_csv(path, index=False)
    code, _, err = _run(capsys, "report", path, "--by", "doc")
    assert code == 2 and err.count("\n") == 1
    assert "--by column 'doc' has a group labelled 'pooled'" in err
    assert "pooled=False" not in err  # no such option on the command line


@pytest.mark.parametrize(
    "name", ["alpha", "n_units", "n_coders", "n_pairable", "reason", "nominal", "distance",
             "observed", "expected", "low", "high"]
)
@pytest.mark.parametrize("tidy", [False, True])
def test_by_named_like_an_output_column_is_refused(name, tidy):
    data = _two_groups(first="d1", second="d2", by=name)
    with pytest.raises(InvalidParameterError, match=(
        rf"`by` column '{name}' has the name of a column of the report's wide or tidy form"
    )):
        pa.report(data, "nominal", by=name, tidy=tidy)


def test_by_named_like_an_interval_column_is_refused():
    data = _two_groups(first="d1", second="d2", by="nominal_low")
    with pytest.raises(InvalidParameterError, match="`by` column 'nominal_low'"):
        pa.report(data, "nominal", by="nominal_low", ci=0.9, n_boot=10, rng=1)
    # Without intervals that name is free.
    table = pa.report(data, "nominal", by="nominal_low")
    assert table.loc["pooled", "nominal"] == pytest.approx(_two_copies_alpha(), abs=1e-12)


@pytest.mark.parametrize("fmt", ["csv", "json", "table", "markdown"])
def test_cli_by_named_alpha_is_one_line(capsys, tmp_path, fmt):
    path = tmp_path / "g.csv"
    _two_groups(first="d1", second="d2", by="n_units").to_csv(path, index=False)
    code, out, err = _run(capsys, "report", path, "--by", "n_units", "--to", fmt)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--by column 'n_units' has the name of a column of the report" in err


# ---------------------------------------------------------------------------------------------
# item 10: duplicate ratings, in the user's labels, with both remedies


def test_grouped_duplicates_name_the_group_unit_and_coder():
    data = _two_groups(first="d1", second="d2")
    extra = data[(data["doc"] == "d2") & (data["unit"] == 3) & (data["coder"] == "A")]
    with pytest.raises(DuplicateRatingError) as info:
        pa.report(pd.concat([data, extra]), by="doc")
    message = str(info.value)
    assert message.startswith(
        "1 (unit, coder) pair(s) have more than one rating within their group: "
        "(doc, unit, coder) = ('d2', 3, 'A'). "
    )
    assert "add the document column to `by`" in message
    assert "on_duplicate='first', 'last' or 'union'" in message


def test_ungrouped_duplicates_show_both_remedies():
    data = _two_groups(first="d1", second="d2")  # unit ids repeat across documents
    with pytest.raises(DuplicateRatingError) as info:
        pa.alpha(data)
    message = str(info.value)
    assert "(unit, coder) pair(s) have more than one rating: (1, 'A')" in message
    assert "group the units by document (report(..., by=<column>))" in message
    assert "pass on_duplicate='first', 'last' or 'union'" in message
    # The remedy for documents that share unit ids: by the document.
    table = pa.report(data, by="doc")
    assert [round(x, 3) for x in table["nominal"][:2]] == [K2011["nominal"]] * 2
    assert table.loc["pooled", "nominal"] == pytest.approx(_two_copies_alpha(), abs=1e-12)


def test_cli_duplicate_message_and_docs_agree(capsys, tmp_path):
    path = tmp_path / "g.csv"
    _two_groups(first="d1", second="d2").to_csv(path, index=False)
    code, _, err = _run(capsys, "report", path)
    assert code == 2 and err.count("\n") == 1
    assert "group the units by document (--by <column>)" in err
    assert "pass --on-duplicate first, last or union" in err
    from pathlib import Path

    page = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "--by <column>" in page and "--on-duplicate first, last or union" in page


# ---------------------------------------------------------------------------------------------
# item 11: one column for two roles; missing group labels in arrays


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda d: pa.alpha(d, unit="unit", coder="unit"), id="alpha"),
        pytest.param(lambda d: pa.report(d, unit="unit", coder="unit"), id="report"),
        pytest.param(lambda d: pa.report(d, by="doc", unit="unit", coder="unit"), id="grouped"),
        pytest.param(lambda d: pa.matrix(d, unit="unit", coder="unit"), id="matrix"),
    ],
)
def test_unit_and_coder_naming_one_column_is_refused(call):
    data = _two_groups(first="d1", second="d2")
    with pytest.raises(InvalidParameterError, match=(
        "`unit` and `coder` name the same column 'unit'; unit, coder and value must be three "
        "different columns"
    )):
        call(data)


def test_value_naming_the_unit_column_is_refused():
    with pytest.raises(InvalidParameterError, match="`unit` and `value` name the same column"):
        pa.alpha(_k2011(), value="unit")


def test_cli_unit_and_coder_naming_one_column(capsys, tmp_path):
    path = tmp_path / "k.csv"
    _write_text_csv(path, _k2011_rows(str))
    code, _, err = _run(capsys, "report", path, "--coder", "unit")
    assert code == 2 and err.count("\n") == 1
    assert "--unit and --coder name the same column 'unit'" in err


def _array_with_groups(labels):
    xr = pytest.importorskip("xarray")
    import pandas_agree.frontends.xarray  # noqa: F401

    m = _k2011().agree.matrix()
    cells = np.stack([m.to_numpy()] * len(labels))
    return xr.DataArray(
        cells,
        dims=("docset", "coder", "unit"),
        coords={"docset": np.asarray(labels, dtype=object), "coder": m.index, "unit": m.columns},
    )


@pytest.mark.parametrize(
    "method",
    [
        pytest.param(lambda da: da.agree.alpha(), id="alpha"),
        pytest.param(lambda da: da.agree.report(), id="report"),
        pytest.param(lambda da: da.agree.matrix(), id="matrix"),
        pytest.param(lambda da: da.agree.coincidences(), id="coincidences"),
    ],
)
def test_xarray_missing_group_label_is_refused_by_every_method(method):
    da = _array_with_groups(["d1", np.nan])
    with pytest.raises(InvalidParameterError, match=(
        r"coordinate 'docset' has 1 missing label\(s\) \(NaN\); every group needs a label"
    )):
        method(da)


def test_xarray_labelled_groups_give_the_published_alpha():
    da = _array_with_groups(["d1", "d2"])
    table = da.agree.report()
    assert [round(x, 3) for x in table["nominal"][:2]] == [K2011["nominal"]] * 2
    assert table.loc["pooled", "nominal"] == pytest.approx(_two_copies_alpha(), abs=1e-12)
    assert da.agree.alpha().alpha == pytest.approx(_two_copies_alpha(), abs=1e-12)


def test_xarray_missing_unit_label_is_refused():
    da = _array_with_groups(["d1", "d2"])
    units = da["unit"].to_numpy().astype(object)
    units[0] = None
    with pytest.raises(InvalidParameterError, match="coordinate 'unit' has 1 missing label"):
        da.assign_coords(unit=units).agree.alpha()


def test_inputs_are_not_modified(tmp_path):
    data = _two_groups()
    before = data.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InvalidParameterError):
            pa.report(data, by="doc")
    pd.testing.assert_frame_equal(data, before)


def test_missing_group_label_in_a_frame_is_refused_like_in_arrays():
    # The DataFrame side of item 11: report refuses a missing `by` label, as every xarray
    # method refuses a missing group coordinate.
    data = _two_groups(first="d1", second="d2")
    data.loc[data.index[0], "doc"] = None
    with pytest.raises(InvalidParameterError, match=(
        "`by` column 'doc' has 1 missing label"
    )):
        pa.report(data, by="doc")


@pytest.mark.parametrize("name", ["gwet_ac1", "coefficient_reason"])
def test_by_named_like_a_coefficient_column_is_refused(name):
    data = _two_groups(first="d1", second="d2", by=name)
    with pytest.raises(InvalidParameterError, match=rf"`by` column '{name}' has the name of a"):
        pa.report(data, by=name, coefficients=["gwet_ac1"])
