"""Alpha-beta search, compiled, for every game.

Negamax with alpha-beta pruning and principal-variation (null-window)
search, driven by iterative deepening from Python. A transposition table
keyed by the games' 64-bit position keys (the Zobrist idea: an XOR or sum of
per-cell random numbers) stores bounds and best moves; moves are tried hash
move first, then the two killer moves of the ply, then by the history
heuristic. Wins are scored ``WIN - ply`` and losses ``ply - WIN``, so the
search plays the fastest win and the slowest loss.

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

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..core.layout import PLAYER, PLY, STATUS, STATUS_TIE
from ..core.state import State
from . import kernels
from .clock import CLOCK_ADDRESS, CLOCK_ID, cpu_nanoseconds, new_timespec
from .kernels import apply_action, evaluate, is_explosive, legal_actions, position_key

WIN = 1_000_000
INFINITY = 2_000_000
MAX_PLY = 100
MATE_BOUND = WIN - 1000  # scores beyond this are forced wins or losses

EXACT, LOWER, UPPER = 0, 1, 2

# stats slots shared with the driver
NODES, NODE_LIMIT, ABORTED, BEST_ACTION, BEST_SCORE = 0, 1, 2, 3, 4
STATS_SIZE = 5

# The TT packs one entry in an int64: move + 1 (24 bits), bound (2), depth (8),
# score + SCORE_OFFSET (24).
_SCORE_OFFSET = 1 << 23
_MOVE_BITS, _BOUND_SHIFT, _DEPTH_SHIFT, _SCORE_SHIFT = (1 << 24) - 1, 24, 26, 34


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


# What the search loop does next with the node at ``ply``.
_ENTER, _NEXT_CHILD, _RETURN = 0, 1, 2
# How the current child of a node is being searched.
_FULL_WINDOW, _NULL_WINDOW, _RESEARCH = 0, 1, 2


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
def search_depth(rules, params, stack, moves, order, depth, path_keys, n_history, tt_keys, tt_data,
                 history, killers, stats, check_repetition, action_limit, quiescence, contempt, clock_address,
                 clock_id, timespec, deadline_ns, root_margin, root_scores):
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
    With ``root_margin`` > 0, a root move is searched exactly (its score put
    in ``root_scores``) when it scores more than the best so far less the
    margin, not only more than the best: the near-equal moves an agent may
    choose between. The margin applies only while the best is no forced result.
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
            key = position_key(rules, s, params)
            f_key[ply] = key
            here = n_history + ply
            path_keys[here] = key
            if ply > 0 and ((check_repetition and _repeats(path_keys, here, key))
                            or (action_limit > 0 and s[PLY] >= action_limit)):
                value = -contempt if ply % 2 == 0 else contempt
                continue
            if ply >= MAX_PLY - 1 or f_depth[ply] <= -quiescence:
                value = evaluate(rules, s, params)
                continue
            if f_depth[ply] <= 0:
                if _enter_quiescence(rules, s, params, moves, ply, f_alpha, f_beta, f_best, f_best_move,
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
                hash_move = (entry & _MOVE_BITS) - 1
                if ply > 0 and (entry >> _DEPTH_SHIFT) & 255 >= f_depth[ply]:
                    bound = (entry >> _BOUND_SHIFT) & 3
                    score = _score_from_table((entry >> _SCORE_SHIFT) - _SCORE_OFFSET, ply)
                    if (bound == EXACT or (bound == LOWER and score >= f_beta[ply])
                            or (bound == UPPER and score <= f_alpha[ply])):
                        value = score
                        continue
            n = legal_actions(rules, s, params, moves[ply])
            _order_moves(moves, order, ply, n, hash_move, killers, history)
            f_count[ply], f_index[ply] = n, 0
            f_best[ply], f_best_move[ply] = -INFINITY, moves[ply, 0]
            f_original_alpha[ply] = f_alpha[ply]
            step = _NEXT_CHILD

        elif step == _NEXT_CHILD:
            i = f_index[ply]
            action = _pick_next(moves, order, ply, i, f_count[ply])
            f_action[ply] = action
            stack[ply + 1, :] = stack[ply]
            apply_action(rules, stack[ply + 1], params, action)
            f_depth[ply + 1] = f_depth[ply] - 1
            if i == 0:
                f_phase[ply] = _FULL_WINDOW
                f_alpha[ply + 1], f_beta[ply + 1] = -f_beta[ply], -f_alpha[ply]
            else:
                f_phase[ply] = _NULL_WINDOW
                lower = _lower_bound(ply, f_alpha[ply], root_margin)
                f_alpha[ply + 1], f_beta[ply + 1] = -lower - 1, -lower
            ply += 1
            step = _ENTER

        else:  # _RETURN: the node at ply is done with ``value``
            if ply == 0:
                return value
            ply -= 1
            if stats[ABORTED]:
                continue
            score = -value
            alpha, beta = f_alpha[ply], f_beta[ply]
            action = f_action[ply]
            lower = _lower_bound(ply, alpha, root_margin)
            if f_phase[ply] == _NULL_WINDOW and lower < score < beta:
                # Better than the first move after all (or near it, at the root): search it again, fully.
                f_phase[ply] = _RESEARCH
                stack[ply + 1, :] = stack[ply]
                apply_action(rules, stack[ply + 1], params, action)
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
def _enter_quiescence(rules, s, params, moves, ply, f_alpha, f_beta, f_best, f_best_move, f_count, f_index,
                      f_original_alpha):
    """Set up a quiescence node: its stand-pat score is the evaluation, and its
    children are the explosive actions. Returns whether any are to be searched
    (if not, ``f_best[ply]`` is the node's value)."""
    stand_pat = evaluate(rules, s, params)
    f_best[ply] = stand_pat
    if stand_pat >= f_beta[ply]:
        return False
    if stand_pat > f_alpha[ply]:
        f_alpha[ply] = stand_pat
    n = legal_actions(rules, s, params, moves[ply])
    kept = 0
    for i in range(n):
        action = moves[ply, i]
        if is_explosive(rules, s, params, action):
            moves[ply, kept] = action
            kept += 1
    if kept == 0:
        return False
    f_count[ply], f_index[ply] = kept, 0
    f_best_move[ply] = moves[ply, 0]
    f_original_alpha[ply] = f_alpha[ply]
    return True


@dataclass
class SearchResult:
    """What a search found: the action to play and what it thinks of it."""

    action: int
    score: int  # for the player to move; beyond +-MATE_BOUND a forced result
    depth: int  # the deepest iteration that finished or improved the move
    nodes: int
    seconds: float  # CPU seconds
    principal_variation: list[int] = field(default_factory=list)
    # With a margin: the root moves scored within it of the best (the best
    # first), all searched to ``depth``; otherwise just the best.
    near_best: list[int] = field(default_factory=list)

    @property
    def forced_result(self) -> int | None:
        """Plies to a forced win (positive) or loss (negative), if the search proved one."""
        if self.score > MATE_BOUND:
            return WIN - self.score
        if self.score < -MATE_BOUND:
            return -(WIN + self.score)
        return None

    def describe_score(self) -> str:
        forced = self.forced_result
        if forced is None:
            return f"{self.score / 100:+.2f}"
        return f"win in {forced}" if forced > 0 else f"loss in {-forced}"


class AlphaBeta:
    """An alpha-beta searcher for one game; keeps its tables between moves.

    >>> import boomboard
    >>> game = boomboard.load_game("kaboom")
    >>> result = AlphaBeta(game).search(game.new_initial_state(), depth=4)
    >>> result.action in game.new_initial_state().legal_actions()
    True
    """

    def __init__(self, game, table_bits: int = 20, quiescence: int = 0, contempt: int = 0):
        self.game = game
        self.quiescence = quiescence  # plies of explosive actions searched past the horizon
        self.contempt = contempt  # what a tie by history costs the side to move at the root
        self.rules = kernels.rules_id(game)
        self.params = game.params_array
        size = game.new_initial_state().array.size
        actions = game.num_distinct_actions()
        self.stack = np.zeros((MAX_PLY + 1, size), np.int32)
        self.moves = np.zeros((MAX_PLY, actions), np.int32)
        self.order = np.zeros((MAX_PLY, actions), np.int64)
        self.tt_keys = np.zeros(1 << table_bits, np.uint64)
        self.tt_data = np.zeros(1 << table_bits, np.int64)
        self.history = np.zeros(actions, np.int64)
        self.killers = np.full((MAX_PLY, 2), -1, np.int32)
        self.stats = np.zeros(STATS_SIZE, np.int64)
        self.root_scores = np.zeros(actions, np.int64)
        self.check_repetition = game.repetition_limit > 0
        self.nodes_per_second = 300_000.0  # refined by every search

    def clear(self) -> None:
        """Forget what earlier searches learnt (a new game)."""
        self.tt_keys[:] = 0
        self.history[:] = 0
        self.killers[:] = -1

    def search(self, state: State, depth: int | None = None, seconds: float | None = None,
               nodes: int | None = None, on_iteration=None, margin: int = 0) -> SearchResult:
        """Search ``state`` to ``depth`` plies, or for ``seconds`` of CPU time, or
        ``nodes`` nodes (whichever comes first; with none given, depth 4).
        ``on_iteration(result)`` is called after every finished iteration.
        With ``margin`` > 0, ``result.near_best`` lists every root move scored
        within ``margin`` of the best (never when the best is a forced result)."""
        if state.is_terminal():
            raise ValueError("the game is over; there is nothing to search")
        if depth is None and seconds is None and nodes is None:
            depth = 4
        max_depth = min(depth or MAX_PLY - 2, MAX_PLY - 2)
        legal = state.legal_actions()
        path_keys = np.zeros(state._n_keys + MAX_PLY + 2, np.uint64)
        n_history = 0
        if state._keys is not None and state._n_keys > 1:
            n_history = state._n_keys - 1  # the current position is the search's ply 0
            path_keys[:n_history] = state._keys[:n_history]
        self.stack[0] = state.array
        self.killers[:] = -1
        action_limit = self.game.action_limit
        started = time.process_time()
        deadline = None if seconds is None else started + seconds
        total_nodes = 0
        result = SearchResult(legal[0], 0, 0, 0, 0.0)
        timespec = new_timespec()
        deadline_ns = 0
        if deadline is not None and CLOCK_ADDRESS:
            deadline_ns = cpu_nanoseconds(CLOCK_ADDRESS, CLOCK_ID, timespec) + int(seconds * 1e9)
        for iteration in range(1, max_depth + 1):
            limit = np.iinfo(np.int64).max if nodes is None else nodes - total_nodes
            if deadline is not None and iteration > 1:  # depth 1 always finishes: a move at all
                left = deadline - time.process_time()
                if left <= 0:
                    break
                if not deadline_ns:  # no clock in compiled code: estimate from the speed so far
                    limit = min(limit, max(1, int(0.9 * left * self.nodes_per_second)))
            if limit <= 0:
                break
            self.stats[:] = 0
            self.stats[NODE_LIMIT] = limit
            self.stats[BEST_ACTION] = -1
            self.root_scores[:] = -INFINITY
            began = time.process_time()
            score = search_depth(self.rules, self.params, self.stack, self.moves, self.order, iteration,
                                 path_keys, n_history, self.tt_keys, self.tt_data, self.history, self.killers,
                                 self.stats, self.check_repetition, action_limit, self.quiescence,
                                 self.contempt, CLOCK_ADDRESS, CLOCK_ID, timespec,
                                 deadline_ns if iteration > 1 else 0, margin, self.root_scores)
            spent = time.process_time() - began
            searched = int(self.stats[NODES])
            total_nodes += searched
            if searched >= 5000 and spent > 0.002:  # big enough to measure, small enough not to be compiling
                self.nodes_per_second = searched / spent
            aborted = bool(self.stats[ABORTED])
            if aborted:
                # The previous best was searched first, so a different best
                # move of the unfinished iteration beat it at the new depth.
                best = int(self.stats[BEST_ACTION])
                if best >= 0 and best != result.action:
                    result.action, result.score, result.depth = best, int(self.stats[BEST_SCORE]), iteration
                    result.near_best = self._near_best(result, margin)
                break
            result.action, result.score, result.depth = int(self.stats[BEST_ACTION]), int(score), iteration
            result.near_best = self._near_best(result, margin)
            result.nodes, result.seconds = total_nodes, time.process_time() - started
            result.principal_variation = self.principal_variation(state, iteration)
            if on_iteration is not None:
                on_iteration(result)
            if abs(result.score) > MATE_BOUND and WIN - abs(result.score) <= iteration:
                break  # a forced result within the horizon: deeper search cannot change it
        result.nodes, result.seconds = total_nodes, time.process_time() - started
        return result

    def _near_best(self, result: SearchResult, margin: int) -> list[int]:
        """The best move, then the other root moves the last iteration scored
        within ``margin`` of it (exactly: see :func:`search_depth`)."""
        if margin <= 0 or abs(result.score) > MATE_BOUND:
            return [result.action]
        near = np.flatnonzero((self.root_scores >= result.score - margin) & (self.root_scores >= -MATE_BOUND))
        return [result.action, *(int(a) for a in near if a != result.action)]

    def principal_variation(self, state: State, length: int) -> list[int]:
        """The expected line, read from the transposition table."""
        line: list[int] = []
        s = state.array.copy()
        mask = np.uint64(self.tt_keys.shape[0] - 1)
        buffer = np.zeros(self.game.num_distinct_actions(), np.int32)
        for _ in range(length):
            if s[STATUS]:
                break
            key = position_key(self.rules, s, self.params)
            slot = int(key & mask)
            if self.tt_keys[slot] != key:
                break
            move = int(self.tt_data[slot] & _MOVE_BITS) - 1
            n = legal_actions(self.rules, s, self.params, buffer)
            if move < 0 or move not in buffer[:n]:
                break
            line.append(move)
            apply_action(self.rules, s, self.params, move)
        return line
