"""``boomboard expendibots referee``: one game as the course's referee plays it.

The options are the course referee's (``-t`` CPU seconds and ``-s``
megabytes per player, ``-v`` verbosity, ``-l`` log file, ``-d`` delay), and
so are its lines: each action as ``[white] - MOVE 1 from (0, 1) to (0, 2).``
and the result as ``winner: white`` or ``draw detected: <why>``. The players
run in their own processes under the arena's referee, so a player that
fails or overruns loses (``* white forfeits: ...``) instead of stopping it.
Like the course's referee, it charges a course Player's construction
(``Player(colour)``, not its module's import) and its actions and updates
against its time and memory; at the end it prints each side's CPU total
(``* white used 57.012 s of CPU (of 60 s; 0.011 s building the player; 64 actions)``).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import IO

from ....agents import agent_kinds
from ....arena.referee import Limits, play_game
from ....arena.specs import EXTRA_KINDS, split_kind
from ....registry import load_game
from ..game import END_REASONS

DRAW_REASONS = {
    END_REASONS.BOTH_NO_TOKENS: "no tokens remaining",
    END_REASONS.REPETITION: "game state occurred 4 times",
    END_REASONS.TURN_LIMIT: "maximum number of turns reached",
}


def course_spec(text: str) -> str:
    """An agent spec as given, or ``course:TEXT`` for a course Player package or module."""
    kind, _ = split_kind(text)
    if kind in agent_kinds() or kind in EXTRA_KINDS:
        return text
    return f"course:{text}"


def cpu_summary(result, player: int, time_limit: float | None) -> str:
    """``12.345 s of CPU (of 60 s; 0.010 s building the player)``: what the
    referee charged the player, a course Player's construction included."""
    notes = [] if time_limit is None else [f"of {time_limit:g} s"]
    if result.start_up_cpu[player]:
        notes.append(f"{result.start_up_cpu[player]:.3f} s building the player")
    moves = len(result.cpu[player::2])
    notes.append(f"{moves} action{'s' * (moves != 1)}")
    return f"{result.total_cpu[player]:.3f} s of CPU ({'; '.join(notes)})"


def run_referee(white: str, black: str, time_limit: float | None, space_limit: float | None, verbosity: int,
                logfile: Path | None, delay: float, seed: int | None, out: IO[str] | None = None) -> int | None:
    """Play the game, print the log, and return the winner (0, 1) or ``None``."""
    import sys

    out = out or sys.stdout
    log = open(logfile, "w") if logfile else None
    specs = [course_spec(white), course_spec(black)]

    def say(text: str, level: int) -> None:
        if verbosity >= level:
            out.write(text + "\n")
            out.flush()
        if log is not None:
            log.write(text + "\n")
            log.flush()

    try:
        say(f"* white player: {specs[0]}", 1)
        say(f"* black player: {specs[1]}", 1)
        limits = Limits(game_cpu=time_limit, memory_mb=space_limit)

        def on_action(state, action, player, seconds) -> None:
            colour = ("white", "black")[player]
            say(f"[{colour}] - {state.action_to_course(action)}", 1)
            if verbosity >= 2 or log is not None:
                board = "\n".join("  " + line for line in str(state).splitlines() if line.strip())
                say(board, 2)
            say(f"  ({seconds:.3f} s)", 3)
            if delay:
                time.sleep(delay)

        result = play_game("expendibots", specs, limits, seed, on_action=on_action)
        if " forfeits: " in result.reason:
            say(f"* {result.reason}", 1)
        for player, colour in enumerate(("white", "black")):
            say(f"* {colour} used {cpu_summary(result, player, time_limit)}", 1)
        if result.winner is not None:
            say(f"winner: {('white', 'black')[result.winner]}", 0)
        else:
            state = load_game("expendibots").new_initial_state()
            for action in result.actions:
                state.apply_action(action)
            say(f"draw detected: {DRAW_REASONS.get(state.outcome().reason, result.reason)}", 0)
        return result.winner
    finally:
        if log is not None:
            log.close()
