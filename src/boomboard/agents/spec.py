"""Agents from spec strings such as ``random`` or ``random:seed=7``.

The spec is the agent's kind, then optional ``key=value`` settings after a
colon, separated by commas. ``human`` is understood by the interfaces (the
terminal, the web app), which ask a person instead of an agent.
"""

from __future__ import annotations

from typing import Callable

from ..core.errors import ParameterError
from .base import Agent, RandomAgent

HUMAN = "human"

_KINDS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
}


def agent_kinds() -> list[str]:
    """The spec kinds :func:`make_agent` accepts, ``human`` included."""
    return [HUMAN, *_KINDS]


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
    if settings:
        raise ParameterError(f"agent {kind!r} takes no setting(s) {', '.join(settings)}")
    return _KINDS[kind](seed=seed)
