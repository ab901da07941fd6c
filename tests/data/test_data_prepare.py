"""Input handling: columns, missing values, sets, duplicates, bad input, no mutation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import (
    ColumnNotFoundError,
    DuplicateRatingError,
    InvalidParameterError,
    MixedValueTypesError,
    UnknownDistanceError,
    ValueTypeError,
)

KRIPP = pa.datasets.krippendorff_2011


def _dup_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "unit": [1, 1, 1, 2, 2],
            "coder": ["a", "a", "b", "a", "b"],
            "value": [{"x"}, {"y"}, {"x", "y"}, {"z"}, {"z"}],
        }
    )


def test_renamed_columns():
    df = KRIPP().rename(columns={"unit": "item", "coder": "annotator", "value": "label"})
    res = pa.alpha(df, unit="item", coder="annotator", value="label")
    assert res.alpha == pytest.approx(113 / 152)
    assert df.agree.alpha(unit="item", coder="annotator", value="label").alpha == res.alpha


def test_missing_column_names_it_and_lists_columns():
    df = KRIPP().rename(columns={"coder": "annotator"})
    with pytest.raises(ColumnNotFoundError) as info:
        pa.alpha(df)
    msg = str(info.value)
    assert "`coder` column 'coder'" in msg and "['unit', 'annotator', 'value']" in msg
    assert isinstance(info.value, ValueError)


def test_not_a_dataframe():
    with pytest.raises(TypeError, match="`data` must be a pandas DataFrame, got list"):
        pa.alpha([1, 2, 3])


def test_unknown_distance_lists_names():
    with pytest.raises(UnknownDistanceError, match=r"must be one of \[.*'masi'.*\], got 'masy'"):
        pa.alpha(KRIPP(), "masy")


def test_bad_on_duplicate():
    with pytest.raises(InvalidParameterError, match=r"`on_duplicate` must be one of .* got 'mean'"):
        pa.alpha(KRIPP(), on_duplicate="mean")


def test_missing_unit_label_raises():
    df = KRIPP().astype({"unit": float})
    df.loc[0, "unit"] = np.nan
    with pytest.raises(InvalidParameterError, match="`unit` column 'unit' has 1 missing label"):
        pa.alpha(df)


def test_duplicates_raise_and_show_pairs():
    with pytest.raises(DuplicateRatingError, match=r"1 \(unit, coder\) pair\(s\).*\(1, 'a'\)"):
        pa.alpha(_dup_frame(), "masi")


def test_duplicates_first_last_union():
    df = _dup_frame()
    first = pa.matrix(df, on_duplicate="first")
    last = pa.matrix(df, on_duplicate="last")
    union = pa.matrix(df, on_duplicate="union")
    assert first.loc["a", 1] == frozenset({"x"})
    assert last.loc["a", 1] == frozenset({"y"})
    assert union.loc["a", 1] == frozenset({"x", "y"})
    # After the union, unit 1 is {x, y} vs {x, y}: perfect agreement everywhere.
    assert pa.alpha(df, "masi", on_duplicate="union").observed == 0


def test_union_of_scalars_makes_sets():
    # One row per (unit, coder, label), the usual export of multi-label tools.
    df = pd.DataFrame(
        {
            "unit": [1, 1, 1, 2, 2],
            "coder": ["a", "a", "b", "a", "b"],
            "value": ["x", "y", "x", "z", "z"],
        }
    )
    m = pa.matrix(df, on_duplicate="union")
    assert m.loc["a", 1] == frozenset({"x", "y"}) and m.loc["b", 1] == frozenset({"x"})


def test_mixed_sets_and_scalars():
    df = pd.DataFrame(
        {"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2, "value": [{"x"}, "x", "y", {"y", "z"}]}
    )
    with pytest.raises(MixedValueTypesError, match="mixes sets"):
        pa.alpha(df, "nominal")
    # Under a set distance a scalar is a one-element set: unit 1 agrees exactly.
    res = pa.alpha(df, "jaccard")
    assert res.n_values == 3


def test_unhashable_set_elements():
    df = pd.DataFrame({"unit": [1, 1], "coder": ["a", "b"], "value": [[["x"]], [["y"]]]})
    with pytest.raises(ValueTypeError, match="unhashable"):
        pa.alpha(df, "jaccard")


def test_interval_on_text_raises():
    df = KRIPP().assign(value=lambda d: d.value.map(str))
    with pytest.raises(ValueTypeError, match="`distance` 'interval' needs numeric values"):
        pa.alpha(df, "interval")


def test_interval_on_sets_raises():
    df = _dup_frame().drop_duplicates(["unit", "coder"])
    with pytest.raises(ValueTypeError, match="holds sets"):
        pa.alpha(df, "interval")


def test_ratio_negative_raises():
    df = KRIPP().assign(value=lambda d: d.value - 3)
    with pytest.raises(ValueTypeError, match="non-negative"):
        pa.alpha(df, "ratio")


def test_ordinal_without_order_raises():
    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2, "value": [1, "x", 2, "y"]})
    with pytest.raises(ValueTypeError, match="ordinal"):
        pa.alpha(df, "ordinal")


def test_categories_outside_values_raise():
    with pytest.raises(InvalidParameterError, match=r"not in `categories` .*\[5\]"):
        pa.alpha(KRIPP(), "ordinal", categories=[1, 2, 3, 4])


def test_callable_with_nonzero_self_distance_raises():
    with pytest.raises(InvalidParameterError, match=r"d\(a, a\) = 0"):
        pa.alpha(KRIPP(), lambda a, b: 1.0)


def test_callable_returning_negative_raises():
    with pytest.raises(InvalidParameterError, match="finite non-negative"):
        pa.alpha(KRIPP(), lambda a, b: float(a - b))


def test_weights_rules():
    df = pa.datasets.masi_figures().query("figure == 'figure4'")
    with pytest.raises(InvalidParameterError, match="needs element weights"):
        pa.alpha(df, "weighted_dice")
    with pytest.raises(InvalidParameterError, match="only applies to weighted"):
        pa.alpha(df, "masi", weights={1: 1})
    with pytest.raises(InvalidParameterError, match="no weight for element"):
        pa.alpha(df, "weighted_dice", weights={1: 1.0})


@pytest.mark.parametrize(
    "call",
    [
        lambda d: pa.alpha(d, "masi", on_duplicate="union"),
        lambda d: pa.matrix(d, on_duplicate="first"),
        lambda d: pa.coincidences(d, on_duplicate="last"),
        lambda d: pa.values_by_units(d, on_duplicate="union"),
        lambda d: d.agree.alpha("jaccard", on_duplicate="union"),
    ],
)
def test_callers_frame_is_unchanged(call):
    df = _dup_frame()
    before = df.copy(deep=True)
    call(df)
    pd.testing.assert_frame_equal(df, before)
    assert isinstance(df.loc[0, "value"], set)  # not normalised in place


def test_matrix_keeps_all_units_and_coders():
    m = pa.matrix(KRIPP())
    assert m.shape == (4, 12)
    assert m.index.name == "coder" and m.columns.name == "unit"
    assert np.isnan(m.loc["A", 12]) and m.loc["B", 12] == 3


def test_values_by_units_sums_to_ratings():
    t = pa.values_by_units(KRIPP())
    assert int(t.to_numpy().sum()) == 41
    assert list(t.index) == [1, 2, 3, 4, 5]


def test_row_order_does_not_matter():
    df = KRIPP()
    shuffled = df.sample(frac=1, random_state=3)
    for d in ("nominal", "ordinal", "interval", "ratio"):
        assert pa.alpha(shuffled, d).alpha == pytest.approx(pa.alpha(df, d).alpha, abs=1e-12)


def test_all_values_missing_is_no_pairable_unit():
    df = pd.DataFrame({"unit": [1, 1], "coder": ["a", "b"], "value": [np.nan, np.nan]})
    with pytest.raises(pa.errors.NoPairableUnitsError, match="0 rating"):
        pa.alpha(df)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda d: pa.alpha(d, unit=["unit"]), InvalidParameterError, "`unit` must be one column"),
        (
            lambda d: pa.alpha(pd.concat([d, d.value], axis=1)),
            InvalidParameterError,
            "`value` column 'value' appears 2 times",
        ),
        (
            lambda d: pa.alpha(d, "ordinal", categories="12345"),
            InvalidParameterError,
            "list of values",
        ),
        (lambda d: pa.alpha(d, "ordinal", categories=5), InvalidParameterError, "got 5"),
        (
            lambda d: pa.alpha(d.assign(value=[{"a": 1}] * len(d))),
            ValueTypeError,
            "unhashable value",
        ),
        (lambda d: pa.report(d, by=[["coder"]]), InvalidParameterError, "`by` must be one column"),
    ],
)
def test_bad_parameters_raise_typed_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(KRIPP())


def test_weights_must_be_mapping_or_callable():
    df = pa.datasets.masi_figures().query("figure == 'figure4'")
    with pytest.raises(InvalidParameterError, match="`weights` must be a mapping"):
        pa.alpha(df, "weighted_dice", weights="w")


def test_warnings_point_at_the_callers_line():
    # Through the accessor, a report or the function: the warning names this file.
    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2, "value": ["x"] * 4})
    for call in (
        lambda: pa.alpha(df),
        lambda: df.agree.alpha(),
        lambda: df.assign(g=1).agree.report("nominal", by="g"),
        lambda: pa.cohen_kappa(df),
    ):
        with pytest.warns(pa.errors.DegenerateDataWarning) as record:
            call()
        assert all(w.filename == __file__ for w in record), [w.filename for w in record]


def test_more_bad_inputs_raise_typed_errors():
    df = KRIPP()
    with pytest.raises(ValueTypeError, match="`unit` column 'unit' holds an unhashable value"):
        pa.alpha(df.assign(unit=[[u] for u in df.unit]))
    with pytest.raises(ValueTypeError, match="`distance` 'interval' needs numeric values"):
        pa.alpha(df.assign(value=df.value + 1j), "interval")
    figs = pa.datasets.masi_figures().query("figure == 'figure4'")
    with pytest.raises(InvalidParameterError, match="must give a number for each element"):
        pa.alpha(figs, "weighted_dice", weights=lambda e: "heavy")
    with pytest.raises(InvalidParameterError, match="`progress` must be callable"):
        pa.report(df, progress=5)
    with pytest.raises(InvalidParameterError, match="'clusters' resamples the groups"):
        pa.report(df, ci=0.9, ci_method="clusters")
    with pytest.raises(ValueTypeError, match="`a` must be a number, got 'x'"):
        pa.distances.interval("x", 1)


def test_tuples_and_frozensets_are_the_same_sets():
    # Hashable set cells (tuples, frozensets) are normalised on the distinct values: a tuple
    # and a frozenset with the same elements are one value; None is missing.
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 3, 3],
            "coder": ["a", "b"] * 3,
            "value": [("x", "y"), frozenset({"y", "x"}), ("z",), "z", None, frozenset()],
        }
    )
    m = pa.matrix(df[df.value != "z"])
    assert m.loc["a", 1] == m.loc["b", 1] == frozenset({"x", "y"})
    res = pa.alpha(df, "jaccard")  # "z" is {"z"} under a set distance
    assert (res.n_units, res.n_values, res.observed) == (2, 2, 0.0)
    with pytest.raises(MixedValueTypesError, match="mixes sets"):
        pa.alpha(df, "nominal")


# --- Arrow-backed text in the label and value columns ------------------------------------------

# Strings with what can go wrong in bytes: empty, prefixes of others, multi-byte UTF-8, a
# combining character, a zero byte inside, surrounding spaces, and a long one.
WORDS = ["", "a", "ab", "abc", "b", "ba", "\u00e9", "e\u0301", "\u65e5\u672c", "a\x00", "a\x00b",
         "1234567", "12345678", "NA", " a", "a ", "a label longer than a machine word"]


def _arrow_text_dtypes():
    pyarrow = pytest.importorskip("pyarrow")
    return [
        pd.StringDtype("pyarrow"),
        pd.ArrowDtype(pyarrow.string()),
        pd.ArrowDtype(pyarrow.large_string()),
    ]


def _sorted_codes(words: list[str]) -> tuple[list[int], list[str]]:
    """Codes into the sorted distinct strings, from the definition (Python's order of str;
    plain Python, not pandas: pandas 2.2's object factorize cuts strings at a zero byte)."""
    labels = sorted(set(words))
    code = {w: i for i, w in enumerate(labels)}
    return [code[w] for w in words], labels


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_arrow_text_label_columns_code_as_sorted_strings(seed):
    """Unit and coder columns of Arrow-backed text: codes into the sorted distinct strings,
    the labels kept in the column's dtype; sliced and chunked arrays alike."""
    from pandas_agree.data.prepare import prepare

    pyarrow = pytest.importorskip("pyarrow")
    rng = np.random.default_rng(seed)
    words = [WORDS[i] for i in rng.integers(0, len(WORDS), 300)]
    for dtype in _arrow_text_dtypes():
        kind = pyarrow.large_string() if "large" in str(dtype) else pyarrow.string()
        chunked = pyarrow.chunked_array([pyarrow.array(words[:100], kind),
                                         pyarrow.array(words[100:], kind)])
        columns = {
            "plain": pd.Series(words, dtype=dtype),
            "sliced": pd.Series(words * 2, dtype=dtype).iloc[150:450].reset_index(drop=True),
            "chunked": pd.Series(pd.arrays.ArrowExtensionArray(chunked)),
        }
        for name, coders in columns.items():
            df = pd.DataFrame({"unit": np.arange(300) // 3, "coder": coders, "value": 1})
            coded = prepare(df, on_duplicate="first")
            codes, labels = _sorted_codes(coders.tolist())
            keep = ~pd.Series(list(zip(df["unit"], codes))).duplicated().to_numpy()
            assert coded.coders.tolist() == labels, (dtype, name)
            assert coded.coder_codes.tolist() == np.asarray(codes)[keep].tolist(), (dtype, name)
            if name != "chunked":
                assert coded.coders.dtype == coders.dtype, (dtype, name)


def test_alpha_is_the_same_with_arrow_and_object_coder_labels():
    """A coder column of Arrow strings gives the alpha of the same column as objects:
    Krippendorff (2011), section C, nominal alpha 0.743."""
    pytest.importorskip("pyarrow")
    df = KRIPP()
    as_object = df.assign(coder=df["coder"].astype(str).astype(object))
    for dtype in _arrow_text_dtypes():
        as_arrow = df.assign(coder=df["coder"].astype(str).astype(dtype))
        for distance in ("nominal", "interval"):
            assert pa.alpha(as_arrow, distance).alpha == pa.alpha(as_object, distance).alpha
        assert pa.alpha(as_arrow, "nominal").alpha == pytest.approx(0.743, abs=5e-4)


def _invalid_text(pyarrow, data: list):
    """An Arrow string array over bytes that are not UTF-8 (built without validation)."""
    return pyarrow.array(data, pyarrow.binary()).view(pyarrow.string())


@pytest.mark.parametrize("column", ["unit", "coder", "value"])
def test_arrow_text_that_is_not_utf8_is_a_typed_error_naming_the_column(column):
    """Arrow strings holding bytes that are not UTF-8 (0xff): a ValueTypeError naming the
    column and the row, in whichever column they are, as scalars, in lists or split by
    `sep` (a bare UnicodeDecodeError or ArrowInvalid before)."""
    pyarrow = pytest.importorskip("pyarrow")
    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["x", "y"] * 2,
                       "value": pd.Series(["a", "b", "a", "b"], dtype="string[pyarrow]")})
    bad = _invalid_text(pyarrow, [b"a", b"b", b"\xffa", b"a"])
    renamed_columns = {"unit": "item", "coder": "annotator", "value": "labels"}
    renamed = renamed_columns[column]
    shapes = {"text": (pd.Series(pd.arrays.ArrowExtensionArray(bad)), {})}
    if column == "value":
        lists = pyarrow.ListArray.from_arrays(pyarrow.array([0, 1, 2, 3, 4], pyarrow.int32()),
                                              bad)
        shapes["list"] = (pd.Series(pd.arrays.ArrowExtensionArray(lists)), {})
        shapes["sep"] = (shapes["text"][0], {"sep": ";"})
    for shape, (series, kwargs) in shapes.items():
        frame = df.assign(**{column: series}).rename(columns=renamed_columns)
        distance = "nominal" if shape == "text" and column == "value" else "masi"
        with pytest.raises(ValueTypeError, match=rf"`{column}` column '{renamed}' holds Arrow "
                           r"text that is not valid UTF-8 at row 2 \(index 2\)"):
            pa.alpha(frame, distance, unit="item", coder="annotator", value="labels",
                     **kwargs)
