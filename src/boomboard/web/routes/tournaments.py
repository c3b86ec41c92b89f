"""The arena's tournaments: the list, a tournament's standings and its rating chart."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..context import Web
from ..openapi import PNG, errors_as_json

router = APIRouter()


# Both read the arena's whole store of tournaments (about 0.2 s for 500 tournaments of 200 games):
# in a request thread, not on the event loop, where they held every other request up.
@router.get("/api/tournaments")
async def tournaments(http: Request, web: Web):
    return await web.off_loop(http, lambda: {"tournaments": web.archive.tournaments()})


@router.get("/api/tournaments/{tournament_id}")
async def standings(tournament_id: str, http: Request, web: Web):
    return await web.off_loop(http, lambda: {"standings": web.archive.standings(tournament_id)})


@router.get("/api/tournaments/{tournament_id}/chart.png", response_class=PNG,
            responses=errors_as_json("the chart, a PNG image"))
def rating_chart(tournament_id: str, web: Web):  # not async: matplotlib draws in FastAPI's thread pool
    """The arena's rating chart (PNG), where the arena draws one."""
    return PNG(web.archive.rating_chart(tournament_id))
