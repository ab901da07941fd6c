r"""Distance functions for Krippendorff's alpha, and the registry that names them.

Every built-in is importable as a plain function on two values (``masi({1, 2}, {1})``) and
is registered by name (``alpha(df, distance="masi")``). Alpha evaluates each distance on the
value domain only: closed forms for ``nominal``, ``interval`` and ``ordinal``; vectorised
formulas over (intersection, size, size) for the set distances; a blocked ``V x V``
evaluation for ``ratio`` and user callables.

Set distances (all are 1 for disjoint sets, 0 for equal sets; ``d(set(), set()) = 0`` and
``d(set(), A) = 1`` for non-empty ``A``):

====================  ====================================================================
``jaccard``           :math:`1 - |A \cap B| / |A \cup B|` (Jaccard 1908)
``dice``              :math:`1 - 2|A \cap B| / (|A| + |B|)` (Dice 1945)
``masi``              :math:`1 - J \cdot M`, ``M`` = 1 equal, 2/3 one a subset of the other,
                      1/3 overlapping with both differences non-empty, 0 disjoint
                      (Passonneau 2006, section 3.3; exact thirds, not 0.67/0.33)
``masi_dice``         :math:`(1 - \mathrm{Dice}) \cdot P`, ``P`` = 0 equal, 1/3 subsumption,
                      2/3 overlap, 1 disjoint (Passonneau 2005, the pyramid report, Figure 2)
``masi_jaccard``      :math:`(1 - J) \cdot P` with the same ``P`` (the form some Java tools use)
``weighted_dice``     ``dice`` with set sizes replaced by sums of element weights
``weighted_jaccard``  ``jaccard`` likewise (alpha needs ``weights=``)
====================  ====================================================================

For ``masi_dice`` and ``masi_jaccard`` the empty set counts as *disjoint* from a non-empty
set (``P = 1``), not as its subset, so that every set distance is 1 on disjoint sets.
A set-valued nominal distance (identical sets agree, all else disagree) is ``nominal``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._numbers import float_array
from ..errors import InvalidParameterError, UnknownDistanceError, ValueTypeError

__all__ = [
    "KINDS",
    "Distance",
    "available_distances",
    "callable_delta",
    "dice",
    "get_distance",
    "interval",
    "jaccard",
    "masi",
    "masi_dice",
    "masi_jaccard",
    "nominal",
    "numeric_delta",
    "ordinal",
    "ratio",
    "register_distance",
    "set_kernel",
    "weighted_dice",
    "weighted_jaccard",
]

Kind = Literal["nominal", "interval", "ordinal", "numeric", "set", "callable"]

#: The kinds a :class:`Distance` can have (how alpha evaluates it).
KINDS: tuple[str, ...] = ("nominal", "interval", "ordinal", "numeric", "set", "callable")


@dataclass(frozen=True)
class Distance:
    """A named distance and the form alpha evaluates it in.

    Parameters
    ----------
    name : str
        Registry name, shown in results.
    kind : {"nominal", "interval", "ordinal", "numeric", "set", "callable"}
        How alpha evaluates it: closed forms (``nominal``, ``interval``, ``ordinal``), a
        vectorised function of two float arrays (``numeric``), a vectorised function of
        (intersection, size, size) on sets (``set``), or a Python callable on two values.
    func : callable
        The distance as a plain function of two values.
    kernel : callable, optional
        ``numeric``: ``kernel(x, y)`` on float arrays; ``set``: ``kernel(inter, size_a,
        size_b)`` on 1-D float arrays of (weighted) intersection and set sizes. A set
        kernel that gives 1 for disjoint sets (as Jaccard, Dice and MASI do) lets alpha
        skip disjoint pairs; any other is evaluated on every pair of distinct values.
    weighted : bool
        A set distance whose sizes are sums of element weights (``weights=`` is required).

    Raises
    ------
    InvalidParameterError
        For a ``kind`` outside :data:`KINDS`, a ``func`` that is not callable, or a
        ``numeric`` or ``set`` distance without a callable ``kernel``.

    Examples
    --------
    >>> import numpy as np
    >>> d = Distance("absolute", "numeric", lambda a, b: abs(a - b), lambda x, y: np.abs(x - y))
    >>> d(2, 5)
    3
    >>> Distance("absolute", "numerik", lambda a, b: abs(a - b))
    Traceback (most recent call last):
    ...
    pandas_agree.errors.InvalidParameterError: `kind` must be one of [...], got 'numerik'
    """

    name: str
    kind: Kind
    func: Callable[..., float] = field(repr=False)
    kernel: Callable[..., np.ndarray] | None = field(default=None, repr=False)
    weighted: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in KINDS:
            raise InvalidParameterError(f"`kind` must be one of {list(KINDS)}, got {self.kind!r}")
        if not callable(self.func):
            raise InvalidParameterError(f"`func` must be callable, got {self.func!r}")
        if self.kind in ("numeric", "set") and not callable(self.kernel):
            form = "kernel(x, y) on float arrays" if self.kind == "numeric" else (
                "kernel(inter, size_a, size_b) on float arrays"
            )
            raise InvalidParameterError(
                f"`kernel` must be a callable {form} for kind={self.kind!r}, got {self.kernel!r}"
            )

    @property
    def is_set(self) -> bool:
        """True for set distances, under which a scalar value counts as a one-element set."""
        return self.kind == "set"

    def __call__(self, a: Any, b: Any, **kwargs: Any) -> float:
        return self.func(a, b, **kwargs)


# ---------------------------------------------------------------------------------------------
# Scalar distances


def nominal(a: Hashable, b: Hashable) -> float:
    """Nominal distance: 0 when ``a == b``, else 1 (works on sets too: identical sets agree).

    Examples
    --------
    >>> nominal("x", "x"), nominal("x", "y"), nominal(frozenset({1}), {1})
    (0.0, 1.0, 0.0)
    """
    return 0.0 if _as_key(a) == _as_key(b) else 1.0


def interval(a: float, b: float) -> float:
    """Interval distance ``(a - b) ** 2`` (Krippendorff 2011).

    Examples
    --------
    >>> interval(1, 4)
    9.0
    """
    return float((_number(a, "a") - _number(b, "b")) ** 2)


def _number(x: Any, name: str) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        raise ValueTypeError(f"`{name}` must be a number, got {x!r}") from None


def _ratio_kernel(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    # Halves first, and the quotient before squaring: no overflow for |x|, |y| up to the
    # largest float (the distance is scale-invariant, so halving changes nothing).
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype.kind in "iu" and y.dtype.kind in "iu":
        # |x - y| exactly (uint64 arithmetic, |x - y| < 2 ** 64), then to float.
        ux, uy = x.astype(np.uint64), y.astype(np.uint64)
        diff = np.where(x >= y, ux - uy, uy - ux).astype(float) / 2.0
    else:
        diff = (x.astype(float) / 2.0) - (y.astype(float) / 2.0)
    total = x.astype(float) / 2.0 + y.astype(float) / 2.0
    q = np.divide(diff, total, out=np.zeros(np.broadcast(x, y).shape), where=total != 0)
    return q * q


def ratio(a: float, b: float) -> float:
    """Ratio distance ``((a - b) / (a + b)) ** 2``, 0 when ``a = b = 0`` (Krippendorff 2011).

    Examples
    --------
    >>> ratio(1, 3)
    0.25
    """
    return float(_ratio_kernel(np.asarray(_number(a, "a")), np.asarray(_number(b, "b"))))


def ordinal(a: Hashable, b: Hashable, *, frequencies: Mapping[Hashable, float]) -> float:
    r"""Krippendorff's ordinal distance, which depends on how often each value was used.

    .. math:: \delta_{ck} = \Big(\sum_{g=c}^{k} n_g - \frac{n_c + n_k}{2}\Big)^2

    Parameters
    ----------
    a, b : hashable
        Two values present in ``frequencies``.
    frequencies : mapping
        Value -> pairable frequency ``n_g``, **in rank order** (a dict or a
        :class:`pandas.Series` whose index is ordered). Alpha computes these itself.

    Examples
    --------
    Krippendorff (2011), section C: value frequencies 1: 9, 2: 13, 3: 10, 4: 5, 5: 3.

    >>> ordinal(1, 3, frequencies={1: 9, 2: 13, 3: 10, 4: 5, 5: 3})  # (32 - 9.5) ** 2
    506.25
    """
    keys = list(frequencies.keys())
    n = np.array([float(frequencies[k]) for k in keys])
    pos = np.cumsum(n) - n / 2.0
    try:
        ia, ib = keys.index(a), keys.index(b)
    except ValueError as exc:
        raise InvalidParameterError(
            f"`a` and `b` must be keys of `frequencies`, got a={a!r}, b={b!r}"
        ) from exc
    return float((pos[ia] - pos[ib]) ** 2)


# ---------------------------------------------------------------------------------------------
# Set distances: vectorised over (intersection, |A|, |B|)


def _overlap_penalty(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    """Passonneau's P: 0 equal, 1/3 subsumption, 2/3 overlap, 1 disjoint (empty vs non-empty: 1)."""
    equal = (inter == na) & (inter == nb)
    subset = (inter == np.minimum(na, nb)) & (inter > 0)
    return np.select([equal, subset, inter > 0], [0.0, 1.0 / 3.0, 2.0 / 3.0], default=1.0)


def _jaccard_similarity(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    union = na + nb - inter
    return np.divide(inter, union, out=np.ones(np.shape(inter)), where=union != 0)


def _dice_similarity(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    total = na + nb
    return np.divide(2.0 * inter, total, out=np.ones(np.shape(inter)), where=total != 0)


def _jaccard_kernel(inter, na, nb):
    return 1.0 - _jaccard_similarity(inter, na, nb)


def _dice_kernel(inter, na, nb):
    return 1.0 - _dice_similarity(inter, na, nb)


def _masi_kernel(inter, na, nb):
    equal = (inter == na) & (inter == nb)
    subset = (inter == np.minimum(na, nb)) & (inter > 0)
    monotonicity = np.select([equal, subset, inter > 0], [1.0, 2.0 / 3.0, 1.0 / 3.0], default=0.0)
    return 1.0 - _jaccard_similarity(inter, na, nb) * monotonicity


def _masi_dice_kernel(inter, na, nb):
    return (1.0 - _dice_similarity(inter, na, nb)) * _overlap_penalty(inter, na, nb)


def _masi_jaccard_kernel(inter, na, nb):
    return (1.0 - _jaccard_similarity(inter, na, nb)) * _overlap_penalty(inter, na, nb)


def _as_key(x: Any) -> Any:
    if isinstance(x, (set, list, tuple)):
        return frozenset(x)
    return x


def _as_set(x: Any, name: str) -> frozenset:
    if isinstance(x, frozenset):
        return x
    if isinstance(x, (set, list, tuple)):
        return frozenset(x)
    if isinstance(x, Iterable) and not isinstance(x, (str, bytes)):
        return frozenset(x)
    raise InvalidParameterError(f"`{name}` must be a set, frozenset, list or tuple, got {x!r}")


def _on_sets(
    kernel: Callable[..., np.ndarray], a: Any, b: Any, size: Callable[[frozenset], float]
) -> float:
    """``kernel(size(A & B), size(A), size(B))`` for the sets ``a`` and ``b``, as a float."""
    sa, sb = _as_set(a, "a"), _as_set(b, "b")
    return float(kernel(np.array(size(sa & sb)), np.array(size(sa)), np.array(size(sb))))


def _named(func: Callable[..., float], name: str, doc: str) -> Callable[..., float]:
    """``func`` under the public ``name``, documented by ``doc``."""
    func.__name__ = func.__qualname__ = name
    func.__doc__ = doc
    return func


def _set_function(kernel: Callable[..., np.ndarray], name: str, doc: str) -> Callable[..., float]:
    def func(a: Iterable[Hashable], b: Iterable[Hashable]) -> float:
        return _on_sets(kernel, a, b, lambda s: float(len(s)))

    return _named(func, name, doc)


jaccard = _set_function(
    _jaccard_kernel,
    "jaccard",
    """Jaccard distance ``1 - |A & B| / |A | B|`` (0 for two empty sets).

    Examples
    --------
    Passonneau (2006), Figure 2, column x: J = 2/3.

    >>> round(jaccard({"x", "y"}, {"x", "y", "z"}), 6)
    0.333333
    """,
)
dice = _set_function(
    _dice_kernel,
    "dice",
    """Dice distance ``1 - 2 |A & B| / (|A| + |B|)`` (0 for two empty sets).

    Examples
    --------
    >>> dice({1, 2}, {2, 3})
    0.5
    """,
)
masi = _set_function(
    _masi_kernel,
    "masi",
    """MASI distance ``1 - J * M`` (Passonneau 2006, section 3.3).

    ``J`` is Jaccard similarity; ``M`` is 1 for equal sets, 2/3 when one is a subset of the
    other, 1/3 when they overlap with both differences non-empty, 0 when disjoint. The thirds
    are exact (older NLTK releases' ``masi_distance`` used 0.67 and 0.33).

    Examples
    --------
    Passonneau (2006), Figure 2, column x: J = 2/3 and M = 2/3, so MASI similarity 4/9.

    >>> from fractions import Fraction
    >>> Fraction(1 - masi({"x", "y"}, {"x", "y", "z"})).limit_denominator(100)
    Fraction(4, 9)
    """,
)
masi_dice = _set_function(
    _masi_dice_kernel,
    "masi_dice",
    """MASI as written in the pyramid report: ``(1 - Dice) * P`` (Passonneau 2005, Figure 2).

    ``P`` is 0 for equal sets, 1/3 when one subsumes the other, 2/3 for overlap with both
    differences non-empty, and 1 for disjoint sets (an empty set is disjoint from any
    non-empty set).

    Examples
    --------
    >>> round(masi_dice({1, 2}, {1, 2, 3, 4}), 6)  # Dice 2/3, subsumption: (1/3) * (1/3)
    0.111111
    """,
)
masi_jaccard = _set_function(
    _masi_jaccard_kernel,
    "masi_jaccard",
    """``(1 - Jaccard) * P`` with the penalty ``P`` of :func:`masi_dice`.

    Examples
    --------
    >>> round(masi_jaccard({1, 2}, {2, 3}), 6)  # J = 1/3, overlap: (2/3) * (2/3)
    0.444444
    """,
)


def _weighted_function(
    kernel: Callable[..., np.ndarray], name: str, doc: str
) -> Callable[..., float]:
    def func(a: Iterable[Hashable], b: Iterable[Hashable], *, weights: Any) -> float:
        w = weights if callable(weights) else weights.__getitem__
        return _on_sets(kernel, a, b, lambda s: float(sum(w(e) for e in s)))

    return _named(func, name, doc)


weighted_dice = _weighted_function(
    _dice_kernel,
    "weighted_dice",
    """Dice distance with element weights: ``1 - 2 w(A & B) / (w(A) + w(B))``.

    ``w(S)`` is the sum of the weights of the elements of ``S`` (for example SCU weights,
    Passonneau 2005, section 3.1). ``weights`` is a mapping or a callable element -> weight.

    Examples
    --------
    >>> round(weighted_dice({"a", "b"}, {"a"}, weights={"a": 3, "b": 1}), 6)  # 1 - 6/7
    0.142857
    """,
)
weighted_jaccard = _weighted_function(
    _jaccard_kernel,
    "weighted_jaccard",
    """Jaccard distance with element weights: ``1 - w(A & B) / w(A | B)``.

    Examples
    --------
    >>> weighted_jaccard({"a", "b"}, {"a"}, weights={"a": 3, "b": 1})
    0.25
    """,
)


# ---------------------------------------------------------------------------------------------
# Registry

_REGISTRY: dict[str, Distance] = {}


def _builtin(d: Distance) -> None:
    _REGISTRY[d.name] = d


_builtin(Distance("nominal", "nominal", nominal))
_builtin(Distance("ordinal", "ordinal", ordinal))
_builtin(Distance("interval", "interval", interval))
_builtin(Distance("ratio", "numeric", ratio, _ratio_kernel))
_builtin(Distance("jaccard", "set", jaccard, _jaccard_kernel))
_builtin(Distance("dice", "set", dice, _dice_kernel))
_builtin(Distance("masi", "set", masi, _masi_kernel))
_builtin(Distance("masi_dice", "set", masi_dice, _masi_dice_kernel))
_builtin(Distance("masi_jaccard", "set", masi_jaccard, _masi_jaccard_kernel))
_builtin(Distance("weighted_dice", "set", weighted_dice, _dice_kernel, weighted=True))
_builtin(Distance("weighted_jaccard", "set", weighted_jaccard, _jaccard_kernel, weighted=True))
_BUILTIN_NAMES = frozenset(_REGISTRY)


def available_distances() -> list[str]:
    """Names accepted by ``distance=``, sorted.

    Examples
    --------
    >>> [name for name in available_distances() if name.startswith("masi")]
    ['masi', 'masi_dice', 'masi_jaccard']
    """
    return sorted(_REGISTRY)


def register_distance(
    name: str, func: Callable[[Any, Any], float] | Distance, *, overwrite: bool = False
) -> Distance:
    """Register a distance under ``name`` so that ``distance=name`` finds it.

    Parameters
    ----------
    name : str
        The name to register.
    func : callable or Distance
        A symmetric function ``d(a, b) -> float`` with ``d(a, a) = 0`` and ``d >= 0``, called
        on pairs of distinct values of the value domain (sets arrive as frozensets), or a
        :class:`Distance` for a vectorised form.
    overwrite : bool, default False
        Replace an existing user distance of that name. Built-ins can never be replaced.

    Returns
    -------
    Distance

    Examples
    --------
    >>> d = register_distance("absolute", lambda a, b: abs(a - b), overwrite=True)
    >>> d.name, d.kind
    ('absolute', 'callable')
    """
    if not isinstance(name, str) or not name:
        raise InvalidParameterError(f"`name` must be a non-empty string, got {name!r}")
    if name in _BUILTIN_NAMES:
        raise InvalidParameterError(
            f"`name` {name!r} is a built-in distance and cannot be replaced"
        )
    if name in _REGISTRY and not overwrite:
        raise InvalidParameterError(
            f"`name` {name!r} is already registered; pass overwrite=True to replace it"
        )
    if isinstance(func, Distance):
        dist = Distance(name, func.kind, func.func, func.kernel, func.weighted)
    elif callable(func):
        dist = Distance(name, "callable", func)
    else:
        raise InvalidParameterError(f"`func` must be callable or a Distance, got {func!r}")
    _REGISTRY[name] = dist
    return dist


def get_distance(spec: str | Callable[[Any, Any], float] | Distance) -> Distance:
    """Resolve ``distance=`` (a registered name, a callable or a :class:`Distance`).

    Examples
    --------
    >>> get_distance("masi").kind
    'set'
    >>> get_distance("masy")
    Traceback (most recent call last):
    ...
    pandas_agree.errors.UnknownDistanceError: `distance` must be one of [...], got 'masy'; ...
    """
    if isinstance(spec, Distance):
        return spec
    if isinstance(spec, str):
        try:
            return _REGISTRY[spec]
        except KeyError:
            raise UnknownDistanceError(
                f"`distance` must be one of {available_distances()}, got {spec!r}; a callable "
                "d(a, b) -> float also works"
            ) from None
    if callable(spec):
        name = getattr(spec, "__name__", None) or type(spec).__name__
        return Distance(name, "callable", spec)
    raise UnknownDistanceError(
        f"`distance` must be one of {available_distances()}, got {spec!r}; a callable "
        "d(a, b) -> float also works"
    )


# ---------------------------------------------------------------------------------------------
# Checks of user distances on the value domain (before and while alpha uses them)

# Relative difference between d(a, b) and d(b, a) still taken as symmetric (rounding).
SYMMETRY_RTOL = 1e-9

_TRUSTED_KERNELS = frozenset(
    id(d.kernel) for d in _REGISTRY.values() if d.kernel is not None
)


def _show(x: Any) -> str:
    return repr(x.item() if isinstance(x, np.generic) else x)


def _pair(a: Any, b: Any) -> str:
    return f"d({_show(a)}, {_show(b)})"


def _call(name: str, func: Callable[..., Any], *args: Any) -> Any:
    """``func(*args)``; an exception of the user's function becomes a typed error."""
    try:
        return func(*args)
    except Exception as exc:
        raise InvalidParameterError(
            f"`distance` {name!r} raised {type(exc).__name__} on the values it was given: {exc}"
        ) from exc


def _as_floats(name: str, values: Any, shape: tuple[int, ...]) -> np.ndarray:
    arr = float_array(
        values, lambda: f"`distance` {name!r} must return numbers, got {values!r:.200}"
    )
    if arr.shape != shape:
        raise InvalidParameterError(
            f"`distance` {name!r} must return one value per pair (shape {shape}), got "
            f"shape {arr.shape}"
        )
    return arr


def _checked(
    name: str,
    out: Any,
    back: Any,
    shape: tuple[int, ...],
    describe: Callable[[int, bool], str],
) -> np.ndarray:
    """``out`` (the distances of some pairs) as floats, checked.

    Each must be finite and non-negative; ``back`` (the same pairs in the other order, or
    None) must equal ``out`` to a relative :data:`SYMMETRY_RTOL`. ``describe(i, swapped)``
    names pair ``i`` in a message, for example ``"d(1, 2)"``.
    """
    fwd = _as_floats(name, out, shape)
    bad = ~np.isfinite(fwd) | (fwd < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidParameterError(
            f"`distance` {name!r} must return finite non-negative numbers, got "
            f"{describe(i, False)} = {float(fwd.flat[i])!r}"
        )
    if back is not None:
        bwd = _as_floats(name, back, shape)
        asym = ~(np.abs(fwd - bwd) <= SYMMETRY_RTOL * np.maximum(np.abs(fwd), np.abs(bwd)))
        if asym.any():
            i = int(np.flatnonzero(asym)[0])
            raise InvalidParameterError(
                f"`distance` {name!r} must be symmetric, got {describe(i, False)} = "
                f"{float(fwd.flat[i])!r} but {describe(i, True)} = {float(bwd.flat[i])!r}"
            )
    return fwd


def _check_diagonal(name: str, diag: np.ndarray, describe: Callable[[int], str]) -> None:
    nonzero = diag != 0
    if nonzero.any():
        i = int(np.flatnonzero(nonzero)[0])
        raise InvalidParameterError(
            f"`distance` {name!r} must give d(a, a) = 0, got {describe(i)} = "
            f"{float(diag.flat[i])!r}"
        )


def _checked_delta(
    name: str, func: Callable[[Any, Any], Any], values: np.ndarray
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``delta(c, k) = func(values[c], values[k])`` with a user's ``func`` checked.

    ``func`` is elementwise over two arrays. It must give 0 on the diagonal (checked here on
    every value), and on every later call finite, non-negative, symmetric distances, one
    per pair (see :func:`_checked`).
    """
    if values.size:
        diag = _checked(
            name,
            _call(name, func, values, values),
            None,
            values.shape,
            lambda i, _: _pair(values[i], values[i]),
        )
        _check_diagonal(name, diag, lambda i: _pair(values[i], values[i]))

    def delta(c: np.ndarray, k: np.ndarray) -> np.ndarray:
        a, b = values[np.asarray(c)], values[np.asarray(k)]
        return _checked(
            name,
            _call(name, func, a, b),
            _call(name, func, b, a),
            a.shape,
            lambda i, swap: _pair(b[i], a[i]) if swap else _pair(a[i], b[i]),
        )

    return delta


def callable_delta(
    dist: Distance, domain: np.ndarray
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``delta(c, k)`` on value codes for a distance given as a Python callable.

    The callable is checked on the value domain: ``d(a, a) = 0`` for every value before
    use, and every pair alpha evaluates is evaluated both ways and must be finite,
    non-negative and symmetric (to a relative :data:`SYMMETRY_RTOL`). A failed check raises
    :class:`~pandas_agree.errors.InvalidParameterError` showing the offending pair.

    Parameters
    ----------
    dist : Distance
        The distance; ``dist.func(a, b)`` is called on values of ``domain``.
    domain : ndarray
        The distinct values (object array), indexed by code.

    Returns
    -------
    callable
        ``delta(c, k)`` -> float array, elementwise over two arrays of codes.

    Examples
    --------
    >>> import numpy as np
    >>> delta = callable_delta(get_distance(lambda a, b: abs(a - b)), np.array([1, 2, 4]))
    >>> delta(np.array([0, 1]), np.array([2, 2])).tolist()
    [3.0, 2.0]
    >>> one_way = callable_delta(get_distance(lambda a, b: max(a - b, 0)), np.array([1, 2]))
    >>> one_way(np.array([0]), np.array([1]))
    Traceback (most recent call last):
    ...
    pandas_agree.errors.InvalidParameterError: `distance` '<lambda>' must be symmetric, ...
    """
    domain = np.asarray(domain, dtype=object)
    return _checked_delta(dist.name, np.frompyfunc(dist.func, 2, 1), domain)


def numeric_delta(
    dist: Distance, x: np.ndarray
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``delta(c, k) = kernel(x[c], x[k])`` for a ``numeric`` distance on the values ``x``.

    A user kernel is checked as :func:`callable_delta` checks a callable (zero on the
    diagonal, finite, non-negative, symmetric, one value per pair); built-in kernels are
    trusted.

    Examples
    --------
    >>> import numpy as np
    >>> delta = numeric_delta(get_distance("ratio"), np.array([1.0, 3.0]))
    >>> delta(np.array([0]), np.array([1])).tolist()
    [0.25]
    """
    kern = dist.kernel
    if kern is None:
        raise InvalidParameterError(f"`distance` {dist.name!r} has no vectorised kernel")
    x = np.asarray(x)
    if id(kern) in _TRUSTED_KERNELS:
        return lambda c, k: kern(x[c], x[k])
    return _checked_delta(dist.name, kern, x)


def set_kernel(dist: Distance) -> Callable[..., np.ndarray]:
    """The ``kernel(inter, size_a, size_b)`` of a ``set`` distance, checked when it is a user's.

    A user kernel must return one finite, non-negative value per pair, the same with the
    two sizes swapped (symmetry), and 0 for equal sets (``inter == size_a == size_b``).
    This is checked up front on sets of sizes 0 to 3 and on every later call; an offending
    pair is shown by its statistics. Built-in kernels are returned as they are.

    Examples
    --------
    >>> import numpy as np
    >>> share = Distance("share", "set", jaccard, lambda i, a, b: 1 - i / np.maximum(a, 1))
    >>> set_kernel(share)
    Traceback (most recent call last):
    ...
    pandas_agree.errors.InvalidParameterError: `distance` 'share' must give d(a, a) = 0, ...
    """
    kern = dist.kernel
    if kern is None:
        raise InvalidParameterError(f"`distance` {dist.name!r} has no vectorised kernel")
    if id(kern) in _TRUSTED_KERNELS:
        return kern
    name = dist.name

    def checked(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
        inter, na, nb = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (inter, na, nb)))
        shape = inter.shape

        def describe(i: int, swap: bool = False) -> str:
            a, b = (nb, na) if swap else (na, nb)
            return f"d(|A & B| = {inter.flat[i]:g}, |A| = {a.flat[i]:g}, |B| = {b.flat[i]:g})"

        out = _call(name, kern, inter, na, nb)
        equal = (inter == na) & (inter == nb)
        if equal.any():
            _check_diagonal(
                name, np.where(equal, _as_floats(name, out, shape), 0.0).ravel(), describe
            )
        return _checked(name, out, _call(name, kern, inter, nb, na), shape, describe)

    sizes = np.array([0.0, 1.0, 2.0, 3.0])
    checked(sizes, sizes, sizes)
    checked(np.array([1.0, 1.0, 0.0]), np.array([1.0, 2.0, 1.0]), np.array([2.0, 3.0, 2.0]))
    return checked
