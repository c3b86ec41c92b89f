"""The games boomboard knows, and :func:`load_game`.

>>> import boomboard
>>> game = boomboard.load_game("kaboom(rows=5,misere=true)")
>>> str(game)
'kaboom(rows=5,misere=true)'
"""

from __future__ import annotations

import importlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from .core.contract import require_game
from .core.errors import GameContractError, UnknownGameError
from .core.game import Game
from .core.params import Parameter, game_string, parse_game_string, resolve
from .games import PACKAGE_GAMES

# name -> "module:Class"; imported on first use so that loading one game does
# not pay for compiling the others.
_GAMES = dict(PACKAGE_GAMES)
_PACKAGE_GAMES = frozenset(_GAMES)
# What a command plays when no game is named (``boomboard play``, the engine
# protocol, the web page's new-game form).
DEFAULT_GAME = "kaboom"
# The registered games whose class has been checked against the game contract.
_CHECKED: set[str] = set()


@dataclass(frozen=True)
class GameInfo:
    """A registered game: its name, title, players and declared parameters."""

    name: str
    title: str
    player_names: tuple[str, str]
    parameters: tuple[Parameter, ...]
    doc: str


def game_names() -> list[str]:
    """The names :func:`load_game` accepts."""
    return list(_GAMES)


def game_class(name: str) -> type[Game]:
    """The class of a registered game, checked against the game contract
    (:mod:`boomboard.core.contract`) the first time it is asked for."""
    key = name.lower()
    try:
        target = _GAMES[key]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(_GAMES)}") from None
    cls = _import_class(target)
    if key not in _CHECKED:
        _check_registered(key, target, cls)
        _CHECKED.add(key)
    return cls


def register_game(name: str, target: str) -> None:
    """Register a game (``target``: ``"package.module:Class"``) under ``name``,
    which must be the class's ``name``. The class and its folder are checked
    against the game contract now: a game that breaks it is refused with one
    :class:`GameContractError` naming every problem, and nothing is registered."""
    if name in _GAMES:
        raise GameContractError(f"a game named {name!r} is registered already")
    try:
        cls = _import_class(target)
    except (ImportError, AttributeError, ValueError) as error:
        raise GameContractError(f"game {name!r}: cannot import {target!r} ({error})") from None
    _check_registered(name, target, cls)
    _GAMES[name] = target
    _CHECKED.add(name)


def outside_registration(name: str) -> tuple[str, str] | None:
    """``(name, target)`` of a game registered from outside the package
    (:func:`register_game`), for a process that must load it too (an arena
    agent's); None for a game of the package, which every process knows."""
    target = _GAMES.get(name)
    return None if target is None or name in _PACKAGE_GAMES else (name, target)


def adopt_registration(name: str, target: str) -> None:
    """Register the game ``target`` under ``name`` in this process unless it is
    registered already (what :func:`outside_registration` of another process gave)."""
    if name not in _GAMES:
        register_game(name, target)


def _import_class(target: str) -> type:
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def _check_registered(name: str, target: str, cls: type) -> None:
    require_game(cls, f"{name} ({target})")
    if cls.name != name:
        raise GameContractError(f"game {name!r} ({target}) is registered under another name than its own, {cls.name!r}")


def registered_games() -> list[GameInfo]:
    """Every game with its parameters and their defaults."""
    infos = []
    for name in _GAMES:
        cls = game_class(name)
        doc = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        infos.append(GameInfo(name, cls.title, cls.player_names, cls.parameters, doc))
    return infos


# The games load_game keeps, the most recently loaded last: at most
# GAME_CACHE_SIZE of them, so a server asked for ever new variants does not
# grow without end. A game dropped from it is built again when next asked for.
GAME_CACHE_SIZE = 64
_CACHE: OrderedDict[str, Game] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def load_game(name: str, /, **params: Any) -> Game:
    """A game by name, OpenSpiel-style: ``load_game("kaboom", rows=5)`` or
    ``load_game("kaboom(rows=5)")``.

    Games are immutable and cached: the same game string gives the same
    object while it is among the :data:`GAME_CACHE_SIZE` (64) games loaded
    most recently, and an equal one after. Any thread may call it, and
    threads may share the game (see docs/reference/api.md, "Threads")."""
    base, from_string = parse_game_string(name)
    cls = game_class(base)
    values = {**from_string, **params}
    key = game_string(cls.name, cls.parameters, resolve(cls.parameters, values))
    with _CACHE_LOCK:
        game = _CACHE.get(key)
        if game is not None:
            _CACHE.move_to_end(key)
            return game
    built = cls(**values)  # outside the lock: a first load may compile for a while
    with _CACHE_LOCK:
        game = _CACHE.setdefault(key, built)  # a thread that built it meanwhile won: one object for all
        _CACHE.move_to_end(key)
        while len(_CACHE) > GAME_CACHE_SIZE:
            _CACHE.popitem(last=False)
    return game
