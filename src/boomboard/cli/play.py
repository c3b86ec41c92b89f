"""Playing a game in the terminal: people and agents, in the game's notation."""

from __future__ import annotations

import dataclasses
import re
import textwrap
import time
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from ..agents import HUMAN, Agent
from ..core.errors import BoomboardError
from ..core.game import Game
from ..core.outcome import Outcome, Reason
from ..core.state import State
from ..core.capabilities import PLAY, require_capability
from .render import player_style, render_board, render_state
from .side_process import in_child_if_possible

HELP = """Commands on your turn:
  <move>           play a move in the game's notation (e.g. {example})
{forms}  moves, ?         list the legal moves
  undo             take back your last move (and the reply to it)
  board            draw the board again
  position         print the position in the game's notation
  history          print the moves so far
  think            show or hide the AI's thinking (depth, score, nodes, time)
  resign           give up this game
  help             this text
  quit             stop playing (also end of input)"""
HELP_INDENT = 19  # where the commands' descriptions start
KEPT_SPACE = "\x00"  # a space textwrap may not break at
QUOTED_MOVE = re.compile(r"(?<![A-Za-z])'[^']*'(?![A-Za-z])")  # 'boom b2', not the ' of referee's
MAX_MOVE_CHARACTERS = 100  # longer than any game's move, spelt out in words


class StopPlaying(Exception):
    """The person asked to quit."""


class TerminalGame:
    """One game in the terminal between ``sides[0]`` and ``sides[1]``.

    A side is an :class:`Agent` or the string ``"human"``. ``read_line`` asks a
    person for a line (it raises ``EOFError`` at the end of input), so tests
    and scripts can drive the loop. Each agent plays in a child process
    (:mod:`boomboard.cli.side_process`), so that Ctrl-C during its move
    stops the game at once; :meth:`run` ends those processes.
    """

    def __init__(self, game: Game, sides: list[Agent | str], console: Console,
                 read_line: Callable[[str], str], state: State | None = None, think: bool = False,
                 animate: bool = False, frame_seconds: float = 0.4):
        self.game = game
        self.think = think
        if animate:
            require_capability(game, PLAY, "--animate (each step of a cascade as a board)")
        self.animate = animate
        self.frame_seconds = frame_seconds
        self.sides = sides
        self.console = console
        self.read_line = read_line
        self.state = state if state is not None else game.new_initial_state()
        self.resigned: int | None = None
        self.players: list = []  # who moves for each side while the game runs: a person, an agent or its process

    def name(self, player: int) -> str:
        return self.game.player_names[player].capitalize()

    def show_board(self) -> None:
        self.console.print(render_state(self.state))

    def show_result(self, outcome: Outcome) -> None:
        """The result in the winner's colour: green would read as "you won" to the person who lost."""
        style = "bold" if outcome.winner is None else "bold " + player_style(self.game.player_names, outcome.winner)
        self.console.print(Text(outcome.describe(self.game.player_names), style=style))

    def move_text(self, action: int) -> str:
        """A move in the game's notation, as people type it and the board labels its cells."""
        return self.state.action_to_string(action)

    def show_cascade(self, before: State, action: int) -> None:
        """The boards between ``before`` and the result of ``action``: the move,
        then each explosion of its cascade (the final board is drawn after)."""
        frames = cascade_frames(before, action)
        for number, (view, lit) in enumerate(frames[:-1], 1):
            caption = f"step {number} of {len(frames)}" + (f": {', '.join(lit)}" if lit else "")
            self.console.print(render_board(dataclasses.replace(view, caption=caption), self.game.player_names))
            if self.frame_seconds:
                time.sleep(self.frame_seconds)

    def run(self) -> Outcome | None:
        """Play to the end; returns the outcome, or ``None`` if the person quit."""
        self.show_board()
        self.players = []
        try:
            for player, side in enumerate(self.sides):
                self.players.append(self._seat(player, side))
            return self._play_out()
        except KeyboardInterrupt:  # at a prompt or during an AI's move (its process is ended already)
            self.console.print("\nGame stopped (Ctrl-C).")
            raise  # the command exits with 130, as after any Ctrl-C
        finally:
            for player in self.players:
                if hasattr(player, "close"):
                    player.close()

    def _seat(self, player: int, side: Agent | str):
        """Who moves for ``player``: ``side`` itself, or the process it plays in."""
        if not isinstance(side, Agent):
            return side
        in_child = in_child_if_possible(side, self.game, player)
        if in_child is None:
            side.new_game(self.game, player)
        return in_child or side

    def _play_out(self) -> Outcome | None:
        try:
            while not self.state.is_terminal():
                player = self.state.current_player()
                if self.sides[player] == HUMAN:
                    action = self.human_turn(player)
                    if action is None:
                        return self.finish_resigned(player)
                else:
                    action = self.players[player].choose_action(self.state.clone())
                    label = Text(f"{self.name(player)} plays ", style=player_style(self.game.player_names, player))
                    self.console.print(label + Text(self.move_text(action), style="bold"))
                    thinking = getattr(self.players[player], "last_thinking", "")
                    if self.think and thinking:
                        self.console.print(f"  ({thinking})", style="dim", markup=False)
                self.play(action)
                self.show_board()
        except StopPlaying:
            self.console.print("Game stopped.")
            return None
        outcome = self.state.outcome()
        self.show_result(outcome)
        return outcome

    def play(self, action: int) -> None:
        for side in self.players:
            if side != HUMAN:
                side.observe(self.state.clone(), action)
        if self.animate:
            self.show_cascade(self.state.clone(), action)
        self.state.apply_action(action)

    def finish_resigned(self, player: int) -> Outcome:
        outcome = Outcome(winner=1 - player, reason=Reason.RESIGNATION, detail=f"{self.name(player)} resigned")
        self.show_result(outcome)
        return outcome

    def human_turn(self, player: int) -> int | None:
        """Read commands until a legal move; ``None`` means the player resigned."""
        while True:
            try:
                line = self.read_line(f"{self.name(player)} to move> ").strip()
            except EOFError:
                raise StopPlaying from None
            command = line.lower()
            if not command:
                continue
            if command in ("quit", "exit"):
                raise StopPlaying
            if command == "resign":
                return None
            if command in ("help", "h"):
                self.console.print(self.help_text(), markup=False)
            elif command in ("moves", "?", "legal"):
                moves = [self.move_text(a) for a in self.state.legal_actions()]
                self.console.print(f"{len(moves)} legal moves: " + ", ".join(moves), markup=False)
            elif command == "board":
                self.show_board()
            elif command in ("position", "fen"):
                self.console.print(self.state.to_people_notation(), markup=False)
            elif command == "history":
                self.console.print(self.history_text(), markup=False)
            elif command == "think":
                self.think = not self.think
                self.console.print(f"AI thinking {'shown' if self.think else 'hidden'}.")
            elif command in ("undo", "takeback"):
                self.undo(player)
            elif len(line) > MAX_MOVE_CHARACTERS:  # a paste gone wrong: not echoed back whole
                self.console.print(Text(f"no move is that long ({len(line):,} characters, beginning "
                                        f"{line[:20]!r}); a move has at most {MAX_MOVE_CHARACTERS}", style="red"))
                self.console.print("Type 'moves' for the legal moves or 'help' for commands.", style="dim")
            else:
                try:
                    return self.state.string_to_action(line)
                except BoomboardError as error:
                    self.console.print(Text(f"{error}", style="red"))
                    self.console.print("Type 'moves' for the legal moves or 'help' for commands.", style="dim")

    def history_text(self) -> str:
        """The moves so far in the game's notation, numbered by turn as in chess
        (``1. 1 b2 b3, 1 g7 g6  2. boom b3``): a move may have spaces in it."""
        first = self.state.first_state().player_to_move()
        texts = ([""] if first == 1 else []) + self.state.history_strings()
        turns = [texts[i:i + 2] for i in range(0, len(texts), 2)]
        return "  ".join(f"{n}. " + ", ".join(t or "..." for t in turn)
                         for n, turn in enumerate(turns, 1)) or "(no moves yet)"

    def help_text(self) -> str:
        legal = self.state.legal_actions()
        examples = list(dict.fromkeys(self.move_text(a) for a in (legal[0], legal[-1])))
        forms = ""
        if self.game.move_forms:
            # a quoted move is never split over two lines: its spaces wrap as one word's letters
            kept = QUOTED_MOVE.sub(lambda quoted: quoted.group(0).replace(" ", KEPT_SPACE), self.game.move_forms)
            indent = " " * HELP_INDENT
            forms = textwrap.fill(kept, width=80, initial_indent=indent, subsequent_indent=indent,
                                  break_on_hyphens=False).replace(KEPT_SPACE, " ") + "\n"
        return HELP.format(example=" or ".join(examples), forms=forms)

    def undo(self, player: int) -> None:
        """Take back this person's last move and every move after it."""
        movers = self._movers()
        if player not in movers:
            self.console.print("None of your moves to undo.", style="yellow")
            return
        last = len(movers) - 1 - movers[::-1].index(player)
        self.state.undo(len(movers) - last)
        self.show_board()

    def _movers(self) -> list[int]:
        """Who played each action of the history."""
        state = self.state.first_state()
        movers = []
        for action in self.state.history():
            movers.append(state.current_player())
            state.apply_action(action)
        return movers


def cascade_frames(before: State, action: int) -> list[tuple]:
    """``(board view, names of the cells lit)`` for each step of ``action``
    from ``before``: the move, then each explosion of its cascade in the
    rules' order; the last frame is the result."""
    from ..web import cascade  # the steps the game's kernels record, as the web page animates them

    game = before.game
    names = cascade.layout(game).names
    steps = cascade.step_pictures(game, before.array.copy(), int(action))
    return [(game.state_from_array(picture).board_view(), [names[c] for c in sorted(flash)]) for picture, flash in steps]
