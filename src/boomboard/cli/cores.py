"""How many cores a command's workers may share, and the warning when asked for more."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def oversubscribed_warning(workers: int, what: str) -> str | None:
    """A line for ``--workers`` above the cores there are (they share them: each
    of ``what`` runs slower, a timed one searches less), else ``None``."""
    cores = usable_cores()
    if workers <= cores:
        return None
    return (f"warning: --workers {workers} is more than the {cores} cores this machine gives: {what} share "
            f"them, each slower (a timed move searches less); --workers {cores} runs as many at once")
