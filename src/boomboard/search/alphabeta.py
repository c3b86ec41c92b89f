"""Alpha-beta search, compiled per game, driven by iterative deepening.

The compiled negamax (:mod:`boomboard.search.negamax`: principal-variation
search with a transposition table, killer moves, history, quiescence and
contempt) runs one iteration at a time; this module deepens it from Python,
keeps to a depth, node or CPU-time budget, and reads the expected line back.

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

from ..core.layout import STATUS
from ..core.state import State
from ..core.threads import one_thread_at_a_time
from .clock import CLOCK_ADDRESS, CLOCK_ID, cpu_nanoseconds, new_timespec
from .interruptible import run_interruptibly
from .negamax import (ABORTED, ACTION_LIMIT, BEST_ACTION, BEST_SCORE, CHECK_REPETITION, CLOCK_FUNCTION, CLOCK_KIND,
                      CONTEMPT, DEADLINE_NS, EARLIER_POSITIONS, ITERATION_DEPTH, MAX_PLY, MOVE_BITS, NODE_LIMIT, NODES,
                      NULL_MOVE, OPTIONS_SIZE, QUIESCENCE, REDUCTIONS, ROOT_MARGIN, ROOT_SCORES)
from .scores import INFINITY, MATE_BOUND, WIN


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


# A root margin wider than any score: every root move is searched with a
# full window, so its score is exact (see AlphaBeta.score_moves).
EXACT_MARGIN = 2 * WIN
MAX_SECONDS = 3.0e9  # about a century: longer budgets are clamped to it
MAX_NODES = 2**62  # within the int64 node counter


class AlphaBeta:
    """An alpha-beta searcher for one game; keeps its tables between moves,
    so it is for one thread at a time (:meth:`search` from a second thread
    meanwhile raises :class:`~boomboard.core.threads.ConcurrentUseError`).

    >>> import boomboard
    >>> game = boomboard.load_game("kaboom")
    >>> result = AlphaBeta(game).search(game.new_initial_state(), depth=4)
    >>> result.action in game.new_initial_state().legal_actions()
    True
    """

    def __init__(self, game, table_bits: int = 20, quiescence: int = 0, contempt: int = 0, reductions: int = 0,
                 null_move: int = 0, neutral: bool = False):
        self.game = game
        # True: judge both players alike, as an analysis must; a game whose
        # evaluation favours the player searched for (``params_root_slot``)
        # then evaluates as outside a search.
        self.neutral = neutral
        self.quiescence = quiescence  # plies of explosive actions searched past the horizon
        self.contempt = contempt  # what a tie by history costs the side to move at the root
        self.reductions = reductions  # plies a late quiet move is searched shallower first (0: none)
        self.null_move = null_move  # plies a null move's search is shallower (0: no null moves)
        self.kernels = game.compiled("boomboard.search.negamax")
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
        self.stats = np.zeros(ROOT_SCORES + actions, np.int64)
        self.root_scores = self.stats[ROOT_SCORES:]  # each root action's score, with a margin
        self.check_repetition = game.repetition_limit > 0
        self.root_player = -1  # whom the tables were filled for, in a game whose evaluation asks
        self.use_endgames(None)
        self.nodes_per_second = 300_000.0  # refined by every search

    def use_endgames(self, arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None) -> None:
        """Probe endgame tables inside the search: ``(spec, keys, entries)`` as
        :meth:`boomboard.solver.endgames.EndgameTables.probe_arrays` gives
        them (the codec spec, the sorted hashed keys, each position's packed
        result: see :func:`boomboard.search.negamax._probe`), or ``None`` for
        none. Forgets what earlier searches learnt."""
        if arrays is None:
            arrays = (np.zeros(1, np.int64), np.zeros(0, np.uint64), np.zeros(0, np.uint16))
        spec, keys, entries = arrays
        self.endgames = (np.asarray(spec, np.int64), np.asarray(keys, np.uint64), np.asarray(entries, np.uint16))
        self.clear()

    def clear(self) -> None:
        """Forget what earlier searches learnt (a new game)."""
        self.tt_keys[:] = 0
        self.history[:] = 0
        self.killers[:] = -1

    @one_thread_at_a_time
    def search(self, state: State, depth: int | None = None, seconds: float | None = None,
               nodes: int | None = None, on_iteration=None, margin: int = 0) -> SearchResult:
        """Search ``state`` to ``depth`` plies, or for ``seconds`` of CPU time, or
        ``nodes`` nodes (whichever comes first; with none given, depth 4).
        ``on_iteration(result)`` is called after every finished iteration;
        a true answer stops the search there (a time manager's soft limit).
        With ``margin`` > 0, ``result.near_best`` lists every root move scored
        within ``margin`` of the best (never when the best is a forced result)."""
        if state.is_terminal():
            raise ValueError("the game is over; there is nothing to search")
        if depth is None and seconds is None and nodes is None:
            depth = 4
        # Clamp budgets to what the clocks and int64 counters hold: a budget of
        # inf, 1e308 (or NaN) seconds is as good as a century's.
        if seconds is not None and not seconds < MAX_SECONDS:
            seconds = MAX_SECONDS
        if nodes is not None:
            nodes = min(int(nodes), MAX_NODES)
        max_depth = min(depth or MAX_PLY - 2, MAX_PLY - 2)
        legal = state.legal_actions()
        path_keys = np.zeros(state._n_keys + MAX_PLY + 2, np.uint64)
        n_history = 0
        if state._keys is not None and state._n_keys > 1:
            n_history = state._n_keys - 1  # the current position is the search's ply 0
            path_keys[:n_history] = state._keys[:n_history]
        self.stack[0] = state.array
        self.killers[:] = -1
        params = self._params_for(state.current_player())
        started = time.process_time()
        deadline = None if seconds is None else started + seconds
        total_nodes = 0
        result = SearchResult(legal[0], 0, 0, 0, 0.0)
        deadline_ns = 0
        if deadline is not None and CLOCK_ADDRESS:
            deadline_ns = cpu_nanoseconds(CLOCK_ADDRESS, CLOCK_ID, new_timespec()) + int(seconds * 1e9)
        options = self._options(n_history, margin)
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
            options[ITERATION_DEPTH] = iteration
            options[DEADLINE_NS] = deadline_ns if iteration > 1 else 0
            score = run_interruptibly(self.kernels.search_depth, self.stats, NODE_LIMIT,
                                      (params, self.stack, self.moves, self.order, path_keys, (self.tt_keys, self.tt_data),
                                       (self.history, self.killers), self.stats, options, self.endgames))
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
            if on_iteration is not None and on_iteration(result):
                break  # the caller's time manager stops here (a soft time limit)
            if abs(result.score) > MATE_BOUND and WIN - abs(result.score) <= iteration:
                break  # a forced result within the horizon: deeper search cannot change it
        result.nodes, result.seconds = total_nodes, time.process_time() - started
        return result

    def _options(self, earlier_positions: int, margin: int) -> np.ndarray:
        """The compiled search's settings for one search (the slots are
        described in :mod:`boomboard.search.negamax`); the driver sets the
        iteration's depth and deadline before each iteration."""
        options = np.zeros(OPTIONS_SIZE, np.int64)
        options[EARLIER_POSITIONS] = earlier_positions
        options[CHECK_REPETITION] = self.check_repetition
        options[ACTION_LIMIT] = self.game.action_limit
        options[QUIESCENCE] = self.quiescence
        options[CONTEMPT] = self.contempt
        options[REDUCTIONS] = self.reductions
        options[NULL_MOVE] = self.null_move
        options[ROOT_MARGIN] = margin
        options[CLOCK_FUNCTION], options[CLOCK_KIND] = CLOCK_ADDRESS, CLOCK_ID
        return options

    def _params_for(self, player: int) -> np.ndarray:
        """The params this search evaluates with: in a game with a
        ``params_root_slot``, a copy naming ``player`` as the one searching
        (its evaluation then favours that player), unless the search is
        :attr:`neutral`; else :attr:`params` itself."""
        slot = self.game.params_root_slot
        if slot is None or self.neutral:
            return self.params
        if player != self.root_player:
            self.clear()  # scores stored for the other player's search are not this one's
            self.root_player = player
        params = self.params.copy()
        params[slot] = player
        return params

    def score_moves(self, state: State, moves, depth: int | None = None, seconds: float | None = None,
                    nodes: int | None = None) -> tuple[SearchResult | None, np.ndarray | None]:
        """Search ``state`` (within :meth:`search`'s budgets) scoring every root
        move exactly (:data:`EXACT_MARGIN`), and return the last *finished*
        iteration's result and the scores it gave ``moves`` (for the player to
        move): an unfinished iteration has scored only some of them. While the
        best is no forced win, every score is exact to that depth, a forced
        result among them proven; past a forced win, the rest are bounds.
        ``(None, None)`` if no iteration finished."""
        finished: list = [None, None]

        def keep(result: SearchResult) -> None:
            finished[:] = result, self.root_scores[moves].copy()

        self.search(state, depth=depth, seconds=seconds, nodes=nodes, on_iteration=keep, margin=EXACT_MARGIN)
        return finished[0], finished[1]

    def _near_best(self, result: SearchResult, margin: int) -> list[int]:
        """The best move, then the other root moves the last iteration scored
        within ``margin`` of it (exactly: see :func:`boomboard.search.negamax.search_depth`)."""
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
            key = self.game.kernels.position_key(s, self.params)
            slot = int(key & mask)
            if self.tt_keys[slot] != key:
                break
            move = int(self.tt_data[slot] & MOVE_BITS) - 1
            n = self.game.kernels.legal_actions(s, self.params, buffer)
            if move < 0 or move not in buffer[:n]:
                break
            line.append(move)
            self.game.kernels.apply_action(s, self.params, move)
        return line
