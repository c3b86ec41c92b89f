"""The course's student AI for Jump61, as a boomboard agent (tests only).

The design most CS61B students hand in: alpha-beta (minimax with pruning) to
a fixed depth of 4 plies, scoring a position by its squares (the mover's
squares less the opponent's), a won game beyond any count; squares tried in
order (row by row), the first of equal moves kept. Compiled, so a 20-game
match takes seconds. ``python:tests/arena_agents/jump61_student.py:StudentAgent`` plays it
in the arena.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boomboard.agents import Agent
from boomboard.core.layout import PLAYER, STATUS
from boomboard.games.jump61.rules import COUNT, apply_action, legal_actions

WIN = 1_000_000
DEPTH = 4


@njit
def _square_count(s):
    player = s[PLAYER]
    return s[COUNT + player] - s[COUNT + 1 - player]


@njit
def _negamax(s, params, depth, alpha, beta, ply, moves):
    """The value of ``s`` for its player to move (a win sooner is worth more)."""
    if s[STATUS] != 0:
        # Jump61 ends with the player who just moved owning every square.
        return ply - WIN if s[STATUS] != 1 + s[PLAYER] else WIN - ply
    if depth == 0:
        return _square_count(s)
    n = legal_actions(s, params, moves[ply])
    best = -2 * WIN
    for i in range(n):
        child = s.copy()
        apply_action(child, params, moves[ply, i])
        value = -_negamax(child, params, depth - 1, -beta, -alpha, ply + 1, moves)
        if value > best:
            best = value
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best


@njit
def _choose(s, params, depth, moves):
    n = legal_actions(s, params, moves[0])
    best, best_move = -2 * WIN, moves[0, 0]
    for i in range(n):
        child = s.copy()
        apply_action(child, params, moves[0, i])
        value = -_negamax(child, params, depth - 1, -2 * WIN, -best, 1, moves)
        if value > best:
            best, best_move = value, moves[0, i]
    return best_move


class StudentAgent(Agent):
    """The student AI: alpha-beta to ``depth`` plies on the square count."""

    name = "jump61-student"

    def __init__(self, seed: int | None = None, depth: int = DEPTH):
        super().__init__(seed)
        self.depth = depth

    def choose_action(self, state) -> int:
        moves = np.zeros((self.depth + 1, state.game.num_distinct_actions()), np.int32)
        return int(_choose(state.array.copy(), state.game.params_array, self.depth, moves))
