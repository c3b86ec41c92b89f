"""Proof by search: the exact value of one position, where no table reaches.

:class:`Prover` drives the compiled search of :mod:`boomboard.search.proof_search`
the way Pascal Pons' Connect-4 solver does: every search has a null window,
and a bisection over the score moves it (fast wins and losses tested
first, whose searches stay near the root), all in one compiled call per
proof (``prove_score``), on arrays allocated once per prover. The searches
settle the value (win, tie or loss for the player to move) and, with
``exact`` (the default), how many plies the game lasts with perfect play
(the winner winning as soon as it can, the loser holding out as long as it
can: the remoteness of the solver's tables). All of them share one
transposition table, so each starts from what the previous ones learnt.
Moves are searched in the order the game's optional *proof ordering*
kernels give (Kaboom's threats, and one table entry for a position and its
mirror image), or else by the game's evaluation (:func:`proof_kernels`).
Where the game has a *proof engine* (optional items of the game contract:
Kaboom's bitboards, on every board that fits them), the search plays its
moves on that engine's compact positions instead of state arrays
(:func:`search_engine`); the proofs are the same, found faster.

It needs no table and no codec, so it works for positions of boards far
beyond the solver's (Connect-4 on 7x6, Kaboom with bombs), but it proves
one position at a time, and the cost grows fast with the plies left. A node
or CPU-time budget bounds it; at the budget it raises
:class:`NotProvedError` instead of guessing.

>>> import boomboard
>>> game = boomboard.load_game("kaboom", rows=4, cols=4, bombs=0)
>>> proof = Prover(game, table_bits=16).prove(game.new_initial_state())
>>> proof.value, proof.plies
('tie', None)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from ..core.errors import BoomboardError, GameOverError
from ..core.layout import PLAYER, PLY, STATUS, STATUS_TIE
from ..core.state import State
from ..core.threads import one_thread_at_a_time
from ..jit import announce_if_cold, specialize, template_kernels
from .clock import CLOCK_ADDRESS, CLOCK_ID, new_timespec
from .interruptible import run_interruptibly
from .proof_search import (ABORTED, CLOCK_FUNCTION, CLOCK_KIND, DEADLINE_NS, FRAME_COLUMNS, NODE_LIMIT, NODES,
                           PROVED_HIGH, PROVED_LOW, STATS_SIZE, WIN)
from .tree import ProofTree

# Bounds on what one proof may be given (the command line and the web name them).
MAX_TABLE_BITS = 26  # 2**26 entries of 16 bytes: 1 GiB
MAX_NODES = 2**62  # within the int64 node counter
MAX_SECONDS = 3.0e9  # about a century: longer budgets are clamped to it
# A proof from the main thread first runs there for up to this many nodes or this much CPU time,
# whichever comes first (Ctrl-C waits that long at most): most proofs end within it, and starting
# the helper thread that lets Ctrl-C stop a search at once (run_interruptibly) costs more than a
# short proof's search. The nodes alone were not enough: 100,000 are 50 ms on Kaboom's bitboards,
# but 1.2 s on Chain Reaction's state arrays and 10 s on 16x16 Jump61's, all deaf to Ctrl-C.
MAIN_THREAD_NODES = 100_000
MAIN_THREAD_SECONDS = 0.1
# The kernel template of the search, and the one that orders moves for a game
# without the proof ordering items of its own (by its evaluation).
PROOF_SEARCH = "boomboard.search.proof_search"
EVALUATION_ORDER = "boomboard.search.proof_order"


class NotProvedError(BoomboardError):
    """The budget ran out before the search proved the value; ``nodes`` and
    ``seconds`` say what it spent, ``proved`` what its searches did prove of
    the value, in words (:func:`proved_so_far`; empty where nothing)."""

    def __init__(self, message: str, nodes: int, seconds: float, proved: str = ""):
        super().__init__(message)
        self.nodes = nodes
        self.seconds = seconds
        self.proved = proved


@dataclass(frozen=True)
class Proof:
    """A proved value for the player to move: ``"win"``, ``"lose"`` or
    ``"tie"``; ``plies`` to the end with perfect play for a win or a loss
    (``None`` for a tie, and when only the value was asked for); the legal
    actions that keep that value (``best_moves``, in action order; empty
    when not asked for), and what the proof cost."""

    value: str
    plies: int | None
    nodes: int
    seconds: float  # CPU seconds
    best_moves: list[int] = field(default_factory=list)


class Prover:
    """Proves positions of one game by search; keeps its transposition table
    between proofs (positions of one game share much), so it is for one
    thread at a time.

    ``table_bits``: the transposition table has ``2**table_bits`` entries of
    16 bytes (default 22: 64 MiB). ``own_engine``: search the positions of
    the game's proof engine where it has one for these parameters (the
    default); ``False`` searches state arrays all the same, to compare the two."""

    def __init__(self, game, table_bits: int = 22, own_engine: bool = True):
        if game.tracks_history:
            raise BoomboardError(f"{game} has history rules (repetitions or an action limit): a position's value "
                                 "depends on how it was reached, which this search does not follow")
        if not 1 <= table_bits <= MAX_TABLE_BITS:
            raise BoomboardError(f"the transposition table takes 1 to {MAX_TABLE_BITS} bits, got {table_bits}")
        self.game = game
        self.longest = game.max_game_length()
        if self.longest >= WIN // 2:
            raise BoomboardError(f"{game} may last {self.longest} plies, more than the search counts")
        plies = self.longest + 3  # the root's parent, the root, and every ply to the end
        self.engine = search_engine(game, own_engine)
        self.params = self.engine.params
        self.stack = np.zeros((plies, self.engine.position.size), self.engine.position.dtype)
        self.root_row = self.stack[0]
        self.moves = np.zeros((plies, game.max_legal_actions()), np.int32)
        # A slot's key and entry side by side, so that a look-up reads one cache line, not two.
        slots = np.zeros((1 << table_bits, 2), np.uint64)
        self.tt_keys, self.tt_data = slots[:, 0], slots[:, 1].view(np.int64)
        self.stats = np.zeros(STATS_SIZE, np.int64)
        # The search's arrays, allocated once: a proof allocates and clears none of them.
        self.tree = ProofTree(self.stack, self.moves, np.zeros((plies, FRAME_COLUMNS), np.int64),
                              self.tt_keys, self.tt_data, self.stats, new_timespec())
        self._load_search()

    def _load_search(self) -> None:
        """Compile the search, or load it from the cache, now: a proof's
        budget is for searching (from an empty cache, compiling Kaboom's took
        15 CPU s, which the first ``analyze --prove`` reported as its proof's)."""
        start = self.game.initial_array().copy()  # the game keeps its start read-only
        self.engine.load(start, self.root_row)
        self.stats[:] = 0  # a node limit of 0: each search stops at its first node, the table untouched
        self.engine.search.prove_score(self.params, self.tree, 1, False)
        self.engine.search.prove_window(self.params, self.tree, 0, -1, 1)  # the best moves' searches
        self.stats[:] = 0
        # and the state array's own kernels, which play the root's moves for the best moves and keeps()
        actions = np.zeros(self.moves.shape[1], np.int32)
        if self.game.kernels.legal_actions(start, self.game.params_array, actions):
            self.game.kernels.apply_action(start, self.game.params_array, int(actions[0]))

    def clear(self) -> None:
        """Forget what earlier proofs learnt."""
        self.tt_keys[:] = 0

    @one_thread_at_a_time
    def prove(self, state: State, *, nodes: int | None = None, seconds: float | None = None, exact: bool = True,
              best_moves: bool = False) -> Proof:
        """Prove ``state``'s value for the player to move, within ``nodes``
        nodes and ``seconds`` of CPU time over all its searches (no limit
        where ``None``); with ``exact``, also the plies to the end of a win
        or a loss; with ``best_moves``, which legal actions keep the value.
        Raises :class:`NotProvedError` at the budget."""
        if state.game is not self.game and state.game != self.game:  # comparing game strings costs a short proof's time
            raise BoomboardError(f"this prover is for {self.game}, not {state.game}")
        if state.is_terminal():
            raise GameOverError("the game is over; there is nothing to prove")
        budget = _Budget(self, nodes, seconds)
        return self._run(self._prove, (state.array, budget, exact, best_moves), budget)

    @one_thread_at_a_time
    def keeps(self, state: State, action: int, value: str, plies: int | None = None, *,
              nodes: int | None = None, seconds: float | None = None) -> bool:
        """Whether playing ``action`` keeps ``state``'s value for the player
        to move, that value being known (proved before; not proved again
        here): ``value``, and with ``plies`` for a win or a loss, a win no
        later or a loss no sooner than in ``plies`` plies. One null-window
        search of the position ``action`` leads to, within ``nodes`` nodes
        and ``seconds`` of CPU time (:class:`NotProvedError` at the budget).
        A book of perfect play is built from it: the moves that keep a
        position's value are its best ones."""
        if state.game is not self.game and state.game != self.game:
            raise BoomboardError(f"this prover is for {self.game}, not {state.game}")
        if state.is_terminal():
            raise GameOverError("the game is over; there is nothing to prove")
        if action not in state.legal_actions():
            raise BoomboardError(f"{action} is not a legal action of this position")
        budget = _Budget(self, nodes, seconds)
        return self._run(self._keeps, (state.array, int(action), _score(value, plies, self.longest), budget), budget)

    def _run(self, work: Callable, args: tuple, budget: _Budget):
        """``work(*args)``, its first slice of nodes on this thread where it
        is the main one (Ctrl-C waits that long at most), and the rest of a
        long proof (its table keeps what the slice learnt) in one
        interruptible call."""
        if threading.current_thread() is threading.main_thread():
            budget.slice(MAIN_THREAD_NODES, MAIN_THREAD_SECONDS)
            try:
                return work(*args)
            except _SliceSpent:
                budget.slice(None)
        return run_interruptibly(work, self.stats, NODE_LIMIT, args)

    def _prove(self, root: np.ndarray, budget: _Budget, exact: bool, best_moves: bool) -> Proof:
        budget.arm()
        self.engine.load(root, self.root_row)
        left = max(1, self.longest - int(root[PLY]))  # plies can only run out: a bound on the game's rest
        score = int(self.engine.search.prove_score(self.params, self.tree, left, exact))
        if self.stats[ABORTED]:
            budget.fail(proved_so_far(int(self.stats[PROVED_LOW]), int(self.stats[PROVED_HIGH]), left, exact))
        value = "win" if score > 0 else "lose" if score < 0 else "tie"
        plies = WIN - abs(score) if exact and value != "tie" else None
        moves = self._best_moves(root, score if exact else _WEAK_THRESHOLD[value], budget) if best_moves else []
        return Proof(value, plies, budget.nodes(), budget.seconds(), moves)

    # -- the searches -----------------------------------------------------------------
    def _search(self, position: np.ndarray, root_ply: int, alpha: int, beta: int, budget: _Budget) -> int:
        """One null-window (or any-window) search of the state array ``position`` at ``root_ply``."""
        budget.arm()
        self.engine.load(position, self.stack[root_ply])
        value = self.engine.search.prove_window(self.params, self.tree, root_ply, alpha, beta)
        if self.stats[ABORTED]:
            budget.fail()
        return int(value)

    def _best_moves(self, root: np.ndarray, score: int, budget: _Budget) -> list[int]:
        """The legal actions of ``root`` whose value for the mover is at least ``score``."""
        buffer = np.zeros(self.moves.shape[1], np.int32)
        n = self.game.kernels.legal_actions(root, self.game.params_array, buffer)
        if score <= -WIN:  # a lost position, its plies not asked for: every move keeps the value
            return [int(a) for a in buffer[:n]]
        return [int(action) for action in buffer[:n] if self._keeps(root, int(action), score, budget)]

    def _keeps(self, root: np.ndarray, action: int, score: int, budget: _Budget) -> bool:
        """Whether ``action`` scores at least ``score`` for ``root``'s mover."""
        child = root.copy()
        self.game.kernels.apply_action(child, self.game.params_array, action)
        if child[STATUS]:
            child_score = _finished_score(child, ply=1)
        else:  # is the child's score, counted from the root, at most -score?
            child_score = self._search(child, 1, -score, 1 - score, budget)
        return -child_score >= score


@dataclass(frozen=True)
class SearchEngine:
    """What the search plays its moves on: ``search``, its compiled copy;
    ``params``, the array its kernels read; ``position``, an empty position
    (its size and type); ``load(state, row)`` writes a state array's
    position into a row of the search's stack."""

    search: ModuleType
    params: np.ndarray
    position: np.ndarray
    load: Callable[[np.ndarray, np.ndarray], None]


def search_engine(game, own_engine: bool = True) -> SearchEngine:
    """The game's proof engine where it has one for these parameters (and
    ``own_engine``), else its state arrays with its kernels (:func:`proof_kernels`)."""
    params = game.proof_engine_params() if own_engine else None
    if params is None:
        def copy(state, row):
            row[:] = state

        return SearchEngine(proof_kernels(game), game.params_array, np.zeros_like(game.initial_array()), copy)
    engine = game.folder_module("proof_engine")
    search = specialize(PROOF_SEARCH, engine.__name__)
    announce_if_cold(search, game.title)
    return SearchEngine(search, params, engine.new_position(params),
                        lambda state, row: engine.load_position(state, params, row))


def proof_kernels(game) -> ModuleType:
    """The search compiled for ``game``'s state arrays: ordered by the game's
    own proof ordering kernels (``proof_moves``, ``mirror_key``) where its
    kernels.py gives them, else by its evaluation (:mod:`boomboard.search.proof_order`)."""
    if all(hasattr(game.kernels, name) for name in template_kernels(PROOF_SEARCH)):
        return game.compiled(PROOF_SEARCH)
    return specialize(PROOF_SEARCH, game.compiled(EVALUATION_ORDER).__name__)


# The score a move must reach to keep a value, when only the value is proved.
_WEAK_THRESHOLD = {"win": 1, "tie": 0, "lose": -WIN}


def _finished_score(s: np.ndarray, ply: int) -> int:
    """The search's score of a finished position at ``ply``, for its player to move."""
    if s[STATUS] == STATUS_TIE:
        return 0
    return WIN - ply if s[STATUS] == 1 + s[PLAYER] else ply - WIN


def _score(value: str, plies: int | None, longest: int) -> int:
    """The search's score of ``value`` for the player to move: a win in
    ``plies`` plies ``WIN - plies``, a loss ``plies - WIN``, a tie 0; without
    ``plies``, the least score of that value."""
    if value not in _WEAK_THRESHOLD:
        raise BoomboardError(f"a value is win, lose or tie, not {value!r}")
    if plies is None or value == "tie":
        return _WEAK_THRESHOLD[value]
    if not 1 <= plies <= longest:
        raise BoomboardError(f"a win or a loss comes in 1 to {longest} plies in this game, not {plies}")
    return WIN - plies if value == "win" else plies - WIN


def _cpu_now_ns() -> int:
    """The CPU clock the compiled search compares with ``stats[DEADLINE_NS]``
    (``CLOCK_ID``), read now in nanoseconds by Python's own call: it is read
    twice a proof, and a call into compiled code costs twice as much. The
    process's CPU time where the search has no clock."""
    return time.clock_gettime_ns(CLOCK_ID) if CLOCK_ADDRESS else time.process_time_ns()


class _SliceSpent(Exception):
    """The first slice of a proof's nodes is spent (not its budget)."""


class _Budget:
    """The nodes and CPU time one proof may spend over all its searches."""

    def __init__(self, prover: Prover, nodes: int | None, seconds: float | None):
        self.stats = prover.stats
        self.started_ns = _cpu_now_ns()
        self.stats[:] = 0
        self.node_limit = MAX_NODES if nodes is None else max(1, min(int(nodes), MAX_NODES))
        self.stats[NODE_LIMIT] = self.node_limit
        self.sliced = False
        self.seconds_limit = None if seconds is None or not seconds < MAX_SECONDS else max(0.0, float(seconds))
        if seconds is not None and seconds != seconds:  # NaN: no budget at all
            raise BoomboardError("a proof's time limit must be a number of seconds")
        self.stats[CLOCK_FUNCTION], self.stats[CLOCK_KIND] = CLOCK_ADDRESS, CLOCK_ID
        self.deadline_ns = 0  # the compiled clock's reading at the time limit (0: none, or no clock)
        if self.seconds_limit is not None and CLOCK_ADDRESS:
            self.deadline_ns = self.started_ns + int(self.seconds_limit * 1e9)
        self.stats[DEADLINE_NS] = self.deadline_ns

    def slice(self, nodes: int | None, seconds: float | None = None) -> None:
        """Let the searches stop after ``nodes`` nodes in all or ``seconds``
        of CPU time from the budget's start, whichever comes first (:class:`_SliceSpent`
        then, where the budget goes on), or at the budget only (``None``).
        The time applies only where compiled code has a clock."""
        self.sliced = nodes is not None
        self.stats[NODE_LIMIT] = min(nodes, self.node_limit) if self.sliced else self.node_limit
        self.stats[DEADLINE_NS] = self.deadline_ns
        if self.sliced and seconds is not None and CLOCK_ADDRESS:
            ends = self.started_ns + int(seconds * 1e9)
            self.stats[DEADLINE_NS] = min(ends, self.deadline_ns) if self.deadline_ns else ends

    def nodes(self) -> int:
        return int(self.stats[NODES])

    def seconds(self) -> float:
        return (_cpu_now_ns() - self.started_ns) / 1e9

    def arm(self) -> None:
        """Before a call into the compiled search: fail at once if the time is
        already spent (also where compiled code has no clock, between calls)."""
        self.stats[ABORTED] = 0
        if self.seconds_limit is None:
            return
        # before the first search the time spent is only the budget's own: no clock read, unless it is none at all
        if self.seconds_limit <= 0 or (self.stats[NODES] and self.seconds() >= self.seconds_limit):
            self.fail()

    def fail(self, proved: str = "") -> None:
        out_of_time = self.seconds_limit is not None and self.seconds() >= self.seconds_limit
        if self.sliced and not out_of_time and self.nodes() < self.node_limit:
            raise _SliceSpent
        limit = []
        if self.node_limit < MAX_NODES:
            limit.append(f"{self.node_limit:,} nodes")
        if self.seconds_limit is not None:
            limit.append(f"{self.seconds_limit:g} CPU seconds")
        raise NotProvedError(f"not proved within the limit ({' or '.join(limit)}): searched "
                             f"{self.nodes():,} nodes in {self.seconds():.1f} CPU s"
                             + (f"; proved so far: {proved}" if proved else ""), self.nodes(), self.seconds(), proved)


def proved_so_far(low: int, high: int, left: int, exact: bool) -> str:
    """In words, for the player to move, what a proof knows when its score
    lies in ``low..high`` on :func:`boomboard.search.proof_search.prove_score`'s
    scale (a win in d plies is ``left + 1 - d``, a tie 0, a loss in d plies
    ``d - left - 1``; without ``exact`` only -1, 0 and 1); empty where
    nothing is known yet."""
    def sign(scale: int) -> int:
        return (scale > 0) - (scale < 0)

    if sign(low) == sign(high):  # the value is proved; only its plies may be open
        if low == high == 0:
            return "a tie"
        fewest, most = (left + 1 - high, left + 1 - low) if low > 0 else (low + left + 1, high + left + 1)
        value = "a win" if low > 0 else "a loss"
        if not exact:
            return value
        return f"{value} in {fewest} plies" if fewest == most else f"{value} in {fewest} to {most} plies"
    known = []
    if low == 0:
        known.append("at least a tie")
    elif exact and -left < low < 0:
        known.append(f"no loss in fewer than {low + left + 1} plies")
    if high == 0:
        known.append("at most a tie")
    elif exact and 0 < high < left:
        known.append(f"no win in fewer than {left + 1 - high} plies")
    return ", ".join(known)
