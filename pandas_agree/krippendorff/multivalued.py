r"""Multi-valued alpha (mvα) of Krippendorff and Craggs (2016), for coders who give a unit a set.

Each coder may give a unit several values (labels) at once, or none (the empty set, a coded
value). mvα keeps alpha's form :math:`1 - D_o / D_e` but compares sets by the labels they
share and derives the chance disagreement from how often each *label* and each *set size*
occurs, not from the observed sets as whole values.

.. math::

    \delta_{CK} = \frac{|C \setminus K| + |K \setminus C|}{|C| + |K|}
               = 1 - \frac{2\,|C \cap K|}{|C| + |K|}, \qquad \delta_{\emptyset\emptyset} = 0

    D_o = \frac{1}{n_{\cdot\cdot}} \sum_C \sum_K o_{CK}\, \delta_{CK}, \qquad
    o_{CK} = \sum_u \frac{n_{uC}\,(n_{uK} - [C = K])}{m_u - 1}

    D_e = \sum_{a} \sum_{b} P_a P_b\,
          \frac{\sum_{|C| = a} \sum_{|K| = b} w_{CK}\, \delta_{CK}}
               {\sum_{|C| = a} \sum_{|K| = b} w_{CK}}, \qquad
    w_{CK} = \prod_{c \in C} n_c \prod_{k \in K} (n_k - [k \in C])

with :math:`P_a` the share of pairable sets of size :math:`a` and :math:`n_c` the number of
pairable sets that contain label :math:`c`: a pair of sets of given sizes is drawn from the
pool of label occurrences without replacement. The sums run over every set of the label
domain, not only the observed ones; they are evaluated in closed form (see
:mod:`pandas_agree._core.mvalpha`), never by enumeration.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._core.mvalpha import MVAlphaParts, mv_alpha_parts
from ..data.prepare import CodedData, prepare, set_incidence
from ..declare import declared
from ..errors import DegenerateDataWarning, user_stacklevel
from ..results import ALPHA_FIELDS, Result
from .alpha import coded_counts

__all__ = ["MVAlphaResult", "mv_alpha"]

_NO_PAIRABLE = "no unit has two or more sets (nothing to compare): mvα is undefined"
_NO_EXPECTED = (
    "every pair of sets that chance could draw agrees (D_e = 0), e.g. every pairable set is "
    "the same: mvα is undefined"
)


@dataclass(frozen=True, repr=False)
class MVAlphaResult(Result):
    """Multi-valued alpha and the quantities it is made of.

    Attributes
    ----------
    alpha : float
        ``1 - D_o / D_e``; NaN when undefined (see ``reason``).
    observed, expected : float
        Observed and expected disagreement ``mvD_o`` and ``mvD_e`` (NaN when no unit is
        pairable).
    n_units : int
        Pairable units (two or more sets).
    n_coders : int
        Coders with a set in a pairable unit.
    n_pairable : int
        Pairable sets, ``n..``.
    n_sets : int
        Distinct pairable sets.
    n_labels : int
        Distinct labels in the pairable sets.
    reason : str or None
        Why ``alpha`` is NaN, when it is.
    label_counts : pandas.Series
        ``n_c``: pairable sets that contain each label (index ``label``).
    by_size : pandas.DataFrame
        The decomposition of ``D_o`` and ``D_e`` by the sizes of the two sets compared, one
        row per ordered pair of observed sizes (index ``size_a``, ``size_b``):
        ``observed_share`` (coincidence mass, sums to 1), ``observed`` (sums to ``D_o``),
        ``expected_share`` (``P_a P_b``, sums to 1), ``mean_delta`` (the mean difference
        of two sets of these sizes drawn by chance; NaN when no such pair can be drawn from
        the label pool), ``expected`` (sums to ``D_e``) and ``drawable``.
    """

    alpha: float
    observed: float
    expected: float
    n_units: int
    n_coders: int
    n_pairable: int
    n_sets: int
    n_labels: int
    reason: str | None = None
    label_counts: pd.Series = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    by_size: pd.DataFrame = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    _headline = "alpha"
    _series_name = "mv_alpha"
    _series_fields = (*ALPHA_FIELDS, "n_sets", "n_labels", "reason")

    _shown = ("alpha:.4f", "n_units", "n_coders", "n_pairable")


def _incidence(coded: CodedData) -> tuple[sp.csr_matrix, pd.Index]:
    """Set-by-label incidence of the value domain; scalars are one-element sets."""
    if coded.is_set:
        return set_incidence(coded.values)
    v = len(coded.values)
    return sp.identity(v, format="csr", dtype=float), pd.Index(coded.values)


def _by_size(parts: MVAlphaParts) -> pd.DataFrame:
    sizes = np.flatnonzero(parts.size_counts)
    a = np.repeat(sizes, sizes.size)
    b = np.tile(sizes, sizes.size)
    p = parts.size_shares
    index = pd.MultiIndex.from_arrays([a, b], names=["size_a", "size_b"])
    return pd.DataFrame(
        {
            "observed_share": parts.observed_mass[a, b] / parts.n,
            "observed": parts.observed_sum[a, b] / parts.n,
            "expected_share": p[a] * p[b],
            "mean_delta": parts.mean_delta[a, b],
            "expected": parts.expected_terms[a, b],
            "drawable": parts.drawable[a, b],
        },
        index=index,
    )


def _warn(reason: str) -> None:
    warnings.warn(f"mvα is NaN: {reason}", DegenerateDataWarning, stacklevel=user_stacklevel())


def _no_pairable_result() -> MVAlphaResult:
    """The result when no unit has two sets: NaN everywhere, empty tables."""
    nan = float("nan")
    columns = ["observed_share", "observed", "expected_share", "mean_delta", "expected"]
    by_size = pd.DataFrame(
        {**{c: pd.Series([], dtype=float) for c in columns}, "drawable": pd.Series([], dtype=bool)},
        index=pd.MultiIndex.from_arrays([[], []], names=["size_a", "size_b"]),
    )
    labels = pd.Index([], name="label")
    return MVAlphaResult(
        alpha=nan,
        observed=nan,
        expected=nan,
        n_units=0,
        n_coders=0,
        n_pairable=0,
        n_sets=0,
        n_labels=0,
        reason=_NO_PAIRABLE,
        label_counts=pd.Series([], dtype=np.int64, index=labels, name="n_c"),
        by_size=by_size,
    )


@declared(coefficient=True)
def mv_alpha(
    data: pd.DataFrame, *, unit, coder, value, on_duplicate, sep
) -> MVAlphaResult:
    r"""Multi-valued alpha (mvα) of Krippendorff and Craggs (2016), nominal labels.

    For data in which a coder may give one unit several values: each rating is a *set* of
    labels. Two sets differ by the share of labels they do not share,

    .. math::

        \delta_{CK} = 1 - \frac{2\,|C \cap K|}{|C| + |K|}
        \quad (\delta_{\emptyset\emptyset} = 0),

    the observed disagreement :math:`D_o` is alpha's, over the coincidences of the sets,
    and the expected disagreement :math:`D_e` is the mean difference of two sets whose
    sizes follow the observed size distribution :math:`P_a` and whose labels are drawn
    without replacement from the pool of observed label occurrences :math:`n_c`:

    .. math::

        D_e = \sum_a \sum_b P_a P_b\,
            \frac{\sum_{|C|=a,\,|K|=b} w_{CK}\,\delta_{CK}}{\sum_{|C|=a,\,|K|=b} w_{CK}},
        \qquad w_{CK} = \prod_{c \in C} n_c \prod_{k \in K} (n_k - [k \in C]),

    and :math:`\mathrm{mv}\alpha = 1 - D_o / D_e`. A pair of sizes for which no pair of
    sets can be drawn (for example two sets of 4 labels when one of the 4 labels occurs
    once) adds 0 to :math:`D_e`, as in the R package ``mvalpha``.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per (unit, coder). Not modified.

    Returns
    -------
    MVAlphaResult
        ``float(result)`` is mvα; ``result.by_size`` decomposes :math:`D_o` and
        :math:`D_e` by the sizes of the sets compared, ``result.label_counts`` holds
        :math:`n_c`. Units with fewer than two sets are not pairable and are left out.

    Raises
    ------
    ColumnNotFoundError, DuplicateRatingError, InvalidParameterError, ValueTypeError
        Bad columns, repeated (unit, coder) rows, a bad ``on_duplicate`` or ``sep``,
        unhashable labels.
    AmbiguousValuesError, MissingInSetError
        Strings that look like several labels and no ``sep``; a missing label inside a set.

    Warns
    -----
    DegenerateDataWarning
        When mvα is undefined and NaN: no unit has two sets (``observed`` and ``expected``
        are NaN too), or :math:`D_e = 0` (every set that chance could draw agrees, as when
        every pairable set is the same). ``result.reason`` says which.

    See Also
    --------
    pandas_agree.alpha : ``distance="masi"`` (or ``"jaccard"``, ``"dice"``) treats each
        distinct set as one value of the value domain instead.

    Notes
    -----
    A value is a set when it is a set, frozenset, list, tuple or numpy array (or an element
    of an Arrow list column, or a string split at ``sep``); a scalar counts as a
    one-element set. The empty set is a coded value ("no label applies"); NaN, None and
    ``pd.NA`` are missing. When every set has exactly one label, :math:`P_1 = 1` and mvα
    is nominal alpha. :math:`D_o` equals alpha's with ``distance="dice"``; the two differ
    in :math:`D_e`, which ``alpha`` takes from pairs of observed sets.

    Only the nominal difference is implemented (the case the paper works through and for
    which it gives software). Neither R ``irr`` nor ``irrCAC`` computes mvα; R ``mvalpha``
    (Drake 2025) does: ``mvalpha::mvalpha(data, type = "nominal")``, with coders as list
    columns and units as rows.

    The sums run over every set of the label domain; they are the coefficients of a
    generating polynomial built one label at a time, in :math:`O(L A^2)` for :math:`L`
    labels and sets of at most :math:`A` labels.

    References
    ----------
    Krippendorff, K., & Craggs, R. (2016). The reliability of multi-valued coding of data.
    *Communication Methods and Measures*, 10(4), 181-198.
    https://doi.org/10.1080/19312458.2016.1228863

    Drake, C. F. (2025). mvalpha: Krippendorff's Alpha for Multi-Valued Data. R package
    (CRAN).

    Examples
    --------
    The example of Krippendorff and Craggs (2016, Table 3): three observers, four units;
    observer F coded unit 3 with the empty set. mvα is 0.2866 (R ``mvalpha`` gives
    0.2865907 for the same data).

    >>> import pandas_agree as pa
    >>> f = frozenset
    >>> df = pa.datasets.from_matrix({
    ...     "F": [f("bd"), f("abd"), f(), f("a")],
    ...     "G": [f("d"), f("b"), f("a"), None],
    ...     "H": [None, f("bd"), f("a"), None],
    ... })
    >>> res = pa.mv_alpha(df)
    >>> res
    MVAlphaResult(alpha=0.2866, n_units=3, n_coders=3, n_pairable=8)
    >>> round(res.observed, 4), round(res.expected, 4)
    (0.4625, 0.6483)
    >>> res.by_size[["observed", "expected"]].sum().round(4).tolist()
    [0.4625, 0.6483]
    """
    coded = prepare(
        data,
        unit=unit,
        coder=coder,
        value=value,
        on_duplicate=on_duplicate,
        scalars_as_sets=True,
        sep=sep,
    )
    counts = coded_counts(coded)
    if counts.n_units == 0:
        _warn(_NO_PAIRABLE)
        return _no_pairable_result()
    incidence, labels = _incidence(coded)
    parts = mv_alpha_parts(counts, incidence)
    reason = None
    if parts.expected > 0:
        a = 1.0 - parts.observed / parts.expected
    else:
        a = float("nan")
        reason = _NO_EXPECTED
        _warn(reason)
    pairable = counts.m[coded.unit_codes] >= 2
    n_coders = int(np.unique(coded.coder_codes[pairable]).size)
    used = parts.label_counts > 0
    label_counts = pd.Series(
        np.rint(parts.label_counts[used]).astype(np.int64),
        index=pd.Index(labels[used], name="label"),
        name="n_c",
    )
    try:  # labels in sorted order when they sort
        label_counts = label_counts.sort_index()
    except TypeError:
        pass
    return MVAlphaResult(
        alpha=float(a),
        observed=parts.observed,
        expected=parts.expected,
        n_units=counts.n_units,
        n_coders=n_coders,
        n_pairable=parts.n,
        n_sets=int(np.count_nonzero(counts.n_c)),
        n_labels=int(used.sum()),
        reason=reason,
        label_counts=label_counts,
        by_size=_by_size(parts),
    )
