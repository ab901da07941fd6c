"""Messy long frames: a typed error, or alpha equal to the definition.

hypothesis draws long frames with missing ratings, mixed scalars and sets, empty sets, huge
and tiny numbers, int64 values near 10**17, unicode and whitespace labels (composed and
decomposed accents, trailing blanks, the *string* ``"NA"``), and the same unit ids in
different groups. For each, ``alpha`` and ``report(by=...)`` must either raise an exception
defined in :mod:`pandas_agree.errors` or return the alpha computed here from Krippendorff's
definition (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", section A):

    alpha = 1 - D_o / D_e,  D_o = (1/n) sum_u sum_{i != j in u} delta(v_i, v_j) / (m_u - 1),
    D_e = (1 / (n (n - 1))) sum_{i != j} delta(v_i, v_j)

over the pairable values (units with m_u >= 2; n of them), with exact Fractions and every
pair of values visited (no coincidence matrix, no closed form). The metrics: nominal,
interval (a - b)^2, ordinal (section E: squared differences of cumulative mid-frequencies),
Jaccard (1908) and MASI (Passonneau 2006, section 3.3: 1 - J * M, M = 1, 2/3, 1/3, 0).
A missing element inside a set raises :class:`~pandas_agree.errors.MissingInSetError`.
The caller's frame (including the set objects in its cells) is never modified.
"""

from __future__ import annotations

import copy
import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree import errors
from pandas_agree.errors import DuplicateRatingError, MissingInSetError, NoPairableUnitsError

DISTANCES = ["nominal", "interval", "ordinal", "jaccard", "masi"]

# Labels that look alike but differ, and the string "NA" (a label, not a missing value).
LABELS = ["a", "a ", " a", "A", "\u00e5", "a\u030a", "NA", "", "\u00fc ber", "\u65e5\u672c", "x"]
NUMBERS = [0.0, 1.0, -2.5, 3.0, 1e200, -1e200, 1e-200, 3e-300, 7.25]
BIG_INTS = [10**17 + k for k in (0, 1, 2, 5)] + [2**62 + 3]
ELEMENTS = ["a", "a ", "b", "\u00e5", "NA", 1, 2]
UNITS = [0, 1, "u", "u ", "\u00fc"]
CODERS = ["c1", "c1 ", "NA", "\u00e9", "e\u0301"]


def _missing(v) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def _set_cells(elements):
    one = st.lists(st.sampled_from(elements), max_size=3)
    return st.one_of(
        one.map(frozenset),
        one.map(set),
        one.map(list),
        one.map(tuple),
        st.just(frozenset()),
    )


def _values(kind: str, missing_in_sets: bool = False):
    missing = [None, np.nan]  # about one cell in six is missing
    if kind == "labels":
        return st.sampled_from([*LABELS, *missing])
    if kind == "numbers":
        return st.sampled_from([*NUMBERS, *missing])
    if kind == "big_ints":
        return st.sampled_from(BIG_INTS)  # no missing: the column stays int64
    elements = [*ELEMENTS, None, np.nan] if missing_in_sets else ELEMENTS
    if kind == "sets":
        return st.one_of(_set_cells(elements), st.sampled_from(missing))
    # "mixed": scalars and sets in one column
    return st.one_of(_set_cells(elements), st.sampled_from([*LABELS[:4], 1, 2, *missing]))


@st.composite
def messy_frames(draw, missing_in_sets: bool = False):
    kinds = ["labels", "numbers", "big_ints", "sets", "mixed"]
    kind = "sets" if missing_in_sets else draw(st.sampled_from(kinds))
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(UNITS), st.sampled_from(CODERS)),
            min_size=3,
            max_size=16,
            unique=True,
        )
    )
    keys = [(draw(st.sampled_from(["g1", "g2"])), u, c) for u, c in pairs]
    if draw(st.integers(0, 2)) == 0:
        # The same unit ids (even the same coder) in the other group: one unit to alpha
        # (a duplicate rating), two units to report(by="g").
        for g, u, c in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
            keys.append(("g2" if g == "g1" else "g1", u, c))
    cells = [draw(_values(kind, missing_in_sets)) for _ in keys]
    value = pd.Series(cells, dtype=object)
    if kind == "big_ints":
        value = pd.Series(cells, dtype=np.int64)
    elif kind == "numbers":
        value = pd.Series([np.nan if _missing(v) else v for v in cells], dtype=float)
    elif kind == "labels" and draw(st.booleans()):
        value = pd.Series(cells, dtype="str")  # pandas' string dtype (missing -> NaN)
    frame = pd.DataFrame(
        {
            "g": [k[0] for k in keys],
            "unit": pd.Series([k[1] for k in keys], dtype=object),
            "coder": [k[2] for k in keys],
            "value": value,
        }
    )
    # Mostly a distance that fits the values (so alpha is compared), sometimes any.
    fitting = COMPATIBLE[kind] if draw(st.integers(0, 3)) else DISTANCES
    return frame, draw(st.sampled_from(fitting))


COMPATIBLE = {
    "labels": ["nominal", "jaccard", "masi"],
    "numbers": ["interval", "ordinal", "nominal"],
    "big_ints": ["interval", "ordinal", "nominal", "jaccard"],
    "sets": ["nominal", "jaccard", "masi"],
    "mixed": ["jaccard", "masi"],
}


# ---------------------------------------------------------------------------------------------
# The definition, pair by pair


class Refused(Exception):
    """The data cannot be used with the distance (the library must raise a typed error)."""


def _is_set(v) -> bool:
    return isinstance(v, (set, frozenset, list, tuple))


def _as_set(v) -> frozenset:
    return frozenset(v) if _is_set(v) else frozenset([v])


def _number(v) -> Fraction:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise Refused(f"not a number: {v!r}")
    return Fraction(int(v)) if isinstance(v, (int, np.integer)) else Fraction(float(v))


def _jaccard_similarity(a: frozenset, b: frozenset) -> Fraction:
    union = len(a | b)
    return Fraction(1) if union == 0 else Fraction(len(a & b), union)


def _masi(a: frozenset, b: frozenset) -> Fraction:
    if a == b:
        m = Fraction(1)
    elif a & b and (a <= b or b <= a):
        m = Fraction(2, 3)
    elif a & b:
        m = Fraction(1, 3)
    else:
        m = Fraction(0)
    return 1 - _jaccard_similarity(a, b) * m


def definition(rows: list[tuple], distance: str) -> float:
    """Alpha from the definition for rows ``(unit key, value)``; raises Refused or NoPairable."""
    units: dict = {}
    for key, v in rows:
        if not _missing(v):
            units.setdefault(key, []).append(v)
    pairable = [vals for vals in units.values() if len(vals) >= 2]
    present = [v for vals in units.values() for v in vals]
    sets = [_is_set(v) for v in present]
    if distance in ("interval", "ordinal") and any(sets):
        raise Refused("sets under a numeric distance")
    if distance == "nominal" and any(sets) and not all(sets):
        raise Refused("sets mixed with scalars under nominal")
    if distance in ("interval", "ordinal"):
        for v in present:
            _number(v)
    if not pairable:
        raise NoPairableUnitsError("no pairable unit")

    if distance == "nominal":

        def delta(a, b):
            return Fraction(_as_set(a) != _as_set(b) if _is_set(a) else a != b)

    elif distance == "interval":

        def delta(a, b):
            return (_number(a) - _number(b)) ** 2

    elif distance == "ordinal":
        pooled = sorted(_number(v) for vals in pairable for v in vals)
        freq: dict = {}
        for v in pooled:
            freq[v] = freq.get(v, 0) + 1
        position, total = {}, Fraction(0)
        for v in sorted(freq):
            position[v] = total + Fraction(freq[v], 2)
            total += freq[v]

        def delta(a, b):
            return (position[_number(a)] - position[_number(b)]) ** 2

    elif distance == "jaccard":

        def delta(a, b):
            return 1 - _jaccard_similarity(_as_set(a), _as_set(b))

    else:

        def delta(a, b):
            return _masi(_as_set(a), _as_set(b))

    pooled = [v for vals in pairable for v in vals]
    n = len(pooled)

    def pair_sum(vals):
        return sum(
            (delta(a, b) for i, a in enumerate(vals) for j, b in enumerate(vals) if i != j),
            Fraction(0),
        )

    d_o = sum((pair_sum(vals) / (len(vals) - 1) for vals in pairable), Fraction(0)) / n
    d_e = pair_sum(pooled) / (n * (n - 1))
    if d_e == 0:
        return math.nan
    return float(1 - d_o / d_e)


# ---------------------------------------------------------------------------------------------
# The checks


def _typed(exc: BaseException) -> bool:
    return type(exc).__module__ == errors.__name__ and isinstance(exc, (ValueError, TypeError))


def _agrees(ours: float, expected: float) -> bool:
    if math.isnan(expected) or math.isnan(ours):
        return math.isnan(expected) and math.isnan(ours)
    return ours == pytest.approx(expected, rel=1e-9, abs=1e-9)


def _expected(rows, distance):
    try:
        return definition(rows, distance)
    except (Refused, NoPairableUnitsError) as exc:
        return exc


def _check_alpha(df: pd.DataFrame, distance: str) -> None:
    rows = list(zip(df["unit"], df["value"]))
    expected = _expected(rows, distance)
    try:
        ours = pa.alpha(df, distance).alpha
    except Exception as exc:
        assert _typed(exc), f"untyped {type(exc).__name__}: {exc}"
        if isinstance(exc, NoPairableUnitsError):
            assert isinstance(expected, (NoPairableUnitsError, Refused)), expected
        return
    assert not isinstance(expected, BaseException), f"alpha {ours} but {expected!r}"
    assert _agrees(ours, expected), (ours, expected)


def _check_report(df: pd.DataFrame, distance: str) -> None:
    try:
        rep = pa.report(df, distance, by="g")
    except Exception as exc:
        assert _typed(exc), f"untyped {type(exc).__name__}: {exc}"
        return
    groups = {
        label: [((g, u), v) for g, u, v in zip(df["g"], df["unit"], df["value"]) if g == label]
        for label in rep.index
        if label != "pooled"
    }
    groups["pooled"] = [((g, u), v) for g, u, v in zip(df["g"], df["unit"], df["value"])]
    for label, rows in groups.items():
        expected = _expected(rows, distance)
        ours = float(rep.loc[label, distance])
        if isinstance(expected, NoPairableUnitsError):
            assert math.isnan(ours), (label, ours)
            continue
        assert not isinstance(expected, Refused), (label, ours, expected)
        assert _agrees(ours, expected), (label, ours, expected)


def _cells(df: pd.DataFrame) -> dict:
    return {c: [copy.deepcopy(v) for v in df[c]] for c in df.columns}


def _same_cells(a: dict, b: dict) -> bool:
    def same(x, y):
        if _missing(x) and _missing(y):
            return True
        return type(x) is type(y) and x == y

    return a.keys() == b.keys() and all(
        len(a[c]) == len(b[c]) and all(same(x, y) for x, y in zip(a[c], b[c])) for c in a
    )


def _check_case(df: pd.DataFrame, distance: str) -> None:
    before, dtypes, index = _cells(df), df.dtypes.copy(), df.index.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", errors.DegenerateDataWarning)
        _check_alpha(df, distance)
        _check_report(df, distance)
    # Never mutate the caller's frame, its dtypes or the objects in its cells.
    assert _same_cells(before, _cells(df))
    pd.testing.assert_series_equal(df.dtypes, dtypes)
    pd.testing.assert_index_equal(df.index, index)


_SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=60, **_SETTINGS)
@given(case=messy_frames())
def test_messy_frames_typed_error_or_definition(case):
    _check_case(*case)


@pytest.mark.slow
@settings(max_examples=1000, **_SETTINGS)
@given(case=messy_frames())
def test_messy_frames_typed_error_or_definition_many(case):
    _check_case(*case)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=messy_frames(missing_in_sets=True))
def test_missing_inside_sets_raise_missing_in_set_error(case):
    df, distance = case
    cells = [v for v in df["value"] if _is_set(v)]
    has_missing_element = any(any(_missing(e) for e in v) for v in cells)
    before = _cells(df)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", errors.DegenerateDataWarning)
        if has_missing_element:
            # Without groups the repeated unit ids may be duplicate ratings: either error.
            with pytest.raises((MissingInSetError, DuplicateRatingError)) as info:
                pa.alpha(df, distance)
            if info.type is DuplicateRatingError:
                rated = df[[not _missing(v) for v in df["value"]]]
                assert rated.duplicated(["unit", "coder"]).any()
            with pytest.raises(MissingInSetError):
                pa.report(df, distance, by="g")
        else:
            _check_alpha(df, distance)
    assert _same_cells(before, _cells(df))


def test_definition_reproduces_published_values():
    # The brute force itself against Krippendorff (2011), section C: nominal .743, ordinal
    # .815, interval .849 (the worked example bundled as datasets.krippendorff_2011).
    df = pa.datasets.krippendorff_2011()
    rows = list(zip(df["unit"], df["value"]))
    got = {d: round(definition(rows, d), 3) for d in ("nominal", "ordinal", "interval")}
    assert got == {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849}


def test_definition_reproduces_passonneau_masi():
    # Passonneau (2006), Figure 2, column x: J = 2/3 and M = 2/3, MASI similarity 4/9.
    assert 1 - _masi(frozenset("xy"), frozenset("xyz")) == Fraction(4, 9)


@pytest.mark.parametrize("distance", ["jaccard", "masi"])
def test_all_missing_under_a_set_distance_in_a_report(distance):
    # A messy frame once gave a bare ValueError from _core/setpairs.py (reshape of
    # an empty array) before the set code had a guard for an empty domain.
    df = pd.DataFrame(
        {"unit": [0, 0], "coder": ["a", "b"], "value": pd.Series([None, None], dtype=object)}
    )
    with pytest.raises(NoPairableUnitsError):
        pa.alpha(df, distance)
    try:
        rep = pa.report(df.assign(g="g1"), distance, by="g")
    except NoPairableUnitsError:
        return
    assert rep[distance].isna().all()
