"""Compiled kernels: one game compiles alone, start-up loads no compiler, and an
edited source is never served from a stale cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import boomboard

PACKAGE = Path(boomboard.__file__).parent


def package_copy(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the package to edit, and the environment that runs it with a
    compile cache of its own."""
    copy = tmp_path / "src" / "boomboard"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__kernels__", "__pycache__"))
    return copy, {"PYTHONPATH": str(tmp_path / "src"), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}


def add_comment(path: Path) -> None:
    """An edit that changes a file's bytes and none of its code."""
    path.write_text(path.read_text() + "\n# an edit that changes no code\n")


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
state = boomboard.load_game("chain_reaction").new_initial_state()
state.apply_action(0)
print(json.dumps({"key": int(state.game.kernels.position_key(state.array, state.game.params_array))}))
"""


def test_editing_a_source_another_kernel_calls_recompiles_the_caller(tmp_path):
    """Chain Reaction's position_key (games/chain_reaction/rules.py) calls
    cell_hash from core/layout.py: numba alone would keep serving the old
    compiled caller. (Every game's does; Chain Reaction's rules compile in
    half the time of Kaboom's.)"""
    copy, env = package_copy(tmp_path)
    first = run(KEY, **env)
    before = first["key"]
    # A cold cache says so, once, in one line; a warm one says nothing.
    assert [line for line in first["stderr"].splitlines() if line.startswith("boomboard: compiling Chain Reaction")] == [
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
    # Two versions of the caller's and the callee's modules, the only ones compiled.
    versions = Counter(path.name.rsplit("-", 1)[0] for path in (tmp_path / "cache").iterdir())
    assert versions == {"boomboard.games.chain_reaction.rules": 2, "boomboard.core.layout": 2}


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
from boomboard.jit import cache_root
print(json.dumps({"cache": str(cache_root())}))
"""


def test_the_cache_goes_to_the_user_s_cache_folder_never_into_the_package(tmp_path):
    copy = tmp_path / "src" / "boomboard"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__kernels__", "__pycache__"))
    env = {"PYTHONPATH": str(tmp_path / "src"), "XDG_CACHE_HOME": str(tmp_path / "user-cache")}
    assert Path(run(WHERE, unset=("NUMBA_CACHE_DIR",), **env)["cache"]) == tmp_path / "user-cache" / "boomboard" / "kernels"
    # A user cache folder that cannot be written (a file stands in its way, as root ignores permissions):
    # this machine's temporary folder, still outside the package.
    (tmp_path / "blocked").write_text("")
    found = Path(run(WHERE, unset=("NUMBA_CACHE_DIR",), **{**env, "XDG_CACHE_HOME": str(tmp_path / "blocked")})["cache"])
    assert found.name == f"boomboard-kernels-{os.getuid()}" and copy not in found.parents
    assert not (copy / "__kernels__").exists()


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
            function = ev.data["dispatcher"].py_func
            compiled.append(function.__module__ + "." + function.__qualname__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Watch())
"""

# Records each numba dispatcher's compiled versions, made here or loaded from the
# compile cache: a move that finds one missing waits for it either way. No
# braces, as FIRST_LOADS is formatted.
WATCH_LOADS = """
import gc, json
from numba.core.dispatcher import Dispatcher
import boomboard
from boomboard.agents import make_agent


def versions():
    return dict((id(dispatcher), (dispatcher, len(dispatcher.overloads)))
                for dispatcher in gc.get_objects() if isinstance(dispatcher, Dispatcher))


def made_ready_since(before):
    return sorted(dispatcher.py_func.__module__ + "." + dispatcher.py_func.__qualname__
                  for key, (dispatcher, count) in versions().items()
                  if count > before.get(key, (None, 0))[1])
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

FIRST_LOADS = WATCH_LOADS + """
found = {{}}
for name, spec in {players!r}:
    game = boomboard.load_game(name)
    agent = make_agent(spec, seed=1)
    agent.new_game(game, 0)
    before = versions()
    agent.choose_action(game.new_initial_state())
    found[f"{{name}} {{spec}}"] = made_ready_since(before)
print(json.dumps(found))
"""


TINY = "kaboom(rows=3,cols=3,connect=3)"
# Each player whose first move once compiled something.
FIRST_MOVE_PLAYERS = [("expendibots", "ai:time=0.2"), ("expendibots", "alphabeta:time=0.2"),
                      ("expendibots", "mcts:time=0.2"), (TINY, "solver"), (TINY, "ai:time=0.2")]


def solve_tiny(folder: Path) -> None:
    """The tiny Kaboom board solved into ``folder``/db (here, in this process:
    the players' process starts without it)."""
    from boomboard import solver

    solver.solve(boomboard.load_game(TINY), db=folder / "db", progress=False,
                 settings=solver.SolveSettings(method="memory"))


def compiled_on_first_moves(players: list[tuple[str, str]], folder: Path) -> dict[str, list[str]]:
    """What numba compiled during each player's first move, in one process
    started with an empty compile cache (benchmarks/first_move_compiles.py)."""
    solve_tiny(folder)
    found = run(FIRST_MOVES.format(players=players), NUMBA_CACHE_DIR=str(folder / "cache"),
                BOOMBOARD_DB=str(folder / "db"))
    return {player: compiled for player, compiled in found.items() if player != "stderr"}


def test_nothing_compiles_or_loads_on_a_first_move_s_clock(tmp_path):
    """Everything a move needs compiles (or loads from the compile cache) in
    new_game, before a referee's clock runs: the tables' lookups and the rules
    the expected line is played with included (each had cost a first move 0.1
    to 5 s). Expendibots' ``ai`` has its endgame tables; the small Kaboom board
    is solved whole. Here with the machine's compile cache, where a missing
    kernel would be loaded during the move (a new compiled version all the
    same); benchmarks/first_move_compiles.py checks the same players from an
    empty cache, where it would be compiled (104 CPU s, against a few here)."""
    solve_tiny(tmp_path)
    found = run(FIRST_LOADS.format(players=FIRST_MOVE_PLAYERS), BOOMBOARD_DB=str(tmp_path / "db"))
    assert {player: loaded for player, loaded in found.items() if player != "stderr"} == {
        f"{name} {spec}": [] for name, spec in FIRST_MOVE_PLAYERS}


AFTER_COMPILE = WATCH_LOADS + """
from boomboard.warmup import warm_up

warm_up("expendibots")  # what boomboard compile does for the game
before = versions()
game = boomboard.load_game("expendibots")
agent = make_agent("ai:time=0.1", seed=1)
agent.new_game(game, 0)
agent.choose_action(game.new_initial_state())
print(json.dumps({"loaded": made_ready_since(before)}))
"""


def test_after_boomboard_compile_ai_compiles_nothing_before_or_during_its_first_move(tmp_path):
    """``boomboard compile`` leaves nothing for ``ai`` to compile: Expendibots'
    ``ai`` probes endgame tables inside its search, a search of its own that
    the course Player's import had compiled (7 s) after a compile. With the
    machine's compile cache: a kernel ``boomboard compile`` had missed would
    be loaded (or compiled) after it, a new compiled version all the same,
    and an empty cache only adds the compiling (59 s of the suite's idle run)."""
    assert run(AFTER_COMPILE, BOOMBOARD_DB=str(tmp_path / "db"))["loaded"] == []


# Every compiled module's cache folder, and every template's copy's for every
# game. Templates are found by the rule they follow: one line that imports
# from boomboard.kernel_interface.
FOLDERS = r"""
import gc, importlib, json, re
from pathlib import Path
import boomboard
from boomboard.jit import Kernel, kernels_folder, specialize, specialized_folder

package = Path(boomboard.__file__).parent
templates = sorted(".".join(("boomboard", *path.relative_to(package).with_suffix("").parts))
                   for path in package.rglob("*.py")
                   if re.search(r"^from boomboard\.kernel_interface import", path.read_text(), re.M))
kernels = sorted({boomboard.load_game(name).kernels_module for name in boomboard.game_names()})
for module in kernels + templates:
    importlib.import_module(module)
modules = sorted({value.__module__ for value in gc.get_objects() if isinstance(value, Kernel)})
print(json.dumps({"modules": {module: kernels_folder(module).name for module in modules},
                  "copies": {f"{template} {game}": specialized_folder(template, game).name
                             for template in templates for game in kernels},
                  # the prover's search compiled against each game's copy of the evaluation's ordering
                  "composed": {game: specialized_folder("boomboard.search.proof_search",
                                                        specialize("boomboard.search.proof_order", game).__name__).name
                               for game in kernels}}))
"""


def changed(before: dict, after: dict) -> dict[str, set[str]]:
    return {kind: {name for name, folder in before[kind].items() if after[kind][name] != folder}
            for kind in ("modules", "copies", "composed")}


def test_an_edit_changes_the_cache_folders_of_what_is_built_from_it_and_of_nothing_else(tmp_path):
    """A kernel's cache folder is named after the sources it is built from,
    transitively: a comment in the web pages moves none; one in Kaboom's
    rules moves Kaboom's modules and every template's copy for Kaboom (a
    copy compiled against another copy for Kaboom too), no other game's;
    one in the alpha-beta template moves its copy for every game and no
    game's own modules."""
    copy, env = package_copy(tmp_path)
    before = run(FOLDERS, **env)
    kaboom = boomboard.load_game("kaboom").kernels_module
    games = {pair.split()[1] for pair in before["copies"]}
    assert kaboom in games and len(games) >= 5
    assert "boomboard.games.kaboom.rules" in before["modules"] and "boomboard.core.layout" in before["modules"]
    negamax = {pair for pair in before["copies"] if pair.startswith("boomboard.search.negamax ")}
    assert len(negamax) == len(games)

    add_comment(copy / "web" / "pages.py")
    after = run(FOLDERS, **env)
    assert changed(before, after) == {"modules": set(), "copies": set(), "composed": set()}

    add_comment(copy / "games" / "kaboom" / "rules.py")
    before, after = after, run(FOLDERS, **env)
    moved = changed(before, after)
    assert "boomboard.games.kaboom.rules" in moved["modules"]
    assert all(module.startswith("boomboard.games.kaboom.") for module in moved["modules"]), moved["modules"]
    assert moved["copies"] == {pair for pair in before["copies"] if pair.endswith(f" {kaboom}")}
    assert moved["composed"] == {kaboom}

    add_comment(copy / "search" / "negamax.py")
    before, after = after, run(FOLDERS, **env)
    assert changed(before, after) == {"modules": {"boomboard.search.negamax"}, "copies": negamax, "composed": set()}


# What numba compiles for two games' random playouts (a small template) and the
# rules they call, compiled along with them.
TWO_GAMES = WATCH_COMPILES + """
from boomboard.core.playout import random_playouts

watching[0] = True
for name in ("chain_reaction", "jump61"):
    random_playouts(boomboard.load_game(name).new_initial_state(), 2)
print(json.dumps({"compiled": compiled}))
"""


def boomboard_compiled(env: dict[str, str]) -> list[str]:
    """The functions of boomboard that TWO_GAMES compiles (numba's own
    implementations of NumPy's functions compile along with them)."""
    compiled = run(TWO_GAMES, **env)["compiled"]
    return sorted(name for name in compiled if name.startswith(("boomboard.", "boomboard_specialized.")))


def test_an_edit_recompiles_what_is_built_from_it_and_nothing_else(tmp_path):
    """numba recompiles exactly what moved: nothing for a comment in the web
    pages, Chain Reaction's kernels (and its playouts) alone for its rules,
    and the playouts of both games for the playout template. (Chain Reaction
    and Jump61: the two games whose rules compile fastest.)"""
    copy, env = package_copy(tmp_path)
    cold = boomboard_compiled(env)
    assert any(".chain_reaction." in function for function in cold) and any(".jump61." in function for function in cold)

    add_comment(copy / "web" / "pages.py")
    assert run(TWO_GAMES, **env)["compiled"] == []

    add_comment(copy / "games" / "chain_reaction" / "rules.py")
    again = boomboard_compiled(env)
    assert "boomboard.games.chain_reaction.rules.apply_action" in again
    assert all("chain_reaction" in function for function in again), again
    assert any("boomboard_games_chain_reaction_kernels.boomboard_core_playout" in function for function in again)

    add_comment(copy / "core" / "playout.py")
    assert boomboard_compiled(env) == sorted(
        f"boomboard_specialized.boomboard_games_{game}_kernels.boomboard_core_playout.playouts"
        for game in ("chain_reaction", "jump61"))


TEMPLATE_LINES = r"""
import inspect, json, sys
import boomboard
import boomboard.core.playout as template
from boomboard.core.playout import random_playouts

game = boomboard.load_game("jump61")
copy = game.compiled("boomboard.core.playout")
lines = set()


def trace(frame, event, arg):  # the lines run by the game's copy of the template
    if frame.f_globals.get("__name__") != copy.__name__:
        return None
    if event == "line":
        lines.add((frame.f_code.co_filename, frame.f_lineno))
    return trace


sys.settrace(trace)
random_playouts(game.new_initial_state(), 2)
sys.settrace(None)
body, first = inspect.getsourcelines(template.playouts.py_func)
print(json.dumps({"filename": copy.playouts.py_func.__code__.co_filename, "template": template.__file__,
                  "lines": sorted(lines), "body": [first, first + len(body) - 1]}))
"""


def test_without_the_compiler_a_game_s_copy_of_a_template_runs_the_template_s_own_file():
    """Under NUMBA_DISABLE_JIT=1 a debugger's breakpoint or coverage in a
    template's file sees the game's copy run: its code is the template's
    file's, line for line."""
    found = run(TEMPLATE_LINES, NUMBA_DISABLE_JIT="1")
    assert found["filename"] == found["template"]
    first, last = found["body"]
    assert found["lines"], "no line of the copy was traced"
    assert all(filename == found["template"] and first <= line <= last for filename, line in found["lines"])


def test_a_template_that_imports_relatively_is_refused_when_specialized_and_says_why(tmp_path, monkeypatch):
    from boomboard.jit import TemplateError, specialize

    package = tmp_path / "mytemplates"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("STEP = 1\n")
    (package / "relative.py").write_text("from boomboard.jit import njit\nfrom .helpers import STEP\n"
                                         "from boomboard.kernel_interface import legal_actions\n")
    (package / "no_interface.py").write_text("from boomboard.jit import njit\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    kernels = boomboard.load_game("jump61").kernels_module
    try:
        specialize("mytemplates.relative", kernels)
    except TemplateError as error:
        message = str(error)
    else:
        raise AssertionError("a relative import was accepted")
    assert "relative.py, line 2" in message and "from .helpers import" in message
    assert "absolute names only" in message and "Writing a kernel template" in message
    try:
        specialize("mytemplates.no_interface", kernels)
    except TemplateError as error:
        assert "from boomboard.kernel_interface import" in str(error)
    else:
        raise AssertionError("a template without the kernel interface's import was accepted")


def test_interpreted_holds_for_the_thread_that_enters_it_alone():
    """One thread runs kernels as Python inside ``interpreted()`` while
    another, at the same time, compiles them."""
    from boomboard.jit import interpreted, njit

    @njit
    def add_one(x):
        return x + 1

    @njit
    def add_two(x):
        return x + 2

    entered, other_done = threading.Event(), threading.Event()
    found = {}

    def interpreting():
        with interpreted():
            entered.set()
            other_done.wait()
            found["inside"] = (add_one(1), add_one._dispatcher is None)

    thread = threading.Thread(target=interpreting)
    thread.start()
    try:
        assert entered.wait(timeout=60)
        found["outside"] = (add_two(1), add_two._dispatcher is not None)
    finally:
        other_done.set()
        thread.join()
    assert found == {"inside": (2, True), "outside": (3, True)}


QUIET = """
import json
import boomboard
from boomboard.jit import is_cached, quiet_compiles

with quiet_compiles():
    quiet = boomboard.load_game("jump61")
loud = boomboard.load_game("kaboom")
is_cached([loud.rules.apply_action])  # loads numba, which then looks in the cache for the games waiting
print(json.dumps({"quiet": quiet.title, "loud": loud.title}))
"""


def test_quiet_compiles_keeps_a_cold_game_from_saying_it_compiles(tmp_path):
    """``boomboard compile`` shows compiles with progress bars instead."""
    found = run(QUIET, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    said = found["stderr"].strip().splitlines()
    assert len(said) == 1 and said[0].startswith(f"boomboard: compiling {found['loud']} ")


NEW_VERSION = """
import json
from boomboard.jit import kernels_folder
print(json.dumps({"folder": kernels_folder("boomboard.core.layout").name}))
"""


def test_a_new_version_of_a_module_prunes_its_old_versions_unused_for_a_day(tmp_path):
    """Each module keeps its three newest other versions; older ones unused
    for a day go, and so do the package-wide caches of before; those of
    other modules, and recent ones, stay."""
    cache = tmp_path / "cache"
    day = 86400
    ages = {f"boomboard.core.layout-00000000000000{quarter}a": quarter * day / 4 for quarter in range(4)}
    ages |= {f"boomboard.core.layout-00000000000000{age}0": age * day for age in range(2, 5)}
    ages |= {"boomboard.core.steps-0000000000000009": 9 * day, "boomboard-0000000000000009": 9 * day}
    now = time.time()
    for name, age in ages.items():
        (cache / name).mkdir(parents=True)
        os.utime(cache / name, (now - age, now - age))
    made = run(NEW_VERSION, NUMBA_CACHE_DIR=str(cache))["folder"]
    assert made not in ages
    kept = {path.name for path in cache.iterdir()}
    layouts = sorted((name for name in ages if name.startswith("boomboard.core.layout-")), key=ages.get)
    recent = {name for name in layouts if ages[name] < day}
    assert len(recent) == 4 and kept == {made, *layouts[:3], *recent, "boomboard.core.steps-0000000000000009"}
