"""The broken game's kernels: ``evaluate`` with a parameter too few, no
``is_explosive``, and a solver codec of ``encode`` alone."""

from boomboard.core.layout import OUTSIDE
from boomboard.jit import njit

from .observation import encode_observation
from .rules import apply_action, apply_action_steps, legal_actions, position_key


@njit(cache=True)
def evaluate(s):
    return 0


@njit(cache=True)
def encode(spec, s, params):
    return OUTSIDE


__all__ = ["apply_action", "apply_action_steps", "encode", "encode_observation", "evaluate", "legal_actions",
           "position_key"]
