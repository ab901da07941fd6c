r"""Agreement weights for the kappa family: Gwet's named schemes and the one validation.

Weighted coefficients (Cohen's kappa, Scott's pi, Fleiss' kappa, Conger's kappa, Bennett's
S, Gwet's AC2, percent agreement) give partial credit :math:`0 \le w_{kl} \le 1` when two
ratings fall in categories :math:`k \ne l` and full credit :math:`w_{kk} = 1` when they agree.
Everywhere weights are accepted they may be

* a scheme name from :data:`WEIGHT_SCHEMES` (``weights="quadratic"``),
* a ``q x q`` matrix (array in category order, or a DataFrame labelled by category),
* a callable ``w(a, b)`` on two category labels,

and every matrix, whatever its source, goes through :func:`agreement_weights`: square, one row
and column per category, finite, in [0, 1], 1 on the diagonal and symmetric.

The named schemes are Gwet's (2014, chapter 3, section 3.4) on category scores
:math:`x_1 < \dots < x_q`, with :math:`x_{min}, x_{max}` the smallest and largest score:

==============  ===========================================================================
identity        :math:`w_{kl} = 1` if :math:`k = l` else 0 (unweighted)
linear          :math:`1 - |x_k - x_l| / (x_{max} - x_{min})`
quadratic       :math:`1 - (x_k - x_l)^2 / (x_{max} - x_{min})^2`
radical         :math:`1 - \sqrt{|x_k - x_l|} / \sqrt{x_{max} - x_{min}}`
ratio           :math:`1 - r_{kl}^2 / r_{max}^2`, :math:`r_{kl} = (x_k - x_l)/(x_k + x_l)`,
                :math:`r_{max} = (x_{max} - x_{min})/(x_{max} + x_{min})`
ordinal         :math:`1 - M_{kl} / \max M`, :math:`M_{kl} = \binom{|k - l| + 1}{2}` (ranks only)
circular        :math:`1 - d_{kl} / \max d`, :math:`d_{kl} = \sin^2(\pi (x_k - x_l) / U)`,
                :math:`U = x_{max} - x_{min} + 1`
bipolar         :math:`1 - d_{kl} / \max d`,
                :math:`d_{kl} = (x_k - x_l)^2 / [(x_k + x_l - 2 x_{min})(2 x_{max} - x_k - x_l)]`
                for :math:`k \ne l`, :math:`d_{kk} = 0`
==============  ===========================================================================

The scores are the category **positions** :math:`x_k = k = 1, \dots, q` in category order (as
scikit-learn's ``cohen_kappa_score`` and R irr's ``kappa2`` do); ``scores="values"`` uses the
numeric category values themselves, as the R package irrCAC (``linear.weights(categ)`` and
friends) and its Python port do for numeric categories. Both agree for categories
``1, 2, ..., q``.

Every scheme except ``identity`` uses the order of the categories, so the order must be known:
numeric values, an ordered Categorical, or an explicit ``categories=[...]``. Text labels without
one of these raise :class:`~pandas_agree.errors.InvalidParameterError` instead of being ranked
alphabetically.

References
----------
Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th edition. Advanced Analytics,
chapter 3.

Cohen, J. (1968). Weighted kappa. Psychological Bulletin 70(4), 213-220.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._numbers import float_array, labelled_matrix
from ..errors import InvalidParameterError

__all__ = [
    "WEIGHT_SCHEMES",
    "WeightsLike",
    "agreement_weights",
    "check_weight_matrix",
    "scheme_weights",
    "weight_matrix",
]

#: The named weight schemes (Gwet 2014, chapter 3), accepted wherever ``weights=`` is.
WEIGHT_SCHEMES: tuple[str, ...] = (
    "identity",
    "linear",
    "quadratic",
    "ordinal",
    "radical",
    "ratio",
    "circular",
    "bipolar",
)

WeightsLike = None | str | Callable[[Any, Any], float] | np.ndarray | pd.DataFrame | Sequence[Any]

_ACCEPTED = (
    f"one of {[None, *WEIGHT_SCHEMES]}, a callable w(a, b) or a square matrix of agreement weights"
)


def _scheme(name: str, x: np.ndarray) -> np.ndarray:
    """Gwet's weights of scheme ``name`` on increasing scores ``x`` (q >= 2)."""
    q = x.size
    diff = x[:, None] - x[None, :]
    span = float(x[-1] - x[0])
    if name == "identity":
        return np.eye(q)
    if name == "linear":
        return 1.0 - np.abs(diff) / span
    if name == "quadratic":
        return 1.0 - (diff / span) ** 2
    if name == "radical":
        return 1.0 - np.sqrt(np.abs(diff)) / np.sqrt(span)
    if name == "ratio":
        total = x[:, None] + x[None, :]
        return 1.0 - (diff / total) ** 2 / (span / (x[-1] + x[0])) ** 2
    if name == "ordinal":
        rank = np.arange(q, dtype=float)
        n_kl = np.abs(rank[:, None] - rank[None, :]) + 1.0
        m = n_kl * (n_kl - 1.0) / 2.0
        return 1.0 - m / m.max()
    if name == "circular":
        d = np.sin(np.pi * diff / (span + 1.0)) ** 2
        return 1.0 - d / d.max()
    # bipolar
    total = x[:, None] + x[None, :]
    denom = (total - 2.0 * x[0]) * (2.0 * x[-1] - total)
    off = ~np.eye(q, dtype=bool)
    d = np.zeros((q, q))
    d[off] = diff[off] ** 2 / denom[off]
    return 1.0 - d / d.max()


def weight_matrix(
    scheme: str,
    categories: Sequence[Hashable] | int,
    *,
    scores: Literal["positions", "values"] = "positions",
) -> pd.DataFrame:
    """The agreement-weight matrix of a named scheme, labelled by category.

    Parameters
    ----------
    scheme : str
        One of :data:`WEIGHT_SCHEMES` (formulas in the module docstring).
    categories : sequence or int
        The categories in rank order, or their number ``q`` (labels 1..q).
    scores : {"positions", "values"}, default "positions"
        Scores :math:`x_k` of the formulas: positions 1..q (the default everywhere in
        pandas_agree), or the numeric category values (irrCAC's convention for numeric
        categories; the values must be increasing).

    Returns
    -------
    pandas.DataFrame
        ``q x q`` weights, index and columns the categories; pass it as ``weights=``.

    Raises
    ------
    InvalidParameterError
        Unknown scheme or ``scores``; ``scores="values"`` on non-numeric or non-increasing
        categories; ``ratio`` on scores with ``x_min + x_max = 0``.

    References
    ----------
    Gwet (2014), chapter 3; R irrCAC: ``linear.weights``, ``quadratic.weights``,
    ``ordinal.weights``, ``radical.weights``, ``ratio.weights``, ``circular.weights``,
    ``bipolar.weights``.

    Examples
    --------
    Quadratic weights for five categories, :math:`1 - (k - l)^2 / 16` (Gwet 2014, chapter 3):

    >>> from pandas_agree.kappa.weights import weight_matrix
    >>> weight_matrix("quadratic", 5).round(4).iloc[0].tolist()
    [1.0, 0.9375, 0.75, 0.4375, 0.0]
    >>> weight_matrix("linear", [1, 2, 5], scores="values").iloc[0].tolist()
    [1.0, 0.75, 0.0]
    """
    if not isinstance(scheme, str) or scheme not in WEIGHT_SCHEMES:
        raise InvalidParameterError(
            f"`scheme` must be one of {list(WEIGHT_SCHEMES)}, got {scheme!r}"
        )
    if scores not in ("positions", "values"):
        raise InvalidParameterError(
            f"`scores` must be one of ['positions', 'values'], got {scores!r}"
        )
    if isinstance(categories, (int, np.integer)) and not isinstance(categories, bool):
        if categories < 1:
            raise InvalidParameterError(
                "`categories` must be a positive number of categories or a list, got "
                f"{categories!r}"
            )
        labels = pd.Index(np.arange(1, int(categories) + 1))
    elif isinstance(categories, (str, bytes)) or not hasattr(categories, "__iter__"):
        raise InvalidParameterError(
            f"`categories` must be a list of categories in rank order or their number, got "
            f"{categories!r}"
        )
    else:
        labels = pd.Index(list(categories))
        if not labels.is_unique or len(labels) == 0:
            raise InvalidParameterError(
                f"`categories` must be non-empty without repeats, got {list(labels)}"
            )
    return pd.DataFrame(
        scheme_weights(scheme, labels, scores), index=labels, columns=labels.copy()
    )


def scheme_weights(
    scheme: str, categories: pd.Index, scores: str = "positions"
) -> np.ndarray:
    """The q x q array of ``scheme`` over ``categories`` (validated names; internal use)."""
    q = len(categories)
    if q < 2:
        return np.ones((q, q))
    if scores == "positions":
        x = np.arange(1.0, q + 1.0)
    else:
        x = float_array(
            categories,
            lambda: f"`scores` 'values' needs numeric categories, got {list(categories)}",
        )
        if not np.all(np.isfinite(x)) or not np.all(np.diff(x) > 0):
            raise InvalidParameterError(
                f"`scores` 'values' needs finite increasing categories, got {list(categories)}"
            )
    if scheme == "ratio" and x[0] + x[-1] == 0:
        raise InvalidParameterError(
            f"`scheme` 'ratio' is undefined for scores from {x[0]} to {x[-1]} (x_min + x_max = 0)"
        )
    return _scheme(scheme, x)


def agreement_weights(
    weights: WeightsLike,
    categories: pd.Index,
    *,
    ordered: bool = True,
    name: str = "weights",
) -> tuple[np.ndarray | None, str | None]:
    """Validate ``weights`` and return the q x q matrix over ``categories`` and its name.

    The one check of every weights argument in pandas_agree.

    Parameters
    ----------
    weights : None, str, callable, array-like or DataFrame
        See the module docstring.
    categories : pandas.Index
        The category domain, in rank order.
    ordered : bool, default True
        Whether the order of ``categories`` is meaningful (numbers, an ordered Categorical or
        an explicit list). Named schemes other than ``identity`` need it.
    name : str
        Parameter name used in messages.

    Returns
    -------
    matrix : ndarray or None
        None when ``weights`` is None (unweighted).
    label : str or None
        The scheme name, ``"custom"`` for a matrix or callable, None when unweighted.

    Raises
    ------
    InvalidParameterError
        Unknown name; a named order-based scheme on categories without an order; a matrix
        that is not square with one row and column per category, not finite, outside
        [0, 1], without 1 on the diagonal, or not symmetric.

    Examples
    --------
    >>> import pandas as pd
    >>> from pandas_agree.kappa.weights import agreement_weights
    >>> mat, label = agreement_weights("linear", pd.Index([1, 2, 3]))
    >>> label, mat[0].tolist()
    ('linear', [1.0, 0.5, 0.0])
    """
    q = len(categories)
    if weights is None:
        return None, None
    if isinstance(weights, str):
        if weights not in WEIGHT_SCHEMES:
            raise InvalidParameterError(f"`{name}` must be {_ACCEPTED}, got {weights!r}")
        if weights != "identity" and not ordered:
            raise InvalidParameterError(
                f"`{name}` {weights!r} needs the order of the categories, but the values "
                f"{list(categories)[:10]} have none: pass categories=[...] in rank order, use "
                "an ordered Categorical column or numeric values (text is never ranked "
                "alphabetically)"
            )
        return scheme_weights(weights, categories), weights
    if isinstance(weights, pd.DataFrame):
        mat = labelled_matrix(weights, categories, f"`{name}`")
    elif callable(weights):
        cats = list(categories)
        mat = np.array([[float(weights(a, b)) for b in cats] for a in cats], dtype=float)
        mat = mat.reshape(q, q)
    else:
        mat = float_array(weights, lambda: f"`{name}` must be {_ACCEPTED}, got {weights!r}")
        if mat.shape != (q, q):
            raise InvalidParameterError(
                f"`{name}` matrix must be {q} x {q} (one row and column per category, in the "
                f"order {list(categories)}), got shape {mat.shape}"
            )
    check_weight_matrix(mat, name)
    return mat, "custom"


def check_weight_matrix(mat: np.ndarray, name: str = "weights") -> None:
    """Raise unless ``mat`` is a finite symmetric matrix in [0, 1] with 1 on the diagonal."""
    if not np.all(np.isfinite(mat)) or (mat < 0).any() or (mat > 1).any():
        raise InvalidParameterError(
            f"`{name}` must be agreement weights between 0 and 1, got {mat.tolist()}"
        )
    if not np.allclose(np.diag(mat), 1.0):
        raise InvalidParameterError(
            f"`{name}` are agreement weights: the diagonal must be 1 (full credit for identical "
            f"ratings), got diagonal {np.diag(mat).tolist()}; for disagreement weights d pass "
            "1 - d / d.max()"
        )
    if not np.allclose(mat, mat.T):
        k, m = np.unravel_index(int(np.argmax(np.abs(mat - mat.T))), mat.shape)
        raise InvalidParameterError(
            f"`{name}` must be symmetric (the credit for categories k, l must not depend on "
            f"which coder gave which), got w[{k}, {m}] = {mat[k, m]:g} but w[{m}, {k}] = "
            f"{mat[m, k]:g}; pass (w + w.T) / 2 to symmetrise"
        )
