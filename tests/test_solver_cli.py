"""The solver from the command line, as an agent spec, and without the compiler."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from no_jit import run_json_script

import boomboard
from boomboard import solver
from boomboard.agents import agent_kinds, make_agent
from boomboard.core import ParameterError
from process_helpers import as_from_a_terminal
from solve_helpers import steps_saved

POSITION_14 = "(x 0 0 xoxx o@*o -ooo -xxx)"


def run_cli(*args):
    env = {**os.environ, "COLUMNS": "120"}
    return subprocess.run([sys.executable, "-m", "boomboard", *args], capture_output=True, text=True, timeout=600,
                          env=env)


def test_solve_verify_and_analyze_position_14_on_the_command_line(tmp_path):
    db = str(tmp_path)
    done = run_cli("solve", "kaboom", "--position", POSITION_14, "--db", db, "--verify", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "3 positions" in done.stdout and "start: win in 1 for x" in done.stdout
    assert "verified: all 3 entries" in done.stdout
    done = run_cli("analyze", "kaboom", POSITION_14, "--db", db)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if "│" in line]
    assert "value: win in 1 for x" in done.stdout
    assert lines[0].split("│")[1:4] == [" C2!  ", " win         ", "          1 "]
    assert "A" in lines[1] and "win" in lines[1]


def test_game_options_and_the_position_may_come_in_any_order(tmp_path):
    db = str(tmp_path)
    assert run_cli("solve", "kaboom", "--rows", "2", "--cols", "3", "--connect", "2", "--db", db,
                   "--method", "memory", "--quiet").returncode == 0
    done = run_cli("analyze", "kaboom", "--rows", "2", "(o 1 1 x-- ---)", "--cols", "3", "--connect", "2",
                   "--db", db)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("(o 1 1 x-- ---)")
    table = solver.open_table(boomboard.load_game("kaboom(rows=2,cols=3,connect=2)"), db=db)
    meta = json.loads((table.folder / "meta.json").read_text())
    assert meta["positions"] == len(table) == 292


def test_errors_are_one_line_without_traceback(tmp_path):
    done = run_cli("analyze", "kaboom", "--db", str(tmp_path))
    assert done.returncode == 2
    assert "not solved" in done.stdout and "Traceback" not in done.stdout + done.stderr
    done = run_cli("solve", "kaboom", "--rows", "7", "--cols", "7", "--db", str(tmp_path), "--quiet")
    assert done.returncode == 2 and "64-bit" in done.stdout and "Traceback" not in done.stderr


def test_a_solve_too_big_for_memory_stops_with_the_levels_it_found(tmp_path):
    with pytest.raises(solver.SolveError, match=r"more than .* positions.*by level"):
        solver.solve(boomboard.load_game("kaboom(rows=3,cols=3,connect=3)"), db=tmp_path, progress=False,
                     settings=solver.SolveSettings(max_positions=2000, method="memory"))
    assert solver.open_table(boomboard.load_game("kaboom(rows=3,cols=3,connect=3)"), db=tmp_path) is None


def test_the_solver_agent_is_built_from_its_spec(tmp_path):
    assert "solver" in agent_kinds()
    agent = make_agent(f"solver:db={tmp_path},seed=4")
    assert agent.name == "solver" and agent.db == str(tmp_path)
    with pytest.raises(ParameterError, match="has no setting 'depth'"):
        make_agent("solver:depth=3")
    game = boomboard.load_game("jump61(size=2)")
    with pytest.raises(solver.NotSolvedError):
        agent.choose_action(game.new_initial_state())
    solver.solve(game, db=tmp_path, progress=False)
    state = game.new_initial_state()
    assert agent.choose_action(state) in state.legal_actions()
    assert agent.last_thinking.startswith("solved: lose in 4")


# one small board per solve method (layer by layer on 89 positions runs the same code as on
# thousands: the 3,846 of kaboom(rows=2,cols=3,connect=3) took plain Python 3 s more)
SCRIPT = """
import json, sys, tempfile, boomboard
from boomboard import solver
out = {}
with tempfile.TemporaryDirectory() as db:
    for name, tokens, method in (("jump61(size=2)", 0, "memory"), ("kaboom(rows=2,cols=3,connect=2)", 0, "memory"),
                                 ("kaboom(rows=3,cols=2,connect=2)", 0, "tiers"), ("expendibots", 2, "auto")):
        table = solver.solve(boomboard.load_game(name), db=db, progress=False,
                             settings=solver.SolveSettings(tokens=tokens, method=method))
        total = int(table.entries.read_all().sum(dtype="int64"))
        out[name] = [len(table), table.meta["values"], solver.verify(table), total]
print(json.dumps(out))
"""


def test_the_solver_runs_as_plain_python_with_the_same_tables():
    results = [run_json_script(SCRIPT, disable) for disable in ("1", "0")]
    assert results[0] == results[1]
    assert results[0]["expendibots"][0] == 8064


def kill_jump61_solve_when(tmp_path, ready, *options) -> dict:
    """Run ``boomboard solve jump61 --size 3`` in a process, SIGKILL it as soon
    as ``ready(progress record)`` holds, and return the record it left."""
    progress = tmp_path / "jump61(size=3)" / "start.work" / "progress.json"
    process = subprocess.Popen([sys.executable, "-m", "boomboard", "solve", "jump61", "--size", "3", "--db",
                                str(tmp_path), "--quiet", *options],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while process.poll() is None:
            try:
                record = json.loads(progress.read_text())
            except (OSError, ValueError):  # not written yet, or being replaced
                record = {}
            if ready(record):
                process.send_signal(signal.SIGKILL)
                break
            time.sleep(0.002)
    finally:
        process.wait(timeout=600)
    assert process.returncode == -signal.SIGKILL, "the solve finished before it could be killed"
    return json.loads(progress.read_text())


@pytest.fixture(scope="module")
def unbroken_jump61_table(tmp_path_factory):
    """jump61(size=3) solved in one go, in memory: what every resumed solve must write."""
    return solver.solve(boomboard.load_game("jump61(size=3)"), db=tmp_path_factory.mktemp("unbroken"), progress=False,
                        settings=solver.SolveSettings(method="memory"))


def test_a_solve_killed_midway_resumes_from_its_saved_levels(tmp_path, monkeypatch, unbroken_jump61_table):
    game = boomboard.load_game("jump61(size=3)")
    saved = kill_jump61_solve_when(tmp_path, lambda record: record.get("expanded", 0) >= 3)["expanded"]
    assert solver.open_table(game, db=tmp_path) is None
    resumed = steps_saved(monkeypatch)
    table = solver.solve(game, db=tmp_path, progress=False)
    assert resumed[0] == ("level", saved)  # the next level, not the first
    fresh = unbroken_jump61_table
    assert len(table) == 288293
    assert np.array_equal(table.keys, fresh.keys) and np.array_equal(table.entries, fresh.entries)


def test_ctrl_c_stops_a_solve_after_a_saved_level_and_the_next_solve_resumes_there(tmp_path, monkeypatch):
    """Ctrl-C, as a terminal sends it, once the solve has saved a few levels: it stops (130, no
    traceback) with its levels kept, and the next solve goes on from the last one saved."""
    progress = tmp_path / "jump61(size=3)" / "start.work" / "progress.json"
    with as_from_a_terminal():
        process = subprocess.Popen([sys.executable, "-m", "boomboard", "solve", "jump61", "--size", "3", "--db",
                                    str(tmp_path), "--quiet"], text=True, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
    try:
        while process.poll() is None and json.loads(_text_or(progress, "{}")).get("expanded", 0) < 3:
            time.sleep(0.002)
        process.send_signal(signal.SIGINT)
        output = process.communicate(timeout=120)[0]
    finally:
        process.kill()
    assert process.returncode == 130 and "Traceback" not in output, output  # not finished first: stopped
    saved = json.loads(progress.read_text())["expanded"]
    resumed = steps_saved(monkeypatch)
    table = solver.solve(boomboard.load_game("jump61(size=3)"), db=tmp_path, progress=False)
    assert resumed[0] == ("level", saved) and len(table) == 288293


def _text_or(path, default: str) -> str:
    """The file's text; ``default`` while it is not there or is being replaced."""
    try:
        return path.read_text() or default
    except OSError:
        return default


def test_a_layer_by_layer_solve_killed_while_scoring_resumes_at_its_last_layer(tmp_path, monkeypatch,
                                                                              unbroken_jump61_table):
    game = boomboard.load_game("jump61(size=3)")
    saved = kill_jump61_solve_when(tmp_path, lambda record: record.get("solved_from") is not None,
                                   "--method", "tiers")["solved_from"]
    assert solver.open_table(game, db=tmp_path) is None
    resumed = steps_saved(monkeypatch)
    table = solver.solve(game, db=tmp_path, progress=False)
    assert resumed[0] == ("solved layer", saved - 1)  # no layer found or scored again
    fresh = unbroken_jump61_table
    assert np.array_equal(table.keys, fresh.keys) and np.array_equal(table.entries, fresh.entries)


def test_unwritable_folders_and_damaged_tables_give_clear_errors(tmp_path):
    game = boomboard.load_game("jump61(size=2)")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(solver.SolveError, match="cannot write the table"):
        solver.solve(game, db=blocker, progress=False)
    table = solver.solve(game, db=tmp_path / "db", progress=False)
    (table.folder / "values.blk").write_bytes(b"damaged")
    with pytest.raises(solver.CorruptTableError, match=r"values\.blk: the file is truncated"):
        solver.open_table(game, db=tmp_path / "db")


ONE_GAME_SCRIPT = """
import json, sys, tempfile, boomboard
from boomboard import solver
with tempfile.TemporaryDirectory() as db:
    table = solver.solve(boomboard.load_game("kaboom(rows=2,cols=3,connect=2)"), db=db, progress=False,
                         settings=solver.SolveSettings(method="tiers"))
    assert solver.verify(table) is None and len(table) == 292
loaded = sorted(name for name in sys.modules if name.startswith(("boomboard.games.", "boomboard.search")))
print(json.dumps(loaded))
"""


def test_solving_one_game_loads_no_other_game():
    done = subprocess.run([sys.executable, "-c", ONE_GAME_SCRIPT], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert loaded and all(name.startswith("boomboard.games.kaboom") for name in loaded), loaded
