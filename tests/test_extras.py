"""The engine stands alone: without any optional stack (web, plot, learn,
ray, openspiel, pettingzoo) the games, the agents, the solver and the arena
work, and every feature of a missing stack says in one line which extra to
install.

The optional packages are hidden from a subprocess (and from the processes
it starts) by a ``sitecustomize`` module that refuses to import them, so
these tests run in the fully installed test environment too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

import boomboard
from boomboard.core.extras import EXTRA_MODULES, missing_modules, require_extra
from boomboard.core.errors import MissingExtraError

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
OPTIONAL = tuple(EXTRA_MODULES)
# Each extra's own modules, and what only they pull in (the web stack's starlette and pydantic, OpenSpiel's
# Python package): the core must not import any of them.
HIDDEN = sorted({module for modules in EXTRA_MODULES.values() for module in modules}
                | {"starlette", "pydantic", "open_spiel"})

SITECUSTOMIZE = f"""
import sys

HIDDEN = {set(HIDDEN)!r}


class HideOptionalStacks:
    '''Refuses the optional stacks' modules, as if they were not installed.'''

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {{name!r}} (hidden by the test)", name=name)
        return None


sys.meta_path.insert(0, HideOptionalStacks)
"""


@pytest.fixture(scope="module")
def bare_env(tmp_path_factory):
    """The environment of a process that sees none of the optional stacks."""
    folder = tmp_path_factory.mktemp("bare")
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE)
    path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "80", "TERM": "dumb"}


def run_python(env: dict, script: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=900, env=env)


def run_cli(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "boomboard", *args], capture_output=True, text=True, timeout=900,
                          env=env)


def test_the_hiding_works(bare_env):
    done = run_python(bare_env, f"""
        import importlib, json
        refused = []
        for name in {HIDDEN!r}:
            try:
                importlib.import_module(name)
            except ModuleNotFoundError:
                refused.append(name)
        print(json.dumps(refused))
    """)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == HIDDEN


def test_the_engine_agents_and_solver_work_without_any_extra(bare_env, tmp_path):
    done = run_python(bare_env, f"""
        import json, random, sys
        import boomboard
        from boomboard import solver
        from boomboard.agents import make_agent

        played = {{}}
        for name in boomboard.game_names():
            state = boomboard.load_game(name).new_initial_state()
            rng = random.Random(1)
            moves = 0
            while not state.is_terminal() and moves < 400:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
            played[name] = moves
        state = boomboard.load_game("kaboom").new_initial_state()
        move = make_agent("alphabeta:depth=2").choose_action(state)
        game = boomboard.load_game("kaboom(rows=2,cols=3,connect=2)")
        table = solver.solve(game, db={str(tmp_path)!r}, progress=False, settings=solver.SolveSettings(method="memory"))
        start = solver.analyze(game.new_initial_state(), db={str(tmp_path)!r})
        hidden = sorted(name for name in {HIDDEN!r} if name in sys.modules)
        print(json.dumps({{"played": played, "legal": move in state.legal_actions(),
                          "positions": table.meta["positions"], "value": start.value, "loaded": hidden}}))
    """)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert sorted(result["played"]) == sorted(boomboard.game_names())
    assert all(moves > 0 for moves in result["played"].values())
    assert result["legal"] is True
    assert result["positions"] > 0 and result["value"] in ("win", "lose", "tie", "draw")
    assert result["loaded"] == []


def test_the_terminal_commands_work_without_any_extra(bare_env, tmp_path):
    done = run_cli(bare_env, "games")
    assert done.returncode == 0, done.stderr
    assert "kaboom" in done.stdout and "expendibots" in done.stdout
    done = run_cli(bare_env, "match", "kaboom", "random:seed=1", "random:seed=2", "--games", "2",
                   "--db", str(tmp_path / "arena.sqlite3"))
    assert done.returncode == 0, done.stderr
    assert "2/2 games" in done.stdout


# Each optional feature the command line offers, and the extra it needs; each is refused before any game is played.
MISSING_ON_THE_COMMAND_LINE = [
    (["serve"], "boomboard serve", "web"),
    (["train", "kaboom", "--out", "{tmp}/run", "--iterations", "1"], "boomboard train", "learn"),
    (["match", "kaboom", "learned", "random", "--games", "2", "--db", "{tmp}/arena.sqlite3"],
     "the learned agent", "learn"),
    (["match", "kaboom", "random:seed=1", "random:seed=2", "--backend", "ray", "--db", "{tmp}/arena.sqlite3"],
     "--backend ray", "ray"),
    (["tournament", "kaboom", "random:seed=1", "random:seed=2", "--chart", "{tmp}/elo.png",
      "--db", "{tmp}/arena.sqlite3"], "--chart", "plot"),
]


@pytest.mark.parametrize("args, feature, extra", MISSING_ON_THE_COMMAND_LINE,
                         ids=[feature for _, feature, _ in MISSING_ON_THE_COMMAND_LINE])
def test_a_missing_extra_on_the_command_line_is_one_line_and_exit_2(bare_env, tmp_path, args, feature, extra):
    done = run_cli(bare_env, *(arg.format(tmp=tmp_path) for arg in args))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout.splitlines() == [f"error: {feature} needs the {extra} extra: pip install 'boomboard[{extra}]' "
                                        f"(from a clone: scripts/setup {extra})"]
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "run").exists()  # train refuses before making its run folder


def test_the_solver_picture_without_the_plot_extra_says_so(bare_env, tmp_path):
    db = str(tmp_path)
    assert run_cli(bare_env, "solve", "kaboom", "--rows", "2", "--cols", "3", "--connect", "2", "--db", db,
                   "--quiet").returncode == 0
    done = run_cli(bare_env, "analyze", "kaboom", "--rows", "2", "--cols", "3", "--connect", "2", "--db", db,
                   "--picture", str(tmp_path / "moves.png"))
    assert done.returncode == 2
    assert done.stdout.splitlines() == ["error: the solver's move picture needs the plot extra: "
                                        "pip install 'boomboard[plot]' (from a clone: scripts/setup plot)"]
    assert "Traceback" not in done.stderr


def test_every_optional_entry_point_of_the_python_api_raises_the_one_error(bare_env, tmp_path):
    done = run_python(bare_env, """
        import importlib, json
        import boomboard
        from boomboard.agents import make_agent
        from boomboard.arena.chart import rating_chart
        from boomboard.vector import VectorEnv

        def error_of(call):
            try:
                call()
            except boomboard.MissingExtraError as error:
                assert isinstance(error, ImportError) and error.__suppress_context__
                return [error.extra, str(error)]
            return None

        found = {name: error_of(lambda: importlib.import_module(name)) for name in (
            "boomboard.openspiel", "boomboard.pettingzoo", "boomboard.learn.network",
            "boomboard.learn.search", "boomboard.learn.selfplay", "boomboard.learn.train")}
        # the web package's parts the commands use load without the extra; its app does not
        found["boomboard.web"] = error_of(lambda: importlib.import_module("boomboard.web").create_app)
        found["learned"] = error_of(lambda: make_agent("learned"))
        found["chart"] = error_of(lambda: rating_chart([], "chart.png"))
        found["space"] = error_of(lambda: VectorEnv("kaboom", 2).observation_space)
        from boomboard.core.ray_support import start_ray
        found["ray"] = error_of(start_ray)
        print(json.dumps(found))
    """)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    expected = {"boomboard.web": "web", "boomboard.openspiel": "openspiel", "boomboard.pettingzoo": "pettingzoo",
                "boomboard.learn.network": "learn", "boomboard.learn.search": "learn",
                "boomboard.learn.selfplay": "learn", "boomboard.learn.train": "learn", "learned": "learn",
                "chart": "plot", "space": "pettingzoo", "ray": "ray"}
    assert {key: value[0] for key, value in found.items() if value} == expected
    for extra, message in found.values():
        assert "\n" not in message and message.endswith(f"pip install 'boomboard[{extra}]' "
                                                        f"(from a clone: scripts/setup {extra})")


def test_an_installed_extra_passes_and_a_missing_module_is_named(monkeypatch):
    require_extra("plot", "a chart")  # the test environment has every extra
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert missing_modules("web") == ("uvicorn",)
    with pytest.raises(MissingExtraError) as raised:
        require_extra("web", "boomboard serve")
    assert raised.value.extra == "web" and raised.value.missing == ("uvicorn",)
    require_extra("web", "a part that needs only fastapi", modules=("fastapi",))
    with pytest.raises(ValueError, match="not modules of the web extra"):
        require_extra("web", "a typo", modules=("fastapy",))


def test_the_web_page_says_a_learned_model_ships_and_which_extra_it_needs(monkeypatch, tmp_path):
    pytest.importorskip("fastapi")
    import importlib.util

    from fastapi.testclient import TestClient

    from boomboard.learn.checkpoint import packaged_model
    from boomboard.web import WebSettings, create_app

    shipped = "kaboom(rows=4,cols=4,connect=4,bombs=1,misere=false,superbomb=false)"
    assert packaged_model(str(boomboard.load_game(shipped))) is not None and packaged_model("jump61") is None
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "jax" else real(name, *a))
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        answer = client.get("/api/learned", params={"game": shipped}).json()
        assert answer["model"] is False and answer["ships"] is True
        assert answer["needs"] == ("the learned player needs the learn extra: pip install 'boomboard[learn]' "
                                   "(from a clone: scripts/setup learn)")
        assert client.get("/api/learned", params={"game": "jump61"}).json() == {
            "model": False, "ships": False, "needs": None}
    script = (Path(boomboard.__file__).parent / "web" / "static" / "app.js").read_text()
    assert "a model ships for this game; ${needs}" in script  # the page shows that line in the side's option


def _requirement_name(requirement: str) -> str:
    """``'pettingzoo[classic]>=1.24'`` -> ``'pettingzoo'``."""
    for stop in "[<>=!~; ":
        requirement = requirement.split(stop, 1)[0]
    return requirement.strip().lower().replace("_", "-")


def test_pyproject_requires_none_of_the_optional_stacks():
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    extras = project["optional-dependencies"]
    assert set(OPTIONAL) <= set(extras), "every extra boomboard checks for is one pip knows"
    optional = {_requirement_name(r) for extra in OPTIONAL for r in extras[extra]} - {"boomboard"}
    required = {_requirement_name(r) for r in project["dependencies"]}
    assert optional and not optional & required
    assert extras["all"] == [f"boomboard[{','.join(OPTIONAL)}]"]
    assert "boomboard[all]" in extras["test"]


def test_the_serve_script_installs_the_web_extra_and_the_test_script_the_test_extra():
    scripts = PYPROJECT.parent / "scripts"
    assert "scripts/setup web" in (scripts / "serve").read_text()
    assert "scripts/setup test" in (scripts / "test").read_text()
