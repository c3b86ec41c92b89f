"""Issue 15, items 5 to 10: the broken-engine zoo (tests/arena_agents/zoo_engine.py)
loses every game with the right reason, within its budgets, and leaves no
process behind; the engine protocol's own faults are contained."""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

import psutil
import pytest

from boomboard.arena.engine_protocol import EngineAgent, EngineError
from boomboard.arena.engine_session import EngineSession, serve
from boomboard.arena.referee import Limits, play_game

ZOO = Path(__file__).parent / "arena_agents" / "zoo_engine.py"
# the wall limit leaves room for a loaded machine; the CPU budget is what stops a busy engine
LIMITS = Limits(move_cpu=0.2, move_wall=6.0, memory_mb=300)

# behaviour -> (kind of fault, words the reason must contain). The reason, not the
# wall time taken, shows which limit stopped it, so no load can change the outcome:
# a busy loop is stopped by its CPU budget ("time"), not the wall limit
# ("timeout"), and a line never ended fails by --move-wall, not the 60 s start-up.
EXPECTED = {
    "busy": ("time", "s of CPU for one action; the budget is 0.2 s"),
    "allocate": ("memory", "allocated past the memory limit"),  # with a CPU budget for 2 GB
    "spawn": ("timeout", "no action within 6.00 s"),
    "illegal": ("illegal", "A1 holds no"),
    "malformed": ("malformed", "this is no move"),
    "no-newline": ("timeout", "did not end its line within 6 s"),
}


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _left_behind(folder: Path, deadline_seconds: float = 3.0) -> list[str]:
    pids = [int(path.name) for path in folder.iterdir()]
    deadline = time.monotonic() + deadline_seconds
    while time.monotonic() < deadline:
        alive = [pid for pid in pids if _alive(pid)]
        if not alive:
            return []
        time.sleep(0.1)
    return [f"{pid}: {(folder / str(pid)).read_text()}" for pid in pids if _alive(pid)]


@pytest.mark.parametrize("behaviour", list(EXPECTED))
def test_every_zoo_engine_loses_with_its_reason_and_leaves_no_process(behaviour, tmp_path):
    kind, words = EXPECTED[behaviour]
    spec = f"engine:{sys.executable} {ZOO} {behaviour} {tmp_path}"
    limits = Limits(move_cpu=5.0, move_wall=6.0, memory_mb=300) if behaviour == "allocate" else LIMITS
    result = play_game("kaboom", [spec, "random"], limits, seed=1)
    assert result.winner == 1, result.reason
    assert f"forfeits: {kind}: " in result.reason, result.reason
    assert words in result.reason, result.reason
    assert list(tmp_path.iterdir()), "the engine never started"
    assert _left_behind(tmp_path) == []
    if behaviour == "spawn":
        assert len(list(tmp_path.iterdir())) == 2  # the engine and its child


# -- the engine protocol (items 9 to 12) ----------------------------------------------

@pytest.mark.parametrize("budget", ["inf", "1e308", "1e30", "9" * 400])
def test_go_with_a_huge_time_is_refused_not_a_crash_nor_endless(budget):
    session = EngineSession("alphabeta:depth=2", seed=1)
    assert session.handle("game kaboom(rows=3,cols=3,connect=3)") == (True, "kaboom(rows=3,cols=3,connect=3)")
    ok, text = session.handle(f"go time {budget}")
    assert not ok and "at most 86,400" in text and len(text) < 200, text
    assert session.state.ply() == 0
    assert session.handle("go time 86400")[0] and session.state.ply() == 1  # a day is allowed (depth 2 ends first)


@pytest.mark.parametrize("budget", ["nan", "-1", "0", "x"])
def test_go_with_a_bad_time_is_refused(budget):
    session = EngineSession("random", seed=1)
    ok, text = session.handle(f"go time {budget}")
    assert not ok and "go time SECONDS" in text


def test_an_engine_that_is_no_engine_is_refused_and_the_agent_kept():
    session = EngineSession("random", seed=1)
    ok, text = session.handle("agent engine:true")
    assert not ok and "engine" in text
    assert session.agent_spec == "random"
    assert session.handle("go")[0]


def test_an_engine_that_never_answers_fails_within_the_answer_limit(monkeypatch, tmp_path):
    from boomboard.arena import engine_protocol

    monkeypatch.setattr(engine_protocol, "STARTUP_ANSWER_SECONDS", 1.0)
    session = EngineSession("random", seed=1)
    began = time.monotonic()
    ok, text = session.handle("agent engine:sleep 1000")
    assert not ok and "did not answer" in text
    assert time.monotonic() - began < 60  # not 1000 s: the answer limit, with room for a loaded machine
    assert session.agent_spec == "random"


def test_an_engine_that_never_ends_its_line_fails_by_the_move_wall(tmp_path):
    agent = EngineAgent(f"{sys.executable} {ZOO} no-newline {tmp_path}")
    agent.arena_move_wall = 0.5
    import boomboard

    began = time.monotonic()
    with pytest.raises(EngineError, match="did not end its line within 0.5 s") as caught:
        agent.new_game(boomboard.load_game("kaboom"), 0)
    assert caught.value.arena_fault == "timeout"
    assert time.monotonic() - began < 60  # the message names the 0.5 s limit; this guards against a hang
    assert _left_behind(tmp_path) == []


def test_an_engine_error_is_a_boomboard_error():
    from boomboard import BoomboardError

    assert issubclass(EngineError, BoomboardError)


def test_commands_before_game_act_on_the_documented_default():
    out = io.StringIO()
    serve(io.StringIO("position?\nplay A\nresult\nquit\n"), out, agent_spec="random")
    assert out.getvalue().startswith("= (x 1 1 ---- ---- ---- ----)\n\n=\n\n= ongoing\n\n")
    assert "Until a ``game`` command, the engine plays the default game, ``kaboom``" in (
        EngineSession.__module__ and sys.modules[EngineSession.__module__].__doc__)
    assert os.path.exists(ZOO)
