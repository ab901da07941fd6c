"""Tests for pandas_agree.results: every result derives from one base, is a frozen dataclass,
and has float() (where it has one number), to_frame(), a state code and its sentence."""

from __future__ import annotations

import dataclasses
import enum
import importlib
import pkgutil
import warnings

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree._core.states import BootstrapState, ChanceState, ResultState
from pandas_agree.errors import DegenerateDataWarning
from pandas_agree.results import Result


def _all_result_classes() -> set[type]:
    for info in pkgutil.walk_packages(pa.__path__, "pandas_agree."):
        if ".frontends.dask" in info.name or info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional extra that is not installed
            continue
    found, todo = set(), [Result]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("pandas_agree") and sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def test_every_result_class_is_a_frozen_dataclass_on_the_one_base():
    classes = _all_result_classes()
    assert len(classes) >= 20
    for cls in classes:
        assert dataclasses.is_dataclass(cls), cls
        assert cls.__dataclass_params__.frozen, cls
        assert callable(cls.to_frame) and callable(cls.to_series)


def test_every_public_result_name_is_on_the_base():
    names = [n for n in pa.__all__ if n.endswith(("Result", "Report", "Summary", "Bootstrap"))]
    assert names
    for name in names:
        assert issubclass(getattr(pa, name), Result), name


K2011 = pa.datasets.krippendorff_2011


def _results():
    df = K2011()
    yield "alpha", pa.alpha(df)
    yield "cohen", pa.cohen_kappa(df, coders=["A", "B"])
    yield "conger", pa.conger_kappa(df)
    yield "icc", pa.icc(df.dropna(), missing="drop")
    yield "summary", pa.summary(df)
    boot = pa.bootstrap_alpha(pa.alpha(df, "interval"), n_boot=50, rng=1)
    yield "bootstrap", boot
    yield "interval", boot.confidence_interval()


@pytest.mark.parametrize(
    ("name", "result"), list(_results()), ids=lambda x: x if isinstance(x, str) else ""
)
def test_state_reason_and_frame(name, result):
    assert isinstance(result, Result)
    assert isinstance(result.state, enum.IntEnum) and result.state.name
    assert type(result.state).DEFINED == 0
    assert result.reason is None or isinstance(result.reason, str)
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) >= 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, next(iter(f.name for f in dataclasses.fields(result))), None)


def test_coefficient_state_is_a_code_and_its_reason_a_sentence():
    # every rating in one category: chance agreement 1, kappa undefined (Gwet 2014, ch. 2)
    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2, "value": ["x"] * 4})
    with pytest.warns(DegenerateDataWarning):
        res = pa.cohen_kappa(df)
    assert res.state is ChanceState.CHANCE_IS_ONE and res.state.undefined
    assert np.isnan(float(res)) and "chance agreement is 1" in res.reason
    ok = pa.cohen_kappa(K2011(), coders=["A", "B"])
    assert ok.state is ChanceState.DEFINED and ok.reason is None


def test_bootstrap_note_is_a_state_and_its_sentence():
    # every pairable value agrees: every replicate is 1, the interval is a point
    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2, "value": [1, 1, 2, 2]})
    with pytest.warns(DegenerateDataWarning, match="the interval is degenerate"):
        boot = pa.bootstrap_alpha(pa.alpha(df), "units", n_boot=20, rng=0)
    assert boot.state is BootstrapState.ALL_AGREE and boot.state.degenerate
    n_valid = int(np.isfinite(boot.replicates).sum())
    assert boot.note == boot.reason and f"all {n_valid} replicates equal 1" in boot.reason
    assert f"{20 - n_valid} of 20 resamples had no expected disagreement" in boot.reason
    ci = boot.confidence_interval()
    assert ci.state is BootstrapState.ALL_AGREE and ci.note == boot.reason
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spread = pa.bootstrap_alpha(pa.alpha(K2011(), "interval"), n_boot=200, rng=0)
    assert spread.state is BootstrapState.DEFINED and spread.reason is None


def test_default_state_follows_the_headline():
    @dataclasses.dataclass(frozen=True)
    class Toy(Result):
        value: float
        _headline = "value"

    assert Toy(0.5).state is ResultState.DEFINED and Toy(0.5).reason is None
    assert Toy(float("nan")).state is ResultState.UNDEFINED
    assert float(Toy(0.25)) == 0.25
    assert Toy(0.5).to_frame().shape == (1, 0)


def test_the_short_repr_shows_its_fields_then_the_notes_that_are_set():
    @dataclasses.dataclass(frozen=True, repr=False)
    class Toy(Result):
        value: float
        method: str
        weights: str | None = None
        reason: str | None = None
        _shown = ("value:.2f", "method!r")
        _notes = ("weights", "reason")

    toy = Toy(0.5, "x", "linear", "too few units")
    assert repr(toy) == "Toy(value=0.50, method='x', weights='linear', reason='too few units')"
    assert repr(Toy(0.5, "x")) == "Toy(value=0.50, method='x')"
    assert toy._repr("head=1") == (
        "Toy(head=1, value=0.50, method='x', weights='linear', reason='too few units')"
    )
