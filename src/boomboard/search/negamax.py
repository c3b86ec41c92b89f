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
from boomboard.kernel_interface import apply_action, encode, evaluate, is_explosive, legal_actions, position_key

MAX_PLY = 100

EXACT, LOWER, UPPER = 0, 1, 2

# stats slots shared with the driver
NODES, NODE_LIMIT, ABORTED, BEST_ACTION, BEST_SCORE = 0, 1, 2, 3, 4
STATS_SIZE = 5

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
# own format, boomboard.solver.retrograde): the value above the shift, the
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


# What the search loop does next with the node at ``ply``.
_ENTER, _NEXT_CHILD, _RETURN = 0, 1, 2
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


@njit(cache=True)
def search_depth(params, stack, moves, order, depth, path_keys, n_history, tt_keys, tt_data,
                 history, killers, stats, check_repetition, action_limit, quiescence, contempt, reductions,
                 null_move, clock_address, clock_id, timespec, deadline_ns, root_margin, root_scores, probe_spec,
                 probe_keys, probe_entries):
    """One iteration of iterative deepening from ``stack[0]`` to ``depth``; returns
    the root's score, and puts the best root action and its score in ``stats``.

    Negamax written as a loop over an explicit stack of frames, one per ply:
    numba's disk cache cannot hold recursive functions (numba issue #6061).
    Past the horizon, up to ``quiescence`` more plies follow only explosive
    actions (captures, detonations, jumps), each node free to stand pat on
    its evaluation; such nodes leave the tables and killers alone.
    A tie by history (a repetition, the action limit) scores ``-contempt``
    for the side to move at the root: with contempt, a side that can play on
    does, rather than repeat.
    With ``reductions`` > 0, a late move that explodes nothing (see
    :data:`LATE_MOVE`) is first searched that many plies shallower, with a
    null window; only if it then beats the best so far is it searched to
    the full depth (late move reductions, as chess engines do: a good move
    ordering puts the moves that matter first).
    With ``null_move`` = R > 0, a node below the root deeper than R whose
    evaluation already reaches beta first lets the other player move twice
    (the null move), searched R plies shallower with a null window: if even
    that fails to bring the score below beta, the node is cut off without
    searching a move. Only for games without zugzwang, where moving never
    hurts: the other player's free move is then a bound on what any of its
    real moves could do.
    With ``root_margin`` > 0, a root move is searched exactly (its score put
    in ``root_scores``) when it scores more than the best so far less the
    margin, not only more than the best: the near-equal moves an agent may
    choose between. The margin applies only while the best is no forced result.
    A node below the root held by the endgame tables (``probe_keys``, sorted,
    and ``probe_entries``; see :func:`_probe`) scores the tables' result,
    unless the game's action limit could come first.
    """
    for i in range(history.shape[0]):
        history[i] >>= 2  # older iterations count less
    frames = MAX_PLY + 1
    f_alpha = np.zeros(frames, np.int64)
    f_beta = np.zeros(frames, np.int64)
    f_original_alpha = np.zeros(frames, np.int64)
    f_depth = np.zeros(frames, np.int64)
    f_best = np.zeros(frames, np.int64)
    f_best_move = np.zeros(frames, np.int64)
    f_index = np.zeros(frames, np.int64)
    f_count = np.zeros(frames, np.int64)
    f_phase = np.zeros(frames, np.int64)
    f_action = np.zeros(frames, np.int64)
    f_key = np.zeros(frames, np.uint64)
    f_hash_move = np.zeros(frames, np.int64)

    ply = 0
    f_alpha[0], f_beta[0], f_depth[0] = -INFINITY, INFINITY, depth
    step = _ENTER
    value = 0
    while True:
        if step == _ENTER:
            step = _RETURN  # unless the node needs its children searched
            stats[NODES] += 1
            s = stack[ply]
            if stats[NODES] >= stats[NODE_LIMIT] or (
                    deadline_ns > 0 and stats[NODES] & 1023 == 0
                    and cpu_nanoseconds(clock_address, clock_id, timespec) >= deadline_ns):
                stats[ABORTED] = 1
                value = 0
                continue
            if s[STATUS] != 0:
                value = _terminal_score(s, ply)
                continue
            key = position_key(s, params)
            f_key[ply] = key
            here = n_history + ply
            path_keys[here] = key
            if ply > 0 and ((check_repetition and _repeats(path_keys, here, key))
                            or (action_limit > 0 and s[PLY] >= action_limit)):
                value = -contempt if ply % 2 == 0 else contempt
                continue
            if ply > 0 and probe_keys.shape[0] > 0:
                result = _probe(probe_spec, s, params, probe_keys, probe_entries)
                if result != NOT_IN_TABLES and (action_limit <= 0 or s[PLY] + abs(result) <= action_limit) \
                        and ply + abs(result) < WIN - MATE_BOUND:
                    value = _table_score(result, ply)
                    continue
            if ply >= MAX_PLY - 1 or f_depth[ply] <= -quiescence:
                value = evaluate(s, params)
                continue
            if f_depth[ply] <= 0:
                if _enter_quiescence(s, params, moves, ply, f_alpha, f_beta, f_best, f_best_move,
                                     f_count, f_index, f_original_alpha):
                    _order_moves(moves, order, ply, f_count[ply], -1, killers, history)
                    step = _NEXT_CHILD
                else:
                    value = f_best[ply]
                continue
            slot = key & np.uint64(tt_keys.shape[0] - 1)
            hash_move = -1
            if tt_keys[slot] == key:
                entry = tt_data[slot]
                hash_move = (entry & MOVE_BITS) - 1
                if ply > 0 and (entry >> _DEPTH_SHIFT) & 255 >= f_depth[ply]:
                    bound = (entry >> _BOUND_SHIFT) & 3
                    score = _score_from_table((entry >> _SCORE_SHIFT) - _SCORE_OFFSET, ply)
                    if (bound == EXACT or (bound == LOWER and score >= f_beta[ply])
                            or (bound == UPPER and score <= f_alpha[ply])):
                        value = score
                        continue
            f_original_alpha[ply] = f_alpha[ply]
            if (null_move > 0 and ply > 0 and f_phase[ply - 1] != _PASS and f_depth[ply] > null_move
                    and -MATE_BOUND < f_beta[ply] < MATE_BOUND and evaluate(s, params) >= f_beta[ply]):
                f_hash_move[ply], f_phase[ply], f_action[ply] = hash_move, _PASS, -1
                stack[ply + 1, :] = s
                stack[ply + 1, PLAYER] = 1 - s[PLAYER]
                f_depth[ply + 1] = f_depth[ply] - 1 - null_move
                f_alpha[ply + 1], f_beta[ply + 1] = -f_beta[ply], 1 - f_beta[ply]
                ply += 1
                step = _ENTER
                continue
            _generate(s, params, moves, order, ply, hash_move, killers, history, f_count, f_index, f_best,
                      f_best_move)
            step = _NEXT_CHILD

        elif step == _NEXT_CHILD:
            i = f_index[ply]
            action = _pick_next(moves, order, ply, i, f_count[ply])
            f_action[ply] = action
            stack[ply + 1, :] = stack[ply]
            apply_action(stack[ply + 1], params, action)
            f_depth[ply + 1] = f_depth[ply] - 1
            if i == 0:
                f_phase[ply] = _FULL_WINDOW
                f_alpha[ply + 1], f_beta[ply + 1] = -f_beta[ply], -f_alpha[ply]
            else:
                f_phase[ply] = _NULL_WINDOW
                lower = _lower_bound(ply, f_alpha[ply], root_margin)
                f_alpha[ply + 1], f_beta[ply + 1] = -lower - 1, -lower
                if (reductions > 0 and ply > 0 and i >= LATE_MOVE and f_depth[ply] >= REDUCIBLE_DEPTH
                        and not is_explosive(stack[ply], params, action)):
                    f_phase[ply] = _REDUCED
                    f_depth[ply + 1] = f_depth[ply] - 1 - reductions
            ply += 1
            step = _ENTER

        else:  # _RETURN: the node at ply is done with ``value``
            if ply == 0:
                return value
            ply -= 1
            if stats[ABORTED]:
                continue
            score = -value
            if f_phase[ply] == _PASS:
                if score >= f_beta[ply]:  # a free move for the other player does not help it: cut off
                    value = score if score < MATE_BOUND else f_beta[ply]
                else:
                    _generate(stack[ply], params, moves, order, ply, f_hash_move[ply], killers, history, f_count,
                              f_index, f_best, f_best_move)
                    step = _NEXT_CHILD
                continue
            alpha, beta = f_alpha[ply], f_beta[ply]
            action = f_action[ply]
            lower = _lower_bound(ply, alpha, root_margin)
            if f_phase[ply] == _REDUCED and score > lower:
                # The shallower search says it may beat the best so far: search it to the full depth.
                f_phase[ply] = _NULL_WINDOW
                stack[ply + 1, :] = stack[ply]
                apply_action(stack[ply + 1], params, action)
                f_depth[ply + 1] = f_depth[ply] - 1
                f_alpha[ply + 1], f_beta[ply + 1] = -lower - 1, -lower
                ply += 1
                step = _ENTER
                continue
            if f_phase[ply] == _NULL_WINDOW and lower < score < beta:
                # Better than the first move after all (or near it, at the root): search it again, fully.
                f_phase[ply] = _RESEARCH
                stack[ply + 1, :] = stack[ply]
                apply_action(stack[ply + 1], params, action)
                f_depth[ply + 1] = f_depth[ply] - 1
                f_alpha[ply + 1], f_beta[ply + 1] = -beta, -lower
                ply += 1
                step = _ENTER
                continue
            if ply == 0 and root_margin > 0 and f_phase[0] != _NULL_WINDOW:
                root_scores[action] = score
            if score > f_best[ply]:
                f_best[ply], f_best_move[ply] = score, action
                if ply == 0:
                    stats[BEST_ACTION], stats[BEST_SCORE] = action, score
            if score > alpha:
                alpha = f_alpha[ply] = score
            f_index[ply] += 1
            cutoff = alpha >= beta
            if f_depth[ply] <= 0:  # a quiescence node: no tables, no killers
                if cutoff or f_index[ply] == f_count[ply]:
                    value = f_best[ply]
                else:
                    step = _NEXT_CHILD
                continue
            if cutoff:
                if action != killers[ply, 0]:
                    killers[ply, 1] = killers[ply, 0]
                    killers[ply, 0] = action
                history[action] += f_depth[ply] * f_depth[ply]
            if cutoff or f_index[ply] == f_count[ply]:
                best = f_best[ply]
                if best <= f_original_alpha[ply]:
                    bound = UPPER
                elif best >= beta:
                    bound = LOWER
                else:
                    bound = EXACT
                key = f_key[ply]
                slot = key & np.uint64(tt_keys.shape[0] - 1)
                if tt_keys[slot] != key or (tt_data[slot] >> _DEPTH_SHIFT) & 255 <= f_depth[ply]:
                    tt_keys[slot] = key
                    tt_data[slot] = _pack(f_best_move[ply], bound, min(f_depth[ply], 255),
                                          _score_to_table(best, ply))
                value = best
                # step stays _RETURN: the parent takes ``value`` next
            else:
                step = _NEXT_CHILD


@njit(cache=True)
def _generate(s, params, moves, order, ply, hash_move, killers, history, f_count, f_index, f_best, f_best_move):
    """Set up the node at ``ply`` to search its moves, best-ordered first."""
    n = legal_actions(s, params, moves[ply])
    _order_moves(moves, order, ply, n, hash_move, killers, history)
    f_count[ply], f_index[ply] = n, 0
    f_best[ply], f_best_move[ply] = -INFINITY, moves[ply, 0]


@njit(cache=True)
def _enter_quiescence(s, params, moves, ply, f_alpha, f_beta, f_best, f_best_move, f_count, f_index,
                      f_original_alpha):
    """Set up a quiescence node: its stand-pat score is the evaluation, and its
    children are the explosive actions. Returns whether any are to be searched
    (if not, ``f_best[ply]`` is the node's value)."""
    stand_pat = evaluate(s, params)
    f_best[ply] = stand_pat
    if stand_pat >= f_beta[ply]:
        return False
    if stand_pat > f_alpha[ply]:
        f_alpha[ply] = stand_pat
    n = legal_actions(s, params, moves[ply])
    kept = 0
    for i in range(n):
        action = moves[ply, i]
        if is_explosive(s, params, action):
            moves[ply, kept] = action
            kept += 1
    if kept == 0:
        return False
    f_count[ply], f_index[ply] = kept, 0
    f_best_move[ply] = moves[ply, 0]
    f_original_alpha[ply] = f_alpha[ply]
    return True
