"""``DataFrame.agree``: an adapter that forwards to the declared functions. No statistics here.

Every method is :func:`pandas_agree.frontends.forward.forward` of a function declared with
:func:`pandas_agree.declare.declared` for the ``"frame"`` frontend: it has that function's
signature (without the frame) and its full docstring, so ``help()``, IDEs and tab completion
show every option. Methods are made on first use, so ``import pandas_agree`` does not import
every topic module, and a newly declared function is a method without an edit here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from .. import declare
from .forward import forward

__all__ = ["AgreeAccessor", "DeclaredAccessor", "DeclaredMethods", "accessor_methods"]


class DeclaredMethods(type):
    """Metaclass of an accessor whose methods are the functions declared for its frontend.

    The class names its frontend (``_frontend``) and how to make a method from a function
    (``_make``). A missing attribute that names a declared function becomes that method, set
    on the class so that later look-ups find it directly.
    """

    _frontend: str
    _make: Callable[..., Any]

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        found = declare.find(name)
        if found is None or cls._frontend not in found.frontends:
            raise AttributeError(f"{cls.__name__!r} has no method {name!r}")
        method = cls._method(found)
        setattr(cls, name, method)
        return method

    def _method(cls, found: declare.Declaration) -> Any:
        return forward(found.func)

    def __dir__(cls) -> list[str]:
        return sorted({*super().__dir__(), *declare.declarations(cls._frontend)})


class DeclaredAccessor(metaclass=DeclaredMethods):
    """The body every accessor shares: it wraps one object, and its methods are made on first use.

    A subclass names its ``_frontend`` (and may take a subclass of :class:`DeclaredMethods`
    as its metaclass); an attribute missing on an instance is looked up on the class, where
    the metaclass makes the method, and bound to the instance.
    """

    _frontend: str

    def __init__(self, obj: Any) -> None:
        self._obj = obj

    def __getattr__(self, name: str) -> Any:
        return getattr(type(self), name).__get__(self, type(self))

    def __dir__(self) -> list[str]:
        return dir(type(self))


class AgreeAccessor(DeclaredAccessor):
    """Agreement statistics on long data: ``df.agree.alpha(distance="masi")``.

    Every method takes ``unit=``, ``coder=``, ``value=`` column names (defaults ``"unit"``,
    ``"coder"``, ``"value"``) where the function does, and forwards to the function of the
    same name in :mod:`pandas_agree`; the frame is never modified.

    Examples
    --------
    Krippendorff (2011), section C:

    >>> import pandas_agree as pa
    >>> df = pa.datasets.krippendorff_2011()
    >>> round(df.agree.alpha("interval").alpha, 3)
    0.849
    >>> import inspect
    >>> list(inspect.signature(df.agree.alpha).parameters)[:4]
    ['distance', 'unit', 'coder', 'value']
    """

    _frontend = "frame"


pd.api.extensions.register_dataframe_accessor("agree")(AgreeAccessor)


def accessor_methods(frontend: str = "frame") -> dict[str, str]:
    """Every method of an accessor and the function it calls, as ``"module.function"``.

    Examples
    --------
    >>> accessor_methods()["alpha"]
    'pandas_agree.krippendorff.alpha.alpha'
    """
    return {
        name: f"{d.module}.{d.name}" for name, d in declare.declarations(frontend).items()
    }
