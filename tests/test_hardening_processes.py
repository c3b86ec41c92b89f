"""No process an agent starts outlives its game, not even one that detaches
itself with ``setsid`` and a double fork (tests/arena_agents/detaching_engine.py):
cgroup v2 holds them where this process may make a cgroup, and elsewhere the
agent process adopts them as a child subreaper and they are killed before it."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from boomboard.arena import processes
from boomboard.arena.referee import Limits, Stopped, play_game

ENGINE = Path(__file__).parent / "arena_agents" / "detaching_engine.py"
GAME = "kaboom(rows=3,cols=3,connect=3)"
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="setsid and subreapers: Linux")


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _still_alive(pids: list[int], seconds: float = 30.0) -> list[int]:
    """Those of ``pids`` alive after up to ``seconds`` (a killed process may wait to be reaped)."""
    deadline = time.monotonic() + seconds
    while True:
        alive = [pid for pid in pids if _alive(pid)]
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.05)


@pytest.fixture(params=["cgroup", "subreaper"])
def enclosure(request, monkeypatch):
    """Which way the referee holds the agent's processes: a cgroup (skipped
    where none can be made here) or, without one, adoption by the agent process."""
    if request.param == "subreaper":
        monkeypatch.setattr(processes, "_new_cgroup", lambda pid: None)
        yield request.param
        return
    home = processes._cgroup2_home()
    if home is None or not os.access(home, os.W_OK):
        pytest.skip("no cgroup v2 that this process may create cgroups in")
    made = []
    new_cgroup = processes._new_cgroup
    monkeypatch.setattr(processes, "_new_cgroup", lambda pid: made.append(new_cgroup(pid)) or made[-1])
    yield request.param
    assert made and all(made), made  # each agent process was held by a cgroup of its own
    assert not any(folder.exists() for folder in made)  # removed after the game


def test_no_detached_child_of_an_engine_outlives_its_game(tmp_path, enclosure):
    spec = f"engine:{sys.executable} {ENGINE} {tmp_path}"
    result = play_game(GAME, [spec, "random"], Limits(move_wall=60.0), seed=1)
    assert "forfeits" not in result.reason, result.reason  # the engine played its moves to the end
    sleepers = [int(path.name) for path in tmp_path.iterdir()]
    assert sleepers, "the engine left no sleeper"
    assert _still_alive(sleepers) == []


def test_an_engine_stopped_mid_move_leaves_no_detached_child(tmp_path, enclosure):
    """An engine that hangs after leaving its sleeper is killed in the middle
    of its move (the arena stopped, as by Ctrl-C, once the sleeper exists):
    its sleeper goes with it."""
    spec = f"engine:{sys.executable} {ENGINE} {tmp_path} hang"
    stop = threading.Event()

    def stop_once_a_sleeper_exists():
        deadline = time.monotonic() + 120
        while not any(tmp_path.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.05)
        stop.set()

    watcher = threading.Thread(target=stop_once_a_sleeper_exists, daemon=True)
    watcher.start()
    with pytest.raises(Stopped):
        play_game(GAME, [spec, "random"], Limits(move_wall=600.0), seed=1, stop=stop)
    watcher.join()
    sleepers = [int(path.name) for path in tmp_path.iterdir()]
    assert len(sleepers) == 1
    assert _still_alive(sleepers) == []
