"""The ``analysis`` agent: plays the move the analysis board stars.

``make_agent("analysis")`` plays, in every position, the best move of
:func:`boomboard.analysis.analyse_state`: exact where a solved table holds
the position (the tables in ``db``, default the solver's own), otherwise the
move the analysis's fixed-depth search values highest, choosing at random
(seeded) among equally good moves. Its budget is the analysis's own (each
game's model: the depth at which every move is scored and the node budget
of the deeper search for the best move), not a clock: it shows how strong
the advice a person reads is (docs/explanation/analysis.md). ``depth`` and
``nodes`` replace the model's, to scale the budget of a long match;
``warm=1`` keeps the searches' tables from one of its moves to the next
(measured no deeper, and it makes a move depend on the positions before it).
"""

from __future__ import annotations

from dataclasses import replace

from ..core.state import State
from .base import Agent


class AnalysisAgent(Agent):
    """Follows the analysis's best move; ``last_thinking`` says its value."""

    name = "analysis"

    def __init__(self, seed: int | None = None, db: str | None = None, depth: int | None = None,
                 nodes: int | None = None, warm: int = 0):
        super().__init__(seed)
        self.db = db
        self.warm = warm
        self.budget = {key: value for key, value in (("depth", depth), ("nodes", nodes)) if value is not None}
        self.last_thinking = ""
        self.tables = None  # the searches kept between moves, when warm

    def choose_action(self, state: State) -> int:
        from ..analysis import SearchTables, analyse_state, best_moves
        from ..search.calibration import analysis_model

        if self.warm and (self.tables is None or self.tables.game is not state.game):
            self.tables = SearchTables(state.game)
        result = analyse_state(state, self.db, replace(analysis_model(state.game), **self.budget), self.tables)
        action = self.rng.choice(best_moves(state, result))
        move = next(m for m in result["moves"] if m["id"] == action)
        self.last_thinking = f"{result['source']}: {move['eval']['text']}"
        return action
