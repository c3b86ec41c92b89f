"""The page itself: one HTML file, which draws every view (a game, a
game's rules, the lab) from the API, and its icon."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ...registry import game_class
from .. import pages

STATIC = Path(__file__).parent.parent / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index():
    return FileResponse(STATIC / "index.html")


@router.get("/favicon.ico")
async def favicon():
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/rules/{game}")
async def rules_route(game: str):
    """The page, which shows the game's rules (from /api/rules/GAME)."""
    pages.rules_page(game)  # an unknown game is a 400 here already
    return FileResponse(STATIC / "index.html")


@router.get("/lab/{game}")
async def lab_route(game: str):
    """The page, which draws what ``boomboard explore`` found of the game (from /api/lab/GAME)."""
    game_class(game)  # an unknown game is a 400 here already
    return FileResponse(STATIC / "index.html")
