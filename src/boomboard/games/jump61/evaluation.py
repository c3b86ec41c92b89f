"""A static evaluation of Jump61 positions, for the player to move.

Jump61 is won by owning every square, and a square changes hands only when a
neighbour jumps onto it. So the evaluation counts squares owned (the game's
score) and spots (material that will turn into jumps), and then who holds
the initiative: a *critical* square (as many spots as neighbours: one more
spot makes it jump) next to an enemy square threatens to take it. The player
to move cashes such threats first, so their critical squares next to enemy
squares count for them; the opponent's critical squares count against them
only where the player to move cannot answer by jumping first into them.
"""

from boomboard.jit import njit

from boomboard.core.layout import PLAYER
from boomboard.games.jump61.rules import COUNT, DEGREE, P_CELLS, SPOTS

SQUARE_VALUE = 100
SPOT_VALUE = 10
THREAT_VALUE = 60


@njit(cache=True)
def evaluate(s, params):
    cells = params[P_CELLS]
    colours = SPOTS + cells
    neighbours = DEGREE + cells
    player = s[PLAYER]
    me = player + 1
    spots = 0
    threats = 0
    for square in range(cells):
        colour = s[colours + square]
        if colour == 0:
            continue
        sign = 1 if colour == me else -1
        spots += sign * s[SPOTS + square]
        if s[SPOTS + square] != params[DEGREE + square]:
            continue
        # A critical square: does it touch the other colour, and is that one critical too?
        touches_enemy = False
        touches_critical_enemy = False
        for k in range(4):
            other = params[neighbours + 4 * square + k]
            if other >= 0 and s[colours + other] != 0 and s[colours + other] != colour:
                touches_enemy = True
                if s[SPOTS + other] == params[DEGREE + other]:
                    touches_critical_enemy = True
        if touches_enemy:
            if colour == me:
                threats += 2 if touches_critical_enemy else 1
            elif not touches_critical_enemy:
                threats -= 1
    squares = s[COUNT + player] - s[COUNT + 1 - player]
    return SQUARE_VALUE * squares + SPOT_VALUE * spots + THREAT_VALUE * threats


@njit(cache=True)
def is_explosive(s, params, action):
    """Whether a spot on square ``action`` makes it jump (it is critical): the
    actions a quiescence search follows past the horizon."""
    return s[SPOTS + action] == params[DEGREE + action]
