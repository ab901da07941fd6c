"""Custom distances, ordinal order, numeric range, owned fits.

Published values used throughout: Krippendorff (2011), "Computing Krippendorff's
Alpha-Reliability", section C (also Krippendorff 2019, Content Analysis 4th ed., p. 290):
on the bundled 4 coders x 12 units example, nominal .743, ordinal .815, interval .849 and
ratio .797. Every check of a transformed copy of that example (strings with an order,
values shifted by 10**17, scaled by 1e200, ...) must give the published value again,
because ordinal alpha depends only on the rank order and interval alpha is invariant under
shifts and (with ratio) under a common scale (Krippendorff 2011, sections E and F: the
metrics are differences, resp. ratios of differences, of the values).

Each regression test names what main did before the fix.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree.errors import InvalidParameterError, ValueTypeError
from pandas_agree.krippendorff.distances import Distance, register_distance

KRIPP = pa.datasets.krippendorff_2011
PUBLISHED = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}


def _kripp_with(values) -> pd.DataFrame:
    """Krippendorff's example with each value v (1..5) replaced by ``values[v]``."""
    df = KRIPP()
    mapped = [values[v] for v in df["value"]]
    if isinstance(values, dict) and all(isinstance(v, np.generic) for v in values.values()):
        mapped = np.array(mapped, dtype=next(iter(values.values())).dtype)
    return df.assign(value=mapped)


# ---------------------------------------------------------------------------------------------
# Brute force from the definition (Krippendorff 2011, section A), exact with Fractions.


def _pairable(df: pd.DataFrame) -> list[list]:
    units: dict = {}
    for u, v in zip(df["unit"], df["value"]):
        units.setdefault(u, []).append(v)
    return [vals for vals in units.values() if len(vals) >= 2]


def definition_alpha(df: pd.DataFrame, delta) -> float:
    """alpha = 1 - D_o / D_e over the pairable values, ``delta`` exact (Fractions)."""
    units = _pairable(df)
    pooled = [v for vals in units for v in vals]
    n = len(pooled)
    d_o = (
        sum(
            Fraction(
                sum(delta(a, b) for i, a in enumerate(vals) for j, b in enumerate(vals) if i != j)
            )
            / (len(vals) - 1)
            for vals in units
        )
        / n
    )
    d_e = Fraction(
        sum(delta(a, b) for i, a in enumerate(pooled) for j, b in enumerate(pooled) if i != j)
    ) / (n * (n - 1))
    return float(1 - d_o / d_e)


def exact_interval(a, b) -> Fraction:
    return (
        Fraction(int(a) if isinstance(a, (int, np.integer)) else a)
        - Fraction(int(b) if isinstance(b, (int, np.integer)) else b)
    ) ** 2


def exact_ordinal(df: pd.DataFrame):
    """Krippendorff's ordinal metric (2011, section E) from the pairable frequencies."""
    pooled = [int(v) for vals in _pairable(df) for v in vals]
    order = sorted(set(pooled))
    freq = {v: pooled.count(v) for v in order}
    pos = {}
    total = Fraction(0)
    for v in order:
        pos[v] = total + Fraction(freq[v], 2)
        total += freq[v]
    return lambda a, b: (pos[int(a)] - pos[int(b)]) ** 2


# ---------------------------------------------------------------------------------------------
# Item 4: custom distances are checked on the value domain


def test_callable_interval_matches_published():
    # Krippendorff (2011) section C: interval alpha .849 with delta = (a - b) ** 2.
    assert round(pa.alpha(KRIPP(), lambda a, b: (a - b) ** 2).alpha, 3) == 0.849


@pytest.mark.parametrize(
    ("func", "match"),
    [
        # main returned NaN with "every pairable value is the same" for this one
        pytest.param(
            lambda a, b: float(max(a - b, 0)),
            r"must be symmetric, got d\(1, 2\) = 0\.0 but d\(2, 1\) = 1\.0",
            id="asymmetric",
        ),
        pytest.param(lambda a, b: 1.0, r"d\(a, a\) = 0, got d\(1, 1\) = 1\.0", id="diagonal"),
        pytest.param(
            lambda a, b: -abs(a - b), r"finite non-negative.*d\(1, 2\) = -1\.0", id="negative"
        ),
        pytest.param(
            lambda a, b: math.inf if a != b else 0.0,
            r"finite non-negative.*d\(1, 2\) = inf",
            id="infinite",
        ),
        pytest.param(
            lambda a, b: math.nan if {a, b} == {3, 4} else float(a != b),
            r"finite non-negative.*d\(3, 4\) = nan",
            id="nan",
        ),
        pytest.param(lambda a, b: "far", r"must return numbers, got", id="not-a-number"),
    ],
)
def test_bad_callable_raises_with_the_pair(func, match):
    with pytest.raises(InvalidParameterError, match=match):
        pa.alpha(KRIPP(), func)


def test_callable_that_raises_becomes_a_typed_error():
    # main: the user's TypeError escaped from deep inside alpha.
    df = _kripp_with(WORDS)
    with pytest.raises(InvalidParameterError, match=r"'<lambda>' raised TypeError on the values"):
        pa.alpha(df, lambda a, b: abs(a - b))

    def broken(x, y):
        raise RuntimeError("no kernel today")

    with pytest.raises(InvalidParameterError, match=r"'mine' raised RuntimeError.*no kernel"):
        pa.alpha(KRIPP(), _numeric(broken))


def test_bad_registered_callable_raises_through_report():
    register_distance("one_way_g2", lambda a, b: float(max(a - b, 0)), overwrite=True)
    df = KRIPP().assign(g=lambda d: d["unit"] % 2)
    with pytest.raises(InvalidParameterError, match="must be symmetric"):
        pa.report(df, "one_way_g2", by="g")


def _numeric(kernel):
    return Distance("mine", "numeric", lambda a, b: float(kernel(np.array(a), np.array(b))), kernel)


def test_numeric_kernel_matches_published():
    # (x - y) ** 2 as a vectorised kernel is the interval metric: .849 (Krippendorff 2011).
    res = pa.alpha(KRIPP(), _numeric(lambda x, y: (x - y) ** 2))
    assert round(res.alpha, 3) == 0.849


@pytest.mark.parametrize(
    ("kernel", "match"),
    [
        pytest.param(lambda x, y: np.abs(x - y)[:1], r"one value per pair \(shape", id="shape"),
        pytest.param(lambda x, y: np.abs(x - y).sum(), r"one value per pair", id="scalar"),
        pytest.param(lambda x, y: x - y, r"finite non-negative.*d\(1, 2\) = -1\.0", id="negative"),
        pytest.param(
            lambda x, y: np.where(x + y == 7, np.nan, np.abs(x - y)),
            r"finite non-negative.*= nan",
            id="nan",
        ),
        pytest.param(
            lambda x, y: np.abs(x - y) + (x == 1), r"d\(a, a\) = 0, got d\(1, 1\) = 1\.0", id="diag"
        ),
        pytest.param(
            lambda x, y: np.maximum(x - y, 0) + np.maximum(y - x, 0) * 2.0,
            r"must be symmetric",
            id="asymmetric",
        ),
    ],
)
def test_bad_numeric_kernel_raises(kernel, match):
    # main: the wrong shape broadcast silently or crashed; negatives and NaN gave a wrong alpha.
    with pytest.raises(InvalidParameterError, match=match):
        pa.alpha(KRIPP(), _numeric(kernel))


def _sets(df: pd.DataFrame) -> pd.DataFrame:
    return df.assign(value=[frozenset({v, v + 10}) if v % 2 else frozenset({v}) for v in df.value])


def test_user_set_kernel_matches_builtin_jaccard():
    # A user Jaccard kernel and the built-in agree (two implementations of Jaccard 1908).
    def mine(inter, na, nb):
        union = na + nb - inter
        return 1.0 - np.divide(inter, union, out=np.ones(np.shape(inter)), where=union != 0)

    df = _sets(KRIPP())
    user = pa.alpha(df, Distance("mine", "set", pa.distances.jaccard, mine)).alpha
    assert user == pytest.approx(pa.alpha(df, "jaccard").alpha, abs=1e-12)


@pytest.mark.parametrize(
    ("kernel", "match"),
    [
        pytest.param(
            lambda i, a, b: 1 - i / np.maximum(a, 1),
            r"d\(a, a\) = 0, got d\(\|A & B\| = 0, \|A\| = 0, \|B\| = 0\) = 1\.0",
            id="diag",
        ),
        pytest.param(
            lambda i, a, b: np.where(i == np.maximum(a, b), 0.0, 1 - i / np.maximum(a, 1)),
            r"must be symmetric",
            id="asymmetric",
        ),
        pytest.param(
            lambda i, a, b: np.where(i == np.minimum(a, b), 0.0, np.nan) * (a != b),
            r"finite non-negative",
            id="nan",
        ),
        pytest.param(lambda i, a, b: np.zeros(3), r"one value per pair", id="shape"),
    ],
)
def test_bad_set_kernel_raises(kernel, match):
    with pytest.raises(InvalidParameterError, match=match):
        pa.alpha(_sets(KRIPP()), Distance("mine", "set", pa.distances.jaccard, kernel))


def test_unknown_kind_and_missing_kernel_raise_at_construction():
    # main: an unknown kind ran as a callable (or gave NaN); kernel=None raised a raw
    # TypeError ("'NoneType' object is not callable") deep inside alpha.
    with pytest.raises(InvalidParameterError, match=r"`kind` must be one of .*got 'numerik'"):
        Distance("x", "numerik", lambda a, b: abs(a - b))
    for kind in ("numeric", "set"):
        with pytest.raises(InvalidParameterError, match=rf"`kernel` .*kind='{kind}', got None"):
            Distance("x", kind, lambda a, b: abs(a - b))
    with pytest.raises(InvalidParameterError, match=r"`func` must be callable, got 3"):
        Distance("x", "callable", 3)


# ---------------------------------------------------------------------------------------------
# Item 5: ordinal needs an order


WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}  # alphabetical != rank order


def test_ordinal_on_unordered_strings_raises():
    # main: ranked "five" < "four" < "one" < "three" < "two" and returned a wrong alpha.
    df = _kripp_with(WORDS)
    with pytest.raises(ValueTypeError, match=r"'ordinal' needs values with an order.*categories="):
        pa.alpha(df, "ordinal")
    unordered = df.assign(value=pd.Categorical(df["value"]))
    with pytest.raises(ValueTypeError, match=r"ordered\s+Categorical"):
        pa.alpha(unordered, "ordinal")


@pytest.mark.slow
@pytest.mark.parametrize("route", ["report", "accessor", "dask", "xarray"])
def test_ordinal_on_unordered_strings_raises_on_every_route(route):
    # An unordered categorical of labels (main ranked it alphabetically on every route).
    df = _kripp_with(WORDS)
    df = df.assign(value=pd.Categorical(df["value"]))
    with pytest.raises(ValueTypeError, match="needs values with an order"):
        if route == "report":
            pa.report(df.assign(g=df["unit"] % 2), "ordinal", by="g")
        elif route == "accessor":
            df.agree.alpha("ordinal")
        elif route == "dask":
            dd = pytest.importorskip("dask.dataframe")
            dd.from_pandas(df, npartitions=2).agree.alpha("ordinal")
        else:
            xr = pytest.importorskip("xarray")
            mat = pa.matrix(df.assign(value=df["value"].astype(object)))
            da = xr.DataArray(mat.to_numpy(dtype=object), dims=("coder", "unit"))
            da.agree.alpha("ordinal")


def test_ordinal_with_an_explicit_order_matches_published():
    # Krippendorff (2011) section C: ordinal .815, whichever way the order is given.
    df = _kripp_with(WORDS)
    order = [WORDS[v] for v in range(1, 6)]
    assert round(pa.alpha(df, "ordinal", categories=order).alpha, 3) == 0.815
    ordered = df.assign(value=pd.Categorical(df["value"], categories=order, ordered=True))
    assert round(pa.alpha(ordered, "ordinal").alpha, 3) == 0.815
    # Numbers carry their order, as does an unordered categorical of numbers.
    assert round(pa.alpha(KRIPP(), "ordinal").alpha, 3) == 0.815
    numbers = KRIPP().assign(value=lambda d: pd.Categorical(d["value"]))
    assert round(pa.alpha(numbers, "ordinal").alpha, 3) == 0.815


# ---------------------------------------------------------------------------------------------
# Item 7: numeric range


@pytest.mark.parametrize("distance", ["interval", "ratio"])
@pytest.mark.parametrize("factor", [1e200, 1e-200, 2.0**-1000, 1e300], ids=str)
def test_scale_invariance_far_from_one(distance, factor):
    # main: NaN without a reason at 1e200 (squares overflow); 0 * ... at 1e-200.
    df = KRIPP().assign(value=lambda d: d["value"] * factor)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow or degenerate-data warning either
        res = pa.alpha(df, distance)
    assert round(res.alpha, 3) == PUBLISHED[distance]
    assert res.alpha == pytest.approx(pa.alpha(KRIPP(), distance).alpha, rel=1e-12)


def test_scaled_values_say_so_in_the_reason():
    res = pa.alpha(KRIPP().assign(value=lambda d: d["value"] * 1e200), "interval")
    assert "divided by 2**" in res.reason and "scale-invariant" in res.reason


@pytest.mark.parametrize("distance", ["interval", "ordinal", "ratio"])
def test_int64_near_1e17_keeps_differences(distance):
    # main: interval NaN with the false reason "every pairable value is the same".
    df = KRIPP().assign(value=lambda d: d["value"].astype(np.int64) + 10**17)
    res = pa.alpha(df, distance)
    if distance == "ratio":  # not shift-invariant: the exact definition is the oracle
        expected = definition_alpha(
            df, lambda a, b: Fraction(int(a) - int(b), int(a) + int(b)) ** 2
        )
        assert res.alpha == pytest.approx(expected, rel=1e-9)
    else:
        assert round(res.alpha, 3) == PUBLISHED[distance]
        assert res.alpha == pytest.approx(pa.alpha(KRIPP(), distance).alpha, rel=1e-12)
    assert res.reason is None


@pytest.mark.parametrize(
    "values",
    [
        # All at or above 2**63 (negative when misread as int64).
        {v: np.uint64(2**63 + 3 * v) for v in range(1, 6)},
        # Straddling 2**63: a signed cast would put the last two first.
        {v: np.uint64(2**63 - 6 + 3 * v) for v in range(1, 6)},
        {v: np.uint64(2**64 - 20 + 3 * v) for v in range(1, 6)},
        # 0 .. 2 and 2**64 - 2 .. 2**64 - 1: as intp the top two wrap to -2, -1 and main's
        # small-range coder ranked them first (ordinal .797 instead of .815).
        {
            1: np.uint64(0),
            2: np.uint64(1),
            3: np.uint64(2),
            4: np.uint64(2**64 - 2),
            5: np.uint64(2**64 - 1),
        },
    ],
    ids=["above", "straddling", "top", "wrapping"],
)
def test_uint64_above_2_63(values):
    df = _kripp_with(values)
    assert df["value"].dtype == np.uint64
    # Ordinal ranks by value: .815.
    assert round(pa.alpha(df, "ordinal").alpha, 3) == 0.815
    # Interval against the exact definition (for evenly spaced values: .849 again, as
    # 3 * the original spacing; main: NaN, the values collapsed in float64).
    res = pa.alpha(df, "interval")
    assert res.alpha == pytest.approx(definition_alpha(df, exact_interval), rel=1e-9)


def test_int64_extreme_range_exact_against_fractions():
    # Values at both ends of int64: centring cannot keep every difference in float64 here
    # (they span 2**64 - 1), but the alpha is still right to float precision.
    values = {1: -(2**63), 2: -(2**62), 3: 0, 4: 2**62, 5: 2**63 - 1}
    df = _kripp_with({k: np.int64(v) for k, v in values.items()})
    res = pa.alpha(df, "interval")
    assert res.alpha == pytest.approx(definition_alpha(df, exact_interval), rel=1e-12)
    assert "more than float64 holds exactly" in res.reason and "approximate" in res.reason


def test_collapsed_integers_say_so_in_the_reason():
    # 2**62 and 2**62 + 1 cannot both be held once the range is 2**63: alpha is approximate
    # and the reason says so (main: no word, or the false "every value is the same").
    values = {1: 0, 2: 2**62, 3: 2**62 + 1, 4: 2**63, 5: 2**63 + 2}
    df = _kripp_with({k: np.uint64(v) for k, v in values.items()})
    res = pa.alpha(df, "interval")
    assert "more than float64 holds exactly" in res.reason
    assert res.alpha == pytest.approx(definition_alpha(df, exact_interval), rel=1e-9)


@pytest.mark.parametrize("route", ["dask", "xarray", "report"])
@pytest.mark.parametrize(
    "values",
    [
        {v: np.int64(10**17 + v) for v in range(1, 6)},
        {v: v * 1e200 for v in range(1, 6)},
        {v: np.uint64(2**63 + 3 * v) for v in range(1, 6)},
    ],
    ids=["int64-1e17", "float-1e200", "uint64-2**63"],
)
@pytest.mark.slow
def test_numeric_range_on_every_route(route, values):
    # Interval .849 (Krippendorff 2011): the shift, the scale and the uint64 spacing of 3
    # change nothing, whichever route computes it.
    df = _kripp_with(values)
    if route == "dask":
        dd = pytest.importorskip("dask.dataframe")
        res = dd.from_pandas(df, npartitions=3).agree.alpha("interval")
    elif route == "xarray":
        xr = pytest.importorskip("xarray")
        mat = pa.matrix(df)
        if df["value"].dtype.kind in "iu":
            pytest.skip("the reliability matrix of an integer column is float (NaN cells)")
        res = xr.DataArray(mat.to_numpy(), dims=("coder", "unit")).agree.alpha("interval")
    else:
        rep = pa.report(df.assign(g="all"), "interval", by="g")
        assert rep.loc["all", "interval"] == pytest.approx(PUBLISHED["interval"], abs=5e-4)
        return
    assert round(float(res), 3) == PUBLISHED["interval"]


@pytest.mark.parametrize(
    ("pairable", "other"),
    [
        ([0.0, 1e-200], 1.0),  # the differences in use would underflow at the domain's scale
        ([0.0, 1e-200], 1e200),  # ... or once the domain is scaled down
        ([0.0, 1.0], 1e200),  # ... or vanish next to a huge unpaired value
        ([10**17, 10**17 + 1], 2**62 + 3),  # int64: one centre cannot hold both
    ],
    ids=["tiny-next-to-1", "tiny-next-to-1e200", "one-next-to-1e200", "int64-1e17-next-to-2**62"],
)
@pytest.mark.filterwarnings("ignore::pandas_agree.errors.DegenerateDataWarning")  # group g2
def test_values_in_use_set_the_precision(pairable, other):
    # Unit 1 has one value, so it is not pairable: alpha depends on unit 0 only, where the two
    # coders disagree and D_o = D_e: alpha = 0
    # (Krippendorff 2011: a single pairable unit with two different values). In a report
    # the same unit 0 sits in its own group next to the other value.
    df = pd.DataFrame(
        {"unit": [0, 0, 1], "coder": ["a", "b", "a"], "value": [*pairable, other], "g": "g1"}
    )
    assert pa.alpha(df, "interval").alpha == 0.0
    both = pd.concat([df, df.assign(g="g2", value=[other, other, other])], ignore_index=True)
    rep = pa.report(both, "interval", by="g")
    assert rep.loc["g1", "interval"] == 0.0


small_ints = st.integers(min_value=-50, max_value=50)


@st.composite
def reliability_data(draw, values=small_ints):
    n_units = draw(st.integers(2, 6))
    coders = ["a", "b", "c"]
    rows = []
    for u in range(n_units):
        for c in coders:
            if draw(st.booleans()) or c in ("a", "b"):
                rows.append((u, c, draw(values)))
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


def _alpha(df, distance):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pa.errors.DegenerateDataWarning)
        return pa.alpha(df, distance).alpha


def _same(a, b, rel=0.0):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b if rel == 0 else a == pytest.approx(b, rel=rel, abs=rel)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(df=reliability_data(), shift=st.integers(-(2**62), 2**62))
def test_interval_shift_invariance_int64(df, shift):
    shifted = df.assign(value=df["value"].astype(np.int64) + np.int64(shift))
    # Centring is exact on integers: the same differences, so alpha to rounding (the
    # unshifted values straddle 0 and are used as they are, the shifted ones centred).
    assert _same(_alpha(shifted, "interval"), _alpha(df, "interval"), rel=1e-12)
    assert _same(_alpha(shifted, "ordinal"), _alpha(df, "ordinal"))  # ranks: exactly


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    df=reliability_data(st.integers(1, 60)),
    k=st.one_of(
        st.sampled_from([2.0**-900, 2.0**700, 1e-150, 1e150, 3.0, 1e200, 1e-200]),
        st.floats(1e-250, 1e250),
    ),
    distance=st.sampled_from(["interval", "ratio"]),
)
@pytest.mark.slow
def test_scale_invariance(df, k, distance):
    scaled = df.assign(value=df["value"].astype(float) * k)
    assert _same(_alpha(scaled, distance), _alpha(df, distance), rel=1e-9)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(df=reliability_data(st.integers(0, 9)))
def test_int64_near_1e17_against_fractions(df):
    big = df.assign(value=df["value"].astype(np.int64) + 10**17)
    if not _pairable(big) or len({v for vals in _pairable(big) for v in vals}) < 2:
        return  # D_e = 0: covered by the degenerate-data tests
    assert _alpha(big, "interval") == pytest.approx(
        definition_alpha(big, exact_interval), rel=1e-12, abs=1e-12
    )
    assert _alpha(big, "ordinal") == pytest.approx(
        definition_alpha(big, exact_ordinal(big)), rel=1e-12, abs=1e-12
    )


# ---------------------------------------------------------------------------------------------
# Item 8: a result owns its data


def _clustered() -> pd.DataFrame:
    df = KRIPP()
    return df.assign(docset=np.where(df["unit"] <= 6, "d1", "d2"))


def _cluster_ci(res, cluster="docset"):
    return res.confidence_interval(0.95, method="clusters", n_boot=200, rng=3, cluster=cluster)


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
@pytest.mark.filterwarnings("ignore:The inplace keyword")
@pytest.mark.parametrize("change", ["sort", "drop", "overwrite", "relabel"])
def test_cluster_interval_after_the_frame_changes(change):
    # main: the result kept the caller's frame; after sorting it in place the cluster
    # labels no longer lined up with the codes ("not constant within a unit"); after
    # dropping rows, an IndexError.
    df = _clustered()
    res = pa.alpha(df, "interval")
    before = _cluster_ci(res)
    if change == "sort":
        df.sort_values(["value", "coder"], inplace=True)
    elif change == "drop":
        df.drop(index=df.index[:10], inplace=True)
    elif change == "overwrite":
        df.loc[:, "docset"] = "other"
    else:
        df["docset"] = df["docset"].map({"d1": "d2", "d2": "d1"})
    after = _cluster_ci(res)
    assert (after.low, after.high) == (before.low, before.high)
    assert res.fit.source is not df


def test_cluster_series_in_another_order_is_aligned_by_label():
    df = _clustered()
    res = pa.alpha(df, "interval")
    shuffled = df["docset"].sample(frac=1.0, random_state=0)
    a, b = _cluster_ci(res, df["docset"]), _cluster_ci(res, shuffled)
    assert (a.low, a.high) == (b.low, b.high)


@pytest.mark.parametrize("distance", ["nominal", "ordinal", "interval", "ratio"])
def test_alpha_does_not_mutate_the_callers_frame(distance):
    df = _clustered()
    kept = df.copy(deep=True)
    res = pa.alpha(df, distance)
    pa.report(df, distance, by="docset")
    _cluster_ci(res)
    pd.testing.assert_frame_equal(df, kept)
