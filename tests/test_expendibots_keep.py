"""Expendibots' contempt for trading down (the ``keep`` count): a search
keeps material on the board while its player is not ahead, rather than
trade evenly toward one token each, a dead draw (docs/results/strength.md)."""

import json

import numpy as np
from no_jit import run_json_script
import pytest

import boomboard
from boomboard.games.expendibots import evaluation
from boomboard.games.expendibots.evaluation import KEEP, P_ROOT, P_WEIGHTS
from boomboard.search.alphabeta import AlphaBeta

GAME = boomboard.load_game("expendibots")
WHITE, BLACK = 0, 1


def position(white, black, turn="white"):
    return GAME.state_from_notation(json.dumps({"white": white, "black": black, "turn": turn}))


def keep_count(state, root):
    params = GAME.params_array.copy()
    params[P_ROOT] = root
    out = np.zeros(len(evaluation.WEIGHTS), np.int32)
    evaluation.features(state.array, params, out)
    return int(out[KEEP])


THREE_EACH = position([[1, 0, 0], [1, 2, 0], [1, 4, 0]], [[1, 0, 7], [1, 2, 7], [1, 4, 7]])
THREE_TWO = position([[1, 0, 0], [1, 2, 0], [1, 4, 0]], [[1, 0, 7], [1, 2, 7]])


def test_level_or_behind_the_searching_player_counts_the_tokens_on_the_board():
    assert keep_count(THREE_EACH, WHITE) == 6  # White searches, White to move
    assert keep_count(THREE_EACH, BLACK) == -6  # Black searches: what Black keeps, White (to move) loses
    assert keep_count(THREE_TWO, BLACK) == -5  # Black behind: the 5 tokens on the board


def test_ahead_the_searching_player_counts_all_24_so_getting_ahead_never_costs():
    assert keep_count(THREE_TWO, WHITE) == 24
    assert keep_count(position([[1, 0, 0], [1, 2, 0], [1, 4, 0]], [[1, 0, 7], [1, 2, 7]], "black"), WHITE) == -24


def test_outside_a_search_the_count_is_0_and_the_evaluation_zero_sum():
    assert GAME.params_array[P_ROOT] == -1
    assert keep_count(THREE_EACH, -1) == 0
    as_black = position([[1, 0, 0], [1, 2, 0], [1, 4, 0]], [[1, 0, 7], [1, 2, 7], [1, 4, 7]], "black")
    assert evaluation.evaluate(THREE_EACH.array, GAME.params_array) == \
        -evaluation.evaluate(as_black.array, GAME.params_array)


@pytest.mark.parametrize("turn", ["white", "black"])
def test_a_search_names_its_player_and_leaves_the_game_params_alone(turn):
    state = position([[1, 0, 0], [1, 2, 0], [1, 4, 0]], [[1, 0, 7], [1, 2, 7], [1, 4, 7]], turn)
    searcher = AlphaBeta(GAME)
    score = searcher.search(state, depth=1).score
    params = GAME.params_array.copy()
    params[P_ROOT] = state.current_player()
    # Every move leaves the tokens where no boom reaches: the best child's
    # score, seen from the mover, carries the 6 tokens kept.
    best = max(-evaluation.evaluate(child.array, params)
               for child in (state.child(a) for a in state.legal_actions()))
    assert score == best
    assert score - max(-evaluation.evaluate(child.array, GAME.params_array)
                       for child in (state.child(a) for a in state.legal_actions())) == 6 * evaluation.WEIGHTS[KEEP]
    assert GAME.params_array[P_ROOT] == -1
    assert searcher.root_player == state.current_player()


# From a course game against tdleaf_pybros (White ours, ply 66): three tokens
# each; the search without the count booms on (5, 7), taking Black's (4, 6)
# with it, two each, and the game went on to one each and a tie.
TIED_GAME_PLY_66 = {"white": [[1, 4, 3], [1, 7, 6], [1, 5, 7]], "black": [[1, 3, 3], [1, 6, 3], [1, 4, 6]]}


def test_from_the_tied_game_the_old_search_traded_down_and_the_new_one_keeps_three_each():
    state = position(TIED_GAME_PLY_66["white"], TIED_GAME_PLY_66["black"])
    chosen = {}
    for keep in (0, evaluation.WEIGHTS[KEEP]):
        searcher = AlphaBeta(GAME, 16, contempt=50)
        searcher.params = GAME.params_array.copy()
        searcher.params[P_WEIGHTS + KEEP] = keep
        action = searcher.search(state, depth=4).action
        after = state.child(action)
        chosen[keep] = (state.action_to_string(action), after.tokens(WHITE), after.tokens(BLACK))
    assert chosen[0] == ("boom f8", 2, 2)
    assert chosen[evaluation.WEIGHTS[KEEP]][1:] == (3, 3)


KEEP_SCRIPT = f"""
import json, boomboard
from boomboard.search.alphabeta import AlphaBeta
game = boomboard.load_game("expendibots")
state = game.state_from_notation(json.dumps({TIED_GAME_PLY_66!r}))
result = AlphaBeta(game, 12, contempt=50).search(state, depth=2)
print(json.dumps([result.action, result.score]))
"""


def test_the_count_runs_as_plain_python_with_the_same_search():
    assert run_json_script(KEEP_SCRIPT, "1") == run_json_script(KEEP_SCRIPT, "0")
