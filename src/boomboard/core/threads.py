"""A guard for objects that one thread at a time may use.

A game, its states' rules and the registry may be shared by threads
(docs/reference/api.md, "Threads"). Objects that keep working tables between calls,
such as a search with its transposition table or an agent with its random
generator and clock, may not: two threads inside one at once would corrupt
its tables silently. Their methods that use those tables are decorated with
:func:`one_thread_at_a_time`, which turns such a use into a clear
:class:`ConcurrentUseError` instead. The thread inside may call in again
(a subclass's method calling its parent's).
"""

from __future__ import annotations

import functools
import threading
from typing import TypeVar
from collections.abc import Callable

from .errors import BoomboardError

Method = TypeVar("Method", bound=Callable)

_GUARD = "_one_thread_guard"


class ConcurrentUseError(BoomboardError, RuntimeError):
    """An object meant for one thread at a time was used by a second thread
    while the first was still inside it."""


class _Guard:
    """The lock an object's guarded methods share; a copy or an unpickled
    object gets a fresh one (a lock itself cannot be copied or pickled)."""

    __slots__ = ("lock",)

    def __init__(self):
        self.lock = threading.RLock()

    def __reduce__(self):
        return (_Guard, ())


def one_thread_at_a_time(method: Method) -> Method:
    """Decorate a method of an object one thread at a time may use: a call
    while another thread is inside any such method of the same object raises
    :class:`ConcurrentUseError` (it never waits: the callers share an object
    they should not)."""

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        # setdefault is one step under the interpreter lock: two threads
        # arriving first at once still get the same lock
        lock = (vars(self).get(_GUARD) or vars(self).setdefault(_GUARD, _Guard())).lock
        if not lock.acquire(blocking=False):
            raise ConcurrentUseError(f"this {type(self).__name__} is in use by another thread; it keeps its own "
                                     f"working state, so give each thread its own {type(self).__name__}")
        try:
            return method(self, *args, **kwargs)
        finally:
            lock.release()

    return guarded  # type: ignore[return-value]
