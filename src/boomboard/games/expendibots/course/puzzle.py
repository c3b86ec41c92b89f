"""The Expendibots course's first task: White alone clears the board of Black.

Given a position in the course's JSON, where only White acts and Black never
does, :func:`solve_puzzle` finds a shortest sequence of White actions after
which no Black token remains (White may lose tokens on the way, or all of
them in the last blast).

The search is A* over positions (each seen once), with an admissible bound
from the chain reactions: a boom explodes exactly the *group* (stacks linked
square to square, diagonals included) of the stack it starts at. With ``K``
groups holding Black tokens, a boom clears one group and a move can join at
most four groups into one (no more than four stacks around a square are
pairwise apart), so at least ``m + b`` more actions are needed where
``b >= 1``, ``b + 3m >= K``, and ``m >= 1`` if no such group holds a White
stack.
"""

from __future__ import annotations

import heapq
import itertools
from contextlib import ExitStack

import numpy as np

from ....core.errors import BoomboardError
from ....core.layout import PLAYER, STATUS
from ....jit import interpreted
from ....registry import load_game

_BOARD_SIZE = 8


class PuzzleError(BoomboardError):
    """A puzzle with no solution, or one too large to search."""


def _groups(board: np.ndarray) -> tuple[int, int]:
    """``(groups with Black and White, groups with Black only)``."""
    occupied = {int(sq) for sq in np.flatnonzero(board)}
    seen: set[int] = set()
    mixed = black_only = 0
    for start in occupied:
        if start in seen:
            continue
        seen.add(start)
        stack, has_white, has_black = [start], False, False
        while stack:
            sq = stack.pop()
            has_white |= board[sq] > 0
            has_black |= board[sq] < 0
            x, y = sq % _BOARD_SIZE, sq // _BOARD_SIZE
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    nx, ny = x + dx, y + dy
                    other = ny * _BOARD_SIZE + nx
                    if 0 <= nx < _BOARD_SIZE and 0 <= ny < _BOARD_SIZE and other in occupied and other not in seen:
                        seen.add(other)
                        stack.append(other)
        if has_black:
            if has_white:
                mixed += 1
            else:
                black_only += 1
    return mixed, black_only


def lower_bound(board: np.ndarray) -> int:
    """The admissible estimate of the module's description (0 once Black is gone)."""
    mixed, black_only = _groups(board)
    groups = mixed + black_only
    if groups == 0:
        return 0
    best = None
    for moves in range(0 if mixed else 1, groups + 1):
        cost = moves + max(1, groups - 3 * moves)
        best = cost if best is None else min(best, cost)
    return best


# Positions searched with the rules run as plain Python before compiling them:
# loading the compiler costs more than searching this many (tenths of a second).
INTERPRETED_POSITIONS = 2_000


def solve_puzzle(position: str, max_nodes: int = 2_000_000) -> list[str]:
    """A shortest list of White actions, in the text form, that removes every
    Black token from ``position`` (the course's JSON); ``[]`` if none is there.

    Small puzzles are searched with the rules interpreted (no compiler
    loaded); past :data:`INTERPRETED_POSITIONS` positions the rules compile."""
    with ExitStack() as small:
        small.enter_context(interpreted())
        return _search(position, max_nodes, small)


def _search(position: str, max_nodes: int, small: ExitStack) -> list[str]:
    game = load_game("expendibots")
    start = game.state_from_notation(position)
    from ..rules import BOARD, TOKENS

    root = start.array.copy()
    root[PLAYER], root[STATUS] = 0, 0
    if root[TOKENS + 1] == 0:
        return []
    if root[TOKENS] == 0:
        raise PuzzleError("White has no tokens, so Black's cannot be cleared")
    rules, params, buffer = game.rules, game.params_array, game.action_scratch()
    parents: dict[bytes, tuple[bytes | None, int]] = {root[BOARD:].tobytes(): (None, -1)}
    depth = {root[BOARD:].tobytes(): 0}
    tie = itertools.count()
    frontier = [(lower_bound(root[BOARD:]), 0, next(tie), root)]
    while frontier:
        _, cost, _, array = heapq.heappop(frontier)
        key = array[BOARD:].tobytes()
        if depth[key] < cost:
            continue
        count = rules.legal_actions(array, params, buffer)
        for action in buffer[:count].tolist():
            child = array.copy()
            rules.apply_action(child, params, action)
            child_key = child[BOARD:].tobytes()
            if child[TOKENS + 1] == 0:
                parents[child_key] = (key, action)
                return _path(parents, child_key, start)
            if child[TOKENS] == 0 or depth.get(child_key, cost + 2) <= cost + 1:
                continue
            child[PLAYER], child[STATUS] = 0, 0
            depth[child_key] = cost + 1
            parents[child_key] = (key, action)
            heapq.heappush(frontier, (cost + 1 + lower_bound(child[BOARD:]), cost + 1, next(tie), child))
        if len(depth) > INTERPRETED_POSITIONS:
            small.close()
        if len(depth) > max_nodes:
            raise PuzzleError(f"searched {len(depth):,} positions without a solution; the puzzle is too large")
    raise PuzzleError("no sequence of White actions clears Black's tokens from this position")


def _path(parents, key: bytes, start) -> list[str]:
    actions = []
    while True:
        parent, action = parents[key]
        if parent is None:
            break
        actions.append(action)
        key = parent
    return [start.action_to_course(a) for a in reversed(actions)]
