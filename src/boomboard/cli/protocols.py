"""Protocol commands: ``engine``, ``jump61`` and ``expendibots referee/puzzle``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer


def engine(
    agent: str = typer.Option("ai", "--agent", help="The agent that answers 'go' (any arena agent spec)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for the agent's randomness."),
) -> None:
    """Speak the boomboard text engine protocol on standard input and output
    (see docs/how-to/arena.md): any tool can drive our agents with it."""
    from ..arena.engine_session import serve
    from ..arena.specs import check_spec

    check_spec(agent)
    serve(sys.stdin, sys.stdout, agent, seed)


def jump61(
    ai: str = typer.Option("ai:time=1", "--ai", help="The agent playing the auto sides (any agent spec)."),
) -> None:
    """The Jump61 course's text program: commands on standard input (type help)."""
    from ..arena.jump61_text import Jump61Program
    from ..arena.specs import check_spec
    from ..jit import interpreted

    check_spec(ai)
    with interpreted():  # people's moves need no compiler; the AI's search compiles (or loads) when it first moves
        Jump61Program(sys.stdout, sys.stderr, ai).run(sys.stdin, prompt=sys.stdin.isatty())


def register(app: typer.Typer) -> None:
    """Add the protocol commands to the ``boomboard`` app."""
    app.command()(engine)
    app.command()(jump61)
    app.add_typer(expendibots_app, name="expendibots")


expendibots_app = typer.Typer(help="The Expendibots course's referee and puzzle.", no_args_is_help=True,
                              add_completion=False)


@expendibots_app.command("referee")
def expendibots_referee(
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
    from ..arena.course_referee import run_referee

    run_referee(white, black, time_limit, space_limit, verbosity, logfile, delay, seed)


@expendibots_app.command("puzzle")
def expendibots_puzzle(file: Path = typer.Argument(..., help="A position in the course's JSON.")) -> None:
    """The course's first task: print a shortest sequence of White actions that
    removes every Black token (one action per line)."""
    from ..arena.course_puzzle import solve_puzzle
    from ..core.errors import NotationError

    try:
        text = file.read_text()
    except OSError as problem:
        raise NotationError(f"cannot read the puzzle {file}: {problem.strerror}") from None
    for line in solve_puzzle(text):
        print(line)
