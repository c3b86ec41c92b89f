"""Imported once by the server agent processes fork from (see
:mod:`boomboard.arena.referee`): each game's compiled rules are loaded from
numba's cache here, so every agent process starts with them ready instead
of loading them again, game after game."""

from ..registry import game_names, load_game


def _load_rules() -> None:
    for name in game_names():
        try:
            state = load_game(name).new_initial_state()
            state.child(state.legal_actions()[0])
        except Exception:  # only a head start: an agent process loads what it needs anyway
            continue


_load_rules()
