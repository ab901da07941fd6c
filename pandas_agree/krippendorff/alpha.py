r"""Krippendorff's alpha on long data, and the reliability and coincidence matrices.

.. math::

    \alpha = 1 - \frac{D_o}{D_e}, \qquad
    D_o = \frac{1}{n} \sum_c \sum_k o_{ck}\, \delta_{ck}, \qquad
    D_e = \frac{1}{n(n-1)} \sum_c \sum_k n_c n_k\, \delta_{ck}

with the coincidences :math:`o_{ck} = \sum_u n_{uck} / (m_u - 1)` over pairable units
(Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability").
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._core.counts import UnitValueCounts, coincidence_entries, pairable_counts
from .._core.kernels import (
    Kernel,
    NominalKernel,
    PairwiseKernel,
    ScoreKernel,
    SetKernel,
    alpha_from_sums,
)
from .._core.states import alpha_state
from ..data.prepare import CodedData, OnDuplicate, prepare, reliability_matrix, set_incidence
from ..data.prepare import values_by_units as _values_by_units
from ..declare import declared
from ..errors import (
    DegenerateDataWarning,
    InvalidParameterError,
    NoPairableUnitsError,
    ValueTypeError,
    user_stacklevel,
)
from ..reasons import alpha_reason
from ..results import AlphaFit, AlphaResult
from .distances import (
    Distance,
    available_distances,
    callable_delta,
    get_distance,
    numeric_delta,
    set_kernel,
)

__all__ = [
    "AlphaResult",
    "alpha",
    "coincidences",
    "fit_alpha",
    "make_kernel",
    "matrix",
    "values_by_units",
]

DistanceLike = str | Callable[[Any, Any], float] | Distance


def _numeric_domain(coded: CodedData, dist: Distance) -> np.ndarray:
    if coded.is_set:
        raise ValueTypeError(
            f"`distance` {dist.name!r} needs numeric values, but the `value` column holds sets"
        )
    numeric = pd.api.types.is_numeric_dtype(coded.values.dtype) or pd.api.types.infer_dtype(
        coded.values
    ) in ("integer", "floating", "mixed-integer-float", "decimal", "boolean")
    if pd.api.types.is_complex_dtype(coded.values.dtype) or pd.api.types.infer_dtype(
        coded.values
    ) in ("complex", "mixed-integer-complex"):
        numeric = False
    if not numeric:
        sample = list(coded.values[:3])
        raise ValueTypeError(
            f"`distance` {dist.name!r} needs numeric values; the `value` column holds {sample}"
        )
    exact = np.asarray(coded.values)
    if exact.dtype.kind in "iu":  # integers stay exact (centred later, not cast here)
        return exact
    x = np.asarray(coded.values, dtype=float)
    if not np.all(np.isfinite(x)):
        raise ValueTypeError(
            f"`distance` {dist.name!r} needs finite values, got {x[~np.isfinite(x)][:3]}"
        )
    return x


def _callable_delta(
    dist: Distance, coded: CodedData
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    # Checked on the value domain: zero diagonal, finite, non-negative, symmetric.
    return callable_delta(dist, coded.values.to_numpy(dtype=object))


def make_kernel(dist: Distance, coded: CodedData, element_weights: Any = None) -> Kernel:
    """The disagreement kernel for ``dist`` on the value domain of ``coded``."""
    if dist.kind == "nominal":
        return NominalKernel()
    if dist.kind == "interval":
        return ScoreKernel(_numeric_domain(coded, dist))
    if dist.kind == "ordinal":
        if coded.is_set or not coded.ordered:
            raise ValueTypeError(
                f"`distance` 'ordinal' needs values with an order (numbers, an ordered "
                f"Categorical, or categories=[...] in rank order); got {list(coded.values[:3])}, "
                "which would only rank alphabetically. Pass categories=[...] in rank order"
            )
        return ScoreKernel(ordinal=True)
    if dist.kind == "numeric":
        x = _numeric_domain(coded, dist)
        if dist.name == "ratio" and (x < 0).any():
            raise ValueTypeError(
                f"`distance` 'ratio' needs non-negative values, got {x[x < 0][:3]}"
            )
        return PairwiseKernel(numeric_delta(dist, x), len(x))
    if dist.kind == "set":
        values = coded.values
        if not coded.is_set:
            values = pd.Index([frozenset([v]) for v in values], dtype=object)
        incidence, _ = set_incidence(values, element_weights)
        kernel = SetKernel(incidence, set_kernel(dist), n_lookups=coded.n_ratings)
        if kernel.disjoint_is_one():
            return kernel
        # A set distance that is not 1 for disjoint sets: every pair of values counts.
        return PairwiseKernel(kernel.delta_codes, len(values))
    return PairwiseKernel(_callable_delta(dist, coded), len(coded.values))


def with_taxonomy(distance: Any, taxonomy: Any) -> Any:
    """``distance`` itself, or with ``taxonomy`` the tree distance of that name on it.

    The tree distances (``"tree"``/``"path"``, ``"wu_palmer"``, and ``"jaccard"``/``"masi"``
    on label sets augmented with their ancestors) are
    :meth:`pandas_agree.Taxonomy.distance`; a tree distance named without a taxonomy raises.
    """
    from ..tasks.hierarchy import TREE_DISTANCES, bind_distance

    if taxonomy is not None:
        if isinstance(distance, (list, tuple)):
            return [bind_distance(d, taxonomy) for d in distance]
        return bind_distance(distance, taxonomy)
    names = distance if isinstance(distance, (list, tuple)) else [distance]
    for name in names:
        if isinstance(name, str) and name in TREE_DISTANCES and name not in available_distances():
            raise InvalidParameterError(
                f"`distance` {name!r} measures distances in a label hierarchy: pass "
                f"taxonomy= (a pandas_agree.Taxonomy, parent links, a nested dict or paths)"
            )
    return distance


def check_distance(distance: DistanceLike, weights: Any = None) -> Distance:
    """Resolve ``distance`` and check that ``weights`` goes with it."""
    dist = get_distance(distance)
    if dist.weighted and weights is None:
        raise InvalidParameterError(
            f"`distance` {dist.name!r} needs element weights: pass weights={{element: weight}} "
            "or a callable"
        )
    if weights is not None and not dist.weighted:
        raise InvalidParameterError(
            f"`weights` only applies to weighted set distances (weighted_dice, weighted_jaccard), "
            f"got distance={dist.name!r}"
        )
    if weights is not None and not (callable(weights) or isinstance(weights, (Mapping, pd.Series))):
        raise InvalidParameterError(
            f"`weights` must be a mapping (element -> weight), a Series or a callable, "
            f"got {weights!r}"
        )
    return dist


def prepare_for(
    data: pd.DataFrame,
    distance: DistanceLike,
    weights: Any,
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
    categories: Sequence[Hashable] | None,
    on_duplicate: OnDuplicate,
    sep: str | bool | None = None,
) -> tuple[Distance, CodedData]:
    """Resolve ``distance`` and code ``data`` for it (scalars are sets under a set distance)."""
    dist = check_distance(distance, weights)
    coded = prepare(
        data,
        unit=unit,
        coder=coder,
        value=value,
        on_duplicate=on_duplicate,
        categories=categories,
        scalars_as_sets=dist.is_set,
        sep=sep,
    )
    return dist, coded


def coded_counts(coded: CodedData) -> UnitValueCounts:
    """The (unit, value) counts of the pairable units of ``coded``."""
    return pairable_counts(
        coded.unit_codes,
        coded.value_codes,
        len(coded.units),
        len(coded.values),
        coder_codes=coded.coder_codes,
        n_coders=len(coded.coders),
    )


def no_pairable_error(n_ratings: int, n_units: int, n_coders: int) -> NoPairableUnitsError:
    """The error of alpha on data where no unit has two or more values."""
    return NoPairableUnitsError(
        f"no unit has two or more values: {n_ratings} rating(s) in {n_units} unit(s) by "
        f"{n_coders} coder(s), so there is nothing to compare. Alpha needs at least one unit "
        "coded by two or more coders"
    )


def alpha_result(
    counts: UnitValueCounts,
    kernel: Kernel,
    dist: Distance,
    n_coders: int,
    *,
    warn: bool = True,
    coded: CodedData | None = None,
    source: pd.DataFrame | None = None,
) -> AlphaResult:
    """Alpha of ``counts`` (at least one pairable unit) under ``kernel``.

    The result keeps its fit data (for intervals and diagnostics) when ``coded`` is given.
    ``D_e = 0`` gives NaN, with a warning unless ``warn`` is off.
    """
    by_unit = kernel.observed_by_unit(counts)
    n = counts.n
    a, d_o, d_e = alpha_from_sums(n, float(by_unit.sum()), kernel.expected_sum(counts.n_c))
    precision = kernel.precision(counts.n_c)  # what float64 did to the values in use
    state = alpha_state(counts.n_units, d_e, precision)
    reason = alpha_reason(state, precision)
    if state.no_variation and warn:
        warnings.warn(
            f"alpha is NaN: {reason}", DegenerateDataWarning, stacklevel=user_stacklevel()
        )
    fit = None
    if coded is not None:
        fit = AlphaFit(
            coded=coded, counts=counts, kernel=kernel, observed_by_unit=by_unit, source=source
        )
    return AlphaResult(
        alpha=a,
        distance=dist.name,
        observed=d_o,
        expected=d_e,
        n_units=counts.n_units,
        n_coders=n_coders,
        n_pairable=int(n),
        n_values=int(np.count_nonzero(counts.n_c)),
        reason=reason,
        state=state,
        fit=fit,
    )


def fit_alpha(
    coded: CodedData,
    dist: Distance,
    element_weights: Any = None,
    *,
    source: pd.DataFrame | None = None,
    kernel: Kernel | None = None,
) -> AlphaResult:
    """Alpha from already coded data (the step shared by every public entry point).

    ``kernel`` reuses a kernel built on the same value domain (per-group fits do this).
    """
    counts = coded_counts(coded)
    if counts.n_units == 0:
        raise no_pairable_error(coded.n_ratings, len(coded.units), len(coded.coders))
    if kernel is None:
        kernel = make_kernel(dist, coded, element_weights)
    n_coders = counts.n_coders_pairable()
    if n_coders is None:
        coder_codes = coded.coder_codes
        if not counts.all_pairable:
            coder_codes = coder_codes[counts.m[coded.unit_codes] >= 2]
        n_coders = int(np.count_nonzero(np.bincount(coder_codes)))
    return alpha_result(counts, kernel, dist, n_coders, coded=coded, source=source)


@declared()
def alpha(
    data: pd.DataFrame,
    distance: DistanceLike = "nominal",
    *,
    unit, coder, value, categories, on_duplicate,
    sep,
    weights: Any = None,
    taxonomy: Any = None,
) -> AlphaResult:
    r"""Krippendorff's alpha for long data: one row per (unit, coder, value).

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    distance : str, callable or Distance, default "nominal"
        A registered name (:func:`~pandas_agree.krippendorff.distances.available_distances`:
        ``nominal``,
        ``ordinal``, ``interval``, ``ratio``, ``jaccard``, ``dice``, ``masi``,
        ``masi_dice``, ``masi_jaccard``, and any registered with
        :func:`~pandas_agree.register_distance`) or a callable ``d(a, b) -> float``.
    categories : sequence, optional
        The values in rank order, for ``ordinal``: the explicit order. Without it,
        ``ordinal`` takes an ordered categorical's order or numbers in numeric order, and
        raises :class:`~pandas_agree.errors.ValueTypeError` for labels that would only sort
        alphabetically (text, an unordered categorical of text). A value outside
        ``categories`` raises.
    weights : mapping or callable, optional
        Element weights for ``weighted_dice`` and ``weighted_jaccard`` (for example SCU
        weights): element -> positive weight. Required by those, refused by the others.
    taxonomy : Taxonomy, mapping or sequence, optional
        A label hierarchy (:class:`pandas_agree.Taxonomy`, parent links, a nested dict or
        paths) for the tree distances: ``distance="tree"`` (path length over the longest
        path), ``"wu_palmer"``, or ``"jaccard"``/``"masi"`` on label sets augmented with their
        ancestors (see :meth:`pandas_agree.Taxonomy.distance`).

    Returns
    -------
    AlphaResult
        ``float(result)`` is alpha. Units with fewer than two values are not pairable and
        are left out, as Krippendorff defines. When every pairable value is the same,
        ``D_e = 0`` and alpha is NaN with a :class:`~pandas_agree.errors.DegenerateDataWarning`.

    Raises
    ------
    NoPairableUnitsError
        When no unit has two values.
    UnknownDistanceError, ColumnNotFoundError, DuplicateRatingError, ValueTypeError

    Notes
    -----
    Set values (set, frozenset, list, tuple) are frozensets; under a set distance a scalar
    in a column of sets counts as a one-element set. The empty set is a coded value; NaN,
    None and ``pd.NA`` are missing.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School
    for Communication, University of Pennsylvania.

    Passonneau, R. (2006). Measuring Agreement on Set-valued Items (MASI) for Semantic and
    Pragmatic Annotation. LREC.

    Examples
    --------
    Krippendorff (2011), section C: nominal alpha is 113/152 = 0.743 (the
    ``krippendorff`` package gives the same).

    >>> import pandas_agree as pa
    >>> df = pa.datasets.krippendorff_2011()
    >>> res = pa.alpha(df, "nominal")
    >>> res
    AlphaResult(alpha=0.7434, distance='nominal', n_units=11, n_coders=4, n_pairable=40)
    >>> round(pa.alpha(df, "interval").alpha, 3), round(pa.alpha(df, "ordinal").alpha, 3)
    (0.849, 0.815)
    """
    dist, coded = prepare_for(
        data, with_taxonomy(distance, taxonomy), weights, unit, coder, value, categories,
        on_duplicate, sep,
    )
    return fit_alpha(coded, dist, weights, source=data)


@declared()
def coincidences(
    data: pd.DataFrame, *, unit, coder, value, categories, on_duplicate, sparse: bool = False, sep
) -> pd.DataFrame | sp.csr_matrix:
    """Krippendorff's coincidence matrix ``o_ck``: values x values, over pairable units.

    Rows and columns sum to ``n_c`` and the whole matrix to ``n``. ``sparse=True`` returns
    a :class:`scipy.sparse.csr_matrix` (rows and columns in the order of the values of
    ``values_by_units``) for large value domains.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    sparse : bool, default False
        Return a :class:`scipy.sparse.csr_matrix` instead of a labelled DataFrame.

    Returns
    -------
    pandas.DataFrame or scipy.sparse.csr_matrix
        Values x values, labelled by the values.

    Examples
    --------
    >>> import pandas_agree as pa
    >>> o = pa.coincidences(pa.datasets.krippendorff_2011())
    >>> float(o.loc[1, 1]), float(o.to_numpy().sum())
    (7.0, 40.0)
    """
    coded = prepare(
        data,
        unit=unit,
        coder=coder,
        value=value,
        on_duplicate=on_duplicate,
        categories=categories,
        sep=sep,
    )
    rows, cols, vals = coincidence_entries(coded_counts(coded))
    v = len(coded.values)
    mat = sp.csr_matrix((vals, (rows, cols)), shape=(v, v))
    if sparse:
        return mat
    labels = coded.values.rename("value")
    return pd.DataFrame(mat.toarray(), index=labels, columns=labels.copy())


@declared()
def matrix(
    data: pd.DataFrame, *, unit, coder, value, on_duplicate, sep
) -> pd.DataFrame:
    """The reliability matrix: coders x units, NaN where a coder left a unit uncoded.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.

    Returns
    -------
    pandas.DataFrame
        One row per coder, one column per unit (Krippendorff's canonical form).

    Examples
    --------
    >>> import pandas_agree as pa
    >>> pa.matrix(pa.datasets.krippendorff_2011()).iloc[:, :4]
    unit     1    2    3    4
    coder
    A      1.0  2.0  3.0  3.0
    B      1.0  2.0  3.0  3.0
    C      NaN  3.0  3.0  3.0
    D      1.0  2.0  3.0  3.0
    """
    coded = prepare(data, unit=unit, coder=coder, value=value, on_duplicate=on_duplicate, sep=sep)
    return reliability_matrix(coded)


@declared()
def values_by_units(
    data: pd.DataFrame, *, unit, coder, value, on_duplicate, sep
) -> pd.DataFrame:
    """Values x units counts: how many coders gave each value to each unit.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.

    Returns
    -------
    pandas.DataFrame
        One row per value, one column per unit.

    Examples
    --------
    >>> import pandas_agree as pa
    >>> pa.values_by_units(pa.datasets.krippendorff_2011()).iloc[:, :3]
    unit   1  2  3
    value
    1      3  0  0
    2      0  3  0
    3      0  1  4
    4      0  0  0
    5      0  0  0
    """
    coded = prepare(data, unit=unit, coder=coder, value=value, on_duplicate=on_duplicate, sep=sep)
    return _values_by_units(coded)
