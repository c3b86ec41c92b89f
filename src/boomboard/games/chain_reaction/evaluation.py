"""A static evaluation of Chain Reaction positions, for the player to move.

Chain Reaction is won by taking the opponent's last orb, and orbs change
hands only when a neighbour explodes onto them. So the evaluation counts
orbs (material, which explosions turn into captures) and cells held, and
then who holds the initiative: a *critical* cell (one orb short of its
critical mass: one more orb makes it explode) next to an enemy cell
threatens to take it. The player to move cashes such threats first, so
their critical cells next to enemy cells count for them, doubly when the
enemy cell is critical too (exploding first takes it before it can fire);
the opponent's critical cells count against them only where the player to
move cannot answer by exploding first into them.
"""

from boomboard.core.layout import PLAYER
from boomboard.jit import njit
from boomboard.games.chain_reaction.rules import COUNT, CRITICAL, ORBS, P_CELLS

ORB_VALUE = 10
CELL_VALUE = 30
THREAT_VALUE = 60


@njit(cache=True)
def evaluate(s, params):
    cells = params[P_CELLS]
    owners = COUNT + cells
    neighbours = CRITICAL + cells
    player = s[PLAYER]
    me = player + 1
    held = 0
    threats = 0
    for cell in range(cells):
        owner = s[owners + cell]
        if owner == 0:
            continue
        held += 1 if owner == me else -1
        if s[COUNT + cell] != params[CRITICAL + cell] - 1:
            continue
        # A critical cell: does it touch the other colour, and is that one critical too?
        touches_enemy = False
        touches_critical_enemy = False
        for k in range(4):
            other = params[neighbours + 4 * cell + k]
            if other >= 0 and s[owners + other] != 0 and s[owners + other] != owner:
                touches_enemy = True
                if s[COUNT + other] == params[CRITICAL + other] - 1:
                    touches_critical_enemy = True
        if touches_enemy:
            if owner == me:
                threats += 2 if touches_critical_enemy else 1
            elif not touches_critical_enemy:
                threats -= 1
    orbs = s[ORBS + player] - s[ORBS + 1 - player]
    return ORB_VALUE * orbs + CELL_VALUE * held + THREAT_VALUE * threats


@njit(cache=True)
def is_explosive(s, params, action):
    """Whether an orb in cell ``action`` makes it explode (it is critical): the
    actions a quiescence search follows past the horizon."""
    return s[COUNT + action] == params[CRITICAL + action] - 1
