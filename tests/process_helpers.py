"""Starting a command as a terminal would, for the tests that send it
Ctrl-C; killing one at the moment a test needs, for the tests of resuming."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def as_from_a_terminal() -> Iterator[None]:
    """Around the start of a command the test will interrupt: a command
    started in the background (``nohup``, ``&`` in a script, as a CI runner
    may start the tests) inherits an ignored SIGINT, and Python keeps it
    ignored; a terminal's Ctrl-C reaches a command whose SIGINT is the
    default. A signal ignored stays ignored across ``exec`` and a handled
    one returns to the default, so SIGINT is handled while the command
    starts. Not a ``preexec_fn``: with one, ``subprocess`` runs the fork
    hooks of all the test process imported, and JAX's warns that a fork is
    unsafe, where the child only execs."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def kill_when(process: subprocess.Popen, ready: Callable[[], bool], what: str, deadline_seconds: float = 300) -> None:
    """Kill ``process`` and its whole group (started with
    ``start_new_session``: a sweep and its pool's workers) with SIGKILL once
    ``ready()`` holds, polled; fails if the process ends first (with its
    stderr, if piped) or ``what`` is not reached within the deadline."""
    deadline = time.monotonic() + deadline_seconds
    while not ready():
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else "it ended"
        assert time.monotonic() < deadline, f"{what} within the deadline"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
