"""Protocol commands: ``engine``, ``jump61`` and ``expendibots referee/puzzle``."""

from __future__ import annotations

import sys
from typing import Optional

import typer


def engine(
    agent: str = typer.Option("ai", "--agent", help="The agent that answers 'go' (any arena agent spec)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for the agent's randomness."),
) -> None:
    """Speak the boomboard text engine protocol on standard input and output
    (see docs/arena.md): any tool can drive our agents with it."""
    from ..arena.engine_protocol import serve
    from ..arena.specs import check_spec

    check_spec(agent)
    serve(sys.stdin, sys.stdout, agent, seed)


def register(app: typer.Typer) -> None:
    """Add the protocol commands to the ``boomboard`` app."""
    app.command()(engine)
