"""Imported once by the server agent processes fork from (see
:mod:`boomboard.arena.referee`): each game's compiled rules are loaded from
the kernel cache here, so every agent process starts with them ready instead
of loading them again, game after game. Only games already compiled
(``boomboard compile``) are loaded: compiling here would make every
tournament compile every game.

It also makes SIGINT ignored, first of all: the forkserver gives each child
it forks the signal handlers that were in place once its preloading ended,
so an agent process ignores Ctrl-C from its first instruction, not only from
when :func:`~boomboard.arena.agent_process.agent_main` says so (a Ctrl-C
while an agent process was starting printed its ``KeyboardInterrupt``
traceback). Ctrl-C is the arena's to handle."""

import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)

from ..jit import interpreted, is_cached  # noqa: E402 (the signal comes first, on purpose)
from ..registry import game_names, load_game  # noqa: E402


def _load_rules() -> None:
    for name in game_names():
        try:
            with interpreted():  # making the game compiles nothing
                game = load_game(name)
            if not is_cached([game.rules.apply_action, game.rules.legal_actions]):
                continue
            state = game.new_initial_state()
            state.child(state.legal_actions()[0])
        except Exception:  # only a head start: an agent process loads what it needs anyway
            continue


_load_rules()
