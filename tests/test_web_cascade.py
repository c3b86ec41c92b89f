"""The web layer's cascade steps come from each game's compiled step recorder
(``apply_action_steps``, the same code as ``apply_action``); their last
picture must be the engine's own result, on every action of many random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boomboard
from boomboard.web.cascade import MAX_STEPS, cascade_steps, record_steps
from boomboard.web.geometry import cell_contents, layout, move_gestures

GAMES = ["expendibots", "jump61(size=3)", "jump61(size=5)", "kaboom", "kaboom(rows=5,cols=6,bombs=4)",
         "kaboom(superbomb=true,bombs=3)", "explocus(size=4)", "explocus", "hexplocus(side=3)", "hexplocus",
         "chain_reaction(rows=3,cols=3)", "chain_reaction(rows=5,cols=4)", "chain_reaction"]


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


@pytest.mark.parametrize("game_string", ["kaboom(rows=6,cols=7,bombs=10)", "expendibots", "explocus(size=4)",
                                         "chain_reaction(rows=4,cols=4)"])
def test_the_recorder_plays_the_action_exactly_as_apply_action_does(game_string):
    game = boomboard.load_game(game_string)
    rng = random.Random(7)
    state = game.new_initial_state()
    while not state.is_terminal() and state.ply() < 120:
        action = rng.choice(state.legal_actions())
        played = state.array.copy()
        steps = record_steps(game, played, action)
        recorded = played.copy()
        game.kernels.apply_action_steps(recorded, game.params_array, action,
                                        np.empty((0, len(played)), np.int32), np.empty((0, 1), np.int32))
        state.apply_action(action)
        assert np.array_equal(recorded, state.array)  # header included: ply, player, result
        assert steps and all(len(step) == len(played) for step, _ in steps)


def test_a_kaboom_chain_goes_off_wave_by_wave():
    game = boomboard.load_game("kaboom(rows=4,cols=4,bombs=4)")
    # X's bomb on A1 sets off O's bomb on B1, which sets off X's bomb on C1; D1's piece goes last
    state = game.state_from_notation("(x 2 3 *@*o ---- ---- ----)")
    action = state.string_to_action("A1!")
    steps = cascade_steps(game, state.array, action)
    assert [sorted(step["flash"]) for step in steps] == [["A1", "B1"], ["B1", "C1"], ["C1", "D1"], []]
    state.apply_action(action)
    assert steps[-1]["cells"] == cell_contents(game, state.array)


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


def test_a_chain_reaction_cascade_goes_off_wave_by_wave_and_stops_at_the_wipe_out():
    game = boomboard.load_game("chain_reaction(rows=2,cols=2)")
    state = game.new_initial_state()
    for move in ["a1", "b2", "b1"]:
        state.play(move)
    before = state.array.copy()
    # Green's b2 reaches 2 orbs: it explodes onto b1 (now 2 green) and a2; b1 explodes
    # in the second wave onto a1, Red's last orb, and b2: Red is wiped out, a1 keeps 2.
    steps = cascade_steps(game, before, state.string_to_action("b2"))
    assert [step["flash"] for step in steps] == [["b2"], ["b2"], ["b1"]]
    assert steps[0]["cells"][3] == [1, "2", ""]  # the orb lands, then the waves go off
    state.play("b2")
    assert state.outcome().winner == 1 and steps[-1]["cells"] == cell_contents(game, state.array)
    assert steps[-1]["cells"] == [[1, "2", ""], [None, "", ""], [1, "1", ""], [1, "1", ""]]


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
