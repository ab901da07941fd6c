"""The noise model on long data: df.agree.agreed_subset_noise, per group, labels, bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import InvalidParameterError


def _section_3_1() -> pd.DataFrame:
    # Beigman Klebanov & Beigman (2009), section 3.1: 2 annotators, 1,000 items, 900
    # agreements; categories equiprobable in agreed and disagreed items, so p = 0.5.
    rows = [(i, c, f"cat{i % 2}") for i in range(900) for c in ("A", "B")]
    rows += [(i, "A", f"cat{i % 2}") for i in range(900, 1000)]
    rows += [(i, "B", f"cat{1 - i % 2}") for i in range(900, 1000)]
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


def test_section_3_1_from_data():
    # The paper: "up to 125 agreements are due to coin-flipping", tau = 13.8 % (125/900).
    res = _section_3_1().agree.agreed_subset_noise(confidence=0.95)
    assert (res.n_items, res.n_disagreed, res.p_agree_hard) == (1000, 100, 0.5)
    assert res.t0 - res.n_disagreed == 125
    assert res.tau == pytest.approx(125 / 900)
    assert list(res.shares.index) == ["A", "B"]
    assert list(res.shares.columns) == ["cat0", "cat1"]
    np.testing.assert_allclose(res.shares.to_numpy(), 0.5)
    # The same numbers as the model on counts.
    direct = pa.noise.agreed_noise(1000, 100, 0.5, confidence=0.95)
    assert (direct.t0, direct.tau) == (res.t0, res.tau)


def test_single_annotator_items_are_counted_not_used():
    df = pd.concat(
        [_section_3_1(), pd.DataFrame({"unit": [5000, 5001], "coder": "A", "value": "cat0"})]
    )
    res = df.agree.agreed_subset_noise()
    assert res.n_single == 2 and res.n_items == 1000


def test_per_group_rows_equal_per_group_results():
    parts = []
    for g, flip in enumerate([0.05, 0.15, 0.3]):
        rng = np.random.default_rng(g)
        truth = rng.integers(0, 3, 400)
        for c in ("a", "b", "c"):
            v = np.where(rng.random(400) < flip, rng.integers(0, 3, 400), truth)
            parts.append(
                pd.DataFrame({"docset": f"d{g}", "unit": np.arange(400), "coder": c, "value": v})
            )
    df = pd.concat(parts, ignore_index=True)
    table = df.agree.agreed_subset_noise(by="docset")
    assert list(table.index) == ["d0", "d1", "d2", "pooled"]
    for name, part in df.groupby("docset"):
        res = part.agree.agreed_subset_noise()
        assert table.loc[name, "tau"] == res.tau
        assert table.loc[name, "n_disagreed"] == res.n_disagreed
    # tau grows with the share of disagreements (section 3: more coin flips, more noise).
    assert table.loc["d0", "tau"] < table.loc["d1", "tau"] < table.loc["d2", "tau"]


def test_group_without_disagreement_gets_reason():
    df = pd.concat(
        [
            _section_3_1().assign(docset="noisy"),
            pd.DataFrame(
                {
                    "docset": "clean",
                    "unit": [1, 1, 2, 2],
                    "coder": ["A", "B"] * 2,
                    "value": ["x", "x", "y", "y"],
                }
            ),
        ]
    )
    table = df.agree.agreed_subset_noise(by="docset")
    assert np.isnan(table.loc["clean", "tau"])
    assert "p_agree_hard" in table.loc["clean", "reason"]
    assert table.loc["noisy", "tau"] == pytest.approx(125 / 900)


def test_noise_bad_input_and_no_mutation():
    df = _section_3_1()
    before = df.copy()
    with pytest.raises(InvalidParameterError, match="`confidence`"):
        df.agree.agreed_subset_noise(confidence=2)
    df.agree.agreed_subset_noise(by=None)
    pd.testing.assert_frame_equal(df, before)
