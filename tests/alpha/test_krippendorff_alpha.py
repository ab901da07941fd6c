"""Krippendorff's alpha against published values and independent implementations."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import DegenerateDataWarning, NoPairableUnitsError

KRIPP = pa.datasets.krippendorff_2011
WIKI = pa.datasets.wikipedia_alpha


@pytest.mark.parametrize(
    ("loader", "distance", "published"),
    [
        # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C
        # (also Krippendorff 2019, Content Analysis 4th ed., p. 290).
        pytest.param(KRIPP, "nominal", 0.743, id="kripp2011-nominal"),
        pytest.param(KRIPP, "ordinal", 0.815, id="kripp2011-ordinal"),
        pytest.param(KRIPP, "interval", 0.849, id="kripp2011-interval"),
        pytest.param(KRIPP, "ratio", 0.797, id="kripp2011-ratio"),
        # Wikipedia, "Krippendorff's alpha", computational example.
        pytest.param(WIKI, "nominal", 0.691, id="wikipedia-nominal"),
        pytest.param(WIKI, "interval", 0.811, id="wikipedia-interval"),
    ],
)
def test_published_alpha(loader, distance, published):
    assert round(pa.alpha(loader(), distance).alpha, 3) == published


def test_krippendorff_2011_nominal_is_exactly_113_over_152(k2011):
    # Krippendorff (2011), section C: alpha = 1 - (n - 1) (n - sum o_cc) / (n^2 - sum n_c^2)
    # = 1 - 39 * 8 / (1600 - 384) = 113/152.
    assert pa.alpha(k2011, "nominal").alpha == pytest.approx(113 / 152, abs=1e-15)


def test_wikipedia_exact_values():
    # Wikipedia "Krippendorff's alpha": nominal 0.691358 (= 56/81), interval 0.810845.
    assert pa.alpha(WIKI(), "nominal").alpha == pytest.approx(0.691358, abs=5e-7)
    assert pa.alpha(WIKI(), "interval").alpha == pytest.approx(0.810845, abs=5e-7)


def test_krippendorff_2011_counts_and_disagreements(k2011):
    # Krippendorff (2011), section C: n.. = 40 pairable values in 11 pairable units
    # (unit 12 holds one value).
    res = pa.alpha(k2011, "nominal")
    assert (res.n_units, res.n_coders, res.n_pairable, res.n_values) == (11, 4, 40, 5)
    # o_cc diagonal sums to 7 + 10 + 8 + 4 + 3 = 32 agreements of 40: D_o = 8 / 40.
    assert res.observed == pytest.approx(8 / 40)
    assert res.alpha == pytest.approx(1 - res.observed / res.expected)


def test_coincidence_matrix_krippendorff_2011(k2011):
    # Krippendorff (2011), section C, the coincidence matrix o_ck (values 1..5).
    o = pa.coincidences(k2011)
    third = 1 / 3
    expected = np.array(
        [
            [7, 4 * third, third, third, 0],
            [4 * third, 10, 4 * third, third, 0],
            [third, 4 * third, 8, third, 0],
            [third, third, third, 4, 0],
            [0, 0, 0, 0, 3],
        ]
    )
    np.testing.assert_allclose(o.to_numpy(), expected, atol=1e-12)
    assert list(o.index) == [1, 2, 3, 4, 5]
    np.testing.assert_allclose(o.sum(axis=1).to_numpy(), [9, 13, 10, 5, 3])


def test_coincidences_sparse_matches_dense(k2011):
    dense = pa.coincidences(k2011)
    sparse = pa.coincidences(k2011, sparse=True)
    np.testing.assert_allclose(sparse.toarray(), dense.to_numpy())


def test_masi_figure2_mean_similarity_is_10_over_27():
    # Passonneau (2006), section 3.3: the mean MASI similarity (J * M) over the three
    # columns of Figure 2, comparing the sets as printed, is 10/27.
    fig = pa.datasets.masi_figures().query("figure == 'figure2'")
    wide = fig.pivot(index="unit", columns="coder", values="value")
    sims = [1 - pa.distances.masi(a, b) for a, b in zip(wide["A3"], wide["A4"])]
    assert Fraction(sum(sims) / 3).limit_denominator(1000) == Fraction(10, 27)
    # Figure 3 as printed gives 7/27. The paper's 6/27 follows its own instruction to remove
    # the coding unit first in column y ("{x} would be compared with {z}"), while 10/27 for
    # Figure 2 compares the sets as printed. Both readings are checked, so neither is fitted.
    fig3 = pa.datasets.masi_figures().query("figure == 'figure3'")
    wide3 = fig3.pivot(index="unit", columns="coder", values="value")
    sims3 = [1 - pa.distances.masi(a, b) for a, b in zip(wide3["A3"], wide3["A4"])]
    assert Fraction(sum(sims3) / 3).limit_denominator(1000) == Fraction(7, 27)
    sims3[1] = 1 - pa.distances.masi({"x"}, {"z"})
    assert Fraction(sum(sims3) / 3).limit_denominator(1000) == Fraction(6, 27)


def test_two_coders_alpha_from_the_nominal_2x2():
    # Passonneau (1997, seed 004), Table 1: 100 items, two judges, cells 47, 14, 10, 29.
    # Krippendorff's alpha on this data (Scott's pi with the small-sample correction):
    # pi = (0.76 - p_e) / (1 - p_e) with p_e = ((61+57)/200)^2 + ((39+43)/200)^2;
    # alpha = 1 - (2N - 1) / (2N) * (1 - pi) (Krippendorff 2011, two-coder nominal case).
    cells = [("A", "A", 47), ("A", "B", 14), ("B", "A", 10), ("B", "B", 29)]
    rows, unit = [], 0
    for x, y, k in cells:
        for _ in range(k):
            rows += [(unit, "X", x), (unit, "Y", y)]
            unit += 1
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    p_e = (118 / 200) ** 2 + (82 / 200) ** 2
    pi = (0.76 - p_e) / (1 - p_e)
    assert pa.alpha(df).alpha == pytest.approx(1 - 199 / 200 * (1 - pi), abs=1e-12)
    # Seed 004 prints alpha = kappa = .50 for this table: its alpha uses Cohen's per-judge
    # marginals (p_e = .61 * .57 + .39 * .43); Krippendorff's pools them, giving 0.506.
    assert round(pa.alpha(df).alpha, 3) == 0.506


def test_single_value_units_are_not_pairable(k2011):
    # Krippendorff (2011): unit 12 (one value) does not enter; dropping it changes nothing.
    df = k2011
    assert pa.alpha(df[df.unit != 12]).alpha == pa.alpha(df).alpha


def test_no_pairable_unit_raises():
    df = pd.DataFrame({"unit": [1, 2], "coder": ["a", "b"], "value": [1, 2]})
    with pytest.raises(NoPairableUnitsError, match="no unit has two or more values"):
        pa.alpha(df)


def test_one_coder_raises_no_pairable():
    df = pd.DataFrame({"unit": [1, 2, 3], "coder": ["a"] * 3, "value": [1, 2, 1]})
    with pytest.raises(NoPairableUnitsError, match="1 coder"):
        pa.alpha(df)


def test_identical_values_give_nan_with_reason_and_warning():
    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2, "value": ["x"] * 4})
    with pytest.warns(DegenerateDataWarning, match="D_e = 0"):
        res = pa.alpha(df)
    assert np.isnan(res.alpha)
    assert "same" in res.reason
    assert "reason=" in repr(res)


def test_result_interface(k2011):
    res = pa.alpha(k2011, "interval")
    assert float(res) == res.alpha
    assert repr(res).startswith("AlphaResult(alpha=0.8491, distance='interval'")
    s = res.to_series()
    assert s.name == "interval"
    assert s["alpha"] == res.alpha and s["n_pairable"] == 40
    with pytest.raises(AttributeError):
        res.alpha = 1.0  # frozen


def test_ordinal_uses_categories_order(k2011):
    # Reversing the category order of an ordinal variable leaves ordinal alpha unchanged
    # (the rank metric is symmetric), while a shuffled order changes it.
    df = k2011
    base = pa.alpha(df, "ordinal").alpha
    assert pa.alpha(df, "ordinal", categories=[5, 4, 3, 2, 1]).alpha == pytest.approx(base)
    assert pa.alpha(df, "ordinal", categories=[1, 2, 3, 4, 5]).alpha == pytest.approx(base)
    assert pa.alpha(df, "ordinal", categories=[3, 1, 5, 2, 4]).alpha != pytest.approx(base)


def test_ordinal_uses_categorical_order(k2011):
    df = k2011
    labels = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
    cat = pd.Categorical(
        df.value.map(labels), categories=["one", "two", "three", "four", "five"], ordered=True
    )
    out = df.assign(value=cat)
    assert pa.alpha(out, "ordinal").alpha == pytest.approx(pa.alpha(df, "ordinal").alpha)
    # Unused categories do not change the ordinal metric (they have n_g = 0).
    cats = ["zero", "one", "two", "three", "four", "five", "six"]
    out2 = df.assign(value=pd.Categorical(df.value.map(labels), categories=cats, ordered=True))
    assert pa.alpha(out2, "ordinal").alpha == pytest.approx(pa.alpha(df, "ordinal").alpha)


def test_ordinal_rank_metric_is_not_index_difference(k2011):
    # Krippendorff's ordinal metric uses marginal frequencies; index differences give the
    # interval value on codes 1..5, which differs for this data (0.849 vs 0.815).
    df = k2011
    assert round(pa.alpha(df, "ordinal").alpha, 3) == 0.815
    assert round(pa.alpha(df, "interval").alpha, 3) == 0.849


def test_callable_distance_equals_builtin(k2011):
    df = k2011
    res = pa.alpha(df, lambda a, b: (a - b) ** 2)
    assert res.alpha == pytest.approx(pa.alpha(df, "interval").alpha, abs=1e-12)
    nominal = pa.alpha(df, lambda a, b: float(a != b))
    assert nominal.alpha == pytest.approx(113 / 152, abs=1e-12)


def test_set_nominal_on_singletons_equals_nominal(k2011):
    df = k2011
    sets = df.assign(value=df.value.map(lambda v: frozenset([v])))
    assert pa.alpha(sets, "nominal").alpha == pytest.approx(113 / 152)
    # Jaccard, Dice and MASI on singletons reduce to nominal: disjoint or equal only.
    for d in ("jaccard", "dice", "masi", "masi_dice", "masi_jaccard"):
        assert pa.alpha(sets, d).alpha == pytest.approx(113 / 152), d


def test_scalars_are_one_element_sets_under_set_distances(k2011):
    df = k2011
    assert pa.alpha(df, "jaccard").alpha == pytest.approx(113 / 152)


def test_empty_set_is_a_value_not_missing():
    empty = frozenset()
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 3, 3],
            "coder": ["a", "b"] * 3,
            "value": [empty, empty, {"x"}, {"x"}, empty, {"y"}],
        }
    )
    res = pa.alpha(df, "masi")
    assert res.n_pairable == 6 and res.n_values == 3
    # Hand computation: pairable values {}, {}, {x}, {x}, {}, {y}; o = diag agreements on
    # units 1 and 2 (2 each), unit 3 a disagreement {} vs {y} with distance 1.
    # D_o = (1/6) * 2 * 1 = 1/3; n_c = ({}: 3, {x}: 2, {y}: 1),
    # D_e = (36 - 9 - 4 - 1) / (6 * 5) = 22/30 (every distinct pair is disjoint: distance 1).
    assert res.observed == pytest.approx(1 / 3)
    assert res.expected == pytest.approx(22 / 30)
    # Replacing one empty set by a missing value leaves unit 1 with a single value.
    df_missing = df.assign(value=[empty, None, {"x"}, {"x"}, empty, {"y"}])
    res_missing = pa.alpha(df_missing, "masi")
    assert (res_missing.n_units, res_missing.n_pairable) == (2, 4)


def test_set_elements_may_be_tuples():
    # Spans as (start, end) tuples. Hand computation from Krippendorff's definition with
    # Passonneau's (2006) MASI: unit 1 compares {(1,2),(3,4)} with {(1,2)} (J = 1/2,
    # subset M = 2/3, distance 2/3), unit 2 agrees. D_o = 2 * (2/3) / 4 = 1/3; of the 12
    # ordered pairs of the 4 values, 2 are at 2/3 and 8 are disjoint (1): D_e = (28/3)/12.
    span = frozenset
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2],
            "coder": ["a", "b"] * 2,
            "value": [span({(1, 2), (3, 4)}), span({(1, 2)}), span({(5, 6)}), span({(5, 6)})],
        }
    )
    res = pa.alpha(df, "masi")
    assert (res.observed, res.expected) == (pytest.approx(1 / 3), pytest.approx(7 / 9))
    assert res.alpha == pytest.approx(4 / 7)


@pytest.mark.parametrize("missing", [None, np.nan, pd.NA])
def test_missing_markers_are_dropped(missing, k2011):
    df = k2011
    extra = pd.DataFrame({"unit": [12], "coder": ["A"], "value": [missing]}, dtype=object)
    res = pa.alpha(pd.concat([df, extra], ignore_index=True))
    assert res.alpha == pytest.approx(113 / 152)


def test_string_values_nominal(k2011):
    df = k2011
    text = df.assign(value=df.value.map(lambda v: f"v{v}"))
    assert pa.alpha(text).alpha == pytest.approx(113 / 152)


def test_interval_on_large_values_is_stable(k2011):
    # Shifting interval data by a constant does not change alpha (centred moments).
    df = k2011
    shifted = df.assign(value=df.value + 1e9)
    assert pa.alpha(shifted, "interval").alpha == pytest.approx(
        pa.alpha(df, "interval").alpha, abs=1e-9
    )


def test_ratio_is_scale_invariant(k2011):
    df = k2011
    assert pa.alpha(df.assign(value=df.value * 7.5), "ratio").alpha == pytest.approx(
        pa.alpha(df, "ratio").alpha, abs=1e-12
    )


def test_boolean_values():
    # Hand computation (Krippendorff 2011's formulas): values False/True, 3 each, one
    # disagreeing unit of two values: D_o = 2 / 6, D_e = (36 - 9 - 9) / 30, alpha = 4/9.
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 3, 3],
            "coder": ["a", "b"] * 3,
            "value": [True, True, False, True, False, False],
        }
    )
    for distance in ("nominal", "interval"):  # 0/1 squared differences equal nominal
        assert pa.alpha(df, distance).alpha == pytest.approx(4 / 9)
