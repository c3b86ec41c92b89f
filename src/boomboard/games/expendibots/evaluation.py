"""A static evaluation of Expendibots positions, for the player to move.

Tokens are everything: the game ends when a side has none, so the token
difference dominates (100 a token). A boom destroys every stack chained to
it through the 8 neighbours, friend and foe, so the next most important
thing is what a boom by the player to move would trade right now: for each
cluster of stacks chained together that contains both colours, the player
to move can boom it and win the enemy tokens in it for their own; the best
such trade is counted at half value (the opponent may still answer), and a
cluster that would lose tokens is simply not booming. Stacks of one colour
standing together are slightly worse than spread ones (one enemy token can
boom them all), and a little mobility (own stacks) breaks ties.
"""

import numpy as np
from boomboard.jit import njit

from boomboard.core.layout import PLAYER
from boomboard.games.expendibots.rules import BOARD, MOVES, P_NEIGHBOURS, SQUARES, TOKENS

TOKEN_VALUE = 100
STACK_VALUE = 4


@njit(cache=True)
def evaluate(s, params):
    player = s[PLAYER]
    sign = 1 - 2 * player  # the player to move's stacks are sign * height > 0
    material = s[TOKENS + player] - s[TOKENS + 1 - player]
    cluster = np.full(SQUARES, -1, np.int32)
    stack = np.empty(SQUARES, np.int32)
    best_trade = 0
    stacks = 0
    for start in range(SQUARES):
        if s[BOARD + start] == 0 or cluster[start] >= 0:
            continue
        # Flood the chain of stacks a boom at ``start`` would destroy.
        cluster[start] = start
        stack[0] = start
        size = 1
        mine = theirs = 0
        while size:
            size -= 1
            square = stack[size]
            height = s[BOARD + square] * sign
            if height > 0:
                mine += height
                stacks += 1
            else:
                theirs -= height
                stacks -= 1
            for k in range(8):
                other = params[P_NEIGHBOURS + 8 * square + k]
                if other >= 0 and s[BOARD + other] != 0 and cluster[other] < 0:
                    cluster[other] = start
                    stack[size] = other
                    size += 1
        if mine > 0 and theirs - mine > best_trade:
            best_trade = theirs - mine
    return TOKEN_VALUE * material + TOKEN_VALUE // 2 * best_trade + STACK_VALUE * stacks


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
