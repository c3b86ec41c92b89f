"""The web layer's cascade steps replay each game's rules; their last picture
must be the engine's own result, on every action of many random games."""

from __future__ import annotations

import random

import pytest

import boomboard
from boomboard.web.cascade import MAX_STEPS, cascade_steps
from boomboard.web.geometry import cell_contents, layout, move_gestures

GAMES = ["expendibots", "jump61(size=3)", "jump61(size=5)", "kaboom", "kaboom(rows=5,cols=6,bombs=4)",
         "kaboom(superbomb=true,bombs=3)", "explocus(size=4)", "explocus", "hexplocus(side=3)", "hexplocus"]


@pytest.mark.parametrize("game_string", GAMES)
def test_the_last_step_is_the_engines_board(game_string):
    game = boomboard.load_game(game_string)
    rng = random.Random(game_string)
    names = set(layout(game).names)
    exploded = 0
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal() and state.ply() < 300:
            action = rng.choice(state.legal_actions())
            steps = cascade_steps(game, state.array, action)
            state.apply_action(action)
            assert steps[-1]["cells"] == cell_contents(game, state.array), (game_string, state.history())
            assert all(set(step["flash"]) <= names for step in steps)
            exploded += len(steps) > 1
    assert exploded > 0  # the random games did set off explosions


def test_a_jump61_cascade_shows_each_jump_in_order():
    game = boomboard.load_game("jump61(size=2)")
    state = game.new_initial_state()
    for move in ["1 1", "2 2", "1 1"]:  # red's corner reaches 3 spots: it jumps
        before = state.array.copy()
        state.play(move)
    steps = cascade_steps(game, before, game.new_initial_state().string_to_action("1 1"))
    assert [step["flash"] for step in steps] == [["1 1"], ["1 1"]]
    assert steps[0]["cells"][0] == [0, "3", ""]  # the spot lands, then the square jumps
    assert steps[-1]["cells"] == cell_contents(game, state.array)


def test_every_legal_move_has_one_gesture_and_gestures_are_distinct():
    for name in boomboard.game_names():
        state = boomboard.load_game(name).new_initial_state()
        gestures = move_gestures(state)
        assert [g["id"] for g in gestures] == state.legal_actions()
        keys = [(g["kind"], g["from"], g["to"], g["count"]) for g in gestures]
        assert len(set(keys)) == len(keys), name  # clicks always tell the moves apart


def test_a_long_cascade_is_shown_in_at_most_max_steps_pictures():
    game = boomboard.load_game("jump61(size=8)")
    rng = random.Random(8)
    merged = False
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            steps = cascade_steps(game, state.array, action)
            state.apply_action(action)
            assert len(steps) <= MAX_STEPS
            merged |= any(len(step["flash"]) > 1 for step in steps)  # a Jump61 jump lights one square
            assert steps[-1]["cells"] == cell_contents(game, state.array)
    assert merged  # some cascades were long enough to be shown in runs


def test_winning_lines_are_found_in_every_direction():
    from boomboard.web.geometry import winning_lines

    game = boomboard.load_game("kaboom(rows=3,cols=3,connect=3,bombs=0)")
    diagonal = game.state_from_notation("(o 0 0 xoo oxx --x)")
    assert diagonal.is_terminal() and winning_lines(diagonal) == ["A1", "B2", "C3"]
    misere = boomboard.load_game("kaboom(rows=3,cols=3,connect=3,bombs=0,misere=true)")
    column = misere.state_from_notation("(o 0 0 xoo x-- x--)")
    assert column.outcome().winner == 1 and winning_lines(column) == ["A1", "A2", "A3"]  # X connected, and lost
    assert winning_lines(game.new_initial_state()) == []
