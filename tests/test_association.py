"""Tests for pandas_agree.tasks.association (Dice between annotators) and the weighted set
distances of alpha (``weighted_dice``, ``weighted_jaccard``), against hand computation.

Source of the definitions: Passonneau (2005), "Evaluating an Evaluation Method: The Pyramid
Method Applied to 2003 DUC Data", section 3.1 (seed paper 003): Dice = 2a / (2a + b + c)
with a the SCUs both annotators find, b and c those only one finds; in the weighted Dice
a, b, c are sums of SCU weights. Table 2 reports per-docset means of per-peer values; the
raw annotations are not published, so those means cannot be reproduced here.
"""

from __future__ import annotations

import itertools
import re
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree.errors import (
    ColumnNotFoundError,
    DegenerateDataWarning,
    InvalidParameterError,
    NoPairableUnitsError,
)
from pandas_agree.krippendorff.distances import dice as dice_distance
from pandas_agree.tasks.association import DiceResult, dice_association

# Two annotators (A, B), three peers; SCU weights as in a pyramid (how many models hold it).
PEERS = pd.DataFrame(
    {
        "unit": ["p1", "p1", "p2", "p2", "p3", "p3"],
        "coder": ["A", "B", "A", "B", "A", "B"],
        "value": [{"s1", "s2", "s3"}, {"s1", "s3"}, {"s4"}, {"s4", "s5"}, {"s6"}, {"s7"}],
    }
)
SCU_WEIGHTS = {"s1": 4, "s2": 1, "s3": 2, "s4": 3, "s5": 1, "s6": 2, "s7": 1}


def test_dice_hand_computation():
    # a: s1, s3, s4 -> 3; b (only A): s2, s6 -> 2; c (only B): s5, s7 -> 2.
    res = dice_association(PEERS)
    assert (res.a, res.b, res.c) == (3, 2, 2)
    assert res.dice == pytest.approx(6 / 10)
    assert res.n_units == 3 and res.coders == ("A", "B") and not res.weighted
    # per peer: p1 2*2/(3+2) = 0.8, p2 2*1/(1+2) = 2/3, p3 0
    assert res.by_unit.to_dict() == pytest.approx({"p1": 0.8, "p2": 2 / 3, "p3": 0.0})


def test_weighted_dice_hand_computation():
    # a = w(s1) + w(s3) + w(s4) = 4 + 2 + 3 = 9; b = w(s2) + w(s6) = 3; c = w(s5) + w(s7) = 2.
    res = dice_association(PEERS, weights=SCU_WEIGHTS)
    assert (res.a, res.b, res.c) == (9, 3, 2)
    assert res.dice == pytest.approx(18 / 23)
    assert res.weighted
    # p1: 2 * 6 / (7 + 6); p2: 2 * 3 / (3 + 4); p3: 0
    assert res.by_unit.to_dict() == pytest.approx({"p1": 12 / 13, "p2": 6 / 7, "p3": 0.0})


def test_weights_as_series_callable_and_column_agree():
    expected = dice_association(PEERS, weights=SCU_WEIGHTS).dice
    series = pd.Series(SCU_WEIGHTS)
    assert dice_association(PEERS, weights=series).dice == pytest.approx(expected)
    assert dice_association(PEERS, weights=SCU_WEIGHTS.__getitem__).dice == pytest.approx(expected)
    # one row per found SCU, with the SCU's weight in a column (the usual pyramid export)
    exploded = PEERS.explode("value").assign(w=lambda d: d["value"].map(SCU_WEIGHTS))
    exploded = exploded.reset_index(drop=True)
    assert dice_association(exploded, weights="w").dice == pytest.approx(expected)
    assert dice_association(exploded).dice == pytest.approx(0.6)


def test_equal_weights_give_plain_dice():
    ones = dict.fromkeys(SCU_WEIGHTS, 2.5)
    res = dice_association(PEERS, weights=ones)
    assert res.dice == pytest.approx(dice_association(PEERS).dice)


def test_single_unit_dice_matches_dice_distance():
    # One unit: Dice association is 1 - dice distance of the two sets (distances.dice).
    a, b = {"x", "y", "z"}, {"y", "z", "w", "v"}
    df = pd.DataFrame({"unit": [1, 1], "coder": ["A", "B"], "value": [a, b]})
    assert dice_association(df).dice == pytest.approx(1 - dice_distance(a, b))


def test_empty_set_is_an_annotation_missing_is_not():
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 3, 3],
            "coder": ["A", "B", "A", "B", "A", "B"],
            "value": [{"s1"}, {"s1"}, set(), {"s2"}, {"s3"}, None],
        }
    )
    res = dice_association(df)
    # unit 2: B's s2 counts against A's empty set; unit 3 (B missing) is left out
    assert (res.a, res.b, res.c, res.n_units) == (1, 0, 1, 2)
    assert res.dice == pytest.approx(2 / 3)


def test_more_than_two_annotators_pick_a_pair():
    df = pd.concat(
        [PEERS, pd.DataFrame({"unit": ["p1"], "coder": ["C"], "value": [{"s1"}]})],
        ignore_index=True,
    )
    res = dice_association(df, coders=("B", "A"))
    assert res.coders == ("B", "A")
    assert (res.a, res.b, res.c) == (3, 2, 2)  # b and c swap roles
    assert dice_association(df, coders=("A", "C")).n_units == 1


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.frozensets(st.sampled_from("abcdef")), st.frozensets(st.sampled_from("abcdef"))
        ),
        min_size=1,
        max_size=8,
    ),
    st.dictionaries(st.sampled_from("abcdef"), st.integers(1, 9), min_size=6, max_size=6),
)
def test_dice_brute_force_and_symmetry(units, weights):
    df = pd.DataFrame(
        [(i, "A", x) for i, (x, _) in enumerate(units)]
        + [(i, "B", y) for i, (_, y) in enumerate(units)],
        columns=["unit", "coder", "value"],
    )
    a = sum(sum(weights[e] for e in x & y) for x, y in units)
    b = sum(sum(weights[e] for e in x - y) for x, y in units)
    c = sum(sum(weights[e] for e in y - x) for x, y in units)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = dice_association(df, weights=weights)
        rev = dice_association(df, coders=("B", "A"), weights=weights)
    assert (res.a, res.b, res.c) == pytest.approx((a, b, c))
    if 2 * a + b + c == 0:
        assert np.isnan(res.dice) and np.isnan(rev.dice)
    else:
        assert res.dice == pytest.approx(2 * a / (2 * a + b + c))
        assert rev.dice == pytest.approx(res.dice)
        assert 0 <= res.dice <= 1


def test_result_conventions():
    res = dice_association(PEERS)
    assert isinstance(res, DiceResult)
    assert float(res) == pytest.approx(0.6)
    assert repr(res) == "DiceResult(dice=0.6000, a=3, b=2, c=2, n_units=3, coders=('A', 'B'))"
    assert repr(dice_association(PEERS, weights=SCU_WEIGHTS)).startswith(
        "DiceResult(weighted_dice=0.7826, a=9, b=3, c=2"
    )
    s = res.to_series()
    assert s.name == "dice" and s["a"] == 3 and s["dice"] == pytest.approx(0.6)
    with pytest.raises(AttributeError):
        res.dice = 1.0


def test_degenerate_no_items():
    df = pd.DataFrame({"unit": [1, 1], "coder": ["A", "B"], "value": [set(), set()]})
    with pytest.warns(DegenerateDataWarning, match="dice is NaN: neither annotator marked"):
        res = dice_association(df)
    assert np.isnan(res.dice) and "undefined" in res.reason


def test_caller_frame_unchanged():
    exploded = PEERS.explode("value").assign(w=lambda d: d["value"].map(SCU_WEIGHTS))
    before, before_peers = exploded.copy(), PEERS.copy()
    dice_association(exploded, weights="w")
    dice_association(PEERS, weights=SCU_WEIGHTS)
    pd.testing.assert_frame_equal(exploded, before)
    pd.testing.assert_frame_equal(PEERS, before_peers)


@pytest.mark.parametrize(
    ("call", "exc", "message"),
    [
        pytest.param(
            lambda: dice_association(
                pd.concat([PEERS, PEERS.assign(coder="C")], ignore_index=True)
            ),
            InvalidParameterError,
            "dice_association compares two annotators, but the data have 3: ['A', 'B', 'C']; "
            "pass coders=(a, b) to pick two",
            id="three-annotators",
        ),
        pytest.param(
            lambda: dice_association(PEERS, coders=("A", "Z")),
            InvalidParameterError,
            "`coders` names coder(s) not in the data: ['Z']; the coders with ratings are "
            "['A', 'B']",
            id="unknown-coder",
        ),
        pytest.param(
            lambda: dice_association(PEERS, coders=("A", "A")),
            InvalidParameterError,
            "`coders` must name exactly two different coders, got ['A', 'A']",
            id="same-coder",
        ),
        pytest.param(
            lambda: dice_association(PEERS, coders="AB"),
            InvalidParameterError,
            "`coders` must be a pair of coder labels, got 'AB'",
            id="coders-string",
        ),
        pytest.param(
            lambda: dice_association(PEERS, weights="scu_weight"),
            ColumnNotFoundError,
            "`weights` must be a mapping item -> weight, a callable or a column name; "
            "'scu_weight' is not a column of the DataFrame",
            id="weights-column-missing",
        ),
        pytest.param(
            lambda: dice_association(PEERS, weights="value"),
            InvalidParameterError,
            "`weights` column must differ from the `value` column 'value'",
            id="weights-is-value",
        ),
        pytest.param(
            lambda: dice_association(PEERS, weights={"s1": 1}),
            InvalidParameterError,
            "`weights` has no weight for element",
            id="weights-incomplete",
        ),
        pytest.param(
            lambda: dice_association(PEERS, weights=dict.fromkeys(SCU_WEIGHTS, 0)),
            InvalidParameterError,
            "`weights` must be finite and positive",
            id="weights-zero",
        ),
        pytest.param(
            lambda: dice_association(
                pd.DataFrame(
                    {
                        "unit": [1, 1, 2],
                        "coder": ["A", "B", "A"],
                        "value": ["s1", "s1", "s1"],
                        "w": [1, 1, 2],
                    }
                ),
                weights="w",
            ),
            InvalidParameterError,
            "`weights` column 'w' gives item 's1' two weights: 1.0 and 2.0; an item must have "
            "one weight",
            id="weights-conflict",
        ),
        pytest.param(
            lambda: dice_association(
                pd.DataFrame(
                    {"unit": [1, 1], "coder": ["A", "B"], "value": ["s1", "s1"], "w": [1, None]}
                ),
                weights="w",
            ),
            InvalidParameterError,
            "`weights` column 'w' has a missing or infinite weight for 's1'",
            id="weights-missing-value",
        ),
        pytest.param(
            lambda: dice_association(
                pd.DataFrame({"unit": [1, 2], "coder": ["A", "B"], "value": [{"s"}, {"s"}]})
            ),
            NoPairableUnitsError,
            "annotators 'A' and 'B' annotated no unit in common",
            id="no-shared-unit",
        ),
        pytest.param(
            lambda: dice_association(PEERS.rename(columns={"coder": "annotator"})),
            ColumnNotFoundError,
            "`coder` column 'coder' is not in the DataFrame",
            id="missing-column",
        ),
    ],
)
def test_bad_input(call, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        call()


# ---------------------------------------------------------------------------------------------
# Weighted set distances in alpha (distances.weighted_dice / weighted_jaccard), by hand

# Two coders, three units; element weights a: 3, b: 1, c: 2.
SETS = pd.DataFrame(
    {
        "unit": [1, 1, 2, 2, 3, 3],
        "coder": ["A", "B", "A", "B", "A", "B"],
        "value": [{"a", "b"}, {"a"}, {"c"}, {"c"}, {"a"}, {"b", "c"}],
    }
)
ELEMENT_WEIGHTS = {"a": 3, "b": 1, "c": 2}


def _w(s: frozenset) -> Fraction:
    return sum((Fraction(ELEMENT_WEIGHTS[e]) for e in s), Fraction(0))


def _wdice(x: frozenset, y: frozenset) -> Fraction:
    return 1 - 2 * _w(x & y) / (_w(x) + _w(y))


def _wjaccard(x: frozenset, y: frozenset) -> Fraction:
    return 1 - _w(x & y) / _w(x | y)


def _alpha_by_pairs(df: pd.DataFrame, delta) -> Fraction:
    """Krippendorff's alpha from explicit pairs of values (exact fractions)."""
    groups = [[frozenset(v) for v in g["value"]] for _, g in df.groupby("unit")]
    groups = [g for g in groups if len(g) >= 2]
    values = [v for g in groups for v in g]
    n = len(values)
    observed = sum(
        (
            Fraction(1, len(g) - 1) * delta(x, y)
            for g in groups
            for x, y in itertools.permutations(g, 2)
        ),
        Fraction(0),
    )
    expected = sum((delta(x, y) for x, y in itertools.permutations(values, 2)), Fraction(0))
    return 1 - (observed / n) / (expected / (n * (n - 1)))


def test_weighted_dice_alpha_by_hand():
    # Hand computation: w(ab) = 4, w(a) = 3, w(c) = 2, w(bc) = 3.
    # Distances: d(ab, a) = 1/7, d(a, bc) = 1, d(c, c) = 0; so O = 2/7 + 2 = 16/7, n = 6,
    # D_o = 8/21. Expected, over ordered pairs of the 6 values (ab, a, c, c, a, bc):
    # 2 * [2*(1/7) + 2*1 + 1*(5/7) + 4*1 + 2*1 + 2*(1/5)] = 18.8, D_e = 18.8/30.
    hand = 1 - Fraction(8, 21) / (Fraction(188, 10) / 30)
    assert _alpha_by_pairs(SETS, _wdice) == hand
    res = pa.alpha(SETS, "weighted_dice", weights=ELEMENT_WEIGHTS)
    assert res.alpha == pytest.approx(float(hand), abs=1e-12)
    assert res.alpha == pytest.approx(1 - 240 / 394.8, abs=1e-12)


def test_weighted_jaccard_alpha_by_hand():
    # d(ab, a) = 1/4, d(a, bc) = 1: O = 2.5, D_o = 5/12. Expected pairs:
    # 2 * [2*(1/4) + 2*1 + 1*(5/6) + 4*1 + 2*1 + 2*(1/3)] = 20, D_e = 2/3 -> alpha = 3/8.
    assert _alpha_by_pairs(SETS, _wjaccard) == Fraction(3, 8)
    res = pa.alpha(SETS, "weighted_jaccard", weights=ELEMENT_WEIGHTS)
    assert res.alpha == pytest.approx(0.375, abs=1e-12)


@pytest.mark.parametrize(
    ("weighted", "plain"), [("weighted_dice", "dice"), ("weighted_jaccard", "jaccard")]
)
def test_unit_weights_reduce_to_plain_set_distances(weighted, plain):
    ones = dict.fromkeys("abc", 1)
    got = pa.alpha(SETS, weighted, weights=ones).alpha
    assert got == pytest.approx(pa.alpha(SETS, plain).alpha)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(st.frozensets(st.sampled_from("abcd"), min_size=1), min_size=2, max_size=3),
        min_size=2,
        max_size=6,
    ),
    st.dictionaries(st.sampled_from("abcd"), st.integers(1, 5), min_size=4, max_size=4),
)
def test_weighted_distances_alpha_brute_force(units, weights):
    df = pd.DataFrame(
        [(u, f"c{j}", v) for u, vals in enumerate(units) for j, v in enumerate(vals)],
        columns=["unit", "coder", "value"],
    )

    def wsize(s):
        return sum(Fraction(weights[e]) for e in s)

    def wd(x, y):
        return 1 - 2 * wsize(x & y) / (wsize(x) + wsize(y))

    def wj(x, y):
        return 1 - wsize(x & y) / wsize(x | y)

    for name, delta in (("weighted_dice", wd), ("weighted_jaccard", wj)):
        values = {frozenset(v) for v in df["value"]}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            got = pa.alpha(df, name, weights=weights).alpha
        if len(values) == 1 or all(delta(x, y) == 0 for x in values for y in values):
            assert np.isnan(got)
        else:
            assert got == pytest.approx(float(_alpha_by_pairs(df, delta)), abs=1e-9)


def test_weighted_dice_alpha_needs_weights():
    message = "`distance` 'weighted_dice' needs element weights"
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        pa.alpha(SETS, "weighted_dice")
