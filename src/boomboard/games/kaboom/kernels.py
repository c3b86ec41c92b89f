"""Kaboom's compiled kernels, as the shared layers call them
(the game kernel interface: :mod:`boomboard.kernel_interface`)."""

from .codec import decode, encode, layer_of
from .evaluation import evaluate, is_explosive
from .observation import encode_observation
from .ranking import (dense_child_levels, dense_level_count, dense_locate, dense_mirror, dense_mirror_tier,
                      dense_tier_count, dense_tier_level, dense_tier_size, dense_unrank, dense_unrank_next)
from .rules import apply_action, apply_action_steps, legal_actions, position_key
from .threats import mirror_key, proof_moves

__all__ = ["apply_action", "apply_action_steps", "decode", "dense_child_levels", "dense_level_count",
           "dense_locate", "dense_mirror", "dense_mirror_tier", "dense_tier_count", "dense_tier_level",
           "dense_tier_size", "dense_unrank", "dense_unrank_next", "encode", "encode_observation", "evaluate",
           "is_explosive", "layer_of", "legal_actions", "mirror_key", "position_key", "proof_moves"]
