"""Stored games, ours (``web``) and the arena's (``arena``): their lists,
each as a game record to download, a game at any ply, and any game
record replayed."""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ...records import MAX_RECORD_CHARS
from ..archive import replay_record
from ..context import Web, client, page_limit, page_offset
from ..openapi import RecordText, errors_as_json
from ..service import NotFound


class RecordReplay(BaseModel):
    model_config = ConfigDict(strict=True)

    record: str = Field(description=f"one game record (docs/reference/records.md), at most {MAX_RECORD_CHARS:,} characters")
    ply: int | None = Field(None, ge=0, description="the moves to show played (default: all)")


router = APIRouter()


@router.get("/api/archive/{source}")
async def archive_list(source: str, http: Request, web: Web, limit: int = 50, offset: int = 0,
                       tournament: str | None = None):
    def listed():
        return {"games": web.archive.list(_source(source), page_limit(limit), page_offset(offset), tournament)}

    return await web.off_loop(http, listed)


@router.get("/api/archive/{source}/{game_id}/record", response_class=RecordText,
            responses=errors_as_json("the game as a game record (text), to download"))
async def game_record(source: str, game_id: str, http: Request, web: Web):
    """A stored game as a game record (docs/reference/records.md), as a file to save."""
    text = await web.work.run(client(http), web.archive.record_text, _source(source), game_id)
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{source}-{game_id}")[:80]
    return RecordText(text, headers={"content-disposition": f'attachment; filename="boomboard-{name}.txt"'})


@router.post("/api/records/replay")
async def replay_a_record(request: RecordReplay, http: Request, web: Web):
    """A game record's position after ``ply`` moves (default: its end), as a replay
    is shown: a record opened from a link or a file."""
    return await web.off_loop(http, replay_record, request.record, request.ply)


@router.get("/api/replay/{source}/{game_id}")
async def replay(source: str, game_id: str, http: Request, web: Web, ply: int | None = None):
    return await web.off_loop(http, web.archive.replay, _source(source), game_id, ply)


def _source(source: str) -> str:
    if source not in ("web", "arena"):
        raise NotFound(f"unknown record source {source!r}; expected 'web' or 'arena'")
    return source
