"""What every router of the web app shares: the app's services, one
:class:`WebState` an app (``app.state.web``, handed to a route by the
dependency :data:`Web`), and what each request is asked (who sent it, its
owner token, whether its client is still there)."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import Response

from ..core.errors import ParameterError
from ..core.recent import Recent
from .archive import Archive
from .limits import WAITED, ServerLimits, StreamSlots, ThreadWork
from .models import ModelShelf
from .service import GameService
from .store import OWNER_HEADER, GameStore, owner_hash

# Answers about games kept encoded (LRU): a 509-ply game's is 35 KB, 202 KB with the cascade of a long last move.
ANSWERS_KEPT = 64
# Analyses of lines kept encoded (LRU), whoever asked: an analysis of a 36-move position is about 10 KB of JSON,
# one of 16x16 Jump61's 256 moves about 70 KB. A chart's first point, a game's start, is usually among them.
ANALYSES_SHARED = 512


@dataclass
class WebState:
    """One app's services and what its requests share: the games
    (``service``, on the database ``store``), the stored games and the
    arena's (``archive``), the learned models a side may name (``shelf``),
    the server's limits and the event streams they allow (``streams``),
    the lab's store (``None``: its default), the threads of requests'
    blocking work (``work``; ``game_work`` for reads and changes of single
    games, apart from the lists, so that a client's list does not hold its
    own moves up), and the last answers about games and their events,
    encoded once for every request that asks the same."""

    service: GameService
    store: GameStore
    archive: Archive
    shelf: ModelShelf
    server_limits: ServerLimits
    lab_store: str | Path | None
    streams: StreamSlots
    work: ThreadWork = field(default_factory=ThreadWork)
    game_work: ThreadWork = field(default_factory=ThreadWork)
    # by what each says (GameService.mark, and owned): a game read again unchanged is not encoded again
    answers: Recent[tuple, Response] = field(default_factory=lambda: Recent(ANSWERS_KEPT))
    answers_lock: threading.Lock = field(default_factory=threading.Lock)  # the answers are made in request threads
    # by line (game, first position, actions): any client's analysis of it, as JSON (a string, which the
    # collector does not scan); read and written on the event loop only
    analyses: Recent[tuple, str] = field(default_factory=lambda: Recent(ANALYSES_SHARED))
    # the last event of each game streamed, (its mark, its message as it is encoded): at most one a stream
    events_sent: OrderedDict[str, tuple[tuple, asyncio.Future]] = field(default_factory=OrderedDict)

    async def off_loop(self, http: Request, function, *args) -> Response:
        """``function(*args)``, and its answer's JSON, worked out in a request
        thread within the client's share (:class:`ThreadWork`): a long
        replay or list holds no other request up."""
        return await self.work.run(client(http), lambda: json_response(function(*args)))

    def close(self) -> None:
        """Stop the games' AIs and the request threads, and close the database."""
        self.service.close()
        self.work.close()
        self.game_work.close()
        self.store.close()


async def web_state(http: Request) -> WebState:
    """The app's :class:`WebState` (async: read on the event loop, not in a thread)."""
    return http.app.state.web


# A route's parameter ``web: Web`` is its app's state.
Web = Annotated[WebState, Depends(web_state)]


def client(request: Request) -> str | None:
    """Who sent a request, for the per-client caps: its address (:meth:`RequestGuard.client`)."""
    return request.app.state.guard.client(request.scope)


def waited(http: Request) -> float:
    """The seconds the request waited for the server before it was worked on (:data:`WAITED`), where measured."""
    return http.scope.get(WAITED, 0.0)


# What an owner token may be: what the page makes (base64url), long enough not to be guessed.
OWNER_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")


def owner_token(request: Request) -> str | None:
    """The request's owner token (``None``: it sent none); a malformed one is a 400."""
    token = request.headers.get(OWNER_HEADER)
    if token is not None and not OWNER_TOKEN.fullmatch(token):
        raise ParameterError(f"the {OWNER_HEADER} header is an owner token: 16 to 128 letters, digits, '-' or "
                             f"'_' (the one POST /api/games answered as owner_token)")
    return token


def hashed(token: str | None) -> str | None:
    """What the store keeps of an owner token (``None``: no token)."""
    return None if token is None else owner_hash(token)


def json_response(content) -> Response:
    """``content`` as a JSON answer, encoded where this is called (a request thread)."""
    try:
        return Response(json_bytes(content), media_type="application/json")
    except TypeError:  # not plain JSON data (FastAPI's encoder, 15 times slower, turns it into such)
        return Response(json_bytes(jsonable_encoder(content)), media_type="application/json")


# Items of a long list encoded in one call of json's encoder (see json_bytes).
ITEMS_A_PIECE = 8
_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode


def json_bytes(content) -> bytes:
    """``content`` as JSON (as Starlette's ``JSONResponse`` writes it), encoded
    a piece at a time: json's C encoder holds the interpreter lock for the
    whole of a call, so one call on a 230 KB answer (a long game with the
    cascade of its last move) would keep the event loop's thread, and every
    other request, waiting about 20 ms. The values of a dict and the items
    of its lists, :data:`ITEMS_A_PIECE` at a time, are encoded each in a call
    of its own, between which the loop takes its turn."""
    if not isinstance(content, dict) or not all(isinstance(key, str) for key in content):
        return _encode(content).encode()
    parts = []
    for key, value in content.items():
        if isinstance(value, list) and len(value) > ITEMS_A_PIECE:
            runs = (_encode(value[start:start + ITEMS_A_PIECE])[1:-1]
                    for start in range(0, len(value), ITEMS_A_PIECE))
            parts.append(f"{_encode(key)}:[{','.join(runs)}]")
        else:
            parts.append(f"{_encode(key)}:{_encode(value)}")
    return ("{" + ",".join(parts) + "}").encode()


def page_limit(limit: int) -> int:
    """A list's ``limit``, held to 1..500."""
    return min(max(limit, 1), 500)


MAX_OFFSET = 2**62  # SQLite's integers are 64-bit


def page_offset(offset: int) -> int:
    """A list's ``offset``: 0 or more, and at most :data:`MAX_OFFSET` (else a 400)."""
    if offset > MAX_OFFSET:
        raise ParameterError(f"'offset' must be at most 2**62, got {offset}")
    return max(offset, 0)


async def unless_abandoned(http: Request, work):
    """Await the coroutine ``work``, cancelled as soon as the client that
    asked goes away (its analysis in a worker is then stopped, see
    :meth:`GameService.run_off_loop`): nobody waits for its answer."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnected(http))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # this request itself cancelled: its work goes too
        task.cancel()
        raise
    finally:
        gone.cancel()
    if not task.done():  # the client went away first: the work is stopped, and the answer goes nowhere
        task.cancel()
        return Response(status_code=499)
    return task.result()


async def _disconnected(http: Request) -> None:
    """Return when the client of ``http`` has gone away."""
    while (await http.receive())["type"] != "http.disconnect":
        pass
