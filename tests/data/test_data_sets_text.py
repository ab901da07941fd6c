"""One rule for text cells read as sets, in Python (``sep=``) and on the command line.

The rule (:func:`pandas_agree.data.prepare.sets.text_sets`): a text written as a list (starting
with "[") is a JSON list ("[]" the empty set) with or without ``sep``; other text is split at
``sep``; without ``sep`` a text that looks like several labels is refused where sets are
read; ``sep=False`` (``--no-set-sep``) reads every text as one label.

Oracle: Krippendorff's alpha (Krippendorff 2011) with the MASI distance (Passonneau 2006),
computed by loops from the definitions on the sets the rule gives, the rule itself re-read
in this file by a few lines of plain Python (the brute force), against
``pandas_agree.alpha``, dask and ``pandas-agree report`` on the same cells.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.data.sets import text_sets
from pandas_agree.errors import AmbiguousValuesError
from pandas_agree.frontends.cli import main

HINTS = (";", ",", "|", "/")


def _rule(cell: str | None, sep):
    """The documented rule, written out plainly: the set a text cell stands for, or
    "refuse". Returns (value, is_set)."""
    if cell is None:
        return None, False
    text = cell.strip()
    if sep is False:
        return cell, False
    if text.startswith("["):
        try:
            items = json.loads(text)
        except ValueError:
            return "refuse", False
        return frozenset(items), True
    if isinstance(sep, str):
        return frozenset(p.strip() for p in cell.split(sep) if p.strip()), True
    if any(h in cell for h in HINTS) or any(ch.isspace() for ch in text):
        return "refuse", False
    return cell, False


def _expected_sets(cells, sep):
    """Every cell as the set the rule reads, or None when the rule refuses the column."""
    read = [_rule(c, sep) for c in cells]
    if any(v == "refuse" for v, _ in read):
        return None
    out = []
    for v, is_set in read:
        out.append(None if v is None else v if is_set else frozenset([v]))
    return out


def _masi(a: frozenset, b: frozenset) -> float:
    """MASI distance (Passonneau 2006): 1 - Jaccard x monotonicity; 0 for two empty sets."""
    if a == b:
        return 0.0
    jaccard = len(a & b) / len(a | b)
    monotonicity = 2 / 3 if (a <= b or b <= a) else 1 / 3 if a & b else 0.0
    return 1.0 - jaccard * monotonicity


def _brute_masi_alpha(units, coders, sets) -> float:
    """Krippendorff's alpha with MASI from its definition (Krippendorff 2011), by loops."""
    by_unit: dict = {}
    for u, s in zip(units, sets):
        if s is not None:
            by_unit.setdefault(u, []).append(s)
    pairable = [vals for vals in by_unit.values() if len(vals) >= 2]
    values = [v for vals in pairable for v in vals]
    n = len(values)
    d_o = (
        sum(
            _masi(a, b) / (len(vals) - 1)
            for vals in pairable
            for i, a in enumerate(vals)
            for j, b in enumerate(vals)
            if i != j
        )
        / n
    )
    d_e = sum(_masi(a, b) for i, a in enumerate(values) for j, b in enumerate(values) if i != j) / (
        n * (n - 1)
    )
    return 1.0 - d_o / d_e


CELLS = ["[]", '["a"]', '["a", "b"]', '["b", "c"]', "a", "b", "c", "a;b", "b;c", "b ;c"]


def _random_column(rng, with_delimited: bool) -> list[str | None]:
    pool = CELLS if with_delimited else [c for c in CELLS if ";" not in c]
    return [str(rng.choice(pool)) for _ in range(24)]


def _cli_alpha(tmp_path, capsys, frame, flags) -> float | None:
    path = tmp_path / "topics.csv"
    frame.to_csv(path, index=False)
    code = main(["report", str(path), "--value", "labels", "--distance", "masi",
                 "--to", "csv", *flags])  # fmt: skip
    out, err = capsys.readouterr()
    if code == 2:
        assert "error:" in err
        return None
    assert code == 0, err
    return float(pd.read_csv(io.StringIO(out), index_col=0).loc["pooled", "masi"])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("sep", [None, ";"], ids=["no-sep", "sep"])
def test_python_and_cli_read_text_cells_alike(tmp_path, capsys, seed, sep):
    rng = np.random.default_rng(seed)
    cells = _random_column(rng, with_delimited=seed % 2 == 0)
    units = [i // 2 for i in range(len(cells))]
    coders = ["A", "B"] * (len(cells) // 2)
    frame = pd.DataFrame({"unit": units, "coder": coders, "labels": cells})
    expected_sets = _expected_sets(cells, sep)
    flags = [] if sep is None else ["--set-sep", sep]
    cli = _cli_alpha(tmp_path, capsys, frame, flags)
    if expected_sets is None:  # the rule refuses: both refuse
        with pytest.raises(AmbiguousValuesError):
            pa.alpha(frame, "masi", value="labels", sep=sep)
        assert cli is None
        return
    expected = _brute_masi_alpha(units, coders, expected_sets)
    got = pa.alpha(frame, "masi", value="labels", sep=sep).alpha
    assert got == pytest.approx(expected, abs=1e-12)
    assert cli == pytest.approx(expected, abs=1e-12)
    # dask reads the same cells the same way
    dd = pytest.importorskip("dask.dataframe")
    lazy = dd.from_pandas(frame, npartitions=3).agree.alpha("masi", value="labels", sep=sep)
    assert lazy.alpha == pytest.approx(expected, abs=1e-12)


def test_the_issue_topics_file(tmp_path, capsys):
    # CLI without --set-sep on "[]" and "a;b;c" cells printed nominal alphas (each "a;b;c"
    # one label) and exited 0; without the "[]" cells it refused. Now both refuse, as
    # Python does, and with --set-sep both read the sets.
    frame = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 3, 3],
            "coder": ["A", "B"] * 3,
            "labels": ["a;b;c", "a;b", "b", "b;c", "[]", "a"],
        }
    )
    assert _cli_alpha(tmp_path, capsys, frame, []) is None
    assert _cli_alpha(tmp_path, capsys, frame.iloc[:4], []) is None
    with pytest.raises(AmbiguousValuesError, match="'a;b;c'"):
        pa.alpha(frame, "masi", value="labels")
    sets = [frozenset("abc"), frozenset("ab"), frozenset("b"), frozenset("bc"), frozenset(),
            frozenset("a")]  # fmt: skip
    expected = _brute_masi_alpha(frame["unit"], frame["coder"], sets)
    assert _cli_alpha(tmp_path, capsys, frame, ["--set-sep", ";"]) == pytest.approx(expected)
    assert pa.alpha(frame, "masi", value="labels", sep=";").alpha == pytest.approx(expected)


def test_empty_brackets_are_the_empty_set_with_sep_in_both(tmp_path, capsys):
    # Python's sep=";" read "[]" as the label "[]"; the CLI read it as the empty set.
    frame = pd.DataFrame(
        {"unit": [1, 1, 2, 2], "coder": ["A", "B"] * 2, "labels": ["[]", "", "a;b", "b;a"]}
    )
    sets, _ = text_sets(frame["labels"].to_numpy(dtype=object), ";", "labels", as_sets=True)
    assert list(sets[:2]) == [frozenset(), frozenset()]
    got = pa.alpha(frame, "nominal", value="labels", sep=";").alpha
    assert got == 1.0  # {} = {} and {a, b} = {b, a}
    # the CSV's empty cell is missing; "[]" against "[]" instead
    csv_frame = frame.assign(labels=["[]", "[]", "a;b", "b;a"])
    assert _cli_alpha(tmp_path, capsys, csv_frame, ["--set-sep", ";"]) == pytest.approx(
        pa.alpha(csv_frame, "masi", value="labels", sep=";").alpha
    )


def test_no_set_sep_reads_every_text_as_one_label(tmp_path, capsys):
    frame = pd.DataFrame(
        {"unit": [1, 1, 2, 2, 3, 3], "coder": ["A", "B"] * 3,
         "labels": ["[]", "[]", "a;b", "b;a", "x", "x"]}
    )  # fmt: skip
    labels = [frozenset([c]) for c in frame["labels"]]
    expected = _brute_masi_alpha(frame["unit"], frame["coder"], labels)
    assert pa.alpha(frame, "masi", value="labels", sep=False).alpha == pytest.approx(expected)
    assert _cli_alpha(tmp_path, capsys, frame, ["--no-set-sep"]) == pytest.approx(expected)


@pytest.mark.parametrize("sep", [None, ";"])
def test_brackets_that_are_not_json_are_refused_in_both(tmp_path, capsys, sep):
    # Python's repr of a list, as pandas writes list columns to CSV
    frame = pd.DataFrame({"unit": [1, 1], "coder": ["A", "B"], "labels": ["['a', 'b']", '["a"]']})
    with pytest.raises(AmbiguousValuesError, match="cannot be read as a JSON list"):
        pa.alpha(frame, "masi", value="labels", sep=sep)
    assert _cli_alpha(tmp_path, capsys, frame, [] if sep is None else ["--set-sep", sep]) is None


def test_plain_numbers_beside_json_lists_are_numbers():
    # JSON list elements keep their JSON types, so a plain "7" beside "[7]" is {7}, not {"7"}
    frame = pd.DataFrame(
        {"unit": [1, 1, 2, 2], "coder": ["A", "B"] * 2, "labels": ["[7]", "7", "8", "[8]"]}
    )
    assert pa.alpha(frame, "masi", value="labels").alpha == 1.0


def test_string_dtype_and_categorical_columns_follow_the_rule():
    frame = pd.DataFrame(
        {"unit": [1, 1, 2, 2], "coder": ["A", "B"] * 2, "labels": ['["a"]', "a", "[]", "[]"]}
    )
    expected = pa.alpha(frame, "masi", value="labels").alpha
    for dtype in ("string", "category"):
        got = pa.alpha(frame.astype({"labels": dtype}), "masi", value="labels").alpha
        assert got == pytest.approx(expected, abs=1e-12), dtype
