"""Protocol commands: ``engine``, ``jump61`` and ``expendibots referee/puzzle``."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the protocol commands to the ``boomboard`` app."""
