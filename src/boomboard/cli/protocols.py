"""Protocol commands: ``engine``, and each game's course programs (``jump61``,
``expendibots referee/puzzle``), found in the ``course`` package of the
game's folder (the game contract's item ``course/__init__.py``)."""

from __future__ import annotations

import importlib
import importlib.util
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


def course_packages() -> list[str]:
    """The module names of the package's games' course packages, in the
    registry's order, found on disk: no game is loaded (the command line
    starts without NumPy)."""
    from ..games import PACKAGE_GAMES

    found = []
    for package in dict.fromkeys(target.split(":")[0] for target in PACKAGE_GAMES.values()):
        spec = importlib.util.find_spec(package)
        folders = spec.submodule_search_locations if spec else None
        if folders and any((Path(folder) / "course" / "__init__.py").is_file() for folder in folders):
            found.append(f"{package}.course")
    return found


def register(app: typer.Typer) -> None:
    """Add the protocol commands to the ``boomboard`` app."""
    app.command()(engine)
    for package in course_packages():
        importlib.import_module(package).register(app)
