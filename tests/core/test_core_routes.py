"""Every route to alpha's sums gives Krippendorff's alpha by its definition.

The library picks among several routes to the same two sums: for the observed term, a
reliability matrix of value codes (few coders), a dense values-by-units table, or sorted
(unit, value) entries listed slot by slot or pair by pair; for set and other tabulated
distances, a V x V table or only the pairs of values that occur. Each test forces one route
and compares it with a direct O(N^2) evaluation of the definition in Krippendorff (2011),
"Computing Krippendorff's Alpha-Reliability", section A:

    D_o = 1/n sum_u 1/(m_u - 1) sum_{i != j in u} delta(v_i, v_j)
    D_e = 1/(n (n - 1)) sum_{i != j, both pairable} delta(v_i, v_j)

over the pairable values (units with m_u >= 2), with the ordinal delta of section E.
"""

from __future__ import annotations

import math
import warnings
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree import distances as D
from pandas_agree._core import counts, kernels
from pandas_agree.errors import DegenerateDataWarning
from pandas_agree.krippendorff.distances import Distance

ROUTES = {
    "default": {},
    # No reliability matrix: dense values-by-units table (small domains) or sorted entries.
    "no_slots": {(counts, "_SLOT_PAIRS_MAX"): 0},
    # Sorted entries walked pair by pair (no slots, no dense table).
    "sorted_pairs": {
        (counts, "_SLOT_PAIRS_MAX"): 0,
        (counts, "_DENSE_CELLS_PER_RATING"): 0,
        (counts, "_DENSE_MIN_CELLS"): 0,
    },
    # Sorted entries walked slot by slot.
    "sorted_slots": {
        (counts, "_DENSE_CELLS_PER_RATING"): 0,
        (counts, "_DENSE_MIN_CELLS"): 0,
    },
    # No V x V tables: set kernels use only intersecting pairs, pairwise kernels blocks.
    "no_tables": {
        (kernels, "SMALL_TABLE_CELLS"): 0,
        (kernels, "TABLE_CELLS_PER_PAIR"): 0,
        (kernels, "BLOCK_CELLS"): 1,
    },
}


@contextmanager
def route(name: str):
    with pytest.MonkeyPatch.context() as mp:
        for (module, attr), value in ROUTES[name].items():
            mp.setattr(module, attr, value)
        yield


def definition(df: pd.DataFrame, distance) -> tuple[float, float, float, int]:
    """``(alpha, D_o, D_e, n_coders)`` straight from the definition (pure Python)."""
    by_unit = {u: list(g["value"]) for u, g in df.groupby("unit", sort=False)}
    pairable = {u: v for u, v in by_unit.items() if len(v) >= 2}
    values = [v for vs in pairable.values() for v in vs]
    n = len(values)
    if distance == "ordinal":
        freq = pd.Series(values).value_counts().sort_index().to_dict()

        def delta(a, b):
            return D.ordinal(a, b, frequencies=freq)
    else:
        delta = D.get_distance(distance)
    observed = sum(
        sum(delta(a, b) for i, a in enumerate(vs) for j, b in enumerate(vs) if i != j)
        / (len(vs) - 1)
        for vs in pairable.values()
    )
    expected = sum(
        delta(a, b) for i, a in enumerate(values) for j, b in enumerate(values) if i != j
    )
    d_o, d_e = observed / n, expected / (n * (n - 1))
    coders = df[df["unit"].isin(list(pairable))]["coder"].nunique()
    return (math.nan if d_e == 0 else 1 - d_o / d_e), d_o, d_e, coders


@st.composite
def ratings(draw, values, max_coders=11):
    """Long data with missing ratings, lone ratings and up to ``max_coders`` coders."""
    n_units = draw(st.integers(1, 9))
    n_coders = draw(st.integers(2, max_coders))
    rows = [(0, 0, draw(values)), (0, 1, draw(values))]  # at least one pairable unit
    for u in range(1, n_units):
        for c in range(n_coders):
            if draw(st.integers(0, 2)):
                rows.append((u, c, draw(values)))
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


def check_routes(df: pd.DataFrame, distance) -> None:
    alpha, d_o, d_e, n_coders = definition(df, distance)
    for name in ROUTES:
        with route(name), warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            res = pa.alpha(df, distance)
        assert res.observed == pytest.approx(d_o, rel=1e-9, abs=1e-12), name
        assert res.expected == pytest.approx(d_e, rel=1e-9, abs=1e-12), name
        assert res.alpha == pytest.approx(alpha, rel=1e-9, abs=1e-12, nan_ok=True), name
        assert res.n_coders == n_coders, name


def _root_gap(a, b) -> float:
    return abs(a - b) ** 0.5


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=40, deadline=None)
@given(
    df=ratings(st.integers(1, 5)),
    distance=st.sampled_from(["nominal", "ordinal", "interval", "ratio", _root_gap]),
)
def test_scalar_distances_by_every_route(df, distance):
    check_routes(df, distance)


def _symmetric_difference(a, b) -> float:
    return float(len(a ^ b))


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=40, deadline=None)
@given(
    df=ratings(st.frozensets(st.sampled_from("abcd"), max_size=3)),
    distance=st.sampled_from(
        ["nominal", "jaccard", "dice", "masi", "masi_dice", "masi_jaccard", _symmetric_difference]
    ),
)
def test_set_distances_by_every_route(df, distance):
    check_routes(df, distance)


def test_lone_ratings_do_not_count_their_coder():
    # Coder "z" rated only units nobody else rated: Krippendorff drops those values, so
    # z is not among the coders of the pairable data (n_coders counts 2, not 3).
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 3, 4],
            "coder": ["a", "b", "a", "b", "z", "z"],
            "value": [1, 1, 2, 1, 3, 3],
        }
    )
    for name in ROUTES:
        with route(name):
            res = pa.alpha(df, "nominal")
        assert (res.n_coders, res.n_units, res.n_pairable) == (2, 2, 4), name


def test_coder_first_pairable_rating_past_one_chunk():
    # The coder count scans the reliability matrix in chunks of 65,536 units and stops at a
    # coder's first pairable value: here coder 2's only pairable value is in the last unit.
    n = 70_000
    unit = np.concatenate([np.arange(n), np.arange(n), np.arange(n - 10, n)])
    coder = np.repeat([0, 1, 2], [n, n, 10])
    value = np.ones(unit.size, dtype=int)
    value[::7] = 2
    df = pd.DataFrame({"unit": unit, "coder": coder, "value": value})
    assert pa.alpha(df, "nominal").n_coders == 3
    assert pa.alpha(df.iloc[: 2 * n], "nominal").n_coders == 2


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_many_distinct_values_per_unit(seed):
    # Twelve coders, so units hold up to twelve distinct values: past the slot listing,
    # the within-unit pairs are enumerated one by one.
    rng = np.random.default_rng(seed)
    rows = [(u, c, int(rng.integers(0, 15))) for u in range(6) for c in range(12)]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    check_routes(df, "interval")
    check_routes(df.assign(value=[frozenset({v % 5, v % 3}) for v in df["value"]]), "masi")


def random_sets(seed, labels, n_units, sizes, rated) -> pd.DataFrame:
    """Three coders; each rates a unit with probability ``rated``, with a set of
    ``sizes[0]`` to ``sizes[1] - 1`` of ``labels``."""
    rng = np.random.default_rng(seed)
    rows = [
        (u, c, frozenset(rng.choice(list(labels), size=rng.integers(*sizes), replace=False)))
        for u in range(n_units)
        for c in range(3)
        if rng.random() < rated
    ]
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


def test_table_and_pair_routes_give_the_same_per_unit_terms():
    df = random_sets(seed=11, labels="abcdefgh", n_units=200, sizes=(0, 4), rated=0.8)
    per_unit = {}
    for name in ROUTES:
        with route(name):
            per_unit[name] = pa.alpha(df, "masi").by_unit().sort_index()["disagreement"].to_numpy()
    for name, terms in per_unit.items():
        np.testing.assert_allclose(terms, per_unit["default"], rtol=1e-12, atol=1e-15, err_msg=name)


def test_definition_helper_reproduces_the_published_value():
    # The reference implementation above is itself checked on Krippendorff (2011) section C,
    # which prints nominal 0.743 and ordinal 0.815.
    df = pa.datasets.krippendorff_2011()
    assert definition(df, "nominal")[0] == pytest.approx(0.743, abs=5e-4)
    assert definition(df, "ordinal")[0] == pytest.approx(0.815, abs=5e-4)


def _overlap_set(a, b) -> float:
    return 1.0 - len(a & b) / min(len(a), len(b)) if a and b else float(a != b)


def _overlap_kernel(inter, na, nb):
    # Boolean masks on the arrays: the kernel must be called on 1-D arrays of one length.
    out = np.where((na == 0) & (nb == 0), 0.0, 1.0)
    ok = (na > 0) & (nb > 0)
    out[ok] = 1.0 - inter[ok] / np.minimum(na[ok], nb[ok])
    return out


def _symdiff_kernel(inter, na, nb):
    return na + nb - 2.0 * inter  # |A ^ B|: disjoint sets are NOT at distance 1


OVERLAP = Distance("overlap", "set", _overlap_set, _overlap_kernel)
SYMDIFF = Distance("symdiff", "set", _symmetric_difference, _symdiff_kernel)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=30, deadline=None)
@given(
    df=ratings(st.frozensets(st.sampled_from("abcd"), max_size=3)),
    distance=st.sampled_from([OVERLAP, SYMDIFF]),
)
def test_vectorised_set_distances_by_every_route(df, distance):
    # A user's Distance(kind="set"): the overlap coefficient is 1 for disjoint sets, the
    # size of the symmetric difference is not (every pair of values must then count).
    check_routes(df, distance)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_reports_and_bootstrap_by_every_route():
    # Per-group alphas (report) and resampled units (bootstrap) read the counts in their
    # own ways; every route gives the same numbers, replicate for replicate.
    df = random_sets(seed=5, labels="abcdef", n_units=120, sizes=(1, 3), rated=0.85)
    df = df.assign(g=df["unit"] % 4)
    reports, replicates = {}, {}
    for name in ROUTES:
        with route(name):
            reports[name] = pa.report(df, ["nominal", "masi", SYMDIFF], by="g")
            res = pa.alpha(df, "masi")
            replicates[name] = res.bootstrap(method="units", n_boot=200, rng=3).replicates
    for name in ROUTES:
        pd.testing.assert_frame_equal(reports[name], reports["default"], rtol=1e-12)
        np.testing.assert_allclose(replicates[name], replicates["default"], rtol=1e-12)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_wide_value_codes_by_every_route():
    # Over 256 distinct values: value codes past 255 (the reliability matrix stores them in
    # 16 bits), with an interval and an ordinal distance.
    rng = np.random.default_rng(2)
    truth = rng.integers(0, 2000, size=150)
    rows = [
        (u, c, int(truth[u] + rng.integers(-2, 3)))
        for u in range(150)
        for c in range(3)
        if rng.random() < 0.9
    ]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    assert df["value"].nunique() > 256
    check_routes(df, "interval")
    check_routes(df, "ordinal")


def test_huge_interval_values_raise_no_overflow_warning():
    # Values near 1e160: squares of the values overflow, squares of their deviations do
    # not. No route may square a raw value (a RuntimeWarning, an error under -W error).
    b = 1e160
    df = pd.DataFrame(
        {
            "unit": [0, 0, 1, 1, 1, 2, 2],
            "coder": [0, 1, 0, 1, 2, 0, 2],
            "value": [b, b * (1 + 1e-9), b, b, b * (1 + 2e-9), b * (1 + 1e-9), b * (1 + 1e-9)],
        }
    )
    for name in ROUTES:
        with route(name), warnings.catch_warnings():
            warnings.simplefilter("error")
            res = pa.alpha(df, "interval")
        # Relative gaps of 1e-9: exactly those of values 0, 1, 0, 0, 2, 1, 1 (interval alpha
        # is invariant to shifts and scale), whose alpha is -0.25; the float rounding of
        # 1e160 * (1 + k 1e-9) leaves about 1e-7 of relative error.
        assert res.alpha == pytest.approx(-0.25, rel=1e-6), name
