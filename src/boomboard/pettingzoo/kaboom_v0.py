"""Kaboom as a PettingZoo AEC environment: ``kaboom_v0.env(rows=5, cols=6, misere=True)``.

Keyword arguments are the game's parameters (``boomboard games`` lists
them) and ``render_mode`` (``"ansi"`` or ``"rgb_array"``); see
:class:`~boomboard.pettingzoo.base.BoomboardEnv` for observations,
actions and rewards, and ``docs/games/kaboom.md`` for the action ids.
"""

from __future__ import annotations

from typing import Any

from .base import BoomboardEnv, wrap


class raw_env(BoomboardEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    game_name = "kaboom"
    metadata = {**BoomboardEnv.metadata, "name": "kaboom_v0"}


def env(**kwargs: Any):
    """The wrapped environment, as PettingZoo's classic games are: an illegal action loses."""
    return wrap(raw_env(**kwargs))
