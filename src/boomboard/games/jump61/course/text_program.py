"""``boomboard jump61``: the Jump61 course's text program.

It reads commands, one a line, as the rulebook's "Text interface" says:
case-insensitive, abbreviated to any unique prefix, ``#`` starting a comment
line, the end of input acting as ``quit``:

``R C`` a move; ``new``; ``size N`` (2..10, clears the board);
``set R C N P`` (N spots of colour P: b, r, B or R); ``auto P`` and
``manual P`` (red or blue; Red is manual and Blue the AI at first);
``dump``; ``seed N``; ``verbose``; ``quiet``; ``help``; ``quit``; and one of
our own, ``ai SPEC`` (the full word: ``a`` still means ``auto``), which
changes the agent playing the auto sides.

The AI is :data:`AI_SPEC`, our strongest player (``ai``) at most 1 s of CPU
time a move (``--ai`` or ``ai SPEC`` change it). ``seed N`` seeds it: it
chooses at random among moves it scores near-equal, so different seeds give
different games and the same seed, with a search limited by depth rather
than time (``ai ai:depth=6``), replays a game move for move. Without a seed
its choices differ from run to run.

Whenever the side to move is an AI and the game is not over, the AI moves
at once (the game starts as soon as a move is needed from an AI) and prints
``* R C.``; a win prints ``* Red wins.`` or ``* Blue wins.``. Errors are one
line on standard error, and the program carries on; it always exits with 0.
A prompt ``> `` is shown only when the input is a terminal. ``verbose``
prints the board after every move.

Two programs play each other when each one's ``* R C.`` lines are passed to
the other as ``R C`` (one with Red on auto and Blue manual, the other the
reverse).
"""

from __future__ import annotations

from typing import IO

from ....agents import Agent
from ....arena.specs import build_agent, check_spec
from ....core.errors import BoomboardError
from ....registry import load_game
from ..notation import neighbour_count, parse_dump, write_dump

COMMANDS = ("new", "size", "set", "auto", "manual", "dump", "seed", "verbose", "quiet", "help", "quit")
# Commands matched only as whole words, so the course's prefixes keep their meaning.
WHOLE_WORD_COMMANDS = ("ai",)
COLOUR_WORDS = ("red", "blue")
# The AI: the strongest agent, within the course's time (the course's forced
# wins, 4 own moves deep on boards up to 6x6, take well under a second).
AI_SPEC = "ai:time=1"

HELP = """Commands (case-insensitive; any unique prefix will do):
  R C          add a spot to row R (1 = top), column C (1 = left)
  new          clear the board and start a new game
  size N       board of N x N squares (2..10); clears the board
  set R C N P  put N spots of colour P (r or b) on square R C
  auto P       player P (red or blue) is played by the AI
  manual P     player P is played from the input
  dump         print the board
  seed N       seed the AI's random choices
  ai SPEC      the agent playing the auto sides (default ai:time=1)
  verbose      print the board after every move
  quiet        stop printing the board after every move
  help         this text
  quit         leave (so does the end of input)
Lines starting with # are comments."""


class CommandError(BoomboardError):
    """A command that cannot be carried out; reported on standard error."""


class Jump61Program:
    """The text program's state: board, which sides are AIs, verbosity."""

    def __init__(self, stdout: IO[str], stderr: IO[str], ai_spec: str = AI_SPEC):
        self.stdout, self.stderr = stdout, stderr
        self.ai_spec = ai_spec
        self.size = 6
        self.auto = [False, True]
        self.seed: int | None = None
        self.verbose = False
        self.ais: list[Agent | None] = [None, None]
        self.new_board()

    # -- running --------------------------------------------------------------
    def run(self, stdin: IO[str], prompt: bool = False) -> int:
        self.play_ais()
        while True:
            if prompt:
                self.stdout.write("> ")
                self.stdout.flush()
            line = stdin.readline()
            if not line:
                return 0
            try:
                if self.execute(line) == "quit":
                    return 0
            except BoomboardError as error:
                self.stderr.write(f"error: {error}\n")
                self.stderr.flush()
            self.play_ais()

    def execute(self, line: str) -> str | None:
        words = line.split()
        if not words or words[0].startswith("#"):
            return None
        if words[0][0].isdigit():
            self.human_move(words)
            return None
        command = self.command_name(words[0])
        getattr(self, "do_" + command)(words[1:])
        return command

    @staticmethod
    def command_name(word: str) -> str:
        word = word.lower()
        if word in COMMANDS or word in WHOLE_WORD_COMMANDS:
            return word
        matches = [c for c in COMMANDS if c.startswith(word)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise CommandError(f"ambiguous command '{word}': {', '.join(matches)}")
        raise CommandError(f"unknown command '{word}'; type help for the commands")

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    # -- the game ---------------------------------------------------------------
    def new_board(self) -> None:
        self.game = load_game("jump61", size=self.size)
        self.state = self.game.new_initial_state()
        self.ais = [None, None]

    def ai(self, player: int) -> Agent:
        if self.ais[player] is None:
            agent = build_agent(self.ai_spec, seed=None if self.seed is None else self.seed + player)
            agent.new_game(self.game, player)
            self.ais[player] = agent
        return self.ais[player]

    def play_ais(self) -> None:
        while not self.state.is_terminal() and self.auto[self.state.current_player()]:
            player = self.state.current_player()
            action = self.ai(player).choose_action(self.state.clone())
            row, col = divmod(action, self.size)
            self.say(f"* {row + 1} {col + 1}.")
            self.apply(action)

    def apply(self, action: int) -> None:
        self.state.apply_action(action)
        if self.verbose:
            self.say(self.state.to_notation())
        outcome = self.state.outcome()
        if outcome is not None:
            self.say(f"* {self.game.player_names[outcome.winner].capitalize()} wins.")

    def human_move(self, words: list[str]) -> None:
        if len(words) != 2:
            raise CommandError(f"a move is a row and a column, like '2 3'; got '{' '.join(words)}'")
        if self.state.is_terminal():
            raise CommandError("the game is over; type new to start another")
        player = self.state.current_player()
        if self.auto[player]:
            raise CommandError(f"{COLOUR_WORDS[player]} is played by the AI")
        row, col = _integer(words[0], "row"), _integer(words[1], "column")
        if not (1 <= row <= self.size and 1 <= col <= self.size):
            raise CommandError(f"square {row} {col} is off the board; rows and columns run 1..{self.size}")
        self.apply(self.state.string_to_action(f"{row} {col}"))

    # -- commands ---------------------------------------------------------------
    def do_new(self, args: list[str]) -> None:
        _arguments(args, 0, "new")
        self.new_board()

    def do_size(self, args: list[str]) -> None:
        _arguments(args, 1, "size N")
        size = _integer(args[0], "size")
        if not 2 <= size <= 10:
            raise CommandError(f"the size must be 2..10; got {size}")
        self.size = size
        self.new_board()

    def do_set(self, args: list[str]) -> None:
        _arguments(args, 4, "set R C N P")
        row, col, spots = (_integer(a, name) for a, name in zip(args, ("row", "column", "spots")))
        colour = args[3]
        if colour not in ("r", "b", "R", "B"):
            raise CommandError(f"the colour must be r or b (or R, B); got '{colour}'")
        if not (1 <= row <= self.size and 1 <= col <= self.size):
            raise CommandError(f"square {row} {col} is off the board; rows and columns run 1..{self.size}")
        most = neighbour_count(self.size, row, col)
        if not 1 <= spots <= most:
            raise CommandError(f"square {row} {col} takes 1..{most} spots; got {spots}")
        _, spots_list, colours = parse_dump(self.state.to_notation())
        square = (row - 1) * self.size + (col - 1)
        spots_list[square] = spots
        colours[square] = 1 if colour.lower() == "r" else 2
        self.state = self.game.state_from_notation(write_dump(self.size, spots_list, colours))
        self.ais = [None, None]

    def _side(self, args: list[str], usage: str) -> int:
        _arguments(args, 1, usage)
        word = args[0].lower()
        matches = [i for i, name in enumerate(COLOUR_WORDS) if name.startswith(word)]
        if not word or len(matches) != 1:
            raise CommandError(f"expected red or blue; got '{args[0]}'")
        return matches[0]

    def do_auto(self, args: list[str]) -> None:
        self.auto[self._side(args, "auto P")] = True

    def do_manual(self, args: list[str]) -> None:
        self.auto[self._side(args, "manual P")] = False

    def do_dump(self, args: list[str]) -> None:
        _arguments(args, 0, "dump")
        self.say(self.state.to_notation())

    def do_seed(self, args: list[str]) -> None:
        _arguments(args, 1, "seed N")
        self.seed = _integer(args[0], "seed")
        self.ais = [None, None]

    def do_ai(self, args: list[str]) -> None:
        if not args:
            raise CommandError("usage: ai SPEC")
        spec = " ".join(args)
        check_spec(spec)
        self.ai_spec = spec
        self.ais = [None, None]

    def do_verbose(self, args: list[str]) -> None:
        _arguments(args, 0, "verbose")
        self.verbose = True

    def do_quiet(self, args: list[str]) -> None:
        _arguments(args, 0, "quiet")
        self.verbose = False

    def do_help(self, args: list[str]) -> None:
        self.say(HELP)

    def do_quit(self, args: list[str]) -> None:
        _arguments(args, 0, "quit")


def _arguments(args: list[str], count: int, usage: str) -> None:
    if len(args) != count:
        raise CommandError(f"usage: {usage}")


def _integer(text: str, what: str) -> int:
    try:
        if not (text.isascii() and text.lstrip("+-").isdigit()):
            raise ValueError(text)  # not other scripts' digits, '1_000' or ' 1'
        return int(text)
    except ValueError:
        raise CommandError(f"the {what} must be a whole number; got '{text}'") from None
