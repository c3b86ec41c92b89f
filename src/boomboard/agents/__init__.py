"""Players: the agent protocol, and agents built from spec strings."""

from .base import Agent, RandomAgent
from .search_agents import AiAgent, AlphaBetaAgent, GreedyAgent, MctsAgent
from .solver_agent import SolverAgent
from .spec import HUMAN, agent_kinds, agent_settings, make_agent, parse_spec, register_agent_kind

__all__ = ["Agent", "AiAgent", "AlphaBetaAgent", "GreedyAgent", "HUMAN", "MctsAgent", "RandomAgent", "SolverAgent",
           "agent_kinds", "agent_settings", "make_agent", "parse_spec", "register_agent_kind"]
