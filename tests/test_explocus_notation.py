"""Explocus notations (square board), read and written exactly, and bad input."""

import pytest

import boomboard
from boomboard import IllegalActionError, InvalidPositionError, NotationError, ParameterError

GAME = boomboard.load_game("explocus")
START = "......../.b2b2b3b3b2b2./......../......../......../......../.w2w2w3w3w2w2./........ w"


# -- positions ---------------------------------------------------------------------
def test_start_position_is_written_exactly_and_read_back():
    state = GAME.new_initial_state()
    assert state.to_notation() == START
    assert GAME.state_from_notation(START) == state


def test_position_reading_is_case_insensitive_and_writing_lowercase():
    state = GAME.state_from_notation(START.upper().replace("W2", "w2"))
    assert state.to_notation() == START
    state = GAME.state_from_notation("B1.W1...../......../......../......../......../......../......../........ B")
    assert state.to_notation() == "b1.w1...../......../......../......../......../......../......../........ b"
    assert state.stack("a8") == ("black", 1) and state.stack("c8") == ("white", 1)
    assert state.current_player() == 1


def test_rows_run_from_the_top_down_to_whites_row():
    state = GAME.state_from_notation("w1......./......../......../......../......../......../......../.......b1 b")
    assert state.stack("a8") == ("white", 1) and state.stack("h1") == ("black", 1)


def test_player_to_move_and_heights_round_trip():
    text = "......../..b3...../....w2.../......../.b1....../......../...w3..../........ b"
    assert GAME.state_from_notation(text).to_notation() == text


@pytest.mark.parametrize("text, message", [
    ("", "side to move"),
    ("nonsense", "side to move"),
    (START[:-2], "side to move"),
    (START[:-1] + "x", "side to move"),
    (START + " w", "side to move"),
])
def test_malformed_positions_raise_notation_errors(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.state_from_notation(text)


@pytest.mark.parametrize("text, message", [
    ("......../......../.w1...... w", "8 rows"),
    ("......./.b1....../......../......../......../......../.w1....../........ w", "row 8 has 8 cells; got 7"),
    ("........./.b1....../......../......../......../......../.w1....../........ w", "row 8 has 8 cells; got 9"),
    ("......../.b1....../......../......../......../......../.x1....../........ w", "row 2"),
    ("......../.b1....../......../......../......../......../.w......./........ w", "row 2"),
    ("......../.b1....../......../......../......../......../.w0....../........ w", "at least 1"),
    ("......../.b1....../......../......../......../......../.w4....../........ w", "capacity 4"),
    ("......../.b1....../......../......../......../......../w3......./........ w", "capacity 3"),
    ("......../.b1....../......../......../......../......../......../w2....... w", "capacity 2"),
    ("......../......../......../......../......../......../......../........ w", "no stones"),
    ("......../.b1....../......../......../......../......../......../.w1234567890...... w", "row 1"),
])
def test_impossible_positions_raise_invalid_position_errors(text, message):
    with pytest.raises(InvalidPositionError, match=message):
        GAME.state_from_notation(text)


def test_too_many_stones_are_refused_because_explosions_could_go_on_forever():
    edge, inside = "b2", "w3"
    full = "/".join(
        ("w1" + edge * 6 + "w1") if rank in (0, 7) else (edge + inside * 6 + edge) for rank in range(8))
    with pytest.raises(InvalidPositionError, match="at most 111"):
        GAME.state_from_notation(full + " w")
    assert GAME.board.edges == 112


def test_a_finished_position_may_show_stacks_at_capacity():
    state = GAME.state_from_notation("w2......./......../......../...w5..../......../......../......../........ b")
    assert state.is_terminal() and state.outcome().winner == 0


# -- moves ---------------------------------------------------------------------------
def test_every_legal_move_is_written_from_to_in_lowercase_and_read_back():
    state = GAME.new_initial_state()
    names = [state.action_to_string(a) for a in state.legal_actions()]
    assert "d2-d5" in names and "b2-a2" in names and "g2-g4" in names
    assert all(name == name.lower() for name in names)
    for action, name in zip(state.legal_actions(), names):
        assert state.string_to_action(name) == action
        assert state.string_to_action(name.upper()) == action


def test_moves_are_read_in_any_case_and_with_spaces():
    state = GAME.new_initial_state()
    action = state.string_to_action("d2-d4")
    assert state.string_to_action("D2-D4") == state.string_to_action(" d2 - D4 ") == action
    assert state.action_to_string(action) == "d2-d4"


def test_moves_are_read_without_the_dash():
    state = GAME.new_initial_state()
    assert state.string_to_action("d2d4") == state.string_to_action("D2 d4") == state.string_to_action("d2-d4")
    state = boomboard.load_game("explocus(size=12)").new_initial_state()
    with pytest.raises(IllegalActionError):  # read as c2-c10 (two-digit ranks), then refused
        state.string_to_action("c2c10")


@pytest.mark.parametrize("text, message", [
    ("d2-", "like 'd2-d4'"),
    ("", "like 'd2-d4'"),
    ("d2-d4-d6", "like 'd2-d4'"),
    ("22-d4", "like 'd2-d4'"),
    ("i2-i4", "no cell 'i2'"),
    ("d2-d9", "no cell 'd9'"),
    ("a0-a1", "no cell 'a0'"),
])
def test_malformed_moves_raise_notation_errors(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.new_initial_state().string_to_action(text)


@pytest.mark.parametrize("text, message", [
    ("d2-e3", "not on a straight line"),
    ("d2-d2", "does not move"),
    ("d4-d5", "holds no white stack"),
    ("d7-d6", "holds no white stack"),
    ("b2-b5", "moves 1 to 2 cells; b2-b5 is 3"),
    ("d2-d6", "moves 1 to 3 cells"),
])
def test_illegal_moves_raise_illegal_action_errors_that_explain(text, message):
    with pytest.raises(IllegalActionError, match=message):
        GAME.new_initial_state().string_to_action(text)


def test_moves_in_a_finished_game_are_refused():
    state = GAME.state_from_notation("w2......./......../......../......../......../......../......../........ b")
    with pytest.raises(IllegalActionError, match="game is over"):
        state.string_to_action("a8-a7")


def test_action_ids_that_are_no_move_cannot_be_written():
    state = GAME.new_initial_state()
    with pytest.raises(IllegalActionError, match="no move"):
        state.action_to_string(7)  # a1 one cell west
    with pytest.raises(IllegalActionError, match="no move"):
        state.action_to_string(GAME.num_distinct_actions())
    with pytest.raises(IllegalActionError, match="no move"):
        state.action_to_string(-1)


# -- parameters and pictures ---------------------------------------------------------
def test_setup_parameter_must_be_standard_or_a_position():
    with pytest.raises(ParameterError, match="setup"):
        boomboard.load_game("explocus", setup="junk")
    with pytest.raises(ParameterError, match="capacity"):
        boomboard.load_game("explocus", size=3, setup="w2../.../..b1 w")
    game = boomboard.load_game("explocus(size=4,setup=..../.b1../..w2./.... w)")
    assert boomboard.load_game(str(game)) is game
    assert game.new_initial_state().serialize() == '{"game":"' + str(game) + '","actions":[]}'


def test_board_picture():
    assert str(GAME.new_initial_state()) == "\n".join([
        "8  .  .  .  .  .  .  .  .",
        "7  . b2 b2 b3 b3 b2 b2  .",
        "6  .  .  .  .  .  .  .  .",
        "5  .  .  .  .  .  .  .  .",
        "4  .  .  .  .  .  .  .  .",
        "3  .  .  .  .  .  .  .  .",
        "2  . w2 w2 w3 w3 w2 w2  .",
        "1  .  .  .  .  .  .  .  .",
        "   a  b  c  d  e  f  g  h",
        "White to move",
    ])
