"""boomboard's games as PettingZoo AEC environments, one module per game.

>>> from boomboard.pettingzoo import kaboom_v0
>>> env = kaboom_v0.env(render_mode="ansi")
>>> env.reset(seed=0)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((7, 4, 4), 8)
"""

from . import expendibots_v0, explocus_v0, hexplocus_v0, jump61_v0, kaboom_v0

ENVIRONMENTS = {
    "kaboom_v0": kaboom_v0,
    "jump61_v0": jump61_v0,
    "expendibots_v0": expendibots_v0,
    "explocus_v0": explocus_v0,
    "hexplocus_v0": hexplocus_v0,
}

__all__ = ["ENVIRONMENTS", "expendibots_v0", "explocus_v0", "hexplocus_v0", "jump61_v0", "kaboom_v0"]
