"""Play Jump61 programs against each other through the course's text protocol.

Any program that speaks the Jump61 course's text interface plays: ``boomboard
jump61``, or a student's ``java -cp DIR jump61.Main``. Moves are relayed as the
course's ``04-playotherself`` test does: each program is told the board size
and a seed, one side ``auto`` (its AI) and the other ``manual``; every
``* R C.`` line the mover prints is passed to the other program as ``R C``.

Each pair of games starts from the same random opening (``--opening`` moves,
entered on both programs as manual moves), once with the first program as Red
and once as Blue. The relay keeps the game itself with boomboard's rules: it
checks every move, and decides who has won, so a program that stops, prints
an illegal move or takes longer than ``--move-timeout`` seconds loses (a
forfeit). After a forfeit the relay says whether the position was lost by
force anyway (a 6-ply search) and whether the program's board (its ``dump``)
has parted from the rules' board, as happens with programs whose jumps
follow other rules. Each game starts fresh processes.

    python benchmarks/jump61_relay.py "boomboard jump61" "java -cp /tmp/a jump61.Main" \\
        "java -cp /tmp/b jump61.Main" --games 10

plays the first command against each of the others and prints a table.
"""

from __future__ import annotations

import argparse
import platform
import queue
import random
import re
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field

import boomboard
from boomboard.core.errors import BoomboardError
from boomboard.search.alphabeta import AlphaBeta

MOVE = re.compile(r"\*\s*(\d+)\s+(\d+)\s*\.")
COLOURS = ("red", "blue")
# How deep a forfeit's position is searched for a forced loss.
FORFEIT_CHECK_PLIES = 6


class Program:
    """A running program: lines to its input, lines read from its output by a thread."""

    def __init__(self, command: str):
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        try:
            self.process.stdin.write("".join(line + "\n" for line in lines))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def next_move(self, timeout: float) -> tuple[int, int] | str:
        """The next ``* R C.`` this program prints, or why there is none."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return "timeout"
            if line is None:
                return "exited"
            match = MOVE.search(line)
            if match:
                return int(match.group(1)), int(match.group(2))

    def dump(self, timeout: float = 10.0) -> list[list[str]] | None:
        """The board as this program sees it (its ``dump``), one list of squares a row."""
        self.send("dump")
        rows: list[list[str]] | None = None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                return None
            if "===" in line:
                if rows is not None:
                    return rows
                rows = []
            elif rows is not None and line.strip():
                rows.append(line.split())
        return None

    def close(self) -> None:
        self.send("quit")
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class Game:
    winner: int | None  # 0: the first program, 1: the second
    plies: int
    forfeit: str = ""
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # each program's thinking (wall)
    moves: list[int] = field(default_factory=lambda: [0, 0])
    record: list[str] = field(default_factory=list)  # the moves after the opening
    lost_anyway: bool = False  # a forfeit in a position lost by force
    diverged: bool = False  # a forfeit by a program whose board is not the rules' board


def random_opening(size: int, plies: int, rng: random.Random) -> list[str]:
    state = boomboard.load_game(f"jump61(size={size})").new_initial_state()
    moves: list[str] = []
    while len(moves) < plies and not state.is_terminal():
        action = rng.choice(state.legal_actions())
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return moves


def play_game(commands: tuple[str, str], first_colour: int, size: int, opening: list[str], seeds: tuple[int, int],
              move_timeout: float) -> Game:
    """One game; ``first_colour`` is the first program's side (0 Red, 1 Blue)."""
    state = boomboard.load_game(f"jump61(size={size})").new_initial_state()
    for move in opening:
        state.play(move)
    programs = [Program(command) for command in commands]
    sides = [first_colour, 1 - first_colour]  # each program's colour
    by_colour = [sides.index(0), sides.index(1)]  # each colour's program
    result = Game(None, 0)
    try:
        for index, program in enumerate(programs):
            program.send(f"size {size}", f"seed {seeds[index]}", "manual red", "manual blue",
                         *(move.replace(":", " ") for move in opening))
        # the program whose side is not to move goes auto first, so nobody moves before both are ready
        to_move = state.current_player()
        for colour in (1 - to_move, to_move):
            programs[by_colour[colour]].send(f"auto {COLOURS[colour]}")
        while not state.is_terminal():
            mover = by_colour[state.current_player()]
            began = time.monotonic()
            answer = programs[mover].next_move(move_timeout)
            result.seconds[mover] += time.monotonic() - began
            result.moves[mover] += 1
            if isinstance(answer, str):
                result.winner, result.forfeit = 1 - mover, f"program {mover + 1} {answer}"
                if answer == "timeout":
                    _check_board(programs[mover], state, result)
                break
            row, col = answer
            text = f"{row} {col}"
            try:
                state.play(text)
            except BoomboardError as error:
                result.winner, result.forfeit = 1 - mover, f"program {mover + 1} played {text}: {error}"
                _check_board(programs[mover], state, result)
                break
            result.record.append(text)
            if not state.is_terminal():
                programs[1 - mover].send(text)
        if result.winner is None:
            result.winner = by_colour[state.outcome().winner]
        else:  # a forfeit: was the position already lost for the side to move?
            forced = AlphaBeta(state.game, table_bits=18).search(state, depth=FORFEIT_CHECK_PLIES).forced_result
            result.lost_anyway = forced is not None and forced < 0
        result.plies = state.ply()
    finally:
        for program in programs:
            program.close()
    return result


def _check_board(program: Program, state, result: Game) -> None:
    """After a forfeit: note whether the program's board (its ``dump``) has
    parted from the rules' board (a program still thinking does not answer)."""
    seen = program.dump()
    if seen is not None and seen != [line.split() for line in state.to_notation().splitlines()[1:-1]]:
        result.forfeit += " (its board differs from the rules' board)"
        result.diverged = True


def match(commands: tuple[str, str], games: int, size: int, opening_plies: int, seed: int,
          move_timeout: float, verbose: bool) -> list[tuple[int, Game]]:
    rng = random.Random(seed)
    played = []
    for _pair in range((games + 1) // 2):
        opening = random_opening(size, opening_plies, rng)
        for first_colour in (0, 1):
            if len(played) == games:
                break
            seeds = (rng.randrange(1 << 30), rng.randrange(1 << 30))
            game = play_game(commands, first_colour, size, opening, seeds, move_timeout)
            played.append((first_colour, game))
            if verbose:
                who = "first" if game.winner == 0 else "second"
                print(f"  game {len(played)}: first program {COLOURS[first_colour]}, opening {' / '.join(opening)}: "
                      f"{who} wins in {game.plies} plies {game.forfeit}"
                      f"{' (in a position lost by force)' if game.lost_anyway else ''}", flush=True)
                if game.forfeit:
                    print(f"    moves: {' / '.join(game.record)}", flush=True)
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="the program measured, e.g. 'boomboard jump61'")
    parser.add_argument("others", nargs="+", help="its opponents, each a command")
    parser.add_argument("--games", type=int, default=10, help="games against each opponent (pairs of colours)")
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--opening", type=int, default=4, help="random moves before the programs take over")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--move-timeout", type=float, default=30.0, help="seconds a program may take for a move")
    parser.add_argument("--names", help="names for the opponents in the table, separated by commas")
    parser.add_argument("-v", "--verbose", action="store_true", help="a line per game")
    args = parser.parse_args()
    names = args.names.split(",") if args.names else args.others
    print(f"{args.first!r} against {len(args.others)} opponents: {args.games} games each, {args.size}x{args.size}, "
          f"{args.opening}-move random openings (seed {args.seed}), both colours; {platform.node()}")
    rows = []
    for name, other in zip(names, args.others):
        if args.verbose:
            print(f"{name}: {other}", flush=True)
        began = time.monotonic()
        played = match((args.first, other), args.games, args.size, args.opening, args.seed, args.move_timeout,
                       args.verbose)
        wins = [sum(1 for colour, game in played if colour == c and game.winner == 0) for c in (0, 1)]
        counts = [sum(1 for colour, _ in played if colour == c) for c in (0, 1)]
        forfeits = sum(1 for _, game in played if game.forfeit)
        lost_anyway = sum(1 for _, game in played if game.lost_anyway)
        diverged = sum(1 for _, game in played if game.diverged)
        seconds = [sum(game.seconds[i] for _, game in played) / max(1, sum(game.moves[i] for _, game in played))
                   for i in (0, 1)]
        plies = sum(game.plies for _, game in played) / len(played)
        rows.append((name, str(len(played)), f"{wins[0]}/{counts[0]}", f"{wins[1]}/{counts[1]}",
                     f"{100 * sum(wins) / len(played):.0f}%", f"{plies:.0f}", f"{seconds[0]:.2f}",
                     f"{seconds[1]:.3f}", f"{forfeits} ({lost_anyway} lost anyway, {diverged} on a different board)",
                     f"{time.monotonic() - began:.0f}"))
    header = ("opponent", "games", "won as Red", "won as Blue", "won", "plies", "s/move", "opp. s/move",
              "forfeits", "wall s")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
