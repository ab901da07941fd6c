"""Accessor methods made from plain functions: one signature and one docstring, never copied.

An accessor (``DataFrame.agree``, ``DataArray.agree``, the dask one) is an adapter: each of its
methods calls a plain function with the wrapped object as first argument. :func:`forward` builds
such a method from the function itself, so ``help(df.agree.alpha)``, IDEs and tab completion show
the function's explicit parameters and its full numpydoc docstring, and a parameter added to the
function appears on the accessor without an edit there.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["forward", "forwarded_parameters"]


def forward(func: Callable[..., Any], *, to: str = "_obj") -> Callable[..., Any]:
    """An accessor method that calls ``func(self.<to>, *args, **kwargs)``.

    The method's signature is ``func``'s without its first parameter (the frame) and with
    ``self`` in front; its docstring is ``func``'s.

    Parameters
    ----------
    func : callable
        A public function whose first parameter takes the object the accessor wraps.
    to : str, default "_obj"
        Name of the accessor attribute holding that object.

    Returns
    -------
    callable
        A function to assign in the accessor's class body.

    Examples
    --------
    >>> def total(data, scale=1):
    ...     "Sum of the data, scaled."
    ...     return sum(data) * scale
    >>> class Acc:
    ...     def __init__(self, obj):
    ...         self._obj = obj
    ...     total = forward(total)
    >>> Acc([1, 2, 3]).total(scale=2)
    12
    >>> import inspect
    >>> str(inspect.signature(Acc.total))
    '(self, scale=1)'
    """
    sig = inspect.signature(func)
    params = list(sig.parameters.values())[1:]
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return func(getattr(self, to), *args, **kwargs)

    method.__name__ = func.__name__
    method.__qualname__ = func.__qualname__
    method.__doc__ = func.__doc__
    method.__signature__ = sig.replace(parameters=[self_param, *params])  # type: ignore[attr-defined]
    first = next(iter(sig.parameters))
    annotations = getattr(func, "__annotations__", {})
    method.__annotations__ = {k: v for k, v in annotations.items() if k != first}
    return method


def forwarded_parameters(method: Callable[..., Any]) -> list[str]:
    """Names of a method's parameters after ``self`` (for tests that compare signatures).

    Examples
    --------
    >>> def f(data, a, *, b=1):
    ...     pass
    >>> forwarded_parameters(forward(f))
    ['a', 'b']
    """
    return list(inspect.signature(method).parameters)[1:]
