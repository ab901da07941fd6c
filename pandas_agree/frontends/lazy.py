"""Register accessors on optional libraries (xarray, dask) when those are imported, not before.

``import pandas_agree`` must not import xarray or ``dask.dataframe`` (together about a second),
yet ``DataArray.agree`` and the dask ``DataFrame.agree`` must exist as soon as the user has
imported those libraries, in either order. xarray has no entry point for accessors
(pydata/xarray#7348 is open), and dask's accessors are registered by a decorator, so the
registration runs from a *post-import hook* (PEP 369's idea, as ``wrapt`` implements it):

* when the library is already in :data:`sys.modules`, the accessor module is imported at once;
* otherwise one finder on :data:`sys.meta_path` waits for the library's own import, lets the
  normal finders find it, and wraps its loader so that, right after the library's module has
  finished executing, the accessor module is imported (which registers the accessor). The
  finder removes itself once every library it waits for has been imported.

The wrapped loader delegates every other attribute to the real loader, so resources and
``importlib.reload`` behave as before. Should registering fail, the library still imports and
a ``RuntimeWarning`` says why.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import threading
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Any

__all__ = ["PostImportFinder", "register_on_import"]


class _HookedLoader(importlib.abc.Loader):
    """The library's loader, with the accessor module imported after ``exec_module``."""

    def __init__(self, loader: Any, then: str, done: Any = None) -> None:
        self._loader = loader
        self._then = then
        self._done = done  # called once the library has really been executed

    def create_module(self, spec: Any) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        # The real loader, not this wrapper, is what the module keeps.
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        if self._done is not None:
            self._done()
        try:
            importlib.import_module(self._then)
        except Exception as exc:  # the library must import even if registering fails
            warnings.warn(
                f"pandas_agree could not register its accessors for {module.__name__} "
                f"({self._then}): {type(exc).__name__}: {exc}",
                RuntimeWarning,
                stacklevel=2,
            )

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class PostImportFinder(importlib.abc.MetaPathFinder):
    """A :data:`sys.meta_path` finder that imports module ``then`` after module ``name``."""

    def __init__(self) -> None:
        self._hooks: dict[str, str] = {}
        self._busy: set[str] = set()
        self._lock = threading.Lock()

    def add(self, name: str, then: str) -> None:
        self._hooks[name] = then

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> Any:
        then = self._hooks.get(fullname)
        if then is None or fullname in self._busy:
            return None
        with self._lock:
            self._busy.add(fullname)
        try:
            # Ask the other finders (ourselves excluded through _busy).
            spec = importlib.util.find_spec(fullname)
        finally:
            self._busy.discard(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        # The hook is spent only when the library is executed, not when it is merely looked
        # up: importlib.util.find_spec("xarray") (a check for an optional dependency) must
        # not use it up without an import.
        spec.loader = _HookedLoader(spec.loader, then, lambda: self._spent(fullname))
        return spec

    def _spent(self, fullname: str) -> None:
        with self._lock:
            self._hooks.pop(fullname, None)
            if not self._hooks and self in sys.meta_path:
                sys.meta_path.remove(self)


_FINDER = PostImportFinder()


def register_on_import(name: str, then: str) -> None:
    """Import module ``then`` once module ``name`` is imported (now, when it already is).

    Parameters
    ----------
    name : str
        The optional library's module, e.g. ``"xarray"`` or ``"dask.dataframe"``.
    then : str
        The module whose import registers the accessors, e.g. ``"pandas_agree.frontends.xarray"``.

    Examples
    --------
    >>> import sys
    >>> register_on_import("json", "pandas_agree._core")  # json is imported: at once
    >>> "pandas_agree._core" in sys.modules
    True
    """
    module = sys.modules.get(name)
    if module is not None and getattr(module, "__spec__", None) is not None:
        initializing = getattr(module.__spec__, "_initializing", False)
        if not initializing:
            importlib.import_module(then)
            return
    _FINDER.add(name, then)
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
