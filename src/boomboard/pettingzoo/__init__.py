"""boomboard's games as PettingZoo AEC environments, one module per game.

Every registered game has a module here, named after the game's
``pettingzoo_name`` (``<game>_v0``), made from the registry when this
package is imported: ``from boomboard.pettingzoo import kaboom_v0`` and
``import boomboard.pettingzoo.kaboom_v0`` both work, as for PettingZoo's own
games. Each module has ``env(**kwargs)`` (wrapped as PettingZoo's classic
games are: an illegal action loses) and ``raw_env``; keyword arguments are
the game's parameters (``boomboard catalog`` lists them) and ``render_mode``
(``"ansi"`` or ``"rgb_array"``). See :class:`~boomboard.pettingzoo.base.BoomboardEnv`
for observations, actions and rewards, and ``docs/games/`` for the action ids.

>>> from boomboard.pettingzoo import kaboom_v0
>>> env = kaboom_v0.env(render_mode="ansi")
>>> env.reset(seed=0)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((7, 4, 4), 8)
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from ..registry import game_class, game_names
from .base import BoomboardEnv, wrap


def _environment_module(name: str) -> ModuleType:
    """The module ``boomboard.pettingzoo.<pettingzoo_name>`` of the registered game ``name``."""
    cls = game_class(name)
    module_name = f"{__name__}.{cls.pettingzoo_name}"
    module = ModuleType(module_name, f"{cls.title} as a PettingZoo AEC environment: "
                                     f"``{cls.pettingzoo_name}.env()`` (see :mod:`boomboard.pettingzoo`).")

    class raw_env(BoomboardEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
        game_name = name
        metadata = {**BoomboardEnv.metadata, "name": cls.pettingzoo_name}

    raw_env.__module__, raw_env.__qualname__ = module_name, "raw_env"  # so that it pickles

    def env(**kwargs: Any):
        """The wrapped environment, as PettingZoo's classic games are: an illegal action loses."""
        return wrap(raw_env(**kwargs))

    env.__module__, env.__qualname__ = module_name, "env"
    module.raw_env, module.env = raw_env, env
    module.__all__ = ["env", "raw_env"]
    return module


ENVIRONMENTS: dict[str, ModuleType] = {}
for _name in game_names():
    _module = _environment_module(_name)
    _short = _module.__name__.rsplit(".", 1)[1]
    sys.modules[_module.__name__] = _module
    globals()[_short] = ENVIRONMENTS[_short] = _module
del _name, _module, _short

__all__ = ["ENVIRONMENTS", *ENVIRONMENTS]
