"""The variant lab: who wins each variant of a game, and how it plays.

``boomboard explore GAME --rows 3..5 --cols 3..5 ...`` sweeps a grid of the
parameters a game declares sweepable (``Game.lab_axes``; :mod:`.grid`),
measures each variant (:mod:`.measure`: exact values from the solver within
a budget, estimates from ``ai`` self-play, and whether they agree), stores
each row in SQLite as it comes (:mod:`.store`: a killed sweep resumes),
runs on every core or on Ray (:mod:`.sweep`), and draws heat maps and
first-move strips (:mod:`.picture`). ``docs/how-to/variants.md`` is the manual.
"""

from .grid import MAX_VARIANTS, Grid, GridError, parse_grid
from .store import Row, Store, StoreError
from .sweep import Settings, default_store, explore

__all__ = ["MAX_VARIANTS", "Grid", "GridError", "Row", "Settings", "Store", "StoreError", "default_store",
           "explore", "parse_grid"]
