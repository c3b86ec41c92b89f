"""The strong solver: perfect-play values and remoteness, stored and queried.

::

    import boomboard
    from boomboard import solver

    game = boomboard.load_game("kaboom", rows=3, cols=3, connect=3)
    table = solver.solve(game)                       # or solver.open_table(game)
    table.lookup(game.new_initial_state())           # Entry(value='win', remoteness=...)
    solver.analyze(game.new_initial_state())         # every move, best first

Values are GAMESMAN's, for the player to move: ``win``, ``lose``, ``tie``
(the game ends with no winner) and ``draw`` (perfect play never ends).
``docs/explanation/solver.md`` is the manual; ``docs/results/solved.md`` the results.
"""

from .analysis import Analysis, MoveAnalysis, analyze, verify
from .blockstore import CorruptTableError
from .codec import PositionSpaceTooLarge
from .driver import solve
from .picture import PictureError, draw_moves
from .solving import SolveError, SolveSettings, TooManyPositions
from .table import Entry, NotSolvedError, Table, default_db, open_table, solved_variants

__all__ = ["Analysis", "CorruptTableError", "Entry", "MoveAnalysis", "NotSolvedError", "PictureError",
           "PositionSpaceTooLarge", "SolveError", "SolveSettings", "Table", "TooManyPositions", "analyze", "default_db",
           "draw_moves", "open_table", "solve", "solved_variants", "verify"]
