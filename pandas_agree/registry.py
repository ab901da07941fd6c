"""Coefficients by name, for ``report(coefficients=[...])`` and the CLI's ``--coefficients``.

A coefficient is any function ``f(data, *, unit=, coder=, value=, on_duplicate=, ...)`` on long
data whose result converts to a number with ``float()``. Every categorical coefficient of
pandas_agree (and ``mv_alpha``, multi-valued alpha) is registered under its function name;
:func:`register_coefficient` adds more, and a callable may be passed
directly wherever a name is accepted.

Examples
--------
>>> from pandas_agree.registry import available_coefficients
>>> "conger_kappa" in available_coefficients()
True
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import pandas as pd

from . import declare
from .errors import DegenerateDataWarning, InvalidParameterError, NoPairableUnitsError

__all__ = [
    "add_coefficients",
    "available_coefficients",
    "check_coefficients",
    "coefficient_table",
    "get_coefficient",
    "register_coefficient",
]

Coefficient = Callable[..., Any]

#: Coefficients registered by users (the declared ones come from pandas_agree.declare).
_REGISTERED: dict[str, Coefficient] = {}


def _coefficients() -> dict[str, Coefficient]:
    """Every coefficient by name: the declared ones (with their report defaults), then users'."""
    found: dict[str, Coefficient] = {}
    for name, decl in declare.declarations(coefficient=True).items():
        found[name] = (
            functools.partial(decl.func, **decl.report_defaults)
            if decl.report_defaults
            else decl.func
        )
    found.update(_REGISTERED)
    return found


def _two_coders(name: str, func: Coefficient) -> bool:
    """A declared two-coder coefficient used under its own name."""
    decl = declare.find(name)
    return (
        decl is not None
        and decl.two_coders
        and name not in _REGISTERED
        and getattr(func, "func", func) is decl.func
    )


def available_coefficients() -> list[str]:
    """Names accepted by ``report(coefficients=[...])``, sorted.

    Examples
    --------
    >>> from pandas_agree.registry import available_coefficients
    >>> available_coefficients()[:3]
    ['bangdiwala_b', 'bennett_s', 'cohen_kappa']
    """
    return sorted(_coefficients())


def register_coefficient(name: str, func: Coefficient, *, overwrite: bool = False) -> None:
    """Make ``func`` available by ``name`` in reports and the CLI.

    Parameters
    ----------
    name : str
        The name (also the report column).
    func : callable
        ``func(data, *, unit=, coder=, value=, on_duplicate=)`` returning something ``float()``
        accepts.
    overwrite : bool, default False
        Replace an existing name (otherwise that raises).

    Raises
    ------
    InvalidParameterError
        ``name`` not a non-empty string, ``func`` not callable, or ``name`` taken.

    Examples
    --------
    >>> import functools
    >>> import pandas_agree as pa
    >>> from pandas_agree.registry import register_coefficient
    >>> register_coefficient(
    ...     "conger_quadratic", functools.partial(pa.conger_kappa, weights="quadratic"),
    ...     overwrite=True)
    """
    if not isinstance(name, str) or not name:
        raise InvalidParameterError(f"`name` must be a non-empty string, got {name!r}")
    if not callable(func):
        raise InvalidParameterError(f"`func` must be callable, got {func!r}")
    if name in _coefficients() and not overwrite:
        raise InvalidParameterError(
            f"`name` {name!r} is already a coefficient; pass overwrite=True to replace it"
        )
    _REGISTERED[name] = func


def get_coefficient(name: str | Coefficient) -> tuple[str, Coefficient]:
    """The ``(name, function)`` of a registered name or of a callable.

    Raises
    ------
    InvalidParameterError
        An unknown name (the message lists the known ones).
    """
    if callable(name):
        label = getattr(name, "__name__", None) or getattr(
            getattr(name, "func", None), "__name__", "coefficient"
        )
        return str(label), name
    known = _coefficients()
    if not isinstance(name, str) or name not in known:
        raise InvalidParameterError(
            f"`coefficients` must name coefficients from {available_coefficients()} or be "
            f"callables, got {name!r}"
        )
    return name, known[name]


def check_coefficients(coefficients: Any) -> list[tuple[str, Coefficient]]:
    """Validate a ``coefficients=`` argument: names or callables, at least one, distinct.

    Raises
    ------
    InvalidParameterError
        Empty, an unknown name, or repeated names.
    """
    if isinstance(coefficients, str) or callable(coefficients):
        coefficients = [coefficients]
    try:
        items = list(coefficients)
    except TypeError:
        raise InvalidParameterError(
            f"`coefficients` must be a name, a callable or a list of them, got {coefficients!r}"
        ) from None
    specs = [get_coefficient(c) for c in items]
    if not specs:
        raise InvalidParameterError(f"`coefficients` must not be empty, got {coefficients!r}")
    names = [n for n, _ in specs]
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"`coefficients` names must be distinct, got {names}")
    return specs


def _accepts(func: Coefficient, name: str, parameter: str) -> bool:
    target = getattr(func, "func", func) if isinstance(func, functools.partial) else func
    try:
        params = inspect.signature(target).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        return False
    return parameter in params or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()
    )


def _value(
    func: Coefficient, name: str, data: pd.DataFrame, kwargs: dict[str, Any]
) -> tuple[float, str | None]:
    """One coefficient on one frame: its value, or NaN and why."""
    call = {k: v for k, v in kwargs.items() if v is not None and _accepts(func, name, k)}
    if _two_coders(name, func):
        rated = data.loc[data[kwargs["value"]].notna(), kwargs["coder"]].nunique()
        if rated != 2:
            return float("nan"), f"{name}: needs two coders, this group has {rated}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            result = func(data, **call)
    except NoPairableUnitsError:
        return float("nan"), f"{name}: no pairable unit"
    val = float(result)
    reason = getattr(result, "reason", None)
    return val, (f"{name}: {reason}" if reason else None)


@declare.declared(register=False)  # the column parameters and their defaults: declare.SHARED
def coefficient_table(
    data: pd.DataFrame,
    coefficients: Sequence[str | Coefficient],
    by: Sequence[Hashable],
    *,
    unit, coder, value, on_duplicate, categories,
    pooled: bool = True,
    pooled_label: str = "pooled",
) -> pd.DataFrame:
    """One column per coefficient, one row per group of ``by`` (and the pooled row).

    Units are nested in their group, as in :func:`pandas_agree.report`: the pooled row treats
    unit ``7`` of two groups as two units.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    coefficients : sequence of names or callables
        The coefficients (see :func:`check_coefficients`), one column each.
    by : sequence of column names
        Grouping columns; empty for the pooled row alone.
    pooled : bool, default True
        Add a final row over all groups (units nested in their group).
    pooled_label : str, default "pooled"
        Label of that row (repeated on each level under several ``by`` columns).

    Returns
    -------
    pandas.DataFrame
        Indexed like the report (group labels, then ``pooled_label``); a column per
        coefficient and ``coefficient_reason`` (why values are NaN, or None).
    """
    specs = check_coefficients(coefficients)
    names = [n for n, _ in specs]
    kwargs = {
        "unit": unit,
        "coder": coder,
        "value": value,
        "on_duplicate": on_duplicate,
        "categories": categories,
    }
    frames: list[tuple[Any, pd.DataFrame]] = []
    by = list(by)
    if by:
        for key, group in data.groupby(by if len(by) > 1 else by[0], sort=True, dropna=False):
            frames.append((key, group))
        if pooled:
            nested = data.assign(
                **{unit: pd.MultiIndex.from_frame(data[[*by, unit]]).to_flat_index()}
            )
            label = pooled_label if len(by) == 1 else (pooled_label,) * len(by)
            frames.append((label, nested))
    else:
        frames.append((pooled_label, data))
    rows, reasons = [], []
    for _, frame in frames:
        row, why = {}, []
        for name, func in specs:
            row[name], reason = _value(func, name, frame, kwargs)
            if reason:
                why.append(reason)
        rows.append(row)
        reasons.append("; ".join(why) or None)
    keys = [k for k, _ in frames]
    if len(by) > 1:
        index = pd.MultiIndex.from_tuples(keys, names=by)
    else:
        index = pd.Index(keys, name=by[0] if by else None)
    out = pd.DataFrame(rows, index=index, columns=names)
    out["coefficient_reason"] = pd.Series(reasons, index=index, dtype=object)
    return out


def add_coefficients(
    report: pd.DataFrame,
    data: pd.DataFrame,
    coefficients: Sequence[str | Coefficient],
    by: Sequence[Hashable],
    *,
    tidy: bool = False,
    pooled: bool = True,
    **kwargs: Any,
) -> pd.DataFrame:
    """The report with one column per coefficient (wide: per row; tidy: per group, repeated).

    ``kwargs`` go to :func:`coefficient_table` (``unit``, ``coder``, ``value``,
    ``on_duplicate``, ``categories``, ``pooled_label``).
    """
    table = coefficient_table(data, coefficients, by, pooled=pooled, **kwargs)
    if not tidy:
        return report.join(table)
    keys = list(by) if by else ["index"]
    if not by:
        table.index.name = "index"
    return report.merge(table.reset_index(), on=keys, how="left")
