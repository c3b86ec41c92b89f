"""The engine side of the text engine protocol (:mod:`boomboard.arena.engine_protocol`):
``boomboard engine`` answers its commands with our agents.

Until a ``game`` command, the engine plays the default game, ``kaboom``
(4x4), from its start: ``play``, ``go`` and the rest act on it. ``agent
SPEC`` takes any spec the arena takes (:mod:`boomboard.arena.specs`).
"""

from __future__ import annotations

import queue
import threading
from typing import IO

from ..agents import Agent
from ..agents.spec import parse_number
from ..core.errors import BoomboardError, ParameterError
from ..core.game import Game
from ..core.state import State
from ..registry import DEFAULT_GAME, game_names, load_game
from ..search.interruptible import allow_searches, stop_searches
from .engine_protocol import COMMANDS, PROTOCOL_VERSION, from_line, to_line
from .specs import build_agent, check_spec


MAX_GO_SECONDS = 86_400  # a day: a go always answers (the arena's own budgets are far below)


class EngineSession:
    """The engine side's state: a game, a position, and the agent that answers ``go``."""

    def __init__(self, agent_spec: str = "ai", seed: int | None = None):
        self.agent_spec, self.seed = agent_spec, seed
        self.game: Game = load_game(DEFAULT_GAME)  # until a "game" command (docs/how-to/arena.md)
        self.state: State = self.game.new_initial_state()
        self.agent: Agent | None = None

    def handle(self, line: str) -> tuple[bool, str]:
        """``(ok, text)`` for one command line; ``text`` may span several lines."""
        words = line.strip().split(None, 1)
        command, argument = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
        method = getattr(self, "do_" + command.replace("?", "_query"), None)
        if method is None:
            return False, f"unknown command {command!r}; list_commands lists them"
        try:
            return True, method(argument)
        except BoomboardError as error:
            return False, str(error)

    def do_protocol_version(self, _: str) -> str:
        return PROTOCOL_VERSION

    def do_name(self, _: str) -> str:
        return "boomboard"

    def do_version(self, _: str) -> str:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("boomboard")
        except PackageNotFoundError:
            return "unknown"

    def do_list_commands(self, _: str) -> str:
        return "\n".join(COMMANDS)

    def do_games(self, _: str) -> str:
        return " ".join(game_names())

    def do_game(self, argument: str) -> str:
        if not argument:
            raise ParameterError("game needs a name, e.g. 'game kaboom(rows=5)'")
        self.game = load_game(argument)
        self.state = self.game.new_initial_state()
        self.agent = None
        self._ready_agent()  # load and warm up the agent now, not on the clock of the first go
        return str(self.game)

    def do_position(self, argument: str) -> str:
        if not argument:
            raise ParameterError("position needs 'start' or a position in the game's notation")
        if argument.lower() == "start":
            self.state = self.game.new_initial_state()
        else:
            self.state = self.game.state_from_notation(from_line(argument))
        return ""

    def do_position_query(self, _: str) -> str:
        return to_line(self.state.to_notation())

    def do_play(self, argument: str) -> str:
        self.state.play(argument)
        return ""

    def do_undo(self, _: str) -> str:
        self.state.undo(1)
        return ""

    def do_legal(self, _: str) -> str:
        return "; ".join(self.state.action_to_string(a) for a in self.state.legal_actions())

    def do_show(self, _: str) -> str:
        # no empty line inside an answer: an empty line ends it
        return "\n" + "\n".join(line for line in str(self.state).splitlines() if line.strip())

    def do_result(self, _: str) -> str:
        outcome = self.state.outcome()
        return "ongoing" if outcome is None else outcome.describe(self.game.player_names).lower()

    def do_agent(self, argument: str) -> str:
        check_spec(argument)
        previous = self.agent_spec, self.agent
        self.agent_spec, self.agent = argument, None
        try:
            self._ready_agent()
        except BoomboardError:
            self.agent_spec, self.agent = previous
            raise
        return argument

    def do_seed(self, argument: str) -> str:
        try:
            self.seed = parse_number(argument, int)
        except ValueError:
            raise ParameterError(f"seed needs an integer; got {argument!r}") from None
        self.agent = None
        self._ready_agent()
        return argument

    def _ready_agent(self) -> None:
        if self.agent is None:
            self.agent = build_agent(self.agent_spec, seed=self.seed)
            self.agent.new_game(self.game, self.state.player_to_move())

    def do_quit(self, _: str) -> str:
        return "bye"

    def do_go(self, argument: str) -> str:
        if self.state.is_terminal():
            raise ParameterError(f"the game is over ({self.do_result('')}); no move to make")
        seconds = _parse_go(argument)
        self._ready_agent()
        target = getattr(self.agent, "delegate", None) or self.agent
        timed = seconds is not None and hasattr(target, "set_move_time")
        if timed:  # this move's time: the agent's own time per move is back for the next go
            kept = target.move_time
            target.set_move_time(seconds)
        try:
            action = self.agent.choose_action(self.state.clone())
        finally:
            if timed:
                target.set_move_time(kept)
        move = self.state.action_to_string(action)
        self.state.apply_action(action)
        return move


def _parse_go(argument: str) -> float | None:
    words = argument.split()
    if not words:
        return None
    if len(words) == 2 and words[0].lower() == "time":
        try:  # ASCII only (float() takes other scripts' digits)
            seconds = float(words[1]) if words[1].isascii() else -1.0
        except ValueError:
            seconds = -1.0
        if 0 < seconds <= MAX_GO_SECONDS:  # not inf, nor nan: a go always answers
            return seconds
        raise ParameterError(f"expected 'go time SECONDS' with SECONDS above 0 and at most {MAX_GO_SECONDS:,}; "
                             f"got {words[1][:40]!r}")
    raise ParameterError(f"expected 'go' or 'go time SECONDS'; got 'go {argument[:40]}'")


def serve(stdin: IO[str], stdout: IO[str], agent_spec: str = "ai", seed: int | None = None) -> None:
    """Answer commands from ``stdin`` until ``quit`` or the end of input.

    The input is read ahead on a thread of its own. Once it has ended, its
    last command, if a ``go``, answers at once with the best move it has
    (the program driving the engine has gone, or a script ended there), as
    a UCI engine does at the end of its input; every earlier command is
    answered in full (:func:`boomboard.search.interruptible.stop_searches`;
    only where ``serve`` runs on the main thread, whose searches it can stop)."""
    session = EngineSession(agent_spec, seed)
    feed = _Feed(stdin, stop_at_the_end=threading.current_thread() is threading.main_thread())
    try:
        while (line := feed.next_line()) is not None:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            ok, text = session.handle(line)
            stdout.write(("= " if ok else "? ") + text + "\n\n" if text else ("=\n\n" if ok else "?\n\n"))
            stdout.flush()
            if ok and line.strip().lower() == "quit":
                return
    finally:
        if feed.stop_at_the_end:
            allow_searches()


class _Feed:
    """``stdin``'s lines, read ahead on a thread; with ``stop_at_the_end``,
    the searches of the last line's command are cut short once the input has
    ended (whichever of the two threads comes second sees the other's step)."""

    def __init__(self, stdin: IO[str], stop_at_the_end: bool):
        self.stdin, self.stop_at_the_end = stdin, stop_at_the_end
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.read = self.taken = 0
        self.ended = False
        threading.Thread(target=self._read, name="engine input", daemon=True).start()

    def next_line(self) -> str | None:
        line = self.lines.get()
        if line is not None:
            self.taken += 1
            self._stop_if_last()
        return line

    def _read(self) -> None:
        try:
            for line in self.stdin:
                self.read += 1
                self.lines.put(line)
        except (OSError, ValueError):  # the input broke or was closed under us: its end as well
            pass
        self.ended = True
        self._stop_if_last()
        self.lines.put(None)

    def _stop_if_last(self) -> None:
        if self.stop_at_the_end and self.ended and self.taken == self.read:
            stop_searches()
