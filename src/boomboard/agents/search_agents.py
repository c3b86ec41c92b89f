"""Agents that search: greedy, alpha-beta, MCTS, and ``ai``, the strongest.

Time budgets are CPU seconds of the agent's process: ``time`` per move and
``game_time`` for the whole game; with both, a move gets the smaller of
``time`` and what the game's time manager plans for it
(:mod:`boomboard.agents.time_manager`: a share of what is left by the
moves the game is expected still to take, a reserve kept for the endgame,
and up to three times the share where the search is unstable).
"""

from __future__ import annotations

import inspect
import sys
from collections import deque
from dataclasses import dataclass
from time import process_time as _cpu_time
from typing import TYPE_CHECKING

from ..core.game import Game
from ..core.layout import STATUS, STATUS_TIE
from ..core.state import State
from ..search.book import game_book
from ..search.scores import WIN
from .base import Agent
from .time_manager import DEFAULT_TYPICAL_PLIES, MovePlan, TimeManager

if TYPE_CHECKING:  # the searches load numba: imported where an agent first searches
    from ..search.alphabeta import AlphaBeta
    from ..search.mcts import Mcts
    from ..search.prover import Prover

# The part of a move's budget its search gets: the clock is read between
# batches of nodes, so a search ends a little after its deadline.
_SEARCH_SHARE = 0.97
# The moves whose overhead (the work around the search) the next search allows for.
_OVERHEAD_MOVES = 8


class GreedyAgent(Agent):
    """Plays the action after which the game's evaluation is best for it (one ply),
    a won game best of all; equal actions are chosen between at random."""

    name = "greedy"

    def new_game(self, game: Game, player: int) -> None:
        """Load (or compile) the evaluation before the clock runs: a first move
        that compiles would overrun a referee's time budget."""
        super().new_game(game, player)
        start = game.new_initial_state()
        if not start.is_terminal():
            self.choose_action(start)

    def choose_action(self, state: State) -> int:
        game = state.game
        kernels = game.kernels
        best_score, best = None, []
        for action in state.legal_actions():
            child = state.array.copy()
            kernels.apply_action(child, game.params_array, action)
            if child[STATUS] == STATUS_TIE:
                score = 0
            elif child[STATUS]:
                score = WIN if child[STATUS] == 1 + state.current_player() else -WIN
            else:
                score = -int(kernels.evaluate(child, game.params_array))
            if best_score is None or score > best_score:
                best_score, best = score, [action]
            elif score == best_score:
                best.append(action)
        self.last_thinking = f"best 1-ply evaluation {best_score / 100:+.2f} ({len(best)} equal)"
        return self.rng.choice(best)


class _BudgetedAgent(Agent):
    """Shares a per-move and a per-game CPU budget between moves, through a
    :class:`~boomboard.agents.time_manager.TimeManager`.

    The whole of :meth:`choose_action` is charged to the game budget, not just
    the search inside it: the work around a search (reading the position,
    the expected line) is small but adds up over a few hundred moves, so the
    search is also given its budget less the largest overhead of the last
    few moves (of the last ``_OVERHEAD_MOVES``: a one-off, such as a first
    call loading compiled code, must not starve every later move), and
    never less than half its budget.
    Whatever else a referee counts against the player can be charged too
    (:meth:`charge`: the course Player charges its construction and updates).
    """

    def __init__(self, seed: int | None = None, time: float | None = None, game_time: float | None = None):
        super().__init__(seed)
        self.move_time, self.game_time = time, game_time
        self.clock = TimeManager(game_time, time)
        self.overhead = 0.0
        self.overheads: deque[float] = deque(maxlen=_OVERHEAD_MOVES)
        self.last_thinking = ""
        self.last_plan: MovePlan | None = None

    @property
    def time_left(self) -> float | None:
        """CPU seconds left of the game's budget (None: no game budget)."""
        return self.clock.time_left

    def new_game(self, game: Game, player: int) -> None:
        super().new_game(game, player)
        self.clock = TimeManager(self.game_time, self.move_time, action_limit=game.action_limit,
                                 typical_plies=game.typical_plies or DEFAULT_TYPICAL_PLIES)
        self._warm_up(game)
        start = game.new_initial_state()
        if not start.is_terminal():  # a move's expected line is played on a State: its rules load now too
            start.child(start.legal_actions()[0])

    def _warm_up(self, game: Game) -> None:
        """Load the compiled search before the clock runs (from numba's cache)."""

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` of CPU spent outside :meth:`choose_action` against the game's budget."""
        self.clock.charge(seconds)

    def set_move_time(self, seconds: float | None) -> None:
        """Cap each move at ``seconds`` of CPU from now on (None: no cap of the
        move's own), as a controller's ``go time`` asks, the game's budget kept."""
        self.move_time = self.clock.move_time = seconds

    def plan(self, ply: int = 0) -> MovePlan | None:
        """The next move's soft target and hard maximum for its search (the
        overhead taken off), or None for no limit."""
        plan = self.clock.plan(ply)
        if plan is None:
            return None
        return MovePlan(*(max(seconds * _SEARCH_SHARE - min(self.overhead, seconds / 2), 1e-4)
                          for seconds in (plan.target, plan.maximum)))

    def budget(self, ply: int = 0) -> float | None:
        """CPU seconds the next search aims at (its plan's target), or None for no limit."""
        plan = self.plan(ply)
        return None if plan is None else plan.target

    def choose_action(self, state: State) -> int:
        began = _cpu_time()
        action, search_seconds = self._search(state)
        spent = _cpu_time() - began
        self.overheads.append(max(spent - search_seconds, 0.0))
        self.overhead = max(self.overheads)
        self.clock.charge(spent)
        return action

    def _search(self, state: State) -> tuple[int, float]:
        """The action to play and the CPU seconds the search itself took."""
        raise NotImplementedError


def variety_margin(margin: int, variety_plies: int, ply: int) -> int:
    """The margin within which :class:`AlphaBetaAgent` chooses at random at
    ``ply``: ``margin`` in the first ``variety_plies`` plies (all of them if
    0), then 0, the search's best move."""
    return margin if not variety_plies or ply < variety_plies else 0


@dataclass(frozen=True)
class AlphaBetaSettings:
    """What an ``alphabeta`` spec sets (``alphabeta:depth=4,margin=20``), each
    described in :class:`AlphaBetaAgent`: the budget (``depth`` plies, or
    ``time`` per move and ``game_time`` per game, CPU seconds; one second a
    move when none is given), the search's table and heuristics, and the
    choice among near-best moves. The spec parser reads its fields' names
    and types (:mod:`boomboard.agents.spec`)."""

    depth: int | None = None
    time: float | None = None
    game_time: float | None = None
    table_bits: int = 20
    quiescence: int = 0
    contempt: int = 0
    margin: int = 0
    endgames: int = 0
    traps: int = 0
    solved: int = 0
    reductions: int = 0
    book: int = 0
    null_move: int = 0
    variety_plies: int = 0
    learned: int = 0
    proofs: int = 0


class AlphaBetaAgent(_BudgetedAgent):
    """Iterative-deepening alpha-beta (see :mod:`boomboard.search.alphabeta`):
    to ``depth`` plies, or within the time budget.

    With ``margin`` > 0 it chooses at random (from its seed) among the root
    moves the search scored within ``margin`` of the best (the evaluations
    count 100 for a unit of material), so the seed changes its games; never
    when the best is a forced result, so a forced win stays the fastest and a
    forced loss is never chosen over a move that does not lose. With
    ``variety_plies`` = N > 0 it does so only in the game's first N plies
    (where the variety keeps a fixed opponent from replaying a game) and
    then plays the search's best move: later on, a deep search scores many
    moves alike (every line reaching the same material at its horizon), and
    the best one, found first in move order, is the one that shallower
    iterations preferred too.

    With ``endgames`` = T > 0, in a game solved as endgames, it probes the
    solver's endgame tables of up to T tokens (built on first use; see
    :mod:`boomboard.solver.endgames`): a position they hold is played from
    them, perfectly, and the search scores the positions they hold exactly.
    With ``solved`` = 1, a game solved whole (``boomboard solve GAME``, in the
    solver's folder; ``boomboard compile`` solves a game's default board when
    that takes seconds) is played from its table
    (:mod:`boomboard.solver.in_play`): the fastest win, and in a tie or a
    loss the move that gives the opponent the best chance to go wrong. The
    table is never built for a move: without it, the search plays.
    With ``book`` = 1, a position in the game's opening book (its
    ``opening_book``, :mod:`boomboard.search.book`) is played from the book,
    at once, at random among the moves the book lists (all within its
    margin of the best).
    With ``learned`` = 1, the random choice among near-equal moves (within
    ``margin``) is made by the results the book holds for the position
    (:meth:`boomboard.search.book.OpeningBook.prefer`): a move that won
    more is chosen more.
    With ``traps`` (and a margin), it chooses among those moves the one that
    leaves the opponent the most replies that lose by force
    (:mod:`boomboard.search.traps`): the search gets nine tenths of the
    move's time, the scan the rest and whatever the search left.
    With ``proofs`` = 1 (and a margin), before a random choice (and after
    the trap scan's) it tries to prove the position
    (:mod:`boomboard.search.prover`) within :data:`PROOF_SHARE` of the
    search's nodes: when the proof finishes, only moves it shows keep the
    value are chosen. Worth its cost where proofs finish often (Kaboom),
    not where they almost never do (benchmarks/variety_proof_cost.py).
    Once a proof (or a proved book move) has settled a position of the game,
    the positions after it, with fewer plies left and the prover's table
    warm, mostly prove too: from then on each timed move gives the proof
    half its time (:data:`PROVING_SEARCH_SHARE`), even where the search
    left one move near the best, so a proved win is never let go. A proof
    shows which moves keep a win or a tie; in a lost position an exact one,
    which moves hold out longest, or none is trusted (the search's move
    stands).
    """

    name = "alphabeta"

    def __init__(self, seed: int | None = None, settings: AlphaBetaSettings | None = None):
        settings = settings or AlphaBetaSettings()
        super().__init__(seed, settings.time, settings.game_time)
        self.traps, self.solved, self.use_book, self.learned = settings.traps, settings.solved, settings.book, \
            settings.learned
        self.proofs = settings.proofs
        if settings.depth is None and settings.time is None and settings.game_time is None:
            self.move_time = 1.0
        self.depth = settings.depth
        self.margin, self.variety_plies = settings.margin, settings.variety_plies
        self.table_bits = settings.table_bits
        self.quiescence, self.contempt, self.reductions = settings.quiescence, settings.contempt, settings.reductions
        self.null_move = settings.null_move
        self.endgames = settings.endgames
        self.db = None  # the solver's folder its endgame and solved tables are in (None: the solver's default)
        self.tables = None  # the endgame tables probed, if any
        self.whole = None  # the whole game's solved table played from, if any
        self.book = None  # the opening book played from or learnt from, if any
        self.searcher: AlphaBeta | None = None
        self.prover: Prover | None = None  # proves which near-best moves keep the value (proofs and a margin)
        self.proving = False  # a position of this game was proved: each move proves first (see above)

    def new_game(self, game: Game, player: int) -> None:
        self.proving = False
        super().new_game(game, player)

    @classmethod
    def from_spec(cls, seed: int | None = None, **settings) -> AlphaBetaAgent:
        """The agent of an ``alphabeta`` spec's settings (what :func:`~boomboard.agents.make_agent` calls)."""
        return cls(seed, AlphaBetaSettings(**settings))

    def _warm_up(self, game: Game) -> None:
        if self.searcher is None or self.searcher.game is not game:
            from ..search.alphabeta import AlphaBeta
            from ..solver.in_play import solved_game, warm_up

            # The tables first: solving them (once) needs memory the search's tables would add to.
            self.tables = _endgame_tables(game, self.endgames, self.db)
            self.whole = solved_game(game, self.db) if self.solved else None  # never solved here
            self.book = game_book(game) if self.use_book or self.learned else None
            for tables in (self.whole, self.tables):
                if tables is not None:
                    warm_up(tables.table)
            self.searcher = AlphaBeta(game, self.table_bits, self.quiescence, self.contempt, self.reductions,
                                      self.null_move)
            self.searcher.use_endgames(None if self.tables is None else self.tables.probe_arrays())
            self.prover = _prover(game, min(PROOF_TABLE_BITS, self.table_bits)) \
                if self.margin > 0 and self.proofs else None
        self.searcher.clear()
        start = game.new_initial_state()
        if not start.is_terminal():
            # With a time budget, as a move's search has: the clock's reader it starts with loads here too.
            self.searcher.search(start, depth=1, seconds=1.0)

    def _search(self, state: State) -> tuple[int, float]:
        if self.searcher is None or self.searcher.game is not state.game:
            self._warm_up(state.game)
        plan = self.last_plan = self.plan(state.ply())
        for tables in (self.book if self.use_book else None, self.whole, self.tables):
            if tables is not None:
                began = _cpu_time()
                chosen = tables.choose(state, self.rng, None if plan is None else plan.target)
                if chosen is not None:
                    self.proving = self.proving or (tables is self.book and bool(self.book.proved_moves(state)))
                    self.last_thinking = chosen[1]
                    return chosen[0], _cpu_time() - began
        search_plan = plan if plan is None or not self.proving or self.prover is None else \
            MovePlan(plan.target * PROVING_SEARCH_SHARE, plan.maximum * PROVING_SEARCH_SHARE)
        if self.traps and self.margin > 0:
            action, seconds, nodes = self._search_with_traps(state, None if plan is None else search_plan.target)
            proved, proof_seconds = self._proved_best(state, nodes, seconds, plan, chosen=action)
            if proved is not None and action not in proved:  # the scan's choice is proved worse
                action = self.rng.choice(proved)
                self.last_thinking += f"; played {state.action_to_string(action)}, proved best"
            return action, seconds + proof_seconds
        iterations: list[tuple[int, int, float]] = []

        def on_iteration(result) -> bool:
            # the soft limit: stop between iterations once past the target,
            # unless the best move or the score just changed (see TimeManager)
            iterations.append((result.action, result.score, result.seconds - sum(i[2] for i in iterations)))
            return plan is not None and self.clock.stop_after_iteration(search_plan, result.seconds, iterations)

        margin = variety_margin(self.margin, self.variety_plies, state.ply())
        result = self.searcher.search(state, depth=self.depth, seconds=None if plan is None else search_plan.maximum,
                                      margin=margin, on_iteration=on_iteration)
        action = result.action
        pv = " ".join(_line_strings(state, result.principal_variation))
        near_best, proof_seconds = result.near_best, 0.0
        if len(near_best) > 1 or self.proving:  # a choice to make or to check: among moves proved to keep the value
            proved, proof_seconds = self._proved_best(state, result.nodes, result.seconds, plan)
            if proved is not None:
                near_best = [a for a in near_best if a in proved] or proved
        if len(near_best) > 1:
            learnt = None
            if self.learned and self.book is not None:
                learnt = self.book.prefer(state, near_best, self.rng)
            action = self.rng.choice(near_best) if learnt is None else learnt
            pv += (f"; chose {state.action_to_string(action)} of {len(near_best)} within {margin}"
                   f"{'' if learnt is None else ' by their results'}")
        elif near_best != result.near_best:
            action = near_best[0]
            pv += f"; chose {state.action_to_string(action)}, the only one proved best"
        self.last_thinking = (f"depth {result.depth}, score {result.describe_score()}, nodes {result.nodes:,}, "
                              f"{result.seconds:.2f} s, pv {pv}")
        return action, result.seconds + proof_seconds

    def _proved_best(self, state: State, search_nodes: int, search_seconds: float,
                     plan: MovePlan | None, chosen: int | None = None) -> tuple[list[int] | None, float]:
        """The moves a proof by search (:mod:`boomboard.search.prover`) shows
        keep the position's value, and the CPU seconds it took; ``None`` where
        it proved nothing within :data:`PROOF_SHARE` of the search's nodes (and,
        for a timed move, of its time, within what the search left of the
        move's target, and not at all below :data:`PROOF_MIN_SECONDS`), or
        the game has history rules: the random choice among near-best moves
        then stands. The node budget keeps a search to a depth repeatable:
        the same seed, the same game. With ``chosen`` (the move the caller
        would play) in a won or tied position, that move is proved first, and
        where it keeps the value it alone is the answer: it proves at once
        from what the position's proof left in the table, while proving that
        the other moves do not win would cost as much again."""
        # a timed move proves only in what its search left of the target: the hard maximum is a
        # referee's limit, and the call itself costs some CPU the proof's own clock does not see
        left = None if plan is None else plan.target - search_seconds
        seconds = left if left is None or self.proving else min(PROOF_SHARE * search_seconds, left)
        if self.prover is None or (seconds is not None and seconds < PROOF_MIN_SECONDS):
            return None, 0.0
        from ..search.prover import NotProvedError

        nodes = None if self.proving and plan is not None else max(PROOF_MIN_NODES, int(PROOF_SHARE * search_nodes))
        began = _cpu_time()

        def rest() -> float | None:
            return None if seconds is None else seconds - (_cpu_time() - began)

        try:
            value = self.prover.prove(state, nodes=nodes, seconds=seconds, exact=False).value
            if value != "lose" and chosen is not None and self._keeps(state, chosen, value, nodes, rest()):
                best = [chosen]
            elif rest() is not None and rest() < PROOF_MIN_SECONDS:
                return None, _cpu_time() - began
            else:  # which moves keep the value; in a loss (every move keeps one), which hold out longest: exact
                best = self.prover.prove(state, nodes=nodes, seconds=rest(), exact=value == "lose",
                                         best_moves=True).best_moves
        except NotProvedError:
            return None, _cpu_time() - began
        self.proving = True
        return best, _cpu_time() - began

    def _keeps(self, state: State, action: int, value: str, nodes: int | None, seconds: float | None) -> bool:
        """Whether ``action`` keeps ``state``'s proved win or tie (``value``), proved within the budget."""
        if seconds is not None and seconds < PROOF_MIN_SECONDS and not state.child(action).is_terminal():
            return False
        return self.prover.keeps(state, action, value, nodes=nodes, seconds=seconds)

    def _search_with_traps(self, state: State, budget: float | None) -> tuple[int, float, int]:
        """The action the trap scan chooses, its CPU seconds and the main search's nodes."""
        from ..search.traps import trap_search

        action, seconds, thinking, result = trap_search(self.searcher, state, self.rng, budget, self.depth,
                                                        self.margin)
        head, semicolon, traps = thinking.partition(";")  # the line after the search's part
        pv = " ".join(_line_strings(state, result.principal_variation))
        self.last_thinking = f"{head}, pv {pv}{semicolon}{traps}"
        return action, seconds, result.nodes


class MctsAgent(_BudgetedAgent):
    """UCT Monte Carlo tree search (see :mod:`boomboard.search.mcts`)."""

    name = "mcts"

    def __init__(self, seed: int | None = None, simulations: int | None = None, time: float | None = None,
                 game_time: float | None = None, exploration: float = 1.0, playout: int = 8):
        super().__init__(seed, time, game_time)
        if simulations is None and time is None and game_time is None:
            time = self.move_time = 1.0
        self.simulations = simulations
        self.exploration, self.playout = exploration, playout
        self.searcher: Mcts | None = None

    def _warm_up(self, game: Game) -> None:
        if self.searcher is None or self.searcher.game is not game:
            from ..search.mcts import Mcts

            self.searcher = Mcts(game, exploration=self.exploration, playout_plies=self.playout)
        start = game.new_initial_state()
        if not start.is_terminal():
            self.searcher.search(start, simulations=2)

    def _search(self, state: State) -> tuple[int, float]:
        if self.searcher is None or self.searcher.game is not state.game:
            self._warm_up(state.game)
        result = self.searcher.search(state, simulations=self.simulations, seconds=self.budget(state.ply()),
                                      seed=self.rng.randrange(1 << 30))
        self.last_thinking = (f"simulations {result.simulations:,}, value {result.describe_score()}, "
                              f"tree {result.nodes:,} nodes, {result.seconds:.2f} s")
        return result.action, result.seconds


# What a proof of the root (which moves keep its value) may cost a move that
# chooses among near-best moves: a share of the search's nodes (and of its
# time, for a timed move), at least PROOF_MIN_NODES.
PROOF_SHARE = 0.25
PROOF_MIN_NODES = 1000
PROOF_MIN_SECONDS = 0.02  # a timed move with less left for it makes no proof
PROOF_TABLE_BITS = 20  # 16 MiB, or the agent's own table's size if smaller (a server's limit on it holds)
# Once a proof has settled a position of the game, the search's share of a timed move (the proof has the rest).
PROVING_SEARCH_SHARE = 0.5


def _prover(game: Game, table_bits: int) -> Prover | None:
    """A prover for ``game``, its search loaded (a first move must not compile
    it on the clock), or None for a game it cannot prove (history rules)."""
    from ..core.errors import BoomboardError
    from ..search.prover import NotProvedError, Prover

    try:
        prover = Prover(game, table_bits=table_bits)
    except BoomboardError:
        return None
    start = game.new_initial_state()
    if not start.is_terminal():
        try:
            prover.prove(start, nodes=PROOF_MIN_NODES, exact=False)
        except NotProvedError:
            pass  # loaded all the same
    return prover


def _endgame_tables(game: Game, tokens: int, db: str | None = None):
    """The solver's endgame tables of ``game`` up to ``tokens`` tokens, in
    the solver's folder ``db``, built on first use; ``None`` for none (0 tokens, a game not solved as
    endgames, or tables that cannot be built here: said once, then play goes on
    without them)."""
    if tokens <= 0 or not game.solver_min_tokens:
        return None
    # The solver is imported when an agent first asks for its tables, not with the agents:
    # it loads numba, which a game loads when it is first played.
    from ..solver.endgames import endgame_tables

    try:
        return endgame_tables(game, tokens, db)
    except Exception as problem:  # a read-only or full disk: the search plays on without the tables
        print(f"boomboard: no endgame tables for {game.title} ({type(problem).__name__}: {problem})",
              file=sys.stderr, flush=True)
        return None


def _line_strings(state: State, actions: list[int]) -> list[str]:
    """The expected line in notation, cut where the game would end: the table
    it comes from knows nothing of repetitions in the game's history."""
    line, words = state.clone(), []
    for action in actions:
        if line.is_terminal() or action not in line.legal_actions():
            break
        words.append(line.action_to_string(action))
        line.apply_action(action)
    return words


# How near the best a root move's score must be for ``ai`` to choose it at
# random: a tenth of a unit of material (a token, a stone, a square).
AI_MARGIN = 10


class AiAgent(Agent):
    """``ai``: the strongest setting measured for the game it is given (the
    game's ``ai_settings``, docs/results/strength.md), with any settings given
    overriding it. In a game solved as endgames it also probes the solver's
    endgame tables of up to :data:`~boomboard.solver.endgames.AI_ENDGAME_TOKENS`
    tokens (``endgames=T`` to change, ``endgames=0`` for none), and a game
    solved whole is played from its table (``solved=0`` for never): see
    :class:`AlphaBetaAgent`."""

    name = "ai"

    def __init__(self, seed: int | None = None, **settings):
        super().__init__(seed)
        self.settings = settings
        self.db = None  # the solver's folder of tables, for an alpha-beta delegate (None: the solver's default)
        self.delegate: Agent | None = None

    def new_game(self, game: Game, player: int) -> None:
        super().new_game(game, player)
        from ..solver.endgames import AI_ENDGAME_TOKENS

        kind, defaults = game.ai_settings
        settings = {"margin": AI_MARGIN, "endgames": AI_ENDGAME_TOKENS, "solved": 1, **defaults, **self.settings}
        if kind == "alphabeta":
            self.delegate = AlphaBetaAgent(self.seed, AlphaBetaSettings(**settings))
            self.delegate.db = self.db
        else:  # of the settings, only those an MCTS agent takes apply
            accepted = inspect.signature(MctsAgent).parameters
            settings = {key: value for key, value in settings.items() if key in accepted}
            self.delegate = MctsAgent(seed=self.seed, **settings)
        self.delegate.new_game(game, player)

    def observe(self, state: State, action: int) -> None:
        if self.delegate is not None:
            self.delegate.observe(state, action)

    def choose_action(self, state: State) -> int:
        if self.delegate is None or self.game is not state.game:
            self.new_game(state.game, state.current_player())
        return self.delegate.choose_action(state)

    @property
    def last_thinking(self) -> str:
        return getattr(self.delegate, "last_thinking", "")

    def charge(self, seconds: float) -> None:
        """Count CPU spent outside :meth:`choose_action` against a game budget."""
        if isinstance(self.delegate, _BudgetedAgent):
            self.delegate.charge(seconds)
