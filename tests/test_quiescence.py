"""What each game calls explosive, which the quiescence search follows past
its horizon, and that following it changes what a shallow search sees."""

from __future__ import annotations

import json

import boomboard
from boomboard.search.alphabeta import AlphaBeta


def explosive(state) -> set[str]:
    game = state.game
    return {state.action_to_string(a) for a in state.legal_actions()
            if game.kernels.is_explosive(state.array, game.params_array, a)}


def test_kaboom_detonations_are_explosive_and_drops_are_not():
    state = boomboard.load_game("kaboom").state_from_notation("(x 0 0 xoxx o@*o -ooo -xxx)")
    assert explosive(state) == {"C2!"}
    assert boomboard.load_game("kaboom").new_initial_state().legal_actions() and \
        explosive(boomboard.load_game("kaboom").new_initial_state()) == set()


def test_expendibots_booms_that_catch_an_enemy_stack_are_explosive():
    game = boomboard.load_game("expendibots")
    assert explosive(game.new_initial_state()) == set()  # no enemy within reach of a boom
    state = game.state_from_notation(json.dumps({"white": [[1, 3, 3], [2, 0, 0]], "black": [[1, 4, 4]]}))
    assert explosive(state) == {"boom d4"}


def test_jump61_spots_on_critical_squares_are_explosive():
    game = boomboard.load_game("jump61(size=3)")
    state = game.state_from_dump("===\n    2r 1- 1-\n    1- 1- 1-\n    1- 1- 2b\n===")
    assert explosive(state) == {"1 1"}  # 2 spots on a corner: as many as its neighbours (3 3 is Blue's)


def test_explocus_captures_and_loaded_landings_are_explosive():
    game = boomboard.load_game("explocus")
    state = game.new_initial_state()
    start = explosive(state)
    assert "c2-d2" in start  # one stone onto d2's three: 4, the capacity of an inside cell
    assert "b2-b3" not in start and "d2-d3" not in start
    state.play("d2-d4")  # two stones, two cells
    state.play("d7-d5")  # black answers beside them: d5 is one cell from d4
    assert "d4-d5" in explosive(state)  # a capture
    assert "d4-d6" not in explosive(state)


def test_quiescence_sees_the_answering_blast_a_one_ply_search_misses():
    # X to move in Kaboom; O's bomb at B1 would blow away X's C1 next turn. A
    # one-ply search without quiescence stands on the static score.
    game = boomboard.load_game("kaboom")
    state = game.state_from_notation("(x 0 0 x@x- o--- ---- ----)")
    plain = AlphaBeta(game, table_bits=12).search(state, depth=1)
    deep = AlphaBeta(game, table_bits=12, quiescence=4).search(state, depth=1)
    assert deep.score != plain.score
