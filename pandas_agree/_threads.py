"""One extra thread for work that releases the GIL (pyarrow kernels, numpy loops).

pandas_agree computes on one thread except in two places, both on large columns and only
with two or more usable CPUs: the unit and coder columns are coded while the value column
is (:func:`pandas_agree.data.prepare.prepare`), and the labels of an Arrow list column that the C
accelerator does not number (labels over 7 bytes, or without it) are dictionary-encoded in
two halves at once (:func:`pandas_agree.data.sets.from_arrow`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["started", "usable_cpus"]

T = TypeVar("T")


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform (macOS, Windows)
        return os.cpu_count() or 1


def started(func: Callable[[], T], parallel: bool) -> Callable[[], T]:
    """Start ``func`` and return a callable that gives its result (or raises its error).

    With ``parallel`` and two or more usable CPUs, ``func`` runs on a worker thread while
    the caller goes on, and the callable raises its error; otherwise (or at interpreter
    shutdown, when no thread may start) it runs here and now, and its error is raised at
    once. The workers (two at most) are kept for the next call: starting a thread waits
    for the GIL, which another busy thread may hold for milliseconds.

    Examples
    --------
    >>> result = started(lambda: 6 * 7, parallel=True)
    >>> result()
    42
    """
    if parallel and usable_cpus() >= 2:
        try:
            return _pool().submit(func).result
        except RuntimeError:  # no new thread at interpreter shutdown (an atexit handler)
            pass
    value: Any = func()
    return lambda: value


_POOL: tuple[int, ThreadPoolExecutor] | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """The workers of this process (a forked child makes its own: the parent's threads
    are not in it)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL[0] != os.getpid():
            workers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pandas_agree")
            _POOL = (os.getpid(), workers)
        return _POOL[1]
