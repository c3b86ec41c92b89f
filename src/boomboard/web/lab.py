"""The lab's page, ``/lab/GAME``: what ``boomboard explore`` stored of a
game, as the heat maps and first-move strips of :mod:`boomboard.lab.picture`
arrange it (a family of variants a map, its first two swept parameters
down and across), for the page to draw."""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import HTTPException

from ..lab.picture import along, cell_text, families, family_title
from ..lab.store import Store, StoreError
from ..registry import game_class

log = logging.getLogger("boomboard.web")


def lab_page(name: str, store_path: str | Path) -> dict:
    """The families of game ``name`` in the lab store at ``store_path`` (none
    when there is no store yet); an unknown game is a :class:`BoomboardError`,
    a damaged store a 503 that names no file (the server's log does)."""
    cls = game_class(name)
    axes = list(cls.lab_axes)
    rows = []
    if Path(store_path).is_file():
        try:
            with Store(store_path) as store:
                rows = store.rows(cls.name)
        except StoreError as problem:  # the file's path and its fix are the server's business, not a client's
            log.error("the lab page of %s: %s", cls.name, problem)
            raise HTTPException(503, "the lab's store on this server cannot be read; the server's log says why") from None

    shown = []
    for family, members in families(rows, axes).items():
        shown.append({
            "title": family_title(cls.name, family),
            "down": sorted({along(row, axes, 0) for row in members}),
            "across": sorted({along(row, axes, 1) for row in members}),  # all None, or none None
            "cells": [{"variant": row.variant, "down": along(row, axes, 0), "across": along(row, axes, 1),
                       "text": cell_text(row), "exact": row.exact, "estimate": row.estimate,
                       "agreement": row.agreement} for row in members],
        })
    return {"name": cls.name, "title": cls.title, "axes": axes, "families": shown,
            "results": cls.presentation.result_colours()}
