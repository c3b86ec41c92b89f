"""Kaboom (GamesCrafters): connect n in a row on a gravity board, with bombs
that blow pieces out from under the opponent."""

from .game import KaboomGame, KaboomState
from .notation import action_name, parse_action, parse_position, write_position

__all__ = ["KaboomGame", "KaboomState", "action_name", "parse_action", "parse_position", "write_position"]
