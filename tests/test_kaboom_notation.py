"""Kaboom's notations: the GamesCrafters position string and the action names,
read and written exactly, and bad input refused with our exceptions."""

from __future__ import annotations

import pytest

import boomboard
from boomboard import IllegalActionError, InvalidPositionError, NotationError, ParameterError
from boomboard.games.kaboom import KaboomGame, parse_action

POSITION_9 = "(o 0 1 xoxx --*o --oo --x-)"
POSITION_14 = "(x 0 0 xoxx o@*o -ooo -xxx)"


@pytest.fixture
def game():
    return boomboard.load_game("kaboom")


# -- positions ------------------------------------------------------------------------
@pytest.mark.parametrize("text", [POSITION_9, POSITION_14, "(x 1 1 ---- ---- ---- ----)",
                                  "(o 0 0 xxoo ooxx xxoo oo*x)"])
def test_positions_are_written_exactly_as_read(game, text):
    assert game.state_from_notation(text).to_notation() == text


def test_positions_are_read_case_insensitively_and_written_in_lower_case(game):
    state = game.state_from_notation("  ( O 0 1\tXOXX --*O --oo  --X- )\n")
    assert state.to_notation() == POSITION_9
    assert state == game.state_from_notation(POSITION_9)


def test_rows_are_listed_bottom_first(game):
    state = game.state_from_notation(POSITION_9)
    assert state.cell("A1") == "x" and state.cell("D2") == "o" and state.cell("C4") == "x"
    assert state.cell("c2") == "*" and state.cell("B2") is None
    assert [line.split()[1:] for line in str(state).splitlines()[:4]] == [
        [".", ".", "x", "."], [".", ".", "o", "o"], [".", ".", "*", "o"], ["x", "o", "x", "x"]]


def test_the_board_picture_and_caption(game):
    text = str(game.state_from_notation(POSITION_9))
    assert text.splitlines()[-2:] == ["  A B C D", "O to move; bombs in hand: X 0, O 1"]
    view = game.state_from_notation(POSITION_14).board_view()
    bomb = view.rows[2][1]  # B2, the third row from the top
    assert (bomb.text, bomb.owner, bomb.mark) == ("@", 1, "bomb")


def test_other_sizes_read_and_write(game):
    wide = boomboard.load_game("kaboom", rows=2, cols=6, bombs=2)
    text = "(x 1 2 xo*--- ------)"
    assert wide.state_from_notation(text).to_notation() == text


@pytest.mark.parametrize("text", ["", "x 0 1 ----", "()", "(x 0)", "(x)", "[x 0 1 ---- ---- ---- ----]",
                                  "%%% nonsense %%%"])
def test_malformed_positions_raise_notation_errors(game, text):
    with pytest.raises(NotationError, match="expected a position"):
        game.state_from_notation(text)


def test_a_position_must_be_text(game):
    with pytest.raises(NotationError, match="as text"):
        game.state_from_notation(None)


@pytest.mark.parametrize("text, message", [
    ("(x 1 1 ---- x--- ---- ----)", "A2 floats over the empty A1"),
    ("(x 1 1 xoxo xo-- --x- ----)", "C3 floats"),
    ("(x 1 1 *--- ---- ---- ----)", "x has 1 bomb\\(s\\) in hand and 1 on the board"),
    ("(o 0 0 @@-- ---- ---- ----)", "o has 0 bomb\\(s\\) in hand and 2"),
    ("(x 2 0 ---- ---- ---- ----)", "more than the 1"),
    ("(x 1 1 ---- ---- ----)", "expected 4 rows"),
    ("(x 1 1)", "expected 4 rows \\(bottom first\\), got 0"),
    ("(x 1 1 ---- ---- ---- ---- ----)", "expected 4 rows"),
    ("(x 1 1 ---- --- ---- ----)", "row 2 .* must have 4 cells"),
    ("(x 1 1 x?-- ---- ---- ----)", "'\\?' is no cell"),
    ("(x 1 1 ---- ---- ---- ---0)", "'0' is no cell"),
    ("(z 1 1 ---- ---- ---- ----)", "must be x or o"),
    ("(x -1 1 ---- ---- ---- ----)", "cannot be negative"),
    ("(x 1 a ---- ---- ---- ----)", "whole number"),
    ("(x 1.5 1 ---- ---- ---- ----)", "whole number"),
    ("(x 1 99999999999999999999999 ---- ---- ---- ----)", "more than the 1"),
])
def test_impossible_positions_are_refused(game, text, message):
    with pytest.raises(InvalidPositionError, match=message):
        game.state_from_notation(text)


# -- building the game from a position alone -----------------------------------------------
def test_from_position_string_infers_the_board_size():
    game, state = KaboomGame.from_position_string("(x 0 0 xo- o-- ---)", connect=3, bombs=0)
    assert (game["rows"], game["cols"], game["connect"], game["bombs"]) == (3, 3, 3, 0)
    assert state.to_notation() == "(x 0 0 xo- o-- ---)"
    game, state = KaboomGame.from_position_string(POSITION_14, misere=True)
    assert game == boomboard.load_game("kaboom(misere=true)")
    state.play("C2!")
    assert state.outcome().winner == 1


def test_from_position_string_refuses_what_does_not_fit():
    with pytest.raises(InvalidPositionError, match="row 2"):
        KaboomGame.from_position_string("(x 1 1 ---- --- ---- ----)")
    with pytest.raises(InvalidPositionError, match="at least one row"):
        KaboomGame.from_position_string("(x 1 1)")
    with pytest.raises(ParameterError, match="connect"):
        KaboomGame.from_position_string("(x 1 1 -- --)")  # connect 4 on a 2x2 board
    with pytest.raises(ParameterError, match="the position has 4 rows"):
        KaboomGame.from_position_string(POSITION_9, rows=5)
    with pytest.raises(NotationError):
        KaboomGame.from_position_string("nonsense")


# -- actions ----------------------------------------------------------------------------------
def test_the_action_id_layout(game):
    state = game.new_initial_state()
    names = [state.action_to_string(a) for a in range(game.num_distinct_actions())]
    assert game.num_distinct_actions() == 2 * 4 + 16 + 1
    assert names[:8] == ["A", "B", "C", "D", "A*", "B*", "C*", "D*"]
    assert names[8:12] == ["A1!", "B1!", "C1!", "D1!"] and names[14] == "C2!" and names[23] == "D4!"
    assert names[24] == "pass"
    with pytest.raises(IllegalActionError, match="ids run 0..24"):
        state.action_to_string(25)


@pytest.mark.parametrize("params", [{}, {"rows": 5, "cols": 7, "bombs": 2}, {"rows": 12, "cols": 12},
                                    {"rows": 1, "cols": 1, "connect": 1}])
def test_every_action_name_reads_back_as_its_id(params):
    game = boomboard.load_game("kaboom", **params)
    state = game.new_initial_state()
    names = [state.action_to_string(a) for a in range(game.num_distinct_actions())]
    assert len(set(names)) == len(names)
    for action, name in enumerate(names):
        assert parse_action(name, game["rows"], game["cols"]) == action
        assert parse_action(f"  {name.lower()} ", game["rows"], game["cols"]) == action


def test_actions_are_read_case_insensitively_ignoring_surrounding_space(game):
    state = game.state_from_notation(POSITION_14)
    assert state.string_to_action("c2!") == state.string_to_action(" C2! \n") == 14
    assert state.string_to_action("a") == 0
    state = game.new_initial_state()
    assert state.string_to_action("b*") == 5
    forced = game.state_from_notation("(o 0 0 xxoo ooxx xxoo oo*x)")
    assert forced.string_to_action("PASS") == forced.string_to_action(" Pass ") == 24


@pytest.mark.parametrize("text", ["", "AA", "A**", "C2", "!", "2C!", "C-1!", "*", "A!", "C2*", "pas", "A B",
                                  "%%% nonsense %%%"])
def test_malformed_actions_raise_notation_errors_naming_the_forms(game, text):
    with pytest.raises(NotationError, match="C2!"):
        game.new_initial_state().string_to_action(text)


def test_an_action_must_be_text(game):
    with pytest.raises(NotationError, match="as text"):
        game.new_initial_state().string_to_action(3)


@pytest.mark.parametrize("position, text, message", [
    (POSITION_9, "C", "column C is full; legal moves: A, B, D, A\\*, B\\*, D\\*"),
    (POSITION_14, "A*", "X has no bombs left to drop"),
    (POSITION_9, "C2!", "C2 holds X's bomb; only own bombs detonate"),
    (POSITION_14, "A1!", "A1 holds no X bomb"),
    (POSITION_14, "pass", "X may pass only"),
    (POSITION_14, "E", "there is no column E: the columns run A to D"),
    (POSITION_14, "A5!", "there is no cell A5"),
    (POSITION_14, "A0!", "there is no cell A0"),
    (POSITION_14, "A123456789012!", "there is no cell"),
    ("(o 0 0 xxxx oo-- o--- ----)", "A", "the game is over \\(X wins: connected 4 in a row\\)"),
])
def test_illegal_actions_say_why_and_list_the_legal_ones(game, position, text, message):
    with pytest.raises(IllegalActionError, match=message):
        game.state_from_notation(position).string_to_action(text)


def test_illegal_action_ids_are_refused_with_the_legal_list(game):
    state = game.state_from_notation(POSITION_9)
    with pytest.raises(IllegalActionError, match="legal actions: A, B, D, A\\*, B\\*, D\\*"):
        state.apply_action(2)


def test_history_is_written_in_the_notation(game):
    state = game.state_from_notation(POSITION_9)
    for move in ("B*", "D", "B", "B", "A", "C2!"):
        state.play(move)
    assert state.history_strings() == ["B*", "D", "B", "B", "A", "C2!"]


# -- state accessors ---------------------------------------------------------------------------
def test_accessors_read_cells_columns_and_bombs(game):
    state = game.state_from_notation(POSITION_14)
    assert [state.cell(name) for name in ("A1", "B2", "C2", "A4")] == ["x", "@", "*", None]
    assert [state.column_height(c) for c in "ABCD"] == [2, 4, 4, 4]
    assert state.bombs_in_hand(0) == state.bombs_in_hand(1) == 0
    assert state.bombs_on_board(0) == state.bombs_on_board(1) == 1
    with pytest.raises(NotationError, match="expected a cell"):
        state.cell("C")
    with pytest.raises(NotationError, match="no column E"):
        state.cell("E1")
    with pytest.raises(NotationError, match="no cell A5"):
        state.cell("A5")
    with pytest.raises(NotationError, match="column letter"):
        state.column_height("C2")
