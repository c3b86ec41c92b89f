"""A game's event stream: the game, sent whenever it changes, so that the
page need not poll; each stream holds one of the server's stream slots.
A stream waits to be told of a change (:meth:`GameService.watch`): an idle
one costs nothing but a look every :data:`KEEP_ALIVE_SECONDS`."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request

from ..context import Web, WebState, client, json_response
from ..openapi import EventStream, errors_as_json
from ..service import GameService, NotFound

# Seconds of silence before a comment keeps the stream open; the game is looked at then too, so that a
# change stored by another server on the same database reaches this server's watchers within that time.
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
    service = web.service
    changed = service.watch(game_id)
    try:
        seen = None
        while True:  # a client that goes away cancels this (StreamingResponse listens for it)
            changed.clear()  # before the look: a change made during it sets it again
            try:
                mark, version, thinking = _look(service, game_id)
            except NotFound:  # deleted while watched: the stream ends with it
                return
            if mark != seen:
                seen = mark
                yield await _event(web, game_id, mark, version, thinking)
                if version.over:
                    return
            try:
                await asyncio.wait_for(changed.wait(), KEEP_ALIVE_SECONDS)
            except TimeoutError:
                yield ": still here\n\n"  # keeps proxies from closing an idle stream
    finally:
        service.unwatch(game_id, changed)


def _look(service: GameService, game_id: str) -> tuple:
    """The game as it is now (read back if another server changed it): ``(mark, copy, thinking)``
    (:meth:`GameService.copy_of`, :meth:`GameService.mark`). On the loop: a game in memory costs a read of
    the database's generation and a copy, some 50 microseconds, where a hand-over to a thread and back
    for each of a game's 100 streams made a move reach them 100 ms later."""
    version, thinking = service.copy_of(service.get(game_id))
    return service.mark(version, thinking), version, thinking


async def _event(web: WebState, game_id: str, mark: tuple, version, thinking: bool) -> str:
    """The game's message for its state ``mark``: the streams watching one game share its encoding,
    the one under way too (a change wakes them all at once)."""
    sent = web.events_sent
    kept = sent.get(game_id)
    if kept is None or kept[0] != mark:
        encoding = asyncio.get_running_loop().run_in_executor(None, _encoded_event, web.service, version, thinking)
        kept = sent[game_id] = (mark, encoding)
    sent.move_to_end(game_id)
    while len(sent) > web.server_limits.streams:
        sent.popitem(last=False)
    return await asyncio.shield(kept[1])  # a stream whose client goes away leaves the others their message


def _encoded_event(service: GameService, version, thinking: bool) -> str:
    """A game's event-stream message: the game as ``GET /api/games/ID`` gives it, but ``owned``
    (a browser's stream carries no owner token)."""
    return f"data: {json_response(service.describe_copy(version, thinking)).body.decode()}\n\n"


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
