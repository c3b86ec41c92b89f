"""The ``analysis`` agent: plays the move the analysis board stars.

``make_agent("analysis")`` plays, in every position, the best move of
:func:`boomboard.analysis.analyse_state`: exact where a solved table holds
the position (the tables in ``db``, default the solver's own), otherwise the
move the analysis's fixed-depth search values highest, choosing at random
(seeded) among equally good moves. Its budget is the analysis's own (each
game's model depth, at most :data:`boomboard.analysis.SEARCH_NODES` nodes),
not a clock: it shows how strong the advice a person reads is
(docs/explanation/analysis.md).
"""

from __future__ import annotations

from ..core.state import State
from .base import Agent


class AnalysisAgent(Agent):
    """Follows the analysis's best move; ``last_thinking`` says its value."""

    name = "analysis"

    def __init__(self, seed: int | None = None, db: str | None = None):
        super().__init__(seed)
        self.db = db
        self.last_thinking = ""

    def choose_action(self, state: State) -> int:
        from ..analysis import analyse_state, best_moves

        result = analyse_state(state, self.db)
        action = self.rng.choice(best_moves(state, result))
        move = next(m for m in result["moves"] if m["id"] == action)
        self.last_thinking = f"{result['source']}: {move['eval']['text']}"
        return action
