"""The rules of the broken game: a counter the players add 1 to until it reaches 3."""

import numpy as np

from boomboard.core.layout import HEADER, PLAYER, PLY, REASON, STATUS, cell_hash, win_status
from boomboard.jit import njit

COUNTER = HEADER
REASON_STUCK = 3  # wrongly the shared code of REPETITION: the contract check says so


@njit(cache=True)
def legal_actions(s, params, out):
    if s[STATUS]:
        return 0
    out[0] = 0
    return 1


@njit(cache=True)
def _play(s, params, action):
    s[COUNTER] += 1
    if s[COUNTER] >= 3:
        s[STATUS] = win_status(s[PLAYER])
        s[REASON] = REASON_STUCK
    s[PLY] += 1
    s[PLAYER] = 1 - s[PLAYER]


@njit(cache=True)
def apply_action(s, params, action):
    _play(s, params, action)


@njit(cache=True)
def apply_action_steps(s, params, action, steps, flashes):
    _play(s, params, action)
    return 0


@njit(cache=True)
def position_key(s, params):
    return cell_hash(0, s[COUNTER]) ^ np.uint64(s[PLAYER])
