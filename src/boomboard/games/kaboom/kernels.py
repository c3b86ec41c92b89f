"""Kaboom's compiled kernels, as the shared layers call them
(the game kernel interface: :mod:`boomboard.kernel_interface`)."""

from .evaluation import evaluate, is_explosive
from .rules import apply_action, legal_actions, position_key

__all__ = ["apply_action", "evaluate", "is_explosive", "legal_actions", "position_key"]

from .rules import apply_action_steps  # noqa: E402 - the web animation's step recorder

__all__ += ["apply_action_steps"]

from .observation import encode_observation  # noqa: E402 - the observation tensor

__all__ += ["encode_observation"]
