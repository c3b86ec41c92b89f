"""Compiled kernels: one game compiles alone, start-up loads no compiler, and an
edited source is never served from a stale cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import boomboard

PACKAGE = Path(boomboard.__file__).parent


def run(script: str, unset: tuple[str, ...] = (), **env: str) -> dict:
    environment = {key: value for key, value in {**os.environ, **env}.items() if key not in unset}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=900,
                          env=environment)
    assert done.returncode == 0, done.stderr
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "stderr": done.stderr}


ONE_GAME = """
import gc, json, sys
import boomboard
from boomboard.jit import Kernel
from boomboard.agents import make_agent
game = boomboard.load_game("kaboom")
state = game.new_initial_state()
for spec in ("ai:time=0.05", "mcts:simulations=20", "greedy"):
    agent = make_agent(spec, seed=1)
    agent.new_game(game, 0)
    state.apply_action(agent.choose_action(state))
compiled = sorted({k.__module__ for k in gc.get_objects() if isinstance(k, Kernel) and k._dispatcher is not None})
games = sorted(m.split(".")[2] for m in sys.modules if m.startswith("boomboard.games.") and m.count(".") >= 2)
print(json.dumps({"compiled": compiled, "games": games}))
"""


def test_a_process_playing_kaboom_compiles_and_imports_no_other_game():
    found = run(ONE_GAME)
    assert set(found["games"]) == {"kaboom"}
    others = [name for name in boomboard.game_names() if name != "kaboom"]
    assert found["compiled"], "nothing was compiled at all"
    for module in found["compiled"]:
        assert not any(other in module for other in others), module
    assert any("kaboom" in module and "negamax" in module for module in found["compiled"])


STARTUP = """
import json, sys
import boomboard, boomboard.cli.main
print(json.dumps({"loaded": sorted(m for m in ("numpy", "numba", "scipy") if m in sys.modules)}))
"""


def test_importing_boomboard_and_its_command_line_loads_no_numerics():
    assert run(STARTUP)["loaded"] == []


KEY = """
import json, boomboard
state = boomboard.load_game("kaboom").new_initial_state()
state.apply_action(0)
print(json.dumps({"key": int(state.game.kernels.position_key(state.array, state.game.params_array))}))
"""


def test_editing_a_source_another_kernel_calls_recompiles_the_caller(tmp_path):
    """Kaboom's position_key (games/kaboom/rules.py) calls cell_hash from
    core/layout.py: numba alone would keep serving the old compiled caller."""
    copy = tmp_path / "src" / "boomboard"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__kernels__", "__pycache__"))
    env = {"PYTHONPATH": str(tmp_path / "src"), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    first = run(KEY, **env)
    before = first["key"]
    # A cold cache says so, once, in one line; a warm one says nothing.
    assert [line for line in first["stderr"].splitlines() if line.startswith("boomboard: compiling Kaboom")] == [
        line for line in first["stderr"].splitlines() if line.strip()]
    assert len(first["stderr"].strip().splitlines()) == 1
    second = run(KEY, **env)
    assert second["key"] == before and second["stderr"].strip() == ""  # the same source: from the cache
    layout = copy / "core" / "layout.py"
    source = layout.read_text()
    assert "_GOLDEN = np.uint64(0x9E3779B97F4A7C15)" in source
    layout.write_text(source.replace("_GOLDEN = np.uint64(0x9E3779B97F4A7C15)", "_GOLDEN = np.uint64(0x9E3779B97F4A7C17)"))
    after = run(KEY, **env)["key"]
    assert after != before
    assert after == run(KEY, NUMBA_DISABLE_JIT="1", **env)["key"]  # what the edited source computes
    caches = sorted(path.name for path in (tmp_path / "cache").iterdir())
    assert len(caches) == 2 and all(name.startswith("boomboard-") for name in caches)


QUICK_COMMANDS = """
import io, json, sys
from pathlib import Path
from boomboard.cli.main import main
sys.argv = ["boomboard", *{argv!r}]
sys.stdin = io.StringIO({stdin!r})
out, sys.stdout = sys.stdout, io.StringIO()
try:
    main()
except SystemExit:
    pass
printed, sys.stdout = sys.stdout.getvalue(), out
print(json.dumps({{"numba": "numba" in sys.modules, "printed": printed}}))
"""


def test_people_s_moves_and_small_puzzles_need_no_compiler(tmp_path):
    """The Jump61 program answers people's commands, and a one-action puzzle
    is solved, with the rules interpreted: numba is never loaded."""
    moves = run(QUICK_COMMANDS.format(argv=["jump61"], stdin="manual blue\n1 1\n2 2\ndump\nquit\n"))
    assert not moves["numba"]
    assert "2r" in moves["printed"] and "2b" in moves["printed"]
    puzzle = tmp_path / "puzzle.json"
    puzzle.write_text('{"white": [[1, 3, 3], [1, 4, 4]], "black": [[1, 5, 5], [1, 6, 6]]}')
    solved = run(QUICK_COMMANDS.format(argv=["expendibots", "puzzle", str(puzzle)], stdin=""))
    assert not solved["numba"]
    assert solved["printed"].splitlines() == ["BOOM at (3, 3)."]


WHERE = """
import json
from boomboard.jit import cache_dir
print(json.dumps({"cache": str(cache_dir())}))
"""


def test_the_cache_goes_to_the_user_s_cache_folder_when_the_package_folder_is_not_writable(tmp_path):
    copy = tmp_path / "src" / "boomboard"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__kernels__", "__pycache__"))
    env = {"PYTHONPATH": str(tmp_path / "src"), "XDG_CACHE_HOME": str(tmp_path / "user-cache")}
    assert run(WHERE, unset=("NUMBA_CACHE_DIR",), **env)["cache"].startswith(str(copy / "__kernels__"))
    shutil.rmtree(copy / "__kernels__")
    # Not writable: as the root user ignores permissions, a file stands in the folder's way.
    (copy / "__kernels__").write_text("")
    if os.geteuid() != 0:
        (copy / "__kernels__").unlink()
        copy.chmod(0o555)
    try:
        found = Path(run(WHERE, unset=("NUMBA_CACHE_DIR",), **env)["cache"])
    finally:
        copy.chmod(0o755)
    assert found.parent == tmp_path / "user-cache" / "boomboard" / "kernels"
    assert found.name.startswith("boomboard-")


# Records what numba compiles while `watching[0]` is set; no braces, as
# FIRST_MOVES is formatted.
WATCH_COMPILES = """
import json
from numba.core import event
import boomboard
from boomboard.agents import make_agent

compiled, watching = [], [False]


class Watch(event.Listener):
    def on_start(self, ev):
        if watching[0]:
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Watch())
"""

FIRST_MOVES = WATCH_COMPILES + """
found = {{}}
for name, spec in {players!r}:
    game = boomboard.load_game(name)
    agent = make_agent(spec, seed=1)
    agent.new_game(game, 0)
    watching[0] = True
    agent.choose_action(game.new_initial_state())
    watching[0] = False
    found[f"{{name}} {{spec}}"] = compiled[:]
    compiled.clear()
print(json.dumps(found))
"""


def test_with_an_empty_compile_cache_nothing_compiles_on_a_first_move_s_clock(tmp_path):
    """Everything a move needs compiles in new_game, before a referee's clock
    runs: the tables' lookups and the rules the expected line is played
    with included (each had cost a first move 0.1 to 5 s). Expendibots' ``ai``
    has its endgame tables; the small Kaboom board is solved whole (here, in
    this process: the other starts cold)."""
    from boomboard import solver

    tiny = "kaboom(rows=3,cols=3,connect=3)"
    solver.solve(boomboard.load_game(tiny), db=tmp_path / "db", progress=False, method="memory")
    players = [("expendibots", "ai:time=0.2"), ("expendibots", "alphabeta:time=0.2"),
               ("expendibots", "mcts:time=0.2"), (tiny, "solver"), (tiny, "ai:time=0.2")]
    found = run(FIRST_MOVES.format(players=players), NUMBA_CACHE_DIR=str(tmp_path / "cache"),
                BOOMBOARD_DB=str(tmp_path / "db"))
    assert {player: compiled for player, compiled in found.items() if player != "stderr"} == {
        f"{name} {spec}": [] for name, spec in players}


AFTER_COMPILE = WATCH_COMPILES + """
from boomboard.warmup import warm_up

warm_up("expendibots")  # what boomboard compile does for the game
watching[0] = True
game = boomboard.load_game("expendibots")
agent = make_agent("ai:time=0.1", seed=1)
agent.new_game(game, 0)
agent.choose_action(game.new_initial_state())
print(json.dumps({"compiled": compiled}))
"""


def test_after_boomboard_compile_ai_compiles_nothing_before_or_during_its_first_move(tmp_path):
    """``boomboard compile`` leaves nothing for ``ai`` to compile: Expendibots'
    ``ai`` probes endgame tables inside its search, a search of its own that
    the course Player's import had compiled (7 s) after a compile."""
    found = run(AFTER_COMPILE, NUMBA_CACHE_DIR=str(tmp_path / "cache"), BOOMBOARD_DB=str(tmp_path / "db"))
    assert found["compiled"] == []
