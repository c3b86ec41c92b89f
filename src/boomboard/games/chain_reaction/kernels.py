"""Chain Reaction's compiled kernels, as the shared layers call them
(the game kernel interface: :mod:`boomboard.kernel_interface`)."""

from .codec import decode, encode, layer_of
from .evaluation import evaluate, is_explosive
from .observation import encode_observation
from .rules import apply_action, apply_action_steps, legal_actions, position_key

__all__ = ["apply_action", "apply_action_steps", "decode", "encode", "encode_observation", "evaluate",
           "is_explosive", "layer_of", "legal_actions", "position_key"]
