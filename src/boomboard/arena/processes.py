"""Process trees: their CPU time and memory, and killing them whole (Linux).

An agent may start processes of its own (an external engine, and whatever
that engine starts). The arena holds the whole tree to the agent's budgets
and ends it with the game. psutil is used where it is installed; otherwise
``/proc`` is read directly, and elsewhere the functions see only the process
itself.
"""

from __future__ import annotations

import os
import signal

try:
    import psutil
except ImportError:  # pragma: no cover - psutil is a dependency; /proc is the fallback
    psutil = None

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def descendants(pid: int) -> list[int]:
    """The ids of every live process below ``pid`` (children, theirs, ...)."""
    if psutil is not None:
        try:
            return [child.pid for child in psutil.Process(pid).children(recursive=True)]
        except (psutil.Error, OSError):
            return []
    parents: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if name.isdigit():
            fields = _stat_fields(int(name))
            if fields is not None:
                parents.setdefault(int(fields[1]), []).append(int(name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _cpu(pid: int, waited_children: bool) -> float:
    if psutil is not None:
        try:
            times = psutil.Process(pid).cpu_times()
        except (psutil.Error, OSError):
            return 0.0
        total = times.user + times.system
        return total + (times.children_user + times.children_system if waited_children else 0.0)
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if waited_children else 0)
    return ticks / _CLOCK_TICKS


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) of ``pid``, of its children it has waited
    for, and of its live descendants; ``None`` if ``pid`` is gone."""
    if psutil is None and _stat_fields(pid) is None:
        return None
    if psutil is not None and not psutil.pid_exists(pid):
        return None
    total = _cpu(pid, True)
    for child in descendants(pid):
        total += _cpu(child, False)  # its own waited children are in its parent's count once waited
    return total


def rss_bytes(pids: list[int]) -> int:
    """The resident memory of these processes, together."""
    total = 0
    for pid in pids:
        if psutil is not None:
            try:
                total += psutil.Process(pid).memory_info().rss
            except (psutil.Error, OSError):
                pass
            continue
        try:
            with open(f"/proc/{pid}/statm") as statm:
                total += int(statm.read().split()[1]) * _PAGE
        except (OSError, ValueError, IndexError):
            pass
    return total


def start_time(pid: int) -> str | None:
    """When ``pid`` started (in clock ticks since boot): with the pid, it names
    one process, not a later one that was given the same pid."""
    fields = _stat_fields(pid)
    return fields[19] if fields is not None and len(fields) > 19 else None


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
