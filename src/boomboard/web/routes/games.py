"""The games played here: a new game, the list, one game, and its changes
(a move, an undo, a resignation, a stop, a pause, its deletion), each
asked by the game's owner (see "Owners" in :mod:`boomboard.web.app`)."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ...registry import DEFAULT_GAME
from ..context import (Web, WebState, client, hashed, json_response, owner_token, page_limit,
                       page_offset)
from ..openapi import A_GAME, GAME_LINKS
from ..service import NotFound
from ..store import ABANDONED_AFTER_SECONDS, owner_hash


class NewGame(BaseModel):
    model_config = ConfigDict(strict=True)  # "seed": "5" or true is a malformed request, not a seed

    game: str = Field(description="a game name or game string, e.g. 'kaboom' or 'jump61(size=3)'",
                      examples=[DEFAULT_GAME])
    params: dict[str, Any] = Field(default_factory=dict)
    players: list[str] = Field(default_factory=lambda: ["human", "ai:time=0.5"], min_length=2, max_length=2,
                               examples=[["human", "human"], ["human", "random"]])
    position: str | None = None
    pace: float | None = None
    seed: int | None = None


class Move(BaseModel):
    move: StrictInt | StrictStr = Field(description="the move in the game's notation, or its action id")


class Resign(BaseModel):
    player: StrictInt | None = Field(None, ge=0, le=1, description="who resigns (default: the human to move)")


class Undo(BaseModel):
    """An undo takes no settings; its body is ``{}`` (a JSON body, as every change asks)."""


class Stop(BaseModel):
    """A stop takes no settings; its body is ``{}``."""


class Pause(BaseModel):
    paused: StrictBool = Field(True, description="true: hold the game; false: let it go on")


router = APIRouter()


@router.post("/api/games", status_code=201, responses={201: {"description": "the new game", "links": GAME_LINKS}})
async def new_game(request: NewGame, http: Request, web: Web):
    """A new game, owned by the client whose token is in the ``X-Boomboard-Owner``
    header; without one, by a token made here and answered as ``owner_token``
    (send it with each change of the game)."""
    token = owner_token(http) or secrets.token_urlsafe(24)
    session = await web.service.create(request.game, request.params, request.players, request.position,
                                       request.pace, request.seed, client=client(http), owner=owner_hash(token))
    return {**web.service.describe(session), "owned": True, "owner_token": token}


@router.get("/api/games")
async def list_games(http: Request, web: Web, limit: int = 50, offset: int = 0, game: str | None = None,
                     status: str = "listed"):
    """The games played here, last played first: of one ``game`` (any variant) where
    given, and of a ``status``: ``listed`` (finished, and in progress but not
    abandoned), ``finished``, ``playing`` or ``abandoned`` (unfinished, no move for 7 days)."""
    owner = hashed(owner_token(http))

    def listed():
        return {"games": web.archive.list("web", page_limit(limit), page_offset(offset), game=game, status=status,
                                          owner=owner),
                "abandoned_after": ABANDONED_AFTER_SECONDS}

    return await web.off_loop(http, listed)


@router.delete("/api/games/{game_id}")
async def delete_game(game_id: str, http: Request, web: Web):
    """Remove a game played here (its AI stopped): for good. Only its owner may."""
    token = owner_token(http)

    def deleted():
        _claim(web, game_id, token)
        web.service.delete(game_id)

    await web.game_work.run(client(http), deleted)
    return {"deleted": game_id}


@router.get("/api/games/{game_id}", responses=A_GAME)
async def get_game(game_id: str, http: Request, web: Web):
    """The game, and whether the caller may change it (``owned``: its
    ``X-Boomboard-Owner`` token is the owner's, or nobody owns the game yet)."""
    token = owner_token(http)
    # read and described in one request thread: each hand-over between the loop and a thread waits its turn
    return await web.game_work.run(client(http), lambda: _described(web, web.service.get(game_id), token))


@router.post("/api/games/{game_id}/moves", responses=A_GAME)
async def play(game_id: str, request: Move, http: Request, web: Web):
    return await _change_game(web, http, game_id, web.service.play, request.move)


@router.post("/api/games/{game_id}/undo", responses=A_GAME)
async def undo(game_id: str, request: Undo, http: Request, web: Web):
    return await _change_game(web, http, game_id, web.service.undo)


@router.post("/api/games/{game_id}/resign", responses=A_GAME)
async def resign(game_id: str, request: Resign, http: Request, web: Web):
    return await _change_game(web, http, game_id, web.service.resign, request.player)


@router.post("/api/games/{game_id}/stop", responses=A_GAME)
async def stop(game_id: str, request: Stop, http: Request, web: Web):
    """End a game of AI against AI where it is, without a result (409 for one a human plays)."""
    return await _change_game(web, http, game_id, web.service.stop)


@router.post("/api/games/{game_id}/pause", responses=A_GAME)
async def pause(game_id: str, request: Pause, http: Request, web: Web):
    """Hold a game of AI against AI (``paused: true``) or let it go on
    (``false``); 409 for one a human plays."""
    return await _change_game(web, http, game_id, web.service.pause, request.paused)


async def _change_game(web: WebState, http: Request, game_id: str, change, *args) -> JSONResponse:
    """``change(game_id, *args)`` of :class:`GameService` asked by the
    game's owner (else a 403), made in a request thread (its SQLite write
    and kernel calls hold no other request up); then the game, described
    in another, once the change's AI has started on the loop."""
    token = owner_token(http)

    def claimed():
        _claim(web, game_id, token)
        return change(game_id, *args)

    return await _describe_game(web, http, await web.game_work.run(client(http), claimed), token)


def _claim(web: WebState, game_id: str, token: str | None) -> None:
    """Refuse (403) a change to a game another client owns (see the module's "Owners")."""
    try:
        web.store.claim(game_id, hashed(token))
    except KeyError:
        raise NotFound(f"no game with id {game_id!r}") from None


async def _describe_game(web: WebState, http: Request, session, token: str | None) -> Response:
    """:func:`_described`, in a request thread."""
    return await web.game_work.run(client(http), _described, web, session, token)


def _described(web: WebState, session, token: str | None) -> Response:
    """The game as the page draws it, with whether the caller, by its owner
    ``token``, may change it (``owned``); an answer made before for the
    same version of the game is sent again."""
    service = web.service
    owned = web.store.may_change(session.record.id, hashed(token))
    version, thinking = service.copy_of(session)
    key = (*service.mark(version, thinking), owned)
    with web.answers_lock:
        kept = web.answers.get(key)
    if kept is None:
        kept = json_response({**service.describe_copy(version, thinking), "owned": owned})
        with web.answers_lock:
            web.answers[key] = kept
    return Response(kept.body, media_type="application/json")
