"""Every rule of HExplocus (rulebook section 4) on the hexagonal board, each in
a position where it matters; the square board has its own file."""

import random

import boomboard
from boomboard.core.layout import PLY
from boomboard.games.explocus.notation import write_position

GAME = boomboard.load_game("hexplocus")
REASONS = GAME.end_reasons


def place(stacks: dict[str, str], to_move: str = "w", game=GAME):
    """A position with ``stacks`` such as ``{"E5": "w3"}`` and nothing else."""
    cells = [0] * game.board.ncells
    for name, token in stacks.items():
        cells[game.board.cell_of_name[name.lower()]] = int(token[1:]) * (1 if token[0] == "w" else -1)
    return game.state_from_notation(write_position(game.board, cells, "wb".index(to_move)))


def moves(state, origin: str) -> set[str]:
    names = (state.action_to_string(a) for a in state.legal_actions())
    return {name for name in names if name.startswith(origin + "-")}


def stacks(state) -> dict[str, tuple[str, int]]:
    names = state.game.board.names
    return {name: state.stack(name) for name in names if state.stack(name)}


# -- board and start --------------------------------------------------------------
def test_board_has_61_cells_named_like_abalone():
    board = GAME.board
    assert board.ncells == 61
    assert [len(row) for row in board.rows] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert [board.names[c] for c in board.rows[-1]] == ["A1", "A2", "A3", "A4", "A5"]
    assert [board.names[c] for c in board.rows[0]] == ["I5", "I6", "I7", "I8", "I9"]
    assert [board.names[c] for c in board.rows[4]][::4] == ["E1", "E5", "E9"]


def test_capacity_is_the_number_of_neighbours_corner_edge_inside():
    state = GAME.new_initial_state()
    assert [state.capacity(c) for c in ("A1", "A5", "E1", "E9", "I5", "I9")] == [3] * 6
    assert [state.capacity(c) for c in ("A3", "C1", "G9", "I7", "B6", "H4")] == [4] * 6
    assert [state.capacity(c) for c in ("E5", "B2", "H8", "D7")] == [6] * 4
    capacities = GAME.board.capacity
    assert (capacities.count(3), capacities.count(4), capacities.count(6)) == (6, 18, 37)


def test_standard_start_and_white_moves_first():
    state = GAME.new_initial_state()
    assert state.to_notation() == (
        "...../b2b3b4b4b3b2/......./......../........./......../......./w2w3w4w4w3w2/..... w")
    assert [state.stack(f"B{i}") for i in range(1, 7)] == [("white", h) for h in (2, 3, 4, 4, 3, 2)]
    assert [state.stack(f"H{i}") for i in range(4, 10)] == [("black", h) for h in (2, 3, 4, 4, 3, 2)]
    assert state.current_player() == 0
    assert {state.action_to_string(a)[:2] for a in state.legal_actions()} == {f"B{i}" for i in range(1, 7)}
    assert len(state.legal_actions()) == 68


def test_standard_start_on_other_sides():
    assert boomboard.load_game("hexplocus", side=3).new_initial_state().to_notation() == (
        "b2b3b2/..../...../..../w2w3w2 w")  # side 3 uses the edge rows, for room
    assert boomboard.load_game("hexplocus", side=4).new_initial_state().to_notation() == (
        "..../b2b3b3b3b2/....../......./....../w2w3w3w3w2/.... w")  # 4 would reach the other army
    assert boomboard.load_game("hexplocus", side=6).new_initial_state().to_notation() == (
        "....../b2b3b4b4b4b3b2/......../........./........../.........../........../........./"
        "......../w2w3w4w4w4w3w2/...... w")


def test_no_first_move_of_a_standard_start_reaches_the_other_army():
    for side in range(3, 10):
        state = boomboard.load_game("hexplocus", side=side).new_initial_state()
        for action in state.legal_actions():
            child = state.child(action)
            assert child.stones(1) == state.stones(1) and not child.is_terminal()


def test_setup_parameter_takes_a_position():
    game = boomboard.load_game("hexplocus", side=3, setup="b1../..../...../w1.../... b")
    assert game.new_initial_state().to_notation() == "b1../..../...../w1.../... b"


def test_action_ids_follow_cell_direction_distance():
    # C3 is cell 13 (A1..A5, B1..B6, then C1); (+1, 0) is direction 2; kmax = 8
    state = place({"C3": "w2", "A1": "b1"})
    assert state.string_to_action("C3-E3") == (13 * 6 + 2) * 8 + 1 == 641
    assert GAME.num_distinct_actions() == 61 * 6 * 8


# -- moving --------------------------------------------------------------------------
def test_k_stones_move_exactly_k_cells_along_the_six_lines():
    state = place({"E5": "w2", "A1": "b1"})
    assert moves(state, "E5") == {"E5-E6", "E5-E4", "E5-F5", "E5-F6", "E5-D5", "E5-D4",
                                  "E5-E7", "E5-E3", "E5-G5", "E5-G7", "E5-C5", "E5-C3"}


def test_landing_off_the_board_is_illegal():
    state = place({"A1": "w2", "I9": "b1"})
    assert moves(state, "A1") == {"A1-A2", "A1-A3", "A1-B1", "A1-C1", "A1-B2", "A1-C3"}


def test_splitting_leaves_the_bottom_stones_behind():
    state = place({"E5": "w5", "A1": "b1"})
    state.play("E5-B2")
    assert state.stack("E5") == ("white", 2) and state.stack("B2") == ("white", 3)


def test_stones_pass_over_anything_between():
    state = place({"E5": "w2", "F6": "b3", "A1": "b1"})
    state.play("E5-G7")
    assert state.stack("F6") == ("black", 3) and state.stack("G7") == ("white", 2)


def test_landing_on_own_stack_merges_and_on_enemy_stack_captures():
    state = place({"E5": "w1", "E6": "w2", "A1": "b1"})
    state.play("E5-E6")
    assert state.stack("E6") == ("white", 3)
    state = place({"E5": "w1", "D4": "b4", "A1": "b1"})
    state.play("E5-D4")
    assert state.stack("D4") == ("white", 5) and (state.stones(0), state.stones(1)) == (5, 1)


# -- explosions -------------------------------------------------------------------
def test_a_full_stack_explodes_onto_its_six_neighbours_and_takes_them():
    state = place({"E4": "w1", "E5": "w5", "F6": "b2", "A1": "b1"})
    state.play("E4-E5")
    assert stacks(state) == {"E6": ("white", 1), "E4": ("white", 1), "F5": ("white", 1), "F6": ("white", 3),
                             "D5": ("white", 1), "D4": ("white", 1), "A1": ("black", 1)}


def test_explosions_cascade_until_every_stack_is_below_capacity():
    state = place({"E4": "w1", "E5": "w5", "F6": "b5", "A1": "b1"})
    state.play("E4-E5")  # E5 explodes, F6 taken with 6 stones explodes in turn
    assert stacks(state) == {"E4": ("white", 1), "E5": ("white", 1), "E6": ("white", 2), "F5": ("white", 2),
                             "F7": ("white", 1), "G6": ("white", 1), "G7": ("white", 1), "D5": ("white", 1),
                             "D4": ("white", 1), "A1": ("black", 1)}
    assert (state.stones(0), state.stones(1)) == (11, 1)


def test_a_stack_twice_over_capacity_explodes_twice():
    state = place({"A1": "w2", "E5": "w4", "I9": "b1"})
    state.play("E5-A1")  # A1 (capacity 3) gets 6
    assert stacks(state) == {"A2": ("white", 2), "B1": ("white", 2), "B2": ("white", 2), "I9": ("black", 1)}


def test_cascade_order_is_first_in_first_out_and_stops_when_the_opponent_is_out():
    game = boomboard.load_game("hexplocus", side=3, setup=".b1./.w5../.w1w5b3./.b5../... w")
    state = game.new_initial_state()
    state.play("C2-C3")
    # C3 explodes; D3 (direction 3) and B2 (direction 6) reach capacity and queue in
    # that order; D3's explosion takes E4, Black's last stone: B2 is left with 6.
    assert state.to_notation() == "w1w2./w1.w2./.w2w1w4./.w6w1./... b"
    assert state.outcome() == boomboard.Outcome(winner=0, reason=REASONS.NO_TOKENS)


def test_stones_are_conserved_by_moves_and_explosions():
    rng = random.Random(6)
    state = GAME.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        assert state.stones(0) + state.stones(1) == 36
        assert sum(h for _, h in stacks(state).values()) == 36


# -- the end -------------------------------------------------------------------------
def test_taking_the_last_enemy_stone_wins_for_either_side():
    state = place({"E5": "w1", "E6": "b1"})
    state.play("E5-E6")
    assert state.outcome() == boomboard.Outcome(winner=0, reason=REASONS.NO_TOKENS)
    state = place({"E5": "w1", "G7": "b2"}, to_move="b")
    state.play("G7-E5")
    assert state.outcome() == boomboard.Outcome(winner=1, reason=REASONS.NO_TOKENS)
    assert state.legal_actions() == []


def test_a_loaded_position_without_stones_of_one_side_is_over():
    state = place({"E5": "b2"})
    assert state.is_terminal() and state.outcome().winner == 1


def test_fourth_occurrence_of_a_position_is_a_tie_third_is_not():
    state = place({"A1": "w1", "I9": "b1"})
    cycle = ["A1-A2", "I9-I8", "A2-A1", "I8-I9"]
    for move in cycle * 2 + cycle[:3]:
        state.play(move)
    assert not state.is_terminal()
    state.play(cycle[3])
    assert state.repetitions() == 4
    assert state.outcome() == boomboard.Outcome(winner=None, reason=REASONS.REPETITION)


def test_the_500th_action_ties_the_game_unless_it_wins():
    rng = random.Random(4)
    state = GAME.new_initial_state()
    while state.ply() < 499:
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    state.apply_action(rng.choice(state.legal_actions()))
    assert state.outcome() == boomboard.Outcome(winner=None, reason=REASONS.TURN_LIMIT)
    array = place({"E5": "w1", "E6": "b1"}).array.copy()
    array[PLY] = 499
    state = GAME.state_from_array(array)
    state.play("E5-E6")
    assert state.outcome() == boomboard.Outcome(winner=0, reason=REASONS.NO_TOKENS)


def test_every_legal_move_takes_as_many_stones_as_cells():
    rng = random.Random(9)
    board = GAME.board
    state = GAME.new_initial_state()
    for _ in range(60):
        for action in state.legal_actions():
            cell, direction, k = board.decode(action)
            assert 1 <= k <= state.stack(board.names[cell])[1]
            target = board.rays[cell][direction][k - 1]
            assert state.action_to_string(action) == f"{board.names[cell]}-{board.names[target]}"
        state.apply_action(rng.choice(state.legal_actions()))
