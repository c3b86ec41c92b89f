"""Expendibots' evaluation sees raids: a stack's token dropped next to a
cluster and boomed there, two moves on (docs/results/strength.md, issue #13)."""

import json

import numpy as np
import pytest

import boomboard
from boomboard.games.expendibots import evaluation
from boomboard.games.expendibots.evaluation import HANGING, RAID, RAIDED, STACKS, TRADE
from boomboard.search.alphabeta import AlphaBeta
from reference.expendibots import chained

GAME = boomboard.load_game("expendibots")


def position(white, black, turn="white"):
    return GAME.state_from_notation(json.dumps({"white": white, "black": black, "turn": turn}))


def counts(state, params=None):
    out = np.zeros(len(evaluation.WEIGHTS), np.int32)
    evaluation.features(state.array, GAME.params_array if params is None else params, out)
    return dict(zip(evaluation.FEATURE_NAMES, out.tolist()))


def without_raids():
    params = GAME.params_array.copy()
    for term in (HANGING, RAID, RAIDED):
        params[evaluation.P_WEIGHTS + term] = 0
    return params


# White's stack of 3 on (2,3) reaches (2,5), next to Black's cluster of four
# on (1,6), (2,6), (1,7), (2,7): one token dropped there and boomed takes 4
# black tokens for 1. Black's pair on (7,7) and White's token on (7,0) are
# out of everyone's way.
RAID_WHITE = [[3, 2, 3], [1, 7, 0]]
RAID_BLACK = [[1, 1, 6], [1, 2, 6], [1, 1, 7], [1, 2, 7], [2, 7, 7]]


def test_the_counts_of_a_raid_position():
    assert counts(position(RAID_WHITE, RAID_BLACK)) == {
        "material": -2, "trade": 0, "hanging": 0, "raid": 3, "raided": 0, "stacks": -3,
        "simplify": -2 * 14,  # 14 of the 24 tokens are gone
        "keep": 0}  # no search, so no searching player to keep material for
    # The same board with Black to move: the raid is now against the mover.
    black_view = counts(position(RAID_WHITE, RAID_BLACK, turn="black"))
    assert black_view["raided"] == 3 and black_view["raid"] == 0


def test_a_dropped_token_is_a_hanging_cluster_for_the_side_that_owns_more_of_it():
    # White has dropped its token on (2,5): Black to move owns 4 of the 5 tokens chained together.
    white = [[2, 2, 3], [1, 2, 5], [1, 7, 0]]
    found = counts(position(white, RAID_BLACK, turn="black"))
    assert found["hanging"] == 3 and found["trade"] == 0
    found = counts(position(white, RAID_BLACK, turn="white"))
    assert found["trade"] == 3 and found["hanging"] == 0


def test_the_moved_token_is_not_counted_twice_when_its_own_stack_joins_the_chain():
    # A stack of 2 on (2,4) drops a token on (2,5): the 1 left on (2,4) and the
    # dropped one go up with Black's pair, 2 for 2: no gain.
    found = counts(position([[2, 2, 4], [1, 7, 0]], [[1, 1, 6], [1, 2, 6], [2, 7, 7]]))
    assert found["raid"] == 0


@pytest.mark.parametrize("depth", [1, 2])
def test_a_shallow_search_plays_the_raid(depth):
    state = position(RAID_WHITE, RAID_BLACK)
    action = AlphaBeta(GAME).search(state, depth=depth).action
    assert state.action_to_tuple(action)[3] == (2, 5), state.action_to_string(action)


def test_without_the_raid_terms_a_one_ply_search_does_not_see_it():
    """The control: the counts above are what makes the difference."""
    state = position(RAID_WHITE, RAID_BLACK)
    searcher = AlphaBeta(GAME)
    searcher.params = without_raids()
    action = searcher.search(state, depth=1).action
    assert state.action_to_tuple(action)[0] != "MOVE" or state.action_to_tuple(action)[3] != (2, 5)


# Black's stack of 3 on (2,6) is one drop away from White's stack of 2 on
# (2,3) (which reaches (2,5)): 3 black tokens for 1. Black keeps it only by
# moving the whole stack out of reach.
DEFEND_WHITE = [[2, 2, 3], [1, 7, 0]]
DEFEND_BLACK = [[3, 2, 6], [2, 7, 7]]


def test_a_two_ply_search_takes_its_cluster_out_of_reach():
    state = position(DEFEND_WHITE, DEFEND_BLACK, turn="black")
    assert counts(state)["raided"] == 2
    action = AlphaBeta(GAME).search(state, depth=2).action
    after = state.child(action)
    assert counts(after)["raid"] == 0, state.action_to_string(action)


def test_the_raid_wins_material_by_force():
    """What the counts stand for is real: a full-width search three plies
    deep (White's drop, any Black answer, White's boom) wins material."""
    state = position(RAID_WHITE, RAID_BLACK)
    searcher = AlphaBeta(GAME)
    params = without_raids()
    params[evaluation.P_WEIGHTS + TRADE] = 0
    params[evaluation.P_WEIGHTS + STACKS] = 0
    searcher.params = params  # material only
    before = counts(state)["material"]  # -2: White 4 tokens, Black 6
    result = searcher.search(state, depth=3)
    assert result.score >= 100 * (before + 2)



def test_late_move_reductions_search_fewer_nodes_and_still_play_the_raid():
    """Reductions shrink the tree (late quiet moves first searched shallower)
    but never the explosive moves: the raid is still found at depth 4."""
    state = position(RAID_WHITE, RAID_BLACK)
    plain, reduced = AlphaBeta(GAME), AlphaBeta(GAME, reductions=1)
    full = plain.search(state, depth=5)
    fewer = reduced.search(state, depth=5)
    assert fewer.nodes < full.nodes
    action = AlphaBeta(GAME, reductions=1).search(state, depth=4).action
    assert state.action_to_tuple(action)[3] == (2, 5), state.action_to_string(action)


# A middle game of the course games (docs/results/strength.md), after 24 plies.
MIDDLE_GAME_ACTIONS = [
    ('MOVE', 1, (0, 1), (1, 1)), ('MOVE', 1, (0, 6), (1, 6)), ('MOVE', 2, (1, 1), (3, 1)),
    ('MOVE', 1, (4, 7), (4, 6)), ('MOVE', 3, (3, 1), (6, 1)), ('MOVE', 1, (7, 6), (6, 6)),
    ('MOVE', 3, (6, 1), (6, 5)), ('MOVE', 2, (6, 6), (4, 6)), ('MOVE', 1, (6, 5), (3, 5)),
    ('MOVE', 4, (4, 6), (1, 6)), ('MOVE', 1, (4, 1), (4, 0)), ('MOVE', 1, (3, 6), (3, 7)),
]


def test_null_moves_search_fewer_nodes_and_still_play_the_raid():
    """A null move (the other side moving twice, searched shallower) cuts off
    nodes already good enough, so the tree shrinks; a raid, which a free move
    for the other side does not stop, is still found."""
    state = GAME.new_initial_state()
    for action in MIDDLE_GAME_ACTIONS:
        state.apply_action(state.tuple_to_action(action))
    plain, nulls = AlphaBeta(GAME, reductions=1), AlphaBeta(GAME, reductions=1, null_move=2)
    full, fewer = plain.search(state, depth=7), nulls.search(state, depth=7)
    assert fewer.nodes < 0.8 * full.nodes, (fewer.nodes, full.nodes)
    raid = position(RAID_WHITE, RAID_BLACK)
    for depth in (4, 5):
        action = AlphaBeta(GAME, null_move=2).search(raid, depth=depth).action
        assert raid.action_to_tuple(action)[3] == (2, 5), raid.action_to_string(action)


def test_null_moves_keep_a_forced_win():
    """A null move is never tried when beta is a forced result, and its
    cut-offs are bounds, so a forced win is scored the same with it."""
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(100):
        state = GAME.new_initial_state()
        while not state.is_terminal() and checked < 6:
            if state.tokens("white") + state.tokens("black") <= 10:
                plain = AlphaBeta(GAME, table_bits=14).search(state, depth=5)
                if plain.forced_result is not None:
                    nulls = AlphaBeta(GAME, table_bits=14, null_move=2).search(state, depth=5)
                    assert nulls.forced_result == plain.forced_result, state.to_notation()
                    checked += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked == 6


def reference_raid(board, raider):
    """The raid count written plainly from its definition: over every stack of
    ``raider`` (+1 White, -1 Black) and every square it reaches in a line
    (not an enemy's), one token landed there and boomed clears every stack
    chained to the landing square (the chains as they stand before the move);
    the count is the best of the enemy tokens cleared less the raider's own,
    the moved token counted once, over the landings that clear an enemy
    token. ``board``: {(x, y): signed tokens}."""
    best = 0
    for (x, y), n in board.items():
        if n * raider <= 0:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            for distance in range(1, abs(n) + 1):
                target = (x + dx * distance, y + dy * distance)
                if not (0 <= target[0] < 8 and 0 <= target[1] < 8) or board.get(target, 0) * raider < 0:
                    continue
                caught = chained({**board, target: board.get(target, 0) or raider}, target)
                enemy = sum(-board[c] * raider for c in caught if board.get(c, 0) * raider < 0)
                own = sum(board[c] * raider for c in caught if board.get(c, 0) * raider > 0)
                own += 0 if (x, y) in caught else 1
                if enemy > 0:
                    best = max(best, enemy - own)
    return best


def random_positions(count, seed=0):
    """Positions from random games, many with stacks in reach of each other."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = GAME.new_initial_state()
        for _ in range(int(rng.integers(0, 60))):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
        if not state.is_terminal():
            found.append(state)
    return found


def test_the_raid_counts_match_their_plain_definition_on_random_positions():
    for state in random_positions(400):
        board = {}
        for sign, colour in ((1, "white"), (-1, "black")):
            for n, x, y in state.stacks(colour):
                board[(x, y)] = sign * n
        mover = 1 if state.current_player() == 0 else -1
        found = counts(state)
        assert (found["raid"], found["raided"]) == (reference_raid(board, mover), reference_raid(board, -mover)), \
            state.to_notation() if hasattr(state, "to_notation") else str(state)


def test_the_square_sets_hold_each_square_s_neighbours_and_reach():
    def squares(bits):
        return {n for n in range(64) if int(bits) >> n & 1}
    corner, centre = 0, 3 * 8 + 3  # (0, 0) and (3, 3)
    assert squares(evaluation.NEIGHBOUR_SETS[corner]) == {1, 8, 9}
    assert len(squares(evaluation.NEIGHBOUR_SETS[centre])) == 8
    stride = evaluation.REACH_STRIDE
    assert squares(evaluation.REACH_SETS[stride * corner + 1]) == {1, 8}
    assert squares(evaluation.REACH_SETS[stride * corner + 7]) == set(range(1, 8)) | {8 * y for y in range(1, 8)}
    assert squares(evaluation.REACH_SETS[stride * centre + 2]) == {centre + d for d in (-16, -8, -2, -1, 1, 2, 8, 16)}
