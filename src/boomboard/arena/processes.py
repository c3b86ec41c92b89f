"""Process trees: their CPU time and memory, and killing them whole.

An agent may start processes of its own (an external engine, and whatever
that engine starts). The arena holds the whole tree to the agent's budgets
and ends it with the game. psutil (a dependency) reads the process table.
"""

from __future__ import annotations

import os
import signal

import psutil


def descendants(pid: int) -> list[int]:
    """The ids of every live process below ``pid`` (children, theirs, ...)."""
    try:
        return [child.pid for child in psutil.Process(pid).children(recursive=True)]
    except (psutil.Error, OSError):
        return []


def _cpu(pid: int, waited_children: bool) -> float:
    try:
        times = psutil.Process(pid).cpu_times()
    except (psutil.Error, OSError):
        return 0.0
    total = times.user + times.system
    return total + (times.children_user + times.children_system if waited_children else 0.0)


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) of ``pid``, of its children it has waited
    for, and of its live descendants; ``None`` if ``pid`` is gone."""
    if not psutil.pid_exists(pid):
        return None
    total = _cpu(pid, True)
    for child in descendants(pid):
        total += _cpu(child, False)  # its own waited children are in its parent's count once waited
    return total


def rss_bytes(pids: list[int]) -> int:
    """The resident memory of these processes, together."""
    total = 0
    for pid in pids:
        try:
            total += psutil.Process(pid).memory_info().rss
        except (psutil.Error, OSError):
            pass
    return total


def start_time(pid: int) -> float | None:
    """When ``pid`` started (seconds since the epoch): with the pid, it names
    one process, not a later one that was given the same pid."""
    try:
        return psutil.Process(pid).create_time()
    except (psutil.Error, OSError):
        return None


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_tree(pid: int, include_self: bool = True) -> None:
    """SIGKILL ``pid``'s descendants (found first, so none is orphaned
    unseen) and, with ``include_self``, ``pid``."""
    below = descendants(pid)
    if include_self:
        _kill(pid)
    for child in below:
        _kill(child)


def kill_group(pgid: int) -> None:
    """SIGKILL every process of the process group ``pgid``, but never our own group."""
    try:
        if pgid <= 1 or pgid == os.getpgrp():
            return
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass
