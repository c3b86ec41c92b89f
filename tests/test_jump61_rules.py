"""Every rule of Jump61 (rulebook section 2), each in a position where it matters."""

import random

import numpy as np
import pytest

import boomboard
from boomboard import IllegalActionError
from boomboard.games.jump61 import Jump61Game, rules

REASONS = Jump61Game.end_reasons

GAME = boomboard.load_game("jump61")


def dump(*rows: str) -> str:
    return "\n".join(["==="] + ["    " + row for row in rows] + ["==="])


def load(*rows: str):
    return Jump61Game.state_from_dump(dump(*rows))


def names(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# -- board and start --------------------------------------------------------------
@pytest.mark.parametrize("size", [2, 3, 6, 10, 16])
def test_start_is_all_white_with_one_spot_and_red_moves_first(size):
    state = boomboard.load_game("jump61", size=size).new_initial_state()
    assert all(state.square(r, c) == ("white", 1) for r in range(1, size + 1) for c in range(1, size + 1))
    assert state.total_spots() == size * size
    assert state.current_player() == 0 and state.game.player_names == ("red", "blue")
    assert len(state.legal_actions()) == size * size  # every square is free at the start


def test_default_size_is_6_and_the_range_is_2_to_16():
    assert GAME.size == 6 and GAME.num_distinct_actions() == 36
    for bad in (1, 17):
        with pytest.raises(boomboard.ParameterError):
            boomboard.load_game("jump61", size=bad)


def test_square_r_c_is_row_from_the_top_and_column_from_the_left():
    state = GAME.new_initial_state()
    assert state.play("2 5") == (2 - 1) * 6 + (5 - 1)
    assert state.square(2, 5) == ("red", 2)
    assert state.to_notation().splitlines()[2] == "    1- 1- 1- 1- 2r 1-"  # row 2 is the second line


def test_neighbours_are_orthogonal_only_corner_2_edge_3_inside_4():
    state = GAME.new_initial_state()
    assert [state.neighbours(r, c) for r, c in ((1, 1), (1, 6), (6, 1), (6, 6))] == [2, 2, 2, 2]
    assert [state.neighbours(r, c) for r, c in ((1, 3), (4, 1), (6, 2), (5, 6))] == [3, 3, 3, 3]
    assert [state.neighbours(r, c) for r, c in ((2, 2), (3, 4), (5, 5))] == [4, 4, 4]


# -- the move -----------------------------------------------------------------------
def test_a_move_adds_one_spot_and_the_square_takes_the_movers_colour():
    state = GAME.new_initial_state()
    state.play("3 3")
    state.play("4 4")  # Blue on a white square
    assert state.square(4, 4) == ("blue", 2)
    state.play("3 3")  # Red on its own square
    assert state.square(3, 3) == ("red", 3) and state.total_spots() == 36 + 3


def test_a_player_may_not_add_a_spot_to_the_opponents_square():
    state = GAME.new_initial_state()
    state.play("1 1")
    assert "1 1" not in names(state) and len(names(state)) == 35  # Blue: all but Red's square
    with pytest.raises(IllegalActionError, match="1 1 is red; Blue may add a spot only to a blue or white"):
        state.play("1 1")
    with pytest.raises(IllegalActionError, match="legal actions"):
        state.apply_action(0)
    state.play("1 2")
    assert "1 2" not in names(state) and "1 1" in names(state)  # Red: its own square, not Blue's


FAR = {"1 1": (4, 4), "4 4": (1, 1), "1 3": (4, 1), "3 1": (1, 4), "2 2": (4, 4), "3 3": (1, 1)}


@pytest.mark.parametrize("square, neighbours", [
    ("1 1", 2), ("4 4", 2), ("1 3", 3), ("3 1", 3), ("2 2", 4), ("3 3", 4)])
def test_a_square_is_overfull_with_more_spots_than_neighbours(square, neighbours):
    r, c = (int(x) for x in square.split())
    for before in range(1, neighbours + 1):
        rows = [["1-"] * 4 for _ in range(4)]
        rows[r - 1][c - 1] = f"{before}r"
        if (before - 1) % 2:  # a blue square far away keeps Red to move
            far_r, far_c = FAR[square]
            rows[far_r - 1][far_c - 1] = "2b"
        state = load(*(" ".join(row) for row in rows))
        assert state.current_player() == 0 and state.neighbours(r, c) == neighbours
        state.play(square)
        if before < neighbours:  # now at most as many spots as neighbours: it stays
            assert state.square(r, c) == ("red", before + 1)
        else:  # now one more than its neighbours: one spot to each, one left
            assert state.square(r, c) == ("red", 1)
            assert state.total_spots() == 16 + before + (before - 1) % 2


def test_a_jump_moves_one_spot_to_each_neighbour_and_colours_them():
    state = load("2b 1- 1-",
                 "2b 4r 2b",
                 "1- 1- 1-")
    state.play("2 2")  # Red: 5 spots, over its 4 neighbours
    assert state.to_notation() == dump("2b 2r 1-",
                                       "3r 1r 3r",
                                       "1- 2r 1-")
    # the blue and the white neighbours turned red; the corner, no neighbour, stayed blue
    assert state.square(1, 1) == ("blue", 2) and state.total_spots() == 9 + 6 + 1


def test_figure_2_a_jump_makes_a_neighbour_overfull_which_jumps_in_turn():
    # As in the seed's Figure 2, Red adds a spot to 2 1 (an edge square, 3 neighbours).
    state = load("1- 1- 1- 1-",
                 "3r 4r 1- 1-",
                 "1- 2b 1- 1-",
                 "1- 1- 1- 1-")
    assert state.current_player() == 0
    state.play("2 1")
    # 2 1 holds 4 > 3: it jumps to 1 1, 2 2 and 3 1 (up, right, down), keeping 1;
    # 2 2 now holds 5 > 4: it jumps to 1 2, 2 1, 2 3 and 3 2, keeping 1; 3 2 turns
    # from blue to red (2 + 1 = 3 spots); 2 1 is back to 2. Nothing is overfull.
    assert state.to_notation() == dump("2r 2r 1- 1-",
                                       "2r 1r 2r 1-",
                                       "2r 3r 1- 1-",
                                       "1- 1- 1- 1-")
    assert state.current_player() == 1 and not state.is_terminal()


def test_early_stop_the_moment_the_board_is_one_colour_leaving_overfull_squares():
    state = load("2r 2r",
                 "2r 2b")
    state.play("1 1")
    # 1 1 (3 spots) jumps: 1 2 and 2 1 get 3, both overfull, queued in that order
    # (right before down). 1 2 jumps first: 1 1 gets 2, 2 2 turns red with 3.
    # The board is all red: play stops with 2 1 and 2 2 still overfull.
    assert state.to_notation() == dump("2r 1r",
                                       "3r 3r")
    assert state.spots(2, 1) > state.neighbours(2, 1) and state.spots(2, 2) > state.neighbours(2, 2)
    assert state.outcome() == boomboard.Outcome(winner=0, reason=REASONS.ALL_ONE_COLOUR)
    assert state.legal_actions() == [] and state.returns() == [1.0, -1.0]


def test_a_board_that_would_cycle_forever_stops_at_the_win():
    # 9 spots on a 2x2 board (whose neighbour counts sum to 8) can never settle:
    # without the stop at one colour the jumps would go round for ever.
    state = load("2r 2b",
                 "2b 2r")
    state.play("1 1")
    assert state.is_terminal() and state.outcome().winner == 0 and state.total_spots() == 9


def test_the_cascade_is_first_in_first_out_in_up_left_right_down_order():
    state = load("1b 3r 2b",
                 "3r 4r 3r",
                 "2b 3r 2b")
    assert state.current_player() == 0
    state.play("2 2")
    # 2 2 (5) jumps to 1 2, 2 1, 2 3, 3 2 (up, left, right, down): each has 4 and
    # queues in that order. 1 2 jumps: 1 1 turns red (2), 1 3 red (3, queued), 2 2
    # has 2. 2 1 jumps: 1 1 has 3 (queued), 2 2 has 3, 3 1 turns red (3, queued).
    # 2 3 jumps: 1 3 has 4, 2 2 has 4, 3 3 turns red: all red, stop. 3 2 never
    # jumped; 1 1, 1 3, 3 1, 3 2 and 3 3 are left overfull.
    assert state.to_notation() == dump("3r 1r 4r",
                                       "1r 4r 1r",
                                       "3r 4r 3r")
    assert state.outcome().winner == 0


def test_a_win_needs_no_jump_when_the_last_other_square_is_taken():
    state = load("2r 2r",
                 "1r 1-")
    assert state.current_player() == 0
    state.play("2 2")
    assert state.outcome() == boomboard.Outcome(winner=0, reason=REASONS.ALL_ONE_COLOUR)
    assert state.to_notation() == dump("2r 2r", "1r 2r")


def test_blue_wins_when_every_square_is_blue():
    state = load("1- 2b",
                 "2b 1b")
    state.play("1 1")  # Red
    state.play("1 2")  # Blue: 3 > 2 jumps onto 1 1 (red, now blue with 3) and 2 2
    assert state.to_notation() == dump("3b 1b", "2b 2b")
    assert state.outcome() == boomboard.Outcome(winner=1, reason=REASONS.ALL_ONE_COLOUR)
    assert state.returns() == [-1.0, 1.0]


def test_a_loaded_one_coloured_board_is_already_won_even_with_overfull_squares():
    state = load("3b 1b",
                 "3b 2b")
    assert state.is_terminal() and state.outcome().winner == 1 and state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        state.string_to_action("1 1")


def test_the_player_to_move_follows_from_the_parity_of_the_spots():
    assert load("2r 1-", "1- 1-").current_player() == 1  # one spot added: Blue
    assert load("2r 2b", "1- 1-").current_player() == 0
    assert load("1- 1r 1-", "3r 1r 1-", "1b 1r 1-").current_player() == 0  # after a jump


# -- the end -------------------------------------------------------------------------
def test_no_ties_and_every_random_game_ends_within_the_proven_length():
    for size in (2, 3, 4, 6):
        game = boomboard.load_game("jump61", size=size)
        assert game.max_game_length() == (3 * size - 1) * (size - 1)
        rng = random.Random(size)
        for _ in range(50):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            assert state.outcome().winner in (0, 1) and state.outcome().reason == REASONS.ALL_ONE_COLOUR
            assert state.ply() <= game.max_game_length()


def test_the_length_bound_is_reached_on_2x2():
    state = boomboard.load_game("jump61", size=2).new_initial_state()
    for move in ("1 1", "2 2", "1 2", "2 1"):
        state.play(move)
    assert state.total_spots() == 8 and not state.is_terminal()  # every square full, none over
    for action in state.legal_actions():  # Red's 5th move always wins
        assert state.child(action).outcome().winner == 0
    assert state.ply() + 1 == state.game.max_game_length() == 5


def test_the_cascade_guard_raises_past_its_bound_instead_of_looping():
    assert rules.jump_limit(2) == 3 * 2 * 1 * (8 + 1 - 4)
    state = load("1- 1- 1- 1-", "3r 4r 1- 1-", "1- 2b 1- 1-", "1- 1- 1- 1-")
    array = np.array(state.array)
    params = state.game.params_array.copy()
    params[rules.P_JUMP_LIMIT] = 0  # the Figure 2 chain makes two jumps
    with pytest.raises(RuntimeError, match="bound"):
        rules.apply_action(array, params, 4)
