"""Expendibots' native notations, read and written exactly, and bad input."""

import json
import re

import numpy as np
import pytest

import boomboard
from boomboard import IllegalActionError, InvalidPositionError, NotationError
from boomboard.games.expendibots import notation
from boomboard.games.expendibots.notation import (
    NUM_ACTIONS,
    START_POSITION,
    check_action,
    colour_name,
    decode_action,
    encode_action,
    format_action,
    format_position,
    format_tuple,
    parse_action,
    parse_colour,
    parse_position,
    position_data,
    read_position,
)

GAME = boomboard.load_game("expendibots")
START_JSON = (
    '{"white": [[1, 0, 0], [1, 1, 0], [1, 3, 0], [1, 4, 0], [1, 6, 0], [1, 7, 0], '
    '[1, 0, 1], [1, 1, 1], [1, 3, 1], [1, 4, 1], [1, 6, 1], [1, 7, 1]], '
    '"black": [[1, 0, 6], [1, 1, 6], [1, 3, 6], [1, 4, 6], [1, 6, 6], [1, 7, 6], '
    '[1, 0, 7], [1, 1, 7], [1, 3, 7], [1, 4, 7], [1, 6, 7], [1, 7, 7]]}'
)


# -- action ids -----------------------------------------------------------------------
def test_action_id_layout():
    assert GAME.num_distinct_actions() == NUM_ACTIONS == 64 + 64 * 4 * 7 * 12 == 21568
    assert encode_action(("BOOM", (0, 0))) == 0
    assert encode_action(("BOOM", (5, 2))) == 2 * 8 + 5
    # 64 + ((sq*4 + dir)*7 + (d-1))*12 + (m-1); dir 0 up, 1 down, 2 left, 3 right
    assert encode_action(("MOVE", 1, (0, 0), (0, 1))) == 64
    assert encode_action(("MOVE", 2, (3, 1), (3, 3))) == 64 + ((11 * 4 + 0) * 7 + 1) * 12 + 1
    assert encode_action(("MOVE", 3, (5, 6), (5, 2))) == 64 + ((53 * 4 + 1) * 7 + 3) * 12 + 2
    assert encode_action(("MOVE", 12, (7, 0), (0, 0))) == 64 + ((7 * 4 + 2) * 7 + 6) * 12 + 11
    assert encode_action(("MOVE", 1, (0, 7), (7, 7))) == 64 + ((56 * 4 + 3) * 7 + 6) * 12
    assert encode_action(("MOVE", 12, (7, 7), (7, 0))) == 64 + ((63 * 4 + 1) * 7 + 6) * 12 + 11


def test_every_id_on_the_board_decodes_and_encodes_back():
    decoded = 0
    for action in range(NUM_ACTIONS):
        try:
            referee = decode_action(action)
        except IllegalActionError:
            continue
        decoded += 1
        assert encode_action(referee) == action
        assert parse_action(format_action(referee)) == referee
        assert parse_action(format_tuple(referee)) == referee
    # booms, plus every (square, direction, distance) that stays on the board, 12 counts each
    assert decoded == 64 + 4 * 8 * (7 * 8 // 2) * 12


def test_ids_off_the_board_or_out_of_range_are_refused():
    with pytest.raises(IllegalActionError, match="off the board"):
        decode_action(encode_action(("MOVE", 1, (0, 0), (0, 1))) + 12 * 7 * 1)  # down from row 0
    for bad in (-1, NUM_ACTIONS, True, "3"):
        with pytest.raises(IllegalActionError, match="0..21567"):
            decode_action(bad)
    with pytest.raises(IllegalActionError):
        GAME.new_initial_state().action_to_string(NUM_ACTIONS)


# -- referee tuples ---------------------------------------------------------------------
def test_referee_tuples_are_checked_and_normalised():
    assert check_action(["MOVE", 2, [3, 1], [3, 3]]) == ("MOVE", 2, (3, 1), (3, 3))
    assert check_action(("boom", (0, 0))) == ("BOOM", (0, 0))
    referee = check_action(("MOVE", np.int64(1), (np.int32(0), 0), (0, np.int8(1))))
    assert referee == ("MOVE", 1, (0, 0), (0, 1)) and all(type(v) is int for v in (referee[1], *referee[2]))
    for malformed in ("MOVE", (), ("JUMP", (0, 0)), ("BOOM", (0,)), ("BOOM", (0, "1")), ("MOVE", 1, (0, 0)),
                      ("MOVE", 1.0, (0, 0), (0, 1)), ("BOOM", (0, True)), (1, (0, 0)), None):
        with pytest.raises(NotationError, match="expected|must be"):
            check_action(malformed)
    for illegal, why in [(("BOOM", (8, 0)), "off the board"), (("MOVE", 1, (0, 0), (0, -1)), "off the board"),
                         (("MOVE", 1, (0, 0), (1, 1)), "up, down, left or right"),
                         (("MOVE", 1, (2, 2), (2, 2)), "up, down, left or right"),
                         (("MOVE", 13, (0, 0), (0, 1)), "1 to 12 tokens"),
                         (("MOVE", 0, (0, 0), (0, 1)), "1 to 12 tokens")]:
        with pytest.raises(IllegalActionError, match=why):
            check_action(illegal)


def test_state_converts_referee_tuples_and_checks_legality():
    state = GAME.new_initial_state()
    action = state.tuple_to_action(("MOVE", 1, (3, 1), (3, 2)))
    assert state.action_to_tuple(action) == ("MOVE", 1, (3, 1), (3, 2))
    assert state.action_to_tuple(state.tuple_to_action(("BOOM", (7, 1)))) == ("BOOM", (7, 1))
    with pytest.raises(IllegalActionError, match="no white stack"):
        state.tuple_to_action(("BOOM", (2, 2)))


# -- text and printed tuple forms -------------------------------------------------------
def test_text_form_is_written_exactly():
    assert format_action(("MOVE", 2, (3, 1), (3, 3))) == "MOVE 2 from (3, 1) to (3, 3)."
    assert format_action(("BOOM", (0, 7))) == "BOOM at (0, 7)."
    state = GAME.new_initial_state()
    assert state.action_to_course(11) == "BOOM at (3, 1)."
    assert state.action_to_course(64) == "MOVE 1 from (0, 0) to (0, 1)."


def test_text_form_is_read_in_any_case_spacing_and_without_the_period():
    expected = ("MOVE", 1, (3, 1), (3, 2))
    for text in ("MOVE 1 from (3, 1) to (3, 2).", "move 1 FROM (3,1) TO (3,2)", "  Move  1  from(3 ,1)to( 3, 2 ) . ",
                 "MOVE 1 from (3, 1) to (3, 2)", "mOvE\t1\tfrom (3, 1)\nto (3, 2)."):
        assert parse_action(text) == expected, text
    for text in ("BOOM at (3, 1).", "boom AT(3,1)", " Boom at ( 3 , 1 ) "):
        assert parse_action(text) == ("BOOM", (3, 1)), text
    state = GAME.new_initial_state()
    assert state.string_to_action("move 1 from (3,1) to (3,2)") == encode_action(expected)


def test_printed_tuple_form_is_read_with_either_quote_and_written_as_python_prints_it():
    assert format_tuple(("MOVE", 1, (0, 1), (0, 2))) == "('MOVE', 1, (0, 1), (0, 2))"
    assert format_tuple(("BOOM", (4, 4))) == "('BOOM', (4, 4))"
    assert format_tuple(("MOVE", 1, (0, 1), (0, 2))) == str(("MOVE", 1, (0, 1), (0, 2)))
    assert parse_action('("MOVE", 1, (0, 1), (0, 2))') == ("MOVE", 1, (0, 1), (0, 2))
    assert parse_action("('BOOM', (4,4))") == ("BOOM", (4, 4))
    assert parse_action(' ( "boom" ,(4 , 4) ) ') == ("BOOM", (4, 4))
    state = GAME.new_initial_state()
    assert state.string_to_action("('BOOM', (0, 0))") == 0


def test_malformed_action_text_is_a_notation_error_naming_the_forms():
    for text in ("", "MOVE", "MOVE 1 from (0, 0)", "BOOM (0, 0)", "BOOM at 0, 0", "MOVE one from (0, 0) to (0, 1).",
                 "BOOM at (0, 0).." , "('BOOM', (0, 0)", "(\"BOOM', (0, 0))", "BOOM at (99999, 0).",
                 "MOVE 1 from (0, 0) to (0, 1). extra", "MOVE -1 from (0, 0) to (0, 1)."):
        with pytest.raises(NotationError, match="MOVE n from"):
            parse_action(text)
    with pytest.raises(NotationError, match="as text"):
        parse_action(("BOOM", (0, 0)))


def test_long_junk_is_refused_without_a_long_search():
    for text in ("BOOM at (" + " " * 100000 + "x", "MOVE 1 from (0, 0) to (0, 1)" + " " * 100000 + "x",
                 "(" + " " * 100000 + "'MOVE'", "move" + " " * 100000 + "1"):
        with pytest.raises(NotationError, match="expected an action"):
            parse_action(text)
    assert parse_action("MOVE 1 from (0, 0) to (0, 1)" + " " * 100000 + ".") == ("MOVE", 1, (0, 0), (0, 1))


def test_well_formed_but_illegal_text_says_why():
    state = GAME.new_initial_state()
    for text, why in [("BOOM at (8, 0).", "off the board"), ("MOVE 1 from (0, 1) to (1, 2).", "up, down"),
                      ("MOVE 13 from (0, 1) to (0, 2).", "1 to 12"), ("BOOM at (0, 7).", "no white stack"),
                      ("BOOM at (2, 0).", "no white stack"), ("MOVE 1 from (0, 1) to (0, 3).", "1 token")]:
        with pytest.raises(IllegalActionError, match=why):
            state.string_to_action(text)
    state = GAME.state_from_notation('{"white": [[1, 0, 0]], "black": [[1, 0, 1]]}')
    with pytest.raises(IllegalActionError, match="a2 holds a black stack; a move lands on an empty"):
        state.string_to_action("MOVE 1 from (0, 0) to (0, 1).")


# -- the short form people type --------------------------------------------------------
def test_short_form_names_squares_like_chess_and_is_read_in_any_case():
    state = GAME.new_initial_state()
    assert parse_action("1 b2 b3") == ("MOVE", 1, (1, 1), (1, 2))
    assert parse_action("  1 B2-b3 ") == parse_action("1 b2 - b3") == ("MOVE", 1, (1, 1), (1, 2))
    assert parse_action("boom b2") == parse_action("BOOM  B2") == ("BOOM", (1, 1))
    assert state.string_to_action("1 b2 b3") == state.string_to_action("MOVE 1 from (1, 1) to (1, 2).")
    for action in state.legal_actions():
        assert state.string_to_action(state.action_to_string(action)) == action
    assert state.action_to_string(state.string_to_action("boom h2")) == "boom h2"


def test_short_form_mistakes_are_explained_in_plain_words():
    state = GAME.new_initial_state()
    for text, why in [
        ("2 b2 b3", r"the stack on b2 has only 1 token, so a move from it takes that 1 token, not 2"),
        ("1 b2 b4", r"has 1 token, so it moves 1 square; b4 is 2 squares away"),
        ("1 c2 c3", r"White is to move and c2 holds no white stack"),
        ("1 i2 i3", r"there is no square i2; columns run a..h and rows 1..8"),
        ("1 b2 c3", r"up, down, left or right"),
    ]:
        with pytest.raises(IllegalActionError, match=why):
            state.string_to_action(text)
    state = GAME.state_from_notation('{"white": [[3, 0, 0]], "black": [[1, 7, 7]]}')
    with pytest.raises(IllegalActionError, match="has only 3 tokens, so a move from it takes 1 to 3 of them, not 4"):
        state.string_to_action("4 a1 a2")
    with pytest.raises(IllegalActionError, match="has 3 tokens, so it moves 1 to 3 squares; a5 is 4 squares away"):
        state.string_to_action("1 a1 a5")
    with pytest.raises(NotationError, match="'1 b2 b3'"):
        state.string_to_action("b2 b3")


def test_after_the_end_no_action_parses_as_legal():
    state = GAME.state_from_notation('{"white": [[1, 0, 0]], "black": []}')
    with pytest.raises(IllegalActionError, match="game is over"):
        state.string_to_action("BOOM at (0, 0).")


# -- colours -------------------------------------------------------------------------
def test_colours():
    assert [colour_name(0), colour_name(1)] == ["white", "black"] == list(GAME.player_names)
    assert parse_colour("white") == 0 and parse_colour(" Black ") == 1
    for bad in ("red", "", None, 0):
        with pytest.raises(NotationError, match="'white' or 'black'"):
            parse_colour(bad)


# -- positions ------------------------------------------------------------------------
def test_the_start_is_written_exactly():
    assert GAME.new_initial_state().to_notation() == START_JSON == START_POSITION


def test_positions_are_written_sorted_by_row_then_column_with_turn_only_for_black():
    state = GAME.state_from_notation('{"black": [[2, 5, 5], [1, 0, 6]], "white": [[3, 7, 0], [1, 2, 0], [1, 0, 3]]}')
    assert state.to_notation() == '{"white": [[1, 2, 0], [3, 7, 0], [1, 0, 3]], "black": [[2, 5, 5], [1, 0, 6]]}'
    state.play("MOVE 3 from (7, 0) to (7, 3).")
    assert state.to_notation() == \
        '{"white": [[1, 2, 0], [1, 0, 3], [3, 7, 3]], "black": [[2, 5, 5], [1, 0, 6]], "turn": "black"}'
    assert json.loads(state.to_notation())["turn"] == "black"


def test_positions_read_in_any_spacing_and_round_trip():
    text = '{\n  "white": [[2,3,3]],\n  "black": [ [1, 7, 7] ],\n  "turn": "black"\n}'
    state = GAME.state_from_notation(text)
    assert state.current_player() == 1 and state.stack((3, 3)) == ("white", 2)
    assert state.to_notation() == '{"white": [[2, 3, 3]], "black": [[1, 7, 7]], "turn": "black"}'
    assert GAME.state_from_notation(state.to_notation()) == state
    assert GAME.state_from_notation('{"white": [[1, 0, 0]], "black": [[1, 7, 7]], "turn": "white"}') \
        .current_player() == 0


def test_people_read_and_write_positions_in_the_squares_names():
    """The terminal's `position`, the web's link and "Start from" show a
    position as the board names its squares, and read it back."""
    start = GAME.new_initial_state()
    assert start.to_people_notation() == ("white a1 b1 d1 e1 g1 h1 a2 b2 d2 e2 g2 h2; "
                                          "black a7 b7 d7 e7 g7 h7 a8 b8 d8 e8 g8 h8; white to move")
    state = GAME.state_from_notation('{"white": [[3, 3, 3], [1, 0, 0]], "black": [[2, 7, 7]], "turn": "black"}')
    assert state.to_people_notation() == "white a1 3d4; black 2h8; black to move"
    assert GAME.state_from_notation(state.to_people_notation()) == state
    assert GAME.state_from_notation("  BLACK 2h8 ;white 3d4 a1; Black to move ") == state
    assert GAME.state_from_notation("white a1; black h8").current_player() == 0
    assert GAME.state_from_notation("white; black h8").is_terminal()  # White has no tokens: lost already


@pytest.mark.parametrize("bad, error, message", [
    ("white a1; black h8; green to move", NotationError, "'white' or 'black'"),
    ("white a1; white b2; black h8", NotationError, "expected a position as 'white a1 b1 3d4"),
    ("white a1; black h8 x", NotationError, "a count and a square"),
    ("white a9; black h8", InvalidPositionError, "no square a9"),
    ("white 0a1; black h8", InvalidPositionError, "at least 1"),
    ("white a1; black a1", InvalidPositionError, "one stack"),
    ("white 13a1; black h8", InvalidPositionError, "at most 12"),
    ("[3, 3, 4]", NotationError, "expected a position as"),
])
def test_bad_people_positions_are_explained(bad, error, message):
    with pytest.raises(error, match=re.escape(message)):
        GAME.state_from_notation(bad)


def test_position_helpers_work_on_decoded_json_and_signed_cells():
    cells, player = read_position({"white": [[2, 3, 1]], "black": [[4, 0, 7]], "turn": "black"})
    assert player == 1 and cells[1 * 8 + 3] == 2 and cells[7 * 8 + 0] == -4 and sum(map(abs, cells)) == 6
    assert position_data(cells, player) == {"white": [[2, 3, 1]], "black": [[4, 0, 7]], "turn": "black"}
    assert parse_position(format_position(cells, player)) == (cells, player)
    assert parse_position(START_POSITION)[1] == 0


def test_empty_sides_are_allowed_and_end_the_game():
    state = GAME.state_from_notation('{"white": [], "black": []}')
    assert state.outcome() == boomboard.Outcome(None, GAME.end_reasons.BOTH_NO_TOKENS)
    assert state.to_notation() == '{"white": [], "black": []}'


MALFORMED = [
    "", "nonsense", "{", "[]", "null", '"white"', '{"white": []}', '{"black": []}',
    '{"white": [], "black": [], "colour": "black"}', '{"white": [], "black": [], "turn": "red"}',
    '{"white": [], "black": [], "turn": 1}', '{"white": {}, "black": []}', '{"white": [], "black": 3}',
    '{"white": [[1, 0]], "black": []}', '{"white": [[1, 0, 0, 0]], "black": []}', '{"white": [1, 0, 0], "black": []}',
    '{"white": [], "black": [[1, 2, 3]]]', "[" * 100000, '{"white": [[1e999999, 0, 0]]}',
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_positions_are_notation_errors_saying_what_is_expected(text):
    with pytest.raises(NotationError, match="expected|must be|stack"):
        GAME.state_from_notation(text)


IMPOSSIBLE = [
    ('{"white": [[0, 0, 0]], "black": [[1, 7, 7]]}', "at least 1"),
    ('{"white": [[-2, 0, 0]], "black": [[1, 7, 7]]}', "at least 1"),
    ('{"white": [[1.5, 0, 0]], "black": [[1, 7, 7]]}', "integers"),
    ('{"white": [["2", 0, 0]], "black": [[1, 7, 7]]}', "integers"),
    ('{"white": [[true, 0, 0]], "black": [[1, 7, 7]]}', "integers"),
    ('{"white": [[1, 0, 0.0]], "black": [[1, 7, 7]]}', "integers"),
    ('{"white": [[1, 8, 0]], "black": [[1, 7, 7]]}', "off the board"),
    ('{"white": [[1, 0, -1]], "black": [[1, 7, 7]]}', "off the board"),
    ('{"white": [[1, 2, 2], [3, 2, 2]], "black": [[1, 7, 7]]}', "two stacks on \\(2, 2\\)"),
    ('{"white": [[1, 2, 2]], "black": [[1, 2, 2]]}', "white and black: stacks never mix"),
    ('{"white": [[13, 2, 2]], "black": [[1, 7, 7]]}', "13 tokens; a colour has at most 12"),
    ('{"white": [[1, 0, 0]], "black": [[6, 0, 7], [7, 7, 7]]}', "black has 13 tokens"),
    ('{"white": [[1, 0, 0]], "black": [[12, 0, 7], [1, 7, 7]]}', "at most 12"),
    ('{"white": [[1, 0, 0]], "black": [[99999999999999999999999, 0, 7]]}', "at most 12"),
]


@pytest.mark.parametrize("text, why", IMPOSSIBLE)
def test_impossible_positions_are_refused(text, why):
    with pytest.raises(InvalidPositionError, match=why):
        GAME.state_from_notation(text)


def test_twelve_tokens_in_one_stack_is_possible():
    state = GAME.state_from_notation('{"white": [[12, 0, 0]], "black": [[5, 7, 7], [7, 6, 5]]}')
    assert state.tokens("white") == 12 and state.tokens("black") == 12


def test_non_text_input_is_refused():
    for bad in (None, 3, {"white": [], "black": []}):
        with pytest.raises(NotationError):
            GAME.state_from_notation(bad)
        with pytest.raises(NotationError):
            parse_position(bad)


def test_the_state_reads_the_board():
    state = GAME.state_from_notation('{"white": [[2, 3, 3], [1, 0, 0]], "black": [[4, 7, 7]], "turn": "black"}')
    assert state.stack((3, 3)) == ("white", 2) and state.stack((7, 7)) == ("black", 4) and state.stack((4, 4)) is None
    assert state.stacks("white") == [(1, 0, 0), (2, 3, 3)] and state.stacks(1) == [(4, 7, 7)]
    assert state.tokens(0) == 3 and state.tokens("black") == 4
    for bad in ((8, 0), (0,), "a1", (0.0, 1)):
        with pytest.raises(NotationError, match="square"):
            state.stack(bad)
    with pytest.raises(NotationError):
        state.tokens(2)


def test_board_picture_is_labelled_as_the_short_form_names_squares():
    text = str(GAME.state_from_notation('{"white": [[2, 3, 0]], "black": [[12, 0, 7]], "turn": "black"}'))
    lines = text.splitlines()
    assert lines[0].split() == ["8", "b12", ".", ".", ".", ".", ".", ".", "."]  # a8 is (0, 7)
    assert lines[7].split() == ["1", ".", ".", ".", "w2", ".", ".", ".", "."]  # d1 is (3, 0)
    assert lines[8].split() == list("abcdefgh")
    assert lines[9] == "Black to move"


def test_the_module_documents_its_public_api():
    for name in ("encode_action", "decode_action", "format_action", "format_tuple", "parse_action",
                 "check_action", "parse_colour", "colour_name", "parse_position", "read_position",
                 "format_position", "position_data", "format_short", "square_name"):
        assert getattr(notation, name).__doc__, name


def test_the_docs_page_example_prints_the_notation_it_says_and_the_doctests_hold():
    """docs/games/expendibots.md's example: each line printed is the comment
    beside it, then the board and position the page shows."""
    import contextlib
    import doctest
    import io
    from pathlib import Path

    from boomboard.games.expendibots import game as game_module

    page = (Path(__file__).parent.parent / "docs" / "games" / "expendibots.md").read_text()
    example = page.split("## Example")[1]
    code = example.split("```python\n")[1].split("```")[0]
    printed = example.split("prints, after the lines above,\n\n```\n")[1].split("```")[0]
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "expendibots.md", "exec"), {})
    commented = [line.split("# ")[-1] for line in code.splitlines() if line.startswith("print(") and "# " in line]
    lines = output.getvalue().splitlines()
    assert lines[:len(commented)] == commented
    assert output.getvalue().endswith(printed)
    failures, tried = doctest.testmod(game_module)
    assert tried > 0 and failures == 0
