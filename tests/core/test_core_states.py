"""Degenerate and noted states are codes (AlphaState, Precision); sentences come from reasons.

The oracle for every alpha here is Krippendorff's definition evaluated in exact arithmetic
(``fractions.Fraction`` over Python integers) in this file, or a published value:
Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C (the data of
``pa.datasets.krippendorff_2011()``): interval alpha = .849.
"""

from __future__ import annotations

import re
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree import reasons
from pandas_agree._core.kernels import ScoreKernel
from pandas_agree._core.states import AlphaState, Precision, alpha_state
from pandas_agree.errors import DegenerateDataWarning
from pandas_agree.krippendorff.report import finish_report, group_table

KRIPP = pa.datasets.krippendorff_2011
INTERVAL_2011 = 0.849  # Krippendorff (2011), section C, interval metric


def exact_interval_alpha(df: pd.DataFrame) -> Fraction | None:
    """Interval alpha from the definition over Python integers (None when D_e = 0).

    D_o = 1/n sum_u 1/(m_u - 1) sum_{i != j in u} (v_i - v_j)^2 and
    D_e = 1/(n (n - 1)) sum_{i != j pairable} (v_i - v_j)^2 (Krippendorff 2011, section A).
    """
    units = [[int(v) for v in g] for _, g in df.dropna(subset=["value"]).groupby("unit")["value"]]
    units = [u for u in units if len(u) >= 2]
    values = [v for u in units for v in u]
    n = len(values)
    d_o = (
        sum(
            Fraction(
                sum((a - b) ** 2 for i, a in enumerate(u) for j, b in enumerate(u) if i != j),
                len(u) - 1,
            )
            for u in units
        )
        / n
    )
    d_e = Fraction(
        sum((a - b) ** 2 for i, a in enumerate(values) for j, b in enumerate(values) if i != j),
        n * (n - 1),
    )
    return None if d_e == 0 else 1 - d_o / d_e


def two_units(first: list, second: list, dtype=None) -> pd.DataFrame:
    """Two coders x two units: unit 1 holds ``first``, unit 2 holds ``second``."""
    return pd.DataFrame(
        {
            "unit": [1, 1, 2, 2],
            "coder": ["a", "b", "a", "b"],
            "value": pd.array([*first, *second], dtype=dtype),
        }
    )


# ---------------------------------------------------------------------------------------------
# AlphaResult.state next to the rendered reason


def test_defined_alpha_has_state_defined_and_no_reason():
    res = pa.alpha(KRIPP(), "interval")
    assert round(res.alpha, 3) == INTERVAL_2011
    assert res.state is AlphaState.DEFINED and res.reason is None


def test_no_variation_state_and_the_sentence_of_today():
    df = two_units([3, 3], [3, 3])
    assert exact_interval_alpha(df) is None  # D_e = 0 by the definition
    with pytest.warns(DegenerateDataWarning, match="alpha is NaN: every pairable value"):
        res = pa.alpha(df, "interval")
    assert np.isnan(res.alpha)
    assert res.state is AlphaState.NO_VARIATION
    assert res.reason == "every pairable value is the same (D_e = 0): alpha is undefined"


def test_scaled_values_state_precision_same_alpha_same_sentence():
    # Krippendorff (2011), section C times 1e200: interval alpha is scale-invariant, .849.
    res = pa.alpha(KRIPP().assign(value=lambda d: d["value"] * 1e200), "interval")
    assert round(res.alpha, 3) == INTERVAL_2011
    assert res.state is AlphaState.PRECISION
    shift = int(
        re.fullmatch(
            r"values were divided by 2\*\*(\d+) \(alpha is scale-invariant\) to keep float64 in "
            r"range: observed and expected are in those units",
            res.reason,
        ).group(1)
    )
    # The largest value (5e200) lands near 2**200 once divided (kernels.SCALE_EXPONENT).
    assert 2.0**199 <= 5e200 / 2.0**shift < 2.0**201


def test_wide_integers_state_precision_and_exact_alpha():
    # int64 values spanning 2**63: float64 cannot keep every difference, alpha is still
    # right to float precision, and the reason says how far apart the values are.
    df = two_units([0, 2**62], [2**62 + 1, 2**63 - 1], dtype="int64")
    res = pa.alpha(df, "interval")
    assert res.alpha == pytest.approx(float(exact_interval_alpha(df)), rel=1e-9)
    assert res.state is AlphaState.PRECISION
    span = (2**63 - 1) - 0
    assert res.reason.startswith(f"integer values span {span}, more than float64 holds exactly")
    assert res.reason.endswith("so alpha is approximate")


def test_object_integers_beyond_2_53_no_longer_claim_every_value_is_the_same():
    # 2**55 and 2**55 + 1 are different values (exact D_e > 0, alpha = 1 by the definition:
    # each unit agrees), but equal as float64. Before: NaN with the false reason "every
    # pairable value is the same". Now the state and the reason say it is float64's doing.
    df = two_units([2**55, 2**55], [2**55 + 1, 2**55 + 1], dtype=object)
    assert exact_interval_alpha(df) == 1
    with pytest.warns(DegenerateDataWarning, match="after conversion to float64"):
        res = pa.alpha(df, "interval")
    assert res.state is AlphaState.NO_VARIATION_PRECISION
    assert res.reason.startswith("D_e = 0 after conversion to float64: 1 distinct value(s)")
    assert "every pairable value is the same" not in res.reason


def test_object_integers_merged_but_alpha_defined():
    # One unit holds 2**55 and 2**55 + 1 (equal in float64), the other 0 twice: alpha is
    # 1 - 2 / (3 * 2**110) by the definition, 1 in float64: approximate, and said so.
    df = two_units([2**55, 2**55 + 1], [0, 0], dtype=object)
    res = pa.alpha(df, "interval")
    assert res.alpha == pytest.approx(float(exact_interval_alpha(df)), rel=1e-12)
    assert res.state is AlphaState.PRECISION
    assert "became equal to another value in float64" in res.reason


# ---------------------------------------------------------------------------------------------
# The rendering table: every state has its sentence (unchanged from before the states)


@pytest.mark.parametrize(
    ("state", "precision", "sentence"),
    [
        pytest.param(AlphaState.DEFINED, None, None, id="defined"),
        pytest.param(
            AlphaState.NO_VARIATION,
            None,
            "every pairable value is the same (D_e = 0): alpha is undefined",
            id="no-variation",
        ),
        pytest.param(
            AlphaState.NO_VARIATION_PRECISION,
            Precision(shift=-300),
            "D_e = 0 after conversion to float64: values were divided by 2**-300 (alpha is "
            "scale-invariant) to keep float64 in range: observed and expected are in those "
            "units",
            id="no-variation-in-float",
        ),
        pytest.param(
            AlphaState.PRECISION,
            Precision(span=2**60, spread=2**59),
            "integer values span 1152921504606846976, more than float64 holds exactly (2**53 "
            "either side of a centre): values closer than about 128 may be merged, so alpha "
            "is approximate",
            id="wide-integers",
        ),
        pytest.param(
            AlphaState.NO_PAIRABLE_UNITS,
            None,
            "no pairable unit (no unit has two or more values)",
            id="no-pairable",
        ),
    ],
)
def test_alpha_reason_renders_each_state(state, precision, sentence):
    assert reasons.alpha_reason(state, precision) == sentence


def test_alpha_state_from_numbers():
    assert alpha_state(0, 0.0) is AlphaState.NO_PAIRABLE_UNITS
    assert alpha_state(2, 0.0) is AlphaState.NO_VARIATION
    assert alpha_state(2, 0.0, Precision(merged=1)) is AlphaState.NO_VARIATION_PRECISION
    assert alpha_state(2, 0.3) is AlphaState.DEFINED
    assert alpha_state(2, 0.3, Precision(merged=1)) is AlphaState.PRECISION
    assert [s.undefined for s in AlphaState] == [False, False, True, True, True]


# ---------------------------------------------------------------------------------------------
# No route or note depends on the order of earlier calls


def test_score_kernel_precision_is_a_function_of_the_values_in_use():
    domain = np.array([0, 1, 2**62, 2**62 + 1], dtype=np.int64)
    near = np.array([1.0, 1.0, 0.0, 0.0])  # only 0 and 1 in use: exact
    far = np.array([1.0, 0.0, 0.0, 1.0])  # 0 and 2**62 + 1 in use: too wide
    first = ScoreKernel(domain)
    a = (first.precision(near), first.precision(far))
    second = ScoreKernel(domain)
    b = (second.precision(far), second.precision(near))
    assert a == b[::-1]
    # 0 .. 2**62 + 1 includes 0, so centring cannot shrink it: spread = the largest value.
    assert a[0] is None and a[1] == Precision(span=2**62 + 1, spread=2**62 + 1)


# ---------------------------------------------------------------------------------------------
# Reports: states per group, the precision note, and no edits to the caller's objects


def test_report_group_spanning_more_than_2_54_carries_its_precision_note():
    # The hardening review: such a group got reason None (or, for values equal in float64,
    # "every pairable value is the same"), as the report ignored the kernel's precision.
    wide = two_units([0, 0], [2**60, 2**60 + 1], dtype="int64").assign(g="wide")
    small = two_units([5, 5], [6, 7], dtype="int64").assign(g="small")
    df = pd.concat([wide, small], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rep = pa.report(df, ["interval", "nominal"], by="g")
    assert rep.loc["wide", "interval"] == pytest.approx(float(exact_interval_alpha(wide)))
    assert rep.loc["small", "interval"] == pytest.approx(float(exact_interval_alpha(small)))
    note = rep.loc["wide", "reason"]
    assert note.startswith(f"interval: integer values span {2**60 + 1}, more than float64")
    assert "every pairable value is the same" not in note
    assert rep.loc["small", "reason"] is None
    # The same sentence as alpha on the group alone gives.
    assert note == "interval: " + pa.alpha(wide, "interval").reason


def test_report_group_equal_only_in_float64_says_so():
    merged = two_units([2**55, 2**55], [2**55 + 1, 2**55 + 1], dtype=object).assign(g="m")
    plain = two_units([0, 1], [2, 3], dtype=object).assign(g="p")
    df = pd.concat([merged, plain], ignore_index=True)
    assert exact_interval_alpha(merged) == 1 and exact_interval_alpha(plain) is not None
    with pytest.warns(DegenerateDataWarning) as caught:
        rep = pa.report(df, "interval", by="g")
    # The report's warning does not claim that every value is the same either.
    (message,) = [str(w.message) for w in caught if "some groups" in str(w.message)]
    assert "once the values are float64" in message and "is the same" not in message
    assert np.isnan(rep.loc["m", "interval"])
    assert rep.loc["m", "reason"].startswith(
        "no expected disagreement (D_e = 0) under interval after conversion to float64; "
        "interval: 1 distinct value(s) became equal"
    )
    assert rep.loc["p", "interval"] == pytest.approx(float(exact_interval_alpha(plain)))
    assert rep.loc["p", "reason"] is None  # the merged values are not in use there


def test_group_table_without_states_reads_them_off_the_numbers():
    # The dask route passes no states: no pairable unit where n_units is 0, D_e = 0 where
    # alpha is NaN; the sentences are the same as with states.
    labels = pd.Index(["a", "b", "c"], name="g")
    alphas = {"nominal": np.array([0.5, np.nan, np.nan]), "masi": np.array([0.4, 0.2, np.nan])}
    counts = {
        "n_units": np.array([3, 2, 0]),
        "n_coders": np.array([2, 2, 0]),
        "n_pairable": np.array([6, 4, 0]),
    }
    table = group_table(labels, alphas, counts)
    assert table["reason"].tolist() == [
        None,
        "no expected disagreement (D_e = 0) under nominal",
        "no pairable unit (no unit has two or more values)",
    ]
    states = {
        "nominal": (AlphaState.DEFINED, AlphaState.NO_VARIATION, AlphaState.NO_PAIRABLE_UNITS),
        "masi": (AlphaState.DEFINED, AlphaState.DEFINED, AlphaState.NO_PAIRABLE_UNITS),
    }
    pd.testing.assert_frame_equal(group_table(labels, alphas, counts, states), table)


def test_finish_report_leaves_the_callers_dict_alone():
    labels = pd.Index(["a"], name="g")
    alphas = {"nominal": np.array([0.5])}
    counts = {"n_units": np.array([3]), "n_coders": np.array([2]), "n_pairable": np.array([6])}
    table = group_table(labels, alphas, counts)
    disagreement = {"nominal": (np.array([0.25]), np.array([0.5]))}
    kept = {k: (v[0].copy(), v[1].copy()) for k, v in disagreement.items()}
    pooled = table.rename(index={"a": "pooled"})
    out = finish_report(table, ["nominal"], disagreement, {"nominal": None}, pooled, True, False)
    assert list(out["g"]) == ["a", "pooled"]
    assert disagreement.keys() == kept.keys()
    for name, (d_o, d_e) in disagreement.items():
        assert d_o.size == 1 and d_e.size == 1
        np.testing.assert_array_equal(d_o, kept[name][0])
        np.testing.assert_array_equal(d_e, kept[name][1])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_report_rows_match_alpha_per_group_on_wide_integers(seed):
    # Differential: random groups of int64 values, some groups near 0, some near 2**62, some
    # spanning both. Each report row's alpha is the exact definition's (Fractions) and its
    # reason is the sentence of alpha on that group alone: the same states, rendered per
    # distance ("interval: ..."), whatever the other groups hold.
    rng = np.random.default_rng(seed)
    pools = [np.arange(5), 2**62 + np.arange(5), np.array([0, 1, 2**62, 2**62 + 1])]
    frames = []
    for g in range(6):
        pool = pools[rng.integers(len(pools))]
        n_units = int(rng.integers(1, 5))
        values = rng.choice(pool, size=2 * n_units)
        frames.append(
            pd.DataFrame(
                {
                    "g": f"g{g}",
                    "unit": np.repeat(np.arange(n_units), 2),
                    "coder": np.tile(["a", "b"], n_units),
                    "value": values.astype(np.int64),
                }
            )
        )
    df = pd.concat(frames, ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        rep = pa.report(df, "interval", by="g", pooled=False)
        for name, part in df.groupby("g"):
            exact = exact_interval_alpha(part)
            res = pa.alpha(part, "interval")
            if exact is None:
                assert np.isnan(rep.loc[name, "interval"])
                assert res.state is AlphaState.NO_VARIATION
                assert rep.loc[name, "reason"] == reasons.NO_VARIATION
                continue
            assert rep.loc[name, "interval"] == pytest.approx(float(exact), rel=1e-9, abs=1e-12)
            expected = None if res.reason is None else f"interval: {res.reason}"
            assert rep.loc[name, "reason"] == expected
