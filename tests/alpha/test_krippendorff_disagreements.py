"""The items to adjudicate: disagreements(), AlphaResult.disagreements(), span_disagreements().

The ranking is checked against each unit's part of the observed disagreement computed here
from Krippendorff's coincidence definition (per-unit coincidence matrices, pure Python), on
published data and on random data; the values against the rows of the input frame.
"""

from __future__ import annotations

import itertools
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import (
    ColumnNotFoundError,
    DegenerateDataWarning,
    DuplicateRatingError,
    InvalidParameterError,
    NoPairableUnitsError,
    ValueTypeError,
)
from pandas_agree.krippendorff.disagreements import (
    RANK_COLUMNS,
    disagreements,
    ranked_disagreements,
    span_disagreements,
)
from pandas_agree.spans import span_f1, unmatched_pairs


def _nominal(a, b):
    return 0.0 if a == b else 1.0


def _interval(a, b):
    return float((a - b) ** 2)


def _jaccard(a, b):
    if a == b:
        return 0.0
    return 1.0 - len(a & b) / len(a | b)


def unit_parts_by_definition(df, delta, keys=("unit",)):
    """O_u = sum_{c,k} o^(u)_{ck} delta_{ck}, with o^(u)_{ck} = #{ordered pairs (c, k) of
    values by different coders in u} / (m_u - 1) (Krippendorff 2011, section A), for every
    pairable unit; the keys are tuples of ``keys``. Pure Python, from the definition."""
    rated = df[df["value"].notna()]
    parts = {}
    for key, g in rated.groupby(list(keys), sort=False):
        values = g["value"].tolist()
        m = len(values)
        if m < 2:
            continue
        coincidences = {}
        for i, j in itertools.permutations(range(m), 2):
            pair = (values[i], values[j])
            coincidences[pair] = coincidences.get(pair, Fraction(0)) + Fraction(1, m - 1)
        o_u = sum(float(o) * delta(c, k) for (c, k), o in coincidences.items())
        parts[key if isinstance(key, tuple) else (key,)] = o_u
    return parts


def random_long(rng, n_units=40, coders="ABCD", n_values=4, p_missing=0.25, sets=False):
    rows = []
    for u in range(n_units):
        for c in coders:
            if rng.random() < p_missing:
                continue
            if sets:
                size = int(rng.integers(1, 3))
                v = frozenset(rng.choice(list("xyzw"), size=size, replace=False).tolist())
            else:
                v = int(rng.integers(1, n_values + 1))
            rows.append((f"u{u:02d}", c, v))
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    return df.sample(frac=1.0, random_state=int(rng.integers(1 << 30))).reset_index(drop=True)


# ---------------------------------------------------------------------------------------------
# published data


def test_krippendorff_2011_nominal_ranking_and_values(k2011):
    # Krippendorff (2011), section C: the coincidence matrix has 8 off-diagonal coincidences
    # over n = 40 pairable values. Unit 6 (1, 2, 3, 4) holds 4 of them: 12 ordered pairs of
    # different values / (m - 1 = 3); units 2 (2, 2, 3, 2) and 8 (1, 1, 2, 1) hold 6/3 = 2
    # each; every other unit none.
    table = disagreements(k2011)
    assert table["unit"].tolist() == [6, 2, 8]
    assert table["share"].tolist() == [0.5, 0.25, 0.25]
    assert table["disagreement"].tolist() == pytest.approx([4 / 40, 2 / 40, 2 / 40])
    assert list(table.columns) == ["unit", *RANK_COLUMNS, "A", "B", "C", "D"]
    assert table.loc[1, ["A", "B", "C", "D"]].tolist() == [1, 2, 3, 4]
    assert table.loc[2, ["A", "B", "C", "D"]].tolist() == [2, 2, 3, 2]
    assert table.index.name == "rank" and table.index.tolist() == [1, 2, 3]


def test_krippendorff_2011_interval_parts_add_up_to_the_published_alpha(k2011):
    # Krippendorff (2011), section C: interval alpha 0.849. Unit 6 holds O_6 = 40/3 of
    # sum O_u = 52/3 (units 2 and 8: 2 each), so D_o = 52/3 / 40 and share 10/13.
    res = pa.alpha(k2011, "interval")
    table = res.disagreements(top=None)
    assert table["share"].tolist() == pytest.approx([10 / 13, 3 / 26, 3 / 26])
    assert table["disagreement"].sum() == pytest.approx(res.observed)
    assert 1 - table["disagreement"].sum() / res.expected == pytest.approx(0.849, abs=5e-4)


def test_missing_coder_value_is_none():
    # Krippendorff (2011), section C: unit 2 rated 2, 2, 3, 2; drop A's rating of it.
    df = pa.datasets.krippendorff_2011()
    df = df[~((df["unit"] == 2) & (df["coder"] == "A"))]
    table = disagreements(df)
    row = table[table["unit"] == 2].iloc[0]
    assert row["A"] is None
    assert [row["B"], row["C"], row["D"]] == [2, 3, 2]


# ---------------------------------------------------------------------------------------------
# random data against the definition


@pytest.mark.parametrize(
    "distance, delta, sets",
    [
        pytest.param("nominal", _nominal, False, id="nominal"),
        pytest.param("interval", _interval, False, id="interval"),
        pytest.param("jaccard", _jaccard, True, id="jaccard-sets"),
    ],
)
@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ranking_equals_the_coincidence_definition(distance, delta, sets, seed):
    rng = np.random.default_rng(seed)
    df = random_long(rng, sets=sets)
    before = df.copy()
    parts = unit_parts_by_definition(df, delta)
    total = sum(parts.values())
    n = sum(len(g) for _, g in df.groupby("unit") if len(g) >= 2)
    table = disagreements(df, distance, top=None)
    pd.testing.assert_frame_equal(df, before)
    # exactly the units with some disagreement, each with its share and part of D_o
    assert set(table["unit"]) == {k[0] for k, o in parts.items() if o > 0}
    for _, row in table.iterrows():
        o_u = parts[(row["unit"],)]
        assert row["share"] == pytest.approx(o_u / total, rel=1e-12)
        assert row["disagreement"] == pytest.approx(o_u / n, rel=1e-12)
    # worst first
    shares = table["share"].to_numpy()
    assert (np.diff(shares) <= 1e-15).all()
    # top keeps the first rows
    pd.testing.assert_frame_equal(disagreements(df, distance, top=5), table.iloc[:5])
    # the values are the coders' values, None where a coder did not rate the unit
    given = {(u, c): v for u, c, v in df.itertuples(index=False)}
    for _, row in table.iterrows():
        for c in "ABCD":
            if c in table.columns:
                assert row[c] == given.get((row["unit"], c)), (row["unit"], c)


@pytest.mark.parametrize("seed", [3, 4])
def test_units_nested_in_groups(seed):
    # The same unit labels in two groups are two units (as in pa.report): the ranking is
    # that of the pooled alpha over (group, unit), and the group comes first.
    rng = np.random.default_rng(seed)
    df = pd.concat(
        [random_long(rng, n_units=15).assign(batch=b) for b in ("b1", "b2")], ignore_index=True
    )
    parts = unit_parts_by_definition(df, _nominal, keys=("batch", "unit"))
    total = sum(parts.values())
    table = disagreements(df, by="batch", top=None)
    assert list(table.columns[:2]) == ["batch", "unit"]
    assert {(b, u) for b, u in zip(table["batch"], table["unit"])} == {
        k for k, o in parts.items() if o > 0
    }
    for _, row in table.iterrows():
        assert row["share"] == pytest.approx(parts[(row["batch"], row["unit"])] / total)
    given = {(b, u, c): v for u, c, v, b in df.itertuples(index=False)}
    for _, row in table.iterrows():
        for c in "ABCD":
            assert row[c] == given.get((row["batch"], row["unit"], c))


def test_grouped_ranking_matches_the_reports_pooled_row():
    # Krippendorff (2011) section C and Wikipedia's example (public_examples.md) as two
    # groups with overlapping unit labels: nominal 0.743 and 0.691, pooled 0.724 (docs).
    studies = pd.concat(
        [
            pa.datasets.krippendorff_2011().assign(study="k2011"),
            pa.datasets.wikipedia_alpha().assign(study="wiki"),
        ],
        ignore_index=True,
    )
    table = disagreements(studies, by="study", top=None)
    nested = studies.assign(unit=studies["study"] + "/" + studies["unit"].astype(str))
    res = pa.alpha(nested)
    assert round(res.alpha, 3) == 0.724
    assert table["disagreement"].sum() == pytest.approx(res.observed)
    assert ranked_disagreements(res, None)["share"].tolist() == pytest.approx(
        table["share"].tolist()
    )


# ---------------------------------------------------------------------------------------------
# degenerate data and bad input


def test_no_variation_gives_an_empty_list():
    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": list("abab"), "value": ["x"] * 4})
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateDataWarning)
        table = disagreements(df)
    assert table.empty
    assert list(table.columns) == ["unit", *RANK_COLUMNS, "a", "b"]


def test_no_pairable_unit_raises():
    df = pd.DataFrame({"unit": [1, 2], "coder": ["a", "b"], "value": ["x", "y"]})
    with pytest.raises(NoPairableUnitsError, match="no unit has two or more values"):
        disagreements(df)


@pytest.mark.parametrize("top", [0, -1, 1.5, True, "3"])
def test_bad_top(k2011, top):
    with pytest.raises(InvalidParameterError, match=r"`top` must be a positive integer or None"):
        disagreements(k2011, top=top)


def test_coder_named_like_a_column():
    df = pd.DataFrame({"unit": [1, 1], "coder": ["share", "b"], "value": ["x", "y"]})
    with pytest.raises(InvalidParameterError, match=r"coder 'share' is named like a column"):
        disagreements(df)


def test_names_like_a_column_messages():
    df = pd.DataFrame({"unit": [1, 1], "coder": ["share", "b"], "value": ["x", "y"]})
    with pytest.raises(InvalidParameterError) as caught:
        disagreements(df)
    assert str(caught.value) == (
        "coder 'share' is named like a column of the list of disagreements "
        f"({['unit', *RANK_COLUMNS]}); rename that coder, e.g. "
        "data.replace({<coder column>: {'share': 'coder ' + str('share')}})"
    )
    with pytest.raises(InvalidParameterError) as caught:
        disagreements(df.rename(columns={"unit": "share"}).assign(coder=["a", "b"]), unit="share")
    assert str(caught.value) == (
        "the unit or group column 'share' is named like a column of the list of disagreements "
        f"({list(RANK_COLUMNS)}); rename it, e.g. data.rename(columns={{'share': 'item'}})"
    )


@pytest.mark.parametrize("column", ["unit", "by"])
def test_unit_or_group_named_like_a_column(k2011, column):
    if column == "unit":
        df = k2011.rename(columns={"unit": "share"})
        kwargs = {"unit": "share"}
    else:
        df = k2011.assign(n_values="g")
        kwargs = {"by": "n_values"}
    with pytest.raises(InvalidParameterError, match=r"column '(share|n_values)' is named like"):
        disagreements(df, **kwargs)


def test_missing_column(k2011):
    with pytest.raises(ColumnNotFoundError, match=r"`coder` column .rater. is not in"):
        disagreements(k2011, coder="rater")
    with pytest.raises(ColumnNotFoundError, match=r"`by` column 'batch'"):
        disagreements(k2011, by="batch")


def test_missing_group_label(k2011):
    df = k2011.assign(batch=["b"] * (len(k2011) - 1) + [None])
    with pytest.raises(InvalidParameterError, match=r"`by` column 'batch' has 1 missing label"):
        disagreements(df, by="batch")


def test_duplicates_within_a_group_name_the_group():
    df = pd.DataFrame(
        {"g": ["p", "p", "p"], "unit": [1, 1, 1], "coder": ["a", "a", "b"], "value": [1, 2, 1]}
    )
    with pytest.raises(DuplicateRatingError, match=r"\(g, unit, coder\) = \('p', 1, 'a'\)"):
        disagreements(df, by="g")


def test_result_without_fit_and_not_a_result():
    res = pa.alpha(pa.datasets.krippendorff_2011())
    bare = type(res)(
        **{
            f: getattr(res, f)
            for f in (
                "alpha",
                "distance",
                "observed",
                "expected",
                "n_units",
                "n_coders",
                "n_pairable",
                "n_values",
            )
        }
    )
    with pytest.raises(InvalidParameterError, match="carries no fit data"):
        ranked_disagreements(bare)
    with pytest.raises(ValueTypeError, match="must be an AlphaResult"):
        ranked_disagreements(0.74)


def test_top_level_and_accessor_give_the_same(k2011):
    pd.testing.assert_frame_equal(
        pa.disagreements(k2011, "ordinal"), k2011.agree.disagreements("ordinal")
    )
    assert callable(pa.alpha) and pa.alpha(k2011).alpha == pytest.approx(113 / 152)


# ---------------------------------------------------------------------------------------------
# spans


def _spans(rows):
    return pd.DataFrame(rows, columns=["document", "coder", "start", "end", "label"])


def test_span_kinds_and_snippets():
    text = "Bill met Jill Ann in Paris ."
    spans = _spans(
        [
            ("d1", "A", 0, 4, "PER"),  # matched exactly
            ("d1", "B", 0, 4, "PER"),
            ("d1", "A", 9, 13, "PER"),  # boundary: B has 9-17
            ("d1", "B", 9, 17, "PER"),
            ("d1", "A", 21, 26, "LOC"),  # label: B says ORG at the same place
            ("d1", "B", 21, 26, "ORG"),
            ("d1", "A", 5, 8, "EVT"),  # only a
        ]
    )
    table = span_disagreements(spans, texts={"d1": text})
    assert table["kind"].tolist() == ["only a", "boundary", "label"]
    assert table["text_a"].tolist() == ["met", "Jill", "Paris"]
    assert table["text_b"].tolist() == [None, "Jill Ann", "Paris"]
    assert table["label_b"].tolist() == [None, "PER", "ORG"]
    # overlap matching takes the boundary case as a match
    assert span_disagreements(spans, "overlap")["kind"].tolist() == ["only a", "label"]


@pytest.mark.slow
@pytest.mark.parametrize("match", ["exact", "overlap"])
@pytest.mark.parametrize("seed", [0, 1])
def test_unmatched_spans_are_what_span_f1_leaves(match, seed):
    rng = np.random.default_rng(seed)
    rows = []
    for d in ("d1", "d2"):
        for c in "ABC":
            for _ in range(int(rng.integers(3, 9))):
                s = int(rng.integers(0, 40))
                rows.append((d, c, s, s + int(rng.integers(1, 6)), str(rng.choice(["X", "Y"]))))
    spans = _spans(rows)
    pairs = unmatched_pairs(spans, match)
    f1 = span_f1(spans, match)
    for (a, b), part in pairs.groupby(["coder_a", "coder_b"]):
        row = f1[(f1["coder_a"] == a) & (f1["coder_b"] == b) & (f1["label"] == "(all)")].iloc[0]
        assert (part["row_a"] >= 0).sum() == row["n_a"] - row["matched"]
        assert (part["row_b"] >= 0).sum() == row["n_b"] - row["matched"]
        # each span at most once per coder pair, and of the right coder
        ra, rb = part["row_a"][part["row_a"] >= 0], part["row_b"][part["row_b"] >= 0]
        assert ra.is_unique and rb.is_unique
        assert (spans["coder"].to_numpy()[ra] == a).all()
        assert (spans["coder"].to_numpy()[rb] == b).all()
        # paired spans overlap in the same document
        both = part[(part["row_a"] >= 0) & (part["row_b"] >= 0)]
        sa, ea = spans["start"].to_numpy()[both["row_a"]], spans["end"].to_numpy()[both["row_a"]]
        sb, eb = spans["start"].to_numpy()[both["row_b"]], spans["end"].to_numpy()[both["row_b"]]
        assert (np.minimum(ea, eb) > np.maximum(sa, sb)).all()
        da = spans["document"].to_numpy()[both["row_a"]]
        db = spans["document"].to_numpy()[both["row_b"]]
        assert (da == db).all()
    table = span_disagreements(spans, match, top=None)
    assert len(table) == len(pairs)
    assert len(span_disagreements(spans, match, top=3)) == min(3, len(pairs))


def test_span_html_in_texts_stays_text():
    spans = _spans([("d<1>", "A", 0, 8, "<b>"), ("d<1>", "B", 0, 3, "<b>")])
    table = span_disagreements(spans, texts={"d<1>": "<script>x</script>"})
    assert table["text_a"].tolist() == ["<script>"]
    assert table["document"].tolist() == ["d<1>"]


def test_span_bad_input():
    spans = _spans([("d1", "A", 0, 4, "PER"), ("d1", "B", 0, 4, "PER")])
    with pytest.raises(InvalidParameterError, match="`match` must be 'exact' or 'overlap'"):
        span_disagreements(spans, "fuzzy")
    with pytest.raises(InvalidParameterError, match="`top` must be a positive integer"):
        span_disagreements(spans, top=0)
    with pytest.raises(InvalidParameterError, match="`texts` must map each document"):
        span_disagreements(_spans([("d1", "A", 0, 4, "P"), ("d1", "B", 0, 3, "P")]), texts="x")
    assert span_disagreements(spans).empty
