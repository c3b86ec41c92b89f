"""The shared game API, checked the same way on every game and some variants."""

from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest

import boomboard
from boomboard.core.state import TERMINAL_PLAYER

GAMES = [
    "expendibots",
    "jump61",
    "jump61(size=3)",
    "kaboom",
    "kaboom(cols=5,misere=true,rows=5,superbomb=true)",
    "explocus",
    "explocus(size=5)",
    "hexplocus",
    "hexplocus(side=3)",
]


def random_state(game, plies: int, seed: int):
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.fixture(params=GAMES)
def game(request):
    return boomboard.load_game(request.param)


def test_game_string_names_the_game_and_reloads(game):
    assert boomboard.load_game(str(game)) is game
    assert str(game).split("(")[0] in boomboard.game_names()


def test_initial_state_metadata(game):
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert not state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.history() == []
    assert game.num_players() == 2
    assert game.max_game_length() > 0


def test_legal_actions_are_sorted_unique_and_within_range(game):
    for seed in range(5):
        state = random_state(game, 10 + seed * 7, seed)
        legal = state.legal_actions()
        assert legal == sorted(set(legal))
        assert all(0 <= a < game.num_distinct_actions() for a in legal)
        mask = state.legal_actions_mask()
        assert mask.shape == (game.num_distinct_actions(),)
        assert np.flatnonzero(mask).tolist() == legal


def test_action_strings_round_trip(game):
    state = random_state(game, 6, 1)
    for action in state.legal_actions():
        assert state.string_to_action(state.action_to_string(action)) == action


def test_child_leaves_parent_unchanged_and_clone_is_independent(game):
    state = random_state(game, 4, 2)
    before = state.to_notation()
    action = state.legal_actions()[-1]
    child = state.child(action)
    assert state.to_notation() == before
    assert child.history() == state.history() + [action]
    twin = state.clone()
    twin.apply_action(action)
    assert state.to_notation() == before and twin == child


def test_pickle_copy_and_serialize_preserve_state_and_history(game):
    state = random_state(game, 12, 3)
    for restored in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state),
                     game.deserialize_state(state.serialize())):
        assert restored == state
        assert restored.history() == state.history()
        assert restored.legal_actions() == state.legal_actions()
        assert restored.repetitions() == state.repetitions()


def test_serialize_is_one_json_line_naming_the_game(game):
    record = json.loads(random_state(game, 3, 4).serialize())
    assert record["game"] == str(game)
    assert len(record["actions"]) == 3


def test_notation_round_trip_keeps_position(game):
    state = random_state(game, 9, 5)
    loaded = game.state_from_notation(state.to_notation())
    assert loaded == state
    assert loaded.legal_actions() == state.legal_actions()


def test_equal_positions_hash_equal_and_differ_after_a_move(game):
    state = random_state(game, 5, 6)
    assert hash(state.clone()) == hash(state)
    assert {state, state.clone()} == {state}
    assert state.child(state.legal_actions()[0]) != state


def test_undo_restores_earlier_positions(game):
    rng = random.Random(7)
    state = game.new_initial_state()
    seen = [state.clone()]
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    state.undo(2)
    assert state == seen[-3] and state.history() == seen[-3].history()
    state.undo(4)
    assert state == seen[0] and state.history() == []
    with pytest.raises(boomboard.IllegalActionError):
        state.undo(1)


def test_str_draws_the_board_with_a_caption(game):
    text = str(game.new_initial_state())
    assert len(text.splitlines()) >= 3


def test_illegal_and_malformed_actions_are_refused_with_the_legal_list(game):
    state = random_state(game, 1, 0)  # every Jump61 square is legal at the start
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(boomboard.IllegalActionError, match="legal"):
        state.apply_action(illegal)
    with pytest.raises(boomboard.IllegalActionError):
        state.apply_action("not an id")
    with pytest.raises(boomboard.NotationError):
        state.string_to_action("%%% nonsense %%%")
    with pytest.raises(boomboard.NotationError):
        game.state_from_notation("%%% nonsense %%%")


def test_finished_game_has_no_actions_and_refuses_more(game):
    rng = random.Random(8)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []
    assert state.current_player() == TERMINAL_PLAYER
    outcome = state.outcome()
    assert outcome is not None
    assert state.returns() == outcome.returns() and sum(state.returns()) == 0
    with pytest.raises(boomboard.GameOverError):
        state.apply_action(0)
    assert len(state.history()) <= game.max_game_length()


def test_bad_parameters_are_refused():
    with pytest.raises(boomboard.ParameterError, match="unknown parameter"):
        boomboard.load_game("kaboom", depth=3)
    with pytest.raises(boomboard.ParameterError):
        boomboard.load_game("kaboom(rows=zero)")
    with pytest.raises(boomboard.UnknownGameError, match="known games"):
        boomboard.load_game("chess")


def test_registry_lists_every_game_with_parameters():
    infos = {info.name: info for info in boomboard.registered_games()}
    assert set(infos) == {"expendibots", "jump61", "kaboom", "explocus", "hexplocus", "chain_reaction"}
    kaboom = {p.name: p.default for p in infos["kaboom"].parameters}
    assert kaboom == {"rows": 4, "cols": 4, "connect": 4, "bombs": 1, "misere": False, "superbomb": False}
    assert {p.name for p in infos["jump61"].parameters} == {"size"}
