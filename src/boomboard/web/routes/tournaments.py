"""The arena's tournaments: the list, a tournament's standings and its rating chart."""

from __future__ import annotations

from fastapi import APIRouter

from ..context import Web
from ..openapi import PNG, errors_as_json

router = APIRouter()


@router.get("/api/tournaments")
async def tournaments(web: Web):
    return {"tournaments": web.archive.tournaments()}


@router.get("/api/tournaments/{tournament_id}")
async def standings(tournament_id: str, web: Web):
    return {"standings": web.archive.standings(tournament_id)}


@router.get("/api/tournaments/{tournament_id}/chart.png", response_class=PNG,
            responses=errors_as_json("the chart, a PNG image"))
def rating_chart(tournament_id: str, web: Web):  # not async: matplotlib draws in FastAPI's thread pool
    """The arena's rating chart (PNG), where the arena draws one."""
    return PNG(web.archive.rating_chart(tournament_id))
