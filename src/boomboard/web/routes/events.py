"""A game's event stream: the game, sent whenever it changes, so that the
page need not poll; each stream holds one of the server's stream slots."""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request
from fastapi.encoders import jsonable_encoder

from ..context import Web, WebState, client
from ..openapi import EventStream, errors_as_json
from ..service import GameService, NotFound

# Seconds between two looks at a watched game, and of silence before a comment keeps the stream open.
LOOK_SECONDS = 0.05
KEEP_ALIVE_SECONDS = 15

router = APIRouter()


@router.get("/api/games/{game_id}/events", response_class=EventStream,
            responses=errors_as_json("one `data:` line with the game, as JSON, at each change"))
async def events(game_id: str, request: Request, web: Web):
    """Server-sent events: the game as ``GET /api/games/ID`` gives it, sent
    at once whenever it changes (a move, the AI starting to think, the
    end), so that the page need not poll. The stream ends with the game.
    A client may hold a few streams, and the server a bounded number in
    all (``ServerLimits``): past them, a 429 or a 503."""
    web.service.get(game_id)  # an unknown id is a 404 before the stream starts
    slot = web.streams.open(client(request))
    return _HeldStream(slot, _stream(web, game_id), headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _stream(web: WebState, game_id: str):
    """The messages of one stream: the game at each change, until it ends or is deleted."""
    seen = None
    quiet = 0.0
    while True:  # a client that goes away cancels this (StreamingResponse listens for it)
        try:
            session = web.service.get(game_id)
        except NotFound:  # deleted while watched: the stream ends with it
            return
        record = session.record
        mark = (tuple(record.actions), session.thinking, record.resigned, session.error, session.over,
                session.paused)
        if mark != seen:
            seen, quiet = mark, 0.0
            yield await _event(web, game_id, mark, session)
            if session.over:
                return
        elif quiet >= KEEP_ALIVE_SECONDS:
            quiet = 0.0
            yield ": still here\n\n"  # keeps proxies from closing an idle stream
        await asyncio.sleep(LOOK_SECONDS)
        quiet += LOOK_SECONDS


async def _event(web: WebState, game_id: str, mark: tuple, session) -> str:
    """The game's message for its state ``mark``: the streams watching one game share its encoding."""
    sent = web.events_sent
    kept = sent.get(game_id)
    if kept is None or kept[0] != mark:
        encoded = await asyncio.get_running_loop().run_in_executor(None, _encoded_event, web.service, session)
        kept = sent[game_id] = (mark, encoded)
    sent.move_to_end(game_id)
    while len(sent) > web.server_limits.streams:
        sent.popitem(last=False)
    return kept[1]


def _encoded_event(service: GameService, session) -> str:
    """A game's event-stream message: the game as ``GET /api/games/ID`` gives it, but ``owned``
    (a browser's stream carries no owner token)."""
    return f"data: {json.dumps(jsonable_encoder(service.describe(session)))}\n\n"


class _HeldStream(EventStream):
    """A streamed answer that holds an event-stream slot until it ends, however it ends."""

    def __init__(self, slot, content, **options):
        super().__init__(content, **options)
        self.slot = slot

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.slot.release()
