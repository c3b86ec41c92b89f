"""Jump61's notations: moves as ``R C`` and positions as the text interface's
``dump`` block, read and written exactly; bad input raises our errors."""

import pytest

import boomboard
from boomboard import IllegalActionError, InvalidPositionError, NotationError
from boomboard.games.jump61 import Jump61Game, parse_dump, parse_move, write_dump, write_move

GAME = boomboard.load_game("jump61")
START_3 = "===\n    1- 1- 1-\n    1- 1- 1-\n    1- 1- 1-\n==="


# -- moves --------------------------------------------------------------------------
def test_moves_are_written_row_space_column():
    state = GAME.new_initial_state()
    assert [state.action_to_string(a) for a in (0, 1, 5, 6, 7, 35)] == ["1 1", "1 2", "1 6", "2 1", "2 2", "6 6"]
    assert write_move(10, 3) == "10 3"
    big = boomboard.load_game("jump61", size=12).new_initial_state()
    assert big.action_to_string(12 * 9 + 10) == "10 11" and big.string_to_action("10 11") == 118


@pytest.mark.parametrize("text", ["2 3", "2:3", "  2   3 ", "2 : 3", "2\t3", "02 03", "2 :3\n"])
def test_moves_are_read_with_a_space_or_colon_and_any_spacing(text):
    assert parse_move(text) == (2, 3)
    assert GAME.new_initial_state().string_to_action(text) == 8


@pytest.mark.parametrize("text", ["23", "2,3", "2-3", "a b", "2 3 4", "", "   ", "-1 2", "2 3x", "two three",
                                  "2::3", "b2", "２ ３"])
def test_malformed_moves_raise_notation_errors_that_show_the_form(text):
    with pytest.raises(NotationError, match="row and column, like '2 3'"):
        GAME.new_initial_state().string_to_action(text)


@pytest.mark.parametrize("text", ["7 1", "0 3", "3 0", "1 99"])
def test_squares_off_the_board_are_illegal_and_say_the_range(text):
    with pytest.raises(IllegalActionError, match=r"off the board; rows and columns run 1\.\.6"):
        GAME.new_initial_state().string_to_action(text)


def test_the_opponents_square_is_illegal_and_says_why():
    state = GAME.new_initial_state()
    state.play("3 4")
    with pytest.raises(IllegalActionError, match="square 3 4 is red; Blue may add a spot only to a blue or white"):
        state.string_to_action("3:4")


def test_action_ids_outside_the_board_are_refused():
    state = GAME.new_initial_state()
    for bad in (-1, 36):
        with pytest.raises(IllegalActionError, match=r"ids run 0\.\.35"):
            state.action_to_string(bad)


def test_non_text_is_a_notation_error():
    state = GAME.new_initial_state()
    with pytest.raises(NotationError):
        state.string_to_action(23)
    with pytest.raises(NotationError):
        GAME.state_from_notation(None)
    with pytest.raises(NotationError):
        Jump61Game.state_from_dump(b"===")


# -- the dump ---------------------------------------------------------------------------
def test_the_dump_is_written_exactly_as_the_text_interface_prints_it():
    state = boomboard.load_game("jump61", size=3).new_initial_state()
    assert state.to_notation() == START_3  # no newline after the last ===
    state.play("1 2")
    state.play("3 3")
    assert state.to_notation() == "===\n    1- 2r 1-\n    1- 1- 1-\n    1- 1- 2b\n==="
    assert write_dump(2, [2, 1, 2, 1], [1, 0, 2, 1]) == "===\n    2r 1-\n    2b 1r\n==="


def test_the_default_start_dump():
    lines = GAME.new_initial_state().to_notation().split("\n")
    assert lines == ["==="] + ["    1- 1- 1- 1- 1- 1-"] * 6 + ["==="]


@pytest.mark.parametrize("text", [
    START_3 + "\n",
    START_3.replace("\n", "\r\n") + "\r\n",
    "\n\n  " + START_3 + "\n\n",
    "===\n1- 1- 1-\n\t1-   1-  1-  \n      1- 1- 1-\n===",
])
def test_the_dump_is_read_with_any_line_ending_spacing_and_indent(text):
    state = boomboard.load_game("jump61", size=3).state_from_notation(text)
    assert state.to_notation() == START_3


def test_colour_letters_are_read_in_either_case_and_written_in_lowercase():
    text = "===\n    2R 1-\n    1- 2B\n==="
    assert boomboard.load_game("jump61", size=2).state_from_notation(text).to_notation() == text.lower()


def test_parse_dump_gives_size_spots_and_colours():
    assert parse_dump("===\n    2r 1-\n    2b 1r\n===") == (2, [2, 1, 2, 1], [1, 0, 2, 1])


def test_the_player_to_move_is_read_from_the_parity_of_the_spots():
    game = boomboard.load_game("jump61", size=2)
    assert game.state_from_notation("===\n    1- 1-\n    1- 1-\n===").current_player() == 0
    assert game.state_from_notation("===\n    2r 1-\n    1- 1-\n===").current_player() == 1
    assert game.state_from_notation("===\n    2r 1-\n    1- 2b\n===").current_player() == 0


def test_state_from_dump_takes_the_size_from_the_dump():
    state = Jump61Game.state_from_dump("===\n    2r 1- 1- 1-\n" + "    1- 1- 1- 1-\n" * 3 + "===")
    assert state.game == boomboard.load_game("jump61(size=4)") and state.square(1, 1) == ("red", 2)
    assert Jump61Game.state_from_dump(GAME.new_initial_state().to_notation()).game == GAME


def test_a_dump_of_another_size_is_refused_by_a_game():
    with pytest.raises(InvalidPositionError, match="3x3 board; this game is 6x6.*state_from_dump"):
        GAME.state_from_notation(START_3)


def test_a_board_larger_than_16_or_smaller_than_2_is_refused():
    with pytest.raises(InvalidPositionError, match="17x17 board.*<= 16"):
        Jump61Game.state_from_dump("===\n" + ("    " + " ".join(["1-"] * 17) + "\n") * 17 + "===")
    with pytest.raises(InvalidPositionError, match="at least 2 rows"):
        Jump61Game.state_from_dump("===\n    1-\n===")
    with pytest.raises(InvalidPositionError, match="at least 2 rows"):
        Jump61Game.state_from_dump("===\n===")


@pytest.mark.parametrize("text", ["%%% nonsense %%%", "", "===", "1- 1-\n1- 1-", "===\n    1- 1-\n    1- 1-",
                                  "    1- 1-\n    1- 1-\n===", "==\n    1- 1-\n    1- 1-\n=="])
def test_text_without_the_frame_is_a_notation_error(text):
    with pytest.raises(NotationError, match="expected a dump: a line '==='"):
        Jump61Game.state_from_dump(text)


@pytest.mark.parametrize("rows, message", [
    (["1- 1- 1-", "1- 1-", "1- 1- 1-"], "row 2 has 2 squares; the dump has 3 rows, so every row needs 3"),
    (["1- 1- 1-", "1- 1- 1-"], "row 1 has 3 squares; the dump has 2 rows"),
    (["1- 1-", "1- 1-", "1- 1-"], "row 1 has 2 squares; the dump has 3 rows"),
    (["1- 2x", "1- 1-"], "square 1 2 is '2x'; a square is its spots then r"),
    (["1- r2", "1- 1-"], "square 1 2 is 'r2'"),
    (["1- 2", "1- 1-"], "square 1 2 is '2'"),
    (["1- 1-", "1-- 1-"], "square 2 1 is '1--'"),
    (["1- 1-", "1- 12345678901r"], "square 2 2 is '12345678901r'"),
    (["1- 1-", "1- +2r"], "square 2 2 is '\\+2r'"),
    (["1- 2-", "1- 1-"], "square 1 2 is white with 2 spots; a white square has exactly 1"),
    (["1- 1-", "0r 1-"], "square 2 1 has 0 spots; every square has at least 1"),
    (["0- 1-", "1- 1-"], "square 1 1 has 0 spots"),
    (["3r 1-", "1- 2b"], "square 1 1 has 3 spots, more than its 2 neighbours, so it would have jumped"),
    (["30r 1r", "1r 1r"], "the board holds 33 spots; a 2x2 board never holds more than 9"),
])
def test_impossible_positions_are_refused_with_the_reason(rows, message):
    text = "\n".join(["==="] + ["    " + row for row in rows] + ["==="])
    with pytest.raises(InvalidPositionError, match=message):
        Jump61Game.state_from_dump(text)


def test_overfull_squares_are_refused_on_every_kind_of_square_unless_the_board_is_one_colour():
    game = boomboard.load_game("jump61", size=3)
    for square, _spots in (("3r 1- 1-", "corner"), ("1- 4r 1-", "edge")):
        with pytest.raises(InvalidPositionError, match="would have jumped"):
            game.state_from_notation(f"===\n    {square}\n    1- 1- 1-\n    1- 1- 1-\n===")
    with pytest.raises(InvalidPositionError, match="square 2 2 has 5 spots, more than its 4"):
        game.state_from_notation("===\n    1- 1- 1-\n    1- 5b 1-\n    1- 1- 1-\n===")
    won = game.state_from_notation("===\n    3b 1b 1b\n    1b 5b 1b\n    1b 1b 4b\n===")
    assert won.outcome().winner == 1 and won.to_notation().split("\n")[2] == "    1b 5b 1b"
