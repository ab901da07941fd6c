"""``DataArray.agree`` and ``Dataset.agree``: agreement on labelled arrays.

A DataArray with dimensions ``(coder, unit)`` *is* a reliability matrix: cell ``[c, u]``
holds the value coder ``c`` gave unit ``u``; NaN or None is missing; set values are
frozensets in an object-dtype array. Every further dimension (``docset``, ``round``, ...)
indexes groups of units: ``da.agree.report()`` gives one row per group, and the other
methods treat each combination of the further dimensions and ``unit`` as its own unit.

The accessors only convert: the array becomes long data (one row per cell, :func:`to_long`)
and the function of the same name in :mod:`pandas_agree` computes, so the numbers and result
objects are those of the DataFrame path. Importing this module needs xarray; it is
imported (registering the accessors) as soon as both xarray and pandas_agree are imported,
in either order.

Examples
--------
Krippendorff (2011), section C, as a coders x units array (NaN where a coder left a unit
uncoded):

>>> import numpy as np
>>> import xarray as xr
>>> import pandas_agree as pa
>>> import pandas_agree.frontends.xarray
>>> m = pa.datasets.krippendorff_2011().agree.matrix()
>>> da = xr.DataArray(m.to_numpy(), coords={"coder": m.index, "unit": m.columns})
>>> da.agree.alpha("nominal")
AlphaResult(alpha=0.7434, distance='nominal', n_units=11, n_coders=4, n_pairable=40)
>>> round(da.agree.alpha("interval").alpha, 3)
0.849
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from ..declare import Declaration
from ..errors import InvalidParameterError, ValueTypeError
from .accessor import DeclaredAccessor, DeclaredMethods
from .forward import forward

__all__ = [
    "AgreeDataArrayAccessor",
    "AgreeDatasetAccessor",
    "array_signature",
    "forward_array",
    "to_long",
]

_COLUMN_KWARGS = ("unit", "coder", "value")


def _pick(obj: xr.DataArray | xr.Dataset, var: Hashable | None) -> xr.DataArray:
    """The DataArray to work on: ``obj`` itself, or the variable ``var`` of a Dataset."""
    if isinstance(obj, xr.DataArray):
        if var is not None:
            raise InvalidParameterError(
                f"`var` only applies to a Dataset (it names a data variable), got var={var!r} "
                "for a DataArray"
            )
        return obj
    if not isinstance(obj, xr.Dataset):
        raise ValueTypeError(f"expected an xarray DataArray or Dataset, got {type(obj).__name__}")
    names = list(obj.data_vars)
    if var is None:
        if len(names) == 1:
            return obj[names[0]]
        raise InvalidParameterError(
            f"`var` must name the data variable holding the ratings; the Dataset has {names} "
            "(pass var=<name>)"
        )
    if var not in obj.data_vars:
        raise InvalidParameterError(
            f"`var` {var!r} is not a data variable of the Dataset; its data variables are {names}"
        )
    return obj[var]


def _check_dims(da: xr.DataArray, coder_dim: Hashable, unit_dim: Hashable) -> list[Hashable]:
    """Validate the coder and unit dimensions; return the other (group) dimensions."""
    dims = list(da.dims)
    for param, dim in (("coder_dim", coder_dim), ("unit_dim", unit_dim)):
        if dim not in da.dims:
            raise InvalidParameterError(
                f"`{param}` {dim!r} is not a dimension of the array; its dimensions are {dims} "
                f"(pass {param}=<dimension name>)"
            )
    if coder_dim == unit_dim:
        raise InvalidParameterError(
            f"`coder_dim` and `unit_dim` must differ, both are {coder_dim!r}"
        )
    return [d for d in dims if d not in (coder_dim, unit_dim)]


def _coordinate(arr: xr.DataArray, name: Hashable, order: list[Hashable]) -> np.ndarray:
    """Coordinate ``name`` broadcast to the cells of ``arr`` (dims in ``order``), flattened."""
    coord = arr[name]
    return coord.broadcast_like(arr).transpose(*order).to_numpy().ravel()


def _long(
    da: xr.DataArray,
    coder_dim: Hashable,
    unit_dim: Hashable,
    value: Hashable = "value",
    extra: Sequence[Hashable] = (),
    unit_key: bool = False,
    dropna: bool = False,
) -> pd.DataFrame:
    """One row per cell: group dims, ``extra`` coordinates, unit, coder, value.

    With ``unit_key`` and group dimensions, the unit column holds tuples (group labels...,
    unit) so that units of different groups stay different units.
    """
    groups = _check_dims(da, coder_dim, unit_dim)
    order = [*groups, unit_dim, coder_dim]
    reserved = {*order}
    if value in reserved:
        raise InvalidParameterError(
            f"`value` column name {value!r} is also a dimension name; pass value=<other name>"
        )
    arr = da.transpose(*order)
    if unit_key:
        _check_labels(arr, groups, extra, unit_dim, coder_dim)
    columns: dict[Hashable, Any] = {}
    for name in [*groups, *[e for e in extra if e not in groups]]:
        columns[name] = _coordinate(arr, name, order)
    units = _coordinate(arr, unit_dim, order)
    if unit_key and groups:
        units = pd.MultiIndex.from_arrays([columns[g] for g in groups] + [units]).to_flat_index()
        units = np.asarray(units, dtype=object)
    columns[unit_dim] = units
    columns[coder_dim] = _coordinate(arr, coder_dim, order)
    values = arr.to_numpy().ravel()
    columns[value] = values
    frame = pd.DataFrame(columns)
    if dropna:
        frame = frame[pd.notna(values)].reset_index(drop=True)
    return frame


def _check_labels(
    arr: xr.DataArray,
    groups: Sequence[Hashable],
    extra: Sequence[Hashable],
    unit_dim: Hashable,
    coder_dim: Hashable,
) -> None:
    """Every coordinate that labels groups, units or coders is free of missing labels.

    Units are identified within their group, so a NaN group label would make units of
    different groups one unit (or none); every method refuses it, as ``report`` refuses a
    missing ``by`` label.
    """
    roles = [(g, "group") for g in [*groups, *[e for e in extra if e not in groups]]]
    roles += [(unit_dim, "unit"), (coder_dim, "coder")]
    for name, role in roles:
        if name not in arr.coords:
            continue  # a dimension without a coordinate is labelled 0, 1, 2, ...
        bad = int(pd.isna(np.asarray(arr[name].to_numpy(), dtype=object)).sum())
        if bad:
            raise InvalidParameterError(
                f"coordinate {name!r} has {bad} missing label(s) (NaN); every {role} needs a "
                f"label: fill them (assign_coords) or select the labelled part (.sel / .isel)"
            )


def to_long(
    obj: xr.DataArray | xr.Dataset,
    *,
    coder_dim: Hashable = "coder",
    unit_dim: Hashable = "unit",
    var: Hashable | None = None,
    value: Hashable = "value",
    dropna: bool = True,
) -> pd.DataFrame:
    """Long data (one row per rating) from a coders x units array.

    Parameters
    ----------
    obj : xarray.DataArray or xarray.Dataset
        Ratings with dimensions ``coder_dim`` and ``unit_dim`` (any order) and possibly
        more. Not modified.
    coder_dim, unit_dim : hashable
        The dimensions indexing coders and units; default ``"coder"`` and ``"unit"``.
    var : hashable, optional
        For a Dataset: the data variable holding the ratings (optional when there is one).
    value : hashable, default "value"
        Name of the value column.
    dropna : bool, default True
        Leave out missing cells (NaN, None), as long data usually does.

    Returns
    -------
    pandas.DataFrame
        Columns: the other dimensions (one column each), ``unit_dim``, ``coder_dim`` and
        ``value``. A dimension without a coordinate is labelled 0, 1, 2, ...

    Examples
    --------
    >>> import xarray as xr
    >>> from pandas_agree.frontends.xarray import to_long
    >>> da = xr.DataArray([[1, 2], [1, None]], dims=("coder", "unit"),
    ...                   coords={"coder": ["A", "B"], "unit": [10, 20]})
    >>> to_long(da)
       unit coder value
    0    10     A     1
    1    10     B     1
    2    20     A     2
    """
    return _long(_pick(obj, var), coder_dim, unit_dim, value=value, dropna=dropna)


_KW = inspect.Parameter.KEYWORD_ONLY
_DIM_PARAMETERS = [
    inspect.Parameter("coder_dim", _KW, default="coder", annotation="Hashable"),
    inspect.Parameter("unit_dim", _KW, default="unit", annotation="Hashable"),
    inspect.Parameter("var", _KW, default=None, annotation="Hashable | None"),
]

_ARRAY_NOTE = """On ``DataArray.agree`` / ``Dataset.agree``: the array is the reliability data, so
    ``coder_dim=`` and ``unit_dim=`` (default ``"coder"``, ``"unit"``) name its dimensions and
    ``var=`` the Dataset's data variable; ``unit=``, ``coder=`` and ``value=`` do not apply
    (they raise). With further dimensions, each (group labels, unit) is a unit."""


def array_signature(func: Callable[..., Any]) -> inspect.Signature:
    """``func``'s signature for an array accessor method.

    The first parameter (the frame) becomes ``self``; the column parameters ``unit``,
    ``coder`` and ``value`` give way to the keyword-only ``coder_dim``, ``unit_dim`` and
    ``var``.

    Examples
    --------
    >>> import pandas_agree as pa
    >>> list(array_signature(pa.alpha).parameters)[:5]
    ['self', 'distance', 'coder_dim', 'unit_dim', 'var']
    """
    params = list(inspect.signature(func).parameters.values())[1:]
    kept = [p for p in params if p.name not in _COLUMN_KWARGS]
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    before = [p for p in kept if p.kind in positional]
    after = [p for p in kept if p not in before]
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    keyword = [p for p in after if p.kind is p.KEYWORD_ONLY]
    rest = [p for p in after if p.kind is p.VAR_KEYWORD]
    return inspect.Signature([self_param, *before, *_DIM_PARAMETERS, *keyword, *rest])


def forward_array(
    func: Callable[..., Any],
    groups: Callable[[xr.DataArray, dict[str, Any], Hashable, Hashable], list[Hashable]]
    | None = None,
) -> Callable[..., Any]:
    """An accessor method calling ``func`` on the array as long data.

    The method has :func:`array_signature` and ``func``'s docstring with a note on the
    dimensions. ``groups`` (for :func:`pandas_agree.report`) may rewrite the arguments and
    returns the coordinates to carry as columns.
    """
    sig = array_signature(func)

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        for key in _COLUMN_KWARGS:
            if key in kwargs:
                raise InvalidParameterError(
                    f"`{key}=` names a DataFrame column and does not apply to arrays; name the "
                    f"dimensions with coder_dim= and unit_dim= (got {key}={kwargs[key]!r})"
                )
        arguments = dict(sig.bind(self, *args, **kwargs).arguments)
        arguments.pop("self")
        coder_dim = arguments.pop("coder_dim", "coder")
        unit_dim = arguments.pop("unit_dim", "unit")
        da = _pick(self._obj, arguments.pop("var", None))
        extra = groups(da, arguments, coder_dim, unit_dim) if groups is not None else []
        frame = _long(da, coder_dim, unit_dim, extra=extra, unit_key=True)
        return func(frame, unit=unit_dim, coder=coder_dim, value="value", **arguments)

    method.__name__ = func.__name__
    method.__qualname__ = func.__qualname__
    doc = func.__doc__ or ""
    head, _, body = doc.partition("\n")
    method.__doc__ = f"{head}\n\n    {_ARRAY_NOTE}\n{body}"
    method.__signature__ = sig  # type: ignore[attr-defined]
    return method


def _report_groups(
    da: xr.DataArray, arguments: dict[str, Any], coder_dim: Hashable, unit_dim: Hashable
) -> list[Hashable]:
    """``by`` for an array: group coordinates, by default every dimension but coder and unit.

    ``by`` names dimensions other than ``coder_dim`` and ``unit_dim``, or coordinates along
    them (for example a ``docset`` coordinate on the unit dimension); an array with
    dimensions ``(docset, coder, unit)`` reports per docset; ``by=[]`` gives the pooled row.
    """
    groups = _check_dims(da, coder_dim, unit_dim)
    by = arguments.get("by")
    if by is None:
        by_list: list[Hashable] = list(groups)
    elif isinstance(by, str) or not isinstance(by, Sequence):
        by_list = [by]
    else:
        by_list = list(by)
    for name in by_list:
        if name in (coder_dim, unit_dim) or (name not in da.coords and name not in da.dims):
            raise InvalidParameterError(
                f"`by` {name!r} must be a dimension or coordinate other than {coder_dim!r} "
                f"and {unit_dim!r}; the array has dimensions {list(da.dims)} and "
                f"coordinates {list(da.coords)}"
            )
        if coder_dim in da[name].dims:
            raise InvalidParameterError(
                f"`by` {name!r} varies along the coder dimension {coder_dim!r}; groups "
                "must be groups of units"
            )
    arguments["by"] = by_list or None
    return by_list


class _ArrayMethods(DeclaredMethods):
    """Methods of the array accessors: every function declared for the ``"array"`` frontend."""

    def _method(cls, found: Declaration) -> Any:
        return forward_array(found.func, _report_groups if found.name == "report" else None)


class _AgreeMethods(DeclaredAccessor, metaclass=_ArrayMethods):
    """Methods shared by the DataArray and Dataset accessors (each forwards to a function)."""

    _obj: xr.DataArray | xr.Dataset
    _frontend = "array"

    to_long = forward(to_long)


@xr.register_dataarray_accessor("agree")
class AgreeDataArrayAccessor(_AgreeMethods):
    """Agreement statistics on a coders x units array: ``da.agree.alpha("masi")``.

    Every method takes ``coder_dim=`` and ``unit_dim=`` (defaults ``"coder"`` and
    ``"unit"``) and forwards to the function of the same name in :mod:`pandas_agree`. The
    array is never modified.

    Examples
    --------
    Passonneau (2006), Figure 3: two coders give each of three units a set.

    >>> import numpy as np
    >>> import xarray as xr
    >>> import pandas_agree.frontends.xarray
    >>> f = frozenset
    >>> cells = np.empty((2, 3), dtype=object)
    >>> cells[0] = [f("xy"), f("xy"), f("z")]
    >>> cells[1] = [f("x"), f("yz"), f("yz")]
    >>> da = xr.DataArray(cells, dims=("coder", "unit"),
    ...                   coords={"coder": ["A3", "A4"], "unit": ["x", "y", "z"]})
    >>> round(da.agree.alpha("masi").alpha, 3)
    0.01
    """


@xr.register_dataset_accessor("agree")
class AgreeDatasetAccessor(_AgreeMethods):
    """Agreement statistics on a Dataset: ``ds.agree.alpha("masi", var="label")``.

    As ``DataArray.agree``, with ``var=`` naming the data variable that holds the ratings
    (optional when the Dataset has a single data variable).

    Examples
    --------
    >>> import xarray as xr
    >>> import pandas_agree.frontends.xarray
    >>> ds = xr.Dataset({"label": (("coder", "unit"), [[1, 2, 2], [1, 2, 1]]),
    ...                  "time": (("coder", "unit"), [[3.0, 4.0, 5.0], [2.0, 2.5, 9.0]])})
    >>> round(ds.agree.alpha(var="label").alpha, 3)
    0.444
    """
