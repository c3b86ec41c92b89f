"""Alpha-beta search kernels: a template, compiled once per game.

Negamax with alpha-beta pruning and principal-variation (null-window)
search; :mod:`boomboard.search.alphabeta` drives it by iterative deepening
from Python. :func:`boomboard.jit.specialize` binds the game kernels
imported below to one game's own, so every game has its own compiled copy.

A transposition table
keyed by the games' 64-bit position keys (the Zobrist idea: an XOR or sum of
per-cell random numbers) stores bounds and best moves; moves are tried hash
move first, then the two killer moves of the ply, then by the history
heuristic. Wins are scored ``WIN - ply`` and losses ``ply - WIN``, so the
search plays the fastest win and the slowest loss.

Endgame tables (:mod:`boomboard.solver.endgames`, for a game solved as
endgames): a node below the root that the tables hold scores its exact
result, a win in ``r`` moves ``WIN - ply - r`` (as if the search had seen it
to the end), a tie or draw 0; the tables are given as the solver stores
them, sorted hashed keys and packed results (empty arrays for a game without
tables: nothing is probed).

Ties that depend on history are scored 0: a position that repeats one on the
path from the game's start (a twofold repetition, as chess engines do: the
side that could repeat can usually repeat again) and a position at the
action limit.

Time control: the compiled search reads the process's CPU clock every 1024
nodes (:mod:`boomboard.search.clock`) and stops at the deadline, so a search
ends within a millisecond or so of its budget. An unfinished iteration still
counts: its first move is the previous best, so a different best move had
beaten it at the new depth.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import OUTSIDE, PLAYER, PLY, STATUS, STATUS_TIE, mix64
from boomboard.jit import njit
from boomboard.search.clock import cpu_nanoseconds
from boomboard.search.scores import INFINITY, MATE_BOUND, WIN
from boomboard.search.tree import BORROWING, SearchTree
from boomboard.kernel_interface import apply_action, encode, evaluate, is_explosive, legal_actions, position_key

MAX_PLY = 100

EXACT, LOWER, UPPER = 0, 1, 2

# The search state, as :func:`search_depth` takes it (the driver owns all of
# it but ``frames``, and keeps the tables and move-ordering memory between
# iterations and moves):
#   params                  the game's parameters
#   stack[ply]              the position at each ply of the current path (ply 0: the root)
#   moves[ply, i], order[ply, i]   the node's moves and their sort keys (see _order_moves)
#   path_keys               the position keys of the game so far, then of the path
#   table = (tt_keys, tt_data)   the transposition table: per slot, a position
#                           key and its packed entry (see _pack)
#   ordering = (history, killers)  history[action]: the cut-offs it made, weighted
#                           by depth; killers[ply, 0..1]: the ply's last cut-off moves
#   endgames = (spec, keys, entries)   the endgame tables (see _probe)
#   stats, options, frames  int64 arrays named by their slots and columns, below
# search_depth gathers them (but params and endgames) in one record for its
# step functions, a :class:`boomboard.search.tree.SearchTree`.
#
# ``options``: the settings of one iteration, written by the driver
# (:meth:`boomboard.search.alphabeta.AlphaBeta.search`), read-only here.
#   ITERATION_DEPTH    plies to search from the root (the iteration's depth)
#   EARLIER_POSITIONS  how many keys of the game's earlier positions lead
#                      ``path_keys``; the search writes ply ``p``'s key after them
#   CHECK_REPETITION   1: a position repeating one on the path is a tie
#   ACTION_LIMIT       the game's action limit (a tie when reached; 0: none)
#   QUIESCENCE         plies of explosive actions searched past the horizon
#   CONTEMPT           what a tie by history costs the side to move at the root
#   REDUCTIONS         plies a late quiet move is searched shallower first (0: none)
#   NULL_MOVE          plies a null move's search is shallower (0: no null moves)
#   ROOT_MARGIN        root moves within it of the best are searched exactly (0: none)
#   CLOCK_FUNCTION, CLOCK_KIND   the CPU clock (:mod:`boomboard.search.clock`)
#   DEADLINE_NS        the clock's reading at which to stop (0: no time limit)
ITERATION_DEPTH, EARLIER_POSITIONS, CHECK_REPETITION, ACTION_LIMIT, QUIESCENCE, CONTEMPT = 0, 1, 2, 3, 4, 5
REDUCTIONS, NULL_MOVE, ROOT_MARGIN, CLOCK_FUNCTION, CLOCK_KIND, DEADLINE_NS = 6, 7, 8, 9, 10, 11
OPTIONS_SIZE = 12
#
# ``stats``: what the search reports, shared with the driver.
#   NODES          nodes searched (the driver zeroes it)
#   NODE_LIMIT     the node budget (set by the driver): the search stops on reaching it
#   ABORTED        1 once the search stopped at its node or time budget
#   BEST_ACTION, BEST_SCORE   the best root action so far and its score
#   ROOT_SCORES + a  the score of root action ``a``, with a root margin
#                  (the driver sets them to -INFINITY first)
NODES, NODE_LIMIT, ABORTED, BEST_ACTION, BEST_SCORE, ROOT_SCORES = 0, 1, 2, 3, 4, 5
#
# ``frames[ply, column]``: one row per ply of the current path (the explicit
# stack of :func:`search_depth`), for the node at that ply:
#   ALPHA, BETA     its search window (ALPHA rises as its children return)
#   ORIGINAL_ALPHA  ALPHA when its moves were generated (is a result a bound?)
#   DEPTH           plies left to its horizon (<= 0: a quiescence node)
#   BEST, BEST_MOVE  its best score so far and the move that scored it
#   INDEX, COUNT    the moves searched so far and how many it has (in ``moves[ply]``)
#   PHASE           how its current child is searched (_FULL_WINDOW, _NULL_WINDOW,
#                   _RESEARCH, _REDUCED, _PASS)
#   ACTION          the action leading to its current child (-1: the null move)
#   HASH_MOVE       the transposition table's best move for it (-1: none)
# The key of the node at ply ``p`` is ``path_keys[options[EARLIER_POSITIONS] + p]``.
ALPHA, BETA, ORIGINAL_ALPHA, DEPTH, BEST, BEST_MOVE = 0, 1, 2, 3, 4, 5
INDEX, COUNT, PHASE, ACTION, HASH_MOVE = 6, 7, 8, 9, 10
FRAME_COLUMNS = 11

# The TT packs one entry in an int64: move + 1 (24 bits), bound (2), depth (8),
# score + SCORE_OFFSET (24).
_SCORE_OFFSET = 1 << 23
MOVE_BITS, _BOUND_SHIFT, _DEPTH_SHIFT, _SCORE_SHIFT = (1 << 24) - 1, 24, 26, 34


@njit(cache=True)
def _pack(move, bound, depth, score):
    return (move + 1) | (bound << _BOUND_SHIFT) | (depth << _DEPTH_SHIFT) | ((score + _SCORE_OFFSET) << _SCORE_SHIFT)


@njit(cache=True)
def _score_to_table(score, ply):
    """Forced results are stored as distances from this node, not the root."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True)
def _score_from_table(score, ply):
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True)
def _terminal_score(s, ply):
    status = s[STATUS]
    if status == STATUS_TIE:
        return 0
    if status == 1 + s[PLAYER]:  # the player to move has won (e.g. Misère Kaboom)
        return WIN - ply
    return ply - WIN


@njit(cache=True)
def _repeats(path_keys, n, key):
    """Whether ``key`` equals an earlier position with the same player to move."""
    for i in range(n - 2, -1, -2):
        if path_keys[i] == key:
            return True
    return False


@njit(cache=True)
def _lower_bound(ply, alpha, root_margin):
    """The score a move must beat to be searched exactly: alpha, or at the root
    alpha less the margin (while alpha is no forced result)."""
    if ply == 0 and root_margin > 0 and -MATE_BOUND < alpha < MATE_BOUND:
        return alpha - root_margin
    return alpha


# What _probe answers for a position the endgame tables do not hold.
NOT_IN_TABLES = 1 << 20
# How the endgame tables pack a position's result in a uint16 (the solver's
# own format, boomboard.solver.hashed.retrograde): the value above the shift, the
# remoteness (moves to the end under perfect play) below it.
TABLE_SHIFT, TABLE_WIN, TABLE_LOSS = 14, 3, 0


@njit(cache=True)
def _probe(spec, s, params, keys, entries):
    """The endgame tables' result for the player to move in ``s`` (``+r`` a
    win in ``r`` moves, ``-r`` a loss in ``r``, 0 neither), or :data:`NOT_IN_TABLES`.
    ``keys`` are the positions' hashed codec keys, sorted (a bisection finds
    them), ``entries`` their packed results."""
    key = encode(spec, s, params)
    if key == OUTSIDE:
        return NOT_IN_TABLES
    h = mix64(key)
    lo, hi = 0, keys.shape[0]
    while lo < hi:
        middle = (lo + hi) // 2
        if keys[middle] < h:
            lo = middle + 1
        else:
            hi = middle
    if lo == keys.shape[0] or keys[lo] != h:
        return NOT_IN_TABLES
    entry = np.int64(entries[lo])
    value, remoteness = entry >> TABLE_SHIFT, entry & ((1 << TABLE_SHIFT) - 1)
    if value == TABLE_WIN:
        return remoteness
    if value == TABLE_LOSS:
        return -remoteness
    return 0


@njit(cache=True)
def _table_score(result, ply):
    """The search score of an endgame tables' result (see :func:`_probe`) at ``ply``."""
    if result > 0:
        return WIN - ply - result
    if result < 0:
        return ply - result - WIN
    return 0


# How the current child of a node is being searched (_PASS: the null move,
# the child is the node itself with the other player to move).
_FULL_WINDOW, _NULL_WINDOW, _RESEARCH, _REDUCED, _PASS = 0, 1, 2, 3, 4
# Late move reductions: from the node's LATE_MOVE-th move on (after the hash
# move and the killers), at REDUCIBLE_DEPTH or more, a move that explodes
# nothing is searched ``reductions`` plies shallower first.
LATE_MOVE, REDUCIBLE_DEPTH = 3, 3


@njit(cache=True)
def _order_moves(moves, order, ply, n, hash_move, killers, history):
    """Sort keys: the hash move, then the ply's killers, then history counts."""
    for i in range(n):
        action = moves[ply, i]
        if action == hash_move:
            order[ply, i] = 1 << 50
        elif action == killers[ply, 0]:
            order[ply, i] = 1 << 49
        elif action == killers[ply, 1]:
            order[ply, i] = 1 << 48
        else:
            order[ply, i] = history[action]


@njit(cache=True)
def _pick_next(moves, order, ply, i, n):
    """Bring the best-ordered of moves ``i..n-1`` to place ``i`` (a lazy selection
    sort: a cut-off usually comes before the rest needs sorting) and return it."""
    pick = i
    for j in range(i + 1, n):
        if order[ply, j] > order[ply, pick]:
            pick = j
    action = moves[ply, pick]
    moves[ply, pick] = moves[ply, i]
    order[ply, pick] = order[ply, i]
    moves[ply, i] = action
    return action



# The step functions below keep the books: they call none of the game's
# kernels, the loop does (see boomboard.search.tree.BORROWING).

# What the search loop does next with the node at ``ply``. _take_back
# answers one of the last three as well: search its current child again
# (see _set_up_search_again), set up its moves after a null move that did not
# cut it off, or remember its result (see _remember), then return it.
_ENTER, _NEXT_CHILD, _RETURN, _SEARCH_AGAIN, _MOVES_AFTER_NULL, _FINISHED = 0, 1, 2, 3, 4, 5


@njit(cache=True, nogil=True)  # without the interpreter's lock: see boomboard.search.interruptible
def search_depth(params, stack, moves, order, path_keys, table, ordering, stats, options, endgames):
    """One iteration of iterative deepening from ``stack[0]`` to
    ``options[ITERATION_DEPTH]``; returns the root's score, and puts the best
    root action and its score in ``stats`` (the arguments: see the search
    state above).

    Negamax written as a loop over an explicit stack of frames, one per ply
    (numba's disk cache cannot hold recursive functions: numba issue #6061).
    Each pass does one step for the node at ``ply``: enter it (score it at
    once, or set up its moves), search its next child (:func:`_open_child`),
    or take a child's value back (:func:`_take_back`). The loop makes every
    call into the game's kernels; the step functions keep the books.
    """
    history, killers = ordering
    probe_spec, probe_keys, probe_entries = endgames
    for i in range(history.shape[0]):
        history[i] >>= 2  # older iterations count less
    frames = np.zeros((MAX_PLY + 1, FRAME_COLUMNS), np.int64)
    frames[0, ALPHA], frames[0, BETA], frames[0, DEPTH] = -INFINITY, INFINITY, options[ITERATION_DEPTH]
    tree = SearchTree(stack, moves, order, frames, path_keys, table[0], table[1], history, killers, stats, options,
                      np.zeros(2, np.int64))
    ply, step, value = 0, _ENTER, 0
    while True:
        if step == _ENTER:
            s = stack[ply]
            step, value = _RETURN, 0  # unless the node's moves are to be searched
            if _out_of_budget(tree):
                continue
            if s[STATUS] != 0:
                value = _terminal_score(s, ply)
                continue
            key = position_key(s, params)
            tie, value = _tie_by_history(tree, ply, key, s[PLY])
            if tie:
                continue
            if ply > 0 and probe_keys.shape[0] > 0:
                value = _endgame_score(probe_spec, s, params, probe_keys, probe_entries, ply, options[ACTION_LIMIT])
                if value != NOT_IN_TABLES:
                    continue
            depth = frames[ply, DEPTH]
            if ply >= MAX_PLY - 1 or depth <= -options[QUIESCENCE]:
                value = evaluate(s, params)
            elif depth <= 0:
                if _enter_quiescence(params, s, moves, order, ply, frames, killers, history):
                    step = _NEXT_CHILD
                else:
                    value = frames[ply, BEST]
            else:
                settled, value = _probe_table(tree, ply, key)
                if settled:
                    continue
                if options[NULL_MOVE] > 0 and _tries_null_move(params, stack, ply, frames, options[NULL_MOVE]):
                    ply, step = ply + 1, _ENTER
                else:
                    _generate(params, s, moves, order, ply, killers, history, frames)
                    step = _NEXT_CHILD
        elif step == _NEXT_CHILD or step == _SEARCH_AGAIN:  # play the child at ply + 1 (one copy of the game's move)
            if step == _NEXT_CHILD:
                action = _open_child(tree, ply)
            else:
                action = _set_up_search_again(frames, options, ply)
            stack[ply + 1, :] = stack[ply]
            apply_action(stack[ply + 1], params, action)
            if step == _NEXT_CHILD and _reducible(tree, ply) and not is_explosive(stack[ply], params, action):
                _reduce(tree, ply)
            ply, step = ply + 1, _ENTER
        else:  # _RETURN: the node at ply is done with ``value``
            if ply == 0:
                return value
            ply -= 1
            step, value = _take_back(frames, stats, options, ply, value)
            if step == _MOVES_AFTER_NULL:
                _generate(params, stack[ply], moves, order, ply, killers, history, frames)
                step = _NEXT_CHILD
            elif step == _FINISHED:
                _remember(tree, ply)
                step = _RETURN


@njit(**BORROWING)
def _out_of_budget(tree):
    """Count a node; whether the search is out of nodes or time (then it stops:
    ``stats[ABORTED]``). The clock is read every 1024 nodes."""
    stats, options = tree.stats, tree.options
    stats[NODES] += 1
    deadline_ns = options[DEADLINE_NS]
    if stats[NODES] >= stats[NODE_LIMIT] or (
            deadline_ns > 0 and stats[NODES] & 1023 == 0
            and cpu_nanoseconds(options[CLOCK_FUNCTION], options[CLOCK_KIND], tree.timespec) >= deadline_ns):
        stats[ABORTED] = 1
        return True
    return False


@njit(**BORROWING)
def _tie_by_history(tree, ply, key, plies_played):
    """Record the key of the node at ``ply``; whether it is a tie by history
    (below the root, a repetition or the action limit) and what that tie
    is worth to its player (see ``options[CONTEMPT]``)."""
    options, path_keys = tree.options, tree.path_keys
    earlier, action_limit = options[EARLIER_POSITIONS], options[ACTION_LIMIT]
    path_keys[earlier + ply] = key
    if ply > 0 and ((options[CHECK_REPETITION] and _repeats(path_keys, earlier + ply, key))
                    or (action_limit > 0 and plies_played >= action_limit)):
        return True, -options[CONTEMPT] if ply % 2 == 0 else options[CONTEMPT]
    return False, 0


@njit(cache=True)
def _endgame_score(spec, s, params, keys, entries, ply, action_limit):
    """The score of ``s`` at ``ply`` from the endgame tables (see :func:`_probe`),
    or :data:`NOT_IN_TABLES`: also when the tables' result would pass the
    action limit or the scores' range."""
    result = _probe(spec, s, params, keys, entries)
    if result != NOT_IN_TABLES and (action_limit <= 0 or s[PLY] + abs(result) <= action_limit) \
            and ply + abs(result) < WIN - MATE_BOUND:
        return _table_score(result, ply)
    return NOT_IN_TABLES


@njit(**BORROWING)
def _probe_table(tree, ply, key):
    """Look up the node at ``ply`` in the transposition table: note its hash
    move, and return whether the entry settles its value, and that value."""
    frames, tt_keys = tree.frames, tree.tt_keys
    slot = key & np.uint64(tt_keys.shape[0] - 1)
    frames[ply, HASH_MOVE] = -1
    if tt_keys[slot] != key:
        return False, 0
    entry = tree.tt_data[slot]
    frames[ply, HASH_MOVE] = (entry & MOVE_BITS) - 1
    return _table_bound(entry, ply, frames[ply, DEPTH], frames[ply, ALPHA], frames[ply, BETA])


@njit(**BORROWING)
def _open_child(tree, ply):
    """Set up the next child of the node at ``ply``, best-ordered first, and
    return the action leading to it (the loop plays it at ``ply + 1``): the
    first with the node's full window, the others with a null window."""
    frames = tree.frames
    i = frames[ply, INDEX]
    action = _pick_next(tree.moves, tree.order, ply, i, frames[ply, COUNT])
    frames[ply, ACTION] = action
    frames[ply + 1, DEPTH] = frames[ply, DEPTH] - 1
    if i == 0:
        frames[ply, PHASE] = _FULL_WINDOW
        frames[ply + 1, ALPHA], frames[ply + 1, BETA] = -frames[ply, BETA], -frames[ply, ALPHA]
    else:
        frames[ply, PHASE] = _NULL_WINDOW
        lower = _lower_bound(ply, frames[ply, ALPHA], tree.options[ROOT_MARGIN])
        frames[ply + 1, ALPHA], frames[ply + 1, BETA] = -lower - 1, -lower
    return action


@njit(**BORROWING)
def _reducible(tree, ply):
    """Whether the current child of the node at ``ply`` is late enough to be
    reduced, if it explodes nothing (see :func:`_set_up_search_again`)."""
    frames, reductions = tree.frames, tree.options[REDUCTIONS]
    return (reductions > 0 and ply > 0 and frames[ply, INDEX] >= LATE_MOVE
            and frames[ply, DEPTH] >= REDUCIBLE_DEPTH)


@njit(**BORROWING)
def _reduce(tree, ply):
    """Search the current child of the node at ``ply`` shallower first."""
    frames = tree.frames
    frames[ply, PHASE] = _REDUCED
    frames[ply + 1, DEPTH] = frames[ply, DEPTH] - 1 - tree.options[REDUCTIONS]


@njit(**BORROWING)
def _take_back(frames, stats, options, ply, value):
    """The current child of the node at ``ply`` returned ``value``: what the
    loop does next with the node, and the value it passes on. (It takes three
    arrays of the tree rather than the tree: LLVM then inlines it.)"""
    if stats[ABORTED]:
        return _RETURN, value  # the value passes up unchanged: the driver ignores it
    score = -value
    phase = frames[ply, PHASE]
    if phase == _PASS:  # a null move cuts the node off if even it reaches beta
        if score >= frames[ply, BETA]:
            return _RETURN, score if score < MATE_BOUND else frames[ply, BETA]
        return _MOVES_AFTER_NULL, value
    lower = _lower_bound(ply, frames[ply, ALPHA], options[ROOT_MARGIN])
    if (phase == _REDUCED and score > lower) or (phase == _NULL_WINDOW and lower < score < frames[ply, BETA]):
        return _SEARCH_AGAIN, value
    action = frames[ply, ACTION]
    if ply == 0 and options[ROOT_MARGIN] > 0 and phase != _NULL_WINDOW:
        stats[ROOT_SCORES + action] = score
    if score > frames[ply, BEST]:
        frames[ply, BEST], frames[ply, BEST_MOVE] = score, action
        if ply == 0:
            stats[BEST_ACTION], stats[BEST_SCORE] = action, score
    if score > frames[ply, ALPHA]:
        frames[ply, ALPHA] = score
    frames[ply, INDEX] += 1
    cutoff = frames[ply, ALPHA] >= frames[ply, BETA]
    if not (cutoff or frames[ply, INDEX] == frames[ply, COUNT]):
        return _NEXT_CHILD, value
    if frames[ply, DEPTH] > 0:  # not a quiescence node, which leaves the tables and killers alone
        return _FINISHED, frames[ply, BEST]
    return _RETURN, frames[ply, BEST]


@njit(**BORROWING)
def _remember(tree, ply):
    """The node at ``ply`` is done: a move that cut it off becomes the ply's
    first killer and gains history; the transposition table keeps its result
    (unless it holds a deeper search of the same position)."""
    frames, killers, tt_keys, tt_data = tree.frames, tree.killers, tree.tt_keys, tree.tt_data
    action, depth = frames[ply, ACTION], frames[ply, DEPTH]
    if frames[ply, ALPHA] >= frames[ply, BETA]:
        if action != killers[ply, 0]:
            killers[ply, 1] = killers[ply, 0]
            killers[ply, 0] = action
        tree.history[action] += depth * depth
    key = tree.path_keys[tree.options[EARLIER_POSITIONS] + ply]
    slot = key & np.uint64(tt_keys.shape[0] - 1)
    if tt_keys[slot] != key or (tt_data[slot] >> _DEPTH_SHIFT) & 255 <= depth:
        tt_keys[slot] = key
        tt_data[slot] = _table_entry(frames[ply, BEST_MOVE], frames[ply, BEST], frames[ply, ORIGINAL_ALPHA],
                                     frames[ply, BETA], depth, ply)


@njit(cache=True)
def _enter_quiescence(params, s, moves, order, ply, frames, killers, history):
    """Set up a quiescence node (past the horizon, up to ``options[QUIESCENCE]``
    plies, each node free to stand pat on its evaluation): its children are
    the explosive actions (captures, detonations, jumps), best-ordered first.
    Such nodes leave the tables and killers alone. Returns whether any child
    is to be searched (if not, ``frames[ply, BEST]`` is the node's value)."""
    stand_pat = evaluate(s, params)
    frames[ply, BEST] = stand_pat
    if stand_pat >= frames[ply, BETA]:
        return False
    if stand_pat > frames[ply, ALPHA]:
        frames[ply, ALPHA] = stand_pat
    n = legal_actions(s, params, moves[ply])
    kept = 0
    for i in range(n):
        action = moves[ply, i]
        if is_explosive(s, params, action):
            moves[ply, kept] = action
            kept += 1
    if kept == 0:
        return False
    frames[ply, COUNT], frames[ply, INDEX] = kept, 0
    frames[ply, BEST_MOVE] = moves[ply, 0]
    frames[ply, ORIGINAL_ALPHA] = frames[ply, ALPHA]
    _order_moves(moves, order, ply, kept, -1, killers, history)
    return True


@njit(cache=True)
def _table_bound(entry, ply, depth, alpha, beta):
    """Whether the transposition table's ``entry`` for the node at ``ply``,
    to be searched to ``depth`` with the window ``alpha, beta``, settles its
    value (a bound from a search as deep or deeper, never at the root), and
    that value."""
    if ply == 0 or (entry >> _DEPTH_SHIFT) & 255 < depth:
        return False, 0
    bound = (entry >> _BOUND_SHIFT) & 3
    score = _score_from_table((entry >> _SCORE_SHIFT) - _SCORE_OFFSET, ply)
    return bound == EXACT or (bound == LOWER and score >= beta) or (bound == UPPER and score <= alpha), score


@njit(cache=True)
def _table_entry(best_move, best, original_alpha, beta, depth, ply):
    """The transposition table's entry for a finished node at ``ply``
    searched to ``depth``: its best move and score, and whether that score
    is exact or a bound (the window was ``original_alpha, beta``)."""
    if best <= original_alpha:
        bound = UPPER
    elif best >= beta:
        bound = LOWER
    else:
        bound = EXACT
    return _pack(best_move, bound, min(depth, 255), _score_to_table(best, ply))


@njit(cache=True)
def _tries_null_move(params, stack, ply, frames, null_move):
    """Whether the node at ``ply`` first tries the null move; if so, its child
    (the node with the other player to move) is set up at ``ply + 1``.

    With ``options[NULL_MOVE]`` = R > 0, a node below the root deeper than R
    whose evaluation already reaches beta first lets the other player move
    twice, searched R plies shallower with a null window: if even that fails
    to bring the score below beta, the node is cut off without searching a
    move (see :func:`_take_back`). Only for games without zugzwang,
    where moving never hurts: the other player's free move is then a bound
    on what any of its real moves could do.
    """
    beta = frames[ply, BETA]
    if not (ply > 0 and frames[ply - 1, PHASE] != _PASS and frames[ply, DEPTH] > null_move
            and -MATE_BOUND < beta < MATE_BOUND and evaluate(stack[ply], params) >= beta):
        return False
    frames[ply, PHASE], frames[ply, ACTION] = _PASS, -1
    stack[ply + 1, :] = stack[ply]
    stack[ply + 1, PLAYER] = 1 - stack[ply, PLAYER]
    frames[ply + 1, DEPTH] = frames[ply, DEPTH] - 1 - null_move
    frames[ply + 1, ALPHA], frames[ply + 1, BETA] = -beta, 1 - beta
    return True


@njit(cache=True)
def _generate(params, s, moves, order, ply, killers, history, frames):
    """Set up the node at ``ply`` (position ``s``) to search its moves, best-ordered first."""
    n = legal_actions(s, params, moves[ply])
    _order_moves(moves, order, ply, n, frames[ply, HASH_MOVE], killers, history)
    frames[ply, COUNT], frames[ply, INDEX] = n, 0
    frames[ply, BEST], frames[ply, BEST_MOVE] = -INFINITY, moves[ply, 0]
    frames[ply, ORIGINAL_ALPHA] = frames[ply, ALPHA]


@njit(**BORROWING)
def _set_up_search_again(frames, options, ply):
    """Set up the current child of the node at ``ply`` to be searched again
    (its score beat the score a move must beat: see :func:`_lower_bound`):
    a reduced move to the full depth, still with a null window; a null-window
    move with the full window. Returns its action: the loop plays it at
    ``ply + 1`` again.

    Late move reductions (``options[REDUCTIONS]`` > 0, as chess engines do):
    a late move that explodes nothing (see :data:`LATE_MOVE`) is first
    searched that many plies shallower with a null window, and to the full
    depth only if it then beats the best so far: a good move ordering puts
    the moves that matter first. Principal-variation search: every move but
    the first is first searched with a null window, and again with the full
    window only if it beats the best so far (or comes near it, at the root,
    with a root margin).
    """
    lower = _lower_bound(ply, frames[ply, ALPHA], options[ROOT_MARGIN])
    frames[ply + 1, DEPTH] = frames[ply, DEPTH] - 1
    if frames[ply, PHASE] == _REDUCED:
        frames[ply, PHASE] = _NULL_WINDOW
        frames[ply + 1, ALPHA], frames[ply + 1, BETA] = -lower - 1, -lower
    else:
        frames[ply, PHASE] = _RESEARCH
        frames[ply + 1, ALPHA], frames[ply + 1, BETA] = -frames[ply, BETA], -lower
    return frames[ply, ACTION]
