"""Analyses and values: every legal move's value or score in a game's
position or any line's, and the value of every position of a game or a
line, one analysis a position (kept by the game for the next request)."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from ...core.errors import BoomboardError
from .. import analysis
from ..context import Web, WebState, client, unless_abandoned, waited

# What a values request sends, one line a point as each is ready, when it asks for it (Accept).
POINTS_MEDIA_TYPE = "application/x-ndjson"


class Line(BaseModel):
    model_config = ConfigDict(strict=True)

    game: str = Field(description="a game string, e.g. 'kaboom(rows=5)'")
    position: str | None = Field(None, description="the first position in the game's notation (default: the start)")
    actions: list[StrictInt] = Field(default_factory=list, description="action ids played since")


def _check_line(line: Line) -> None:
    """Replay the line here first, so that a bad one is a 400 with the reason, not a worker's failure."""
    analysis.rebuild(line.game, line.position, line.actions)


router = APIRouter()


@router.get("/api/games/{game_id}/analysis")
async def analyse(game_id: str, http: Request, web: Web):
    """Every legal move's value (solver) or score (search) for the player to move."""
    return await unless_abandoned(http, _cached(web, game_id, http, None))


@router.get("/api/games/{game_id}/values", response_class=JSONResponse,
            responses={200: {"content": {POINTS_MEDIA_TYPE: {}}}})
async def values(game_id: str, http: Request, web: Web):
    """The value of every position so far, from the first player's side:
    each its analysis's (the one ``analysis`` gives, kept by the game),
    so only positions not valued before are searched; a point is kept
    while the move played from its position is (an undo, a longer game).
    Asked with ``Accept: application/x-ndjson``, the points come one a
    line as each is ready, first to last."""
    web.service.get(game_id)  # an unknown id is a 404 before any point
    return await _points(http, _game_points(web, game_id, http))


@router.post("/api/analysis")
async def analyse_line(request: Line, http: Request, web: Web):
    """The analysis of any position: a game, its first position and the actions since."""
    await web.work.run(client(http), _check_line, request)
    return await unless_abandoned(http, _analysed(web, http, request.game, request.position, request.actions))


@router.post("/api/values", response_class=JSONResponse, responses={200: {"content": {POINTS_MEDIA_TYPE: {}}}})
async def values_of_line(request: Line, http: Request, web: Web):
    """The value of every position of any line of play: each its own
    analysis, one worker call a position, so that each call is held to the
    per-call CPU limit however long the game (a chart of 80 Expendibots
    positions is about 34 CPU s of searches). Asked with ``Accept:
    application/x-ndjson``, the points come one a line as each is ready."""
    await web.work.run(client(http), _check_line, request)
    return await _points(http, _line_points(web, request, http))


async def _analysed(web: WebState, http: Request, game: str, position: str | None, actions) -> dict:
    """The analysis of the position after ``actions`` from ``position``: as
    made before for the same line, by any client (an analysis depends on the
    line and the server's tables alone: its searches stop at a node budget,
    not a clock), or in a worker within the client's share, shed if it
    cannot start soon."""
    line = (game, position, tuple(actions))
    kept = web.analyses.get(line)
    if kept is not None:
        return json.loads(kept)
    result = await web.service.run_off_loop(analysis.analyse, game, position, actions, web.service.solver_db,
                                            client=client(http), queue=False, waited=waited(http))
    web.analyses[line] = json.dumps(result)
    return result


async def _game_points(web: WebState, game_id: str, http: Request):
    session = web.service.get(game_id)
    actions = tuple(session.record.actions)
    cached = session.value_history  # (actions, points) of the last request: maybe not every point yet
    points = [] if cached is None else cached[1][:_points_kept(cached[0], actions, len(cached[1]))]
    for point in points:
        yield point
    for ply in range(len(points), len(actions) + 1):
        result = await _cached(web, game_id, http, actions[:ply])
        points.append(analysis.history_point(ply, result, actions[ply] if ply < len(actions) else None))
        session.value_history = (actions, list(points))
        yield points[-1]


async def _line_points(web: WebState, request: Line, http: Request):
    actions = request.actions
    for ply in range(len(actions) + 1):
        result = await _analysed(web, http, request.game, request.position, actions[:ply])
        yield analysis.history_point(ply, result, actions[ply] if ply < len(actions) else None)


async def _points(http: Request, points):
    """A values request's answer: ``{"values": [...]}`` once every point is
    there, or (``Accept: application/x-ndjson``) a stream of one point a
    line as each is ready. Either way, a client that goes away stops the
    work: the analysis running is stopped and no further one starts."""
    if POINTS_MEDIA_TYPE in http.headers.get("accept", ""):
        # every line has a first position: a refusal of its analysis is an error answer, not a stream
        first = await unless_abandoned(http, anext(points))
        if isinstance(first, Response):  # nobody is waiting for it any more
            return first

        async def lines():
            yield json.dumps(first) + "\n"
            try:
                async for point in points:
                    yield json.dumps(point) + "\n"
            except BoomboardError as refused:  # the answer has begun: its last line says why it stops
                yield json.dumps({"error": str(refused), "retry_after": getattr(refused, "retry_after", None)}) \
                    + "\n"

        return StreamingResponse(lines(), media_type=POINTS_MEDIA_TYPE, headers={"Cache-Control": "no-cache"})

    async def every_point():
        return {"values": [point async for point in points]}

    return await unless_abandoned(http, every_point())


async def _cached(web: WebState, game_id: str, http: Request, line: tuple | None):
    """The analysis of the game's position (or that after the actions
    ``line`` from its start), kept by the game for the next request."""
    session = web.service.get(game_id)
    record = session.record
    actions = list(record.actions if line is None else line)
    key = ("analysis", tuple(actions))
    result = session.analysis(key)
    if result is None:
        result = await _analysed(web, http, record.game, record.position, actions)
        session.keep_analysis(key, result)
    return result


def _points_kept(before: tuple, actions: tuple, count: int) -> int:
    """How many of the ``count`` value points of the line ``before`` hold for
    the line ``actions``: each point is its position's and the move played
    from it, so those up to the first move that differs (all of them for
    the same line)."""
    if before == actions:
        return count
    same = next((i for i, pair in enumerate(zip(before, actions)) if pair[0] != pair[1]),
                min(len(before), len(actions)))
    return min(same, count)
