"""Alpha against independent implementations on random data (test-only oracles).

`krippendorff` (Castro's package) for nominal/ordinal/interval/ratio, NLTK's
``AnnotationTask.alpha`` for set distances. Both are optional test dependencies.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa

krippendorff = pytest.importorskip("krippendorff")
agreement = pytest.importorskip("nltk.metrics.agreement")
nltk_distance = pytest.importorskip("nltk.metrics.distance")


def _random_matrix(seed: int, coders: int = 4, units: int = 60, values: int = 6) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, values + 1, size=units)
    noise = rng.integers(-1, 2, size=(coders, units)) * (rng.random((coders, units)) < 0.4)
    mat = np.clip(truth + noise, 1, values).astype(float)
    mat[rng.random(mat.shape) < 0.15] = np.nan
    return mat


def _long(mat: np.ndarray) -> pd.DataFrame:
    coders, units = np.nonzero(~np.isnan(mat))
    return pd.DataFrame({"unit": units, "coder": coders, "value": mat[coders, units]})


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_matches_krippendorff_package(seed, level):
    mat = _random_matrix(seed)
    expected = krippendorff.alpha(reliability_data=mat, level_of_measurement=level)
    assert pa.alpha(_long(mat), level).alpha == pytest.approx(expected, abs=1e-12)


def _random_sets(seed: int, units: int = 40, coders: int = 3) -> list[tuple[int, int, frozenset]]:
    rng = np.random.default_rng(seed)
    labels = list("abcdefg")
    rows = []
    for u in range(units):
        base = set(rng.choice(labels, size=rng.integers(1, 4), replace=False))
        for c in range(coders):
            if rng.random() < 0.85:
                s = set(base)
                if rng.random() < 0.5:
                    s ^= {rng.choice(labels)}
                if s:  # NLTK's set distances divide by |A | B|: non-empty sets only
                    rows.append((u, c, frozenset(s)))
    return rows


def _nltk_alpha(rows, distance) -> float:
    task = agreement.AnnotationTask(
        data=[(str(c), str(u), v) for u, c, v in rows], distance=distance
    )
    return task.alpha()


@pytest.mark.parametrize("seed", range(4))
def test_jaccard_matches_nltk(seed):
    rows = _random_sets(seed)
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    expected = _nltk_alpha(rows, nltk_distance.jaccard_distance)
    assert pa.alpha(df, "jaccard").alpha == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_masi_matches_nltk(seed):
    # NLTK >= 3.9 uses the exact thirds of Passonneau (2006) in masi_distance (older
    # releases used 0.67/0.33), so its alpha must equal ours to rounding.
    rows = _random_sets(seed)
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    expected = _nltk_alpha(rows, nltk_distance.masi_distance)
    assert pa.alpha(df, "masi").alpha == pytest.approx(expected, abs=1e-12)


def test_masi_distance_matches_nltk_on_all_small_set_pairs():
    import itertools

    universe = "abcd"
    sets = [
        frozenset(c)
        for r in range(1, len(universe) + 1)
        for c in itertools.combinations(universe, r)
    ]
    for a, b in itertools.product(sets, sets):
        assert pa.distances.masi(a, b) == pytest.approx(
            nltk_distance.masi_distance(set(a), set(b)), abs=1e-15
        )
        assert pa.distances.jaccard(a, b) == pytest.approx(
            nltk_distance.jaccard_distance(set(a), set(b)), abs=1e-15
        )


@pytest.mark.parametrize("seed", range(3))
def test_user_callable_matches_nltk(seed):
    rows = _random_sets(seed)
    df = pd.DataFrame(rows, columns=["unit", "coder", "value"])

    def sym_diff(a, b):
        return len(a ^ b) / 7

    assert pa.alpha(df, sym_diff).alpha == pytest.approx(_nltk_alpha(rows, sym_diff), abs=1e-12)
