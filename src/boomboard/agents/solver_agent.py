"""The ``solver`` agent: perfect play from a solved table.

``make_agent("solver")`` (or ``solver:db=/path/to/tables,seed=3``) plays
the best move of :func:`boomboard.solver.analyze`: the fastest win, else the
soonest tie, else a draw, else the slowest loss, choosing at random among
equally good moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.game import Game
from ..core.state import State
from .base import Agent

if TYPE_CHECKING:
    from ..solver.table import Table


class SolverAgent(Agent):
    """Plays perfectly from the solved table that holds the position
    (raises :class:`~boomboard.solver.NotSolvedError` where none does).

    The solver is imported when a game starts, not with the agents: it
    loads numba, which a game loads when it is first played."""

    name = "solver"

    def __init__(self, seed: int | None = None, db: str | None = None):
        super().__init__(seed)
        self.db = db
        self.table: Table | None = None
        self.last_thinking = ""

    def new_game(self, game: Game, player: int) -> None:
        """Open the table of the game's start and load its lookup before the
        clock runs (an endgame table is opened when play reaches it)."""
        from ..solver.in_play import warm_up
        from ..solver.table import NotSolvedError, tables_for

        super().new_game(game, player)
        try:
            self.table = tables_for(game.new_initial_state(), self.db)
        except NotSolvedError:
            return
        warm_up(self.table)

    def choose_action(self, state: State) -> int:
        from ..solver.analysis import analyze_with
        from ..solver.table import tables_for

        if self.table is None or self.table.game != state.game or not self.table.covers(state):
            self.table = tables_for(state, self.db)
        analysis = analyze_with(self.table, state)
        best = analysis.best_moves
        move = self.rng.choice(best)
        outlook = "draw" if move.value == "draw" else f"{move.value} in {move.remoteness}"
        self.last_thinking = f"solved: {outlook} ({len(best)} equally good move{'s' if len(best) > 1 else ''})"
        return move.action
