"""Every game's kernels behind one compiled switch on a game id.

The searches are compiled once for all games and cached on disk: numba cannot
cache a function that takes other compiled functions as arguments, so instead
of passing a game's kernels in, the searches call these functions with a
small integer naming the game's rules. Each branch is a direct call the
compiler inlines, so the switch costs one well-predicted comparison.
"""

from __future__ import annotations

from boomboard.jit import njit

from ..core.game import Game
from ..games.expendibots import evaluation as expendibots_evaluation
from ..games.expendibots import rules as expendibots
from ..games.explocus import evaluation as explocus_evaluation
from ..games.explocus import rules as explocus
from ..games.jump61 import evaluation as jump61_evaluation
from ..games.jump61 import rules as jump61
from ..games.kaboom import evaluation as kaboom_evaluation
from ..games.kaboom import rules as kaboom

EXPENDIBOTS, JUMP61, KABOOM, EXPLOCUS = 0, 1, 2, 3
_RULES_IDS = {expendibots: EXPENDIBOTS, jump61: JUMP61, kaboom: KABOOM, explocus: EXPLOCUS}


def rules_id(game: Game) -> int:
    """The id these kernels know ``game``'s rules by (HExplocus shares Explocus's)."""
    return _RULES_IDS[game.rules]


@njit(cache=True)
def legal_actions(rules, s, params, out):
    if rules == EXPENDIBOTS:
        return expendibots.legal_actions(s, params, out)
    if rules == JUMP61:
        return jump61.legal_actions(s, params, out)
    if rules == KABOOM:
        return kaboom.legal_actions(s, params, out)
    return explocus.legal_actions(s, params, out)


@njit(cache=True)
def apply_action(rules, s, params, action):
    if rules == EXPENDIBOTS:
        expendibots.apply_action(s, params, action)
    elif rules == JUMP61:
        jump61.apply_action(s, params, action)
    elif rules == KABOOM:
        kaboom.apply_action(s, params, action)
    else:
        explocus.apply_action(s, params, action)


@njit(cache=True)
def position_key(rules, s, params):
    if rules == EXPENDIBOTS:
        return expendibots.position_key(s, params)
    if rules == JUMP61:
        return jump61.position_key(s, params)
    if rules == KABOOM:
        return kaboom.position_key(s, params)
    return explocus.position_key(s, params)


@njit(cache=True)
def evaluate(rules, s, params):
    """The game's static evaluation, for the player to move (see each game's ``evaluation.py``)."""
    if rules == EXPENDIBOTS:
        return expendibots_evaluation.evaluate(s, params)
    if rules == JUMP61:
        return jump61_evaluation.evaluate(s, params)
    if rules == KABOOM:
        return kaboom_evaluation.evaluate(s, params)
    return explocus_evaluation.evaluate(s, params)


@njit(cache=True)
def is_explosive(rules, s, params, action):
    """Whether ``action`` blows something up (see each game's ``evaluation.py``):
    what the quiescence search follows past the horizon."""
    if rules == EXPENDIBOTS:
        return expendibots_evaluation.is_explosive(s, params, action)
    if rules == JUMP61:
        return jump61_evaluation.is_explosive(s, params, action)
    if rules == KABOOM:
        return kaboom_evaluation.is_explosive(s, params, action)
    return explocus_evaluation.is_explosive(s, params, action)
