"""Hypothesis properties of alpha: perfect agreement, invariances, kernels agree."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import pandas_agree as pa
from pandas_agree import distances as D
from pandas_agree._core import kernels


@st.composite
def long_data(draw, values=None, max_units=12, max_coders=4):
    values = st.integers(1, 5) if values is None else values
    n_units = draw(st.integers(2, max_units))
    n_coders = draw(st.integers(2, max_coders))
    rows = []
    for u in range(n_units):
        for c in range(n_coders):
            if draw(st.booleans()) or c < 2:
                rows.append((u, f"c{c}", draw(values)))
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=60, deadline=None)
@given(df=long_data(), distance=st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_perfect_agreement_gives_one(df, distance):
    truth = df.groupby("unit").value.transform("first")
    agreed = df.assign(value=truth)
    assume(agreed.value.nunique() > 1)
    assert pa.alpha(agreed, distance).alpha == pytest.approx(1.0)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=60, deadline=None)
@given(
    df=long_data(),
    distance=st.sampled_from(["nominal", "ordinal", "interval", "ratio"]),
    seed=st.integers(0, 1000),
)
def test_invariant_to_relabelling_and_row_order(df, distance, seed):
    assume(df.value.nunique() > 1)
    rng = np.random.default_rng(seed)
    base = pa.alpha(df, distance).alpha
    units = {u: f"u{p}" for u, p in zip(df.unit.unique(), rng.permutation(df.unit.nunique()))}
    coders = {c: f"k{p}" for c, p in zip(df.coder.unique(), rng.permutation(df.coder.nunique()))}
    other = df.assign(unit=df.unit.map(units), coder=df.coder.map(coders))
    other = other.iloc[rng.permutation(len(other))]
    assert pa.alpha(other, distance).alpha == pytest.approx(base, abs=1e-12)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@settings(max_examples=60, deadline=None)
@given(df=long_data(values=st.frozensets(st.sampled_from("abcd"), max_size=3)))
def test_set_kernels_match_plain_callables(df):
    assume(df.value.nunique() > 1)
    for name in ("jaccard", "dice", "masi", "masi_dice", "masi_jaccard"):
        fast = pa.alpha(df, name).alpha
        slow = pa.alpha(df, getattr(D, name)).alpha
        assert fast == pytest.approx(slow, abs=1e-12), name


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(df=long_data())
def test_set_nominal_on_singletons_equals_nominal(df):
    assume(df.value.nunique() > 1)
    sets = df.assign(value=df.value.map(lambda v: frozenset([v])))
    assert pa.alpha(sets, "nominal").alpha == pytest.approx(pa.alpha(df, "nominal").alpha)


def test_blocked_expected_matches_dense(monkeypatch):
    # Force the blocked evaluation of E on a small domain and compare with the dense one.
    rng = np.random.default_rng(7)
    n_c = rng.integers(0, 9, size=300).astype(float)
    x = rng.normal(size=300)
    dense = kernels.PairwiseKernel(lambda c, k: D._ratio_kernel(np.abs(x[c]), np.abs(x[k])), 300)
    expected = dense.expected_sum(n_c)
    monkeypatch.setattr(kernels, "BLOCK_CELLS", 1000)
    blocked = kernels.PairwiseKernel(lambda c, k: D._ratio_kernel(np.abs(x[c]), np.abs(x[k])), 300)
    assert blocked.dense() is None
    assert blocked.expected_sum(n_c) == pytest.approx(expected, rel=1e-12)
