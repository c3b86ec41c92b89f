"""Ctrl-C that lands where Python cannot raise it still stops the command.

Python raises a Ctrl-C (``KeyboardInterrupt``) in whatever Python code the
main thread runs when the signal arrives. Where C code called that Python
code and cannot take an exception back, Python prints "Exception ignored in
..." with a traceback and goes on as if Ctrl-C had never come. numba's
compiler runs into two such places many times a compile: llvmlite's
``__del__`` methods, and the callback through which LLVM hands it each
compiled object. A Ctrl-C lost in a ``__del__`` let a solve run to its end
(seen once in CI); one lost in the callback left numba without the object,
and the command ended in a ``RuntimeError`` traceback (exit 1), seen by
sending Ctrl-C at random moments of a first compile.

The command's Ctrl-C handler (:func:`stop_on_ctrl_c_where_it_can_be_raised`)
raises ``KeyboardInterrupt`` as Python's own does, except while a
``__del__`` or llvmlite's code runs: then it asks for the signal again a
moment later, from a short thread, and by then the main thread is back in
code that can raise it. Should a Ctrl-C still be lost elsewhere (another
library's finalizer), the hook on lost exceptions sends it again the same way.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType

AGAIN_AFTER_SECONDS = 0.02  # longer than a finalizer's or a compiled object's hand-over: microseconds


def stop_on_ctrl_c_where_it_can_be_raised() -> None:
    """Install the handler and the hook (for the whole process: the command's, not a library's)."""
    signal.signal(signal.SIGINT, _on_ctrl_c)
    sys.unraisablehook = _send_a_lost_ctrl_c_again


def _on_ctrl_c(signum: int, frame: FrameType | None) -> None:
    if _where_an_exception_is_lost(frame):
        _send_ctrl_c_again()
        return
    raise KeyboardInterrupt


def _where_an_exception_is_lost(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__" or frame.f_globals.get("__name__", "").startswith("llvmlite."):
            return True
        frame = frame.f_back
    return False


def _send_a_lost_ctrl_c_again(unraisable) -> None:
    if unraisable.exc_type is KeyboardInterrupt:
        _send_ctrl_c_again()
    else:
        sys.__unraisablehook__(unraisable)


def _send_ctrl_c_again() -> None:
    again = threading.Timer(AGAIN_AFTER_SECONDS, os.kill, args=(os.getpid(), signal.SIGINT))
    again.daemon = True  # a command that ends meanwhile does not wait for it
    again.start()
