"""The Expendibots course's programs (COMP30024, University of Melbourne): its
referee, its first task's puzzle, and any boomboard agent as its ``Player``
(:mod:`.player`).

They speak the course's protocol, so they stand above the arena, whose
referee and agent specs they use; the game's rules below know nothing of
them. ``boomboard`` finds this package through the game contract (its item
``course/__init__.py``) and calls :func:`register` to add the commands
``boomboard expendibots referee`` and ``boomboard expendibots puzzle``.
"""

from __future__ import annotations

import typer

from .commands import puzzle, referee


def register(app: typer.Typer) -> None:
    """Add the course's commands to the ``boomboard`` app."""
    course_app = typer.Typer(help="The Expendibots course's referee and puzzle.", no_args_is_help=True,
                             add_completion=False)
    course_app.command("referee")(referee)
    course_app.command("puzzle")(puzzle)
    app.add_typer(course_app, name="expendibots")
