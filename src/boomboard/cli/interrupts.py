"""Ctrl-C that lands in a finalizer still stops the command.

Python raises a Ctrl-C (``KeyboardInterrupt``) in whatever Python code the
main thread runs when the signal arrives. If that is a ``__del__`` method,
Python cannot raise it further: it prints "Exception ignored in ..." with a
traceback and goes on, so the command runs to its end as if Ctrl-C had never
come. Compiling with numba frees many llvmlite objects through ``__del__``,
so a Ctrl-C during a solve's first call to a kernel was lost this way (seen
once in CI).

The command's Ctrl-C handler (:func:`stop_on_ctrl_c_outside_finalizers`)
raises ``KeyboardInterrupt`` as Python's own does, except while a ``__del__``
runs: then it asks for the signal again a moment later, from a short thread,
and by then the finalizer has returned and the command's own code gets it.
"""

from __future__ import annotations

import os
import signal
import threading
from types import FrameType

AGAIN_AFTER_SECONDS = 0.02  # a finalizer's run: llvmlite's take microseconds


def stop_on_ctrl_c_outside_finalizers() -> None:
    """Install the handler (for the whole process: the command's, not a library's)."""
    signal.signal(signal.SIGINT, _on_ctrl_c)


def _on_ctrl_c(signum: int, frame: FrameType | None) -> None:
    if _inside_a_finalizer(frame):
        threading.Timer(AGAIN_AFTER_SECONDS, os.kill, args=(os.getpid(), signum)).start()
        return
    raise KeyboardInterrupt


def _inside_a_finalizer(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False
