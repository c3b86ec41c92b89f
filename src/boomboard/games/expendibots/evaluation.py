"""A static evaluation of Expendibots positions, for the player to move.

The evaluation is a weighted sum of a few counts (:func:`features`), each
from the point of view of the player to move ("mine") against the other
("theirs"). A boom destroys every stack chained to it through the 8
neighbours, friend and foe, so the stacks fall into *clusters* (chains of
neighbouring stacks), and most of the counts are about what a boom would
trade:

``MATERIAL``
    tokens, mine less theirs: the game ends when a side has none.
``TRADE``
    the best trade a boom of mine wins right now: over the clusters holding
    both colours, their tokens less mine.
``HANGING``
    the same for them: what their best boom would win on their next turn,
    unless I answer it.
``RAID``
    the best trade I could set up in two moves: one token of one of my
    stacks moved (a stack of ``n`` reaches ``n`` squares in a line) onto a
    square next to a cluster of theirs, then boomed. Everything chained to
    the landing square goes.
``RAIDED``
    the same for them against me: the threat a search a few plies deep
    cannot see, since a tall stack far away is still two of their moves
    from the blow-up.
``STACKS``
    stacks, mine less theirs: spread tokens are harder to catch together
    and move more.
``SIMPLIFY``
    the lead in tokens times the tokens already gone (of the 24): ahead, an
    even trade brings the win nearer, behind, it takes it away, so the
    side ahead seeks trades and the game ends, as a chess engine that is
    ahead trades pieces rather than pawns.
``KEEP``
    a contempt for trading down, counted only inside a search and for the
    player searching (the *root* player, whom the search names in
    ``params[P_ROOT]``), plus for it and minus for the other: while that
    player is not ahead, the tokens on the board; ahead, all 24. Level or
    behind, an even trade then costs the searching player twice the weight,
    so it keeps material on the board, its chances to outplay the other,
    rather than trade down to one token each, a dead draw. Ahead, trades
    are left to ``SIMPLIFY``, and getting ahead never lowers the count
    (which is why it is not simply the tokens on the board). Both stay
    above the 0 of a drawn endgame table's position, so the search never
    prefers a dead draw to playing on. The score is no longer
    zero-sum: the searching player values material on the board and expects
    the other to value trading down, as an engine with contempt expects a
    weaker opponent to be glad of a draw. Outside a search (``params[P_ROOT]``
    is -1) the count is 0.

Each weight multiplies its count (those of ``HANGING`` and ``RAIDED``, a
cost, are negative). The weights live in the game's ``params`` array (from ``P_WEIGHTS`` on), so
a tuning run can change them without recompiling; their defaults
(:data:`WEIGHTS`) come from fitting to game results
(``benchmarks/expendibots_tune.py``, ``docs/results/strength.md``), those of
``SIMPLIFY`` and ``KEEP`` from games played to their end.
"""

import numpy as np
from boomboard.jit import njit

from boomboard.core.layout import PLAYER
from boomboard.games.expendibots.rules import (BOARD, MAX_DISTANCE, MOVES, P_LANDING, P_NEIGHBOURS, PARAMS_SIZE,
                                               SQUARES, TOKENS, build_params)

MATERIAL, TRADE, HANGING, RAID, RAIDED, STACKS, SIMPLIFY, KEEP = range(8)
FEATURE_NAMES = ("material", "trade", "hanging", "raid", "raided", "stacks", "simplify", "keep")
# 100 a token anchors the scale that the searches' scores and margins use.
WEIGHTS = (100, 37, -11, 17, -13, -14, 6, 6)
ALL_TOKENS = 24
P_WEIGHTS = PARAMS_SIZE  # params[P_WEIGHTS + feature]: that feature's weight
P_ROOT = P_WEIGHTS + len(WEIGHTS)  # the player a search is for, -1 outside a search (see KEEP)


REACH_STRIDE = MAX_DISTANCE + 1


def _square_masks():
    """Per square, as 64-bit sets of squares (bit ``n`` for square ``n``): its
    neighbours, and the squares a stack there lands on with a move of up to
    ``d`` squares (index ``REACH_STRIDE * square + d``). The raid counts test
    these sets to pass over stacks and landings that cannot catch anything."""
    rules_params = build_params()
    neighbours = np.zeros(SQUARES, np.uint64)
    reach = np.zeros(REACH_STRIDE * SQUARES, np.uint64)
    for square in range(SQUARES):
        for other in rules_params[P_NEIGHBOURS + 8 * square:P_NEIGHBOURS + 8 * square + 8]:
            if other >= 0:
                neighbours[square] |= np.uint64(1) << np.uint64(other)
        for d in range(1, MAX_DISTANCE + 1):
            reach[REACH_STRIDE * square + d] = reach[REACH_STRIDE * square + d - 1]
            for line in range(4 * square * MAX_DISTANCE, (4 * square + 4) * MAX_DISTANCE, MAX_DISTANCE):
                target = rules_params[P_LANDING + line + d - 1]
                if target >= 0:
                    reach[REACH_STRIDE * square + d] |= np.uint64(1) << np.uint64(target)
    return neighbours, reach


NEIGHBOUR_SETS, REACH_SETS = _square_masks()


def params_with_weights(rules_params: np.ndarray, weights=WEIGHTS) -> np.ndarray:
    """The rules' tables followed by the evaluation's weights and the root
    player's slot (-1: no search)."""
    return np.concatenate([rules_params, np.asarray(weights, np.int32), np.full(1, -1, np.int32)])


@njit(cache=True)
def _clusters(s, params, cluster, mine, theirs, sign):
    """Label every stack with its cluster (the square its flood started from)
    and total each cluster's tokens by colour; returns stacks, mine less theirs."""
    stack = np.empty(SQUARES, np.int32)
    stacks = 0
    for start in range(SQUARES):
        if s[BOARD + start] == 0 or cluster[start] >= 0:
            continue
        cluster[start] = start
        stack[0] = start
        size = 1
        while size:
            size -= 1
            square = stack[size]
            height = s[BOARD + square] * sign
            if height > 0:
                mine[start] += height
                stacks += 1
            else:
                theirs[start] -= height
                stacks -= 1
            for k in range(P_NEIGHBOURS + 8 * square, P_NEIGHBOURS + 8 * square + 8):
                other = params[k]
                if other < 0:
                    break
                if s[BOARD + other] != 0 and cluster[other] < 0:
                    cluster[other] = start
                    stack[size] = other
                    size += 1
    return stacks


@njit(cache=True)
def _best_raid(s, params, cluster, own, enemy, sign):
    """The best trade the player whose stacks are ``sign * height > 0`` sets up
    by moving one token next to enemy stacks and booming it there; ``own``
    and ``enemy`` total each cluster's tokens for that player and the other."""
    # A landing wins something only next to a cluster holding enemy tokens,
    # and few do: the set of such squares (less the enemy's, where nothing
    # lands) lets most stacks and landings be passed over at once.
    one = np.uint64(1)
    enemy_squares = np.uint64(0)
    landings = np.uint64(0)
    for square in range(SQUARES):
        height = s[BOARD + square] * sign
        if height < 0:
            enemy_squares |= one << np.uint64(square)
        if height != 0 and enemy[cluster[square]] > 0:
            landings |= NEIGHBOUR_SETS[square]
    landings &= ~enemy_squares
    best = 0
    for origin in range(SQUARES):
        height = s[BOARD + origin] * sign
        if height <= 0 or REACH_SETS[REACH_STRIDE * origin + min(height, MAX_DISTANCE)] & landings == 0:
            continue
        for line in range(origin * 4 * MAX_DISTANCE, (origin * 4 + 4) * MAX_DISTANCE, MAX_DISTANCE):
            for step in range(min(height, MAX_DISTANCE)):
                target = params[P_LANDING + line + step]
                if target < 0:
                    break
                if (landings >> np.uint64(target)) & one == 0:
                    continue
                # The clusters the landed token chains together, each once
                # (a cluster is named by a square: a bit). A stack already
                # on the landing square needs no look: it is in the same
                # cluster as any neighbour, and with none it catches nothing.
                joined = np.uint64(0)
                lost, won = 1, 0  # the moved token goes up too
                for k in range(P_NEIGHBOURS + 8 * target, P_NEIGHBOURS + 8 * target + 8):
                    square = params[k]
                    if square < 0:
                        break
                    if s[BOARD + square] == 0:
                        continue
                    c = cluster[square]
                    if (joined >> np.uint64(c)) & one:
                        continue
                    joined |= one << np.uint64(c)
                    lost += own[c]
                    won += enemy[c]
                    if c == cluster[origin]:
                        lost -= 1  # the moved token, counted twice
                if won > 0 and won - lost > best:
                    best = won - lost
    return best


@njit(cache=True)
def features(s, params, out):
    """Write the evaluation's counts (``MATERIAL`` ... ``STACKS``) into ``out``."""
    _count(s, params, out, True)


@njit(cache=True)
def _count(s, params, out, raids):
    """:func:`features`, the raids left at 0 unless ``raids`` (they cost the most)."""
    player = s[PLAYER]
    sign = 1 - 2 * player  # the player to move's stacks are sign * height > 0
    cluster = np.full(SQUARES, -1, np.int32)
    mine = np.zeros(SQUARES, np.int32)
    theirs = np.zeros(SQUARES, np.int32)
    out[MATERIAL] = s[TOKENS + player] - s[TOKENS + 1 - player]
    out[SIMPLIFY] = out[MATERIAL] * (ALL_TOKENS - s[TOKENS] - s[TOKENS + 1])
    out[KEEP] = 0
    root = params[P_ROOT]
    if root >= 0:
        kept = ALL_TOKENS if s[TOKENS + root] > s[TOKENS + 1 - root] else s[TOKENS] + s[TOKENS + 1]
        out[KEEP] = kept if root == player else -kept
    out[STACKS] = _clusters(s, params, cluster, mine, theirs, sign)
    trade = hanging = 0
    for c in range(SQUARES):
        if mine[c] > 0 and theirs[c] > 0:
            trade = max(trade, theirs[c] - mine[c])
            hanging = max(hanging, mine[c] - theirs[c])
    out[TRADE], out[HANGING] = trade, hanging
    out[RAID] = _best_raid(s, params, cluster, mine, theirs, sign) if raids else 0
    out[RAIDED] = _best_raid(s, params, cluster, theirs, mine, -sign) if raids else 0


@njit(cache=True)
def evaluate(s, params):
    counts = np.zeros(len(WEIGHTS), np.int32)
    _count(s, params, counts, params[P_WEIGHTS + RAID] != 0 or params[P_WEIGHTS + RAIDED] != 0)
    score = 0
    for i in range(len(WEIGHTS)):
        score += params[P_WEIGHTS + i] * counts[i]
    return score


@njit(cache=True)
def is_explosive(s, params, action):
    """Whether ``action`` is a boom that catches an enemy stack: the actions a
    quiescence search follows past the horizon, since they change material."""
    if action >= MOVES:
        return False
    sign = 1 - 2 * s[PLAYER]
    for k in range(P_NEIGHBOURS + 8 * action, P_NEIGHBOURS + 8 * action + 8):
        other = params[k]
        if other >= 0 and s[BOARD + other] * sign < 0:
            return True
    return False
