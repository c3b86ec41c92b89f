"""Popline's kernels: the engine's three and nothing else."""

from .rules import apply_action, legal_actions, position_key

__all__ = ["apply_action", "legal_actions", "position_key"]
