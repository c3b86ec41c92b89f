"""Every rule of Kaboom (rulebook section 3) as a test, each on a position
where the rule decides something. Positions are in the GamesCrafters form,
rows bottom first: ``(P xb ob ROW1 ROW2 ...)``."""

from __future__ import annotations

import random

import pytest

import boomboard
from boomboard import GameOverError, IllegalActionError, ParameterError
from boomboard.core.state import TERMINAL_PLAYER
from boomboard.games.kaboom import KaboomGame

REASONS = KaboomGame.end_reasons

POSITION_9 = "(o 0 1 xoxx --*o --oo --x-)"
POSITION_14 = "(x 0 0 xoxx o@*o -ooo -xxx)"


def load(text, **params):
    return boomboard.load_game("kaboom", **params).state_from_notation(text)


def after(text, *moves, **params):
    """The state after playing ``moves`` (notation) from position ``text``."""
    state = load(text, **params)
    for move in moves:
        state.play(move)
    return state


def moves(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def result(state):
    outcome = state.outcome()
    return None if outcome is None else (outcome.winner, outcome.reason)


# -- board, start and parameters ------------------------------------------------------
def test_the_default_is_the_seed_example_4x4_connect_4_one_bomb_each():
    game = boomboard.load_game("kaboom")
    assert game.get_parameters() == {"rows": 4, "cols": 4, "connect": 4, "bombs": 1,
                                     "misere": False, "superbomb": False}
    state = game.new_initial_state()
    assert state.to_notation() == "(x 1 1 ---- ---- ---- ----)"
    assert state.current_player() == 0 and game.player_names[0] == "x"  # X moves first
    assert moves(state) == ["A", "B", "C", "D", "A*", "B*", "C*", "D*"]


def test_other_board_sizes_and_bomb_counts():
    state = boomboard.load_game("kaboom", rows=2, cols=5, connect=5, bombs=0).new_initial_state()
    assert state.to_notation() == "(x 0 0 ----- -----)"
    assert moves(state) == ["A", "B", "C", "D", "E"]  # no bombs: no bomb drops
    state = boomboard.load_game("kaboom", rows=3, cols=2, connect=3, bombs=3).new_initial_state()
    assert moves(state) == ["A", "B", "A*", "B*"]


def test_parameters_that_make_no_game_are_refused():
    with pytest.raises(ParameterError, match="at most max"):
        boomboard.load_game("kaboom", rows=3, cols=3, connect=4)
    with pytest.raises(ParameterError, match="rows \\* cols"):
        boomboard.load_game("kaboom", rows=2, cols=2, connect=2, bombs=5)
    for bad in ({"rows": 0}, {"cols": 13}, {"connect": 0}, {"bombs": -1}):
        with pytest.raises(ParameterError):
            boomboard.load_game("kaboom", **bad)


# -- drops --------------------------------------------------------------------------
def test_a_piece_falls_to_the_lowest_empty_cell_of_its_column():
    state = after("(x 1 1 ---- ---- ---- ----)", "C", "C", "C")
    assert state.to_notation() == "(o 1 1 --x- --o- --x- ----)"
    assert state.cell("C3") == "x" and state.cell("C4") is None


def test_a_full_column_takes_no_more():
    state = load("(x 1 1 o--- x--- o--- x---)")
    assert "A" not in moves(state) and "A*" not in moves(state)
    with pytest.raises(IllegalActionError, match="column A is full"):
        state.play("A")


def test_a_bomb_is_dropped_from_the_hand_and_falls_like_a_piece():
    state = after("(x 1 1 -x-- ---- ---- ----)", "B*")
    assert state.to_notation() == "(o 0 1 -x-- -*-- ---- ----)"
    assert state.bombs_in_hand(0) == 0 and state.bombs_on_board(0) == 1
    state.play("A")
    assert "A*" not in moves(state)  # X's only bomb is on the board now
    assert moves(state) == ["A", "B", "C", "D", "B2!"]
    with pytest.raises(IllegalActionError, match="no bombs left"):
        state.play("C*")


# -- detonation -----------------------------------------------------------------------
def test_only_own_bombs_can_be_detonated_and_at_any_time():
    state = load("(x 0 0 *@-- ---- ---- ----)")
    assert moves(state) == ["A", "B", "C", "D", "A1!"]
    with pytest.raises(IllegalActionError, match="O's bomb"):
        state.play("B1!")
    with pytest.raises(IllegalActionError, match="no X bomb"):
        state.play("C1!")


def test_a_detonation_removes_the_bomb_and_its_orthogonal_neighbours_only():
    # B2's neighbours A2, C2, B1, B3 go; the diagonal A1, C1, A3, C3 stay,
    # and A4 and C4 fall onto them.
    state = after("(x 0 1 oxo- x*x- xox- o-o-)", "B2!")
    assert state.to_notation() == "(o 0 1 o-o- x-x- o-o- ----)"
    assert state.bombs_on_board(0) == 0 and not state.is_terminal()


def test_after_the_detonations_pieces_fall_down_their_columns_in_order():
    # A1's bomb takes A2 (and the empty B1); A3 and A4 fall two rows, keeping their order.
    state = after("(x 0 1 *--- o--- x--- o---)", "A1!")
    assert state.to_notation() == "(o 0 1 x--- o--- ---- ----)"
    assert state.column_height("A") == 2


def test_a_bomb_in_the_blast_detonates_in_turn_whoever_owns_it():
    # X's A1 takes A2 and O's bomb B1, which takes B2 and X's other bomb C1,
    # which takes C2 and D1 (an ordinary piece: D2 stays). Rows 1 and 2 go
    # but for D2, and what is above falls.
    chain = after("(x 0 1 *@*o xoxo oxo- ----)", "A1!", bombs=2)
    assert chain.to_notation() == "(o 0 1 oxoo ---- ---- ----)"
    assert chain.bombs_on_board(0) == chain.bombs_on_board(1) == 0
    # The same with an ordinary piece on B1: the blast stops there.
    no_chain = after("(x 0 1 *o*o xoxo oxo- ----)", "A1!", bombs=2)
    assert no_chain.to_notation() == "(o 0 1 oo*o -xxo --o- ----)"
    assert no_chain.bombs_on_board(0) == 1


def test_a_superbomb_removes_its_whole_row_and_column_and_chains_too():
    # Position 14 with superbombs: C2 takes row 2 and column C; O's bomb on B2
    # (in row 2) then takes column B. Only A1, D1, D3 and D4 remain.
    state = after(POSITION_14, "C2!", superbomb=True)
    assert state.to_notation() == "(o 0 0 x--x ---o ---x ----)"
    assert not state.is_terminal()
    # Without another bomb in the way the blast is just row 2 and column B.
    state = after("(x 0 1 xoox o*oo xoxo ox--)", "B2!", superbomb=True)
    assert state.to_notation() == "(o 0 1 x-ox x-xo o--- ----)"


# -- the end: n in a row ----------------------------------------------------------------
@pytest.mark.parametrize("position, move", [
    ("(x 1 1 xxx- ooo- ---- ----)", "D"),  # horizontal
    ("(x 1 1 xoo- xo-- x--- ----)", "A"),  # vertical
    ("(x 1 1 xoox -xoo --xo ----)", "D"),  # diagonal A1-D4
    ("(x 1 1 xoox oox- ox-- ----)", "A"),  # diagonal A4-D1
])
def test_n_in_a_row_in_every_direction_wins(position, move):
    before = load(position)
    assert not before.is_terminal()
    state = after(position, move)
    assert result(state) == (0, REASONS.CONNECT)
    assert state.current_player() == TERMINAL_PLAYER and state.legal_actions() == []
    assert str(state).endswith("X wins: connected 4 in a row")


def test_bombs_count_as_their_owners_pieces():
    assert result(after("(x 0 1 x*x- ooo- ---- ----)", "D")) == (0, REASONS.CONNECT)
    # O's bomb in the row belongs to O: no line for X
    assert result(after("(x 1 0 x@x- oo-- ---- ----)", "D")) is None


def test_the_line_length_is_the_connect_parameter():
    position = "(x 1 1 xx-- oo-- ---- ----)"
    assert result(after(position, "C")) is None
    assert result(after(position, "C", connect=3)) == (0, REASONS.CONNECT)
    assert result(after("(x 0 0 -- --)", "B", rows=2, cols=2, connect=1, bombs=0)) == (0, REASONS.CONNECT)


def test_a_detonation_can_hand_the_opponent_the_line():
    # X's bomb on C2 takes C1, C3, B2 and D2; O's C4 falls to C1: O has row 1.
    state = after("(x 0 1 ooxo -x*x --x- --o-)", "C2!")
    assert state.to_notation() == "(o 0 1 oooo ---- ---- ----)"
    assert result(state) == (1, REASONS.CONNECT)


def test_both_lines_after_a_detonation_is_a_tie():
    # X's D1 takes C1 and D2; the columns fall into row 1 all x, row 2 all o.
    state = after("(x 0 1 xxo* ooxo --ox ---o)", "D1!")
    assert state.to_notation() == "(o 0 1 xxxx oooo ---- ----)"
    assert result(state) == (None, REASONS.BOTH_CONNECT)
    assert state.returns() == [0.0, 0.0]
    assert result(after("(x 0 1 xxo* ooxo --ox ---o)", "D1!", misere=True)) == (None, REASONS.BOTH_CONNECT)


# -- misère --------------------------------------------------------------------------------
def test_misere_the_player_who_connects_loses():
    state = after("(x 1 1 xxx- ooo- ---- ----)", "D", misere=True)
    assert result(state) == (1, REASONS.CONNECT)
    assert state.outcome().describe(state.game.player_names) == "O wins: X connected 4 in a row (misère)"
    # the worked example's detonation gives X the line: in misère X loses
    assert result(after(POSITION_14, "C2!", misere=True)) == (1, REASONS.CONNECT)
    # and a detonation that gives O the line wins for X
    assert result(after("(x 0 1 ooxo -x*x --x- --o-)", "C2!", misere=True)) == (0, REASONS.CONNECT)


# -- nobody can act: pass and tie ---------------------------------------------------------------
def test_a_player_without_an_action_passes_and_the_other_must_detonate():
    # X fills the board; O has no bomb on it, so O's only action is to pass;
    # then X, whose bomb is on the full board, must detonate it.
    state = after("(x 0 0 xxoo ooxx xxoo oo*-)", "D")
    assert state.to_notation() == "(o 0 0 xxoo ooxx xxoo oo*x)"
    assert moves(state) == ["pass"]
    assert state.legal_actions() == [state.game.num_distinct_actions() - 1]
    state.play("pass")
    assert state.to_notation() == "(x 0 0 xxoo ooxx xxoo oo*x)"
    assert moves(state) == ["C4!"]
    state.play("C4!")  # takes B4, D4 and C3
    assert state.to_notation() == "(o 0 0 xxoo ooxx xx-o o---)"
    assert not state.is_terminal()


def test_pass_is_legal_only_when_nothing_else_is():
    state = boomboard.load_game("kaboom").new_initial_state()
    with pytest.raises(IllegalActionError, match="pass only"):
        state.play("pass")
    # a full board with an own bomb on it: detonate, not pass
    state = load("(o 0 0 xxoo ooxx xxoo oo@x)")
    assert moves(state) == ["C4!"]


def test_a_full_board_without_bombs_on_it_is_a_tie():
    state = after("(x 0 0 xxoo ooxx xxoo oox-)", "D")
    assert result(state) == (None, REASONS.NO_ACTIONS)
    assert state.legal_actions() == []
    # bombs still in hand change nothing: there is no room to drop them
    assert result(after("(x 1 1 xxoo ooxx xxoo oox-)", "D")) == (None, REASONS.NO_ACTIONS)


def test_a_line_made_by_the_last_drop_wins_rather_than_ties():
    state = after("(x 0 0 xxoo ooxx xxoo xxx-)", "D")
    assert result(state) == (0, REASONS.CONNECT)


# -- the worked example ------------------------------------------------------------------------
def test_position_9():
    state = load(POSITION_9)
    assert state.current_player() == 1
    assert state.bombs_in_hand(0) == 0 and state.bombs_in_hand(1) == 1
    assert state.cell("C2") == "*" and state.column_height("C") == 4
    assert moves(state) == ["A", "B", "D", "A*", "B*", "D*"]  # column C is full; X's bomb is not O's
    # five actions lead from position 9 to position 14
    assert after(POSITION_9, "B*", "D", "B", "B", "A").to_notation() == POSITION_14


def test_position_14_x_detonates_c2_and_wins():
    # C2 takes C1, B2, C2, D2, C3; B2 is O's bomb, so B1, A2 and B3 go too
    # (A1 is only diagonal to B2 and stays). What is left falls:
    # A: x (A1); B: x (from B4); C: x (from C4); D: x, o, x (D1, D3, D4).
    state = after(POSITION_14, "C2!")
    assert state.to_notation() == "(o 0 0 xxxx ---o ---x ----)"
    assert result(state) == (0, REASONS.CONNECT)
    # Had B2 been an ordinary piece, only the first five cells would go.
    state = after("(x 0 0 xoxx oo*o -ooo -xxx)", "C2!")
    assert state.to_notation() == "(o 0 0 xoxx oo-o -x-x ----)"
    assert result(state) is None


# -- loaded positions and the end of the game -----------------------------------------------------
@pytest.mark.parametrize("position, params, expected", [
    ("(o 0 0 xxxx oo-- o--- ----)", {}, (0, REASONS.CONNECT)),
    ("(o 0 0 xxxx oo-- o--- ----)", {"misere": True}, (1, REASONS.CONNECT)),
    ("(x 0 0 xxxx oooo ---- ----)", {}, (None, REASONS.BOTH_CONNECT)),
    ("(x 0 0 xxoo ooxx xxoo ooxx)", {}, (None, REASONS.NO_ACTIONS)),
    ("(x 0 0 xxoo ooxx xxoo oo*x)", {}, None),  # X must detonate
    ("(o 0 0 xxoo ooxx xxoo oo*x)", {}, None),  # O must pass
])
def test_a_loaded_position_gets_its_result(position, params, expected):
    state = load(position, **params)
    assert result(state) == expected
    assert state.is_terminal() == (expected is not None)


def test_a_finished_game_takes_no_action():
    state = after("(x 1 1 xxx- ooo- ---- ----)", "D")
    with pytest.raises(GameOverError):
        state.apply_action(0)
    with pytest.raises(IllegalActionError, match="game is over"):
        state.play("A")


def test_max_game_length_bounds_every_game():
    # rows*cols drops, plus what the blasts can empty again, plus detonations and passes
    assert boomboard.load_game("kaboom").max_game_length() == 16 + 2 * 1 * (5 + 2)
    assert boomboard.load_game("kaboom", superbomb=True, bombs=3).max_game_length() == 16 + 2 * 3 * (7 + 2)
    rng = random.Random(5)
    for params in ({"rows": 2, "cols": 4, "bombs": 4}, {"rows": 3, "cols": 3, "connect": 3, "bombs": 9},
                   {"rows": 2, "cols": 2, "connect": 2, "bombs": 4, "superbomb": True}):
        game = KaboomGame(**params)
        longest = 0
        for _ in range(300):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            longest = max(longest, state.ply())
        assert longest <= game.max_game_length()
