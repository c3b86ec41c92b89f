"""One agent in its own process, driven by the referee over a pipe.

The referee (:mod:`boomboard.arena.referee`) starts :func:`agent_main` in a
child process and exchanges small tuples with it:

========================  ==============================================
referee sends             agent process answers
========================  ==============================================
(start, game, position,   ``("ready", cpu)`` once the agent is built and
player, seed, memory_mb,  warmed up, or ``("fault", kind, message)``;
move_wall, registration)  before it, ``("built", cpu)`` from an agent
                          whose start-up is charged (below); registration:
                          a game registered outside the package, or None
``("go", seconds)``       ``("action", id, cpu)``, ``("malformed", text,
                          cpu)`` or ``("fault", kind, message)``
``("play", id)``          nothing (the agent observes the action)
``("quit",)``             the process ends
========================  ==============================================

``cpu`` is the CPU seconds so far (user + system, all threads) of the
process and of every process it started (an external engine, and whatever
that starts). The process starts a session of its own (``setsid``), so that
the referee can kill its whole process group at the end of the game, and is
a child subreaper, so that a child that detaches stays its descendant (see
:mod:`boomboard.arena.processes`). The memory limit is an
address-space limit (``RLIMIT_AS``) set *after* the agent is built and warmed
up, at the current size plus ``memory_mb``: loading Python, NumPy and numba
is not charged to the agent, what it allocates while playing is, and an
allocation past the limit fails inside the agent (a ``MemoryError``).
An agent with ``start_up_charged`` (a course ``Player``) is charged its
start-up as the course's referee charges it: its module is imported free,
then the memory limit is set and ``("built", cpu)`` sent, and
``Player(colour)`` is built on the clock (the referee counts the CPU from
``built`` on, and stops a start-up that passes the game's budget).
``seconds`` in ``go`` is the CPU time the arena allows this action (or
``None``); it is left on the agent as ``arena_budget`` for agents that can
use it (an external engine is sent ``go time SECONDS``). SIGINT is ignored here: Ctrl-C is the arena's to handle, and it ends its
agent processes itself.
"""

from __future__ import annotations

import numbers
import os
import resource
import signal
import traceback

from .processes import adopt_orphans, kill_descendants

FAULT_EXCEPTION = "exception"
FAULT_MEMORY = "memory"
# what an agent's error may name as its fault (an external engine's end,
# timeout, illegal or unparsable move), besides an exception
AGENT_FAULTS = ("crash", "timeout", "illegal", "malformed")


def cpu_seconds(agent=None) -> float:
    from .processes import tree_cpu_seconds

    usage = resource.getrusage(resource.RUSAGE_SELF)
    tree = tree_cpu_seconds(os.getpid())
    if tree is not None:  # the process tree: ourselves, an engine, its children
        return max(tree, usage.ru_utime + usage.ru_stime)
    extra = getattr(agent, "extra_cpu_seconds", None)
    return usage.ru_utime + usage.ru_stime + (extra() if callable(extra) else 0.0)


def _address_space_bytes() -> int | None:
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[0])
        return pages * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return None


def limit_memory(megabytes: float) -> None:
    """Cap the address space at its current size plus ``megabytes``."""
    current = _address_space_bytes()
    if current is None:
        return
    limit = current + int(megabytes * 2**20)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _describe(error: BaseException) -> str:
    where = traceback.extract_tb(error.__traceback__)
    place = f" (at {where[-1].filename.rsplit('/', 1)[-1]}:{where[-1].lineno})" if where else ""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200] if text else ''}{place}"


def _fault(error: BaseException) -> tuple:
    kind = FAULT_MEMORY if isinstance(error, MemoryError) else FAULT_EXCEPTION
    named = getattr(error, "arena_fault", None)
    if named in AGENT_FAULTS:
        return ("fault", named, str(error)[:300])
    return ("fault", kind, _describe(error))


def agent_main(conn, spec: str) -> None:
    """The agent process's whole life (see the module's description)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.setsid()  # a process group of our own, for the referee to kill whole
    except OSError:
        pass
    adopt_orphans()  # a detached grandchild stays ours (boomboard.arena.processes)
    agent = None
    try:
        message = conn.recv()
        _, game_string, position, player, seed, memory_mb, *rest = message
        move_wall = rest[0] if rest else None
        from ..registry import adopt_registration, load_game
        from .specs import build_agent

        if len(rest) > 1 and rest[1] is not None:
            adopt_registration(*rest[1])

        game = load_game(game_string)
        state = game.new_initial_state() if position is None else game.state_from_notation(position)
        agent = build_agent(spec, seed=seed)
        if move_wall:
            agent.arena_move_wall = move_wall  # an external engine's partial lines fail by it
        charged = bool(getattr(agent, "start_up_charged", False))
        if charged:
            if memory_mb:
                limit_memory(memory_mb)
            conn.send(("built", cpu_seconds(agent)))
        agent.new_game(game, player)
        if memory_mb and not charged:
            limit_memory(memory_mb)
        conn.send(("ready", cpu_seconds(agent)))
    except BaseException as error:  # an agent may raise anything, even SystemExit
        _send_quietly(conn, _fault(error))
        _end(agent)
        return
    try:
        _serve(conn, agent, state)
    finally:
        _end(agent)


def _serve(conn, agent, state) -> None:
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        command = message[0]
        if command == "quit":
            return
        try:
            if command == "play":
                action = message[1]
                agent.observe(state.clone(), action)
                state.apply_action(action)
            elif command == "go":
                agent.arena_budget = message[1] if len(message) > 1 else None
                choice = agent.choose_action(state.clone())
                if isinstance(choice, bool) or not isinstance(choice, numbers.Integral):
                    conn.send(("malformed", repr(choice)[:200], cpu_seconds(agent)))
                else:
                    conn.send(("action", int(choice), cpu_seconds(agent)))
        except BaseException as error:
            _send_quietly(conn, _fault(error))
            return


def _send_quietly(conn, message) -> None:
    try:
        conn.send(message)
    except (OSError, ValueError):
        pass


def _end(agent) -> None:
    _close(agent)
    kill_descendants(os.getpid())  # the orphans we adopted, before we end and init takes them


def _close(agent) -> None:
    close = getattr(agent, "close", None)
    if callable(close):
        try:
            close()
        except Exception:
            pass
