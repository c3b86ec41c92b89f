"""The Jump61 course's program (CS61B, UC Berkeley): its text interface, with
boomboard's agents playing the auto sides (:mod:`.text_program`).

It stands above the arena, whose agent specs it uses; the game's rules below
know nothing of it. ``boomboard`` finds this package through the game
contract (its item ``course/__init__.py``) and calls :func:`register` to add
the command ``boomboard jump61``.
"""

from __future__ import annotations

import sys

import typer


def jump61(
    ai: str = typer.Option("ai:time=1", "--ai", help="The agent playing the auto sides (any agent spec)."),
) -> None:
    """The Jump61 course's text program: commands on standard input (type help)."""
    from ....arena.specs import check_spec
    from ....jit import interpreted
    from .text_program import Jump61Program

    check_spec(ai)
    with interpreted():  # people's moves need no compiler; the AI's search compiles (or loads) when it first moves
        Jump61Program(sys.stdout, sys.stderr, ai).run(sys.stdin, prompt=sys.stdin.isatty())


def register(app: typer.Typer) -> None:
    """Add the course's command to the ``boomboard`` app."""
    app.command()(jump61)
