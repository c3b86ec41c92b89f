"""HExplocus notations (hexagonal board), read and written exactly, and bad input."""

import re

import pytest

import boomboard
from boomboard import IllegalActionError, InvalidPositionError, NotationError, ParameterError

GAME = boomboard.load_game("hexplocus")
START = "...../b2b3b4b4b3b2/......./......../........./......../......./w2w3w4w4w3w2/..... w"
SIDE3 = boomboard.load_game("hexplocus", side=3)


# -- positions ---------------------------------------------------------------------
def test_start_position_is_written_exactly_and_read_back():
    state = GAME.new_initial_state()
    assert state.to_notation() == START
    assert GAME.state_from_notation(START) == state


def test_rows_have_their_natural_lengths_top_row_first():
    state = SIDE3.state_from_notation("b1.w2/..../...../..../..W1 B")
    assert state.to_notation() == "b1.w2/..../...../..../..w1 b"
    assert state.stack("E3") == ("black", 1) and state.stack("E5") == ("white", 2)
    assert state.stack("A3") == ("white", 1) and state.current_player() == 1


def test_player_to_move_and_heights_round_trip():
    text = "....b2/....../..w5..../......../.....b1.../......../.w1...../....../b2.... b"
    assert GAME.state_from_notation(text).to_notation() == text


@pytest.mark.parametrize("text, message", [
    ("", "side to move"),
    ("hex", "side to move"),
    (START[:-2], "side to move"),
    (START[:-1] + "?", "side to move"),
])
def test_malformed_positions_raise_notation_errors(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.state_from_notation(text)


@pytest.mark.parametrize("text, message", [
    (".../..../...../..../... w", "9 rows"),
    ("....../b2b3b4b4b3b2/......./......../........./......../......./w2w3w4w4w3w2/..... w",
     "row I has 5 cells; got 6"),
    ("...../b2b3b4b4b3b2/......./......../........./......../......./w2w3w4w4w3w2/...... w",
     "row A has 5 cells; got 6"),
    ("...../b2b3b4b4b3b2/......./......../....#..../......../......./w2w3w4w4w3w2/..... w", "row E"),
    ("...../b2b3b4b4b3b0/......./......../........./......../......./w2w3w4w4w3w2/..... w", "at least 1"),
    ("...../b2b3b4b4b3b2/......./......../....w6..../......../......./w2w3w4w4w3w2/..... w", "E5 .*capacity 6"),
    ("...../b2b3b4b4b3b2/......./......../w4......../......../......./w2w3w4w4w3w2/..... w", "E1 .*capacity 3"),
    ("...../b4b3b4b4b3b2/......./......../........./......../......./w2w3w4w4w3w2/..... w", "H4 .*capacity 4"),
    ("...../....../......./......../........./......../......./....../..... w", "no stones"),
])
def test_impossible_positions_raise_invalid_position_errors(text, message):
    with pytest.raises(InvalidPositionError, match=message):
        GAME.state_from_notation(text)


def test_too_many_stones_are_refused_because_explosions_could_go_on_forever():
    assert SIDE3.board.edges == 42
    crowded = "b2b3b2/b3w5w5b3/b2w5w5w5b2/b3w5w5b3/b2b3b2 w"  # every stack below capacity, 65 stones
    with pytest.raises(InvalidPositionError, match="at most 41"):
        SIDE3.state_from_notation(crowded)


def test_a_finished_position_may_show_stacks_at_capacity():
    state = SIDE3.state_from_notation("w3../..../..w7../..../... b")
    assert state.is_terminal() and state.outcome().winner == 0


# -- moves ---------------------------------------------------------------------------
def test_every_legal_move_is_written_from_to_in_uppercase_and_read_back():
    state = GAME.new_initial_state()
    names = [state.action_to_string(a) for a in state.legal_actions()]
    assert {"B1-A1", "B3-F3", "B4-F8", "B6-B4", "B2-C3"} <= set(names)
    assert all(name == name.upper() for name in names)
    for action, name in zip(state.legal_actions(), names):
        assert state.string_to_action(name) == action
        assert state.string_to_action(name.lower()) == action


def test_distance_counts_cells_along_the_line():
    state = SIDE3.state_from_notation(".../..../.w3.../..../b1.. w")
    assert SIDE3.board.decode(state.string_to_action("C2-C5"))[2] == 3
    assert SIDE3.board.decode(state.string_to_action("c2-e4"))[2] == 2
    assert {state.action_to_string(a) for a in state.legal_actions()} == {
        "C2-C3", "C2-C4", "C2-C5", "C2-C1", "C2-D2", "C2-D3", "C2-E4", "C2-B2", "C2-A2", "C2-B1"}


def test_moves_are_read_without_the_dash():
    state = GAME.new_initial_state()
    assert state.string_to_action("B2B4") == state.string_to_action("b2 b4") == state.string_to_action("B2-B4")


@pytest.mark.parametrize("text, message", [
    ("C3-", "like 'C3-E3'"),
    ("A6-A5", "no cell 'A6'"),
    ("J5-I5", "no cell 'J5'"),
    ("E0-E1", "no cell 'E0'"),
])
def test_malformed_moves_raise_notation_errors(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.new_initial_state().string_to_action(text)


@pytest.mark.parametrize("text, message", [
    ("B2-D3", "not on a straight line"),
    ("B2-A3", "not on a straight line"),
    ("B3-B3", "does not move"),
    ("C3-E3", "holds no white stack"),
    ("H4-G4", "holds no white stack"),
    ("B1-B4", "moves 1 to 2 cells; B1-B4 is 3"),
    ("B3-G8", "moves 1 to 4 cells"),
])
def test_illegal_moves_raise_illegal_action_errors_that_explain(text, message):
    with pytest.raises(IllegalActionError, match=message):
        GAME.new_initial_state().string_to_action(text)


def test_action_ids_that_are_no_move_cannot_be_written():
    state = GAME.new_initial_state()
    with pytest.raises(IllegalActionError, match="no move"):
        state.action_to_string(8)  # A1 one cell along (0, -1): off the board
    with pytest.raises(IllegalActionError, match="no move"):
        state.action_to_string(GAME.num_distinct_actions())


# -- parameters and pictures ---------------------------------------------------------
def test_setup_parameter_must_be_standard_or_a_position():
    with pytest.raises(ParameterError, match="setup"):
        boomboard.load_game("hexplocus", setup="...../ w")
    game = boomboard.load_game("hexplocus(side=3,setup=b1../..../...../w1.../... w)")
    assert boomboard.load_game(str(game)) is game
    assert game.new_initial_state().stack("B1") == ("white", 1)


def test_board_picture_is_a_hexagon_with_both_coordinates():
    """Row letters on the left, diagonal numbers at the lower-right ends of
    the diagonals (as Abalone diagrams name cells), every row exactly half a
    cell from the next."""
    assert str(SIDE3.new_initial_state()) == "\n".join([
        "E      b2  b3  b2",
        "D     .   .   .   .",
        "C   .   .   .   .   .",
        "B     .   .   .   .   5",
        "A      w2  w3  w2   4",
        "          1   2   3",
        "White to move",
    ])


def test_every_cell_of_the_picture_sits_where_its_name_says():
    """Cell (row r, diagonal d) is drawn at column 2*d - r (in half cells,
    from an origin), so each name in the picture can be read off both
    coordinates; the diagonal numbers continue the diagonals."""
    state = GAME.new_initial_state()
    lines = str(state).splitlines()
    board = GAME.board
    columns = {}
    for cell, _name in enumerate(board.names):
        row, diag = board.coords[cell]
        line = lines[len(board.rows) - 1 - row]
        tokens = [(m.end(), m.group()) for m in re.finditer(r"\S+", line)][1:]  # after the row letter; cells are right-aligned
        first = min(d for r, d in board.coords if r == row)
        position = tokens[diag - first][0]
        columns[cell] = position - 2 * (2 * diag - row)
    assert len(set(columns.values())) == 1, "rows wobble"
    label_line = lines[len(board.rows)]
    assert label_line.split() == [str(d) for d in range(1, 6)]
    assert {line.split()[-1] for line in lines[5:9]} == {"6", "7", "8", "9"}
