"""The boomboard text engine protocol, for every game (in the spirit of GTP and UCI).

A program speaks it over standard input and output, one command per line.
Every answer starts with ``=`` (success) or ``?`` (an error and why) and
ends with an empty line, as in GTP; an answer can span several lines
(``show``). Moves and positions are the game's own notation; a position
that takes several lines (a Jump61 ``dump``) is written on one line with
``|`` between its lines.

==============================  ==================================================
command                         answer
==============================  ==================================================
``protocol_version``            ``= 1``
``name`` / ``version``          the engine's name / version
``list_commands``               the commands, one per line
``games``                       the games, separated by spaces
``game NAME[(k=v,...)]``        chooses the game and variant; the start position
``position start|NOTATION``     sets the position
``play MOVE``                   plays a move for the side to move
``go [time SECONDS]``           the engine's move for the side to move, played
``undo``                        takes back the last move
``legal``                       the legal moves, separated by ``;``
``position?``                   the position's notation
``show``                        the board, drawn in text
``result``                      ``ongoing``, ``x wins: ...`` or ``tie: ...``
``agent SPEC`` / ``seed N``     which boomboard agent answers ``go``; its seed
``quit``                        ``= bye``, and the program ends
==============================  ==================================================

:func:`boomboard.arena.engine_session.serve` is the engine side
(``boomboard engine``: our agents, driven by any tool); :class:`EngineAgent`
here is the other side (``engine:COMMAND`` in the arena: any program that
speaks the protocol, in any language, plays). The engine side builds its
agents from specs (:mod:`boomboard.arena.specs`), which build an
``EngineAgent`` for ``engine:COMMAND``: so the two sides live in two modules.
"""

from __future__ import annotations

import os
import select
import shlex
import subprocess
import time

from ..agents import Agent
from ..core.errors import BoomboardError, IllegalActionError, NotationError
from ..core.game import Game
from ..core.state import State

PROTOCOL_VERSION = "1"
COMMANDS = ("protocol_version", "name", "version", "list_commands", "games", "game", "position", "play", "go",
            "undo", "legal", "position?", "show", "result", "agent", "seed", "quit")


def to_line(notation: str) -> str:
    return " | ".join(notation.splitlines()) if "\n" in notation else notation


def from_line(text: str) -> str:
    return "\n".join(part.strip() for part in text.split("|")) if "|" in text else text


class EngineError(BoomboardError, RuntimeError):
    """An external engine answered with an error, or stopped answering.

    ``arena_fault`` is the arena's name for the fault when it is more precise
    than an exception: ``crash`` (the engine ended), ``timeout``, ``illegal``
    or ``malformed``."""

    arena_fault: str | None = None

    def __init__(self, message: str, arena_fault: str | None = None):
        super().__init__(message)
        self.arena_fault = arena_fault


# Seconds an engine has to answer: the first commands of a game (it may load
# and warm up its own agent then), any other command but ``go``, and ``go``
# without a budget. A line begun but not ended is an error after
# ``PARTIAL_LINE_SECONDS`` of silence (the arena's ``--move-wall`` when set).
STARTUP_ANSWER_SECONDS = 60.0
ANSWER_SECONDS = 10.0
GO_SECONDS = 600.0
PARTIAL_LINE_SECONDS = 10.0
_MAX_ANSWER_BYTES = 1 << 20


class EngineAgent(Agent):
    """An external program speaking the protocol, as an agent: ``engine:COMMAND``.

    The program is started in the agent's process at each new game and sent
    ``game``, ``seed`` and ``position``; each action played is sent as
    ``play``, and ``go`` asks for a move (``go time SECONDS`` under an arena
    CPU budget; ``go`` plays it on the engine's board, so it is not sent back).
    """

    name = "engine"

    def __init__(self, command: str, seed: int | None = None):
        super().__init__(seed)
        self.command = shlex.split(command)
        self.process: subprocess.Popen | None = None
        self._played_by_go: int | None = None
        self._synced = False
        self._buffer = b""

    def new_game(self, game: Game, player: int) -> None:
        super().new_game(game, player)
        self.close()
        try:
            # in the agent's process group, so that the arena's kill of the
            # group at the end of a game reaches the engine and its children
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        except (OSError, ValueError) as problem:
            raise EngineError(f"cannot start the engine {shlex.join(self.command)!r}: {problem}") from None
        self._synced, self._played_by_go, self._buffer = False, None, b""
        try:
            self.ask(f"game {game}", STARTUP_ANSWER_SECONDS)
            if self.seed is not None:
                self.ask(f"seed {self.seed}", STARTUP_ANSWER_SECONDS)
        except EngineError:
            self.close()
            raise

    def _sync(self, state: State) -> None:
        """Send the game's first position and moves so far, once (the arena may
        start from a position of its own)."""
        if self._synced:
            return
        self._synced = True
        first = state.first_state()
        if first != state.game.new_initial_state():
            self.ask(f"position {to_line(first.to_notation())}")
        for word in state.history_strings():
            self.ask(f"play {word}")

    def ask(self, command: str, seconds: float | None = ANSWER_SECONDS) -> str:
        """Send ``command`` and return the answer's text; :class:`EngineError` if
        the engine refuses it, ends, or does not answer within ``seconds``."""
        if self.process is None or self.process.poll() is not None:
            raise EngineError(f"the engine is not running (exit code {self.process and self.process.returncode})",
                              "crash")
        try:
            data = memoryview((command + "\n").encode())
            while data:  # an unbuffered pipe may take part of a long line at a time
                data = data[self.process.stdin.write(data) or 0:]
        except (BrokenPipeError, OSError):
            raise EngineError(f"the engine ended before {command!r}", "crash") from None
        lines = self._read_answer(command, seconds)
        if not lines or lines[0][:1] not in "=?":
            raise EngineError(f"the engine answered {command!r} with {lines!r}; expected '= ...' or '? ...'")
        text = "\n".join(lines)[1:].strip()
        if lines[0].startswith("?"):
            raise EngineError(f"the engine refused {command!r}: {text}")
        return text

    def _read_answer(self, command: str, seconds: float | None) -> list[str]:
        """The answer's lines, up to the empty line that ends it, read without
        blocking past ``seconds`` (nor past the partial-line limit)."""
        partial_seconds = getattr(self, "arena_move_wall", None) or PARTIAL_LINE_SECONDS
        now = time.monotonic()
        deadline = None if seconds is None else now + seconds
        last_byte = now
        fd = self.process.stdout.fileno()
        lines: list[str] = []
        while True:
            while b"\n" in self._buffer:
                raw, _, self._buffer = self._buffer.partition(b"\n")
                line = raw.decode("utf-8", "replace").rstrip("\r")
                if not line.strip():
                    return lines
                lines.append(line)
            now = time.monotonic()
            if self._buffer and now - last_byte >= partial_seconds:
                self._kill()
                raise EngineError(f"the engine began an answer to {command!r} but did not end its line within "
                                  f"{partial_seconds:g} s", "timeout")
            if deadline is not None and now >= deadline:
                self._kill()
                raise EngineError(f"the engine did not answer {command!r} within {seconds:g} s", "timeout")
            waits = [partial_seconds - (now - last_byte)] if self._buffer else []
            if deadline is not None:
                waits.append(deadline - now)
            ready, _, _ = select.select([fd], [], [], max(min(waits), 0.0) if waits else None)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EngineError(f"the engine ended while answering {command!r}", "crash")
            self._buffer += chunk
            last_byte = time.monotonic()
            if len(self._buffer) > _MAX_ANSWER_BYTES:
                self._kill()
                raise EngineError(f"the engine's answer to {command!r} runs past {_MAX_ANSWER_BYTES} bytes",
                                  "malformed")

    def observe(self, state: State, action: int) -> None:
        if self._played_by_go == action:
            self._played_by_go = None
            return
        self._sync(state)
        self.ask(f"play {state.action_to_string(action)}")

    def choose_action(self, state: State) -> int:
        self._sync(state)
        budget = getattr(self, "arena_budget", None)
        # a little under the arena's budget: the engine's clock and ours differ
        move = self.ask("go" if budget is None else f"go time {max(budget * 0.8, 0.001):.3f}",
                        GO_SECONDS if budget is None else 3 * budget + ANSWER_SECONDS)
        try:
            action = state.string_to_action(move)
        except IllegalActionError as error:
            raise EngineError(f"the engine played {move[:80]!r}: {error}", "illegal") from None
        except NotationError as error:
            raise EngineError(f"the engine answered go with {move[:80]!r}: {error}", "malformed") from None
        self._played_by_go = action
        return action

    def extra_cpu_seconds(self) -> float:
        """The engine process's CPU time (Linux), counted as the agent's."""
        if self.process is None:
            return 0.0
        try:
            import os

            with open(f"/proc/{self.process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    def _kill(self) -> None:
        """Kill the engine and every process it started (that is still its descendant)."""
        if self.process is None:
            return
        from .processes import kill_tree

        kill_tree(self.process.pid)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                try:
                    self.process.stdin.write(b"quit\n")
                    self.process.stdin.flush()
                    self.process.wait(timeout=2)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            if self.process.poll() is None:
                self._kill()
            for pipe in (self.process.stdin, self.process.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass
            self.process = None
