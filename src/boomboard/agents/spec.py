"""Agents from spec strings such as ``random`` or ``random:seed=7``.

The spec is the agent's kind, then optional ``key=value`` settings after a
colon, separated by commas. ``human`` is understood by the interfaces (the
terminal, the web app), which ask a person instead of an agent.
"""

from __future__ import annotations

import importlib
from typing import Callable

from ..core.errors import ParameterError
from .base import Agent, RandomAgent
from .search_agents import AiAgent, AlphaBetaAgent, GreedyAgent, MctsAgent

HUMAN = "human"

_KINDS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "alphabeta": AlphaBetaAgent,
    "mcts": MctsAgent,
    "ai": AiAgent,
}

# The settings each kind takes (besides seed), with their types.
_BUDGET = {"time": float, "game_time": float}
_SETTINGS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {},
    "alphabeta": {"depth": int, "table_bits": int, "quiescence": int, "contempt": int, "margin": int, **_BUDGET},
    "mcts": {"simulations": int, "exploration": float, "playout": int, **_BUDGET},
    "ai": {"depth": int, "margin": int, **_BUDGET},
}


_MAY_BE_ZERO = {"quiescence", "contempt", "margin"}  # 0 turns them off

# Kinds defined in higher layers, imported the first time a spec names them:
# the module registers itself with :func:`register_agent_kind`. Agents stay
# below those layers (they never import them), yet every interface that
# builds agents from spec strings finds these kinds too.
_LAZY_KINDS = {"solver": "boomboard.solver.agent"}


def register_agent_kind(kind: str, factory: Callable[..., Agent], settings: dict[str, type]) -> None:
    """Make ``kind`` a spec kind: ``factory(seed=..., **settings)`` builds it;
    ``settings`` maps each setting's name to its type (int, float or str)."""
    _KINDS[kind] = factory
    _SETTINGS[kind] = dict(settings)


def _load_kind(kind: str) -> None:
    if kind not in _KINDS and kind in _LAZY_KINDS:
        importlib.import_module(_LAZY_KINDS[kind])


def agent_kinds() -> list[str]:
    """The spec kinds :func:`make_agent` accepts, ``human`` included."""
    return [HUMAN, *_KINDS, *(kind for kind in _LAZY_KINDS if kind not in _KINDS)]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``'random:seed=7'`` -> ``('random', {'seed': '7'})``."""
    kind, _, rest = spec.strip().partition(":")
    settings: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise ParameterError(f"bad agent setting {item!r} in {spec!r}; expected key=value")
        settings[key.strip()] = value.strip()
    kind = kind.lower()
    _load_kind(kind)
    if kind not in agent_kinds():
        raise ParameterError(f"unknown agent {kind!r}; known agents: {', '.join(agent_kinds())}")
    return kind, settings


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build the agent a spec string names (not ``human``: interfaces handle that)."""
    kind, settings = parse_spec(spec)
    if kind == HUMAN:
        raise ParameterError("'human' is played through an interface, not built as an agent")
    if "seed" in settings:
        try:
            seed = int(settings.pop("seed"))
        except ValueError:
            raise ParameterError(f"agent seed must be an integer in {spec!r}") from None
    values = {}
    for key, text in settings.items():
        kind_settings = _SETTINGS[kind]
        if key not in kind_settings:
            known = ", ".join(["seed", *kind_settings])
            raise ParameterError(f"agent {kind!r} has no setting {key!r}; its settings: {known}")
        if kind_settings[key] is str:
            values[key] = text
            continue
        try:
            values[key] = kind_settings[key](text)
        except ValueError:
            raise ParameterError(f"agent setting {key}={text!r} in {spec!r}: expected "
                                 f"{'an integer' if kind_settings[key] is int else 'a number'}") from None
        if values[key] < 0 or (values[key] == 0 and key not in _MAY_BE_ZERO):
            least = "0 or more" if key in _MAY_BE_ZERO else "positive"
            raise ParameterError(f"agent setting {key}={text!r} in {spec!r} must be {least}")
    return _KINDS[kind](seed=seed, **values)
