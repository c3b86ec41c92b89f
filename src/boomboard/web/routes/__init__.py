"""The web app's routes, one router a resource (each module's ``router``):
the page, the games on offer, a game and its moves, its event stream,
analyses and values, stored games and records, and the arena's
tournaments. :data:`ROUTERS` is the order the app includes them in, which
is the order of the operations in its schema."""

from __future__ import annotations

from . import analysis, catalog, events, games, page, records, tournaments

ROUTERS = [page.router, catalog.router, games.router, events.router, analysis.router, records.router,
           tournaments.router]
