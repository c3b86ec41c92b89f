"""Core pieces that need no game: parameters, game strings, outcomes, agents."""

import pytest

from boomboard.agents import RandomAgent, make_agent, parse_spec
from boomboard.core import Outcome, Parameter, ParameterError, Reason
from boomboard.core.layout import PLAYER, PLY, REASON, STATUS, record_position
from boomboard.core.params import game_string, parse_game_string, resolve

import numpy as np

SIZE = Parameter("size", 6, "board size", minimum=2, maximum=10)
FLAG = Parameter("misere", False, "misère")
MODE = Parameter("setup", "standard", "setup", choices=("standard", "empty"))


def test_parse_game_string_splits_name_and_values():
    assert parse_game_string("Kaboom( rows = 5, misere=true )") == ("kaboom", {"rows": "5", "misere": "true"})
    assert parse_game_string("jump61") == ("jump61", {})
    with pytest.raises(ParameterError, match="key=value"):
        parse_game_string("kaboom(rows)")
    with pytest.raises(ParameterError):
        parse_game_string("kaboom(rows=4")
    with pytest.raises(ParameterError, match="'rows' is given twice"):
        parse_game_string("kaboom(rows=4, rows=5)")


def test_resolve_coerces_and_checks_ranges():
    params = (SIZE, FLAG, MODE)
    assert resolve(params, {"size": "7", "misere": "yes"}) == {"size": 7, "misere": True, "setup": "standard"}
    for bad in ({"size": "1"}, {"size": 11}, {"size": 2.5}, {"misere": "maybe"}, {"setup": "odd"}, {"other": 1}):
        with pytest.raises(ParameterError):
            resolve(params, bad)


def test_game_string_lists_only_changed_parameters_in_declared_order():
    params = (SIZE, FLAG)
    assert game_string("g", params, {"size": 6, "misere": False}) == "g"
    assert game_string("g", params, {"size": 4, "misere": True}) == "g(size=4,misere=true)"


# A game's own end reason, as a game declares it (its end_reasons).
NO_TOKENS = Reason(1, "NO_TOKENS", "the opponent has no tokens left")


def test_outcome_describes_and_scores():
    win = Outcome(winner=1, reason=NO_TOKENS)
    assert win.returns() == [-1.0, 1.0] and win.kind == "win"
    assert win.describe(("white", "black")) == "Black wins: the opponent has no tokens left"
    tie = Outcome(winner=None, reason=Reason.REPETITION)
    assert tie.returns() == [0.0, 0.0] and tie.kind == "tie"
    assert "4th" in tie.describe(("white", "black"))


def _state(ply=0):
    s = np.zeros(8, np.int32)
    s[PLY] = ply
    return s


def test_fourth_occurrence_ties_and_third_does_not():
    keys = np.zeros(10, np.uint64)
    s = _state()
    n = 0
    for key in (7, 9, 7, 9, 7):  # 7 occurs a 3rd time
        n = record_position(s, keys, n, np.uint64(key), 4, 0)
    assert s[STATUS] == 0
    n = record_position(s, keys, n, np.uint64(9), 4, 0)  # 9 a 3rd time
    assert s[STATUS] == 0
    record_position(s, keys, n, np.uint64(7), 4, 0)  # 7 a 4th time
    assert (s[STATUS], s[REASON]) == (3, Reason.REPETITION)


def test_action_limit_ties_only_when_reached_and_after_a_result():
    keys = np.zeros(4, np.uint64)
    s = _state(ply=499)
    record_position(s, keys, 0, np.uint64(1), 4, 500)
    assert s[STATUS] == 0
    s = _state(ply=500)
    record_position(s, keys, 0, np.uint64(1), 4, 500)
    assert (s[STATUS], s[REASON]) == (3, Reason.TURN_LIMIT)
    s = _state(ply=500)
    s[STATUS], s[REASON], s[PLAYER] = 1, NO_TOKENS, 1  # the game's own result comes first
    record_position(s, keys, 0, np.uint64(1), 4, 500)
    assert (s[STATUS], s[REASON]) == (1, NO_TOKENS)


def test_agent_specs():
    assert parse_spec("Random:seed=4") == ("random", {"seed": "4"})
    agent = make_agent("random:seed=4")
    assert isinstance(agent, RandomAgent) and agent.seed == 4
    for bad in ("nosuch", "random:seed", "random:depth=3", "human"):
        with pytest.raises(ParameterError):
            make_agent(bad)


def test_board_key_tells_apart_owner_height_cell_and_player():
    from boomboard.core.layout import board_key

    rng = np.random.default_rng(5)
    boards = {}
    for _ in range(2000):
        board = rng.integers(-3, 4, size=12).astype(np.int32)
        player = int(rng.integers(2))
        boards[(board.tobytes(), player)] = board_key(board, 0, 12, player)
    assert len(set(boards.values())) == len(boards)
    board = np.array([0, 2, -1, 0], np.int32)
    key = board_key(board, 0, 4, 0)
    assert key != board_key(board, 0, 4, 1)
    assert key != board_key(np.array([0, -2, -1, 0], np.int32), 0, 4, 0)  # owner
    assert key != board_key(np.array([0, 3, -1, 0], np.int32), 0, 4, 0)  # height
    assert key != board_key(np.array([2, 0, -1, 0], np.int32), 0, 4, 0)  # cell
    assert key == board_key(np.array([9, 0, 2, -1, 0], np.int32), 1, 4, 0)  # only its slice counts
