"""A static evaluation of Explocus and HExplocus positions, for the player to move.

Stones are what a side loses the game by running out of, and the rules
conserve them: a capture moves a whole stack to the capturer. So the stone
difference is the base (100 a stone). Next comes what the next move can do:
a stack one stone short of its cell's capacity explodes when a stone lands
on it, taking every neighbouring stack; such a *loaded* stack next to enemy
stacks is a threat. The player to move fires first, so their loaded stacks
next to the enemy count in full, while the opponent's count at half (the
player to move may defuse them). More separate stacks also mean more moves
and more reach, worth a little.
"""

from boomboard.jit import njit

from boomboard.core.layout import PLAYER
from boomboard.games.explocus.rules import BOARD, P_CELLS, P_DIRS, P_KMAX, STONES, TABLES, table_offsets

STONE_VALUE = 100
THREAT_VALUE = 30
STACK_VALUE = 5


@njit(cache=True)
def evaluate(s, params):
    ncells, ndirs = params[P_CELLS], params[P_DIRS]
    capacity = TABLES
    neighbour = capacity + ncells
    player = s[PLAYER]
    sign = 1 - 2 * player
    score = STONE_VALUE * (s[STONES + player] - s[STONES + 1 - player])
    for cell in range(ncells):
        height = s[BOARD + cell] * sign
        if height == 0:
            continue
        mine = height > 0
        score += STACK_VALUE if mine else -STACK_VALUE
        if abs(height) < params[capacity + cell] - 1:
            continue
        exposed = 0
        for k in range(ndirs):
            other = params[neighbour + cell * ndirs + k]
            if other >= 0 and s[BOARD + other] * sign * (1 if mine else -1) < 0:
                exposed += abs(s[BOARD + other])
        if exposed:
            score += THREAT_VALUE * exposed if mine else -(THREAT_VALUE * exposed) // 2
    return score


@njit(cache=True)
def is_explosive(s, params, action):
    """Whether ``action`` captures an enemy stack or sets off an explosion: the
    actions a quiescence search follows past the horizon."""
    kmax = params[P_KMAX]
    capacity, _, _, landing = table_offsets(params)
    sign = 1 - 2 * s[PLAYER]
    target = params[landing + action]
    height = s[BOARD + target] * sign
    return height < 0 or height + action % kmax + 1 >= params[capacity + target]
