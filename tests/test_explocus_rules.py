"""Every rule of Explocus (rulebook section 4) on the square board, each in a
position where it matters; HExplocus has its own file."""

import random

import pytest

import boomboard
from boomboard.core.layout import PLY
from boomboard.games.explocus.notation import write_position

GAME = boomboard.load_game("explocus")
REASONS = GAME.end_reasons


def place(stacks: dict[str, str], to_move: str = "w", game=GAME):
    """A position with ``stacks`` such as ``{"d4": "w3"}`` and nothing else."""
    cells = [0] * game.board.ncells
    for name, token in stacks.items():
        cells[game.board.cell_of_name[name]] = int(token[1:]) * (1 if token[0] == "w" else -1)
    return game.state_from_notation(write_position(game.board, cells, "wb".index(to_move)))


def moves(state, origin: str) -> set[str]:
    names = (state.action_to_string(a) for a in state.legal_actions())
    return {name for name in names if name.startswith(origin + "-")}


def stacks(state) -> dict[str, tuple[str, int]]:
    return {name: state.stack(name) for name in GAME.board.names if state.stack(name)}


# -- board and start --------------------------------------------------------------
def test_capacity_is_the_number_of_neighbours_corner_edge_inside():
    state = GAME.new_initial_state()
    assert [state.capacity(c) for c in ("a1", "h1", "a8", "h8")] == [2, 2, 2, 2]
    assert [state.capacity(c) for c in ("d1", "a5", "h2", "e8")] == [3, 3, 3, 3]
    assert [state.capacity(c) for c in ("b2", "d4", "g7")] == [4, 4, 4]
    assert sorted(GAME.board.capacity).count(4) == 36
    small = boomboard.load_game("explocus", size=3, setup="b1../.../..w1 w").new_initial_state()
    assert (small.capacity("a1"), small.capacity("b1"), small.capacity("b2")) == (2, 3, 4)


def test_standard_start_and_white_moves_first():
    state = GAME.new_initial_state()
    assert state.to_notation() == (
        "......../.b2b2b3b3b2b2./......../......../......../......../.w2w2w3w3w2w2./........ w")
    assert [state.stack(c) for c in ("b2", "c2", "d2", "e2", "f2", "g2")] == [
        ("white", 2), ("white", 2), ("white", 3), ("white", 3), ("white", 2), ("white", 2)]
    assert [state.stack(c)[1] for c in ("b7", "c7", "d7", "e7", "f7", "g7")] == [2, 2, 3, 3, 2, 2]
    assert state.current_player() == 0 and GAME.player_names == ("white", "black")
    assert {state.action_to_string(a)[:2] for a in state.legal_actions()} == {"b2", "c2", "d2", "e2", "f2", "g2"}
    assert len(state.legal_actions()) == 46


def test_standard_start_on_other_sizes_follows_the_same_pattern():
    starts = {
        4: ".b2b2./..../..../.w2w2. w",  # small boards use the edge ranks, for room
        5: ".b2b2b2./...../...../...../.w2w2w2. w",
        6: "....../.b2b2b2b2./....../....../.w2w2w2w2./...... w",  # 3 would reach the other army
        7: "......./.b2b2b3b2b2./......./......./......./.w2w2w3w2w2./....... w",
        9: "........./.b2b2b2b3b2b2b2./........./........./........./........./........./.w2w2w2w3w2w2w2./......... w",
    }
    for size, text in starts.items():
        assert boomboard.load_game("explocus", size=size).new_initial_state().to_notation() == text
    with pytest.raises(boomboard.ParameterError, match="size >= 4"):
        boomboard.load_game("explocus", size=3)


def test_no_first_move_of_a_standard_start_reaches_the_other_army():
    for size in range(4, 17):
        state = boomboard.load_game("explocus", size=size).new_initial_state()
        for action in state.legal_actions():
            child = state.child(action)
            assert child.stones(1) == state.stones(1) and not child.is_terminal()


def test_setup_parameter_takes_a_position():
    game = boomboard.load_game("explocus", size=4, setup="..../.b1../..w2./.... b")
    state = game.new_initial_state()
    assert state.to_notation() == "..../.b1../..w2./.... b" and state.current_player() == 1


def test_action_ids_follow_cell_direction_distance():
    # d2 is cell 11 (row-major from a1); north is direction 2; kmax = 7
    state = GAME.new_initial_state()
    assert state.string_to_action("d2-d4") == (11 * 4 + 2) * 7 + 1 == 323
    assert GAME.num_distinct_actions() == 64 * 4 * 7


# -- moving --------------------------------------------------------------------------
def test_k_stones_move_exactly_k_cells_in_the_four_directions():
    state = place({"d4": "w3", "h8": "b1"})
    assert moves(state, "d4") == {"d4-d5", "d4-d6", "d4-d7", "d4-d3", "d4-d2", "d4-d1",
                                  "d4-e4", "d4-f4", "d4-g4", "d4-c4", "d4-b4", "d4-a4"}


def test_splitting_leaves_the_bottom_stones_behind():
    state = place({"d4": "w3", "h8": "b1"})
    state.play("d4-d6")
    assert state.stack("d4") == ("white", 1) and state.stack("d6") == ("white", 2)
    state = place({"d4": "w3", "h8": "b1"})
    state.play("d4-d7")
    assert state.stack("d4") is None and state.stack("d7") == ("white", 3)


def test_landing_off_the_board_is_illegal():
    state = place({"b2": "w3", "h8": "b1"})
    assert moves(state, "b2") == {"b2-c2", "b2-d2", "b2-e2", "b2-a2", "b2-b3", "b2-b4", "b2-b5", "b2-b1"}


def test_stones_pass_over_anything_between():
    state = place({"d4": "w2", "d5": "b3", "e4": "w1", "a1": "b1"})
    assert {"d4-d6", "d4-f4"} <= moves(state, "d4")
    state.play("d4-d6")
    assert state.stack("d5") == ("black", 3) and state.stack("d6") == ("white", 2)


def test_landing_on_an_own_stack_merges():
    state = place({"d4": "w1", "d5": "w2", "h8": "b1"})
    state.play("d4-d5")
    assert state.stack("d5") == ("white", 3) and state.stack("d4") is None


def test_landing_on_an_enemy_stack_captures_all_of_it():
    state = place({"d4": "w1", "d5": "b2", "h8": "b1"})
    state.play("d4-d5")
    assert state.stack("d5") == ("white", 3)
    assert (state.stones(0), state.stones(1)) == (3, 1)
    assert not state.is_terminal()


def test_only_own_stacks_move_and_the_turn_passes():
    state = place({"d4": "w1", "a1": "b1"})
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"d4-e4", "d4-c4", "d4-d5", "d4-d3"}
    state.play("d4-e4")
    assert state.current_player() == 1
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"a1-b1", "a1-a2"}


# -- explosions -------------------------------------------------------------------
def test_a_full_stack_explodes_onto_its_neighbours_and_takes_them():
    state = place({"d3": "w1", "d4": "w3", "e4": "b2", "c4": "b1", "a8": "b1"})
    state.play("d3-d4")
    # d4 reaches 4 = capacity: it empties, each neighbour gains a stone and turns White
    assert stacks(state) == {"e4": ("white", 3), "c4": ("white", 2), "d5": ("white", 1),
                             "d3": ("white", 1), "a8": ("black", 1)}
    assert (state.stones(0), state.stones(1)) == (7, 1)


def test_a_stack_over_capacity_keeps_the_rest():
    state = place({"c1": "w2", "a1": "w1", "h8": "b1"})
    state.play("c1-a1")  # a1 (capacity 2) gets 3: it loses 2, one to b1 and one to a2
    assert stacks(state) == {"a1": ("white", 1), "b1": ("white", 1), "a2": ("white", 1), "h8": ("black", 1)}


def test_explosions_cascade_and_the_edge_and_corner_capacities_apply():
    game = boomboard.load_game("explocus", size=3, setup="..b1/w2w3b1/.w1. w")
    state = game.new_initial_state()
    state.play("b1-b2")
    # b2 (4) explodes: c2 taken (2), a2 reaches its capacity 3 and explodes in turn
    assert state.to_notation() == "w1w1b1/.w1w2/w1w1. b"
    assert (state.stones(0), state.stones(1)) == (7, 1)


def test_cascade_order_is_first_in_first_out_and_stops_when_the_opponent_is_out():
    game = boomboard.load_game("explocus", size=3, setup="..b1/b2w3w2/.w1. w")
    state = game.new_initial_state()
    state.play("b1-b2")
    # b2 explodes; c2 (east, first) and a2 (west) reach capacity and queue in that
    # order; c2's explosion takes c3, Black's last stone: the cascade stops with a2
    # and c3 still at capacity.
    assert state.to_notation() == ".w1w2/w3w1./.w1w1 b"
    assert state.is_terminal()
    assert state.outcome() == boomboard.Outcome(winner=0, reason=REASONS.NO_TOKENS)


def test_stones_are_conserved_by_moves_and_explosions():
    rng = random.Random(5)
    state = GAME.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        assert state.stones(0) + state.stones(1) == 28
        assert sum(h for _, h in stacks(state).values()) == 28


# -- the end -------------------------------------------------------------------------
def test_capturing_the_last_enemy_stack_wins():
    state = place({"d4": "w1", "d5": "b1"})
    state.play("d4-d5")
    assert state.outcome() == boomboard.Outcome(winner=0, reason=REASONS.NO_TOKENS)
    assert state.legal_actions() == [] and state.returns() == [1.0, -1.0]


def test_black_wins_by_taking_whites_last_stone():
    state = place({"d4": "w1", "d6": "b2"}, to_move="b")
    state.play("d6-d4")
    assert state.outcome().winner == 1 and state.outcome().reason == REASONS.NO_TOKENS


def test_a_loaded_position_without_stones_of_one_side_is_over():
    state = place({"d4": "w2"}, to_move="b")
    assert state.is_terminal() and state.outcome().winner == 0
    assert state.legal_actions() == []


def test_fourth_occurrence_of_a_position_is_a_tie_third_is_not():
    state = place({"a1": "w1", "h8": "b1"})
    cycle = ["a1-a2", "h8-h7", "a2-a1", "h7-h8"]
    for move in cycle * 2:
        state.play(move)
    assert state.repetitions() == 3 and not state.is_terminal()
    for move in cycle[:3]:
        state.play(move)
    assert not state.is_terminal()
    state.play(cycle[3])
    assert state.repetitions() == 4
    assert state.outcome() == boomboard.Outcome(winner=None, reason=REASONS.REPETITION)


def test_the_500th_action_ties_the_game():
    rng = random.Random(3)
    state = GAME.new_initial_state()
    while state.ply() < 499:
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    state.apply_action(rng.choice(state.legal_actions()))
    assert state.outcome() == boomboard.Outcome(winner=None, reason=REASONS.TURN_LIMIT)
    assert GAME.max_game_length() == 500


def at_ply(state, ply: int):
    array = state.array.copy()
    array[PLY] = ply
    return state.game.state_from_array(array)


def test_the_own_end_check_comes_before_the_action_limit():
    position = place({"d4": "w1", "d5": "b1", "h8": "b1"}, to_move="b")
    winning = at_ply(position, 499)
    winning.play("d5-d4")
    assert winning.ply() == 500
    assert winning.outcome() == boomboard.Outcome(winner=1, reason=REASONS.NO_TOKENS)
    quiet = at_ply(position, 499)
    quiet.play("h8-h7")
    assert quiet.outcome() == boomboard.Outcome(winner=None, reason=REASONS.TURN_LIMIT)
