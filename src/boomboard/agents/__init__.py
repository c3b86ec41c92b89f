"""Players: the agent protocol, and agents built from spec strings."""

from .base import Agent, RandomAgent
from .spec import HUMAN, agent_kinds, make_agent, parse_spec

__all__ = ["Agent", "HUMAN", "RandomAgent", "agent_kinds", "make_agent", "parse_spec"]
