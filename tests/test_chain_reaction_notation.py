"""Chain Reaction's notations: cells as ``a1`` and positions as rows of
``.``/``3r`` plus the side to move, read and written exactly; bad input
raises our errors with a message that says what was expected."""

import pytest

import boomboard
from boomboard import IllegalActionError, InvalidPositionError, NotationError
from boomboard.games.chain_reaction import (ChainReactionGame, cell_name, parse_cell, parse_position,
                                            write_position)

GAME = boomboard.load_game("chain_reaction")
SMALL = boomboard.load_game("chain_reaction", rows=3, cols=3)
START_3 = ". . .\n. . .\n. . .\nr"


# -- cells and moves -----------------------------------------------------------------------
def test_moves_are_written_as_lowercase_cell_names():
    state = GAME.new_initial_state()
    assert [state.action_to_string(a) for a in (0, 5, 6, 48, 53)] == ["a1", "f1", "a2", "a9", "f9"]
    big = boomboard.load_game("chain_reaction", rows=12, cols=12).new_initial_state()
    assert big.action_to_string(143) == "l12" and big.string_to_action("l12") == 143
    assert cell_name(6, 20) == "c4"


@pytest.mark.parametrize("text", ["c4", "C4", "  c4 ", "c04", "\tc4\n"])
def test_cells_are_read_in_any_case_with_spaces_around(text):
    assert parse_cell(text, 9, 6) == 20
    assert GAME.new_initial_state().string_to_action(text) == 20


@pytest.mark.parametrize("text", ["", "   ", "4c", "c", "4", "cc4", "c 4", "c-4", "c4!", "c4 d5", "é4", "c٤", "c+4"])
def test_malformed_cells_are_notation_errors_that_show_the_form(text):
    with pytest.raises(NotationError, match="column letter and a row number, like 'a1'"):
        GAME.new_initial_state().string_to_action(text)


@pytest.mark.parametrize("text", ["g1", "a10", "a0", "z3", "f99"])
def test_cells_off_the_grid_are_illegal_and_say_the_range(text):
    with pytest.raises(IllegalActionError, match=r"on a 9x6 grid; columns run a\.\.f and rows 1\.\.9"):
        GAME.new_initial_state().string_to_action(text)


def test_the_opponents_cell_is_illegal_and_says_why():
    state = GAME.new_initial_state()
    state.play("b2")
    with pytest.raises(IllegalActionError, match="cell b2 is red; Green may put an orb only into an empty or green"):
        state.string_to_action("B2")


def test_action_ids_outside_the_grid_are_refused():
    state = GAME.new_initial_state()
    for bad in (-1, 54):
        with pytest.raises(IllegalActionError, match=r"ids run 0\.\.53"):
            state.action_to_string(bad)


def test_non_text_is_a_notation_error():
    state = GAME.new_initial_state()
    with pytest.raises(NotationError):
        state.string_to_action(20)
    with pytest.raises(NotationError):
        GAME.state_from_notation(None)
    with pytest.raises(NotationError):
        ChainReactionGame.state_from_position(b". .\n. .\nr")


# -- positions ---------------------------------------------------------------------------------
def test_positions_are_written_top_row_first_with_the_side_to_move_last():
    state = SMALL.new_initial_state()
    assert state.to_notation() == START_3  # no newline at the end
    state.play("a1")
    state.play("c3")
    assert state.to_notation() == ". . 1g\n. . .\n1r . .\nr"
    assert write_position(2, 3, [1, 0, 2, 0, 0, 1], [1, 0, 2, 0, 0, 1], 0) == ". . 1r\n1r . 2g\nr"


def test_the_default_start():
    assert GAME.new_initial_state().to_notation().split("\n") == [". . . . . ."] * 9 + ["r"]


@pytest.mark.parametrize("text", [
    START_3 + "\n",
    START_3.replace("\n", "\r\n") + "\r\n",
    "\n\n  " + START_3 + "  \n\n",
    ".   . .\n\t. . .  \n  . .    .\n  R",
])
def test_positions_are_read_with_any_line_ending_spacing_and_case(text):
    assert SMALL.state_from_notation(text).to_notation() == START_3


def test_letters_are_read_in_either_case_and_written_in_lowercase():
    text = ". 1G\n1R .\nR"
    assert boomboard.load_game("chain_reaction", rows=2, cols=2).state_from_notation(text).to_notation() == text.lower()


def test_parse_position_gives_the_size_counts_owners_and_side():
    assert parse_position(". 2g .\n1r . .\ng") == (2, 3, [1, 0, 0, 0, 2, 0], [1, 0, 0, 0, 2, 0], 1)


def test_state_from_position_takes_the_size_from_the_text():
    state = ChainReactionGame.state_from_position(". . . .\n. . . .\n1r . . .\ng")
    assert state.game == boomboard.load_game("chain_reaction(rows=3,cols=4)") and state.cell("a1") == ("red", 1)
    assert ChainReactionGame.state_from_position(GAME.new_initial_state().to_notation()).game == GAME


def test_a_position_of_another_size_is_refused_by_a_game():
    with pytest.raises(InvalidPositionError, match="3x3 grid .rows x columns.; this game is 9x6.*state_from_position"):
        GAME.state_from_notation(START_3)


def test_grids_outside_the_size_limits_are_refused():
    with pytest.raises(InvalidPositionError, match="13x2 grid.*<= 12"):
        ChainReactionGame.state_from_position(". .\n" * 13 + "r")
    with pytest.raises(InvalidPositionError, match="2x1 grid.*>= 2"):
        ChainReactionGame.state_from_position(".\n.\nr")
    with pytest.raises(InvalidPositionError, match="at most 26 columns"):
        ChainReactionGame.state_from_position((" ." * 27 + "\n") * 2 + "r")


@pytest.mark.parametrize("text", ["", "   ", "nonsense", ". .\n. .", ". .\n. .\nx", ". .\n. .\nred", "r", ". .\nr",
                                  ". .\n. .\nr g"])
def test_text_without_rows_and_a_side_is_a_notation_error(text):
    with pytest.raises(NotationError, match="expected a position: one line per row"):
        ChainReactionGame.state_from_position(text)


@pytest.mark.parametrize("rows, message", [
    ([". 2x", ". ."], "cell b2 is '2x'; a cell is '.' .empty. or its orbs then r .red. or g .green."),
    ([". r1", ". ."], "cell b2 is 'r1'"),
    ([". .", "1 ."], "cell a1 is '1'"),
    ([". .", "r ."], "cell a1 is 'r'"),
    ([". .", "-1r ."], "cell a1 is '-1r'"),
    ([". .", "1rr ."], "cell a1 is '1rr'"),
    ([". .", "1r.. ."], "cell a1 is '1r..'"),
    ([". .", "12345678901r ."], "cell a1 is '12345678901r'"),
])
def test_malformed_cells_in_a_position_are_notation_errors(rows, message):
    with pytest.raises(NotationError, match=message):
        ChainReactionGame.state_from_position("\n".join(rows + ["r"]))


@pytest.mark.parametrize("rows, side, message", [
    ([". . .", ". .", ". . ."], "r", r"the rows have different numbers of cells \(3, 2, 3, top row first\)"),
    ([". .", ". . ."], "r", r"different numbers of cells \(2, 3"),
    ([". .", "0r ."], "r", "cell a1 has 0 orbs; an empty cell is written '.'"),
    ([". .", "1r ."], "r", "the grid holds 1 orbs, so 1 moves were played and Green is to move, not Red"),
    ([". .", "1r 1g"], "g", "the grid holds 2 orbs, so 2 moves were played and Red is to move, not Green"),
    ([". .", ". 1g"], "g", "one green orb; Red moves first"),
    ([". 1g", "2r ."], "g", "cell a1 has 2 orbs, at least its critical mass 2, so it would have exploded"),
    ([". . .", "3r 1g .", ". . ."], "r", "cell a2 has 3 orbs, at least its critical mass 3"),
    ([". . .", "1g 4r .", ". . .", ". . ."], "g", "cell b3 has 4 orbs, at least its critical mass 4"),
    ([". 3r", "3r ."], "r", "the grid holds 6 orbs; a 2x2 grid never holds more than 5"),
    ([". 2r", "2r ."], "r", "every orb is red, but the last move was the other player's"),
    ([". 2g", "1g ."], "g", "every orb is green, but the last move was the other player's"),
    ([". .", "1g 1g"], "r", "only green orbs with 2 orbs on the grid; a player is wiped out only by an explosion"),
])
def test_impossible_positions_are_refused_with_the_reason(rows, side, message):
    text = "\n".join(rows + [side])
    with pytest.raises(InvalidPositionError, match=message):
        ChainReactionGame.state_from_position(text)


def test_unstable_cells_are_refused_on_every_kind_of_cell_unless_the_game_is_over():
    for text in ("1g . .\n. . .\n2r 1r .\nr", "1g . .\n3r . .\n. . 1r\ng", ". 1g .\n. 4r .\n. . 1r\nr"):
        with pytest.raises(InvalidPositionError, match="would have exploded"):
            SMALL.state_from_notation(text)
    won = SMALL.state_from_notation(". . .\n2r . .\n. 3r .\ng")
    assert won.outcome().winner == 0 and won.to_notation().split("\n")[2] == ". 3r ."
    fullest = ChainReactionGame.state_from_position(". 3r\n2r .\ng")  # 5 orbs: the most a 2x2 grid holds
    assert fullest.outcome().winner == 0


def test_every_position_the_engine_writes_reads_back():
    import random
    rng = random.Random(1)
    for game in (GAME, SMALL, boomboard.load_game("chain_reaction", rows=2, cols=7)):
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                text = state.to_notation()
                again = game.state_from_notation(text)
                assert again == state and again.to_notation() == text and again.outcome() == state.outcome()
