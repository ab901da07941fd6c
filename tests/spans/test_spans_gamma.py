"""Mathet et al.'s gamma: pandas_agree.spans.gamma and its kernels in _core.alignment.

Sources of the published values:

* Mathet, Widlöcher & Métivier (2015), "The unified and holistic method gamma (γ) for
  inter-annotator agreement measure and alignment", Computational Linguistics 41(3), figure
  10 (positional dissimilarities), as pygamma-agreement's tests
  (tests/test_dissimilarity.py::test_positional_dissimilarity_figure10) restate them.
* pygamma-agreement 0.5.9 (Titeux & Riad, JOSS 2021), tests/test_dissimilarity.py,
  tests/test_alignement.py and tests/test_gammas.py: dissimilarities, the disorder of a
  given alignment and of the best alignment, the number of unitary alignments of the best
  alignment and gamma on three continua. The continua 2by1000, 3by100 and AlexPaulSuzan are
  its tests/data files (MIT licence), copied into tests/data/gamma/.
* Mathet (2017), "The agreement measure γcat, a complement to γ focused on categorization
  of a continuum", Computational Linguistics 43(3): on pure categorization γcat behaves as
  Krippendorff's alpha, even with missing values; its observed disorder is alpha's.
"""

from __future__ import annotations

import functools
import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree._core import alignment as al
from pandas_agree.errors import DegenerateDataWarning, InvalidParameterError, ValueTypeError

DATA = Path(__file__).resolve().parents[1] / "data" / "gamma"


def load(name: str) -> pd.DataFrame:
    """A pygamma-agreement test continuum (annotator, category, start, end) as a span frame."""
    frame = pd.read_csv(
        DATA / f"{name}.csv",
        header=None,
        names=["coder", "label", "start", "end"],
        dtype={"label": str},
    )
    frame.insert(0, "document", name)
    return frame


def frame_of(rows: list[tuple], document: str = "d") -> pd.DataFrame:
    """(coder, start, end, label) rows as a span frame."""
    frame = pd.DataFrame(rows, columns=["coder", "start", "end", "label"])
    frame.insert(0, "document", document)
    return frame


# ---------------------------------------------------------------------------------------------
# dissimilarities and disorders, from the definition


def d_pos(s1: float, e1: float, s2: float, e2: float) -> float:
    """Mathet et al. (2015), 4.2.2: the positional-sporadic dissimilarity (without delta)."""
    return ((abs(s1 - s2) + abs(e1 - e2)) / ((e1 - s1) + (e2 - s2))) ** 2


def unit_disorder(block, units, n, cat, alpha, beta, delta):
    """The disorder of a unitary alignment: mean over all n(n-1)/2 coder pairs, a pair with
    an empty side costing delta."""
    pairs = n * (n - 1) / 2
    total = 0.0
    for i, j in itertools.combinations(block, 2):
        s1, e1, c1 = units[i]
        s2, e2, c2 = units[j]
        total += delta * (alpha * d_pos(s1, e1, s2, e2) + beta * cat[c1][c2])
    k = len(block)
    return (total + (pairs - k * (k - 1) / 2) * delta) / pairs


def exhaustive_best(units, coders, n, cat, alpha=1.0, beta=1.0, delta=1.0) -> float:
    """The least sum of unitary disorders over every partition of the units into groups of
    at most one unit per coder: the lowest unit left opens a group, which takes any one of
    the remaining units of each other coder or none (every partition, memoised)."""

    @functools.cache
    def best(rest: frozenset) -> float:
        if not rest:
            return 0.0
        u = min(rest)
        others = rest - {u}
        by_coder: dict[int, list[int]] = {}
        for x in others:
            by_coder.setdefault(coders[x], []).append(x)
        options = [[None, *by_coder[c]] for c in sorted(by_coder) if c != coders[u]]
        value = math.inf
        for pick in itertools.product(*options):
            block = (u, *(x for x in pick if x is not None))
            value = min(
                value,
                unit_disorder(block, units, n, cat, alpha, beta, delta)
                + best(others - frozenset(block)),
            )
        return value

    return best(frozenset(range(len(units))))


def kernel_units(rows: list[tuple], n: int | None = None) -> tuple[al.Units, list[tuple]]:
    """(coder, start, end, category) rows as kernel units (one group)."""
    coders = np.array([r[0] for r in rows], dtype=np.intp)
    units = al.Units(
        start=np.array([r[1] for r in rows], dtype=float),
        end=np.array([r[2] for r in rows], dtype=float),
        category=np.array([r[3] for r in rows], dtype=np.intp),
        coder=coders,
        group=np.zeros(len(rows), dtype=np.intp),
        n_coders=np.array([n if n is not None else int(coders.max()) + 1]),
    )
    return units, [(r[1], r[2], r[3]) for r in rows]


def random_continuum(rng: np.random.Generator, n: int, most: int, n_cat: int = 3) -> list[tuple]:
    rows = []
    for c in range(n):
        for _ in range(int(rng.integers(1, most + 1))):
            s = int(rng.integers(0, 40))
            rows.append((c, s, s + int(rng.integers(1, 12)), int(rng.integers(n_cat))))
    return rows


def check_partition(best: al.Alignment, units: al.Units) -> None:
    """Every unit exactly once, at most one per coder slot, in its own slot."""
    members = best.members
    used = members[members >= 0]
    assert np.array_equal(np.sort(used), np.arange(units.size))
    rows, cols = np.nonzero(members >= 0)
    assert np.array_equal(units.coder[members[rows, cols]], cols)


# ---------------------------------------------------------------------------------------------
# dissimilarities by hand


@pytest.mark.parametrize(
    ("a", "b", "published", "decimals"),
    [
        # Mathet et al. (2015), figure 10, via pygamma-agreement's test, to the digits given
        pytest.param((4, 14), (40, 44), 22.2, 1, id="far-apart"),
        pytest.param((4, 14), (4, 14), 0.0, 1, id="identical"),
        pytest.param((4, 14), (20, 25), 3.2, 1, id="disjoint"),
        pytest.param((4, 14), (14, 24), 1.0, 1, id="adjacent"),
        pytest.param((20, 30), (20, 25), 0.11, 2, id="nested"),
        pytest.param((20, 25), (14, 24), 0.22, 2, id="overlapping"),
    ],
)
def test_positional_dissimilarity_figure_10(a, b, published, decimals):
    dissim = al.Dissimilarity(1.0, 0.0, 1.0, np.zeros((1, 1)))
    got = dissim(
        np.array([a[0]], float), np.array([a[1]], float), np.array([0]),
        np.array([b[0]], float), np.array([b[1]], float), np.array([0]),
    )[0]  # fmt: skip
    assert got == pytest.approx(d_pos(*a, *b), rel=1e-15)
    assert round(float(got), decimals) == published


def test_positional_dissimilarity_pygamma_table():
    # pygamma-agreement tests/test_dissimilarity.py::test_positional_dissimilarity: every pair
    # of liza's and pierrot's units (sorted by start, then end), delta_empty = 0.5.
    liza = [(1, 5), (6, 8), (7, 20), (12, 18)]
    pierrot = [(2, 6), (7, 8), (7, 19), (8, 10), (12, 18)]
    published = [
        0.03125, 1.62, 0.78125, 2.0, 2.88, 0.5, 0.05555555555555555, 0.36734693877551017,
        0.5, 2.0, 0.6245674740484429, 0.36734693877551017, 0.0008, 0.26888888888888884,
        0.06786703601108032, 2.4200000000000004, 2.2959183673469385, 0.05555555555555555,
        1.125, 0.0,
    ]  # fmt: skip
    pairs = [(x, y) for x in liza for y in pierrot]
    dissim = al.Dissimilarity(1.0, 0.0, 0.5, np.zeros((1, 1)))
    s1, e1 = (np.array([p[0][k] for p in pairs], float) for k in (0, 1))
    s2, e2 = (np.array([p[1][k] for p in pairs], float) for k in (0, 1))
    zero = np.zeros(len(pairs), dtype=np.intp)
    got = dissim(s1, e1, zero, s2, e2, zero)
    np.testing.assert_allclose(got, published, rtol=1e-12)
    by_hand = [0.5 * d_pos(*x, *y) for x, y in pairs]
    np.testing.assert_allclose(got, by_hand, rtol=1e-15)


def test_categorical_dissimilarity_pygamma():
    # pygamma-agreement test_categorical_dissimilarity: alpha = 0, beta = 1, delta = 0.5,
    # categories A-D with the matrix below: d(A, D) = 0.7 * 0.5 = 0.35, d(A, A) = 0.
    matrix = np.array(
        [[0, 0.5, 0.3, 0.7], [0.5, 0.0, 0.6, 0.4], [0.3, 0.6, 0.0, 0.7], [0.7, 0.4, 0.7, 0.0]]
    )
    dissim = al.Dissimilarity(0.0, 1.0, 0.5, matrix)
    one = np.array([0.0])
    two = np.array([1.0])
    assert dissim(one, two, np.array([0]), one, two, np.array([3]))[0] == pytest.approx(0.35)
    assert dissim(one, two, np.array([0]), one, two, np.array([0]))[0] == 0.0
    assert dissim(one, two, np.array([0]), one, two, np.array([1]))[0] == pytest.approx(
        dissim(one, two, np.array([1]), one, two, np.array([0]))[0]
    )


@pytest.mark.parametrize(
    ("labels", "categorical", "expected"),
    [
        # two coders, one identical span each: the disorder is beta * M(a, b)
        pytest.param(("x", "y"), "nominal", 1.0, id="nominal"),
        pytest.param(("x", "x"), "nominal", 0.0, id="nominal-same"),
        # interval on labels 1, 2, 3: (1 - 3)^2 = 4, the largest value, so 4 / 4
        pytest.param((1, 3), "interval", 1.0, id="interval-far"),
        # (1 - 2)^2 / 4
        pytest.param((1, 2), "interval", 0.25, id="interval-near"),
        pytest.param(
            ("x", "y"),
            pd.DataFrame([[0, 0.3], [0.3, 0]], index=["x", "y"], columns=["x", "y"]),
            0.3,
            id="matrix",
        ),
    ],
)
@pytest.mark.filterwarnings("ignore::pandas_agree.errors.DegenerateDataWarning")
def test_categorical_dissimilarity_by_hand(labels, categorical, expected):
    rows = [("A", 0, 10, labels[0]), ("B", 0, 10, labels[1])]
    if isinstance(categorical, str) and categorical == "interval":
        rows.append(("A", 100, 110, 2))  # puts label 2 in the domain: 1, 2, 3
        rows.append(("B", 100, 110, 2))
        rows.append(("A", 200, 210, 3))
        rows.append(("B", 200, 210, 3))
        rows.append(("A", 300, 310, 1))
        rows.append(("B", 300, 310, 1))
    res = pa.gamma(frame_of(rows), categorical=categorical, n_samples=2, rng=0)
    first = res.alignment[res.alignment["alignment"] == 0]
    assert first["disorder"].iloc[0] == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# disorders of given alignments and of best alignments: published values


PYGAMMA_CATS = ["Alice", "Bob", "Carol", "Jeremy"]  # alphabetical, as pygamma indexes them
PYGAMMA_MATRIX = np.array(
    [[0.0, 0.6, 0.3, 0.7], [0.6, 0.0, 0.5, 0.4], [0.3, 0.5, 0.0, 0.7], [0.7, 0.4, 0.7, 0.0]]
)
# pygamma's test matrix, given for the categories in the order Carol, Bob, Alice, Jeremy but
# indexed alphabetically: row i is PYGAMMA_CATS[i]
PYGAMMA_TEST_MATRIX = np.array(
    [[0, 0.5, 0.3, 0.7], [0.5, 0.0, 0.6, 0.4], [0.3, 0.6, 0.0, 0.7], [0.7, 0.4, 0.7, 0.0]]
)
THREE_CODERS = [
    ("liza", 1, 5, "Carol"), ("liza", 6, 8, "Bob"), ("liza", 12, 18, "Carol"),
    ("liza", 7, 20, "Alice"),
    ("pierrot", 2, 6, "Carol"), ("pierrot", 7, 8, "Bob"), ("pierrot", 12, 18, "Alice"),
    ("pierrot", 8, 10, "Alice"), ("pierrot", 7, 19, "Jeremy"),
    ("hadrien", 1, 6, "Carol"), ("hadrien", 8, 10, "Alice"), ("hadrien", 7, 19, "Jeremy"),
    ("hadrien", 19, 20, "Alice"),
]  # fmt: skip


def three_coder_units() -> tuple[al.Units, dict]:
    coders = ["liza", "pierrot", "hadrien"]
    rows = [(coders.index(c), s, e, PYGAMMA_CATS.index(k)) for c, s, e, k in THREE_CODERS]
    units, _ = kernel_units(rows, n=3)
    index = {(c, s, e, k): i for i, (c, s, e, k) in enumerate(THREE_CODERS)}
    return units, index


def test_unitary_alignment_disorder_pygamma():
    # pygamma test_unitary_alignment: (12, 18) Carol and (12, 18) Alice of two of three
    # coders, alpha = 1, beta = 1, delta = 0.5; pygamma reports it as a one-alignment
    # alignment, divided by the mean number of units per coder (2 / 3): 0.575.
    units, _ = kernel_units([(0, 12, 18, 2), (1, 12, 18, 0)], n=3)
    dissim = al.Dissimilarity(1.0, 1.0, 0.5, PYGAMMA_TEST_MATRIX)
    delta = al.unitary_disorder(np.array([[0, 1, -1]]), units, dissim, np.array([0]))
    assert delta[0] / (2 / 3) == pytest.approx(0.574999988079071, rel=1e-7)
    assert delta[0] == pytest.approx(
        unit_disorder((0, 1), [(12, 18, 2), (12, 18, 0)], 3, PYGAMMA_TEST_MATRIX, 1, 1, 0.5)
    )


def test_alignment_disorder_pygamma():
    # pygamma test_alignment: a given (not best) alignment of THREE_CODERS with alpha = 3,
    # beta = 1, delta = 0.5: 6.1655581547663765 (pygamma computes in float32).
    units, index = three_coder_units()
    blocks = [
        [("liza", 1, 5, "Carol"), ("pierrot", 2, 6, "Carol"), ("hadrien", 1, 6, "Carol")],
        [("liza", 6, 8, "Bob"), ("pierrot", 7, 8, "Bob"), ("hadrien", 8, 10, "Alice")],
        [("liza", 7, 20, "Alice"), ("pierrot", 7, 19, "Jeremy"), ("hadrien", 7, 19, "Jeremy")],
        [("liza", 12, 18, "Carol"), ("pierrot", 12, 18, "Alice")],
        [("pierrot", 8, 10, "Alice"), ("hadrien", 19, 20, "Alice")],
    ]
    coders = ["liza", "pierrot", "hadrien"]
    members = np.full((len(blocks), 3), -1, dtype=np.intp)
    for r, block in enumerate(blocks):
        for unit in block:
            members[r, coders.index(unit[0])] = index[unit]
    dissim = al.Dissimilarity(3.0, 1.0, 0.5, PYGAMMA_TEST_MATRIX)
    disorder = al.unitary_disorder(members, units, dissim, np.zeros(len(blocks), np.intp))
    assert disorder.sum() / (13 / 3) == pytest.approx(6.1655581547663765, rel=1e-6)


def test_best_alignment_pygamma_three_coders():
    # pygamma test_best_alignment: the best alignment of THREE_CODERS, alpha = 3, beta = 1,
    # delta = 0.5: 0.43478875578596043 (float32, so compared to 1e-6).
    matrix = pd.DataFrame(PYGAMMA_TEST_MATRIX, index=PYGAMMA_CATS, columns=PYGAMMA_CATS)
    res = pa.gamma(
        frame_of(THREE_CODERS), alpha=3, categorical=matrix, delta_empty=0.5, n_samples=2, rng=0
    )
    assert res.observed == pytest.approx(0.43478875578596043, abs=1e-6)
    rows = [
        (["liza", "pierrot", "hadrien"].index(c), s, e, PYGAMMA_CATS.index(k))
        for c, s, e, k in THREE_CODERS
    ]
    units = [(s, e, k) for _, s, e, k in rows]
    exact = exhaustive_best(units, [r[0] for r in rows], 3, PYGAMMA_TEST_MATRIX, 3.0, 1.0, 0.5)
    assert res.observed == pytest.approx(exact / (13 / 3), rel=1e-12)


@pytest.mark.parametrize(
    ("name", "n_alignments"),
    [
        # pygamma test_gamma_3by100 and test_gamma_2by1000, alpha = 3, beta = 1
        pytest.param("3by100", 127, id="3by100"),
        pytest.param("2by1000", 1085, id="2by1000"),
        # pygamma test_gamma_alexpaulsuzan
        pytest.param("AlexPaulSuzan", 6, id="AlexPaulSuzan"),
    ],
)
def test_number_of_unitary_alignments_pygamma(name, n_alignments):
    frame = load(name)
    units = al.Units(
        start=frame["start"].to_numpy(float),
        end=frame["end"].to_numpy(float),
        category=pd.factorize(frame["label"], sort=True)[0].astype(np.intp),
        coder=pd.factorize(frame["coder"], sort=True)[0].astype(np.intp),
        group=np.zeros(len(frame), dtype=np.intp),
        n_coders=np.array([frame["coder"].nunique()]),
    )
    n_cat = int(units.category.max()) + 1
    best = al.best_alignment(units, al.Dissimilarity(3.0, 1.0, 1.0, 1.0 - np.eye(n_cat)))
    check_partition(best, units)
    assert best.members.shape[0] == n_alignments


def test_alexpaulsuzan_observed_disorder_pygamma():
    # pygamma test_gamma_alexpaulsuzan: best alignment disorder 0.96 (to 1 %), alpha = 3.
    res = pa.gamma(load("AlexPaulSuzan"), alpha=3, n_samples=2, rng=0)
    assert res.observed == pytest.approx(0.96, rel=0.01)
    assert res.to_frame().loc["(pooled)", "n_alignments"] == 6


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "sampler", "low", "high", "n_samples"),
    [
        # pygamma tests/test_gammas.py, alpha = 3, beta = 1, its default statistical sampler
        pytest.param("3by100", "statistical", 0.79, 0.81, 60, id="3by100"),
        pytest.param("2by1000", "statistical", 0.39, 0.42, 60, id="2by1000"),
        # test_gamma_alexpaulsuzan (shuffle sampler) and tests/test_sampler.py
        # test_statistical_sampler (statistical)
        pytest.param("AlexPaulSuzan", "shuffle", 0.44, 0.47, 600, id="AlexPaulSuzan-shuffle"),
        pytest.param("AlexPaulSuzan", "statistical", 0.41, 0.42, 600, id="AlexPaulSuzan-stat"),
    ],
)
def test_gamma_published_pygamma(name, sampler, low, high, n_samples):
    # pygamma's intervals hold for its random stream; ours is another one, so the interval is
    # widened by three standard errors of our gamma (delta method on the expected disorder).
    res = pa.gamma(load(name), alpha=3, sampler=sampler, n_samples=n_samples, rng=4772)
    se = res.observed / res.expected**2 * res.expected_se
    assert low - 3 * se <= res.gamma <= high + 3 * se


# ---------------------------------------------------------------------------------------------
# the best alignment against exhaustive search


@pytest.mark.parametrize(
    ("n_coders", "most", "trials"),
    [
        pytest.param(2, 6, 30, id="2-coders"),
        pytest.param(3, 4, 12, id="3-coders"),
        pytest.param(4, 3, 8, id="4-coders"),
        pytest.param(3, 6, 30, id="3-coders-6-units", marks=pytest.mark.slow),
        pytest.param(4, 4, 20, id="4-coders-4-units", marks=pytest.mark.slow),
    ],
)
@pytest.mark.slow
def test_best_alignment_is_exhaustive_best(n_coders, most, trials):
    rng = np.random.default_rng(n_coders)
    cat = 1.0 - np.eye(3)
    for _ in range(trials):
        rows = random_continuum(rng, n_coders, most)
        alpha = float(rng.choice([0.0, 0.5, 1.0, 3.0]))  # 0: every pair is a candidate
        beta = float(rng.choice([0.0, 1.0, 2.0]))
        delta = float(rng.choice([1.0, 0.5]))
        units, plain = kernel_units(rows, n=n_coders)
        best = al.best_alignment(units, al.Dissimilarity(alpha, beta, delta, cat))
        check_partition(best, units)
        # its disorders are those of its unitary alignments, from the definition
        for row, value in zip(best.members, best.disorder, strict=True):
            block = tuple(int(u) for u in row if u >= 0)
            assert value == pytest.approx(
                unit_disorder(block, plain, n_coders, cat, alpha, beta, delta), rel=1e-12
            )
        exact = exhaustive_best(plain, [r[0] for r in rows], n_coders, cat, alpha, beta, delta)
        assert best.disorder.sum() == pytest.approx(exact, rel=1e-12, abs=1e-12)


@pytest.mark.slow
def test_best_alignment_is_exhaustive_best_four_coders_six_units():
    rng = np.random.default_rng(46)
    cat = 1.0 - np.eye(3)
    for _ in range(4):
        rows = random_continuum(rng, 4, 6)
        units, plain = kernel_units(rows, n=4)
        best = al.best_alignment(units, al.Dissimilarity(1.0, 1.0, 1.0, cat))
        exact = exhaustive_best(plain, [r[0] for r in rows], 4, cat)
        assert best.disorder.sum() == pytest.approx(exact, rel=1e-12)


def test_groups_are_solved_independently():
    # documents solved together give each its own best alignment
    rng = np.random.default_rng(7)
    cat = 1.0 - np.eye(3)
    blocks = [random_continuum(rng, n, 4) for n in (2, 3, 3, 2, 4)]
    dissim = al.Dissimilarity(1.0, 1.0, 1.0, cat)
    alone = []
    for rows in blocks:
        units, _ = kernel_units(rows, n=max(r[0] for r in rows) + 1)
        alone.append(al.best_alignment(units, dissim).disorder.sum())
    together = al.Units(
        start=np.concatenate([[float(r[1]) for r in b] for b in blocks]),
        end=np.concatenate([[float(r[2]) for r in b] for b in blocks]),
        category=np.concatenate([[r[3] for r in b] for b in blocks]).astype(np.intp),
        coder=np.concatenate([[r[0] for r in b] for b in blocks]).astype(np.intp),
        group=np.concatenate([[g] * len(b) for g, b in enumerate(blocks)]).astype(np.intp),
        n_coders=np.array([max(r[0] for r in b) + 1 for b in blocks]),
    )
    best = al.best_alignment(together, dissim)
    check_partition(best, together)
    np.testing.assert_allclose(best.sums(len(blocks)), alone, rtol=1e-12)


def test_candidate_pairs_are_every_pair_under_the_bound():
    # the sorted interval join finds exactly the pairs a loop over all pairs finds
    rng = np.random.default_rng(3)
    rows = random_continuum(rng, 3, 30)
    units, plain = kernel_units(rows, n=3)
    dissim = al.Dissimilarity(1.0, 1.0, 1.0, 1.0 - np.eye(3))
    a, b, _ = al.candidate_pairs(units, dissim)
    want = set()
    for i, j in itertools.combinations(range(len(rows)), 2):
        if rows[i][0] == rows[j][0]:
            continue
        value = unit_disorder((i, j), plain, 2, 1.0 - np.eye(3), 1, 1, 1)
        if value <= 5.0:  # (P + n - 1) delta with n = 3
            want.add((i, j) if rows[i][0] < rows[j][0] else (j, i))
    assert set(zip(a.tolist(), b.tolist(), strict=True)) == want


# ---------------------------------------------------------------------------------------------
# gamma-cat


def test_gamma_cat_observed_is_krippendorff_observed_on_pure_categorization():
    # Mathet (2017): on predefined units (pure categorization) gamma-cat behaves as alpha,
    # missing values included. Its observed disorder is alpha's D_o: every pair of one item
    # weighs 1 / (m_u - 1), as in alpha's coincidences.
    rng = np.random.default_rng(11)
    rows, long_rows = [], []
    for item in range(40):
        for coder in range(4):
            if rng.random() < 0.25:
                continue  # missing
            value = int(rng.integers(3))
            rows.append((f"c{coder}", 10 * item, 10 * item + 5, value))
            long_rows.append((item, f"c{coder}", value))
    res = pa.gamma(frame_of(rows), n_samples=2, rng=0)
    long = pd.DataFrame(long_rows, columns=["unit", "coder", "value"])
    alpha = pa.alpha(long, "nominal")
    assert res.observed_cat == pytest.approx(alpha.observed, rel=1e-12)
    assert res.gamma_cat == pytest.approx(1 - res.observed_cat / res.expected_cat)


def test_gamma_k_sums_by_hand():
    # one unitary alignment of three units a, a, b with identical positions (confidence 1):
    # pairs (a, a) 0, (a, b) 1, (a, b) 1, each weighing 1 / (3 - 1).
    units, _ = kernel_units([(0, 0, 10, 0), (1, 0, 10, 0), (2, 0, 10, 1)], n=3)
    dissim = al.Dissimilarity(1.0, 1.0, 1.0, 1.0 - np.eye(2))
    best = al.best_alignment(units, dissim)
    num, den, num_k, den_k = al.categorical_sums(best, units, dissim, 2)
    assert num[0] / den[0] == pytest.approx(2 / 3)
    assert num_k[0, 0] / den_k[0, 0] == pytest.approx(2 / 3)  # all three pairs touch a
    assert num_k[0, 1] / den_k[0, 1] == pytest.approx(1.0)  # the two pairs with b
    # a pair that barely overlaps weighs max(0, 1 - d_pos): (0, 10) and (5, 15) -> 1 - 0.25
    units, _ = kernel_units([(0, 0, 10, 0), (1, 5, 15, 1)], n=2)
    best = al.best_alignment(units, dissim)
    num, den, _, _ = al.categorical_sums(best, units, dissim, 2)
    assert den[0] == pytest.approx(0.75)
    assert num[0] == pytest.approx(0.75)


# ---------------------------------------------------------------------------------------------
# samplers


def test_statistical_sampler_reproduces_its_statistics():
    rows = random_continuum(np.random.default_rng(5), 3, 12)
    units, _ = kernel_units(rows, n=3)
    stats = al.statistical_stats(units, np.zeros(1), 3)
    counts = np.bincount(units.coder, minlength=3)
    assert stats.n_mean[0] == pytest.approx(counts.mean())
    assert stats.n_std[0] == pytest.approx(counts.std())
    dur = units.end - units.start
    assert stats.dur_mean[0] == pytest.approx(dur.mean())
    rng = np.random.default_rng(0)
    draws = [al.statistical_sample(stats, rng) for _ in range(400)]
    n_per = np.array([np.bincount(d.coder, minlength=3) for d in draws])
    mean_n = max(counts.mean(), 1)
    assert n_per.mean() == pytest.approx(mean_n, rel=0.1)
    durations = np.concatenate([d.end - d.start for d in draws])
    assert durations.min() >= al.MIN_DURATION
    assert durations.mean() == pytest.approx(
        np.abs(rng.normal(stats.dur_mean[0], stats.dur_std[0], 100_000)).mean(), rel=0.05
    )
    cats = np.concatenate([d.category for d in draws])
    freq = np.bincount(units.category, minlength=3) / units.size
    np.testing.assert_allclose(np.bincount(cats, minlength=3) / cats.size, freq, atol=0.03)


def test_shuffle_sampler_moves_whole_coders():
    rows = [(0, 0, 10, 0), (0, 20, 30, 1), (1, 5, 12, 2), (1, 40, 55, 0), (2, 60, 70, 1)]
    units, _ = kernel_units(rows, n=3)
    rng = np.random.default_rng(2)
    length = 100.0
    own = {c: sorted((e - s, k) for cc, s, e, k in rows if cc == c) for c in range(3)}
    for _ in range(50):
        out = al.shuffle_sample(units, np.zeros(1), np.array([length]), rng, np.array([5.0]))
        assert out.n_coders.tolist() == [3]
        for slot in range(3):
            mine = out.coder == slot
            got = sorted(zip((out.end - out.start)[mine], out.category[mine], strict=True))
            assert got in list(own.values())  # one coder's units, lengths and labels kept
            assert (out.start[mine] <= length).all() and (out.start[mine] >= 0).all()


# ---------------------------------------------------------------------------------------------
# the public function


def test_gamma_is_seeded_and_documents_pool():
    frame = pd.concat(
        [
            frame_of([("A", 0, 10, "x"), ("B", 1, 10, "x"), ("A", 20, 30, "y"),
                      ("B", 22, 31, "x")], "d1"),
            frame_of([("A", 0, 5, "x"), ("B", 0, 6, "y"), ("B", 10, 20, "y")], "d2"),
        ]
    )  # fmt: skip
    one = pa.gamma(frame, n_samples=20, rng=3)
    two = pa.gamma(frame, n_samples=20, rng=3)
    assert one == two
    assert np.array_equal(one.samples, two.samples)
    other = pa.gamma(frame, n_samples=20, rng=4)
    assert other.expected != one.expected
    table = one.to_frame()
    assert list(table.index) == ["d1", "d2", "(pooled)"]
    # each document's observed disorder is that of the document alone
    for doc in ("d1", "d2"):
        alone = pa.gamma(frame[frame["document"] == doc], n_samples=2, rng=0)
        assert table.loc[doc, "observed"] == pytest.approx(alone.observed, rel=1e-12)
    # pooled: sums of unitary disorders over sums of mean units per coder
    sums = one.alignment.drop_duplicates("alignment").groupby("document")["disorder"].sum()
    xbar = table.loc[["d1", "d2"], "n_units"] / 2
    assert one.observed == pytest.approx(sums.sum() / xbar.sum(), rel=1e-12)
    assert table.loc["(pooled)", "gamma"] == one.gamma == float(one)
    assert one.gamma == pytest.approx(1 - one.observed / one.expected)
    assert one.expected == pytest.approx(one.samples.mean())
    assert one.expected_se == pytest.approx(one.samples.std(ddof=1) / math.sqrt(20))


def test_alignment_frame_lists_every_span_once():
    frame = load("AlexPaulSuzan")
    res = pa.gamma(frame, alpha=3, n_samples=2, rng=0)
    aln = res.alignment
    assert sorted(aln["span"].dropna().tolist()) == list(frame.index)
    assert (aln.groupby("alignment").size() == 3).all()  # one row per coder
    empty = aln["span"].isna()
    assert aln.loc[empty, ["start", "end", "label"]].isna().all().all()
    joined = aln[~empty].merge(
        frame, left_on="span", right_index=True, suffixes=("", "_frame"), validate="1:1"
    )
    assert (joined["start"] == joined["start_frame"]).all()
    assert (joined["label"] == joined["label_frame"]).all()
    assert (joined["coder"] == joined["coder_frame"]).all()
    # the disorders add up to the observed disorder
    sums = aln.drop_duplicates("alignment")["disorder"].sum()
    assert res.observed == pytest.approx(sums / (len(frame) / 3), rel=1e-12)


def test_precision_rule_draws_enough():
    frame = load("AlexPaulSuzan")
    res = pa.gamma(frame, alpha=3, n_samples=5, precision=0.05, rng=1)
    cv = res.samples.std() / res.samples.mean()
    assert res.n_samples >= math.ceil((1.959963984540054 * cv / 0.05) ** 2)
    assert res.n_samples > 5


def test_delta_empty_only_scales_the_disorders():
    frame = load("AlexPaulSuzan")
    one = pa.gamma(frame, alpha=3, n_samples=10, rng=0)
    half = pa.gamma(frame, alpha=3, n_samples=10, rng=0, delta_empty=0.5)
    assert half.observed == pytest.approx(one.observed / 2, rel=1e-12)
    assert half.gamma == pytest.approx(one.gamma, rel=1e-12)


def test_coverage_and_documents_with_one_coder():
    frame = pd.concat(
        [
            frame_of([("A", 0, 10, "x"), ("B", 0, 10, "x"), ("C", 30, 40, "y")], "d1"),
            frame_of([("A", 0, 10, "x")], "d2"),
        ]
    )
    cov = [("d1", "A"), ("d1", "B"), ("d1", "C"), ("d2", "A")]
    res = pa.gamma(frame, coverage=cov, n_samples=5, rng=0)
    table = res.to_frame()
    assert table.loc["d1", "n_coders"] == 3
    assert np.isnan(table.loc["d2", "gamma"])
    assert table.loc["d2", "reason"] == "fewer than two coders"
    assert res.n_documents == 1
    assert res.observed == pytest.approx(table.loc["d1", "observed"], rel=1e-12)
    # without coverage, every coder saw every document: d2 counts, with B and C unmatched
    res_all = pa.gamma(frame, n_samples=5, rng=0)
    assert res_all.n_documents == 2
    assert res_all.to_frame().loc["d2", "observed"] == pytest.approx(3.0)  # 1 unit alone / (1/3)


def test_overlapping_units_of_one_coder_never_share_an_alignment():
    # gamma allows a coder's units to overlap or nest; they go to different unitary alignments
    rows = [("A", 0, 10, "x"), ("A", 0, 10, "x"), ("A", 2, 8, "y"), ("B", 0, 10, "x")]
    res = pa.gamma(frame_of(rows), n_samples=5, rng=0)
    aln = res.alignment.dropna(subset=["span"])
    assert not aln.duplicated(["alignment", "coder"]).any()
    assert res.n_units == 4
    assert res.observed == pytest.approx((0 + 1 + 1) / 2)  # (A0, B) aligned, two A alone


def test_input_frame_not_modified():
    frame = load("AlexPaulSuzan")
    before = frame.copy()
    res = pa.gamma(frame, n_samples=2, rng=0)
    pd.testing.assert_frame_equal(frame, before)
    frame.loc[0, "label"] = "changed"
    assert "changed" not in res.alignment["label"].dropna().tolist()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        pytest.param({"alpha": -1}, InvalidParameterError, "`alpha`.*-1", id="alpha"),
        pytest.param({"alpha": 0, "beta": 0}, InvalidParameterError, "both be 0", id="both-0"),
        pytest.param({"delta_empty": 0}, InvalidParameterError, "delta_empty", id="delta"),
        pytest.param({"sampler": "mathet"}, InvalidParameterError, "'mathet'", id="sampler"),
        pytest.param({"n_samples": 0}, InvalidParameterError, "n_samples", id="n_samples"),
        pytest.param({"precision": 1.5}, InvalidParameterError, "1.5", id="precision"),
        pytest.param({"rng": "seed"}, InvalidParameterError, "'seed'", id="rng"),
        pytest.param({"continuum": 25}, InvalidParameterError, "outside", id="past-L"),
        pytest.param({"coders": ["A"]}, InvalidParameterError, "leaves out", id="coders"),
        pytest.param(
            {"categorical": pd.DataFrame([[0, 2.0], [2.0, 0]], index=["x", "y"],
                                         columns=["x", "y"])},
            InvalidParameterError, r"\[0, 1\]", id="matrix-range",
        ),
        pytest.param(
            {"categorical": pd.DataFrame([[0, 0.2], [0.4, 0]], index=["x", "y"],
                                         columns=["x", "y"])},
            InvalidParameterError, "symmetric", id="matrix-asymmetric",
        ),
        pytest.param(
            {"categorical": pd.DataFrame([[0.0]], index=["x"], columns=["x"])},
            InvalidParameterError, "'y'", id="matrix-label",
        ),
        pytest.param({"categorical": "nominl"}, ValueError, "nominl", id="distance-name"),
    ],
)  # fmt: skip
def test_bad_parameters(kwargs, error, match):
    rows = [("A", 0, 10, "x"), ("B", 2, 30, "y")]
    with pytest.raises(error, match=match):
        pa.gamma(frame_of(rows), **{"n_samples": 2, "rng": 0, **kwargs})


def _gamma_with_matrix(matrix: pd.DataFrame, labels: str | list[str] = "xy") -> None:
    rows = [(c, 10 * i, 10 * i + 5, x) for i, x in enumerate(labels) for c in "AB"]
    pa.gamma(frame_of(rows), categorical=matrix, n_samples=2, rng=0)


def test_categorical_frame_messages_speak_of_labels():
    with pytest.raises(InvalidParameterError) as caught:
        _gamma_with_matrix(pd.DataFrame([[0.0]], index=["x"], columns=["x"]))
    assert str(caught.value) == (
        "`categorical` DataFrame has no row or column for labels ['y']; its index and "
        "columns must hold every label of ['x', 'y']"
    )
    text = pd.DataFrame([[0, "far"], [1, 0]], index=["x", "y"], columns=["x", "y"])
    with pytest.raises(InvalidParameterError) as caught:
        _gamma_with_matrix(text)
    assert str(caught.value) == "`categorical` DataFrame must hold numbers; ('x', 'y') holds 'far'"


def test_categorical_frame_lists_at_most_twenty_labels():
    labels = [f"l{i:02d}" for i in range(25)]
    with pytest.raises(InvalidParameterError) as caught:
        _gamma_with_matrix(pd.DataFrame(0.0, index=labels[1:], columns=labels[1:]), labels)
    first_twenty = ", ".join(repr(x) for x in labels[:20])
    assert str(caught.value) == (
        "`categorical` DataFrame has no row or column for labels ['l00']; its index and "
        f"columns must hold every label of [{first_twenty}, ...]"
    )


def test_categorical_frame_with_a_missing_cell():
    # a nullable frame's <NA> is NaN in the matrix, which the dissimilarity check names
    matrix = pd.DataFrame(
        [[0, 0.5], [pd.NA, 0]], index=["x", "y"], columns=["x", "y"], dtype="Float64"
    )
    message = (
        r"^`categorical` must give finite non-negative dissimilarities; \('y', 'x'\) gives nan$"
    )
    with pytest.raises(InvalidParameterError, match=message):
        _gamma_with_matrix(matrix)


@pytest.mark.parametrize(
    ("rows", "error", "match"),
    [
        pytest.param([("A", 0, 10, "x")], InvalidParameterError, "two coders", id="one-coder"),
        pytest.param(
            [("A", 5, 5, "x"), ("B", 0, 10, "x")], InvalidParameterError, "end after",
            id="zero-length",
        ),
        pytest.param(
            [("A", 0, 10, None), ("B", 0, 10, "x")], InvalidParameterError, "label",
            id="missing-label",
        ),
        pytest.param(
            [("A", 0.5, 10, "x"), ("B", 0, 10, "x")], InvalidParameterError, "integer",
            id="fractional",
        ),
    ],
)  # fmt: skip
def test_bad_spans(rows, error, match):
    with pytest.raises(error, match=match):
        pa.gamma(frame_of(rows), n_samples=2, rng=0)


def test_too_many_candidates_is_a_typed_error(monkeypatch):
    # alpha = 0: no positional term, so every pair of units is a candidate pair
    monkeypatch.setattr(al, "MAX_CANDIDATES", 10)
    rows = [(c, 10 * i, 10 * i + 5, "x") for c in "ABC" for i in range(4)]
    with pytest.raises(InvalidParameterError, match="candidate"):
        pa.gamma(frame_of(rows), alpha=0, n_samples=2, rng=0)


def test_not_a_frame():
    with pytest.raises(ValueTypeError, match="DataFrame"):
        pa.gamma([("A", 0, 1, "x")])


def test_degenerate_gamma_cat_is_nan_with_one_label():
    rows = [("A", 0, 10, "x"), ("B", 0, 10, "x"), ("A", 20, 30, "x"), ("B", 25, 30, "x")]
    res = pa.gamma(frame_of(rows), n_samples=5, rng=0)
    assert np.isnan(res.gamma_cat)  # every categorical dissimilarity is 0
    assert np.isfinite(res.gamma)


def test_no_usable_document_warns():
    frame = pd.concat([frame_of([("A", 0, 10, "x")], "d1"), frame_of([("B", 0, 10, "x")], "d2")])
    with pytest.warns(DegenerateDataWarning, match="no document"):
        res = pa.gamma(frame, coverage=[("d1", "A"), ("d2", "B")], n_samples=2, rng=0)
    assert np.isnan(res.gamma)
    assert res.to_frame()["reason"].iloc[:2].tolist() == ["fewer than two coders"] * 2


# ---------------------------------------------------------------------------------------------
# pygamma-agreement as an oracle, where it is installed


def _pygamma_continuum(frame: pd.DataFrame):
    pg = pytest.importorskip("pygamma_agreement")
    from pyannote.core import Segment

    continuum = pg.Continuum()
    for row in frame.itertuples(index=False):
        continuum.add(row.coder, Segment(float(row.start), float(row.end)), str(row.label))
    return pg, continuum


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_observed_disorder_equals_pygamma(seed):
    pytest.importorskip("pygamma_agreement")
    rng = np.random.default_rng(seed)
    n = 2 + seed % 2
    rows = [(f"c{c}", s, e, f"k{k}") for c, s, e, k in random_continuum(rng, n, 12, 3)]
    frame = frame_of(rows).drop_duplicates(["coder", "start", "end", "label"])
    pg, continuum = _pygamma_continuum(frame)
    dissim = pg.CombinedCategoricalDissimilarity(alpha=1.0, beta=1.0, delta_empty=1.0)
    theirs = continuum.get_best_alignment(dissim)
    ours = pa.gamma(frame, n_samples=2, rng=0)
    # pygamma computes in float32: its number agrees to float32 precision ...
    assert ours.observed == pytest.approx(float(theirs.disorder), rel=1e-6)
    # ... and its alignment, scored here in float64, is ours to 1e-9
    units = al.Units(
        start=frame["start"].to_numpy(float),
        end=frame["end"].to_numpy(float),
        category=pd.factorize(frame["label"], sort=True)[0].astype(np.intp),
        coder=pd.factorize(frame["coder"], sort=True)[0].astype(np.intp),
        group=np.zeros(len(frame), np.intp),
        n_coders=np.array([n]),
    )
    coders = sorted(frame["coder"].unique())
    where = {
        (r.coder, float(r.start), float(r.end), r.label): i
        for i, r in enumerate(frame.itertuples(index=False))
    }
    members = np.full((len(theirs.unitary_alignments), n), -1, dtype=np.intp)
    for i, ua in enumerate(theirs.unitary_alignments):
        for coder, unit in ua.n_tuple:
            if unit is not None:
                key = (coder, unit.segment.start, unit.segment.end, unit.annotation)
                members[i, coders.index(coder)] = where[key]
    n_cat = int(units.category.max()) + 1
    score = al.unitary_disorder(
        members, units, al.Dissimilarity(1.0, 1.0, 1.0, 1 - np.eye(n_cat)),
        np.zeros(len(members), np.intp),
    ).sum() / (len(frame) / n)  # fmt: skip
    assert abs(score - ours.observed) <= 1e-9


@pytest.mark.slow
def test_gamma_within_sampling_error_of_pygamma():
    frame = load("AlexPaulSuzan")
    pg, continuum = _pygamma_continuum(frame)
    dissim = pg.CombinedCategoricalDissimilarity(alpha=3.0, beta=1.0, delta_empty=1.0)
    np.random.seed(0)  # noqa: NPY002 (pygamma draws from numpy's global generator)
    theirs = continuum.compute_gamma(dissim, n_samples=300, sampler=pg.ShuffleContinuumSampler())
    their_exp = np.array([a.disorder for a in theirs.chance_alignments], dtype=float)
    ours = pa.gamma(frame, alpha=3, sampler="shuffle", n_samples=300, rng=0)
    se = math.hypot(ours.expected_se, their_exp.std(ddof=1) / math.sqrt(their_exp.size))
    assert abs(ours.expected - their_exp.mean()) <= 4 * se
    np.random.seed(1)  # noqa: NPY002
    theirs = continuum.compute_gamma(dissim, n_samples=300)
    their_exp = np.array([a.disorder for a in theirs.chance_alignments], dtype=float)
    ours = pa.gamma(frame, alpha=3, n_samples=300, rng=1)
    se = math.hypot(ours.expected_se, their_exp.std(ddof=1) / math.sqrt(their_exp.size))
    assert abs(ours.expected - their_exp.mean()) <= 4 * se
