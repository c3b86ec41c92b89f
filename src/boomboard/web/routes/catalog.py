"""The games on offer: the list the page starts from, each game's rules and
the lab's heat maps of its variants, which sides a game may have, and any
position drawn as the page draws it."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ...agents import agent_kinds
from ...core.capabilities import PLAY, provides
from ...core.params import format_value
from ...lab.sweep import default_store as default_lab_store
from ...registry import DEFAULT_GAME, game_class, registered_games
from .. import analysis, pages
from ..context import Web
from ..lab import lab_page
from .analysis import Line

# The sides offered in the page's menus; any agent spec may be typed instead.
LEVELS = [
    {"spec": "human", "label": "Human"},
    {"spec": "random", "label": "AI: random"},
    {"spec": "greedy", "label": "AI: greedy (1 ply)"},
    {"spec": "alphabeta:depth=3", "label": "AI: easy (alpha-beta, 3 plies)"},
    {"spec": "ai:time=0.5", "label": "AI: medium (0.5 s a move)"},
    {"spec": "mcts:time=1", "label": "AI: Monte Carlo tree search (1 s a move)"},
    {"spec": "ai:time=2", "label": "AI: strong (2 s a move)"},
    {"spec": "solver", "label": "Solver (perfect play, where a table exists)"},
    {"spec": "learned", "label": "Learned net (self-play, where a model ships)"},  # learned:NAME: "models"
]

router = APIRouter()


@router.get("/api/lab/{game}")
def lab(game: str, web: Web):
    """The game's explored variants, a heat map a family (see boomboard.lab)."""
    return lab_page(game, web.lab_store or default_lab_store())


@router.get("/api/rules/{game}")
async def rules(game: str):
    """A game's rules as HTML, from the game's own folder, with an example
    position and the steps of its move, for the page to animate."""
    return pages.rules_page(game)


@router.post("/api/position")
async def position(request: Line, http: Request, web: Web):
    """Any position, described as the page draws it: for a link to share."""
    return await web.off_loop(http, pages.position_page, request.game, request.position, request.actions)


@router.get("/api/solver")
async def solver_table(game: str, web: Web, position: str | None = None):
    """Whether the solver has a table for this game (from ``position``):
    the page offers the solver as a side only then."""
    service = web.service
    return {"table": await service.run_off_loop(analysis.has_table, game, position, service.solver_db, cheap=True)}


@router.get("/api/learned")
async def learned_model(game: str, web: Web):
    """Whether a trained model ships for this game and the learn extra is
    installed (``model``): the page offers the learned player as a side
    only then; else whether one ships (``ships``), and if so which extra
    to install (``needs``, one line)."""
    return await web.service.run_off_loop(analysis.learned_model, game, cheap=True)


@router.get("/api/catalog")
async def catalog(web: Web):
    """The games with their parameters (and the one the page offers first), and the sides the page offers."""
    games = []
    for info in registered_games():
        if not provides(game_class(info.name), PLAY):  # a game without pictures cannot be shown here
            continue
        games.append({
            "name": info.name, "title": info.title, "player_names": list(info.player_names), "doc": info.doc,
            "parameters": [{"name": p.name, "default": p.default, "kind": p.kind.__name__, "help": p.help,
                            "minimum": p.minimum, "maximum": p.maximum, "choices": p.choices,
                            "text": format_value(p.default)} for p in info.parameters],
        })
    arena = web.archive.arena is not None
    return {"games": games, "default": DEFAULT_GAME, "levels": LEVELS, "agent_kinds": agent_kinds(),
            "arena": arena, "arena_chart": arena, "models": web.shelf.names()}
