"""Compiled searches that Ctrl-C stops at once.

Python runs its signal handlers in the main thread only, and never while
compiled code runs there: a search compiled into one long call would hear
Ctrl-C only when it returns, at the end of its budget. So from the main
thread :func:`run_interruptibly` runs the search (compiled without the
interpreter's lock, ``nogil=True``) on a helper thread while the main thread
waits; on ``KeyboardInterrupt`` it sets the search's node limit to zero,
which the search reads at every node, waits for it to stop and lets the
interrupt go on. Elsewhere the search runs in the calling thread, as before
(its process's main thread is the one that hears Ctrl-C).

:func:`stop_searches` (from any thread) cuts the main thread's searches
short instead, as their budget would: the one running and every one started
until :func:`allow_searches` stop at once and return what they have
(``boomboard engine`` whose input ended while it thinks answers at once).
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable

import numpy as np

_stopping = threading.Event()
_POLL_SECONDS = 0.05  # how often a waiting main thread looks for stop_searches()


def stop_searches() -> None:
    """Cut short the main thread's search now and every one it starts until
    :func:`allow_searches`: each stops as at the end of its budget."""
    _stopping.set()


def searches_stopped() -> bool:
    """Whether :func:`stop_searches` holds: a search written in Python stops at its next check."""
    return _stopping.is_set()


def allow_searches() -> None:
    """Searches run to their budgets again (after :func:`stop_searches`)."""
    _stopping.clear()


def run_interruptibly(search: Callable, stats: np.ndarray, node_limit: int, args: tuple):
    """``search(*args)``, whose node limit is ``stats[node_limit]``, stopped
    within a node of Ctrl-C (``KeyboardInterrupt``) or of :func:`stop_searches`
    (it returns, as at its budget) when called from the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return search(*args)
    outcome: list = []
    context = contextvars.copy_context()  # the caller's settings (an interpreted() block) hold for the helper

    def run() -> None:
        try:
            outcome.append(context.run(search, *args))
        except BaseException as problem:  # handed to the waiting thread, which raises it
            outcome.append(problem)

    helper = threading.Thread(target=run, name="interruptible search", daemon=True)
    helper.start()
    try:
        while helper.is_alive():
            if _stopping.is_set():
                stats[node_limit] = 0  # stops as at its budget, and returns
            helper.join(_POLL_SECONDS)
    except KeyboardInterrupt:
        stats[node_limit] = 0
        helper.join()
        raise
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]
