"""The command line of the Expendibots course's referee and puzzle (see :func:`..register`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


def referee(
    white: str = typer.Argument(..., help="White: an agent spec, or a course Player package/module/file."),
    black: str = typer.Argument(..., help="Black: the same."),
    time_limit: Optional[float] = typer.Option(None, "-t", "--time", help="CPU seconds per player per game (course: 60)."),
    space_limit: Optional[float] = typer.Option(None, "-s", "--space", help="Megabytes per player (course: 100)."),
    verbosity: int = typer.Option(2, "-v", "--verbosity", min=0, max=3,
                                  help="0: result only; 1: actions; 2: and the board; 3: and times."),
    logfile: Optional[Path] = typer.Option(None, "-l", "--log", help="Also write everything (verbosity 3) here."),
    delay: float = typer.Option(0.0, "-d", "--delay", min=0.0, help="Seconds to wait after each action."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for the agents' randomness."),
) -> None:
    """Play one game the way the course's referee does, with its options and its log."""
    from .referee import run_referee

    run_referee(white, black, time_limit, space_limit, verbosity, logfile, delay, seed)


def puzzle(file: Path = typer.Argument(..., help="A position in the course's JSON.")) -> None:
    """The course's first task: print a shortest sequence of White actions that
    removes every Black token (one action per line)."""
    from ....core.errors import NotationError
    from .puzzle import solve_puzzle

    try:
        text = file.read_text()
    except OSError as problem:
        raise NotationError(f"cannot read the puzzle {file}: {problem.strerror}") from None
    for line in solve_puzzle(text):
        print(line)
