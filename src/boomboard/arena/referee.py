"""The referee: one game between two agents, each in its own process.

The referee keeps the only authoritative state. It asks the agent to move
for an action, checks it, records it, and shows it to both agents. Anything
an agent does wrong loses it the game, with the reason recorded; the
referee itself only ever returns a result:

* ``exception``: the agent raised (its type, message and line are kept);
* ``crash``: its process ended (exit code or signal);
* ``memory``: it allocated past the memory limit (or its process tree, an
  external engine's included, grew that much past its size at start-up);
* ``time``: it used more CPU than a move's or the game's budget (counted
  over its whole process tree);
* ``timeout``: no answer within the wall-clock limit (the process is killed:
  this is what catches a hang or a sleep);
* ``illegal``/``malformed``: an action id not legal here, or not an integer.

Wall limits default to generous multiples of the CPU budgets, so a loaded
machine does not forfeit agents that keep to their CPU time.

Each agent process leads a process group of its own; at the end of every
game the referee kills the group and every descendant it can see, so no
engine, nor any process an engine started, outlives its game.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Protocol

from ..core.state import State
from ..registry import load_game, outside_registration
from . import processes
from .agent_process import AGENT_FAULTS, FAULT_MEMORY, agent_main

# Seconds allowed to start an agent process and build and warm up its agent
# (loading compiled code from numba's cache, starting an external engine).
STARTUP_SECONDS = 60.0
_POLL = 0.05
# How far past its budget an agent may run before it is stopped (its own
# report, to the microsecond, decides the cases in between).
_CPU_GRACE = 0.05


@dataclass(frozen=True)
class Limits:
    """What each agent may use: CPU seconds per move and per game, wall-clock
    seconds per move and per game, and megabytes of memory (``None``: no limit).
    Without a wall limit per move, one follows from the CPU budgets
    (:meth:`move_wall_limit`), and at most ``default_move_wall``."""

    move_cpu: float | None = None
    game_cpu: float | None = None
    move_wall: float | None = None
    game_wall: float | None = None
    memory_mb: float | None = None
    default_move_wall: float = 120.0

    def move_wall_limit(self, wall_left: float | None, cpu_left: float | None) -> float:
        limits = [self.default_move_wall if self.move_wall is None else self.move_wall]
        if self.move_wall is None and self.move_cpu is not None:
            limits.append(3 * self.move_cpu + 2.0)
        if self.move_wall is None and cpu_left is not None:
            limits.append(3 * cpu_left + 2.0)
        if wall_left is not None:
            limits.append(wall_left)
        return max(min(limits), 0.0)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def course(cls) -> Limits:
        """The Expendibots course's limits: 60 s of CPU and 100 MB per player per game."""
        return cls(game_cpu=60.0, memory_mb=100.0)


class Recorder(Protocol):
    """Where a game goes as it is played (the store, or memory for Ray)."""

    def action(self, ply: int, action: int, seconds: float, cpu: float) -> None: ...


@dataclass
class GameResult:
    winner: int | None
    reason: str
    actions: list[int]
    times: list[float]
    cpu: list[float]
    # each player's CPU seconds charged in the game: a course Player's
    # construction (``start_up_cpu``) and every action (``total_cpu``, the
    # start-up included), as far as the game got
    start_up_cpu: list[float] = field(default_factory=lambda: [0.0, 0.0])
    total_cpu: list[float] = field(default_factory=lambda: [0.0, 0.0])


class _Forfeit(Exception):
    def __init__(self, player: int, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.player, self.kind, self.detail = player, kind, detail


class Stopped(Exception):
    """The arena was asked to stop (Ctrl-C) while the game was played."""


def _context():
    # forkserver: agent processes fork from a clean, single-threaded server with
    # boomboard already imported (fast), never from the arena's threads.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["boomboard.arena.preload", "boomboard.arena.agent_process",
                                    "boomboard.agents"])  # preload first: it ignores SIGINT
    return context


_START_LOCK = threading.Lock()


def _start_without_main(process) -> None:
    """Start ``process`` without re-running the caller's ``__main__`` in it.

    multiprocessing normally imports the main script again in each child (so
    functions defined there can run); the agent process runs boomboard code
    only, and re-running a script without an ``if __name__ == "__main__"``
    guard, or one read from standard input or a notebook, would fail or
    start the whole arena again. So the main module is left out of what the
    child is told to prepare.
    """
    from multiprocessing import spawn

    original = spawn.get_preparation_data

    def without_main(name):
        data = original(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        return data

    with _START_LOCK:
        spawn.get_preparation_data = without_main
        try:
            process.start()
        finally:
            spawn.get_preparation_data = original


class _AgentProcess:
    def __init__(self, context, spec: str, player: int):
        self.spec, self.player = spec, player
        self.conn, child = context.Pipe()
        self.process = context.Process(target=agent_main, args=(child, spec), daemon=True,
                                       name=f"boomboard-agent-{player}")
        _start_without_main(self.process)
        self.enclosure = processes.Enclosure(self.process.pid)  # before it starts anything
        child.close()
        self.cpu = self.start_cpu = 0.0
        self.building = False  # building a course Player, on the clock
        self.pgid: int | None = None  # the agent's own process group, once it has made it
        self.memory_limit: int | None = None  # bytes its descendants may hold together
        self.seen: dict[int, float | None] = {}  # every descendant seen (pid: start time), to kill at the end

    def send(self, message) -> None:
        try:
            self.conn.send(message)
        except (OSError, ValueError):
            raise _Forfeit(self.player, "crash", self._exit_text()) from None

    def process_cpu(self) -> float | None:
        """The CPU seconds of the agent's process tree as the system counts
        them (Linux), or ``None``."""
        return processes.tree_cpu_seconds(self.process.pid)

    def note_ready(self, memory_mb: float | None) -> None:
        """Learn the agent's process group, and what its descendants (an
        external engine) hold once started: the memory limit is on top of that."""
        try:
            pgid = os.getpgid(self.process.pid)
            if pgid == self.process.pid:
                self.pgid = pgid
        except OSError:
            pass
        below = self.descendants()
        if memory_mb:
            self.memory_limit = processes.rss_bytes(below) + int(memory_mb * 2**20)

    def descendants(self) -> list[int]:
        below = processes.descendants(self.process.pid)
        for pid in below:
            if pid not in self.seen:
                self.seen[pid] = processes.start_time(pid)
        return below

    def over_memory(self) -> int | None:
        """The bytes the agent's descendants hold, if past their limit."""
        if self.memory_limit is None:
            return None
        held = processes.rss_bytes(self.descendants())
        return held if held > self.memory_limit else None

    def receive(self, seconds: float, stop: threading.Event | None, what: str,
                cpu_budget: tuple[float, str] | None = None):
        """The agent's next message within ``seconds`` of wall clock; with
        ``cpu_budget`` = (seconds, description), the agent is also stopped the
        moment its CPU time since the call passes that budget."""
        deadline = time.monotonic() + seconds
        cpu_start = self.process_cpu() if cpu_budget is not None else None
        while True:
            left = deadline - time.monotonic()
            if stop is not None and stop.is_set():
                raise Stopped()
            held = self.over_memory()  # first: allocating costs CPU too, and this is the cause
            if held is not None:
                self.kill()
                raise _Forfeit(self.player, "memory", f"allocated past the memory limit (its processes hold "
                                                      f"{held / 2**20:.0f} MB)")
            if cpu_start is not None:
                used = (self.process_cpu() or cpu_start) - cpu_start
                if used > cpu_budget[0] + _CPU_GRACE:
                    self.kill()
                    self.cpu += used  # what it had used when stopped, for the totals
                    raise _Forfeit(self.player, "time", f"{used:.3f} s of CPU {cpu_budget[1]}")
            if left <= 0:
                self.kill()
                raise _Forfeit(self.player, "timeout", f"no {what} within {seconds:.2f} s (wall clock)")
            try:
                if self.conn.poll(min(left, _POLL)):
                    return self.conn.recv()
            except (EOFError, OSError):
                raise _Forfeit(self.player, "crash", self._exit_text()) from None

    def _exit_text(self) -> str:
        self.process.join(timeout=2.0)
        code = self.process.exitcode
        if code is None:
            return "the agent process stopped answering"
        if code < 0:
            import signal

            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"the agent process was killed by {name}"
        return f"the agent process exited with code {code}"

    def kill(self) -> None:
        """Kill the agent's process, its process group and every descendant seen."""
        if self.process.is_alive():
            self.descendants()  # noted before the kill, which hands them to init
        self.enclosure.kill()  # all it started, even a detached (setsid) child
        if self.process.is_alive():
            self.process.kill()
        if self.pgid is not None:
            processes.kill_group(self.pgid)
        for pid, started in self.seen.items():  # those still alive (not a new process with the pid)
            if started is not None and processes.start_time(pid) == started:
                processes.kill_tree(pid)
        self.process.join(timeout=5.0)

    def close(self) -> None:
        try:
            if self.process.is_alive():
                self.conn.send(("quit",))
                self.process.join(timeout=1.0)
        except (OSError, ValueError):
            pass
        self.kill()
        self.conn.close()


def play_game(game_string: str, specs: list[str], limits: Limits, seed: int | None = None,
              recorder: Recorder | None = None, stop: threading.Event | None = None,
              position: str | None = None, on_action=None) -> GameResult:
    """Play one game between the agents ``specs`` (player 0 first) and return
    its result; raises :class:`Stopped` only if ``stop`` is set meanwhile.

    ``on_action(state, action, player, seconds)`` is called after each action
    with the state it led to (the log of ``boomboard expendibots referee``).
    """
    game = load_game(game_string)
    state: State = game.new_initial_state() if position is None else game.state_from_notation(position)
    context = _context()
    agents = [_AgentProcess(context, spec, player) for player, spec in enumerate(specs)]
    result = GameResult(None, "", [], [], [])
    names = game.player_names
    try:
        try:
            registration = outside_registration(game.name)  # a game registered here is registered there too
            for agent in agents:
                agent.send(("start", str(game), position, agent.player,
                            None if seed is None else seed * 2 + agent.player, limits.memory_mb,
                            limits.move_wall, registration))
            for agent in agents:
                _start(agent, limits, stop)
                result.start_up_cpu[agent.player] = agent.cpu - agent.start_cpu
                agent.note_ready(limits.memory_mb)
            _play(state, agents, limits, result, recorder, stop, on_action)
            outcome = state.outcome()
            result.winner = outcome.winner
            result.reason = outcome.describe(names)
        except _Forfeit as forfeit:
            result.winner = 1 - forfeit.player
            result.reason = f"{names[forfeit.player]} ({specs[forfeit.player]}) forfeits: {forfeit}"
        for agent in agents:
            result.total_cpu[agent.player] = agent.cpu - agent.start_cpu
            if agent.building:  # stopped while building the player: all of it was start-up
                result.start_up_cpu[agent.player] = result.total_cpu[agent.player]
    finally:
        for agent in agents:
            agent.close()
    return result


def _start(agent: _AgentProcess, limits: Limits, stop: threading.Event | None) -> None:
    """Wait for the agent to be ready. An agent whose start-up is charged
    (a course Player's construction, after the free import) reports ``built``
    first; the CPU from there on counts against the game's budget, and a
    start-up that passes the budget forfeits."""
    message = agent.receive(STARTUP_SECONDS, stop, "start-up")
    charged = message[0] == "built"
    if charged:
        agent.cpu = agent.start_cpu = message[1]
        agent.building = True
        budget = None if limits.game_cpu is None else (
            limits.game_cpu, f"building the player, past the game's budget of {limits.game_cpu:g} s")
        message = agent.receive(STARTUP_SECONDS, stop, "start-up", budget)
    if message[0] != "ready":
        _raise_fault(agent, message, "while starting")
    agent.cpu = message[1]
    if not charged:
        agent.start_cpu = message[1]
        return
    used = agent.cpu - agent.start_cpu
    if limits.game_cpu is not None and used > limits.game_cpu:
        raise _Forfeit(agent.player, "time", f"{used:.3f} s of CPU building the player; the game's budget "
                                             f"is {limits.game_cpu:g} s")
    agent.building = False


def _raise_fault(agent: _AgentProcess, message, when: str = "") -> None:
    if message[0] == "fault":
        kind = message[1] if message[1] in (FAULT_MEMORY, *AGENT_FAULTS) else "exception"
        detail = message[2] + (f" {when}" if when else "")
        if kind == "memory":
            detail = f"allocated past the memory limit ({detail})"
        raise _Forfeit(agent.player, kind, detail)
    raise _Forfeit(agent.player, "crash", f"unexpected message {message!r}")


def _cpu_budget(limits: Limits, game_cpu_left: float | None) -> tuple[float, str] | None:
    if limits.move_cpu is not None and (game_cpu_left is None or limits.move_cpu <= game_cpu_left):
        return limits.move_cpu, f"for one action; the budget is {limits.move_cpu:g} s"
    if game_cpu_left is not None:
        return game_cpu_left, f"past the game's budget of {limits.game_cpu:g} s"
    return None


def _play(state: State, agents: list[_AgentProcess], limits: Limits, result: GameResult,
          recorder: Recorder | None, stop: threading.Event | None, on_action) -> None:
    game_wall_used = [0.0, 0.0]
    while not state.is_terminal():
        player = state.current_player()
        agent = agents[player]
        game_cpu_used = agent.cpu - agent.start_cpu
        cpu_left = None if limits.game_cpu is None else limits.game_cpu - game_cpu_used
        wall_left = None if limits.game_wall is None else limits.game_wall - game_wall_used[player]
        wall_limit = limits.move_wall_limit(wall_left, cpu_left)
        began = time.monotonic()
        cpu_budget = _cpu_budget(limits, cpu_left)
        agent.send(("go", None if cpu_budget is None else cpu_budget[0]))
        message = agent.receive(wall_limit, stop, "action", cpu_budget)
        seconds = time.monotonic() - began
        game_wall_used[player] += seconds
        if message[0] not in ("action", "malformed"):
            _raise_fault(agent, message)
        move_cpu = message[2] - agent.cpu
        agent.cpu = message[2]
        if limits.move_cpu is not None and move_cpu > limits.move_cpu:
            raise _Forfeit(player, "time", f"{move_cpu:.3f} s of CPU for one action; the budget is "
                                           f"{limits.move_cpu:g} s")
        if limits.game_cpu is not None and agent.cpu - agent.start_cpu > limits.game_cpu:
            raise _Forfeit(player, "time", f"{agent.cpu - agent.start_cpu:.3f} s of CPU in the game; the budget "
                                           f"is {limits.game_cpu:g} s")
        if message[0] == "malformed":
            raise _Forfeit(player, "malformed", f"the action {message[1]} is not an integer action id")
        action = message[1]
        if action not in state.legal_actions():
            raise _Forfeit(player, "illegal", f"action {action} is not legal here")
        if recorder is not None:
            recorder.action(len(result.actions), action, seconds, move_cpu)
        result.actions.append(action)
        result.times.append(seconds)
        result.cpu.append(move_cpu)
        state.apply_action(action)
        if on_action is not None:
            on_action(state, action, player, seconds)
        for other in agents:  # the last action too, as the course referee does
            try:
                other.send(("play", action))
            except _Forfeit:
                if not state.is_terminal():
                    raise
