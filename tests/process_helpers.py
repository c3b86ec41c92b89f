"""Starting a command as a terminal would, for the tests that send it Ctrl-C."""

from __future__ import annotations

import signal


def as_from_a_terminal() -> None:
    """``preexec_fn`` of a command the test will interrupt: a command started
    in the background (``nohup``, ``&`` in a script, as a CI runner may start
    the tests) inherits an ignored SIGINT, and Python keeps it ignored; a
    terminal's Ctrl-C reaches a command whose SIGINT is the default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
