"""dask DataFrames: ``ddf.agree.alpha`` and ``ddf.agree.report`` equal the pandas path.

Every comparison uses a deliberately bad partitioning (rows sorted by coder, so every unit
spans several partitions) or a shuffled one, on dask's local scheduler.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
import dask  # noqa: E402

import pandas_agree as pa  # noqa: E402
import pandas_agree.frontends.dask as pa_dask  # noqa: E402
from pandas_agree.errors import (  # noqa: E402
    ColumnNotFoundError,
    DegenerateDataWarning,
    DuplicateRatingError,
    InvalidParameterError,
    MixedValueTypesError,
    NoPairableUnitsError,
    ValueTypeError,
)
from pandas_agree.frontends.dask import chunks as partitions  # noqa: E402

SCALAR_DISTANCES = ["nominal", "interval", "ordinal", "ratio"]
SET_DISTANCES = ["nominal", "jaccard", "masi"]
FIELDS = ["alpha", "observed", "expected"]
COUNTS = ["n_units", "n_coders", "n_pairable", "n_values", "reason"]


def _scalars(seed: int = 0, n_units: int = 150) -> pd.DataFrame:
    """Ratings 1-5 by four coders (some missing), lone ratings, a group of missing values."""
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(n_units):
        truth = int(rng.integers(1, 6))
        for c in ("ann", "bob", "cat", "dan"):
            if rng.random() < 0.75:
                v = float(truth if rng.random() < 0.7 else rng.integers(1, 6))
                if rng.random() < 0.05:
                    v = np.nan
                rows.append((f"d{u % 5}", u % 2, u, c, v))
    for u in range(n_units, n_units + 4):  # "zed" only ever rates units nobody else rates
        rows.append(("d0", 0, u, "zed", 3.0))
    rows.append(("d9", 1, n_units + 9, "ann", np.nan))  # a group with no value at all
    rows.append(("d9", 1, n_units + 9, "bob", np.nan))
    return pd.DataFrame(rows, columns=["doc", "part", "unit", "coder", "value"])


def _sets(seed: int = 1, n_units: int = 120) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = list("abcdef")
    rows = []
    for u in range(n_units):
        truth = set(rng.choice(labels, size=int(rng.integers(0, 4)), replace=False).tolist())
        for c in ("ann", "bob", "cat"):
            if rng.random() < 0.85:
                s = set(truth)
                if rng.random() < 0.3:
                    s ^= {str(rng.choice(labels))}
                value = None if rng.random() < 0.05 else frozenset(s)
                rows.append((f"d{u % 4}", u, c, value))
    return pd.DataFrame(rows, columns=["doc", "unit", "coder", "value"])


def _dask(df: pd.DataFrame, npartitions: int = 4, order: str = "coder") -> dd.DataFrame:
    """A dask frame whose units span partitions: sorted by coder, or shuffled."""
    if order == "coder":
        df = df.sort_values("coder", kind="stable")
    else:
        df = df.sample(frac=1.0, random_state=3)
    # Without this, dask turns object columns (sets) into strings.
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_pandas(df.reset_index(drop=True), npartitions=npartitions, sort=False)


def _assert_same(ours, theirs) -> None:
    for name in FIELDS:
        assert getattr(ours, name) == pytest.approx(getattr(theirs, name), rel=1e-12, abs=1e-14)
    for name in COUNTS:
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.distance == theirs.distance
    assert ours.fit is None


@pytest.fixture(params=["bits", "codes"])
def coder_path(request, monkeypatch):
    """Run under both duplicate checks: coder bit masks, and (unit, coder) groupby."""
    if request.param == "codes":
        monkeypatch.setattr(partitions, "MAX_WORDS", 0)
    return request.param


@pytest.fixture(scope="module")
def scalars() -> pd.DataFrame:
    return _scalars()


@pytest.fixture(scope="module")
def sets() -> pd.DataFrame:
    return _sets()


def _units_span_partitions(ddf: dd.DataFrame) -> bool:
    parts = [set(ddf.partitions[i].compute()["unit"]) for i in range(ddf.npartitions)]
    return any(len(a & b) > 0 for i, a in enumerate(parts) for b in parts[i + 1 :])


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@pytest.mark.parametrize("order", ["coder", "shuffled"])
@pytest.mark.parametrize("distance", SCALAR_DISTANCES)
def test_alpha_matches_pandas(scalars, distance, order, coder_path):
    ddf = _dask(scalars, order=order)
    assert _units_span_partitions(ddf)
    _assert_same(ddf.agree.alpha(distance), pa.alpha(scalars, distance))


@pytest.mark.slow
@pytest.mark.parametrize("distance", SET_DISTANCES)
def test_set_alpha_matches_pandas(sets, distance):
    ddf = _dask(sets)
    _assert_same(ddf.agree.alpha(distance), pa.alpha(sets, distance))


def test_krippendorff_2011_with_one_partition_per_coder():
    df = pa.datasets.krippendorff_2011()
    ddf = _dask(df, npartitions=4)
    res = ddf.agree.alpha("nominal")
    assert round(res.alpha, 3) == 0.743
    assert res.n_units == 11 and res.n_coders == 4 and res.n_pairable == 40


def test_set_like_values_become_frozensets(sets):
    """Lists, sets and tuples in the partitions are sets, as in pandas."""
    mixed = sets.copy()
    kinds = [list, set, tuple, frozenset]
    mixed["value"] = [
        v if v is None else kinds[i % 4](sorted(v)) for i, v in enumerate(mixed["value"])
    ]
    _assert_same(_dask(mixed).agree.alpha("masi"), pa.alpha(sets, "masi"))


def test_weighted_set_distance(sets):
    weights = {e: 1.0 + i for i, e in enumerate("abcdef")}
    ours = _dask(sets).agree.alpha("weighted_jaccard", weights=weights)
    _assert_same(ours, pa.alpha(sets, "weighted_jaccard", weights=weights))


@pytest.mark.slow
def test_report_matches_pandas(scalars, coder_path):
    ddf = _dask(scalars)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        ours = ddf.agree.report(SCALAR_DISTANCES, by="doc")
        theirs = pa.report(scalars, SCALAR_DISTANCES, by="doc")
    assert "d9" in ours.index and ours.loc["d9", "reason"] == theirs.loc["d9", "reason"]
    pd.testing.assert_frame_equal(ours, theirs, rtol=1e-12, check_index_type=False)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_report_sets_two_levels_and_tidy(sets, coder_path):
    ddf = _dask(sets, order="shuffled")
    sets = sets.assign(half=sets["unit"] % 2)
    ddf = ddf.assign(half=ddf["unit"] % 2)
    ours = ddf.agree.report(SET_DISTANCES, by=["doc", "half"])
    theirs = pa.report(sets, SET_DISTANCES, by=["doc", "half"])
    pd.testing.assert_frame_equal(ours, theirs, rtol=1e-12, check_index_type=False)
    tidy = ddf.agree.report("masi", by="doc", tidy=True)
    pd.testing.assert_frame_equal(
        tidy,
        pa.report(sets, "masi", by="doc", tidy=True),
        rtol=1e-12,
        check_dtype=False,
    )


def test_report_without_groups_and_without_pooled(scalars):
    ddf = _dask(scalars)
    pd.testing.assert_frame_equal(
        ddf.agree.report("interval"), pa.report(scalars, "interval"), rtol=1e-12
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        ours = ddf.agree.report("nominal", by=["part", "doc"], pooled=False)
        theirs = pa.report(scalars, "nominal", by=["part", "doc"], pooled=False)
    pd.testing.assert_frame_equal(ours, theirs, rtol=1e-12, check_index_type=False)


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_ordered_categorical_values():
    df = _scalars(seed=4)
    df["value"] = pd.Categorical(
        df["value"].map({1.0: "low", 2.0: "mid", 3.0: "high", 4.0: "top", 5.0: "max"}),
        categories=["low", "mid", "high", "top", "max"],
        ordered=True,
    )
    _assert_same(_dask(df).agree.alpha("ordinal"), pa.alpha(df, "ordinal"))
    # Unknown categories (dask's astype) are made known and sorted, as pandas' astype does;
    # sorted labels are only alphabetical, so ordinal refuses them on both
    # and nominal agrees.
    plain = df.assign(value=df["value"].astype(object))
    ddf = _dask(plain)
    ddf = ddf.assign(value=ddf["value"].astype("category"))
    pandas_cat = plain.assign(value=plain["value"].astype("category"))
    _assert_same(ddf.agree.alpha("nominal"), pa.alpha(pandas_cat, "nominal"))
    for frame in (ddf, pandas_cat):
        with pytest.raises(ValueTypeError, match="needs values with an order"):
            frame.agree.alpha("ordinal")


def test_categories_argument(scalars):
    cats = [5.0, 4.0, 3.0, 2.0, 1.0]
    ours = _dask(scalars).agree.alpha("ordinal", categories=cats)
    _assert_same(ours, pa.alpha(scalars, "ordinal", categories=cats))
    with pytest.raises(InvalidParameterError, match="not in `categories`"):
        _dask(scalars).agree.alpha("ordinal", categories=[1.0, 2.0])


def test_parquet_list_column(sets, tmp_path):
    """Sets stored as Parquet lists arrive as numpy arrays: they are sets too."""
    pytest.importorskip("pyarrow")
    stored = sets.assign(value=[None if v is None else sorted(v) for v in sets["value"]])
    stored.to_parquet(tmp_path / "sets.parquet")
    ddf = dd.read_parquet(tmp_path / "sets.parquet")
    _assert_same(ddf.agree.alpha("masi"), pa.alpha(sets, "masi"))


@pytest.mark.slow
def test_distributed_client(scalars):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        ours = _dask(scalars).agree.alpha("interval")
    _assert_same(ours, pa.alpha(scalars, "interval"))


# ---------------------------------------------------------------------------------------------
# Bad input, as in pandas


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_duplicates_across_partitions_raise(scalars, coder_path):
    rated = scalars[scalars["value"].notna()]
    dup = pd.concat([scalars, rated.head(2)])
    with pytest.raises(DuplicateRatingError, match=r"2 \(unit, coder\) pair"):
        _dask(dup, order="shuffled").agree.alpha()
    other = pd.concat([scalars, rated.head(1).assign(value=rated["value"].iloc[0] + 1)])
    with pytest.raises(DuplicateRatingError, match=r"1 \(unit, coder\) pair"):
        _dask(other).agree.alpha()  # the same coder, two different values
    with pytest.raises(DuplicateRatingError):
        pa.alpha(dup)
    with pytest.raises(DuplicateRatingError):
        _dask(dup).agree.report(by="doc")
    # A duplicate whose second value is missing is not a duplicate (missing values go first).
    dropped = scalars.iloc[:1].assign(value=np.nan)
    ok = pd.concat([scalars, dropped])
    _assert_same(_dask(ok).agree.alpha(), pa.alpha(ok))


def test_on_duplicate_other_than_raise_is_refused(scalars):
    with pytest.raises(InvalidParameterError, match="on_duplicate"):
        _dask(scalars).agree.alpha(on_duplicate="first")


def test_split_every(scalars):
    ddf = _dask(scalars, npartitions=6)
    _assert_same(ddf.agree.alpha("interval", split_every=2), pa.alpha(scalars, "interval"))
    with pytest.raises(InvalidParameterError, match="split_every"):
        ddf.agree.alpha(split_every=1)


def test_ci_is_refused(scalars):
    with pytest.raises(InvalidParameterError, match="`ci`"):
        _dask(scalars).agree.report(by="doc", ci=0.95)


def test_missing_labels_and_columns(scalars):
    bad = scalars.copy()
    bad.loc[3, "unit"] = np.nan
    with pytest.raises(InvalidParameterError, match="`unit` column 'unit' has 1 missing"):
        _dask(bad).agree.alpha()
    bad = scalars.copy()
    bad.loc[3, "doc"] = None
    with pytest.raises(InvalidParameterError, match="`by` column 'doc' has 1 missing"):
        _dask(bad).agree.report(by="doc")
    with pytest.raises(ColumnNotFoundError, match="`value` column 'score'"):
        _dask(scalars).agree.alpha(value="score")
    with pytest.raises(ColumnNotFoundError, match="`by` column 'nope'"):
        _dask(scalars).agree.report(by="nope")
    with pytest.raises(ValueTypeError, match="dask DataFrame"):
        pa_dask.alpha(scalars)


def test_repeated_index_labels(sets):
    """Partitions whose index repeats a label (as after a concat) are fine."""
    df = sets.copy()
    df.index = np.zeros(len(df), dtype=int)
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(df, npartitions=1)
    _assert_same(ddf.agree.alpha("masi"), pa.alpha(sets, "masi"))
    cats = df.assign(value=pd.Categorical([None if v is None else len(v) for v in df["value"]]))
    ddf = dd.from_pandas(cats, npartitions=1)
    _assert_same(ddf.agree.alpha("ordinal"), pa.alpha(cats.reset_index(drop=True), "ordinal"))


def test_renamed_columns(scalars):
    renamed = scalars.rename(columns={"unit": "item", "coder": "rater", "value": "label"})
    ours = _dask(scalars).rename(columns={"unit": "item", "coder": "rater", "value": "label"})
    res = ours.agree.alpha("interval", unit="item", coder="rater", value="label")
    _assert_same(res, pa.alpha(renamed, "interval", unit="item", coder="rater", value="label"))


def _from_parts(*frames: pd.DataFrame) -> dd.DataFrame:
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.concat([dd.from_pandas(f, npartitions=1) for f in frames])


def test_sets_and_scalars_in_one_partition():
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2],
            "coder": ["a", "b", "a", "b"],
            "value": ["x", "x", frozenset({"y"}), "y"],
        }
    )
    with pytest.raises(MixedValueTypesError):
        _from_parts(df).agree.alpha("nominal")
    with pytest.raises(MixedValueTypesError):
        pa.alpha(df, "nominal")
    _assert_same(_from_parts(df).agree.alpha("masi"), pa.alpha(df, "masi"))


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_sets_and_scalars_in_different_partitions():
    """One partition holds only scalars, the other only sets: mixed as a whole."""
    scalars = pd.DataFrame({"unit": [1, 2, 3], "coder": ["a"] * 3, "value": ["x", "y", "x"]})
    set_values = [frozenset({"x"}), frozenset({"y"}), frozenset({"x", "y"})]
    sets = pd.DataFrame({"unit": [1, 2, 3], "coder": ["b"] * 3, "value": set_values})
    ddf = _from_parts(scalars, sets)
    assert ddf.npartitions == 2
    both = pd.concat([scalars, sets], ignore_index=True)
    with pytest.raises(MixedValueTypesError, match="mixes sets"):
        ddf.agree.alpha("nominal")
    with pytest.raises(MixedValueTypesError):
        pa.alpha(both, "nominal")
    for distance in ("masi", "jaccard"):
        _assert_same(ddf.agree.alpha(distance), pa.alpha(both, distance))


def test_sets_turned_into_text_by_dask_are_refused(sets):
    with dask.config.set({"dataframe.convert-string": True}):
        ddf = dd.from_pandas(sets, npartitions=2)
    with pytest.raises(ValueTypeError, match="convert-string"):
        ddf.agree.alpha("masi")
    with pytest.raises(ValueTypeError, match="convert-string"):
        ddf.agree.alpha("nominal")


def test_text_values_survive_string_conversion(scalars):
    text = scalars.assign(value=scalars["value"].map({1.0: "a", 2.0: "b", 3.0: "c"}))
    with dask.config.set({"dataframe.convert-string": True}):
        ddf = dd.from_pandas(text.sort_values("coder"), npartitions=3)
    _assert_same(ddf.agree.alpha("nominal"), pa.alpha(text, "nominal"))
    with pytest.raises(ValueTypeError, match="numeric"):
        ddf.agree.alpha("interval")


def test_no_pairable_units_and_degenerate():
    lone = pd.DataFrame({"unit": [1, 2, 3], "coder": ["a", "b", "a"], "value": [1, 2, 3]})
    with pytest.raises(NoPairableUnitsError, match="no unit has two or more values"):
        _dask(lone, npartitions=2).agree.alpha()
    same = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2, "value": [4] * 4})
    with pytest.warns(DegenerateDataWarning, match="D_e = 0"):
        res = _dask(same, npartitions=2).agree.alpha()
    assert np.isnan(res.alpha) and res.reason is not None


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
@pytest.mark.parametrize("n_coders", [3, 100, 300])
def test_many_coders(n_coders):
    """One or several bit-mask words, or (past about 220 coders) the groupby check."""
    rng = np.random.default_rng(n_coders)
    rows = []
    for u in range(200):
        chosen = rng.choice(n_coders, size=min(n_coders, int(rng.integers(1, 5))), replace=False)
        for c in chosen:
            rows.append((u % 3, u, f"c{c}", int(rng.integers(0, 3))))
    df = pd.DataFrame(rows, columns=["doc", "unit", "coder", "value"])
    ddf = _dask(df, npartitions=3)
    _assert_same(ddf.agree.alpha("nominal"), pa.alpha(df, "nominal"))
    pd.testing.assert_frame_equal(
        ddf.agree.report("interval", by="doc"),
        pa.report(df, "interval", by="doc"),
        rtol=1e-12,
        check_index_type=False,
    )
    dup = pd.concat([df, df.tail(1).assign(value=9)])
    with pytest.raises(DuplicateRatingError):
        _dask(dup, npartitions=3).agree.alpha()


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_categorical_labels():
    df = _scalars(seed=5)
    df["coder"] = df["coder"].astype("category")
    df["doc"] = pd.Categorical(df["doc"], categories=[f"d{i}" for i in range(10)])
    ddf = _dask(df)
    _assert_same(ddf.agree.alpha("interval"), pa.alpha(df, "interval"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        ours = ddf.agree.report("interval", by="doc")
        theirs = pa.report(df, "interval", by="doc")
    pd.testing.assert_frame_equal(ours, theirs, rtol=1e-12, check_index_type=False)


def test_accessor_registered_and_frame_untouched(scalars):
    ddf = _dask(scalars)
    assert isinstance(ddf.agree, pa_dask.DaskAgreeAccessor)
    before = ddf.compute()
    ddf.agree.report("nominal", by="doc")
    pd.testing.assert_frame_equal(ddf.compute(), before)


def test_coder_bits_find_repeats_exactly():
    from pandas_agree._core.count_table import (
        bits_per_word,
        coder_words,
        coders_by_group,
        unit_coder_masks,
    )

    # unit 0: coders 0 and 1; unit 1: coder 0 twice, same value (one cell);
    # unit 2: coder 2 twice, two values (two cells).
    unit = np.array([0, 0, 1, 2, 2])
    count = np.array([1, 1, 2, 1, 1])
    bits = bits_per_word(3)
    words = coder_words(np.array([0, 1, 0, 2, 2]), 1, bits)
    words[2] *= 2  # the cell of unit 1 sums two ratings of coder 0
    masks, repeated = unit_coder_masks(unit, count, words, 3, 3)
    assert repeated.tolist() == [False, True, True]
    per_group, total = coders_by_group(masks, np.array([True, False, False]), np.zeros(3, int), 1)
    assert per_group.tolist() == [2] and total == 2
    # The most coders bit masks serve: a cell of every repeat of the last coder cannot
    # overflow, and still counts fewer coders than ratings.
    n_coders = 220
    bits = bits_per_word(n_coders)
    n_words = -(-n_coders // bits)
    assert n_words == 4
    worst = coder_words(np.full(n_coders, n_coders - 1), n_words, bits).sum(axis=0)
    assert (worst >= 0).all()
    _, repeated = unit_coder_masks(np.zeros(1, int), [n_coders], worst[None, :], 1, n_coders)
    assert repeated.tolist() == [True]
