"""Proof by search: a position's exact value, a kernel template compiled once per game.

Pascal Pons' Connect-4 solver is the model: alpha-beta to the end of the game
(no horizon, no evaluation in the result), always with a null window that the
driver (:mod:`boomboard.search.prover`) moves by bisection over the score, a
transposition table of bounds shared by those searches, and good move
ordering. Everything it knows of a game comes from the game kernel interface:
legal actions, playing one, the position key, and the static evaluation,
which only orders moves.

Scores, for the player to move at ``ply`` plies below the search's root: a
win whose last action is the ``d``-th ply from the root scores ``WIN - d``,
a loss ``d - WIN``, a tie 0; so the winner plays the fastest win and the
loser the slowest loss. The table stores scores as distances from the node
itself (the game has no history rules: a position's future does not depend
on how it was reached).

At each node the children are played at once (a game's move is one copy and
one call): a child that wins for the mover ends the search of the node (the
fastest win there is); otherwise no win comes before two more plies, so the
window's top is lowered to ``WIN - ply - 2`` (Pons' bound on the score of a
position that cannot win at once), which cuts off most of a deep null-window
search. Children are tried best first: the table's best move, then by the
game's evaluation of the child, with children that lose at once last.

The loop runs over an explicit stack of frames, one per ply (numba's disk
cache cannot hold recursive functions), and reads the CPU clock every 1024
nodes (:mod:`boomboard.search.clock`): at the node or time budget it stops
and says so (``stats[ABORTED]``); the driver then reports "not proved".
It reads ``stats[NODE_LIMIT]`` at every node, so a driver that sets it to
zero from another thread (on Ctrl-C) stops the search at the next node.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import PLAYER, STATUS, STATUS_TIE
from boomboard.jit import njit
from boomboard.search.clock import cpu_nanoseconds
from boomboard.kernel_interface import apply_action, evaluate, legal_actions, position_key

# A win or loss scores WIN less the plies to it; the driver refuses games that
# can last half as long, so every forced result lies beyond WIN // 2.
WIN = 1 << 15
# The table packs an entry in an int64: lower bound, upper bound (each + BOUND_OFFSET,
# 17 bits) and best action + 1 (24 bits).
_BOUND_BITS, BOUND_OFFSET, _MOVE_SHIFT = 17, 1 << 16, 34
_BOUND_MASK = (1 << _BOUND_BITS) - 1
MOVE_MASK = (1 << 24) - 1

# ``stats``: what the search reports (and its budget), shared with the driver.
#   NODES         nodes searched, over all searches of one proof (the driver zeroes it)
#   NODE_LIMIT    the node budget: the search stops on reaching it
#   ABORTED       1 once a search stopped at its node or time budget
#   CLOCK_FUNCTION, CLOCK_KIND   the CPU clock (:mod:`boomboard.search.clock`)
#   DEADLINE_NS   the clock's reading at which to stop (0: no time limit)
NODES, NODE_LIMIT, ABORTED, CLOCK_FUNCTION, CLOCK_KIND, DEADLINE_NS = 0, 1, 2, 3, 4, 5
STATS_SIZE = 6

# ``frames[ply, column]``: the node at that ply of the current path.
#   ALPHA, BETA     its window (ALPHA rises as children return)
#   ORIGINAL_ALPHA  ALPHA when its children were set up (is the result a bound?)
#   BEST, BEST_MOVE its best score so far and the action that scored it
#   INDEX, COUNT    the children searched so far and how many it has
_ALPHA, _BETA, _ORIGINAL_ALPHA, _BEST, _BEST_MOVE, _INDEX, _COUNT = 0, 1, 2, 3, 4, 5, 6
_FRAME_COLUMNS = 7

# Sort keys: the table's move first; a child that loses at once last.
_TABLE_MOVE_KEY = 1 << 40
_LOSING_KEY = -(1 << 40)


@njit(cache=True)
def to_table(score, ply):
    """A score at ``ply`` as the table keeps it: forced results as distances from the node."""
    if score > 0:
        return score + ply
    if score < 0:
        return score - ply
    return 0


@njit(cache=True)
def from_table(score, ply):
    if score > 0:
        return score - ply
    if score < 0:
        return score + ply
    return 0


@njit(cache=True)
def pack(lower, upper, move):
    return ((lower + BOUND_OFFSET) | ((upper + BOUND_OFFSET) << _BOUND_BITS)
            | ((move + 1) << _MOVE_SHIFT))


@njit(cache=True)
def unpack(entry):
    """``(lower, upper, move)`` of a table entry (move -1: none)."""
    lower = (entry & _BOUND_MASK) - BOUND_OFFSET
    upper = ((entry >> _BOUND_BITS) & _BOUND_MASK) - BOUND_OFFSET
    return lower, upper, ((entry >> _MOVE_SHIFT) & MOVE_MASK) - 1


@njit(cache=True)
def _store(tt_keys, tt_data, key, ply, best, best_move, original_alpha, beta):
    """Keep what the finished node learnt: ``best`` bounds its value from above
    (all moves failed low), from below (a cut-off) or both; bounds already
    known for the same position are kept where they are tighter."""
    slot = key & np.uint64(tt_keys.shape[0] - 1)
    lower, upper = -WIN, WIN
    if tt_keys[slot] == key:
        lower, upper, _ = unpack(tt_data[slot])
    stored = to_table(best, ply)
    if best < beta:
        upper = min(upper, stored)
    if best > original_alpha:
        lower = max(lower, stored)
    tt_keys[slot] = key
    tt_data[slot] = pack(lower, upper, best_move)


@njit(cache=True)
def _out_of_budget(stats, timespec):
    """Count a node; whether the budget is spent (then ``stats[ABORTED]``)."""
    stats[NODES] += 1
    deadline = stats[DEADLINE_NS]
    if stats[NODES] >= stats[NODE_LIMIT] or (
            deadline > 0 and stats[NODES] & 1023 == 0
            and cpu_nanoseconds(stats[CLOCK_FUNCTION], stats[CLOCK_KIND], timespec) >= deadline):
        stats[ABORTED] = 1
        return True
    return False


@njit(cache=True)
def _set_up_children(params, s, ply, children, moves, order, table_move):
    """Play every move of ``s`` into ``children[ply]`` and order them (best
    first). Returns how many there are, or -1 if one wins at once."""
    n = legal_actions(s, params, moves[ply])
    mover_wins = 1 + s[PLAYER]
    for i in range(n):
        child = children[ply, i]
        child[:] = s
        apply_action(child, params, moves[ply, i])
        status = child[STATUS]
        if status == mover_wins:
            return -1
        if moves[ply, i] == table_move:
            order[ply, i] = _TABLE_MOVE_KEY
        elif status == 0:
            order[ply, i] = -evaluate(child, params)
        elif status == STATUS_TIE:
            order[ply, i] = 0
        else:
            order[ply, i] = _LOSING_KEY
    # insertion sort of the indexes (few children; most are searched at a cut node anyway)
    for i in range(n):
        moves[ply, n + i] = i
    for i in range(1, n):
        j, index = i, moves[ply, n + i]
        while j > 0 and order[ply, moves[ply, n + j - 1]] < order[ply, index]:
            moves[ply, n + j] = moves[ply, n + j - 1]
            j -= 1
        moves[ply, n + j] = index
    return n


@njit(cache=True)
def _enter(params, stack, children, moves, order, frames, ply, tt_keys, tt_data):
    """Score the node at ``ply`` at once if it can be (returns ``True, value``),
    or set up its children to be searched (``False, 0``)."""
    s = stack[ply]
    if s[STATUS] != 0:
        if s[STATUS] == STATUS_TIE:
            return True, 0
        return True, (WIN - ply) if s[STATUS] == 1 + s[PLAYER] else (ply - WIN)
    key = position_key(s, params)
    slot = key & np.uint64(tt_keys.shape[0] - 1)
    table_move = -1
    alpha, beta = frames[ply, _ALPHA], frames[ply, _BETA]
    if tt_keys[slot] == key:
        lower, upper, table_move = unpack(tt_data[slot])
        lower, upper = from_table(lower, ply), from_table(upper, ply)
        if lower >= beta:
            return True, lower
        if upper <= alpha:
            return True, upper
        if lower == upper:
            return True, lower
        alpha, beta = max(alpha, lower), min(beta, upper)
    n = _set_up_children(params, s, ply, children, moves, order, table_move)
    if n < 0:
        return True, WIN - ply - 1
    top = WIN - ply - 2  # no win at once: none before two more plies
    if beta > top:
        beta = top
        if alpha >= beta:
            return True, top
    frames[ply, _ALPHA], frames[ply, _BETA], frames[ply, _ORIGINAL_ALPHA] = alpha, beta, alpha
    frames[ply, _BEST], frames[ply, _BEST_MOVE] = -WIN, moves[ply, moves[ply, n]]
    frames[ply, _INDEX], frames[ply, _COUNT] = 0, n
    return False, 0


@njit(cache=True, nogil=True)  # without the interpreter's lock: see boomboard.search.interruptible
def prove_window(params, stack, root_ply, alpha, beta, children, moves, order, table, stats):
    """Alpha-beta to the end of the game from ``stack[root_ply]`` with the window
    ``alpha, beta`` (fail-soft: a result at or below ``alpha`` is an upper
    bound, at or above ``beta`` a lower bound, between them exact). Scores
    count plies from ``root_ply``'s parent as ply 0, so a search of one root
    move's child (``root_ply`` 1) returns the move's value negated. Returns
    the value; meaningless once ``stats[ABORTED]`` is set."""
    tt_keys, tt_data = table
    timespec = np.zeros(2, np.int64)
    frames = np.zeros((stack.shape[0], _FRAME_COLUMNS), np.int64)
    frames[root_ply, _ALPHA], frames[root_ply, _BETA] = alpha, beta
    ply = root_ply
    entering = True
    value = 0
    while True:
        if entering:
            if _out_of_budget(stats, timespec):
                return 0
            done, value = _enter(params, stack, children, moves, order, frames, ply, tt_keys, tt_data)
            if not done:
                i = frames[ply, _INDEX]
                stack[ply + 1, :] = children[ply, moves[ply, frames[ply, _COUNT] + i]]
                frames[ply + 1, _ALPHA], frames[ply + 1, _BETA] = -frames[ply, _BETA], -frames[ply, _ALPHA]
                ply += 1
                continue
            entering = False
        # the node at ``ply`` is done with ``value``: take it back to its parent
        if ply == root_ply:
            return value
        if stats[ABORTED]:
            return 0
        ply -= 1
        n = frames[ply, _COUNT]
        action = moves[ply, moves[ply, n + frames[ply, _INDEX]]]
        score = -value
        if score > frames[ply, _BEST]:
            frames[ply, _BEST], frames[ply, _BEST_MOVE] = score, action
        if score > frames[ply, _ALPHA]:
            frames[ply, _ALPHA] = score
        frames[ply, _INDEX] += 1
        if frames[ply, _ALPHA] >= frames[ply, _BETA] or frames[ply, _INDEX] == n:
            value = frames[ply, _BEST]
            _store(tt_keys, tt_data, position_key(stack[ply], params), ply, value, frames[ply, _BEST_MOVE],
                   frames[ply, _ORIGINAL_ALPHA], frames[ply, _BETA])
            continue
        i = frames[ply, _INDEX]
        stack[ply + 1, :] = children[ply, moves[ply, n + i]]
        frames[ply + 1, _ALPHA], frames[ply + 1, _BETA] = -frames[ply, _BETA], -frames[ply, _ALPHA]
        ply += 1
        entering = True
