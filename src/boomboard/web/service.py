"""Games in progress: their states, the AI moves played for them in the
background, and what the page is sent about each.

A game's session keeps its state and its moves in words between requests,
so that neither a read nor a move replays the game (a game is replayed
once, when it is read from the store). Its changes are made in the
server's request threads (a SQLite write, a kernel call: nothing the event
loop should wait for), one at a time under the session's lock; its AI's
task is started and stopped on the event loop (:meth:`GameService._on_loop`).
An AI's move is computed off the loop, on a copy of the game's state and a
fresh agent (threads share only the cached, immutable
:class:`~boomboard.core.game.Game`: see docs/reference/api.md, "Threads"):
cheap players (``random``, ``greedy``) in a thread, searching
ones in a pool of worker processes
(:mod:`boomboard.web.workers`), because numba's compiled search holds the
interpreter lock and would otherwise stall every other game and request. A
game resigned or undone while its AI searches has that search's worker
killed. The page polls the game until ``thinking`` is false.

A person's game comes first. An AI-vs-AI game is only watched: its moves
wait behind every AI move of a game with a human in it and every analysis
(the workers' queue takes them by priority), they hold at most all the
workers but one, and they do not count against the client's share of the
workers. Such a game can be paused and stopped, and it is stopped when
nobody has looked at it (a poll or an open event stream) for the server's
grace period. AI work a request waits for (an analysis) that could not
start within ``AgentLimits.queue_wait`` seconds is shed with
:class:`Overloaded` (a 503 with ``Retry-After``) rather than answered late.
"""

from __future__ import annotations

import asyncio
import copy
import json
import math
import random
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field, fields, replace

from .. import learn  # noqa: F401  (registers the "learned" agent kind for make_agent)
from ..agents import HUMAN, make_agent, parse_spec
from ..agents.spec import agent_settings
from ..core.capabilities import PLAY, require_capability
from ..core.errors import BoomboardError, IllegalActionError, ParameterError
from ..core.outcome import Outcome, Reason
from ..core.state import State
from ..registry import load_game
from . import analysis
from .cascade import cascade_steps
from .store import StaleGame, StoreUnavailable
from .geometry import cell_contents, layout, move_gestures, winning_lines
from .models import ModelShelf
from .store import GameStore, StoredGame
from .workers import (BACKGROUND, DEFAULT_WORKERS, FOREGROUND, LOAD_SECONDS, WORKER_MEMORY_BYTES, WorkerPool,
                      call_kind, check_workers, workers_limit)

CHEAP_AGENTS = {"random", "greedy"}  # fast enough to run in a thread
SOLVER = "solver"
# Games kept in memory (LRU). Every game is in the store after each change,
# so a game left out is read back from there when next asked for.
SESSIONS_KEPT = 1_000
# Analyses of one game's positions kept (LRU): the page asks for the last few again.
ANALYSES_KEPT = 16
# Seconds between tries to store an AI's move that the database refused (a full disk): the move is
# shown only once stored, and the game waits for the disk rather than losing it.
STORE_RETRY_SECONDS = 2.0
# Seconds an AI-vs-AI game runs on after the last look at it (a poll, an open event stream): then it is stopped.
WATCH_GRACE_SECONDS = 60
WATCH_GRACE_RANGE = (1, 3600)
# The most seconds a shed request is told to wait (Retry-After) however long the queue looks.
MOST_RETRY_AFTER = 30


class NotFound(BoomboardError, LookupError):
    """No game with that id."""


class Conflict(BoomboardError):
    """The request does not fit the game's state (not your turn, game over)."""


class Busy(BoomboardError):
    """A client asked for more AI work at once than the server lets one client queue (a 429)."""

    retry_after = 1


class Overloaded(BoomboardError):
    """AI work a request waits for could not start soon enough (a 503 that
    says, in ``retry_after``, how many seconds to wait before asking again)."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class AgentLimitError(ParameterError):
    """An agent setting past the server's limit (a 400 that names the limit)."""


SEED_RANGE = (-(2**63), 2**63 - 1)  # what SQLite's INTEGER holds
QUEUE_FACTOR = 3  # a client's analyses wait while it has fewer than this many times its share under way


@dataclass(frozen=True)
class AgentLimits:
    """The server's limits on every agent setting a request may give
    (``boomboard serve --ai-max-...``), so that no request can hold a worker
    for long: ``time`` and ``game_time`` are CPU seconds per move and per
    game; a search bounded only by ``depth``, ``simulations`` or ``game_time``
    also stops after ``time``. ``per_client`` is how many AI moves and
    analyses of one client run at once (the others wait their turn).
    Every numeric setting of every agent kind has a limit here (a setting
    without one is refused): ``sims``, the ``learned`` agent's simulations,
    which no time bounds; ``endgames``, the endgame tables an agent may
    build (3 tokens: about a second); the on-off switches at most 1; and
    ``reductions`` and ``null_move``, plies, at most ``depth``.
    ``queue_wait`` is the most seconds AI work a request waits for (an
    analysis) may wait for a worker before it is shed with a 503."""

    time: float = 10.0
    game_time: float = 600.0
    depth: int = 30
    simulations: int = 5_000_000
    table_bits: int = 24
    quiescence: int = 16
    playout: int = 500
    contempt: int = 100_000
    exploration: float = 100.0
    margin: int = 100_000
    variety_plies: int = 1_000
    endgames: int = 3
    sims: int = 256
    guard: int = 30
    per_client: int = 1
    queue_wait: float = 3.0

    # the serve option that sets each limit (the others are fixed)
    OPTIONS = {"time": "--ai-max-time", "game_time": "--ai-max-game-time", "depth": "--ai-max-depth",
               "simulations": "--ai-max-simulations", "table_bits": "--ai-max-table-bits",
               "queue_wait": "--ai-max-queue-wait"}
    # limits on the server's handling of AI work, not on an agent's settings
    SERVER_ONLY = frozenset({"per_client", "queue_wait"})
    # settings that turn a feature on (1) or off (0)
    SWITCHES = frozenset({"traps", "solved", "book", "learned", "proofs", "search", "puct", "decisive", "mirror"})
    # settings bounded by another setting's limit
    SAME_AS = {"reductions": "depth", "null_move": "depth"}

    def limit(self, key: str) -> tuple[float, str] | None:
        """``(limit, name)`` of a numeric setting: the most it may be, and the
        limit's name; ``None`` for a setting this server has no limit for."""
        if key in self.SWITCHES:
            return 1, key
        name = self.SAME_AS.get(key, key)
        if name in self.SERVER_ONLY or name not in {limit.name for limit in fields(self)}:
            return None
        return getattr(self, name), name

    def __post_init__(self):
        for limit in fields(self):
            value = getattr(self, limit.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
                raise ParameterError(f"the limit {limit.name} must be a positive number, got {value!r}")

    def check(self, spec: str) -> None:
        """Raise :class:`AgentLimitError` for a setting of ``spec`` past its limit."""
        kind, _, values = agent_settings(spec)
        if kind == SOLVER and "db" in values:
            raise AgentLimitError("the solver's 'db' setting is not taken here: the server's tables are "
                                  "those of boomboard serve --solver-db")
        for key, value in values.items():
            if not isinstance(value, (int, float)):
                continue
            bound = self.limit(key)
            if bound is None:
                raise AgentLimitError(f"agent setting {key} in {spec!r} is not taken by this server "
                                      f"(it has no limit for it)")
            limit, name = bound
            if abs(value) > limit:
                option = self.OPTIONS.get(name)
                how = f" (set by boomboard serve {option})" if option else ""
                raise AgentLimitError(f"agent setting {key}={value:g} in {spec!r} is past this server's limit: "
                                      f"{key} <= {limit:g}{how}")

    def bounded(self, spec: str) -> str:
        """``spec`` with a time per move where its search would otherwise be
        bounded only by depth, simulations or the game's time (a fresh agent
        plays each web move, so a game budget alone would not shrink)."""
        if spec == SOLVER or spec == HUMAN:
            return spec
        kind, settings = parse_spec(spec)
        if kind in ("alphabeta", "mcts", "ai") and "time" not in settings and (
                {"depth", "simulations", "game_time"} & set(settings)):
            return f"{spec}{',' if ':' in spec else ':'}time={self.time:g}"
        return spec


@dataclass
class Session:
    """One game being played: its stored record, its live state and its
    moves in words (the page's history, kept so that no answer replays the
    game). ``lock`` is held by whoever changes them (a request thread, the
    AI's task storing its move), and by whoever takes a copy of them to
    describe (the parts are replaced by a change, never changed in place)."""

    record: StoredGame
    state: State  # replaced by each change, never changed in place: a copy of the session is one version
    moves: list[str] = field(default_factory=list)
    last_steps: list[dict] = field(default_factory=list)
    task: asyncio.Task | None = None
    error: str = ""
    # the analyses of this game's positions, by (kind, actions), least recently used first
    analyses: OrderedDict = field(default_factory=OrderedDict)
    # the value of each position of the line ``actions``, as ``(actions, values)``
    value_history: tuple[tuple[int, ...], list] | None = None
    client: str | None = None  # who created it: its AI moves count against that client's cap
    # the store's generation when this copy was last known to be the stored game (GameStore.generation)
    checked: int = 0
    paused: bool = False  # an AI-vs-AI game held by its watcher: no AI moves until it is resumed
    seen: float = field(default_factory=time.monotonic)  # the last request about it (an open stream watches it too)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    @property
    def watched(self) -> bool:
        """No human plays it: people only watch (its AI work goes after theirs)."""
        return HUMAN not in self.record.players

    @property
    def stopped(self) -> bool:
        """Ended without a result (by a watcher's Stop, or nobody watching)."""
        return self.record.finished and self.record.resigned is None and not self.state.is_terminal()

    @property
    def outcome(self) -> Outcome | None:
        if self.record.resigned is not None:
            return Outcome(1 - self.record.resigned, Reason.RESIGNATION,
                           f"{self.state.game.player_names[self.record.resigned].capitalize()} resigned")
        return self.state.outcome()

    @property
    def over(self) -> bool:
        return self.outcome is not None or self.stopped

    def side_to_move(self) -> str | None:
        return None if self.over else self.record.players[self.state.current_player()]

    @property
    def thinking(self) -> bool:
        return self.task is not None and not self.task.done()

    def analysis(self, key: tuple):
        """The analysis kept under ``key``, or ``None``."""
        if key in self.analyses:
            self.analyses.move_to_end(key)
        return self.analyses.get(key)

    def keep_analysis(self, key: tuple, result) -> None:
        """Keep ``result`` under ``key``, forgetting the least recently used
        past :data:`ANALYSES_KEPT`."""
        self.analyses[key] = result
        self.analyses.move_to_end(key)
        while len(self.analyses) > ANALYSES_KEPT:
            self.analyses.popitem(last=False)


def check_side(spec: str, game_string: str, position: str | None = None, solver_db=None,
               limits: AgentLimits | None = None, models: ModelShelf | None = None) -> str:
    """A side's spec, checked: ``human``, ``solver`` (with a table in
    ``solver_db`` holding ``position``) or an agent (within ``limits``; a
    learned one playing a model of ``models``, by name)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ParameterError("each side must be 'human', 'solver' or an agent spec such as 'ai:time=1'")
    spec = spec.strip()
    kind, settings = parse_spec(spec)
    if kind != HUMAN:
        built = spec if models is None else models.resolve(spec)  # a learned model's name: its path
        try:
            make_agent(built)  # raises ParameterError for bad settings
        except BoomboardError as problem:  # a bad setting, or a model file that cannot be played
            raise ParameterError(_without_paths(str(problem), spec, built)) from None
        if limits is not None:
            check_limits(spec, limits, models)
    if kind == SOLVER and not analysis.has_table(game_string, position, settings.get("db", solver_db)):
        where = "this position of " if position else ""
        raise ParameterError(f"the solver has no table for {where}{game_string}; choose 'human' or an AI "
                             f"(tables are made with: boomboard solve)")
    if spec.lower() == SOLVER:
        return SOLVER
    return spec if kind != HUMAN else HUMAN


def check_limits(spec: str, limits: AgentLimits, models: ModelShelf | None = None) -> None:
    """:class:`AgentLimitError` for an agent ``spec`` past ``limits`` (a
    learned side names one of ``models``), said of ``spec`` as given."""
    built = spec if models is None else models.resolve(spec)
    try:
        limits.check(built)
    except BoomboardError as problem:  # said of the spec as given: the server's paths are its own
        raise AgentLimitError(_without_paths(str(problem), spec, built)) from None


def _without_paths(message: str, spec: str, built: str) -> str:
    """A refusal of the agent ``built`` from ``spec`` (a learned model's name
    resolved to its path), said of ``spec``: a request learns no server path."""
    message = message.replace(built, spec)
    if built != spec:
        name, path = parse_spec(spec)[1]["checkpoint"], parse_spec(built)[1]["checkpoint"]
        message = message.replace(path, f"the model {name!r}")
    return message


class GameService:
    """Creates, loads, plays and saves the web games.

    Every change to a game is saved in the store at once. In memory it keeps
    the ``sessions_kept`` (default :data:`SESSIONS_KEPT`) games used most
    recently, and besides them only games whose AI is thinking (its task
    plays into that very session); a game left out is read back from the
    store on its next request. What a game loses that way is the cascade of
    its last move (not animated again), a failed AI's message (the AI is
    tried again) and its cached analyses."""

    def __init__(self, store: GameStore, workers: int | None = None, processes: bool = True, solver_db=None,
                 limits: AgentLimits | None = None, sessions_kept: int = SESSIONS_KEPT,
                 models: ModelShelf | None = None, watch_grace: float = WATCH_GRACE_SECONDS):
        if isinstance(sessions_kept, bool) or not isinstance(sessions_kept, int) or sessions_kept < 1:
            raise ParameterError(f"sessions_kept must be a positive integer, got {sessions_kept!r}")
        low, high = WATCH_GRACE_RANGE
        if isinstance(watch_grace, bool) or not isinstance(watch_grace, (int, float)) \
                or not low <= watch_grace <= high:
            raise ParameterError(f"watch_grace (boomboard serve --watch-grace) must be {low:g} to {high:g} seconds, "
                                 f"got {watch_grace!r}")
        self.watch_grace = float(watch_grace)
        self.store = store
        self.limits = limits or AgentLimits()
        self.models = models or ModelShelf()  # the learned models a side may name
        # per event loop (a semaphore belongs to one), per client
        self._client_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._client_load: dict[str | None, int] = {}  # a client's calls running or waiting
        self.solver_db = solver_db  # the solver's folder of tables (None: its default)
        self.sessions: OrderedDict[str, Session] = OrderedDict()  # least recently used first
        self._sessions_lock = threading.Lock()  # held for each look at ``sessions``: request threads share it
        self.sessions_kept = sessions_kept
        self._loop: asyncio.AbstractEventLoop | None = None  # the server's event loop, where the AIs' tasks run
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="boomboard-ai")
        # as boomboard serve --workers: bounded by the machine's cores and memory (default 2, or fewer if it holds fewer)
        self._workers = min(DEFAULT_WORKERS, workers_limit()[0]) if workers is None else check_workers(workers)
        self._use_processes = processes
        self._processes: WorkerPool | None = None
        # per event loop: the watched games' share of the workers, all of them but one
        self._watched_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # each game's open event streams, an event each, set on the loop when the game changes (see watch)
        self._streams: dict[str, set[asyncio.Event]] = {}

    # -- the pools ---------------------------------------------------------------
    def _pool(self, cheap: bool) -> Executor | WorkerPool:
        if cheap or not self._use_processes:
            return self._threads
        if self._processes is None:
            self._processes = WorkerPool(self._workers, warm_up=analysis.warm_up,
                                         cpu_seconds=self.limits.time + LOAD_SECONDS,
                                         memory_bytes=WORKER_MEMORY_BYTES)
        return self._processes

    async def run_off_loop(self, function, *args, cheap: bool = False, client: str | None = None,
                           queue: bool = True, watched: bool = False, waited: float = 0.0):
        """Run ``function(*args)`` in a worker; a broken process pool is rebuilt
        once. At most ``limits.per_client`` searching calls of one ``client``
        run at once (cheap ones, in threads, are not counted); the others wait.
        With ``queue=False`` (a request waiting for its answer), a client that
        already has ``QUEUE_FACTOR`` times its share running or waiting gets
        :class:`Busy` instead, and a call that would not start within
        ``limits.queue_wait`` seconds, less the ``waited`` seconds its request
        waited for the server before (in its socket and in the server's queue), :class:`Overloaded`. A
        ``watched`` game's call (no human plays it) is not counted against
        its client: it waits for the watched games' share of the workers,
        then behind every other call. Cancelling the caller drops a call that
        has not started and stops one that has (its worker is killed)."""
        if cheap:
            return await self._run(function, args, cheap)
        if watched:
            async with self._watched_share():
                return await self._run(function, args, cheap, priority=BACKGROUND)
        load = self._client_load.get(client, 0)
        if not queue and load >= QUEUE_FACTOR * self.limits.per_client:
            raise Busy(f"this client has {load} AI moves and analyses running or waiting; the server takes at "
                       f"most {QUEUE_FACTOR * self.limits.per_client} at once from one client "
                       f"(boomboard serve --ai-per-client): try again when they are done")
        deadline = None if queue else self._deadline(function, load, waited)
        by_client = self._client_slots.setdefault(asyncio.get_running_loop(), {})
        slots = by_client.get(client)
        if slots is None:
            slots = by_client[client] = asyncio.Semaphore(self.limits.per_client)
        self._client_load[client] = load + 1
        try:
            if deadline is None:
                async with slots:
                    return await self._run(function, args, cheap)
            try:
                await asyncio.wait_for(slots.acquire(), max(deadline - asyncio.get_running_loop().time(), 0))
            except TimeoutError:
                raise self._overloaded("this client's earlier AI work is still ahead of it") from None
            try:
                return await self._run(function, args, cheap, deadline=deadline)
            finally:
                slots.release()
        finally:
            self._client_load[client] -= 1
            if not self._client_load[client]:  # nothing of this client runs or waits: its slots go too
                del self._client_load[client]
                by_client.pop(client, None)

    def _watched_share(self) -> asyncio.Semaphore:
        """The watched games' share of the workers: all but one, so that a
        person's AI move or analysis always finds a worker that no watched game holds."""
        loop = asyncio.get_running_loop()
        share = self._watched_slots.get(loop)
        if share is None:
            share = self._watched_slots[loop] = asyncio.Semaphore(max(1, self._workers - 1))
        return share

    def _deadline(self, function, client_load: int, waited: float) -> float:
        """When a request's call must have started: ``limits.queue_wait``
        seconds after its request came (it ``waited`` seconds for the server
        before it was worked on), or at once (:class:`Overloaded`) when that
        wait and the work ahead of it would take longer than that. The
        work ahead is only what is queued and running now
        (:meth:`WorkerPool.expected_wait`), and the client's own calls
        waiting for its share (``client_load`` in all), each expected to take
        as long as such calls took lately."""
        since = asyncio.get_running_loop().time() - max(waited, 0.0)
        if not self._use_processes:
            return since + self.limits.queue_wait
        pool = self._pool(cheap=False)
        own_turns = max(client_load + 1 - self.limits.per_client, 0) / self.limits.per_client
        ahead = pool.expected_wait(FOREGROUND) + own_turns * pool.times.expected(call_kind(function))
        if waited + ahead > self.limits.queue_wait:
            raise self._overloaded(f"this request has waited {waited:.1f} s and the AI work queued and running "
                                   f"ahead of it would take about {ahead:.1f} s more", waited + ahead)
        return since + self.limits.queue_wait

    def _overloaded(self, why: str, expected: float | None = None) -> Overloaded:
        wait = self.limits.queue_wait if expected is None else expected
        retry_after = min(MOST_RETRY_AFTER, max(1, math.ceil(wait)))
        return Overloaded(f"the server's AI workers are busy ({why}); it sheds AI work that cannot start within "
                          f"{self.limits.queue_wait:g} s (boomboard serve --ai-max-queue-wait): retry in "
                          f"{retry_after} s", retry_after)

    async def _run(self, function, args, cheap: bool, priority: int = FOREGROUND, deadline: float | None = None):
        """Run the call in its pool; one not started by ``deadline`` (the
        event loop's time) is dropped with :class:`Overloaded`."""
        pool = self._pool(cheap)
        if not isinstance(pool, WorkerPool):
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        future = pool.submit(function, *args, priority=priority)
        waiting = asyncio.wrap_future(future)
        try:
            if deadline is not None:
                try:
                    return await asyncio.wait_for(asyncio.shield(waiting),
                                                  max(deadline - asyncio.get_running_loop().time(), 0))
                except TimeoutError:
                    if future.cancel():  # still queued: shed it; one that has started is waited for
                        raise self._overloaded("every worker was taken for longer than the wait") from None
            return await waiting
        except asyncio.CancelledError:
            # Nobody reads this call's outcome now: its future is cancelled with the caller, so that
            # the stopped call's CancelledError (set once its worker is killed) is not logged as never retrieved.
            waiting.cancel()
            pool.stop(future)  # the game was resigned, undone or closed: its worker is freed now
            raise

    def warm_up(self) -> None:
        """Start the worker processes now and load the compiled code in each,
        in the background, so that the first AI move is quick."""
        if self._use_processes:
            self._pool(cheap=False)

    def close(self) -> None:
        """Stop at once: cancel every AI task and kill the worker processes
        (a search in progress is not waited for; its game resumes at the next start)."""
        with self._sessions_lock:
            sessions = list(self.sessions.values())
        for session in sessions:
            if session.task is not None:
                session.task.cancel()
        self._threads.shutdown(wait=False, cancel_futures=True)
        pool, self._processes = self._processes, None
        if pool is not None:
            pool.close()

    # -- games ----------------------------------------------------------------------
    async def create(self, game_string: str, params: dict, players: list[str], position: str | None = None,
                     pace: float | None = None, seed: int | None = None, client: str | None = None,
                     owner: str | None = None) -> Session:
        """A new game, stored; ``owner``: the hash of its owner's token (:func:`~boomboard.web.store.owner_hash`)."""
        if not isinstance(params or {}, dict):
            raise ParameterError("'params' must be an object of the game's parameters")
        game = load_game(game_string, **(params or {}))
        require_capability(game, PLAY, "the web app")
        if not isinstance(players, list) or len(players) != 2:
            raise ParameterError("'players' must list two sides, e.g. [\"human\", \"random\"]")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]):
            raise ParameterError(f"'seed' must be an integer from -2**63 to 2**63-1, got {seed!r:.40}")
        state = game.new_initial_state() if not position else game.state_from_notation(position)
        sides = [check_side(spec, str(game), position or None, self.solver_db, self.limits, self.models)
                 for spec in players]
        if pace is None:
            pace = 0.6 if HUMAN not in sides else 0.0
        if not 0 <= pace <= 10:
            raise ParameterError(f"'pace' is the least seconds between AI moves, 0..10; got {pace}")
        record = StoredGame(secrets.token_hex(6), str(game), sides, [], position or None,
                            seed=random.randrange(2**31) if seed is None else int(seed), pace=float(pace),
                            finished=state.is_terminal(), owner=owner)
        session = Session(record, state, client=client, checked=self.store.generation())
        await asyncio.get_running_loop().run_in_executor(self._threads, self.store.add, record)
        return self._keep(session)

    def get(self, game_id: str) -> Session:
        """The game, as stored: a copy held here is read back first if another
        server on the same database has changed it."""
        with self._sessions_lock:
            session = self.sessions.get(game_id)
            if session is not None:
                self.sessions.move_to_end(game_id)
        if session is not None:
            with session.lock:
                self._refresh(session)
            session.seen = time.monotonic()
            return session
        generation = self.store.generation()  # before the read: a write after it is seen by the next check
        record = self.store.load(game_id)
        if record is None:
            raise NotFound(f"no game with id {game_id!r}")
        state, moves = replayed(record)
        return self._keep(Session(record, state, moves, checked=generation))

    def _refresh(self, session: Session) -> None:
        """Read ``session``'s game back if another server has stored a newer
        version of it (its lock held)."""
        generation = self.store.generation()
        if generation != session.checked:
            if self.store.version(session.record.id) != session.record.version:
                self._reload(session)
            session.checked = generation

    def _reload(self, session: Session) -> None:
        """Make ``session`` the game as stored now (another server played it),
        its AI stopped and started again from there (its lock held)."""
        record = self.store.load(session.record.id)
        self._on_loop(self._stop, session)
        if record is None:
            with self._sessions_lock:
                self.sessions.pop(session.record.id, None)
            raise NotFound(f"no game with id {session.record.id!r}")
        session.state, session.moves = replayed(record)
        session.record = record
        session.last_steps, session.error = [], ""
        self._on_loop(self._drive, session)
        self._changed(session.record.id)

    def _commit(self, session: Session, record: StoredGame) -> None:
        """Store ``record`` as ``session``'s game, based on the version the
        session holds (its lock held). Raises :class:`Conflict` (the session
        reloaded) if another server stored the game since,
        :class:`StoreUnavailable` if the database refuses the write; either
        way the game is as it was."""
        try:
            self.store.save(record)
        except StaleGame:
            self._reload(session)
            raise Conflict("another server using the same database changed this game since this one read it: "
                           "nothing was played here; the game is now shown as stored, look again and retry") from None

    def _keep(self, session: Session) -> Session:
        """Hold ``session`` in memory and start its AI if one is to move; then
        forget the games older than the ``sessions_kept`` used most recently,
        but those whose AI is thinking (each is in the store already).
        Returns the session held: another thread's copy of the game, where it
        read the game first."""
        with self._sessions_lock:
            held = self.sessions.get(session.record.id)
            if held is not None:
                self.sessions.move_to_end(session.record.id)
                return held
            self.sessions[session.record.id] = session
            if len(self.sessions) > self.sessions_kept:
                older = list(self.sessions.items())[:-self.sessions_kept]
                for game_id, kept in older:
                    if not kept.thinking:
                        del self.sessions[game_id]
        self._on_loop(self._drive, session)
        return session

    def _on_loop(self, callback, *args) -> None:
        """``callback(*args)`` on the server's event loop, where the AIs'
        tasks live: at once when called there, else as soon as the loop is
        free (a change made in a request thread); in order, either way."""
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:  # a request thread
            if self._loop is not None and not self._loop.is_closed():
                self._loop.call_soon_threadsafe(callback, *args)
            return
        callback(*args)

    def resume_all(self) -> int:
        """Load every game in progress (after a restart) and restart its AI;
        returns how many. An abandoned game (no move for
        :data:`~boomboard.web.store.ABANDONED_AFTER_SECONDS`) stays stored
        until someone opens it. Called on the server's event loop as it
        starts: the loop where the AIs' tasks of every later game start too."""
        self._loop = asyncio.get_running_loop()
        count = 0
        for record in self.store.recent(limit=10_000, status="playing"):
            if record.id not in self.sessions:
                try:
                    self.get(record.id)
                    count += 1
                except BoomboardError:  # a game whose rules changed since: leave it stored
                    continue
        return count

    def play(self, game_id: str, move: str | int | None) -> Session:
        """A human's move, as notation text or an action id."""
        session = self.get(game_id)
        with session.lock:
            if session.over:
                raise Conflict(f"the game is over ({session.outcome.describe(session.state.game.player_names)})")
            if session.side_to_move() != HUMAN:
                raise Conflict(f"it is {session.side_to_move()}'s turn, not a human's")
            state = session.state
            if isinstance(move, bool) or move is None or not isinstance(move, (int, str)):
                raise IllegalActionError("send 'move' as the move's notation (text) or its action id (integer)")
            action = state.string_to_action(move) if isinstance(move, str) else int(move)
            if action not in state.legal_actions():
                state.clone().apply_action(action)  # raises IllegalActionError with the legal moves
            self._apply(session, action)
        self._on_loop(self._drive, session)
        self._changed(game_id)
        return session

    def undo(self, game_id: str) -> Session:
        """Take back moves until a human is to move again (at least one move)."""
        session = self.get(game_id)
        with session.lock:
            record, state = session.record, session.state.clone()
            if not record.actions:
                raise Conflict("there is no move to take back")
            state.undo(1)
            while state.history() and record.players[state.current_player()] != HUMAN and HUMAN in record.players:
                state.undo(1)
            undone = replace(record, actions=state.history(), resigned=None, finished=False)
            self._commit(session, undone)
            self._on_loop(self._stop, session)
            session.moves = session.moves[:len(undone.actions)]
            session.record, session.state, session.last_steps = undone, state, []
        self._on_loop(self._drive, session)
        self._changed(game_id)
        return session

    def stop(self, game_id: str) -> Session:
        """End an AI-vs-AI game where it is, without a result (its search is stopped)."""
        session = self.get(game_id)
        with session.lock:
            self._check_watched(session, "stopped")
            stopped = replace(session.record, finished=True)
            self._commit(session, stopped)
            self._on_loop(self._stop, session)
            session.record, session.paused = stopped, False
        self._changed(game_id)
        return session

    def pause(self, game_id: str, paused: bool) -> Session:
        """Hold an AI-vs-AI game (its search in progress is stopped, and
        searched again on resuming) or let it go on. A pause lasts while this
        server runs, and the game is still stopped if nobody watches it."""
        session = self.get(game_id)
        with session.lock:
            self._check_watched(session, "paused")
            session.paused = bool(paused)
        self._on_loop(self._stop if session.paused else self._drive, session)
        self._changed(game_id)
        return session

    @staticmethod
    def _check_watched(session: Session, what: str) -> None:
        if not session.watched:
            raise Conflict(f"only a game of AI against AI can be {what}; one a human plays ends by resigning")
        if session.over:
            raise Conflict("the game is already over")

    def end_unwatched(self) -> list[str]:
        """Stop every AI-vs-AI game nobody has looked at for ``watch_grace``
        seconds (no poll) and no event stream watches; returns their ids."""
        now = time.monotonic()
        ended = []
        with self._sessions_lock:
            sessions = list(self.sessions.values())
        for session in sessions:
            if session.watched and not session.over and now - session.seen > self.watch_grace \
                    and not self._streams.get(session.record.id):  # an open event stream watches it
                try:
                    self.stop(session.record.id)
                except BoomboardError:  # changed by another server, or the disk refused: looked at next round
                    continue
                ended.append(session.record.id)
        return ended

    async def end_unwatched_games(self) -> None:
        """Run :meth:`end_unwatched` for as long as the server runs (a task of its lifespan)."""
        while True:
            await asyncio.sleep(min(self.watch_grace / 4, 5.0))
            await asyncio.get_running_loop().run_in_executor(self._threads, self.end_unwatched)

    def resign(self, game_id: str, player: int | None = None) -> Session:
        """``player`` (default: the human to move, or the only human) gives up."""
        session = self.get(game_id)
        with session.lock:
            if session.over:
                raise Conflict("the game is already over")
            players = session.record.players
            if player is None:
                humans = [p for p in (0, 1) if players[p] == HUMAN]
                if not humans:
                    raise Conflict("no human plays this game; say which player resigns")
                player = session.state.current_player() if len(humans) == 2 else humans[0]
            if player not in (0, 1):
                raise ParameterError(f"'player' must be 0 or 1, got {player!r}")
            resigned = replace(session.record, resigned=player, finished=True)
            self._commit(session, resigned)
            self._on_loop(self._stop, session)
            session.record = resigned
        self._changed(game_id)
        return session

    def delete(self, game_id: str) -> None:
        """Remove a game from the store and from memory, its AI stopped."""
        with self._sessions_lock:
            session = self.sessions.pop(game_id, None)
        if session is not None:
            self._on_loop(self._stop, session)
        if not self.store.delete(game_id):
            raise NotFound(f"no game with id {game_id!r}")
        self._changed(game_id)

    # -- event streams ---------------------------------------------------------------
    def watch(self, game_id: str) -> asyncio.Event:
        """An event set whenever the game ``game_id`` changes (a move, an undo,
        a resignation, a stop, a pause, its deletion, its AI starting or
        ending its turns, another server's change read back), for an event
        stream, which clears it before each look at the game, so that no
        change between two looks is missed; :meth:`unwatch` when done. On the
        event loop. One an open stream: bounded per client and in all as the
        streams are (``ServerLimits``)."""
        changed = asyncio.Event()
        self._streams.setdefault(game_id, set()).add(changed)
        return changed

    def unwatch(self, game_id: str, changed: asyncio.Event) -> None:
        streams = self._streams.get(game_id)
        if streams is not None:
            streams.discard(changed)
            if not streams:
                del self._streams[game_id]

    def _changed(self, game_id: str) -> None:
        """Tell the game's streams it changed (from a request thread: once the loop is free, after the
        change's own callbacks, such as its AI starting)."""
        self._on_loop(self._notify, game_id)

    def _notify(self, game_id: str) -> None:
        for changed in self._streams.get(game_id, ()):
            changed.set()

    # -- moves --------------------------------------------------------------------
    def _apply(self, session: Session, action: int) -> None:
        """Play ``action`` in ``session`` once it is stored (see :meth:`_commit`; its lock held)."""
        state = session.state.clone()
        words = state.action_to_string(action)
        state.apply_action(action)
        record = replace(session.record, actions=[*session.record.actions, action], finished=state.is_terminal())
        self._commit(session, record)
        session.last_steps = cascade_steps(state.game, session.state.array, action)
        session.moves = [*session.moves, words]
        session.record, session.state = record, state

    def _apply_ai_move(self, session: Session, based_on: StoredGame, action: int) -> bool:
        """Play the AI's ``action`` once stored, if the game is still the
        version ``based_on`` the AI chose it in (``False``: it changed meanwhile)."""
        with session.lock:
            if session.record is not based_on:
                return False
            self._apply(session, action)
        self._changed(session.record.id)
        return True

    def _stop(self, session: Session) -> None:
        if session.task is not None and not session.task.done():
            session.task.cancel()
        session.task = None

    def _drive(self, session: Session) -> None:
        """Start the background player if an AI is to move."""
        side = session.side_to_move()
        if side is None or side == HUMAN or session.thinking or session.paused:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (loading at start-up): the lifespan hook drives later
            return
        session.task = asyncio.get_running_loop().create_task(self._ai_turns(session))
        game_id = session.record.id
        self._notify(game_id)  # it thinks now, and when its turns end (a move stored, a failure shown), no longer
        session.task.add_done_callback(lambda _: self._notify(game_id))

    async def _ai_turns(self, session: Session) -> None:
        loop = asyncio.get_running_loop()
        while (side := session.side_to_move()) not in (None, HUMAN):
            record, state = await loop.run_in_executor(self._threads, self._position, session)
            ply = len(record.actions)
            started = time.monotonic()
            try:
                kind = side if side == SOLVER else parse_spec(side)[0]
                check_limits(side, self.limits, self.models)  # a stored side (an imported one) is held to them too
                action = await self.run_off_loop(analysis.choose_action, state,
                                                 self.models.resolve(self.limits.bounded(side)),
                                                 record.seed * 7919 + ply, self.solver_db,
                                                 cheap=kind in CHEAP_AGENTS, client=session.client,
                                                 watched=session.watched)
            except Exception as problem:  # an agent's failure is shown on the page, not a dead server
                session.error = f"{side} failed to move: {problem}"
                return
            wait = record.pace - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            if session.record is not record:
                return  # the game changed while the AI thought: whatever changed it started the AI afresh
            if not await self._store_ai_move(session, record, side, action):
                return

    @staticmethod
    def _position(session: Session) -> tuple[StoredGame, State]:
        """The game's record and a copy of its state, of one version (a change may be under way in a thread)."""
        with session.lock:
            return session.record, session.state.clone()

    async def _store_ai_move(self, session: Session, record: StoredGame, side: str, action: int) -> bool:
        """Play the AI's ``action``, chosen in the game's version ``record``,
        once it is stored (in a thread: a SQLite write); while the database
        refuses it, say so on the page and try again. ``False``: the game
        changed meanwhile (another server's write was read back, and its AI started afresh)."""
        loop = asyncio.get_running_loop()
        while session.record is record:
            try:
                if not await loop.run_in_executor(self._threads, self._apply_ai_move, session, record, action):
                    return False
            except StoreUnavailable as problem:
                session.error = (f"{side}'s move waits until it can be stored ({problem}); trying again every "
                                 f"{STORE_RETRY_SECONDS:g} s")
                self._notify(session.record.id)
                await asyncio.sleep(STORE_RETRY_SECONDS)
            except Conflict:
                return False
            else:
                session.error = ""
                return True
        return False

    # -- what the page gets ---------------------------------------------------
    def describe(self, session: Session) -> dict:
        return self.describe_copy(*self.copy_of(session))

    @staticmethod
    def copy_of(session: Session) -> tuple[Session, bool]:
        """A copy of ``session`` as it is now, one version of the game
        whatever a thread changes meanwhile (its parts are replaced by each
        change, never changed in place), and whether its AI was thinking then."""
        with session.lock:
            return copy.copy(session), session.thinking

    @staticmethod
    def mark(version: Session, thinking: bool) -> tuple:
        """What :meth:`describe_copy` of ``version`` depends on: two copies with the same mark are described alike."""
        return version.record.id, version.record.version, thinking, version.error, version.paused

    def describe_copy(self, session: Session, thinking: bool) -> dict:
        """The game as the page draws it, from a copy :meth:`copy_of` made."""
        described = describe_state(session.state, session.record.players, session.outcome, session.last_steps,
                                   extra={"id": session.record.id, "thinking": thinking,
                                          "error": session.error, "pace": session.record.pace,
                                          "resigned": session.record.resigned, "paused": session.paused,
                                          "stopped": session.stopped, "watched": session.watched,
                                          "watch_grace": self.watch_grace}, moves=session.moves)
        if session.stopped:  # over, with no result: nobody is to move
            text = f"Stopped after {len(session.record.actions)} plies: no result"
            described.update(outcome={"winner": None, "reason": "stopped", "text": text}, to_move=None, legal=[],
                             caption=text)
        return described


def describe_state(state: State, players: list[str], outcome: Outcome | None, steps: list[dict],
                   extra: dict | None = None, moves: list[str] | None = None) -> dict:
    """Everything the page draws for one position; ``moves``, the history in
    words where the caller keeps it (else the game is replayed to word it)."""
    game = state.game
    names = game.player_names
    history = state.history_strings() if moves is None else moves
    view = state.board_view()
    first_player = state.first_state().player_to_move()
    to_move = None if outcome is not None else state.current_player()
    return {
        "game": str(game),
        "name": game.name,
        "title": game.title,
        "params": game.get_parameters(),
        "players": players,
        "player_names": list(names),
        "layout": layout(game).to_json(),
        "presentation": game.presentation.to_json(),
        "cells": cell_contents(game, state.array),
        "to_move": to_move,
        "caption": view.caption if outcome is None or outcome.reason != Reason.RESIGNATION
        else outcome.describe(names),
        "outcome": None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason.name.lower(),
                                                 "text": outcome.describe(names)},
        "legal": [] if outcome is not None else move_gestures(state),
        "lines": winning_lines(state),
        "moves": [{"ply": i, "player": (first_player + i) % 2, "text": t} for i, t in enumerate(history)],
        "last_steps": steps,
        "ply": len(history),
        "actions": state.history(),
        "start": None if "position" not in json.loads(state.serialize())
        else state.first_state().to_people_notation(),
        "position": state.to_people_notation(),
        **(extra or {}),
    }


def replayed(record: StoredGame) -> tuple[State, list[str]]:
    """A stored game's state and its moves in words, from one replay of its actions."""
    game = load_game(record.game)
    state = game.new_initial_state() if record.position is None else game.state_from_notation(record.position)
    words = []
    for action in record.actions:
        words.append(state.action_to_string(action))
        state.apply_action(action)
    return state, words
