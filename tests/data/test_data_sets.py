"""Set-valued labels in every shape, and missing elements or separators.

Every route (frozensets, lists, tuples, numpy arrays, Arrow lists, delimited strings, one
label per row, dask) must give the alpha of a brute-force computation written here from
Krippendorff's (2011) definition, with MASI as Passonneau (2006) defines it.
"""

from __future__ import annotations

import collections
import itertools
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from definitions import alpha_by_definition, jaccard, masi, random_set_frame

import pandas_agree as pa
from pandas_agree._core import setpairs
from pandas_agree._core.setcodes import dedupe_sets, union_by_key
from pandas_agree._core.setpairs import PairSums, SubsetSums
from pandas_agree.errors import AmbiguousValuesError, MissingInSetError, ValueTypeError

pyarrow = pytest.importorskip("pyarrow")


def shapes(df: pd.DataFrame) -> dict[str, tuple[pd.DataFrame, dict]]:
    """The same ratings in every shape a user may hold them in, with the call's arguments."""
    as_lists = [None if v is None else sorted(v) for v in df["value"]]
    arrays = np.empty(len(df), dtype=object)
    arrays[:] = [None if v is None else np.array(sorted(v), dtype=object) for v in df["value"]]
    rated = df.dropna(subset=["value"])
    exploded = pd.DataFrame(
        [
            (u, c, label)
            for u, c, v in rated.itertuples(index=False)
            for label in (sorted(v) if v else [frozenset()])  # an empty set stays a set
        ],
        columns=["unit", "coder", "value"],
    )
    return {
        "frozensets": (df, {}),
        "sets": (df.assign(value=[None if v is None else set(v) for v in df["value"]]), {}),
        "lists": (df.assign(value=as_lists), {}),
        "tuples": (df.assign(value=[None if v is None else tuple(v) for v in as_lists]), {}),
        "arrays": (df.assign(value=arrays), {}),
        "arrow": (
            df.assign(
                value=pd.Series(as_lists, dtype=pd.ArrowDtype(pyarrow.list_(pyarrow.string())))
            ),
            {},
        ),
        "strings": (
            df.assign(value=[None if v is None else " ; ".join(v) for v in as_lists]),
            {"sep": ";"},
        ),
        "exploded": (exploded, {"on_duplicate": "union"}),
    }


# --- every route, one number ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_every_shape_gives_the_brute_force_alpha(seed):
    df = random_set_frame(seed)
    expected = alpha_by_definition(df, masi)
    reference = pa.alpha(df, "masi")
    assert reference.alpha == pytest.approx(expected, abs=1e-12)
    ref_o = pa.coincidences(df).sort_index().sort_index(axis=1)
    ref_report = pa.report(df.assign(g=df["unit"] % 3), ["masi", "jaccard"], by="g")
    for name, (frame, kw) in shapes(df).items():
        before = frame.copy()
        res = pa.alpha(frame, "masi", **kw)
        assert res.alpha == pytest.approx(expected, abs=1e-12), name
        assert (res.n_units, res.n_pairable) == (reference.n_units, reference.n_pairable), name
        o = pa.coincidences(frame, **kw).sort_index().sort_index(axis=1)
        pd.testing.assert_frame_equal(o, ref_o, check_exact=False, atol=1e-12, obj=name)
        rep = pa.report(frame.assign(g=frame["unit"] % 3), ["masi", "jaccard"], by="g", **kw)
        pd.testing.assert_frame_equal(rep, ref_report, check_exact=False, atol=1e-12, obj=name)
        pd.testing.assert_frame_equal(frame, before)  # the caller's frame is untouched


@pytest.mark.slow
def test_dask_routes_match():
    dd = pytest.importorskip("dask.dataframe")
    import pandas_agree.frontends.dask as pa_dask

    df = random_set_frame(11)
    expected = alpha_by_definition(df, masi)
    for name in ("arrow", "strings"):
        frame, kw = shapes(df)[name]
        got = pa_dask.alpha(dd.from_pandas(frame, npartitions=3), "masi", **kw)
        assert got.alpha == pytest.approx(expected, abs=1e-12), name


def test_explicit_empty_set_in_exploded_rows():
    # ann gives {A}, bob says explicitly "no label" (an empty set), cid gives nothing at all
    rows = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 2],
            "coder": ["ann", "bob", "ann", "ann", "bob"],
            "value": ["A", frozenset(), "A", "B", "B"],
        }
    )
    m = pa.matrix(rows, on_duplicate="union")
    assert m.loc["bob", 1] == frozenset()
    assert m.loc["ann", 2] == frozenset({"A", "B"})


def test_lists_with_repeats_and_order_are_sets():
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2],
            "coder": ["a", "b"] * 2,
            "value": [["x", "y", "x"], ["y", "x"], ["z"], ["z"]],
        }
    )
    assert pa.alpha(df, "masi").n_pairable == 4
    assert pa.coincidences(df).shape == (2, 2)  # {x, y} and {z}


# --- the core: deduplication, union, pair sums --------------------------------------------------


@pytest.mark.parametrize("n_labels", [6, 200])
def test_dedupe_sets_against_frozensets(n_labels):
    rng = np.random.default_rng(n_labels)
    for _ in range(50):
        lengths = rng.integers(0, 6, int(rng.integers(1, 40)))
        indptr = np.concatenate(([0], np.cumsum(lengths)))
        labels = rng.integers(0, min(n_labels, 8), indptr[-1]) + (n_labels - min(n_labels, 8))
        codes, set_ptr, set_labels = dedupe_sets(indptr, labels, n_labels)
        sets = [frozenset(labels[a:b].tolist()) for a, b in itertools.pairwise(indptr)]
        first_seen = list(dict.fromkeys(sets))
        assert codes.tolist() == [first_seen.index(s) for s in sets]
        got = [set_labels[a:b].tolist() for a, b in itertools.pairwise(set_ptr)]
        assert got == [sorted(s) for s in first_seen]


def test_union_by_key_against_dict():
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 10, 60)
    lengths = rng.integers(0, 3, 60)
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    labels = rng.integers(0, 7, indptr[-1])
    first, ptr, merged = union_by_key(keys, indptr, labels, 7)
    expected: dict[int, set] = {}
    for key, a, b in zip(keys.tolist(), indptr[:-1], indptr[1:]):
        expected.setdefault(key, set()).update(labels[a:b].tolist())
    assert keys[first].tolist() == list(expected)
    assert [merged[a:b].tolist() for a, b in itertools.pairwise(ptr)] == [
        sorted(v) for v in expected.values()
    ]


def _brute_pair_sum(sets, weights, n_c, similarity):
    total = 0.0
    for c, k in itertools.permutations(range(len(sets)), 2):
        inter = sum(weights[e] for e in sets[c] & sets[k])
        if inter > 0:
            a = sum(weights[e] for e in sets[c])
            b = sum(weights[e] for e in sets[k])
            total += (
                n_c[c] * n_c[k] * similarity(np.array([inter]), np.array([a]), np.array([b]))[0]
            )
    return total


@pytest.mark.slow
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("route", ["sparse", "heavy", "dense", "tiny-blocks", "subset"])
def test_pair_sums_against_brute_force(monkeypatch, weighted, route):
    """Every route of PairSums (heavy groups, dense components, blocks) equals all pairs."""
    if route == "heavy":
        monkeypatch.setattr(setpairs, "HEAVY_SETS", 5)
    if route == "dense":
        monkeypatch.setattr(setpairs, "DENSE_MIN_SETS", 2)
        monkeypatch.setattr(setpairs, "DENSE_SPEEDUP", 1e9)
    if route == "tiny-blocks":
        monkeypatch.setattr(setpairs, "BLOCK_CELLS", 8)
    rng = np.random.default_rng(7)
    n_labels = 12
    weights = rng.uniform(0.5, 3.0, n_labels) if weighted else np.ones(n_labels)
    sets = list(
        dict.fromkeys(
            frozenset({0} | set(rng.choice(n_labels, int(rng.integers(0, 4))).tolist()))
            if rng.random() < 0.6
            else frozenset(rng.choice(n_labels, int(rng.integers(1, 4))).tolist())
            for _ in range(60)
        )
    )
    rows = [sorted(s) for s in sets]
    inc = sp.csr_matrix(
        (
            np.concatenate([weights[r] for r in rows]),
            np.concatenate(rows),
            np.concatenate(([0], np.cumsum([len(r) for r in rows]))),
        ),
        shape=(len(sets), n_labels),
    )

    def similarity(i, a, b):  # MASI-like: depends on sizes and intersection only
        jac = i / (a + b - i)
        return jac * np.where((i == a) | (i == b), 2 / 3, 1 / 3)

    if route == "subset":
        if weighted:
            assert not SubsetSums.applies(inc)  # weighted intersections need the labels
            return
        assert SubsetSums.applies(inc)
        ps = SubsetSums(inc, similarity)
    else:
        ps = PairSums(inc, similarity)
    n_c = rng.integers(0, 5, len(sets)).astype(float)
    expected = _brute_pair_sum(sets, weights, n_c, similarity)
    assert ps.sum(n_c) == pytest.approx(expected, rel=1e-12)
    stack = rng.integers(0, 4, (3, len(sets))).astype(float)
    got = ps.sums(sp.csr_matrix(stack))
    want = [_brute_pair_sum(sets, weights, row, similarity) for row in stack]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_many_sets_sharing_one_label_is_grouped_not_paired(monkeypatch):
    """20,000 sets with one common label would be 200 million pairs; groups make it cheap."""
    calls = []
    real = PairSums._corrections

    def spy(self, c, k, light):
        calls.append(c.size)
        return real(self, c, k, light)

    monkeypatch.setattr(PairSums, "_corrections", spy)
    n = 3000  # labels from a vocabulary of 3,000: too many for the subset route
    rng = np.random.default_rng(0)
    sets = list(
        dict.fromkeys(
            frozenset(["common", *(f"x{i}" for i in rng.integers(0, 3000, 2))]) for _ in range(n)
        )
    )
    df = pd.DataFrame(
        {
            "unit": np.repeat(np.arange(len(sets)), 2),
            "coder": ["a", "b"] * len(sets),
            "value": [s for s in sets for _ in range(2)],
        }
    )
    pa.alpha(df.assign(value=df["value"].sample(frac=1, random_state=1).to_numpy()), "masi")
    assert sum(calls) < 0.05 * len(sets) ** 2  # pairs sharing a light label only


# --- missing elements inside sets --------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: frozenset({"a", None}), id="frozenset-None"),
        pytest.param(lambda: {"a", float("nan")}, id="set-nan"),
        pytest.param(lambda: ["a", None], id="list-None"),
        pytest.param(lambda: ("a", pd.NA), id="tuple-NA"),
        pytest.param(lambda: np.array(["a", None], dtype=object), id="array-None"),
    ],
)
@pytest.mark.parametrize("distance", ["masi", "nominal", "jaccard"])
def test_missing_element_in_a_set_names_unit_coder_value(make, distance):
    df = pd.DataFrame(
        {
            "unit": ["u1", "u1", "u2", "u2"],
            "coder": ["ann", "bob"] * 2,
            "value": [frozenset({"a"}), make(), frozenset({"b"}), frozenset({"b"})],
        }
    )
    with pytest.raises(MissingInSetError, match=r"unit 'u1', coder 'bob'"):
        pa.alpha(df, distance)


def test_missing_element_in_arrow_list_and_exploded_rows():
    df = pd.DataFrame(
        {
            "unit": [1, 1],
            "coder": ["a", "b"],
            "value": pd.Series(
                [["x"], ["x", None]], dtype=pd.ArrowDtype(pyarrow.list_(pyarrow.string()))
            ),
        }
    )
    with pytest.raises(MissingInSetError, match="coder 'b'"):
        pa.alpha(df, "masi")
    with pytest.raises(MissingInSetError):
        pa.report(df.assign(g=1), "masi", by="g")


def test_missing_element_in_dask_partition():
    dd = pytest.importorskip("dask.dataframe")
    import pandas_agree.frontends.dask as pa_dask

    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2],
            "coder": ["a", "b"] * 2,
            "value": pd.Series(
                [["x"], ["x", None], ["y"], ["y"]],
                dtype=pd.ArrowDtype(pyarrow.list_(pyarrow.string())),
            ),
        }
    )
    with pytest.raises(MissingInSetError, match="coder 'b'"):
        pa_dask.alpha(dd.from_pandas(df, npartitions=2), "masi")


@pytest.mark.slow  # over 0.3 s in the fast loop: .ci/run runs it (pytest -m slow)
def test_set_routes_with_missing_elements_do_not_crash_the_interpreter(tmp_path):
    """Before the fix a missing element became label code -1 and corrupted memory."""
    script = textwrap.dedent(
        """
        import numpy as np, pandas as pd, pyarrow
        import pandas_agree as pa
        from pandas_agree.errors import MissingInSetError
        cells = [frozenset({"a", None}), ["a", None], {"a", float("nan")}]
        for cell in cells:
            for distance in ("masi", "jaccard", "dice", "nominal"):
                df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2,
                                   "value": [frozenset({"a"}), cell, frozenset({"a", "b"}),
                                             frozenset({"b"})]})
                try:
                    pa.alpha(df, distance)
                except MissingInSetError:
                    pass
                else:
                    raise SystemExit("no error for " + repr(cell))
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# --- delimited strings --------------------------------------------------------------------------


def _strings():
    return pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 3, 3],
            "coder": ["a", "b"] * 3,
            "value": ["PER;LOC", "PER", "ORG", "ORG;LOC", "LOC", "LOC"],
        }
    )


@pytest.mark.parametrize("distance", ["masi", "jaccard", "dice"])
def test_strings_with_separators_under_set_distance_ask_for_sep(distance):
    with pytest.raises(AmbiguousValuesError, match=r"'PER;LOC'.*sep=';'"):
        pa.alpha(_strings(), distance)
    with pytest.raises(AmbiguousValuesError, match="sep="):
        pa.report(_strings().assign(g=1), distance, by="g")


def test_sep_splits_and_differs_from_opaque_labels():
    df = _strings()
    split = pa.alpha(df, "masi", sep=";").alpha
    opaque = pa.alpha(df, "masi", sep=False).alpha
    as_sets = df.assign(value=[frozenset(v.split(";")) for v in df["value"]])
    assert split == pytest.approx(alpha_by_definition(as_sets, masi), abs=1e-12)
    assert opaque == pytest.approx(pa.alpha(df, "nominal").alpha, abs=1e-12)
    assert split != pytest.approx(opaque)


def test_single_plain_labels_under_a_set_distance_are_one_element_sets():
    df = pd.DataFrame(
        {"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2, "value": ["x", "x", "y", "x"]}
    )
    as_sets = df.assign(value=df["value"].map(lambda v: frozenset([v])))
    expected = alpha_by_definition(as_sets, masi)
    assert pa.alpha(df, "masi").alpha == pytest.approx(expected, abs=1e-12)


def test_sep_on_non_strings_and_bad_sep():
    df = pd.DataFrame({"unit": [1, 1], "coder": ["a", "b"], "value": [["x"], ["y"]]})
    with pytest.raises(ValueTypeError, match="sep"):
        pa.alpha(df, "masi", sep=";")
    with pytest.raises(pa.errors.InvalidParameterError, match="`sep` must be"):
        pa.alpha(_strings(), "masi", sep="")


def test_empty_string_is_the_empty_set_with_sep():
    df = pd.DataFrame({"unit": [1, 1], "coder": ["a", "b"], "value": ["", " ; "]})
    assert pa.matrix(df, sep=";").loc["a", 1] == frozenset()
    assert pa.matrix(df, sep=";").loc["b", 1] == frozenset()


def test_xarray_passes_sep():
    xr = pytest.importorskip("xarray")
    df = _strings()
    da = xr.DataArray(
        np.array([["PER;LOC", "ORG", "LOC"], ["PER", "ORG;LOC", "LOC"]], dtype=object),
        dims=("coder", "unit"),
        coords={"coder": ["a", "b"], "unit": [1, 2, 3]},
    )
    expected = pa.alpha(df, "masi", sep=";").alpha
    assert da.agree.alpha("masi", sep=";").alpha == pytest.approx(expected, abs=1e-12)
    with pytest.raises(AmbiguousValuesError):
        da.agree.alpha("masi")


def test_cli_refuses_missing_elements_in_json_and_parquet_lists(tmp_path, capsys):
    from pandas_agree.frontends.cli import main

    csv = tmp_path / "sets.csv"
    csv.write_text('unit,coder,value\n1,A,"[""a"", null]"\n1,B,"[""a""]"\n')
    assert main(["report", str(csv), "--distance", "masi"]) == 2
    assert "missing element inside a set" in capsys.readouterr().err
    frame = pd.DataFrame(
        {
            "unit": [1, 1],
            "coder": ["A", "B"],
            "value": pd.Series(
                [["a", None], ["a"]], dtype=pd.ArrowDtype(pyarrow.list_(pyarrow.string()))
            ),
        }
    )
    pq = tmp_path / "sets.parquet"
    frame.to_parquet(pq)
    assert main(["report", str(pq), "--distance", "masi"]) == 2
    assert "missing element inside a set" in capsys.readouterr().err


def test_report_on_groups_of_empty_sets_only():
    """A domain where no set holds a label (found by the messy-frames property test)."""
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2],
            "coder": ["a", "b"] * 2,
            "value": [frozenset()] * 4,
            "g": ["x", "x", "y", "y"],
        }
    )
    with pytest.warns(pa.errors.DegenerateDataWarning):
        rep = pa.report(df, "jaccard", by="g")
    assert rep["jaccard"].isna().all()
    assert rep["reason"].str.contains("D_e = 0").all()


@pytest.mark.parametrize("dtype", [object, "string", pd.ArrowDtype(pyarrow.string())])
def test_sep_same_sets_for_every_string_dtype(dtype):
    values = pd.Series(["PER;;LOC", " LOC ; PER ", "ORG;", None, ""], dtype=dtype)
    df = pd.DataFrame(
        {"unit": [1, 1, 2, 2, 3], "coder": ["a", "b", "a", "b", "a"], "value": values}
    )
    m = pa.matrix(df, sep=";")
    assert m.loc["a", 1] == m.loc["b", 1] == frozenset({"PER", "LOC"})
    assert m.loc["a", 2] == frozenset({"ORG"})
    assert pd.isna(m.loc["b", 2])
    assert m.loc["a", 3] == frozenset()


@pytest.mark.parametrize("distance", ["jaccard", "masi"])
def test_strings_among_lists_are_labels_not_characters(distance):
    """pyarrow would read "ab " as ["a", "b", " "] (found by the messy-frames property test)."""
    df = pd.DataFrame(
        {"unit": [1, 1, 2, 2], "coder": ["x", "y"] * 2, "value": [["ab"], "ab", ["a"], "b a"]}
    )
    with pytest.raises(AmbiguousValuesError):
        pa.alpha(df, distance)  # "b a" looks like two labels
    df.loc[3, "value"] = "ba"
    as_sets = df.assign(
        value=[frozenset(v) if isinstance(v, list) else frozenset([v]) for v in df["value"]]
    )
    delta = masi if distance == "masi" else jaccard
    expected = alpha_by_definition(as_sets, delta)
    assert pa.alpha(df, distance).alpha == pytest.approx(expected, abs=1e-12)
    with pytest.raises(pa.errors.MixedValueTypesError):
        pa.alpha(df, "nominal")


def test_routes_without_pyarrow_give_the_same_alpha(monkeypatch):
    """pyarrow is optional: lists and sep= strings then take the pure-Python passes."""
    df = random_set_frame(5)
    frames = shapes(df)
    expected = {
        name: pa.alpha(frames[name][0], "masi", **frames[name][1]).alpha
        for name in ("lists", "strings")
    }
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` raises ImportError
    monkeypatch.setitem(sys.modules, "pyarrow.compute", None)
    for name, value in expected.items():
        frame, kw = frames[name]
        assert pa.alpha(frame, "masi", **kw).alpha == pytest.approx(value, abs=1e-12), name


@pytest.mark.parametrize("seed", range(4))
def test_one_character_labels_and_strings_among_lists(seed):
    """A ``str`` cell among lists is one label, never its characters (reading lists through
    pyarrow would split it). Random columns of
    one-character labels, empty lists and sets, with ``str``, ``np.str_`` and ``""`` cells
    mixed in, must give alpha from the definition (a plain string is the one-element set
    {string})."""
    rng = np.random.default_rng(seed)
    labels = ["a", "b", "c", "\u00e5", "NA", "bc"]
    cells = []
    for _ in range(60):
        k = int(rng.integers(0, 3))
        picked = [labels[i] for i in rng.choice(len(labels), size=k, replace=False)]
        kind = rng.integers(0, 6)
        cells.append(
            picked if kind < 2
            else set(picked) if kind == 2
            else tuple(picked) if kind == 3
            else ("a" if rng.random() < 0.5 else np.str_("b")) if kind == 4
            else ("" if rng.random() < 0.3 else None)
        )
    df = pd.DataFrame(
        {"unit": np.repeat(np.arange(30), 2), "coder": ["x", "y"] * 30, "value": cells}
    )
    as_sets = df.assign(
        value=[
            None if v is None
            else frozenset([v]) if isinstance(v, str)
            else frozenset(v)
            for v in df["value"]
        ]
    )
    expected = alpha_by_definition(as_sets.dropna(subset=["value"]), masi)
    assert pa.alpha(df, "masi", sep=False).alpha == pytest.approx(expected, abs=1e-12)
    # and a one-letter string next to lists is never read as its characters
    tricky = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["x", "y"] * 2,
                           "value": [["a", "b"], "ab", ["ab"], ["a"]]})
    coded = pa.alpha(tricky, "jaccard", sep=False)
    as_sets = tricky.assign(value=[frozenset(v) if isinstance(v, list) else frozenset([v])
                                   for v in tricky["value"]])
    assert coded.alpha == pytest.approx(alpha_by_definition(as_sets, jaccard), abs=1e-12)


# --- cells that once gave a silently wrong number --------------------------------------------


def test_weighted_sets_of_whole_sizes_and_fractional_intersections():
    """{a, b} and {a, d} both weigh 1.0 under weights of 0.5 but share 0.5: the table's
    shortcut for whole-number sizes must not truncate the intersection to 0."""
    w = {"a": 0.5, "b": 0.5, "d": 0.5, "c": 1.0}
    sets = {k: frozenset(k) for k in ["ab", "ad", "bd", "c"]}
    pairs = [("ab", "ad"), ("ab", "ab"), ("c", "c"), ("ab", "c"), ("bd", "bd"), ("ad", "ad"),
             ("bd", "ab")]
    df = pd.DataFrame(
        [(u, c, sets[x]) for u, p in enumerate(pairs) for c, x in zip("xy", p)],
        columns=["unit", "coder", "value"],
    )

    def weight(s):
        return sum(w[e] for e in s)

    def weighted_jaccard(a, b):  # 1 - w(A & B) / w(A | B)
        return 0.0 if a == b else 1.0 - weight(a & b) / weight(a | b)

    def weighted_dice(a, b):  # 1 - 2 w(A & B) / (w(A) + w(B))
        return 0.0 if a == b else 1.0 - 2 * weight(a & b) / (weight(a) + weight(b))

    for name, delta in [("weighted_jaccard", weighted_jaccard), ("weighted_dice", weighted_dice)]:
        expected = alpha_by_definition(df, delta)
        assert pa.alpha(df, name, weights=w).alpha == pytest.approx(expected, abs=1e-12), name


@pytest.mark.parametrize(
    "other, same",
    [
        (b"cd", "cd"),  # pyarrow would read bytes as a string
        (np.bytes_(b"cd"), "cd"),
        (2.5, 2),  # pyarrow would truncate 2.5 to 2 in a list of integers
        ("3", 3),  # numpy would read "3" as 3 among integer set elements
    ],
)
@pytest.mark.parametrize("container", [list, set, frozenset, tuple])
def test_labels_of_other_types_are_not_merged(other, same, container):
    """A label is itself: b"cd" is not "cd", 2.5 is not 2, "3" is not 3 (Python's set
    semantics, as the definition computed here uses them)."""
    base = 1 if isinstance(same, int) else "ab"
    cells = [[same], [other], [base], [base], [same], [base]]
    df = pd.DataFrame({"unit": [0, 0, 1, 1, 2, 2], "coder": list("xyxyxy")})
    df["value"] = pd.Series([container(c) for c in cells], dtype=object)
    as_sets = df.assign(value=[frozenset(c) for c in cells])
    expected = alpha_by_definition(as_sets, jaccard)
    assert expected == pytest.approx(1 / 11)  # with other == same it would be 4/9
    assert pa.alpha(df, "jaccard").alpha == pytest.approx(expected, abs=1e-12)


def test_unhashable_label_in_a_list_is_an_error():
    df = pd.DataFrame({"unit": [0, 0], "coder": ["x", "y"], "value": [["cd"], [bytearray(b"cd")]]})
    with pytest.raises(ValueTypeError, match="unhashable element"):
        pa.alpha(df, "jaccard")


def test_error_of_the_unit_column_comes_first_and_alone():
    """The label columns are read first: a bad unit column wins over a bad value column or
    `sep`, with no chained traceback."""
    from pandas_agree.errors import InvalidParameterError

    df = pd.DataFrame({"unit": [1.0, np.nan, 2.0, 2.0], "coder": ["a", "b"] * 2,
                       "value": pd.Series([["x"], ["x", None], ["y"], ["y"]],
                                          dtype=pd.ArrowDtype(pyarrow.list_(pyarrow.string())))})
    for kwargs in ({}, {"sep": 5}):
        with pytest.raises(InvalidParameterError, match="`unit` column 'unit' has 1 missing") as e:
            pa.alpha(df, "masi", **kwargs)
        assert e.value.__suppress_context__ or e.value.__context__ is None


@pytest.mark.parametrize("make", [pd.Series, collections.deque], ids=["Series", "deque"])
def test_other_collections_are_sets(make):
    """A Series or deque of labels is a set of labels, whether its labels are one character
    long or longer (an earlier design read the two kinds of row differently)."""
    for labels in (["a", "b"], ["ab", "cd"]):
        cells = [make(labels), list(labels), make(labels[:1]), [labels[1]]]
        df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["x", "y"] * 2})
        df["value"] = pd.Series(cells, dtype=object)
        as_sets = df.assign(value=[frozenset(c) for c in cells])
        expected = alpha_by_definition(as_sets, jaccard)
        assert pa.alpha(df, "jaccard").alpha == pytest.approx(expected, abs=1e-12)


class _OldStyle:
    """A sequence by the old protocol only (no __iter__): pyarrow reads it as a list."""

    def __init__(self, items):
        self.items = list(items)

    def __getitem__(self, i):
        return self.items[i]

    def __len__(self):
        return len(self.items)


class _Labels(_OldStyle, collections.abc.Sequence):
    """A sequence of labels that can be hashed (by identity)."""


@pytest.mark.parametrize(
    "odd",
    [
        lambda: {0: "ab", 1: "cd"}.values(),
        lambda: _Labels(["ab", "cd"]),
        lambda: _OldStyle(["ab", "cd"]),
        lambda: pd.Series(["ab", "cd"], index=[5, 6]),
        lambda: __import__("collections").deque(["ab", "cd"]),
        lambda: "ab",  # one label
    ],
    ids=["dict_values", "Sequence", "old-style", "Series-index", "deque", "str"],
)
@pytest.mark.parametrize("one_char", [False, True])
def test_odd_cells_read_alike_with_and_without_pyarrow(odd, one_char, monkeypatch):
    """pyarrow reads any sequence as a list; `is_set_cell` says the same of every sequence
    but a string, with or without pyarrow (dict_values and Sequence cells are sets, a Series
    with its own index is read by iteration, not by its index labels)."""
    from pandas_agree.data.sets import is_set_cell

    cell = odd()
    others = [["a", "b"], ["c"], ["c"], ["a"], ["d"]] if one_char else [
        ["ab", "cd"], ["ef"], ["ef"], ["ab"], ["gh"]]
    cells = np.empty(6, dtype=object)
    cells[:] = [cell, *others]
    df = pd.DataFrame({"unit": [0, 0, 1, 1, 2, 2], "coder": [0, 1] * 3, "value": cells})
    as_sets = df.assign(
        value=[frozenset(c) if is_set_cell(c) else frozenset([c]) for c in cells]
    )
    expected = alpha_by_definition(as_sets, jaccard)
    assert is_set_cell(cell) == (not isinstance(cell, str))
    assert pa.alpha(df, "jaccard", sep=False).alpha == pytest.approx(expected, abs=1e-12)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.compute", None)
    assert pa.alpha(df, "jaccard", sep=False).alpha == pytest.approx(expected, abs=1e-12)


def test_hashable_sequences_are_sets_in_hashable_columns_too():
    """A column of frozensets beside a range or a dict_values takes the hashing path; the
    same rule reads them as sets there."""
    cells = np.empty(4, dtype=object)
    cells[:] = [range(1, 3), frozenset({1, 2}), {0: 3}.values(), frozenset({3})]
    df = pd.DataFrame({"unit": [0, 0, 1, 1], "coder": [0, 1] * 2, "value": cells})
    assert pa.alpha(df, "jaccard").observed == 0.0  # {1, 2} == {1, 2}, {3} == {3}


@pytest.mark.parametrize("other", [["ab"], np.array(["ab"])], ids=["list", "array"])
def test_zero_dimensional_array_cell_is_a_typed_error(other):
    """A 0-d array is one value (and cannot be hashed), beside a list or among arrays."""
    cells = np.empty(2, dtype=object)
    cells[:] = [np.array("ab"), other]
    df = pd.DataFrame({"unit": [0, 0], "coder": [0, 1], "value": cells})
    with pytest.raises(ValueTypeError, match="unhashable value"):
        pa.alpha(df, "jaccard")


def test_callable_weights_receive_the_labels_as_they_are():
    """Integer labels reach a callable `weights` as Python ints, not numpy integers (a
    callable testing isinstance(e, int) would otherwise weigh them differently)."""
    seen = set()

    def weight(e):
        seen.add(type(e))
        return 2.0 if isinstance(e, int) and e % 2 else 1.0

    df = pd.DataFrame({"unit": [0, 0, 1, 1], "coder": [0, 1] * 2,
                       "value": [frozenset({1, 2}), frozenset({2}), frozenset({3}),
                                 frozenset({3, 4})]})
    pa.alpha(df, "weighted_jaccard", weights=weight)
    assert seen == {int}


# --- lists, tuples, sets and arrays: items by iteration ----------------------------------


def _cells(values) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_list_cells_with_every_kind_of_missing_cell(seed):
    """Lists (empty ones, repeats) beside None, NaN and pd.NA cells give alpha from the
    definition."""
    rng = np.random.default_rng(seed)
    labels = ["a", "b", "c", "NA", ""]
    cells = []
    for _ in range(80):
        r = rng.random()
        if r < 0.1:
            cells.append([None, np.nan, pd.NA][int(rng.integers(0, 3))])
        else:
            k = int(rng.integers(0, 4))
            cells.append([labels[i] for i in rng.integers(0, len(labels), k)])
    df = pd.DataFrame({"unit": np.repeat(np.arange(40), 2), "coder": ["x", "y"] * 40})
    df["value"] = pd.Series(_cells(cells), dtype=object)
    as_sets = df.assign(value=[frozenset(c) if isinstance(c, list) else None for c in cells])
    expected = alpha_by_definition(as_sets.dropna(subset=["value"]), masi)
    assert pa.alpha(df, "masi", sep=False).alpha == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("missing", [None, np.nan, float("nan")])
def test_a_missing_item_in_a_list_is_refused(missing):
    for bad in ([missing], ["a", missing]):
        df = pd.DataFrame({"unit": [0, 0, 1, 1], "coder": ["x", "y"] * 2})
        df["value"] = pd.Series(_cells([["a"], [], None, bad]), dtype=object)
        with pytest.raises(MissingInSetError, match="unit 1, coder 'y'"):
            pa.alpha(df, "masi")


def test_scalars_among_lists_are_one_element_sets_or_an_error():
    """A float that is no NaN (or a string) among lists is a label, never a missing cell."""
    cells = [["a"], 2.5, np.nan, ["a", 2.5], "b", ["b"], None, [2.5]]
    df = pd.DataFrame({"unit": np.repeat(np.arange(4), 2), "coder": ["x", "y"] * 4})
    df["value"] = pd.Series(_cells(cells), dtype=object)
    as_sets = df.assign(
        value=[
            None if c is None or (isinstance(c, float) and np.isnan(c))
            else frozenset(c) if isinstance(c, list) else frozenset([c])
            for c in cells
        ]
    )
    expected = alpha_by_definition(as_sets.dropna(subset=["value"]), jaccard)
    assert pa.alpha(df, "jaccard", sep=False).alpha == pytest.approx(expected, abs=1e-12)
    with pytest.raises(pa.errors.MixedValueTypesError):
        pa.alpha(df, "nominal")


@pytest.mark.parametrize(
    "make",
    [
        lambda x: np.array(x, dtype=object),
        lambda x: np.array(x, dtype=str),
        lambda x: np.array([len(e) for e in x], dtype=np.int64),
        lambda x: np.array([f"2020-01-0{len(e)}" for e in x], dtype="datetime64[ns]"),
    ],
    ids=["object", "str", "int", "datetime64"],
)
def test_numpy_array_cells_of_every_dtype(make):
    """Arrays of strings are read through tolist; other arrays keep their items as numpy
    yields them (tolist would turn datetime64[ns] into integers)."""
    raw = [["ab", "c"], ["ab"], [], ["c"], None, ["ab", "ddd"], ["c"], ["c"]]
    cells = _cells([None if x is None else make(x) for x in raw])
    df = pd.DataFrame({"unit": np.repeat(np.arange(4), 2), "coder": ["x", "y"] * 4})
    df["value"] = pd.Series(cells, dtype=object)
    as_sets = df.assign(value=[None if c is None else frozenset(c) for c in cells])
    expected = alpha_by_definition(as_sets.dropna(subset=["value"]), masi)
    assert pa.alpha(df, "masi").alpha == pytest.approx(expected, abs=1e-12)
    labels = {e for s in pa.coincidences(df).index for e in s}
    first = next(c for c in cells if c is not None and len(c))
    assert {type(e) for e in labels} <= {type(e) for e in first} | {str, int}
    if first.dtype.kind == "M":
        assert all(isinstance(e, np.datetime64) for e in labels)


@pytest.mark.parametrize("seed", range(4))
def test_arrow_labels_are_coded_by_first_appearance(seed):
    """Labels of an Arrow list column: the codes are those of first appearance over the
    whole column, as written here, with labels that come late, null items (code -1) and
    empty strings."""
    from pandas_agree.data import sets as setvalues

    rng = np.random.default_rng(seed)
    pool = ["a", "b", "", "ccc", "\u00e9", "late1", "late2", None]
    n = 60
    items = [pool[int(i)] for i in rng.integers(0, 5, n)]  # first half: early labels only
    items += [pool[int(i)] for i in rng.integers(0, len(pool), n)]
    seen: dict = {}
    for x in items:
        if x is not None:
            seen.setdefault(x, len(seen))
    for kind in (pyarrow.string(), pyarrow.large_string()):
        codes, labels = setvalues._encoded(pyarrow.array(items, type=kind))
        labels = labels.to_pylist()
        assert labels == list(seen) and all(type(x) is str for x in labels)
        assert codes.tolist() == [-1 if x is None else seen[x] for x in items]
    for n_items in (0, 1, 9):  # tiny arrays: one half may be empty
        few = pyarrow.array(items[-n_items:] if n_items else [], type=pyarrow.string())
        got_codes, got_labels = setvalues._encoded(few)
        got_labels = got_labels.to_pylist()
        want = pyarrow.compute.dictionary_encode(few)
        assert got_labels == want.dictionary.to_pylist()
        assert got_codes.tolist() == want.indices.fill_null(-1).to_pylist()


def _arrow_lists_in_every_layout():
    """The same list column laid out every way Arrow allows: sliced, chunked, large, fixed
    size, and with missing rows whose offsets still span items (from_arrays with a mask)."""
    values = pyarrow.array(["a", "b", "zz", "c", "a", "zz", "d", "b", None, "e"])
    offsets = pyarrow.array([0, 2, 4, 4, 7, 8, 10], type=pyarrow.int32())
    mask = pyarrow.array([False, True, False, False, True, False])  # rows 1 and 4 missing
    spanning = pyarrow.ListArray.from_arrays(offsets, values, mask=mask)  # rows 1, 4 hold items
    ends = pyarrow.array([True, False, False, False, False, True])  # rows 0, 5 missing
    spanning_ends = pyarrow.ListArray.from_arrays(offsets, values, mask=ends)  # and hold items
    plain = pyarrow.array([["a", "b"], None, [], ["c", "a", "zz"], None, ["b"]],
                          type=pyarrow.list_(pyarrow.string()))
    return {
        "plain": plain,
        "spanning": spanning,
        "sliced": plain.slice(1, 4),
        "sliced spanning": spanning.slice(2, 4),
        "spanning ends": spanning_ends,
        "sliced spanning ends": spanning_ends.slice(0, 3),
        "chunked": pyarrow.chunked_array([plain.slice(0, 3), plain.slice(3)]),
        "large": plain.cast(pyarrow.large_list(pyarrow.large_string())),
        "fixed": pyarrow.array([["a", "b"], None, ["c", "c"]],
                               type=pyarrow.list_(pyarrow.string(), 2)),
        "all missing": pyarrow.array([None, None], type=pyarrow.list_(pyarrow.string())),
        "no rows": pyarrow.array([], type=pyarrow.list_(pyarrow.string())),
    }


@pytest.mark.parametrize("layout", list(_arrow_lists_in_every_layout()))
def test_arrow_list_layouts_read_as_their_python_lists(layout):
    """Every layout (missing rows that hold items, at the ends too, must be left out)."""
    from pandas_agree.data.sets import from_arrow

    arr = _arrow_lists_in_every_layout()[layout]
    rows = arr.to_pylist()  # the definition: what each row holds
    form = from_arrow(pd.Series(arr, dtype=pd.ArrowDtype(arr.type)))
    assert form.present.tolist() == [r is not None for r in rows]
    got = [
        [None if c < 0 else form.label_domain[c] for c in form.labels[a:b]]
        for a, b in itertools.pairwise(form.indptr)
    ]
    assert got == [r for r in rows if r is not None]


# --- Arrow list columns: items that are not plain labels -----------------------------------


def test_nan_in_an_arrow_float_list_is_a_missing_element():
    """Arrow keeps NaN as a value: it was read as a label, and the set incidence then got a
    column index -1 (scipy wrote out of bounds: the interpreter crashed at exit)."""
    s = pd.Series([[1.0, float("nan")], [1.0], [2.0], [1.0]],
                  dtype=pd.ArrowDtype(pyarrow.list_(pyarrow.float64())))
    df = pd.DataFrame({"unit": [0, 0, 1, 1], "coder": [0, 1, 0, 1], "value": s})
    with pytest.raises(MissingInSetError, match="unit 0, coder 0"):
        pa.alpha(df, "jaccard")
    from pandas_agree.data.prepare import set_incidence

    with pytest.raises(MissingInSetError):  # and never a column index -1
        set_incidence(pd.Index([frozenset({1.0, float("nan")}), frozenset({1.0})]))


def test_arrow_dictionary_labels_with_a_repeated_entry_are_one_label():
    """dictionary_encode returns a dictionary array as it is: a dictionary that repeats
    "a" split the label in two (nominal alpha -0.36 instead of 0)."""
    d = pyarrow.DictionaryArray.from_arrays(
        pyarrow.array([0, 1, 0, 1, 2, 0], pyarrow.int32()), pyarrow.array(["a", "a", "b"])
    )
    arr = pyarrow.ListArray.from_arrays(pyarrow.array([0, 1, 2, 3, 4, 5, 6], pyarrow.int32()), d)
    df = pd.DataFrame({"unit": [0, 0, 1, 1, 2, 2], "coder": [0, 1] * 3,
                       "value": pd.Series(arr, dtype=pd.ArrowDtype(arr.type))})
    as_sets = df.assign(value=[frozenset(x) for x in arr.to_pylist()])
    for distance in ("nominal", "jaccard"):
        assert pa.alpha(df, distance).alpha == pytest.approx(pa.alpha(as_sets, distance).alpha)
    pd.testing.assert_frame_equal(pa.coincidences(df), pa.coincidences(as_sets))


def test_fixed_size_lists_with_every_row_missing():
    """pyarrow 12 cannot flatten a fixed-size list column whose rows are all null."""
    arr = pyarrow.array([None, None, ["a", "b"]], type=pyarrow.list_(pyarrow.string(), 2))
    for part in (arr.slice(0, 2), arr.slice(1, 2)):
        from pandas_agree.data.sets import from_arrow

        form = from_arrow(pd.Series(part, dtype=pd.ArrowDtype(part.type)))
        rows = [r for r in part.to_pylist() if r is not None]
        assert form.present.tolist() == [r is not None for r in part.to_pylist()]
        assert [list(form.label_domain[form.labels[a:b]])
                for a, b in itertools.pairwise(form.indptr)] == rows


def test_list_view_columns_are_lists():
    if not hasattr(pyarrow, "list_view"):
        pytest.skip("list views came with pyarrow 16")
    rows = [["a", "b"], None, [], ["b"]]
    arr = pyarrow.array(rows, type=pyarrow.list_view(pyarrow.string()))
    df = pd.DataFrame({"unit": [0, 0, 1, 1], "coder": [0, 1] * 2,
                       "value": pd.Series(arr, dtype=pd.ArrowDtype(arr.type))})
    as_sets = df.assign(value=[None if r is None else frozenset(r) for r in rows])
    assert pa.alpha(df, "jaccard").alpha == pytest.approx(pa.alpha(as_sets, "jaccard").alpha)


@pytest.mark.parametrize("offsets", [None, b""], ids=["no offsets buffer", "empty one"])
def test_lists_of_an_empty_string_array_without_offsets(offsets):
    """Arrow allows a length-0 string array without offsets (Java IPC writers make them)."""
    from pandas_agree.data.sets import from_arrow

    empty = pyarrow.StringArray.from_buffers(
        0, None if offsets is None else pyarrow.py_buffer(offsets), pyarrow.py_buffer(b"")
    )
    lists = pyarrow.ListArray.from_arrays(pyarrow.array([0, 0, 0], pyarrow.int32()), empty)
    form = from_arrow(pd.Series(pd.arrays.ArrowExtensionArray(lists)))
    assert form.present.tolist() == [True, True] and form.indptr.tolist() == [0, 0, 0]
    assert form.labels.size == 0


# --- every kind of cell, read as the definition reads it -------------------------------------


class _MyList(list):
    pass


class _LongList(list):
    """A list whose len() says one item more than iterating it gives."""

    def __len__(self):
        return super().__len__() + 1


class _ShortList(list):
    """A list whose len() says one item fewer than iterating it gives."""

    def __len__(self):
        return max(super().__len__() - 1, 0)


class _ShortTuple(tuple):
    __slots__ = ()

    def __len__(self):
        return max(super().__len__() - 1, 0)


class _ShortFrozenset(frozenset):
    __slots__ = ()

    def __len__(self):
        return max(super().__len__() - 1, 0)


def _objects(values) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


_LABELS = ["a", "b", "NA", "", "ab;cd", 2, 2.5, True, b"a", np.str_("b"), ("t", 1)]

# Cells that are sets of labels (drawn from _LABELS), or missing.
_SET_CELLS = {
    "list": lambda xs: list(xs),
    "tuple": lambda xs: tuple(xs),
    "set": lambda xs: set(xs),
    "frozenset": lambda xs: frozenset(xs),
    "object array": lambda xs: _objects(xs),
    "strided object array": lambda xs: _objects([y for x in xs for y in (x, "skipped")])[::2],
    "None": lambda xs: None,
    "NaN": lambda xs: float("nan"),
}
# Other collections (read by iteration, whatever their len() says) and missing cells.
_OTHER_SETS = {
    "str array": lambda xs: np.array([str(x) for x in xs], dtype=str),
    "int array": lambda xs: np.arange(len(xs)),
    "list subclass": lambda xs: _MyList(xs),
    "list longer by len": lambda xs: _LongList(xs),
    "list shorter by len": lambda xs: _ShortList(xs),
    "tuple shorter by len": lambda xs: _ShortTuple(xs),
    "Series": lambda xs: pd.Series(list(xs), dtype=object),
    "deque": lambda xs: collections.deque(xs),
    "numpy NaN": lambda xs: np.float64("nan"),
    "pd.NA": lambda xs: pd.NA,
}
# Scalars (one-element sets, or an error) and cells that are errors.
_SCALARS = {
    "2-d object array": lambda xs: _objects(xs).reshape(1, -1),
    "0-d array": lambda xs: np.array("a"),
    "str": lambda xs: "a",
    "int": lambda xs: 3,
    "float": lambda xs: 2.5,
    "dict": lambda xs: dict.fromkeys(xs),
}


def _column(rng, makers) -> np.ndarray:
    cells = []
    for _ in range(40):
        make = makers[int(rng.integers(0, len(makers)))]
        k = int(rng.integers(0, 4))
        cells.append(make([_LABELS[i] for i in rng.integers(0, len(_LABELS), k)]))
    return _objects(cells)


def _hashable(x) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _read_by_definition(column: np.ndarray, scalars_as_sets: bool):
    """Which cells are present and the items of each present one (``list(cell)``, or
    ``[cell]`` for a scalar), or the type of the error the column must raise."""
    from pandas_agree.data.sets import is_set_cell
    from pandas_agree.errors import MixedValueTypesError

    def missing(c):
        return c is None or c is pd.NA or (isinstance(c, float) and np.isnan(c))

    present = [not missing(c) for c in column]
    cells = [c for c in column if not missing(c)]
    is_set = [is_set_cell(c) for c in cells]
    scalars = [c for c, s in zip(cells, is_set) if not s]
    if any(not _hashable(c) for c in scalars):
        return ValueTypeError
    if scalars and any(is_set) and not scalars_as_sets:
        return MixedValueTypesError
    rows = [list(c) if s else [c] for c, s in zip(cells, is_set)]
    if any(not _hashable(x) for row in rows for x in row):
        return ValueTypeError
    return present, [frozenset(row) for row in rows]


@pytest.mark.slow
@pytest.mark.parametrize("block", [1, 3, 1 << 12])
@pytest.mark.parametrize("scalars_as_sets", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_from_objects_reads_every_kind_of_cell_by_definition(
    seed, scalars_as_sets, block, monkeypatch
):
    """Random columns of every kind of cell, read in blocks of ``block`` cells: the present
    cells and the set of items of each (by iteration, whatever a cell's len() says), or the
    error the definition calls for."""
    from pandas_agree._core import tuning
    from pandas_agree.data.sets import from_objects

    monkeypatch.setattr(tuning, "READ_BLOCK_CELLS", block)

    rng = np.random.default_rng(seed)
    makers = list(_SET_CELLS.values())
    if seed % 3:
        makers += list(_OTHER_SETS.values())
    if seed % 3 == 2:
        makers += list(_SCALARS.values())
    column = _column(rng, makers)
    want = _read_by_definition(column, scalars_as_sets)
    if isinstance(want, type):
        with pytest.raises(want):
            from_objects(column, scalars_as_sets, "value", check_strings=False)
        return
    codes, distinct = from_objects(column, scalars_as_sets, "value", check_strings=False)
    rows = [frozenset(distinct[c]) for c in codes if c >= 0]
    assert ((codes >= 0).tolist(), rows) == want


@pytest.mark.parametrize(
    "make",
    [_MyList, _LongList, _ShortList, _ShortTuple, _ShortFrozenset, collections.deque],
    ids=["list subclass", "len too long", "len too short", "tuple subclass",
         "frozenset subclass", "deque"],
)
@pytest.mark.slow
def test_a_len_that_disagrees_with_iteration_moves_no_item(make):
    """A collection whose len() is not the number of items iterating it gives: its items
    stay in its own cell (the alpha of the definition), beside plain lists or alone."""
    cells = [["A", "B"], ["A"], ["B", "C"], ["C"], ["A", "C"], ["A", "C"]]
    for odd_rows in ([1, 2], range(6)):
        values = [make(c) if i in odd_rows else c for i, c in enumerate(cells)]
        df = pd.DataFrame({"unit": [0, 0, 1, 1, 2, 2], "coder": ["x", "y"] * 3})
        df["value"] = pd.Series(_objects(values), dtype=object)
        as_sets = df.assign(value=[frozenset(c) for c in cells])
        expected = alpha_by_definition(as_sets, jaccard)
        assert pa.alpha(df, "jaccard").alpha == pytest.approx(expected, abs=1e-12)
        assert pa.alpha(df, "jaccard", on_duplicate="union").alpha == pytest.approx(
            expected, abs=1e-12
        )


def _unaligned(cells: list) -> np.ndarray:
    """An object column whose pointers are not aligned (a field of a packed record)."""
    records = np.zeros(len(cells), dtype=np.dtype([("pad", "u1"), ("cell", object)]))
    records["cell"] = _objects(cells)
    column = records["cell"]
    assert not column.flags.aligned
    return column


def test_unaligned_columns_and_cells_are_read():
    from pandas_agree.data.sets import from_objects

    for column in (_unaligned([["a", "b"], None, ("c",)]),
                   _objects([["a", "b"], None, _unaligned(["c"])])):
        codes, distinct = from_objects(column, False, "value")
        assert codes.tolist() == [0, -1, 1]
        assert [sorted(x) for x in distinct] == [["a", "b"], ["c"]]


def test_more_items_than_an_array_can_index_are_refused():
    """Cells of 2**59 items each (a broadcast view costs no memory): their total would
    overflow an index, so the column is refused before any item is read."""
    from pandas_agree.data.sets import from_objects

    huge = np.broadcast_to(_objects(["a"]), (2**59,))
    for column in (_objects([huge] * 16), _objects([huge] * 15 + [["a"]])):
        with pytest.raises(ValueTypeError, match="more than an array can index"):
            from_objects(column, False, "value")


# --- set rows numbered by first appearance (dedupe_sets) ---------------------------------------


def _codes_by_definition(indptr, labels):
    """Codes of the rows' sets by first appearance, and the distinct sets, in Python."""
    seen: dict[frozenset, int] = {}
    codes = []
    for a, b in itertools.pairwise(indptr.tolist()):
        codes.append(seen.setdefault(frozenset(labels[a:b].tolist()), len(seen)))
    return codes, [sorted(s) for s in seen]


@pytest.mark.parametrize("seed", range(30))
def test_dedupe_sets_numbers_rows_by_first_appearance(seed):
    """Random rows with repeats and empty rows, from few distinct sets to thousands, labels
    up to 63 (one bit mask per row) and beyond (rows compared as integer rows)."""
    rng = np.random.default_rng(seed)
    n_labels = int(rng.choice([1, 2, 5, 12, 40, 64, 200]))
    n_rows = int(rng.choice([1, 7, 300, 5000]))
    lengths = rng.integers(0, int(rng.integers(0, 8)) + 1, n_rows)
    indptr = np.zeros(n_rows + 1, dtype=np.intp)
    np.cumsum(lengths, out=indptr[1:])
    labels = rng.integers(0, n_labels, int(indptr[-1])).astype(np.intp)
    codes, set_ptr, set_labels = dedupe_sets(indptr, labels, n_labels)
    want_codes, want_sets = _codes_by_definition(indptr, labels)
    assert codes.tolist() == want_codes
    assert [set_labels[a:b].tolist() for a, b in itertools.pairwise(set_ptr)] == want_sets


@pytest.mark.slow
def test_dedupe_sets_of_many_distinct_sets_and_high_labels():
    """50,000 distinct sets of labels 0..63 in random order, each seen twice; and every
    subset of labels 48..63, whose bit masks differ only in their high bits."""
    rng = np.random.default_rng(0)
    for masks in (np.unique(rng.integers(0, 2**63, 50_000, dtype=np.uint64)),
                  (rng.permutation(2**16).astype(np.uint64) << np.uint64(48))):
        masks = np.concatenate([masks, masks[::-1]])
        bits = (masks[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
        rows, labels = np.nonzero(bits)
        indptr = np.zeros(masks.size + 1, dtype=np.intp)
        np.cumsum(np.bincount(rows, minlength=masks.size), out=indptr[1:])
        codes, _, _ = dedupe_sets(indptr, labels.astype(np.intp), 64)
        half = masks.size // 2
        assert np.array_equal(codes[:half], np.arange(half))
        assert np.array_equal(codes[half:], np.arange(half)[::-1])


def test_dedupe_sets_reads_any_integer_arrays():
    """The caller's arrays may be int32, strided, start past label 0, or be read-only."""
    indptr = np.array([0, 2, 3, 5, 5], dtype=np.int32)
    labels = np.repeat(np.array([1, 0, 2, 0, 1], dtype=np.int64), 2)[::2]
    labels.flags.writeable = False
    codes, ptr, lab = dedupe_sets(indptr, labels, 3)
    assert codes.tolist() == [0, 1, 0, 2]
    assert ptr.tolist() == [0, 2, 3, 3] and lab.tolist() == [0, 1, 2]
    codes, ptr, lab = dedupe_sets(np.array([1, 3, 5, 5]), np.array([5, 1, 2, 1, 2, 9]), 10)
    assert codes.tolist() == [0, 0, 1] and ptr.tolist() == [0, 2, 2]


# --- the same error on dask as on pandas ------------------------------------------------------


@pytest.mark.parametrize(
    "cell",
    [frozenset({"x", None}), ("x", None), ["x", None], {"x", float("nan")}, "arrow"],
    ids=["frozenset", "tuple", "list", "set with NaN", "Arrow list"],
)
@pytest.mark.slow
def test_missing_element_names_the_unit_on_dask_as_on_pandas(cell):
    """A set with a missing element: dask raises pandas' error, naming the unit and coder
    (dask read hashable sets by their value domain, which names no unit)."""
    dd = pytest.importorskip("dask.dataframe")
    import dask

    import pandas_agree.frontends.dask as pa_dask

    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b"] * 2})
    if cell == "arrow":
        df["value"] = pd.Series([["x"], ["x", None], ["y"], ["y"]],
                                dtype=pd.ArrowDtype(pyarrow.list_(pyarrow.string())))
    else:
        df["value"] = pd.Series(_objects([frozenset({"x"}), cell, frozenset({"y"}),
                                          frozenset({"y"})]), dtype=object)
    with pytest.raises(MissingInSetError, match="unit 1, coder 'b'") as on_pandas:
        pa.alpha(df, "masi")
    with dask.config.set({"dataframe.convert-string": False}):
        for npartitions in (1, 2):
            with pytest.raises(MissingInSetError) as on_dask:
                pa_dask.alpha(dd.from_pandas(df, npartitions=npartitions), "masi")
            assert str(on_dask.value) == str(on_pandas.value)


@pytest.mark.slow
def test_tuples_beside_frozensets_are_sets_on_dask():
    """Equal sets written as a tuple and a frozenset are one value on dask, as on pandas."""
    dd = pytest.importorskip("dask.dataframe")
    import dask

    import pandas_agree.frontends.dask as pa_dask

    df = random_set_frame(4)
    mixed = df.assign(value=_objects([
        v if v is None or i % 2 else tuple(sorted(v)) for i, v in enumerate(df["value"])
    ]))
    expected = alpha_by_definition(df, masi)
    assert pa.alpha(mixed, "masi").alpha == pytest.approx(expected, abs=1e-12)
    with dask.config.set({"dataframe.convert-string": False}):
        got = pa_dask.alpha(dd.from_pandas(mixed, npartitions=3), "masi")
    assert got.alpha == pytest.approx(expected, abs=1e-12)


def test_set_masks_by_reduceat_end_at_the_last_row(monkeypatch):
    """The OR route of the set masks (numpy before 2.0 has no popcount; repeated labels take
    it on every numpy) ends the last row at ``indptr[-1]``, not at the end of the labels."""
    from pandas_agree._core import setcodes

    monkeypatch.delattr(np, "bitwise_count", raising=False)
    indptr, labels = np.array([1, 3, 5, 5]), np.array([5, 1, 2, 1, 2, 9])
    masks = setcodes._masks(indptr, labels)
    want = [sum(1 << int(x) for x in set(labels[a:b])) for a, b in itertools.pairwise(indptr)]
    assert masks.tolist() == want


_PLAIN_CELLS = {k: _SET_CELLS[k] for k in ("list", "tuple", "set", "frozenset", "None")}
_ARRAY_CELLS = {
    "object array": _SET_CELLS["object array"],
    "strided object array": _SET_CELLS["strided object array"],
    "str array": _OTHER_SETS["str array"],
    "int array": _OTHER_SETS["int array"],
    "None": _SET_CELLS["None"],
}


@pytest.mark.parametrize("block", [1, 3, 1 << 12])
@pytest.mark.parametrize("last", [None, "plain", "NaN", "0-d array", "str"])
@pytest.mark.parametrize("cells", ["plain", "arrays", "both"])
@pytest.mark.parametrize("seed", range(4))
def test_columns_of_built_in_collections_read_by_definition(seed, cells, last, block, monkeypatch):
    """Columns of None, built-in lists, tuples, sets and frozensets, or of numpy arrays (read
    in blocks of ``block`` cells), both mixed, and the same with one other cell last: the
    present cells and the items of each, or the error the definition calls for; the codes
    number the sets by first appearance whatever the blocks."""
    from pandas_agree._core import tuning
    from pandas_agree.data.sets import from_objects

    monkeypatch.setattr(tuning, "READ_BLOCK_CELLS", block)

    rng = np.random.default_rng(seed)
    makers = {"plain": _PLAIN_CELLS, "arrays": _ARRAY_CELLS, "both": _PLAIN_CELLS | _ARRAY_CELLS}
    column = _column(rng, list(makers[cells].values()))
    if last is not None:
        tail = {"plain": [], "NaN": float("nan"), "0-d array": np.array("a"), "str": "a"}
        column = _objects([*column, tail[last]])
    want = _read_by_definition(column, scalars_as_sets=False)
    if isinstance(want, type):
        with pytest.raises(want):
            from_objects(column, False, "value", check_strings=False)
        return
    codes, distinct = from_objects(column, False, "value", check_strings=False)
    rows = [frozenset(distinct[c]) for c in codes if c >= 0]
    assert ((codes >= 0).tolist(), rows) == want
    first_seen = list(dict.fromkeys(c for c in codes.tolist() if c >= 0))
    assert first_seen == list(range(len(distinct)))


@pytest.mark.parametrize("block", [1, 2, 5])
def test_a_missing_item_in_a_later_block_is_refused(block, monkeypatch):
    """A missing item in any block of a list column is refused, naming its cell."""
    from pandas_agree._core import tuning

    monkeypatch.setattr(tuning, "READ_BLOCK_CELLS", block)
    df = pd.DataFrame({"unit": [1, 1, 2, 2, 3, 3], "coder": ["a", "b"] * 3})
    df["value"] = _objects([["x"], ["y"], None, ["x", "y"], ["y"], ["x", None]])
    message = r"unit 3, coder 'b', value \{(None, 'x'|'x', None)\}"
    with pytest.raises(MissingInSetError, match=message):
        pa.alpha(df, "masi")


@pytest.mark.parametrize("block", [1, 1 << 12])
@pytest.mark.parametrize(
    "cells",
    [[], [None, None], [[], None, ()], [[None], None, [np.nan]], [[], [None]]],
    ids=["empty", "all None", "empty sets", "only missing items", "empty and missing"],
)
def test_columns_of_no_items_read_by_definition(cells, block, monkeypatch):
    """No cell holds a label: every present cell is the empty set, or its missing items as
    they are (which the caller refuses)."""
    from pandas_agree._core import tuning
    from pandas_agree.data.sets import from_objects

    monkeypatch.setattr(tuning, "READ_BLOCK_CELLS", block)

    column = _objects(cells)
    codes, distinct = from_objects(column, False, "value", check_strings=False)
    rows = [frozenset(distinct[c]) for c in codes if c >= 0]
    assert ((codes >= 0).tolist(), rows) == _read_by_definition(column, False)


def test_a_generator_cell_among_lists_is_not_consumed():
    """An iterator cell is one (hashable) label: reading the column leaves it unconsumed."""
    from pandas_agree.data.sets import from_objects

    gen = iter(["x", "y"])
    column = _objects([["a"], ["b", "a"], gen])
    codes, distinct = from_objects(column, True, "value", check_strings=False)
    assert [frozenset(distinct[c]) for c in codes] == [{"a"}, {"a", "b"}, {gen}]
    assert list(gen) == ["x", "y"]
