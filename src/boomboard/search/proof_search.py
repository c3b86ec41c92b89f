"""Proof by search: a position's exact value, a kernel template compiled once per game.

Pascal Pons' Connect-4 solver is the model: alpha-beta to the end of the game
(no horizon, no evaluation in the result), always with a null window moved by
bisection over the score, all in one compiled call (:func:`prove_score`), a
transposition table of bounds shared by those searches, and good move
ordering. Everything it knows of a game comes from the game kernel interface:
playing an action (``apply_action``), the moves worth searching
(``proof_moves``) and the table's key (``mirror_key``). Its positions are
the game's state arrays, or those of the game's *proof engine* where it has
one (the driver chooses): any integer array whose first words are the state
array's header, of which it reads ``PLAYER`` and ``STATUS``.

Scores, for the player to move at ``ply`` plies below the search's root: a
win whose last action is the ``d``-th ply from the root scores ``WIN - d``,
a loss ``d - WIN``, a tie 0; so the winner plays the fastest win and the
loser the slowest loss. The table stores scores as distances from the node
itself (the game has no history rules: a position's future does not depend
on how it was reached).

At each node the game gives the moves worth searching, best first
(``proof_moves``: the game's threats where it knows them, the evaluation of
each child otherwise, :mod:`boomboard.search.proof_order`), and an action
that wins at once alone: a node with one move plays it at once, and if it
wins for the mover the node is done (the fastest win there is); otherwise
no win comes before two more plies, so the window's top is
lowered to ``WIN - ply - 2`` (Pons' bound on the score of a position that
cannot win at once), which cuts off most of a deep null-window search.
Where the game vouches that from here on a player wins only by an action of
their own (``PROOF_OWN_MOVE_RESULTS``: Connect-4), the top is ``WIN - ply -
3``; where it vouches that no listed move loses at once or lets the
opponent win next (``PROOF_SAFE``), the window's bottom is raised to a loss
in three plies at the soonest (four with the first): Pons' other bound;
where every move lets the opponent win next (``PROOF_LOST``), the node is a
loss in two plies, no move searched. These bounds come before the
table is read, as in Pons' solver: a node they settle costs no look-up (in
a table of 64 MiB, mostly a miss of the processor's caches; 0.097 against
0.088 ms a position on Pons' Test_L2_R1 when the look-up came first). The
table's best move is tried first; the other children are played one at a
time, as the search reaches them (a cut node mostly searches one). The
table is keyed by ``mirror_key``, which a position shares with its mirror
image; its lowest bit says which image stored the best move, which is used
only by the same image.

The loop runs over an explicit stack of frames, one per ply (numba's disk
cache cannot hold recursive functions), and reads the CPU clock every 1024
nodes (:mod:`boomboard.search.clock`): at the node or time budget it stops
and says so (``stats[ABORTED]``); the driver then reports "not proved".
It reads ``stats[NODE_LIMIT]`` at every node, so a driver that sets it to
zero from another thread (on Ctrl-C) stops the search at the next node.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import (PLAYER, PROOF_COUNT, PROOF_LOST, PROOF_OWN_MOVE_RESULTS, PROOF_SAFE, STATUS,
                                   STATUS_TIE)
from boomboard.jit import njit
from boomboard.search.clock import cpu_nanoseconds
from boomboard.search.memory import prefetch
from boomboard.search.tree import BORROWING
from boomboard.kernel_interface import apply_action, mirror_key, proof_moves

# A win or loss scores WIN less the plies to it; the driver refuses games that
# can last half as long, so every forced result lies beyond WIN // 2.
WIN = 1 << 15
# The table packs an entry in an int64: lower bound, upper bound (each + BOUND_OFFSET,
# 17 bits), best action + 1 (24 bits) and the image that stored it (the key's lowest bit).
_BOUND_BITS, BOUND_OFFSET, _MOVE_SHIFT, _IMAGE_SHIFT = 17, 1 << 16, 34, 58
_BOUND_MASK = (1 << _BOUND_BITS) - 1
MOVE_MASK = (1 << 24) - 1

# ``stats``: what the search reports (and its budget), shared with the driver.
#   NODES         nodes searched, over all searches of one proof (the driver zeroes it)
#   NODE_LIMIT    the node budget: the search stops on reaching it
#   ABORTED       1 once a search stopped at its node or time budget
#   CLOCK_FUNCTION, CLOCK_KIND   the CPU clock (:mod:`boomboard.search.clock`)
#   DEADLINE_NS   the clock's reading at which to stop (0: no time limit)
#   PROVED_LOW, PROVED_HIGH   the range of the score on the scale of :func:`prove_score` that its searches
#                 have proved so far: what a proof stopped at its budget did establish
NODES, NODE_LIMIT, ABORTED, CLOCK_FUNCTION, CLOCK_KIND, DEADLINE_NS, PROVED_LOW, PROVED_HIGH = 0, 1, 2, 3, 4, 5, 6, 7
STATS_SIZE = 8

# ``frames[ply, column]``: the node at that ply of the current path.
#   ALPHA, BETA     its window (ALPHA rises as children return)
#   ORIGINAL_ALPHA  ALPHA when its children were set up (is the result a bound?)
#   BEST, BEST_MOVE its best score so far and the action that scored it
#   INDEX, COUNT    the children searched so far and how many it has
#   KEY             its ``mirror_key`` (the bits of the uint64)
_ALPHA, _BETA, _ORIGINAL_ALPHA, _BEST, _BEST_MOVE, _INDEX, _COUNT, _KEY = 0, 1, 2, 3, 4, 5, 6, 7
FRAME_COLUMNS = 8


@njit(**BORROWING)
def to_table(score, ply):
    """A score at ``ply`` as the table keeps it: forced results as distances from the node."""
    if score > 0:
        return score + ply
    if score < 0:
        return score - ply
    return 0


@njit(**BORROWING)
def from_table(score, ply):
    if score > 0:
        return score - ply
    if score < 0:
        return score + ply
    return 0


@njit(**BORROWING)
def pack(lower, upper, move, image):
    return ((lower + BOUND_OFFSET) | ((upper + BOUND_OFFSET) << _BOUND_BITS)
            | ((move + 1) << _MOVE_SHIFT) | (image << _IMAGE_SHIFT))


@njit(**BORROWING)
def unpack(entry, image):
    """``(lower, upper, move)`` of a table entry, read by the mirror ``image``
    (move -1: none, or stored by the other image)."""
    lower = (entry & _BOUND_MASK) - BOUND_OFFSET
    upper = ((entry >> _BOUND_BITS) & _BOUND_MASK) - BOUND_OFFSET
    move = ((entry >> _MOVE_SHIFT) & MOVE_MASK) - 1
    return lower, upper, move if (entry >> _IMAGE_SHIFT) & 1 == image else -1


@njit(**BORROWING)
def _slot(tt_keys, key):
    """The table slot of a ``mirror_key`` and the key as the table holds it
    (both images alike)."""
    shared = key >> np.uint64(1)
    return shared & np.uint64(tt_keys.shape[0] - 1), shared


# The functions below keep the books: they call none of the game's kernels
# (the loop of prove_window does) and allocate nothing, so they are compiled
# without reference counting (boomboard.search.tree.BORROWING), which at
# every node cost more than the bitboard engine's whole move.
@njit(**BORROWING)
def _store(tree, ply):
    """Keep what the finished node at ``ply`` learnt: its best score bounds
    its value from above (all moves failed low), from below (a cut-off) or
    both; bounds already known for the same position are kept where they
    are tighter."""
    frame = tree.frames[ply]
    key, best = np.uint64(frame[_KEY]), frame[_BEST]
    slot, shared = _slot(tree.tt_keys, key)
    image = np.int64(key & np.uint64(1))
    lower, upper = -WIN, WIN
    if tree.tt_keys[slot] == shared:
        lower, upper, _ = unpack(tree.tt_data[slot], image)
    stored = to_table(best, ply)
    if best < frame[_BETA]:
        upper = min(upper, stored)
    if best > frame[_ORIGINAL_ALPHA]:
        lower = max(lower, stored)
    tree.tt_keys[slot] = shared
    tree.tt_data[slot] = pack(lower, upper, frame[_BEST_MOVE], image)


@njit(**BORROWING)
def _out_of_budget(tree):
    """Count a node; whether the budget is spent (then ``stats[ABORTED]``)."""
    stats = tree.stats
    stats[NODES] += 1
    deadline = stats[DEADLINE_NS]
    if stats[NODES] >= stats[NODE_LIMIT] or (
            deadline > 0 and stats[NODES] & 1023 == 0
            and cpu_nanoseconds(stats[CLOCK_FUNCTION], stats[CLOCK_KIND], tree.timespec) >= deadline):
        stats[ABORTED] = 1
        return True
    return False


@njit(**BORROWING)
def _finished_score(tree, ply):
    """Whether the position at ``ply`` is finished, and its score if so."""
    status = np.int64(tree.stack[ply, STATUS])  # the header's words, whatever the position's integer type
    if status == 0:
        return False, 0
    if status == STATUS_TIE:
        return True, 0
    return True, (WIN - ply) if status == 1 + np.int64(tree.stack[ply, PLAYER]) else (ply - WIN)


@njit(**BORROWING)
def _probe(tree, ply, key):
    """Look the node at ``ply`` up in the table: ``(True, value)`` if that
    settles it, else ``(False, table's move or -1)``, its window narrowed
    by the table's bounds."""
    slot, shared = _slot(tree.tt_keys, key)
    frame = tree.frames[ply]
    if tree.tt_keys[slot] != shared:
        return False, -1
    lower, upper, table_move = unpack(tree.tt_data[slot], np.int64(key & np.uint64(1)))
    lower, upper = from_table(lower, ply), from_table(upper, ply)
    if lower >= frame[_BETA]:
        return True, lower
    if upper <= frame[_ALPHA]:
        return True, upper
    if lower == upper:
        return True, lower
    frame[_ALPHA], frame[_BETA] = max(frame[_ALPHA], lower), min(frame[_BETA], upper)
    return False, table_move


@njit(**BORROWING)
def _prefetch_slot(tree, key):
    slot, _ = _slot(tree.tt_keys, key)
    prefetch(tree.tt_keys.ctypes.data + np.int64(slot) * tree.tt_keys.strides[0])


@njit(**BORROWING)
def _table_move_first(tree, ply, n, table_move):
    """Move the table's move, if listed, to the front of the node's moves."""
    moves = tree.moves[ply]
    for i in range(1, n):
        if moves[i] == table_move:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = table_move
            return


@njit(**BORROWING)
def _copy_down(tree, ply):
    """Copy the position at ``ply`` to ``ply + 1``, for its child to be played there."""
    stack = tree.stack
    for word in range(stack.shape[1]):
        stack[ply + 1, word] = stack[ply, word]


@njit(**BORROWING)
def _bound(tree, ply, n, listed):
    """Bound the node at ``ply`` by what it is before its table entry is read
    (Pons' solver returns on these bounds before it looks a position up: a
    node they settle costs no look-up, a cache miss in a large table):
    ``(True, value)`` where that settles it (its one move wins at once, every
    move loses, or its window is empty outside the scores it can still
    reach), else ``(False, 0)`` with its window narrowed. With one move, that
    move's position is already played at ``ply + 1``. ``listed``: what
    ``proof_moves`` returned, its flags saying what the game vouches for."""
    frame = tree.frames[ply]
    if n == 1 and np.int64(tree.stack[ply + 1, STATUS]) == 1 + np.int64(tree.stack[ply, PLAYER]):
        return True, WIN - ply - 1
    if listed & PROOF_LOST:  # whatever the mover plays, the opponent's next action wins
        return True, ply + 2 - WIN
    own_move_results = listed & PROOF_OWN_MOVE_RESULTS != 0
    # No win at once: none before two more plies, or three where a win comes only by the winner's own action.
    top = WIN - ply - (3 if own_move_results else 2)
    if frame[_BETA] > top:
        frame[_BETA] = top
        if frame[_ALPHA] >= top:
            return True, top
    if listed & PROOF_SAFE:  # no loss at once, nor at the opponent's next action: none before three (four) plies
        bottom = ply + (4 if own_move_results else 3) - WIN
        if frame[_ALPHA] < bottom:
            frame[_ALPHA] = bottom
            if bottom >= frame[_BETA]:
                return True, bottom
    return False, 0


@njit(**BORROWING)
def _open(tree, ply, n, key):
    """Set up the node at ``ply``, bounded and looked up, whose first child is
    in place at ``ply + 1``: its books and the child's window."""
    frame = tree.frames[ply]
    frame[_ORIGINAL_ALPHA] = frame[_ALPHA]
    frame[_BEST], frame[_BEST_MOVE] = -WIN, tree.moves[ply, 0]
    frame[_INDEX], frame[_COUNT], frame[_KEY] = 0, n, np.int64(key)
    _child_window(tree, ply)


@njit(**BORROWING)
def _child_window(tree, ply):
    frames = tree.frames
    frames[ply + 1, _ALPHA], frames[ply + 1, _BETA] = -frames[ply, _BETA], -frames[ply, _ALPHA]


@njit(**BORROWING)
def _take_back(tree, ply, value):
    """Take the value of the child of the node at ``ply`` back: ``(True,
    best)`` if that finishes the node (a cut-off, or its last move; the
    table keeps it), else ``(False, next move)`` with the next child's
    position copied to ``ply + 1`` and its window set."""
    frame = tree.frames[ply]
    score = -value
    if score > frame[_BEST]:
        frame[_BEST], frame[_BEST_MOVE] = score, tree.moves[ply, frame[_INDEX]]
    if score > frame[_ALPHA]:
        frame[_ALPHA] = score
    frame[_INDEX] += 1
    if frame[_ALPHA] >= frame[_BETA] or frame[_INDEX] == frame[_COUNT]:
        _store(tree, ply)
        return True, frame[_BEST]
    _copy_down(tree, ply)
    _child_window(tree, ply)
    return False, tree.moves[ply, frame[_INDEX]]


@njit(cache=True, nogil=True)  # without the interpreter's lock: see boomboard.search.interruptible
def prove_window(params, tree, root_ply, alpha, beta):
    """Alpha-beta to the end of the game from ``tree.stack[root_ply]`` with the window
    ``alpha, beta`` (fail-soft: a result at or below ``alpha`` is an upper
    bound, at or above ``beta`` a lower bound, between them exact). Scores
    count plies from ``root_ply``'s parent as ply 0, so a search of one root
    move's child (``root_ply`` 1) returns the move's value negated. Returns
    the value; meaningless once ``stats[ABORTED]`` is set. The loop makes
    every call into the game's kernels; the functions above keep the books."""
    stack, moves, frames, stats = tree.stack, tree.moves, tree.frames, tree.stats
    frames[root_ply, _ALPHA], frames[root_ply, _BETA] = alpha, beta
    ply = root_ply
    entering = True
    value = 0
    while True:
        if entering:
            if _out_of_budget(tree):
                return 0
            done, value = _finished_score(tree, ply)
            key, table_move, n = np.uint64(0), -1, 0
            if not done:
                key = mirror_key(stack[ply], params)
                _prefetch_slot(tree, key)  # the table's line loads while the moves are listed
                listed = proof_moves(stack[ply], params, moves[ply])
                n = listed & PROOF_COUNT
                if n == 1:  # a move that wins at once comes alone: play it to see
                    _copy_down(tree, ply)
                    apply_action(stack[ply + 1], params, moves[ply, 0])
                done, value = _bound(tree, ply, n, listed)
            if not done:
                done, table_move = _probe(tree, ply, key)
                value = table_move  # the node's value where the table settles it
            if not done:
                if n > 1:
                    _table_move_first(tree, ply, n, table_move)
                    _copy_down(tree, ply)
                    apply_action(stack[ply + 1], params, moves[ply, 0])
                _open(tree, ply, n, key)
                ply += 1  # its first child is in place
                continue
            entering = False
        # the node at ``ply`` is done with ``value``: take it back to its parent
        if ply == root_ply:
            return value
        if stats[ABORTED]:
            return 0
        ply -= 1
        finished, value = _take_back(tree, ply, value)
        if not finished:  # ``value`` is the next move, its position in place to be played
            apply_action(stack[ply + 1], params, value)
            ply += 1
            entering = True


# prove_score bisects on a scale without gaps, as Pons' score is: with ``left``
# plies at most to the end, a loss in ``d`` plies is ``d - left - 1``, a tie 0,
# a win in ``d`` plies ``left + 1 - d`` (faster wins higher).
@njit(**BORROWING)
def _score_of(scale, left):
    """The search's score of a value on the scale."""
    if scale > 0:
        return scale + WIN - left - 1
    if scale < 0:
        return scale - WIN + left + 1
    return 0


@njit(**BORROWING)
def _scale_above(score, left):
    """The least value on the scale whose score is at least ``score`` (a
    lower bound: a score between the slowest result and a tie is a tie)."""
    if score >= WIN - left:
        return score - WIN + left + 1
    if score > 0:
        return 1
    if score > left - WIN:
        return 0
    return score + WIN - left - 1


@njit(**BORROWING)
def _scale_below(score, left):
    """The greatest value on the scale whose score is at most ``score``."""
    if score >= WIN - left:
        return score - WIN + left + 1
    if score >= 0:
        return 0
    if score > left - WIN:
        return -1
    return score + WIN - left - 1


@njit(**BORROWING)
def _half(x):
    """``x / 2`` rounded toward 0 (C's division, as in Pons' solver)."""
    return x // 2 if x >= 0 else -((-x) // 2)


@njit(**BORROWING)
def _next_test(low, high, left):
    """The value on the scale that the next null window tests (is the score
    above it?), the score known to lie in ``low..high``: as Pons' ``solve()``,
    halfway to the fastest loss while nothing rules one out, then halfway to
    the fastest win while nothing rules that out (a search for a fast result
    is cut short by the best score each node can still reach: it stays near
    the root); then, while the range holds a tie and more, the value (above
    a tie? above the slowest loss?); then the middle."""
    middle = low + (high - low) // 2
    if low == -left and middle <= 0 and _half(low) < middle:
        return _half(low)
    if high == left and middle >= 0 and _half(high) > middle:
        return _half(high)
    if low < 0 < high:
        return 0
    if low < 0 == high:
        return -1
    return middle


@njit(cache=True, nogil=True)
def prove_score(params, tree, left, exact):
    """The score of the position at ``tree.stack[0]`` (its children's plies
    counted from 1), which ends within ``left`` plies, all in one call:
    null-window searches narrow the range of scores (:func:`_next_test`
    says where) until one is left. Without ``exact`` the range is only loss,
    tie, win, and a win or loss returns a score of that sign only. Every
    search shares the table, so each starts from what the ones before it
    learnt. Meaningless once ``stats[ABORTED]`` is set; the range proved
    until then is in ``stats[PROVED_LOW]`` and ``stats[PROVED_HIGH]``."""
    low, high = (-left, left) if exact else (-1, 1)
    while low < high:
        tree.stats[PROVED_LOW], tree.stats[PROVED_HIGH] = low, high
        threshold = _score_of(_next_test(low, high, left), left)
        found = prove_window(params, tree, 0, threshold, threshold + 1)
        if tree.stats[ABORTED]:
            return 0
        if found <= threshold:
            high = max(low, _scale_below(found, left))
        else:
            low = min(high, _scale_above(found, left))
    tree.stats[PROVED_LOW], tree.stats[PROVED_HIGH] = low, high
    return _score_of(low, left)
