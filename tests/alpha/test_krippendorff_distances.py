"""Distances: published values, edge cases of sets, registry, hypothesis properties."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree import distances as D
from pandas_agree.errors import InvalidParameterError, UnknownDistanceError

SET_DISTANCES = [D.jaccard, D.dice, D.masi, D.masi_dice, D.masi_jaccard]
sets = st.frozensets(st.integers(0, 6), max_size=5)


def _frac(x: float) -> Fraction:
    return Fraction(x).limit_denominator(1000)


@pytest.mark.parametrize(
    ("a", "b", "j", "m"),
    [
        # Passonneau (2006), section 3.3, Figure 2: J = 2/3 for columns x, y and 1/3 for z;
        # M = 2/3 (subset) in every column.
        pytest.param("xy", "xyz", Fraction(2, 3), Fraction(2, 3), id="fig2-x"),
        pytest.param("x", "xyz", Fraction(1, 3), Fraction(2, 3), id="fig2-z"),
        # Figure 3, column y: {x, y} vs {y, z}: J = 1/3, M = 1/3 (overlap).
        pytest.param("xy", "yz", Fraction(1, 3), Fraction(1, 3), id="fig3-y"),
        # Identical and disjoint sets.
        pytest.param("xy", "xy", Fraction(1), Fraction(1), id="equal"),
        pytest.param("x", "z", Fraction(0), Fraction(0), id="disjoint"),
    ],
)
def test_masi_terms_passonneau_2006(a, b, j, m):
    assert _frac(1 - D.jaccard(set(a), set(b))) == j
    assert _frac(1 - D.masi(set(a), set(b))) == j * m


def test_masi_dice_penalty_table_pyramid_report():
    # Passonneau (2005), pyramid report, Figure 2: P = 0 equal, 1/3 subsumes, 2/3 overlap,
    # 1 disjoint; MASI = (1 - Dice) * P.
    assert D.masi_dice({1, 2}, {1, 2}) == 0
    assert _frac(D.masi_dice({1, 2}, {1, 2, 3, 4})) == Fraction(1, 3) * Fraction(1, 3)
    assert _frac(D.masi_dice({1, 2}, {2, 3})) == Fraction(2, 3) * Fraction(1, 2)
    assert D.masi_dice({1}, {2}) == 1
    assert _frac(D.masi_jaccard({1, 2}, {2, 3})) == Fraction(2, 3) * Fraction(2, 3)


@pytest.mark.parametrize("d", SET_DISTANCES, ids=lambda f: f.__name__)
def test_empty_set_rules(d):
    assert d(set(), set()) == 0
    assert d(set(), {1}) == 1
    assert d({1, 2}, set()) == 1


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@pytest.mark.parametrize("d", SET_DISTANCES, ids=lambda f: f.__name__)
@settings(max_examples=200, deadline=None)
@given(a=sets, b=sets)
def test_set_distance_properties(d, a, b):
    value = d(a, b)
    assert d(a, a) == 0
    assert value == d(b, a)
    assert 0 <= value <= 1
    if a != b and not (a & b):
        assert value == 1


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=200, deadline=None)
@given(a=sets, b=sets)
def test_masi_between_jaccard_and_one(a, b):
    # M <= 1, so MASI distance >= Jaccard distance.
    assert D.masi(a, b) >= D.jaccard(a, b) - 1e-15


def test_scalar_distances():
    assert D.nominal(1, 1) == 0 and D.nominal(1, 2) == 1
    assert D.interval(2, 5) == 9
    assert D.ratio(0, 0) == 0 and D.ratio(1, 3) == 0.25
    # Krippendorff (2011), section C, ordinal metric with n = (9, 13, 10, 5, 3):
    # delta_12 = (9 + 13 - (9 + 13)/2)^2 = 11^2 = 121.
    freq = {1: 9, 2: 13, 3: 10, 4: 5, 5: 3}
    assert D.ordinal(1, 2, frequencies=freq) == 121
    assert D.ordinal(2, 2, frequencies=freq) == 0
    with pytest.raises(InvalidParameterError, match="keys of `frequencies`"):
        D.ordinal(1, 9, frequencies=freq)


def test_set_function_rejects_scalars():
    with pytest.raises(InvalidParameterError, match="`a` must be a set"):
        D.jaccard("ab", {"a"})


def test_registry_names_and_errors():
    names = pa.available_distances()
    for n in [
        "nominal",
        "ordinal",
        "interval",
        "ratio",
        "jaccard",
        "dice",
        "masi",
        "masi_dice",
        "masi_jaccard",
        "weighted_dice",
        "weighted_jaccard",
    ]:
        assert n in names
    with pytest.raises(UnknownDistanceError, match="got 42"):
        D.get_distance(42)
    with pytest.raises(InvalidParameterError, match="built-in"):
        pa.register_distance("masi", lambda a, b: 0.0)
    with pytest.raises(InvalidParameterError, match="must be callable"):
        pa.register_distance("thing", 3)


def test_register_and_use_custom_distance():
    name = "test_squared"
    pa.register_distance(name, lambda a, b: float((a - b) ** 2), overwrite=True)
    with pytest.raises(InvalidParameterError, match="already registered"):
        pa.register_distance(name, lambda a, b: 0.0)
    df = pa.datasets.krippendorff_2011()
    assert pa.alpha(df, name).alpha == pytest.approx(pa.alpha(df, "interval").alpha)
    assert pa.alpha(df, name).distance == name


def test_register_vectorised_distance():
    vec = pa.Distance("abs", "numeric", lambda a, b: abs(a - b), lambda x, y: np.abs(x - y))
    pa.register_distance("test_abs", vec, overwrite=True)
    df = pa.datasets.krippendorff_2011()
    slow = pa.alpha(df, lambda a, b: float(abs(a - b))).alpha
    assert pa.alpha(df, "test_abs").alpha == pytest.approx(slow, abs=1e-12)


def test_weighted_distances_with_unit_weights_equal_plain():
    df = pa.datasets.masi_figures()
    for _, g in df.groupby("figure"):
        one = {e: 1.0 for s in g.value for e in s}
        assert pa.alpha(g, "weighted_dice", weights=one).alpha == pytest.approx(
            pa.alpha(g, "dice").alpha
        )
        assert pa.alpha(g, "weighted_jaccard", weights=lambda e: 2.5).alpha == pytest.approx(
            pa.alpha(g, "jaccard").alpha
        )


def test_weighted_dice_plain_function_by_hand():
    # w(A & B) = 3, w(A) = 4, w(B) = 3: 1 - 6/7.
    assert D.weighted_dice({"a", "b"}, {"a"}, weights={"a": 3, "b": 1}) == pytest.approx(1 / 7)


@pytest.mark.slow  # ~1,000 distinct sets through a Python callable: a million calls
def test_large_set_domain_uses_sparse_blocks_and_agrees_with_dense():
    # Many distinct sets (chains of a coreference-like task): the blocked sparse path must
    # give the alpha a plain callable gives.
    rng = np.random.default_rng(1)
    rows = []
    for doc in range(150):
        members = [f"{doc}-{i}" for i in range(rng.integers(2, 6))]
        for m in members:
            for coder in ("a", "b"):
                keep = [x for x in members if x != m and rng.random() < 0.8]
                rows.append((m, coder, frozenset(keep)))
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    for name in ("jaccard", "masi", "masi_dice"):
        fast = pa.alpha(df, name).alpha
        slow = pa.alpha(df, getattr(D, name)).alpha
        assert fast == pytest.approx(slow, abs=1e-12), name
