"""Tests for pandas_agree.mv_alpha: multi-valued alpha of Krippendorff and Craggs (2016).

Oracles:

* the worked examples of Krippendorff and Craggs (2016), "The reliability of multi-valued
  coding of data", Communication Methods and Measures 10(4), 181-198: the data of Table 3
  and of Tables 8a-c and 9a-c, with the mvα values that the R package ``mvalpha`` (C. F.
  Drake, CRAN, github.com/therealcfdrake/mvalpha) gives for them: 0.2865907 for Table 3
  (its tests/testthat/test-mvalpha.R) and .947, .923, .895, .716, .554, -.002 for Tables
  8a-9c (printed next to each table in its worksheet.Rmd). Our code and R's are
  independent implementations that agree on these values;
* ``brute_mv_alpha`` below, written from the paper's formulas: every pair of sets of the
  label domain enumerated with itertools, no generating polynomial;
* nominal alpha (Krippendorff 2011, 0.743; Wikipedia, 0.691), which mvα equals when every
  set has one label.
"""

from __future__ import annotations

import inspect
import itertools
import math
import warnings
from collections import Counter
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree import mv_alpha
from pandas_agree._core.mvalpha import expected_by_size
from pandas_agree.datasets import from_matrix
from pandas_agree.errors import (
    AmbiguousValuesError,
    ColumnNotFoundError,
    DegenerateDataWarning,
    DuplicateRatingError,
    InvalidParameterError,
    MissingInSetError,
    ValueTypeError,
)
from pandas_agree.frontends.forward import forwarded_parameters

f = frozenset
_ = None


def pa_arrow():
    return pytest.importorskip("pyarrow")

# ---------------------------------------------------------------------------------------------
# The definition, written out (Krippendorff and Craggs 2016): the oracle for every shape


def brute_delta(c: frozenset, k: frozenset) -> Fraction:
    """Nominal mv difference: |C xor K| / (|C| + |K|), 0 for two empty sets."""
    if not c and not k:
        return Fraction(0)
    return Fraction(len(c ^ k), len(c) + len(k))


def brute_mv_alpha(units: list[list[frozenset]]) -> dict:
    """mvα from the paper's formulas by enumeration, in exact fractions.

    ``units`` lists each unit's sets (missing ones left out). Returns alpha, D_o, D_e and
    the mean chance difference of each size pair (None when no pair of sets is drawable).
    """
    units = [u for u in units if len(u) >= 2]
    n = sum(len(u) for u in units)
    d_o = Fraction(0)
    for u in units:  # ordered pairs of different coders in the unit, each / (m_u - 1)
        m = len(u)
        for i, j in itertools.permutations(range(m), 2):
            d_o += brute_delta(u[i], u[j]) / (m - 1)
    d_o /= n
    n_label = Counter(label for u in units for s in u for label in s)
    n_size = Counter(len(s) for u in units for s in u)
    labels = sorted(n_label, key=repr)
    d_e = Fraction(0)
    mean = {}
    for a, b in itertools.product(n_size, n_size):
        num = den = Fraction(0)
        for c in itertools.combinations(labels, a):
            for k in itertools.combinations(labels, b):
                w = math.prod(n_label[x] for x in c) * math.prod(
                    n_label[x] - (x in c) for x in k
                )
                num += w * brute_delta(f(c), f(k))
                den += w
        mean[a, b] = num / den if den else None
        if den:
            d_e += Fraction(n_size[a] * n_size[b], n * n) * num / den
    alpha = 1 - d_o / d_e if d_e else None
    return {"alpha": alpha, "observed": d_o, "expected": d_e, "mean": mean}


def units_of(df: pd.DataFrame) -> list[list[frozenset]]:
    """The sets of each unit of a long frame of frozensets (missing rows left out)."""
    return [list(g["value"]) for _, g in df.dropna(subset=["value"]).groupby("unit", sort=False)]


# ---------------------------------------------------------------------------------------------
# Published examples


def table3() -> pd.DataFrame:
    """Krippendorff and Craggs (2016), Table 3: observers F, G, H; units 1-4."""
    return from_matrix(
        {
            "F": [f("bd"), f("abd"), f(), f("a")],
            "G": [f("d"), f("b"), f("a"), _],
            "H": [_, f("bd"), f("a"), _],
        }
    )


def three_by_three(F, G, H) -> pd.DataFrame:
    return from_matrix({"F": [f(x) for x in F], "G": [f(x) for x in G], "H": [f(x) for x in H]})


TABLES = {
    "table8a": (["a", "abd", "d"], ["a", "abd", "d"], ["a", "abde", "d"]),
    "table8b": (["a", "ab", "d"], ["a", "ab", "d"], ["a", "abd", "d"]),
    "table8c": (["a", "b", "d"], ["a", "b", "d"], ["a", "bd", "d"]),
    "table9a": (["a", "ab", "d"], ["a", "ad", "d"], ["a", "db", "d"]),
    "table9b": (["a", "ab", "d"], ["a", "ed", "d"], ["a", "f", "d"]),
    "table9c": (["a", "ab", "bd"], ["b", "ed", "d"], ["ab", "f", "be"]),
}


def test_table3_published_value():
    # Krippendorff & Craggs (2016), Table 3 data; R mvalpha 0.2865907 (test-mvalpha.R).
    res = mv_alpha(table3())
    assert res.alpha == pytest.approx(0.2865907, abs=5e-8)
    assert float(res) == res.alpha
    assert (res.n_units, res.n_coders, res.n_pairable) == (3, 3, 8)
    # unit 4 has one set and is not pairable; 6 distinct sets, labels a, b, d
    assert (res.n_sets, res.n_labels) == (6, 3)


def test_table3_against_the_definition():
    brute = brute_mv_alpha(units_of(table3()))
    res = mv_alpha(table3())
    assert res.observed == pytest.approx(float(brute["observed"]), rel=1e-12)
    assert res.expected == pytest.approx(float(brute["expected"]), rel=1e-12)
    # D_o by hand: unit 1 {b,d}-{d}: 1/3 twice / 1; unit 2: {a,b,d}-{b} 1/2, {a,b,d}-{b,d}
    # 1/5, {b}-{b,d} 1/3, each twice / 2; unit 3: {}-{a} 1 four times / 2; n = 8.
    d_o = (Fraction(2, 3) + Fraction(1, 2) + Fraction(1, 5) + Fraction(1, 3) + 2) / 8
    assert res.observed == pytest.approx(float(d_o), rel=1e-12)
    assert float(d_o) == pytest.approx(0.4625)


@pytest.mark.parametrize(
    ("name", "published"),
    [
        pytest.param("table8a", 0.947, id="K&C2016-table8a-.947"),
        pytest.param("table8b", 0.923, id="K&C2016-table8b-.923"),
        pytest.param("table8c", 0.895, id="K&C2016-table8c-.895"),
        pytest.param("table9a", 0.716, id="K&C2016-table9a-.716"),
        pytest.param("table9b", 0.554, id="K&C2016-table9b-.554"),
        pytest.param("table9c", -0.002, id="K&C2016-table9c--.002"),
    ],
)
def test_tables_8_and_9_published_values(name, published):
    # Values to three decimals, as the R mvalpha worksheet prints them for each table.
    df = three_by_three(*TABLES[name])
    res = mv_alpha(df)
    assert round(res.alpha, 3) == pytest.approx(published, abs=1e-12)
    assert res.alpha == pytest.approx(float(brute_mv_alpha(units_of(df))["alpha"]), rel=1e-12)


def test_table8a_size_pair_that_cannot_be_drawn_adds_nothing():
    # Two sets of 4 labels from {a, b, d, e} must both contain e, which occurs once: no pair
    # can be drawn, so (4, 4) adds 0 to D_e. Renormalising the other terms instead would
    # give .948, not the .947 of the R mvalpha package.
    res = mv_alpha(three_by_three(*TABLES["table8a"]))
    row = res.by_size.loc[(4, 4)]
    assert not row["drawable"]
    assert np.isnan(row["mean_delta"])
    assert row["expected"] == 0.0
    renormalised = 1 - res.observed / (res.expected / (1 - row["expected_share"]))
    assert round(renormalised, 3) == 0.948
    brute = brute_mv_alpha(units_of(three_by_three(*TABLES["table8a"])))
    assert brute["mean"][4, 4] is None


# ---------------------------------------------------------------------------------------------
# mvα is nominal alpha when every set has one label


@pytest.mark.parametrize(
    ("loader", "published"),
    [
        pytest.param(pa.datasets.krippendorff_2011, 0.743, id="Krippendorff2011-C-.743"),
        pytest.param(pa.datasets.wikipedia_alpha, 0.691, id="Wikipedia-alpha-.691"),
    ],
)
def test_singletons_give_nominal_alpha(loader, published):
    df = loader()
    scalars = mv_alpha(df)
    as_sets = mv_alpha(df.assign(value=[f([v]) for v in df["value"]]))
    nominal = pa.alpha(df, "nominal")
    assert round(scalars.alpha, 3) == published
    for res in (scalars, as_sets):
        assert res.alpha == pytest.approx(nominal.alpha, rel=1e-12)
        assert res.observed == pytest.approx(nominal.observed, rel=1e-12)
        assert res.expected == pytest.approx(nominal.expected, rel=1e-12)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.sampled_from("abcd")), min_size=3, max_size=3),
        min_size=2,
        max_size=8,
    )
)
def test_singletons_give_nominal_alpha_on_random_data(rows):
    df = from_matrix({c: [r[i] for r in rows] for i, c in enumerate("XYZ")})
    if df.empty or df.groupby("unit").size().max() < 2:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        nominal = pa.alpha(df, "nominal")
        res = mv_alpha(df)
    if np.isnan(nominal.alpha):
        assert np.isnan(res.alpha) and res.reason
    else:
        assert res.alpha == pytest.approx(nominal.alpha, rel=1e-9, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Differential tests against the definition

set_strategy = st.frozensets(st.sampled_from("abcd"), max_size=4)
cell_strategy = st.one_of(st.none(), set_strategy)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda n_coders: st.lists(
            st.lists(cell_strategy, min_size=n_coders, max_size=n_coders),
            min_size=1,
            max_size=6,
        )
    )
)
def test_random_sets_against_the_definition(rows):
    n_coders = len(rows[0])
    df = from_matrix({f"c{i}": [r[i] for r in rows] for i in range(n_coders)})
    units = units_of(df)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = mv_alpha(df)
        dice = pa.alpha(df, "dice") if any(len(u) >= 2 for u in units) else None
    if dice is None:
        assert np.isnan(res.alpha) and res.n_units == 0 and res.reason
        return
    brute = brute_mv_alpha(units)
    assert res.observed == pytest.approx(float(brute["observed"]), rel=1e-9, abs=1e-12)
    assert res.expected == pytest.approx(float(brute["expected"]), rel=1e-9, abs=1e-12)
    if brute["alpha"] is None:
        assert np.isnan(res.alpha) and "D_e = 0" in res.reason
    else:
        assert res.alpha == pytest.approx(float(brute["alpha"]), rel=1e-9, abs=1e-9)
    for (a, b), mean in brute["mean"].items():
        got = res.by_size.loc[(a, b), "mean_delta"]
        if mean is None:
            assert np.isnan(got)
        else:
            assert got == pytest.approx(float(mean), rel=1e-9, abs=1e-12)
    table = res.by_size
    assert table["observed"].sum() == pytest.approx(res.observed, abs=1e-12)
    assert table["expected"].sum() == pytest.approx(res.expected, abs=1e-12)
    assert table["observed_share"].sum() == pytest.approx(1.0)
    assert table["expected_share"].sum() == pytest.approx(1.0)
    # D_o is alpha's with the Dice distance (same difference function, same coincidences)
    assert res.observed == pytest.approx(dice.observed, rel=1e-9, abs=1e-12)
    counts = Counter(x for u in units if len(u) >= 2 for s in u for x in s)
    assert res.label_counts.to_dict() == dict(counts)


def exact_uniform_mean_delta(n_labels: int, n_each: int, a: int, b: int) -> Fraction:
    """Mean chance difference of sizes (a, b) when each of ``n_labels`` labels occurs
    ``n_each`` times: pairs with j shared labels number C(L, a) C(a, j) C(L - a, b - j),
    each of weight n^a n^(b - j) (n - 1)^j."""
    num = den = Fraction(0)
    for j in range(min(a, b) + 1):
        ways = math.comb(a, j) * math.comb(n_labels - a, b - j)
        w = ways * Fraction(n_each - 1, n_each) ** j
        num += w * Fraction(a + b - 2 * j, a + b)
        den += w
    return num / den


@pytest.mark.parametrize(
    ("n_labels", "n_units"),
    [pytest.param(60, 3, id="sets-of-30"), pytest.param(300, 2, id="sets-of-150")],
)
@pytest.mark.slow
def test_large_sets_against_a_closed_form(n_labels, n_units):
    # Coder X gives the first half of the labels, Y the second half, in every unit: each
    # label occurs n_units times, every set has n_labels / 2 labels, D_o = 1. Enumerating
    # C(300, 150)^2 pairs is impossible; the closed form above is exact. The sets of 150
    # labels also check that the scaled recursion neither under- nor overflows.
    half = n_labels // 2
    first, second = f(range(half)), f(range(half, n_labels))
    df = from_matrix({"X": [first] * n_units, "Y": [second] * n_units})
    res = mv_alpha(df)
    d_e = exact_uniform_mean_delta(n_labels, n_units, half, half)
    assert res.observed == 1.0
    assert res.expected == pytest.approx(float(d_e), rel=1e-9)
    assert res.alpha == pytest.approx(float(1 - 1 / d_e), rel=1e-9)


def test_many_labels_of_equal_count_take_the_grouped_route():
    # 200 labels, each given once by X and once by Y in sets of 5 (40 units): all 200 labels
    # share the count 2, so they enter D_e as one closed-form factor (group route).
    x = [f(range(5 * u, 5 * u + 5)) for u in range(40)]
    y = [f((5 * u + 100 + i) % 200 for i in range(5)) for u in range(40)]
    res = mv_alpha(from_matrix({"X": x, "Y": y}))
    d_e = exact_uniform_mean_delta(200, 2, 5, 5)
    assert res.observed == 1.0
    assert res.expected == pytest.approx(float(d_e), rel=1e-12)


def brute_mean_delta(label_counts: list[int], a: int, b: int) -> Fraction | None:
    """Mean difference of the pairs of sets of sizes (a, b), weights w_CK, by enumeration."""
    labels = range(len(label_counts))
    num = den = Fraction(0)
    for c in itertools.combinations(labels, a):
        for k in itertools.combinations(labels, b):
            w = math.prod(label_counts[i] for i in c)
            w *= math.prod(label_counts[i] - (i in c) for i in k)
            num += w * brute_delta(f(c), f(k))
            den += w
    return num / den if den else None


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=6), st.integers(0, 4))
def test_both_routes_of_the_expected_terms_match_the_definition(label_counts, max_size):
    # One label at a time (group_min huge) and equal counts as one factor (group_min=1).
    max_size = min(max_size, len(label_counts))
    one_by_one = expected_by_size(np.array(label_counts), max_size, group_min=10**9)
    grouped = expected_by_size(np.array(label_counts), max_size, group_min=1)
    for a, b in itertools.product(range(max_size + 1), repeat=2):
        want = brute_mean_delta(label_counts, a, b)
        for mean, drawable in (one_by_one, grouped):
            if a == b == 0:
                assert mean[a, b] == 0.0 and drawable[a, b]
            elif want is None:
                assert not drawable[a, b] and np.isnan(mean[a, b])
            else:
                assert drawable[a, b]
                assert mean[a, b] == pytest.approx(float(want), rel=1e-10, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Invariances and input shapes


def test_invariant_to_row_order_and_label_names():
    df = table3()
    shuffled = df.sample(frac=1.0, random_state=3).reset_index(drop=True)
    renamed = df.assign(
        value=[f({"a": "x", "b": "y", "d": "z"}[e] for e in s) for s in df["value"]],
        coder=df["coder"].map({"F": 3, "G": 1, "H": 2}),
        unit=df["unit"].map(lambda u: f"u{u}"),
    )
    base = mv_alpha(df).alpha
    assert mv_alpha(shuffled).alpha == pytest.approx(base, rel=1e-12)
    assert mv_alpha(renamed).alpha == pytest.approx(base, rel=1e-12)


def test_lists_sets_tuples_and_frozensets_agree():
    df = table3()
    as_lists = df.assign(value=[sorted(s) for s in df["value"]])
    as_sets = df.assign(value=[set(s) for s in df["value"]])
    as_tuples = df.assign(value=[tuple(sorted(s)) for s in df["value"]])
    base = mv_alpha(df)
    for other in (as_lists, as_sets, as_tuples):
        assert mv_alpha(other).alpha == pytest.approx(base.alpha, rel=1e-12)


def test_empty_set_is_coded_and_nan_is_missing():
    df = table3()
    # F's empty set in unit 3 is a coded value; as missing, unit 3 loses one set.
    missing = df.copy()
    missing["value"] = missing["value"].astype(object)
    missing.loc[(missing["unit"] == 3) & (missing["coder"] == "F"), "value"] = np.nan
    coded = mv_alpha(df)
    dropped = mv_alpha(missing)
    assert dropped.n_pairable == coded.n_pairable - 1
    expected = brute_mv_alpha(units_of(missing))["alpha"]
    assert dropped.alpha == pytest.approx(float(expected), rel=1e-12)
    assert 0 in coded.by_size.index.get_level_values("size_a")
    assert 0 not in dropped.by_size.index.get_level_values("size_a")


def test_delimited_strings_and_arrow_lists_agree():
    df = table3()
    as_strings = df.assign(value=[";".join(sorted(s)) for s in df["value"]])
    arrow = pd.Series(
        [sorted(s) for s in df["value"]], dtype=pd.ArrowDtype(pa_arrow().list_(pa_arrow().string()))
    )
    as_arrow = df.assign(value=arrow)
    base = mv_alpha(df)
    assert mv_alpha(as_strings, sep=";").alpha == pytest.approx(base.alpha, rel=1e-12)
    assert mv_alpha(as_arrow).alpha == pytest.approx(base.alpha, rel=1e-12)
    # "" is the coded empty set with sep=: the same n_pairable as the frozenset data
    assert mv_alpha(as_strings, sep=";").n_pairable == base.n_pairable
    # without sep, "b;d" looks like two labels: say how to read it
    with pytest.raises(AmbiguousValuesError, match="sep"):
        mv_alpha(as_strings)


def test_scalars_mixed_with_sets_are_one_label_sets():
    df = table3()
    mixed = df.assign(value=[next(iter(s)) if len(s) == 1 else s for s in df["value"]])
    assert mixed["value"].map(lambda v: isinstance(v, str)).any()
    assert mv_alpha(mixed).alpha == pytest.approx(mv_alpha(df).alpha, rel=1e-12)


def test_bad_sep_is_echoed():
    with pytest.raises(InvalidParameterError, match=r"`sep`.*got 3"):
        mv_alpha(table3(), sep=3)


def test_missing_label_inside_a_set_raises():
    df = table3()
    df["value"] = [["b", None], *df["value"].iloc[1:]]  # (.loc with a list fails on pandas 2.2)
    with pytest.raises(MissingInSetError):
        mv_alpha(df)


def test_one_label_per_row_with_union():
    # The same data with one row per (unit, coder, label); an empty set stays a row of its own.
    rows = [
        (u, c, label)
        for u, c, s in table3().itertuples(index=False)
        for label in (sorted(s) or [f()])
    ]
    long = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    with pytest.raises(DuplicateRatingError, match="on_duplicate"):
        mv_alpha(long)
    res = mv_alpha(long, on_duplicate="union")
    assert res.alpha == pytest.approx(0.2865907, abs=5e-8)


def test_column_names():
    df = table3().rename(columns={"unit": "doc", "coder": "annotator", "value": "labels"})
    res = mv_alpha(df, unit="doc", coder="annotator", value="labels")
    assert res.alpha == pytest.approx(0.2865907, abs=5e-8)


def test_accessor_forwards_signature_and_result():
    df = table3()
    assert df.agree.mv_alpha() == mv_alpha(df)
    assert forwarded_parameters(type(df.agree).mv_alpha) == list(
        inspect.signature(mv_alpha).parameters
    )[1:]
    assert type(df.agree).mv_alpha.__doc__ == mv_alpha.__doc__


def test_input_not_modified_and_not_kept():
    df = table3()
    before = df.copy(deep=True)
    res = mv_alpha(df)
    pd.testing.assert_frame_equal(df, before)
    for name in ("label_counts", "by_size"):
        assert getattr(res, name) is not df
    res.by_size.iloc[0, 0] = 99.0  # the result's tables are its own
    pd.testing.assert_frame_equal(df, before)


def test_result_repr_series_and_tables():
    res = mv_alpha(table3())
    assert repr(res) == "MVAlphaResult(alpha=0.2866, n_units=3, n_coders=3, n_pairable=8)"
    s = res.to_series()
    assert s.name == "mv_alpha"
    assert list(s.index) == [
        "alpha",
        "observed",
        "expected",
        "n_units",
        "n_coders",
        "n_pairable",
        "n_sets",
        "n_labels",
        "reason",
    ]
    # n_c over the pairable units 1-3: a in 3 sets, b in 4, d in 4
    assert res.label_counts.to_dict() == {"a": 3, "b": 4, "d": 4}
    # size shares: sizes 0, 1, 2, 3 occur 1, 4, 2, 1 times among the 8 pairable sets
    shares = res.by_size.groupby(level="size_a")["expected_share"].sum()
    assert shares.to_dict() == pytest.approx({0: 1 / 8, 1: 4 / 8, 2: 2 / 8, 3: 1 / 8})


# ---------------------------------------------------------------------------------------------
# Degenerate data


def test_no_pairable_unit_gives_nan_with_reason():
    df = from_matrix({"A": [f("a"), _], "B": [_, f("b")]})
    with pytest.warns(DegenerateDataWarning, match="no unit has two or more sets"):
        res = mv_alpha(df)
    assert np.isnan(res.alpha) and np.isnan(res.observed) and np.isnan(res.expected)
    assert res.n_units == 0 and res.n_pairable == 0
    assert "no unit has two or more sets" in res.reason
    assert res.by_size.empty and res.label_counts.empty


@pytest.mark.parametrize(
    "sets",
    [
        pytest.param([f("ab"), f("ab")], id="same-two-label-set"),
        pytest.param([f(), f()], id="all-empty"),
        pytest.param([f("a"), f("a")], id="same-label"),
    ],
)
def test_zero_expected_disagreement_gives_nan_with_reason(sets):
    df = from_matrix({"A": sets, "B": sets})
    with pytest.warns(DegenerateDataWarning, match="D_e = 0"):
        res = mv_alpha(df)
    assert np.isnan(res.alpha)
    assert res.expected == 0.0 and res.observed == 0.0
    assert "D_e = 0" in res.reason


# ---------------------------------------------------------------------------------------------
# Bad input


def test_missing_column_is_named():
    with pytest.raises(ColumnNotFoundError, match="'label'"):
        mv_alpha(table3(), value="label")


def test_bad_on_duplicate_is_echoed():
    with pytest.raises(InvalidParameterError, match=r"`on_duplicate`.*'merge'"):
        mv_alpha(table3(), on_duplicate="merge")


def test_unhashable_label_is_echoed():
    df = pd.DataFrame({"unit": [1, 1], "coder": ["A", "B"], "value": [[["x"]], ["y"]]})
    with pytest.raises(ValueTypeError, match=r"\['x'\]"):
        mv_alpha(df)


def test_not_a_dataframe():
    with pytest.raises((TypeError, ValueError), match="DataFrame"):
        mv_alpha([[1, "A", f("a")]])
