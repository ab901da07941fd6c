"""Label hierarchies (pandas_agree.tasks.hierarchy): Taxonomy, hierarchical F1, tree distances.

Published and independent values: sklearn-hierarchical-classification's and hiclass's test
cases for hierarchical precision/recall/F (Kiritchenko et al. 2006's definition), NLTK's
``Synset.wup_similarity`` run on a hand-made tree, NLTK's ``AnnotationTask.alpha`` with the
same distance as a callable. Brute force from the definitions on random taxonomies: hF with
Python sets, path lengths by breadth-first search, the triangle inequality on every triple.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import deque

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree import Taxonomy
from pandas_agree.errors import (
    ColumnNotFoundError,
    DuplicateRatingError,
    InvalidParameterError,
    MissingInSetError,
    ValueTypeError,
)
from pandas_agree.tasks.hierarchy import POOLED, bind_distance

ANIMALS = {"Dog": "Mammal", "Cat": "Mammal", "Mammal": "Animal", "Bird": "Animal"}


# ---------------------------------------------------------------------------------------------
# Building a taxonomy


@pytest.mark.parametrize(
    "given",
    [
        pytest.param(ANIMALS, id="parent-links"),
        pytest.param({"Animal": {"Mammal": ["Dog", "Cat"], "Bird": None}}, id="nested"),
        pytest.param({"Animal": ["Bird", {"Mammal": {"Dog": {}, "Cat": []}}]}, id="nested-mixed"),
        pytest.param(["Animal/Mammal/Dog", "Animal/Mammal/Cat", "Animal/Bird"], id="paths"),
        pytest.param(
            [("Animal", "Mammal", "Dog"), ("Animal", "Mammal", "Cat"), ("Animal", "Bird")],
            id="tuples",
        ),
        # Label Studio's taxonomy result: a list of paths, each a list of names (partial
        # paths allowed: choosing a parent node gives its own path)
        pytest.param(
            [
                ["Animal"],
                ["Animal", "Mammal", "Dog"],
                ["Animal", "Mammal", "Cat"],
                ["Animal", "Bird"],
            ],
            id="label-studio",
        ),
    ],
)
def test_every_form_gives_the_same_taxonomy(given):
    tax = Taxonomy.coerce(given)
    assert tax == Taxonomy(ANIMALS)
    assert tax.parents() == {
        "Dog": "Mammal",
        "Cat": "Mammal",
        "Mammal": "Animal",
        "Bird": "Animal",
        "Animal": None,
    }
    assert (tax.depth("Animal"), tax.depth("Mammal"), tax.depth("Dog")) == (1, 2, 3)
    assert tax.ancestors("Cat") == ("Mammal", "Animal")
    assert tax.augment("Cat") == frozenset({"Cat", "Mammal", "Animal"})
    assert tax.augment({"Dog", "Bird"}) == frozenset({"Dog", "Mammal", "Animal", "Bird"})
    assert repr(tax) == "Taxonomy(5 labels, 1 top-level, depth 3)"
    assert "Dog" in tax and "Fish" not in tax and [] not in tax and len(tax) == 5


def test_paths_named_by_path_keep_equal_names_apart():
    tax = Taxonomy.from_paths(["Toy/Dog", "Animal/Dog"], names="path")
    assert tax.parent("Animal/Dog") == "Animal" and tax.parent("Toy/Dog") == "Toy"
    assert Taxonomy.from_paths(["a.b.c"], sep=".").parent("c") == "b"
    frame = Taxonomy.from_paths(["A/B"]).to_frame()
    assert frame.to_dict("list") == {"label": ["A", "B"], "parent": [None, "A"], "depth": [1, 2]}


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(
            lambda: Taxonomy({"A": "B", "B": "C", "C": "A"}),
            "cycle: 'A' -> 'B' -> 'C' -> 'A'",
            id="cycle",
        ),
        pytest.param(
            lambda: Taxonomy({"D": "A", "A": "B", "B": "A"}),
            "cycle: 'A' -> 'B' -> 'A'",
            id="cycle-reached-from-outside",
        ),
        pytest.param(lambda: Taxonomy({"A": "A"}), "cycle: 'A' -> 'A'", id="self-parent"),
        pytest.param(
            lambda: Taxonomy.from_paths(["Toy/Dog", "Animal/Dog"]),
            "the label 'Dog' has two parents, 'Toy' and 'Animal'",
            id="two-parents",
        ),
        pytest.param(
            lambda: Taxonomy.from_nested({"A": ["X"], "B": ["X"]}),
            "the label 'X' appears twice",
            id="nested-twice",
        ),
        pytest.param(lambda: Taxonomy({None: "A"}), "a label is missing", id="missing"),
        pytest.param(lambda: Taxonomy.from_paths(["A//B"]), "has an empty part", id="empty-part"),
        pytest.param(
            lambda: Taxonomy.coerce({"A": "B", "C": ["D"]}),
            "mixes parent links",
            id="mixed-mapping",
        ),
        pytest.param(lambda: Taxonomy(["A/B"]), "must be a mapping", id="not-mapping"),
        pytest.param(lambda: Taxonomy.coerce(42), "must be a Taxonomy", id="number"),
        pytest.param(
            lambda: Taxonomy.from_paths(["A"], names="leaves"), "`names` must be", id="names"
        ),
    ],
)
def test_bad_taxonomies_name_the_value(build, message):
    with pytest.raises(InvalidParameterError, match=message.replace("(", r"\(")):
        build()


def test_unknown_label_is_named():
    tax = Taxonomy(ANIMALS)
    with pytest.raises(InvalidParameterError, match="the label 'Fish' is not in the taxonomy"):
        tax.augment("Fish")
    with pytest.raises(InvalidParameterError, match="'Fsh' is not in the taxonomy"):
        tax.distance("path")("Dog", "Fsh")


# ---------------------------------------------------------------------------------------------
# Random taxonomies and brute force


def random_taxonomy(rng: random.Random, n: int) -> Taxonomy:
    parents = {}
    for k in range(n):
        if k == 0 or rng.random() < 0.2:
            parents[f"L{k}"] = None
        else:
            parents[f"L{k}"] = f"L{rng.randrange(max(0, k - 4), k)}"
    return Taxonomy(parents)


def closure(tax: Taxonomy, labels) -> set:
    """The labels and all their ancestors, by following parent links one by one."""
    out = set()
    for lab in labels:
        while lab is not None:
            out.add(lab)
            lab = tax.parents()[lab]
    return out


def bfs_lengths(tax: Taxonomy) -> dict:
    """Edges between every two labels by breadth-first search (virtual root: None)."""
    adj = {lab: set() for lab in [*tax.labels, None]}
    for child, par in tax.parents().items():
        adj[child].add(par)
        adj[par].add(child)
    out = {}
    for src in tax.labels:
        dist = {src: 0}
        todo = deque([src])
        while todo:
            x = todo.popleft()
            for y in adj[x]:
                if y not in dist:
                    dist[y] = dist[x] + 1
                    todo.append(y)
        for dst in tax.labels:
            out[(src, dst)] = dist[dst]
    return out


@pytest.mark.parametrize("seed", range(20))
def test_path_lengths_and_diameter_against_breadth_first_search(seed):
    rng = random.Random(seed)
    tax = random_taxonomy(rng, rng.randint(1, 25))
    lengths = bfs_lengths(tax)
    pairs = list(lengths)
    got = tax.path_lengths([a for a, _ in pairs], [b for _, b in pairs])
    assert got.tolist() == [lengths[p] for p in pairs]
    assert tax.diameter == max(lengths.values())
    matrix = tax.distance_matrix("path").to_numpy()
    diam = max(lengths.values())
    expected = np.array([[lengths[(a, b)] for b in tax.labels] for a in tax.labels]) / max(diam, 1)
    np.testing.assert_allclose(matrix, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("kind", ["path", "jaccard"])
def test_tree_distances_are_metrics_on_random_trees(seed, kind):
    # path: a multiple of the shortest-path metric; jaccard: Jaccard distance (a metric on
    # sets) of the closures, and distinct single labels have distinct closures.
    rng = random.Random(seed)
    tax = random_taxonomy(rng, rng.randint(2, 30))
    d = tax.distance_matrix(kind).to_numpy()
    n = len(tax)
    assert np.all(d >= 0) and np.all(d <= 1 + 1e-15)
    np.testing.assert_array_equal(d, d.T)
    assert np.all(np.diag(d) == 0) and np.all(d[~np.eye(n, dtype=bool)] > 0)
    # d(a, c) <= d(a, b) + d(b, c) for every triple [a, b, c]
    excess = d[:, None, :] - (d[:, :, None] + d[None, :, :])
    assert excess.max() <= 1e-12
    if kind == "path":
        assert d.max() == 1.0  # the two labels farthest apart


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(25))
def test_hierarchical_f1_against_the_definition(seed):
    rng = random.Random(seed)
    tax = random_taxonomy(rng, rng.randint(2, 15))
    coders = ["a", "b", "c"]
    rows = []
    for u in range(rng.randint(1, 12)):
        for c in coders:
            r = rng.random()
            if r < 0.15:
                continue  # not rated
            if r < 0.2:
                value = np.nan if rng.random() < 0.5 else None  # missing: not rated either
            elif r < 0.6:
                value = rng.choice(tax.labels)
            else:
                value = set(rng.sample(tax.labels, rng.randint(0, min(3, len(tax)))))
            rows.append((f"u{u}", c, value))
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    df["value"] = df["value"].astype(object)
    rated = {}
    for unit, coder, value in rows:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            continue
        rated[(unit, coder)] = closure(tax, value if isinstance(value, set) else {value})
    present = sorted({c for (_, c) in rated})
    if len(present) < 2:
        with pytest.raises(InvalidParameterError, match="at least two coders"):
            pa.hierarchical_f1(df, tax)
        return
    res = pa.hierarchical_f1(df, tax)
    tot = np.zeros(3)
    for k, (a, b) in enumerate(itertools.combinations(present, 2)):
        units = [u for (u, c) in rated if c == a and (u, b) in rated]
        m = sum(len(rated[(u, a)] & rated[(u, b)]) for u in units)
        na = sum(len(rated[(u, a)]) for u in units)
        nb = sum(len(rated[(u, b)]) for u in units)
        tot += (m, na, nb)
        got = res.pairs.iloc[k]
        assert (got["coder_a"], got["coder_b"]) == (a, b)
        assert (got["n_units"], got["matched"], got["n_a"], got["n_b"]) == (len(units), m, na, nb)
        if nb:
            assert got["precision"] == pytest.approx(m / nb)
        if na:
            assert got["recall"] == pytest.approx(m / na)
        if na + nb:
            assert got["f1"] == pytest.approx(2 * m / (na + nb))
    m, na, nb = tot
    if na + nb:
        assert res.f1 == pytest.approx(2 * m / (na + nb))
        assert float(res) == res.f1
    else:
        assert math.isnan(res.f1) and res.reason


# ---------------------------------------------------------------------------------------------
# Published and independent values


def long(true, pred):
    n = len(true)
    return pd.DataFrame(
        {
            "unit": list(range(n)) * 2,
            "coder": ["true"] * n + ["pred"] * n,
            "value": list(true) + list(pred),
        }
    )


def prf(df, tax):
    # coder_a = "pred", coder_b = "true" (sorted): recall and precision swap; read by name
    res = pa.hierarchical_f1(df, tax, coders=["true", "pred"])
    return res.recall, res.precision, res.f1


@pytest.mark.parametrize(
    ("true", "pred", "expected"),
    [
        # sklearn-hierarchical-classification, tests/test_metrics.py, METRICS_TEST_CASES[0]:
        # graph 0 -> 1 -> 2 -> 3; y_true rows {1}, {1, 2}, {3}; y_pred {1}, {0, 1}, {1}.
        # Expected hR 6/9, hP 6/6, hF 0.8.
        pytest.param([{1}, {1, 2}, {3}], [{1}, {0, 1}, {1}], (6 / 9, 1.0, 0.8), id="sklearn-hc-1"),
        # METRICS_TEST_CASES[1]: y_true {1}, {1, 2}, {0}; y_pred {1}, {0, 1}, {3}.
        # Expected hR 5/6 = 0.8333, hP 5/8 = 0.625, hF 0.7142 (10/14).
        pytest.param(
            [{1}, {1, 2}, {0}], [{1}, {0, 1}, {3}], (5 / 6, 5 / 8, 10 / 14), id="sklearn-hc-2"
        ),
    ],
)
def test_sklearn_hierarchical_classification_cases(true, pred, expected):
    tax = Taxonomy({1: 0, 2: 1, 3: 2})
    hr, hp, hf = expected
    assert prf(long(true, pred), tax) == pytest.approx((hr, hp, hf), abs=1e-12)


def test_hiclass_cases():
    # hiclass, tests/test_metrics.py: rows are paths from the top; test_precision:
    # y_true [[1, 2, 3, 4], [1, 2, 5, 6]], y_pred swapped: precision 0.5 (and f1 0.5).
    tax = Taxonomy.from_paths([(1, 2, 3, 4), (1, 2, 5, 6)])
    assert prf(long([4, 6], [6, 4]), tax) == pytest.approx((0.5, 0.5, 0.5))
    # test_recall: y_true [[1, 2], [1, 2]], y_pred [[1, 2, 5, 6], [1, 2, 3, 4]]: recall 1,
    # and 0.5 the other way round.
    recall, precision, _ = prf(long([2, 2], [6, 4]), tax)
    assert (recall, precision) == (1.0, 0.5)


class _HandSynset:
    """A node of a hand-made tree, seen by NLTK's Synset.wup_similarity."""


def nltk_tree():
    wordnet = pytest.importorskip("nltk.corpus.reader.wordnet")

    class Node(wordnet.Synset):
        def __init__(self, name, parent=None):
            super().__init__(None)
            self._name = name
            self._pos = "n"
            self.parent = parent

        def _related(self, relation_symbol, sort=True):
            return [self.parent] if relation_symbol == "@" and self.parent else []

        def _needs_root(self):  # one root: no simulated root, as for WordNet nouns
            return False

    nodes = {}
    links = {
        "entity": None,
        "animal": "entity",
        "plant": "entity",
        "mammal": "animal",
        "bird": "animal",
        "dog": "mammal",
        "cat": "mammal",
        "puppy": "dog",
        "tree": "plant",
    }
    for name, par in links.items():  # parents come first
        nodes[name] = Node(name, nodes.get(par))
    return nodes, Taxonomy(links)


def test_wu_palmer_reproduces_nltk_wup_similarity():
    nodes, tax = nltk_tree()
    d = tax.distance("wu_palmer")
    names = list(nodes)
    for a, b in itertools.product(names, repeat=2):
        expected = nodes[a].wup_similarity(nodes[b])
        assert 1 - d(a, b) == pytest.approx(expected, abs=1e-15), (a, b)
    # two values by hand (Wu & Palmer 1994: 2 N3 / (N1 + N2 + 2 N3), depths counted in nodes):
    # dog and cat (depth 4) under mammal (depth 3): 6/8; dog and bird (3) under animal (2): 4/7.
    assert 1 - d("dog", "cat") == pytest.approx(0.75)
    assert 1 - d("dog", "bird") == pytest.approx(4 / 7)


def test_wu_palmer_is_path_length_over_depth_sum():
    rng = random.Random(7)
    tax = random_taxonomy(rng, 20)
    wup = tax.distance_matrix("wu_palmer").to_numpy()
    labels = tax.labels
    length = np.array([[tax.path_lengths([a], [b])[0] for b in labels] for a in labels])
    depth = np.array([tax.depth(x) for x in labels])
    np.testing.assert_allclose(wup, length / (depth[:, None] + depth[None, :]), atol=1e-15)


def nltk_alpha(df, func):
    agreement = pytest.importorskip("nltk.metrics.agreement")
    triples = [(c, str(u), v) for u, c, v in df[["unit", "coder", "value"]].itertuples(index=False)]
    return agreement.AnnotationTask(data=triples, distance=func).alpha()


@pytest.mark.parametrize("kind", ["path", "wu_palmer"])
@pytest.mark.parametrize("seed", range(4))
def test_alpha_with_tree_distance_matches_nltk(kind, seed):
    rng = random.Random(seed)
    tax = random_taxonomy(rng, 12)
    rows = [
        (u, c, rng.choice(tax.labels[:6])) for u in range(30) for c in "abc" if rng.random() < 0.85
    ]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    dist = tax.distance(kind)
    got = pa.alpha(df, distance=dist)
    assert got.distance == f"tree_{kind}"
    assert got.alpha == pytest.approx(nltk_alpha(df, dist.func), abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["jaccard", "masi"])
@pytest.mark.parametrize("seed", range(4))
def test_alpha_with_augmented_set_distances_matches_nltk(kind, seed):
    metrics = pytest.importorskip("nltk.metrics")
    rng = random.Random(seed)
    tax = random_taxonomy(rng, 10)
    rows = [
        (u, c, frozenset(rng.sample(tax.labels, rng.randint(1, 2))))
        for u in range(25)
        for c in "abc"
    ]
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    base = metrics.jaccard_distance if kind == "jaccard" else metrics.masi_distance

    def by_hand(a, b):  # NLTK's set distance on closures built here
        return base(frozenset(closure(tax, a)), frozenset(closure(tax, b)))

    got = pa.alpha(df, distance=tax.distance(kind)).alpha
    assert got == pytest.approx(nltk_alpha(df, by_hand), abs=1e-12)


@pytest.mark.parametrize("kind", ["tree", "wu_palmer", "jaccard", "masi"])
@pytest.mark.parametrize("seed", range(3))
def test_alpha_on_a_flat_taxonomy_is_nominal_alpha(kind, seed):
    rng = np.random.default_rng(seed)
    labels = ["a", "b", "c", "d"]
    flat = Taxonomy(dict.fromkeys(labels))
    df = pd.DataFrame(
        {
            "unit": np.repeat(np.arange(40), 3),
            "coder": np.tile(["x", "y", "z"], 40),
            "value": rng.choice(labels, 120, p=[0.5, 0.3, 0.15, 0.05]),
        }
    )
    tree = pa.alpha(df, distance=bind_distance(kind, flat))
    assert tree.alpha == pytest.approx(pa.alpha(df, "nominal").alpha, abs=1e-12)


def test_alpha_by_hand_on_a_small_tree():
    # Animal -> Mammal -> {Dog, Cat}; Animal -> Bird. Diameter 3 (Dog-Mammal-Animal-Bird).
    # Units: (Dog, Cat), (Bird, Bird), (Cat, Cat). n = 6, n_Dog 1, n_Cat 3, n_Bird 2.
    # D_o = (1/6) 2 d(Dog, Cat) = (1/6)(4/3) = 2/9.
    # D_e = (2/30)(1*3*(2/3) + 1*2*1 + 3*2*1) = (2/30) 10 = 2/3. Alpha = 1 - 1/3.
    tax = Taxonomy(ANIMALS)
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 3, 3],
            "coder": ["A", "B"] * 3,
            "value": ["Dog", "Cat", "Bird", "Bird", "Cat", "Cat"],
        }
    )
    res = pa.alpha(df, distance=tax.distance("path"))
    assert res.alpha == pytest.approx(2 / 3)
    assert res.observed == pytest.approx(2 / 9) and res.expected == pytest.approx(2 / 3)


# ---------------------------------------------------------------------------------------------
# bind_distance and bad values


def test_bind_distance_names():
    tax = Taxonomy(ANIMALS)
    for name, kind in [
        ("tree", "path"),
        ("path", "path"),
        ("tree_masi", "masi"),
        ("wu_palmer", "wu_palmer"),
        ("jaccard", "jaccard"),
    ]:
        d = bind_distance(name, ANIMALS)
        assert d.name == f"tree_{kind}" and d.kind == "callable"
        assert d("Dog", "Bird") == tax.distance(kind)("Dog", "Bird")
    with pytest.raises(InvalidParameterError, match="`distance` 'nominal' does not use a taxonomy"):
        bind_distance("nominal", ANIMALS)
    with pytest.raises(InvalidParameterError, match="`kind` must be one of"):
        tax.distance("edges")


def test_alpha_refuses_labels_missing_from_the_taxonomy_and_sets_for_path():
    tax = Taxonomy(ANIMALS)
    df = pd.DataFrame({"unit": [1, 1], "coder": ["A", "B"], "value": ["Dog", "Wolf"]})
    with pytest.raises(InvalidParameterError, match="'Wolf' is not in the taxonomy"):
        pa.alpha(df, distance=tax.distance("path"))
    sets = pd.DataFrame(
        {
            "unit": [1, 1],
            "coder": ["A", "B"],
            "value": [frozenset({"Dog"}), frozenset({"Cat", "Bird"})],
        }
    )
    with pytest.raises((ValueTypeError, InvalidParameterError), match="compares single labels"):
        pa.alpha(sets, distance=tax.distance("path"))
    assert pa.alpha(sets, distance=tax.distance("jaccard")).n_pairable == 2


def test_set_distances_on_closures():
    tax = Taxonomy(ANIMALS)
    jac = tax.distance("jaccard")
    # {Dog} -> {Dog, Mammal, Animal}; {Cat} -> {Cat, Mammal, Animal}: J = 2/4
    assert jac({"Dog"}, {"Cat"}) == pytest.approx(0.5)
    assert jac("Dog", {"Dog", "Mammal"}) == 0.0  # the same closure
    masi = tax.distance("masi")
    # {Dog} vs {Dog, Bird}: closures of 3 and 4, one inside the other: J 3/4, M 2/3
    assert masi({"Dog"}, {"Dog", "Bird"}) == pytest.approx(1 - 0.75 * 2 / 3)


# ---------------------------------------------------------------------------------------------
# hierarchical_f1: the rest of the contract


def test_hierarchical_f1_table_and_symmetry():
    tax = Taxonomy(ANIMALS)
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2],
            "coder": ["A", "B"] * 2,
            "value": ["Dog", "Cat", "Bird", {"Bird", "Dog"}],
        }
    )
    before = df.copy(deep=True)
    res = pa.hierarchical_f1(df, tax)
    pd.testing.assert_frame_equal(df, before)
    # unit 1: {Dog, Mammal, Animal} vs {Cat, Mammal, Animal}: 2 shared of 3 and 3
    # unit 2: {Bird, Animal} vs {Bird, Dog, Mammal, Animal}: 2 shared of 2 and 4
    assert res.pairs[["n_a", "n_b", "matched"]].iloc[0].tolist() == [5, 7, 4]
    assert (res.precision, res.recall, res.f1) == pytest.approx((4 / 7, 4 / 5, 8 / 12))
    swapped = pa.hierarchical_f1(df, tax, coders=["B", "A"])
    assert (swapped.precision, swapped.recall) == pytest.approx((res.recall, res.precision))
    table = res.to_frame()
    assert table.iloc[-1]["coder_a"] == POOLED and table.iloc[-1]["f1"] == res.f1
    assert res.to_series()["n_units"] == 2


def test_hierarchical_f1_bad_input():
    tax = Taxonomy(ANIMALS)
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2],
            "coder": ["A", "B"] * 2,
            "value": ["Dog", "Cat", "Bird", {"Bird", "Wolf"}],
        }
    )
    with pytest.raises(InvalidParameterError, match=r"unit 2, coder 'B'.*'Wolf' is not in"):
        pa.hierarchical_f1(df, tax)
    dup = pd.DataFrame({"unit": [1, 1, 1], "coder": ["A", "A", "B"], "value": ["Dog"] * 3})
    with pytest.raises(DuplicateRatingError, match="rated unit 1 more than once"):
        pa.hierarchical_f1(dup, tax)
    holes = pd.DataFrame(
        {"unit": [1, 1], "coder": ["A", "B"], "value": [{"Dog", None}, "Dog"]}
    ).astype({"value": object})
    with pytest.raises(MissingInSetError, match="missing label"):
        pa.hierarchical_f1(holes, tax)
    with pytest.raises(ColumnNotFoundError, match="`value` column 'label'"):
        pa.hierarchical_f1(dup, tax, value="label")
    with pytest.raises(InvalidParameterError, match="at least two coders"):
        pa.hierarchical_f1(dup[dup["coder"] == "A"].iloc[:1], tax)
    with pytest.raises(InvalidParameterError, match="cycle"):
        pa.hierarchical_f1(dup, {"A": "B", "B": "A"})


def test_hierarchical_f1_without_shared_units_says_why():
    df = pd.DataFrame({"unit": [1, 2], "coder": ["A", "B"], "value": ["Dog", "Cat"]})
    res = pa.hierarchical_f1(df, ANIMALS)
    assert math.isnan(res.f1) and res.n_units == 0
    assert res.reason == "no unit is rated by two of the coders compared"


@pytest.mark.parametrize("kind", ["path", "wu_palmer"])
@pytest.mark.parametrize("seed", range(5))
def test_pairwise_walk_equals_the_table(monkeypatch, kind, seed):
    # Above _DENSE_LABELS labels the distance walks up to the common ancestor pair by pair
    # instead of reading a label x label table; both must give the same numbers.
    import pandas_agree.tasks.hierarchy as hierarchy

    rng = random.Random(seed)
    parents = random_taxonomy(rng, rng.randint(2, 30)).parents()
    table = Taxonomy(parents).distance(kind)
    monkeypatch.setattr(hierarchy, "_DENSE_LABELS", 0)
    walk = Taxonomy(parents).distance(kind)
    for a, b in itertools.product(parents, repeat=2):
        assert walk(a, b) == pytest.approx(table(a, b), abs=1e-15), (a, b)
    with pytest.raises(InvalidParameterError, match="'nope' is not in the taxonomy"):
        walk("nope", a)


def test_top_level_names_are_the_module_objects():
    import pandas_agree.spans as spans
    import pandas_agree.spans.relations as relations
    import pandas_agree.tasks.hierarchy as hierarchy

    for name in ("Taxonomy", "hierarchical_f1", "HierarchicalF1Result"):
        assert getattr(pa, name) is getattr(hierarchy, name)
    for name in ("relation_f1", "relation_alpha", "RelationAlphaResult"):
        assert getattr(pa, name) is getattr(relations, name) is getattr(spans, name)
    listed = [n for names in pa._NAMES.values() for n in names]
    assert len(listed) == len(set(listed)), "a public name is listed under two modules"


def test_alpha_and_report_take_a_taxonomy_by_name():
    """``df.agree.alpha(distance="tree", taxonomy=...)`` is alpha with the taxonomy's path
    distance, and a tree distance named without a taxonomy is refused."""
    from pandas_agree.errors import InvalidParameterError

    tax = pa.Taxonomy.coerce(
        {"Dog": "Mammal", "Cat": "Mammal", "Mammal": "Animal", "Bird": "Animal"}
    )
    df = pd.DataFrame(
        {
            "unit": [1, 1, 2, 2, 3, 3, 4, 4],
            "coder": ["a", "b"] * 4,
            "value": ["Dog", "Cat", "Bird", "Bird", "Dog", "Dog", "Cat", "Bird"],
        }
    )
    want = pa.alpha(df, tax.distance("tree"))
    got = df.agree.alpha(distance="tree", taxonomy=tax)
    assert float(got) == float(want)
    assert df.agree.report("wu_palmer", taxonomy=tax)["tree_wu_palmer"].iloc[-1] == float(
        pa.alpha(df, tax.distance("wu_palmer"))
    )
    with pytest.raises(InvalidParameterError, match=r"`distance` 'tree' .* taxonomy="):
        df.agree.alpha(distance="tree")
    with pytest.raises(InvalidParameterError, match="does not use a taxonomy"):
        df.agree.alpha(distance="interval", taxonomy=tax)
