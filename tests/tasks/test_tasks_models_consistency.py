"""self_consistency (pandas_agree.tasks.models.consistency): alpha across a model's runs.

Checked against Krippendorff (2011), section C (coders A-D read as four runs of one model:
nominal alpha 0.743, interval 0.849), against ``pa.alpha`` of each model's rows with the
run as coder, and against ``pa.bootstrap_alpha(..., method="units")`` for the interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import ColumnNotFoundError, InvalidParameterError


def _runs_of_krippendorff() -> pd.DataFrame:
    df = pa.datasets.krippendorff_2011()
    return df.assign(run=df["coder"].map({"A": 1, "B": 2, "C": 3, "D": 4}), coder="model")


@pytest.mark.parametrize(
    ("distance", "published"),
    [
        pytest.param("nominal", 0.743, id="nominal-0.743"),
        pytest.param("interval", 0.849, id="interval-0.849"),
    ],
)
def test_runs_as_coders_give_the_published_alpha(distance, published):
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C.
    res = pa.self_consistency(_runs_of_krippendorff(), distance=distance, ci=None)
    assert round(float(res), 3) == published
    row = res.table.loc["model"]
    assert (row["n_units"], row["n_runs"], row["n_pairable"]) == (11, 4, 40)


def test_alpha_and_interval_per_model():
    runs = pa.datasets.model_runs()
    before = runs.copy()
    res = pa.self_consistency(runs, n_boot=300, rng=4)
    pd.testing.assert_frame_equal(runs, before)
    assert list(res.table.index) == ["model_a", "model_b", "model_c"]
    for model in res.table.index:
        mine = runs[runs.coder == model]
        want = pa.alpha(mine, coder="run")
        assert res.table.loc[model, "alpha"] == pytest.approx(want.alpha, abs=1e-12)
        assert res.table.loc[model, "n_units"] == mine.unit.nunique()
    one = pa.self_consistency(runs, candidate="model_b", n_boot=300, rng=4, ci=0.9)
    boot = pa.bootstrap_alpha(
        pa.alpha(runs[runs.coder == "model_b"], coder="run"), "units", n_boot=300, rng=4
    )
    low, high = boot.confidence_interval(0.9)
    assert one.table.loc["model_b", "alpha_low"] == pytest.approx(low, abs=1e-12)
    assert one.table.loc["model_b", "alpha_high"] == pytest.approx(high, abs=1e-12)


# building the test frame: pandas 2.2 warns on concatenating an all-missing column
@pytest.mark.filterwarnings("ignore:The behavior of DataFrame concatenation:FutureWarning")
def test_humans_without_runs_are_not_models():
    # The study with the humans (no run) and the models' runs: only coders with a run count.
    humans = pa.datasets.model_annotations()
    humans = humans[humans.coder.str.startswith("h")].assign(run=pd.NA)
    both = pd.concat([humans, pa.datasets.model_runs()], ignore_index=True)
    res = pa.self_consistency(both, ci=None)
    assert list(res.table.index) == ["model_a", "model_b", "model_c"]
    with pytest.raises(InvalidParameterError, match="`run` column 'run' is missing for model 'h1'"):
        pa.self_consistency(both, candidate="h1", ci=None)


def test_a_single_run_gives_nan_with_a_reason():
    runs = pa.datasets.model_runs()
    single = runs[(runs.coder != "model_c") | (runs.run == 1)]
    res = pa.self_consistency(single, ci=None)
    row = res.table.loc["model_c"]
    assert np.isnan(row["alpha"]) and row["n_runs"] == 1
    assert isinstance(row["reason"], str) and row["reason"]
    with pytest.raises(InvalidParameterError, match="single model"):
        float(res)


def test_accessor_and_repr():
    runs = pa.datasets.model_runs()
    res = runs.agree.self_consistency(candidate=["model_a"], ci=None)
    assert float(res) == pytest.approx(pa.alpha(runs[runs.coder == "model_a"], coder="run").alpha)
    assert repr(res).startswith("SelfConsistencyResult(alpha {'model_a': ")
    assert res.to_frame().equals(res.table)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        pytest.param(
            {"candidate": "gpt-x"}, InvalidParameterError, "`candidate` 'gpt-x'", id="unknown-model"
        ),
        pytest.param({"run": "seed"}, ColumnNotFoundError, "`run` column 'seed'", id="run-column"),
        pytest.param({"ci": 0}, InvalidParameterError, r"`ci`.*got 0", id="ci"),
    ],
)
def test_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        pa.self_consistency(pa.datasets.model_runs(), **kwargs)
