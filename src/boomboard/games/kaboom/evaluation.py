"""A static evaluation of Kaboom positions, for the player to move.

What decides Kaboom is lines: every window of ``connect`` cells in a row,
column or diagonal that holds pieces of one side only is a way that side can
still connect; a window mixing both is dead (until a bomb clears it). So the
evaluation sums, over live windows, a weight that grows fast with the pieces
already in it (1, 4, 16, 64, ...: one window nearly full matters more than
several barely started), and counts a window one piece short whose gap can
be filled by the very next drop (the column is exactly that high) as a threat
worth four times as much. Bombs are a resource: each bomb in hand or armed
on the board is worth a fixed bonus, as it can break an enemy line or make
room. In Misère Kaboom connecting loses, so the window terms change sign.
"""

from boomboard.jit import njit

from boomboard.games.kaboom.rules import (ARMED, HAND, HEIGHT, LINE_DC, LINE_DR, P_COLS, P_CONNECT, P_MISERE,
                                          P_ROWS)
from boomboard.core.layout import PLAYER

BOMB_VALUE = 40
THREAT_FACTOR = 4


@njit(cache=True)
def evaluate(s, params):
    rows, cols, connect = params[P_ROWS], params[P_COLS], params[P_CONNECT]
    board = HEIGHT + cols
    me = s[PLAYER] + 1  # the side bits of the player to move's pieces
    lines = 0
    for direction in range(4):
        dr, dc = LINE_DR[direction], LINE_DC[direction]
        for r0 in range(rows):
            r_end = r0 + dr * (connect - 1)
            if r_end < 0 or r_end >= rows:
                continue
            for c0 in range(cols):
                c_end = c0 + dc * (connect - 1)
                if c_end < 0 or c_end >= cols:
                    continue
                mine = theirs = 0
                gap_r = gap_c = -1
                for k in range(connect):
                    r, c = r0 + dr * k, c0 + dc * k
                    side = s[board + r * cols + c] & 3
                    if side == 0:
                        gap_r, gap_c = r, c
                    elif side == me:
                        mine += 1
                    else:
                        theirs += 1
                if mine and theirs or mine + theirs == 0:
                    continue
                count = mine + theirs
                weight = 1 << (2 * (count - 1))
                if count == connect - 1 and s[HEIGHT + gap_c] == gap_r:
                    weight *= THREAT_FACTOR
                lines += weight if mine else -weight
    if params[P_MISERE]:
        lines = -lines
    player = s[PLAYER]
    bombs = (s[HAND + player] + s[ARMED + player]) - (s[HAND + 1 - player] + s[ARMED + 1 - player])
    return 10 * lines + BOMB_VALUE * bombs


@njit(cache=True)
def is_explosive(s, params, action):
    """Whether ``action`` detonates a bomb: the actions a quiescence search
    follows past the horizon, since a blast can make or break a line at once."""
    cols = params[P_COLS]
    return 2 * cols <= action < 2 * cols + params[P_ROWS] * cols
