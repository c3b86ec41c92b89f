"""Batched environments: thousands of games stepped at once in compiled code.

>>> from boomboard.vector import VectorEnv
>>> env = VectorEnv("jump61(size=4)", num_envs=8, seed=1)
>>> obs, info = env.reset()
>>> obs.shape
(8, 6, 4, 4)
"""

from .env import VectorEnv, max_legal_actions

__all__ = ["VectorEnv", "max_legal_actions"]
