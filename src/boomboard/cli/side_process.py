"""An agent of a terminal game in a forked copy of the program, so that
Ctrl-C during its move stops at once.

numba's compiled search never returns to the interpreter until it ends, so
a Ctrl-C while the terminal's own process searches waits for the search (as
long as the move's whole budget). Here the agent lives in a child process
forked at the start of the game: it gets its ``new_game`` there, each move's
``observe`` and ``choose_action`` over a pipe, and keeps its search tables
and random generator between moves as it would in one process. The terminal
only waits on the pipe, which Ctrl-C interrupts; it then kills the child.
The child ignores Ctrl-C (the terminal's to handle). Forking copies the
compiled code already loaded, so the child starts in milliseconds.

Where ``fork`` is missing (Windows), :func:`in_child_if_possible` leaves the
agent in the terminal's process: Ctrl-C there waits for the move.
"""

from __future__ import annotations

import multiprocessing
import signal
import traceback

from ..agents import Agent
from ..core.errors import BoomboardError
from ..core.game import Game
from ..core.state import State


class AgentProcessError(BoomboardError):
    """The process of an agent ended without an answer."""


class AgentInChild:
    """``agent``, playing ``player`` of ``game``, in a forked child process."""

    def __init__(self, agent: Agent, game: Game, player: int):
        context = multiprocessing.get_context("fork")
        self.connection, child_end = context.Pipe()
        self.last_thinking = ""
        # Blocked while forking: a Ctrl-C then waits for the terminal (it is
        # pending there) instead of reaching the child before it ignores Ctrl-C.
        self.process = context.Process(target=_serve, args=(child_end, agent, game, player), daemon=True,
                                       name=f"boomboard {agent.name} agent")
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.process.start()
        finally:
            child_end.close()
            try:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a pending Ctrl-C is raised here
            except KeyboardInterrupt:
                self.close()
                raise

    def observe(self, state: State, action: int) -> None:
        self._send(("observe", state, action))

    def choose_action(self, state: State) -> int:
        """The agent's move; Ctrl-C while it searches kills the child at once
        and raises ``KeyboardInterrupt`` here."""
        try:
            self._send(("choose", state))
            answer = self.connection.recv()
        except KeyboardInterrupt:
            self.close()
            raise
        except (EOFError, OSError):
            self.process.join(timeout=5)
            raise AgentProcessError(f"the {self.process.name} process ended during its move "
                                    f"(exit code {self.process.exitcode})") from None
        if answer[0] == "error":
            raise BoomboardError(answer[1]) if answer[2] else AgentProcessError(answer[1])
        _, action, self.last_thinking = answer
        return action

    def _send(self, request: tuple) -> None:
        try:
            self.connection.send(request)
        except BrokenPipeError:  # the child ended: its last words, or its end, are read with the answer
            pass

    def close(self) -> None:
        """End the child (at once: its search's work is of no more use)."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.connection.close()


def in_child_if_possible(agent: Agent, game: Game, player: int) -> AgentInChild | None:
    """``agent`` in a child process, or ``None`` where this system cannot fork."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    return AgentInChild(agent, game, player)


def _serve(connection, agent: Agent, game: Game, player: int) -> None:
    """The child: answers the terminal's requests until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        agent.new_game(game, player)
        while True:
            request = connection.recv()
            if request[0] == "observe":
                agent.observe(request[1], request[2])
            else:
                action = agent.choose_action(request[1])
                connection.send(("action", int(action), getattr(agent, "last_thinking", "")))
    except EOFError:  # the game ended and the terminal closed the pipe
        return
    except BoomboardError as error:  # the terminal prints it as it would its own
        connection.send(("error", str(error), True))
    except Exception:
        connection.send(("error", f"the agent failed:\n{traceback.format_exc()}", False))
