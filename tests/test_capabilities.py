"""The game contract by capability (boomboard.core.contract.CAPABILITIES): a
game that provides the engine alone (tests/engine_only_game, Popline)
registers, passes the shared engine tests, plays in the terminal and the
arena; each consumer of a capability it lacks says so in one line."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import boomboard
from boomboard import registry
from boomboard.agents import make_agent
from boomboard.core.capabilities import (CAPABILITIES, DECLARED, ENGINE, KERNELS, LEARNING, PLAY, SEARCH,
                                         capabilities_of, provides)
from boomboard.core.contract import CONTRACT, KERNEL, REQUIRED, check_game
from boomboard.core.errors import IllegalActionError, MissingCapabilityError
from boomboard.core.perft import compiled_perft
from differential import play_random_games
from reference.popline import Popline

TESTS = Path(__file__).resolve().parent
SOURCE = Path(boomboard.__file__).resolve().parents[1]  # the boomboard under test, for a child process
POPLINE = "engine_only_game.game:PoplineGame"


@pytest.fixture
def popline(monkeypatch):
    """Popline registered for one test (the registry's tables copied, then restored)."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_CHECKED", set(registry._CHECKED))
    registry.register_game("popline", POPLINE)
    return boomboard.load_game("popline")


def test_an_engine_only_game_keeps_the_contract_and_declares_nothing_more(popline):
    assert check_game(type(popline)) == []
    assert capabilities_of(popline) == (ENGINE,)
    assert not any(provides(popline, capability) for capability in DECLARED)
    folder = Path(popline.rules.__file__).parent
    assert sorted(p.name for p in folder.glob("*.py")) == ["__init__.py", "game.py", "kernels.py", "rules.py"]


def test_every_item_belongs_to_a_capability_and_the_engine_needs_no_consumer_s_items():
    assert {item.capability for item in CONTRACT} == set(CAPABILITIES)
    assert set(KERNELS) <= {item.name for item in CONTRACT if item.where == KERNEL}
    engine = {item.name for item in CONTRACT if item.capability == ENGINE and item.need == REQUIRED}
    for consumer_item in ("board_view", "presentation", "evaluate", "apply_action_steps", "encode_observation",
                          "geometry.py", "observation.py", "rules.md", "PLANES"):
        assert consumer_item not in engine


def test_the_engine_only_game_agrees_with_its_reference_in_random_games(popline):
    endings = play_random_games(popline, Popline(), n_games=60, seed=7)
    assert endings.get("0:WIPED_OUT", 0) and endings.get("1:WIPED_OUT", 0), endings


def test_compiled_perft_counts_what_the_reference_counts(popline):
    reference = Popline()

    def count(position, depth):
        if depth == 0:
            return 1
        return sum(count(reference.play(position, move), depth - 1) for move in reference.legal(position))

    state = popline.new_initial_state()
    assert [compiled_perft(state, depth) for depth in range(1, 6)] == [count(reference.initial(), d) for d in range(1, 6)]


def test_positions_round_trip_through_the_notation(popline):
    state = popline.new_initial_state()
    for move in ("1", "6", "1", "5", "2"):
        state.apply_action(state.string_to_action(move))
        again = popline.state_from_notation(state.to_notation())
        assert again.to_notation() == state.to_notation()
        assert again.legal_actions() == state.legal_actions()


def test_a_declared_capability_of_an_unknown_name_is_refused():
    class Telepathic(type(boomboard.load_game("kaboom"))):
        capabilities = ("search", "play", "learning", "telepathy")

    assert any("unknown 'telepathy'" in problem for problem in check_game(Telepathic))


@pytest.mark.parametrize("consumer, capability", [
    (lambda game: make_agent("alphabeta:depth=2").new_game(game, 0), SEARCH),
    (lambda game: game.geometry(), PLAY),
    (lambda game: __import__("boomboard.observation", fromlist=["x"]).observation_layout(game), LEARNING),
    (lambda game: game.new_initial_state().board_view(), PLAY),
])
def test_each_consumer_of_a_missing_capability_says_so_in_one_line(popline, consumer, capability):
    with pytest.raises(MissingCapabilityError) as refused:
        consumer(popline)
    message = str(refused.value)
    assert "\n" not in message
    assert f"Popline does not provide the {capability} capability" in message


def test_the_web_app_lists_no_engine_only_game_and_refuses_to_start_one(popline, tmp_path):
    from fastapi.testclient import TestClient

    from boomboard.web import WebSettings, create_app

    with TestClient(create_app(tmp_path / "games.db", WebSettings(workers=0))) as client:
        names = [game["name"] for game in client.get("/api/catalog").json()["games"]]
        assert "popline" not in names and "kaboom" in names
        refused = client.post("/api/games", json={"game": "popline", "players": ["human", "random"]})
        assert refused.status_code == 400
        assert "does not provide the play capability" in refused.json()["error"]


PLAY_IN_TERMINAL = """
import sys
from boomboard import registry
registry.register_game("popline", "engine_only_game.game:PoplineGame")
from boomboard.cli.main import main
sys.argv = ["boomboard", "play", "popline", "--x", "human", "--o", "human"]
main()
"""


def test_an_engine_only_game_plays_in_the_terminal_by_its_notation():
    reference, rng = Popline(), random.Random(5)
    position, moves = reference.initial(), []
    while reference.result(position) is None:
        moves.append(rng.choice(reference.legal(position)))
        position = reference.play(position, moves[-1])
    done = subprocess.run([sys.executable, "-c", PLAY_IN_TERMINAL], input="\n".join(moves) + "\n", capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": f"{TESTS}:{SOURCE}", "COLUMNS": "100"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert ". . . . . . / x  (x to move)" in done.stdout  # the start, shown by its notation
    assert reference.to_notation(position) in done.stdout  # the last position
    winner = reference.result(position)[0]
    assert f"{'XO'[winner]} wins" in done.stdout


def test_an_illegal_move_is_named_as_it_was_typed(popline):
    state = popline.state_from_notation("x1 . o1 . . . / x")
    with pytest.raises(IllegalActionError, match=r"^3 \(action 2\) is not legal here; legal actions: 1, 2, 4, 5, 6$"):
        state.apply_action(2)


def test_an_engine_only_game_plays_in_the_arena(popline):
    from boomboard.arena.referee import Limits, play_game

    result = play_game("popline", ["random:seed=1", "random:seed=2"], Limits(move_wall=60), seed=4)
    assert result.winner in (0, 1) and "no orbs left" in result.reason
    replayed = popline.new_initial_state()
    for action in result.actions:
        replayed.apply_action(action)
    assert replayed.outcome().winner == result.winner
