"""Every rule of Expendibots (rulebook section 1), each in a position where it
matters, and the rulebook's facts and figures."""

import json

import pytest

import boomboard
from boomboard.core.state import TERMINAL_PLAYER

GAME = boomboard.load_game("expendibots")
REASONS = GAME.end_reasons


def place(white, black, turn="white"):
    """A position from stacks given as ``[n, x, y]``."""
    data = {"white": [list(s) for s in white], "black": [list(s) for s in black]}
    if turn == "black":
        data["turn"] = "black"
    return GAME.state_from_notation(json.dumps(data))


def texts(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def moves_from(state, square):
    """The legal moves from ``square`` as (tokens, destination)."""
    found = set()
    for action in state.legal_actions():
        action = state.action_to_tuple(action)
        if action[0] == "MOVE" and action[2] == square:
            found.add((action[1], action[3]))
    return found


def board(state):
    """{(x, y): (colour, n)} of every stack."""
    return {(x, y): (colour, n) for colour in ("white", "black") for n, x, y in state.stacks(colour)}


# -- board, start, turn order ---------------------------------------------------------
def test_start_position_twelve_tokens_each_in_three_square_formations():
    state = GAME.new_initial_state()
    columns = (0, 1, 3, 4, 6, 7)
    assert board(state) == {
        **{(x, y): ("white", 1) for x in columns for y in (0, 1)},
        **{(x, y): ("black", 1) for x in columns for y in (6, 7)},
    }
    assert state.tokens("white") == state.tokens("black") == 12
    assert state.current_player() == 0 and GAME.player_names == ("white", "black")


def test_from_the_start_white_has_50_actions_12_booms_38_moves_41_boards():
    state = GAME.new_initial_state()
    kinds = [state.action_to_tuple(a)[0] for a in state.legal_actions()]
    assert len(kinds) == 50 and kinds.count("BOOM") == 12 and kinds.count("MOVE") == 38
    assert len({state.child(a).to_notation() for a in state.legal_actions()}) == 41


def test_black_has_the_same_50_actions_after_a_white_move_that_leaves_it_alone():
    state = GAME.new_initial_state()
    state.play("MOVE 1 from (0, 1) to (0, 2).")
    assert state.current_player() == 1
    kinds = [state.action_to_tuple(a)[0] for a in state.legal_actions()]
    assert len(kinds) == 50 and kinds.count("BOOM") == 12 and kinds.count("MOVE") == 38
    assert len({state.child(a).to_notation() for a in state.legal_actions()}) == 41
    # the mirrored start with Black to move, loaded directly
    mirrored = place([[1, x, 7 - y] for n, x, y in state.stacks("black")],
                     [[1, x, 7 - y] for n, x, y in GAME.new_initial_state().stacks("white")], turn="black")
    assert len(mirrored.legal_actions()) == 50


def test_players_alternate_white_first():
    state = GAME.new_initial_state()
    state.play("MOVE 1 from (0, 1) to (0, 2).")
    assert state.current_player() == 1
    with pytest.raises(boomboard.IllegalActionError, match="Black is to move"):
        state.play("MOVE 1 from (0, 2) to (0, 3).")
    state.play("MOVE 1 from (0, 6) to (0, 5).")
    assert state.current_player() == 0


# -- moves --------------------------------------------------------------------------
def test_a_stack_of_n_moves_1_to_n_tokens_1_to_n_squares_in_four_directions():
    state = place([[3, 3, 3]], [[1, 7, 7]])
    expected = {(m, (3 + dx * d, 3 + dy * d)) for m in (1, 2, 3) for d in (1, 2, 3)
                for dx, dy in ((0, 1), (0, -1), (-1, 0), (1, 0))}
    assert moves_from(state, (3, 3)) == expected and len(expected) == 36
    assert len(state.legal_actions()) == 37  # and one boom


def test_a_single_token_moves_exactly_one_square():
    state = place([[1, 3, 3]], [[1, 7, 7]])
    assert moves_from(state, (3, 3)) == {(1, (3, 4)), (1, (3, 2)), (1, (2, 3)), (1, (4, 3))}


def test_figure_2a_a_two_stack_has_12_moves_when_enemies_block_two_squares():
    # Black on (3, 4) blocks up-1 and on (1, 3) blocks left-2; (3, 5) is reached over (3, 4)
    state = place([[2, 3, 3]], [[1, 3, 4], [1, 1, 3], [1, 7, 7]])
    destinations = {(3, 5), (3, 2), (3, 1), (2, 3), (4, 3), (5, 3)}
    assert moves_from(state, (3, 3)) == {(m, sq) for m in (1, 2) for sq in destinations}
    assert len(moves_from(state, (3, 3))) == 12


def test_figure_2b_a_token_with_two_moves_and_merging_into_a_three_stack():
    # on the left edge, Black to the right: up onto its own 2-stack, or down
    state = place([[1, 0, 3], [2, 0, 4]], [[1, 1, 3], [1, 7, 7]])
    assert moves_from(state, (0, 3)) == {(1, (0, 4)), (1, (0, 2))}
    state.play("MOVE 1 from (0, 3) to (0, 4).")
    assert state.stack((0, 4)) == ("white", 3) and state.stack((0, 3)) is None


def test_moving_part_of_a_stack_leaves_the_rest_and_merges_with_an_own_stack():
    state = place([[4, 2, 2], [1, 2, 5]], [[1, 7, 7]])
    state.play("MOVE 3 from (2, 2) to (2, 5).")
    assert state.stack((2, 2)) == ("white", 1) and state.stack((2, 5)) == ("white", 4)
    assert state.tokens("white") == 5


def test_a_move_cannot_land_on_an_enemy_stack_but_may_pass_over_it():
    state = place([[2, 0, 0]], [[1, 0, 1], [1, 1, 0], [1, 7, 7]])
    assert moves_from(state, (0, 0)) == {(1, (0, 2)), (2, (0, 2)), (1, (2, 0)), (2, (2, 0))}
    with pytest.raises(boomboard.IllegalActionError, match="black stack"):
        state.play("MOVE 1 from (0, 0) to (0, 1).")


def test_no_move_leaves_the_board():
    state = place([[12, 0, 0]], [[1, 7, 7]])
    # a 12-stack in the corner: 7 squares up and 7 right, 12 counts each
    assert len(moves_from(state, (0, 0))) == 2 * 7 * 12
    assert all(0 <= x < 8 and 0 <= y < 8 for _, (x, y) in moves_from(state, (0, 0)))
    with pytest.raises(boomboard.IllegalActionError, match="off the board"):
        state.play("MOVE 1 from (0, 0) to (-1, 0).")


def test_a_move_is_never_diagonal_and_never_farther_than_the_stack_is_high():
    state = place([[2, 3, 3]], [[1, 7, 7]])
    with pytest.raises(boomboard.IllegalActionError, match="up, down, left or right"):
        state.play("MOVE 1 from (3, 3) to (4, 4).")
    with pytest.raises(boomboard.IllegalActionError, match="2 token"):
        state.play("MOVE 1 from (3, 3) to (3, 6).")
    with pytest.raises(boomboard.IllegalActionError, match="2 token"):
        state.play("MOVE 3 from (3, 3) to (3, 4).")


def test_only_own_stacks_move_or_boom():
    state = place([[1, 0, 0]], [[1, 7, 7]])
    assert texts(state) == ["boom a1", "1 a1 a2", "1 a1 b1"]
    with pytest.raises(boomboard.IllegalActionError, match="holds no white stack"):
        state.play("BOOM at (7, 7).")


# -- booms ---------------------------------------------------------------------------
def test_a_boom_removes_the_whole_stack_and_every_stack_in_the_3x3_square():
    state = place([[3, 3, 3], [1, 2, 2], [1, 0, 0]], [[2, 4, 4], [1, 3, 4], [1, 5, 3], [1, 7, 7]])
    state.play("BOOM at (3, 3).")
    # (2,2), (4,4), (3,4) are neighbours of (3,3); (5,3) is a neighbour of (4,4)
    assert board(state) == {(0, 0): ("white", 1), (7, 7): ("black", 1)}
    assert state.tokens("white") == 1 and state.tokens("black") == 1


def test_a_stack_two_squares_away_is_not_caught():
    state = place([[1, 3, 3], [1, 5, 3], [1, 3, 5]], [[1, 1, 1], [1, 7, 7]])
    state.play("BOOM at (3, 3).")
    assert board(state) == {(5, 3): ("white", 1), (3, 5): ("white", 1), (1, 1): ("black", 1),
                            (7, 7): ("black", 1)}


def test_figure_3a_a_boom_that_removes_every_token_is_a_tie():
    state = place([[1, 3, 3], [2, 2, 2]], [[1, 4, 4], [3, 2, 4], [1, 4, 3]])
    state.play("BOOM at (3, 3).")
    assert board(state) == {}
    assert state.is_terminal() and state.outcome().winner is None
    assert state.outcome().reason == REASONS.BOTH_NO_TOKENS
    assert state.returns() == [0.0, 0.0] and state.current_player() == TERMINAL_PLAYER


def test_figure_3b_a_chain_reaction_runs_through_both_colours():
    # White booms (1,1): the black 3-stack at (2,2) catches, then the black 2-stack,
    # the black 1-stacks, then the white 5-stack; the white 2-stack and the
    # lowermost black token are out of every explosion's reach
    white = [[1, 1, 1], [5, 6, 4], [2, 0, 6]]
    black = [[3, 2, 2], [2, 3, 3], [1, 4, 4], [1, 5, 3], [1, 5, 0]]
    state = place(white, black)
    state.play("BOOM at (1, 1).")
    assert board(state) == {(0, 6): ("white", 2), (5, 0): ("black", 1)}
    assert not state.is_terminal() and state.current_player() == 1


def test_a_boom_that_removes_only_enemy_tokens_wins():
    state = place([[1, 3, 3], [1, 0, 7]], [[2, 4, 4], [1, 5, 5]])
    state.play("BOOM at (3, 3).")
    assert state.outcome().winner == 0 and state.outcome().reason == REASONS.NO_TOKENS
    assert state.returns() == [1.0, -1.0] and state.legal_actions() == []


def test_booming_your_own_last_tokens_loses():
    state = place([[1, 3, 3], [2, 3, 4]], [[1, 7, 7]])
    state.play("BOOM at (3, 3).")
    assert state.outcome().winner == 1 and state.outcome().reason == REASONS.NO_TOKENS
    black = place([[1, 0, 0]], [[4, 6, 6]], turn="black")
    black.play("BOOM at (6, 6).")
    assert black.outcome().winner == 0 and black.outcome().reason == REASONS.NO_TOKENS


def test_a_boom_reaches_diagonal_neighbours_and_the_board_edge():
    state = place([[1, 0, 0]], [[1, 1, 1], [1, 2, 2], [1, 7, 7]])
    state.play("BOOM at (0, 0).")
    assert board(state) == {(7, 7): ("black", 1)}
    assert state.outcome().winner == 1


# -- loaded finished positions -------------------------------------------------------
def test_a_loaded_position_with_a_side_without_tokens_is_over():
    assert place([[1, 0, 0]], []).outcome() == boomboard.Outcome(0, REASONS.NO_TOKENS)
    assert place([], [[1, 0, 0]], turn="black").outcome() == boomboard.Outcome(1, REASONS.NO_TOKENS)
    empty = place([], [])
    assert empty.outcome() == boomboard.Outcome(None, REASONS.BOTH_NO_TOKENS) and empty.legal_actions() == []


# -- repetition ----------------------------------------------------------------------
SHUTTLE = ["MOVE 1 from (0, 1) to (0, 2).", "MOVE 1 from (0, 6) to (0, 5).",
           "MOVE 1 from (0, 2) to (0, 1).", "MOVE 1 from (0, 5) to (0, 6)."]


def test_the_fourth_occurrence_of_a_position_ties_the_third_does_not():
    state = GAME.new_initial_state()
    for move in SHUTTLE * 2:
        state.play(move)
    assert state.repetitions() == 3 and not state.is_terminal()  # the start counted
    for move in SHUTTLE[:3]:
        state.play(move)
    assert not state.is_terminal()
    state.play(SHUTTLE[3])
    assert state.repetitions() == 4
    assert state.outcome() == boomboard.Outcome(None, REASONS.REPETITION)
    assert state.ply() == 12


def test_the_player_to_move_is_part_of_the_position():
    # White's 2-stack goes round a three-move cycle while Black shuttles, so the
    # board comes back with Black to move: a different position
    start = place([[2, 3, 3]], [[1, 7, 7]])
    state = start.clone()
    for move in ["MOVE 1 from (3, 3) to (3, 5).", "MOVE 1 from (7, 7) to (7, 6).",
                 "MOVE 1 from (3, 5) to (3, 4).", "MOVE 1 from (7, 6) to (7, 7).",
                 "MOVE 1 from (3, 4) to (3, 3)."]:
        state.play(move)
    assert board(state) == board(start) and state.current_player() == 1
    assert state.repetitions() == 1 and state != start
    shuttle = ["MOVE 1 from (7, 7) to (7, 6).", "MOVE 2 from (3, 3) to (2, 3).",
               "MOVE 1 from (7, 6) to (7, 7).", "MOVE 2 from (2, 3) to (3, 3)."]
    for move in shuttle * 2:
        state.play(move)
    # the board has now occurred four times, but this position only three times
    assert state.repetitions() == 3 and not state.is_terminal()
    for move in shuttle:
        state.play(move)
    assert state.outcome() == boomboard.Outcome(None, REASONS.REPETITION)


def test_repeated_positions_need_not_follow_each_other():
    state = GAME.new_initial_state()
    detour = ["MOVE 1 from (7, 1) to (7, 2).", "MOVE 1 from (7, 6) to (7, 5).",
              "MOVE 1 from (7, 2) to (7, 1).", "MOVE 1 from (7, 5) to (7, 6)."]
    for move in SHUTTLE + detour + SHUTTLE:
        state.play(move)
    assert state.outcome() == boomboard.Outcome(None, REASONS.REPETITION) and state.ply() == 12


# -- the action limit ------------------------------------------------------------------
# White's only token shuttles between (6, 7) and (6, 6), beside Black's token on
# (7, 7); Black's two other tokens walk the left of the board (x <= 4), choosing
# each time a position that has occurred least often, so that no position
# occurs a 4th time. After 499 actions Black is to move.
SENTRY = place([[1, 6, 7]], [[1, 7, 7], [2, 2, 3]])
SENTRY_SQUARES = ((6, 7), (6, 6))


def walk(state, plies):
    for _ in range(plies):
        moves = []
        for action in state.legal_actions():
            kind, *rest = state.action_to_tuple(action)
            if kind == "BOOM":
                continue
            _, origin, target = rest
            if state.current_player() == 0:
                keep = target in SENTRY_SQUARES
            else:
                keep = origin != (7, 7) and target[0] <= 4
            if keep:
                moves.append(action)
        state.apply_action(min(moves, key=lambda a: state.child(a).repetitions()))
    return state


@pytest.fixture(scope="module")
def at_ply_499():
    state = walk(SENTRY.clone(), 499)
    assert not state.is_terminal() and state.ply() == 499 and state.current_player() == 1
    return state


def test_the_500th_action_ties_counting_from_the_loaded_position(at_ply_499):
    state = walk(at_ply_499.clone(), 1)
    assert state.outcome() == boomboard.Outcome(None, REASONS.TURN_LIMIT)
    assert len(state.history()) == 500 == GAME.max_game_length()


def test_a_win_on_the_500th_action_is_a_win(at_ply_499):
    state = at_ply_499.clone()
    state.play("BOOM at (7, 7).")  # takes White's last token, not Black's walker
    assert state.outcome() == boomboard.Outcome(1, REASONS.NO_TOKENS) and state.ply() == 500


def test_a_4th_occurrence_on_the_500th_action_is_a_repetition():
    # both sides shuttle for the last 12 actions: the position after action 488
    # occurs for the 4th time with the 500th
    state = walk(SENTRY.clone(), 488)
    (_, wx, wy), = state.stacks("white")
    _, bx, by = [stack for stack in state.stacks("black") if stack[1:] != (7, 7)][0]
    wz = 13 - wy  # the other sentry square
    shuttle = [f"MOVE 1 from ({wx}, {wy}) to ({wx}, {wz}).", f"MOVE 1 from ({bx}, {by}) to ({bx + 1}, {by}).",
               f"MOVE 1 from ({wx}, {wz}) to ({wx}, {wy}).", f"MOVE 1 from ({bx + 1}, {by}) to ({bx}, {by})."]
    for move in shuttle * 3:
        assert not state.is_terminal()
        state.play(move)
    assert state.ply() == 500 and state.repetitions() == 4
    assert state.outcome() == boomboard.Outcome(None, REASONS.REPETITION)
