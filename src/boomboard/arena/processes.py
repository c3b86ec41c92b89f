"""Process trees: their CPU time and memory, and killing them whole.

An agent may start processes of its own (an external engine, and whatever
that engine starts). The arena holds the whole tree to the agent's budgets
and ends it with the game. psutil (a dependency) reads the process table.

A process that detaches (``setsid`` and a double fork: a shell that starts
a command in the background and exits) leaves both the agent's process
group and, once its parent is gone, the agent's tree. :class:`Enclosure`
keeps such processes within reach, so that none outlives the game:

* where cgroup v2 is mounted and this process may create a cgroup below its
  own, each agent process is moved into a cgroup of its own before it starts
  anything; every process it starts stays in that cgroup whatever it does,
  and the cgroup is killed whole (``cgroup.kill``) at the end;
* elsewhere, the agent process is a *child subreaper*
  (``PR_SET_CHILD_SUBREAPER``, Linux; :func:`adopt_orphans`): an orphan
  below it is handed to it, not to init, so it stays a descendant. Its
  descendants are killed, again until none is left, before the agent
  process itself, which adopts those that each kill orphans.
"""

from __future__ import annotations

import itertools
import os
import signal
import sys
import time
from pathlib import Path

import psutil

CGROUP_PREFIX = "boomboard-agent-"  # then the referee's pid and a count
KILL_SECONDS = 5.0  # how long killing an agent's processes may wait for them to go
_cgroup_counter = itertools.count()


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


def live_descendants(pid: int) -> list[int]:
    """:func:`descendants` that have not yet ended (zombies left out)."""
    try:
        below = psutil.Process(pid).children(recursive=True)
    except (psutil.Error, OSError):
        return []
    alive = []
    for child in below:
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                alive.append(child.pid)
        except (psutil.Error, OSError):
            pass
    return alive


def kill_descendants(pid: int, seconds: float = KILL_SECONDS) -> None:
    """SIGKILL ``pid``'s descendants, again while any is alive (within
    ``seconds``): with ``pid`` a subreaper that is alive, the orphans of
    each kill are its children next time round."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        below = live_descendants(pid)
        if not below:
            return
        for child in below:
            _kill(child)
        time.sleep(0.01)  # the kernel hands the orphans over as the killed ones exit


def adopt_orphans() -> None:
    """Make this process a child subreaper (Linux; nothing elsewhere): the
    orphans of its descendants become its children, not init's."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def _cgroup2_home() -> Path | None:
    """This process's cgroup v2 folder, or ``None`` where there is none."""
    try:
        own = next(line[3:].strip() for line in Path("/proc/self/cgroup").read_text().splitlines()
                   if line.startswith("0::"))
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except (OSError, StopIteration):
        return None
    for line in mounts:
        fields, _, kind = line.partition(" - ")
        fields = fields.split()
        if kind.split()[:1] == ["cgroup2"] and len(fields) > 4 and own.startswith(fields[3]):
            return Path(fields[4]) / own[len(fields[3]):].lstrip("/")
    return None


def _remove_cgroup(folder: Path, seconds: float) -> bool:
    """Kill every process in the cgroup ``folder`` and remove it; whether it is gone."""
    try:
        if (folder / "cgroup.kill").exists():
            (folder / "cgroup.kill").write_text("1")
        deadline = time.monotonic() + seconds
        while True:
            pids = [int(p) for p in (folder / "cgroup.procs").read_text().split()]
            if not pids:
                folder.rmdir()
                return True
            if time.monotonic() >= deadline:
                return False
            for pid in pids:  # a kernel without cgroup.kill (before Linux 5.14)
                _kill(pid)
            time.sleep(0.01)
    except (OSError, ValueError):
        return not folder.exists()


def _remove_stale_cgroups(home: Path) -> None:
    """Those left by a referee that was killed (its pid no longer running)."""
    for folder in home.glob(f"{CGROUP_PREFIX}*"):
        owner = folder.name[len(CGROUP_PREFIX):].split("-")[0]
        if owner.isdigit() and not psutil.pid_exists(int(owner)):
            _remove_cgroup(folder, 0.0)


def _new_cgroup(pid: int) -> Path | None:
    """A fresh cgroup holding ``pid``, or ``None`` where none can be made."""
    home = _cgroup2_home()
    if home is None or not os.access(home, os.W_OK):
        return None
    _remove_stale_cgroups(home)
    folder = home / f"{CGROUP_PREFIX}{os.getpid()}-{next(_cgroup_counter)}"
    try:
        folder.mkdir()
    except OSError:
        return None
    try:
        (folder / "cgroup.procs").write_text(str(pid))
    except OSError:  # not allowed to move it (no delegation), or the cgroup tree forbids it
        _remove_cgroup(folder, 0.0)
        return None
    return folder


class Enclosure:
    """Every process an agent process (``pid``, which has started nothing
    yet) will start, however it detaches: see the module's text."""

    def __init__(self, pid: int):
        self.pid, self.started = pid, start_time(pid)
        self.cgroup = _new_cgroup(pid)

    def kill(self) -> None:
        """SIGKILL every process the agent process started: with a cgroup, the
        agent process too; else its descendants, while it lives to adopt
        their orphans (the caller then kills it)."""
        if self.cgroup is not None:
            if _remove_cgroup(self.cgroup, KILL_SECONDS):
                self.cgroup = None
                self.started = None  # all gone: nothing is left to adopt
        elif self.started is not None and start_time(self.pid) == self.started:  # not a later process's pid
            kill_descendants(self.pid)


def kill_group(pgid: int) -> None:
    """SIGKILL every process of the process group ``pgid``, but never our own group."""
    try:
        if pgid <= 1 or pgid == os.getpgrp():
            return
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass
