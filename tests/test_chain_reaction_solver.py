"""Chain Reaction solved on small grids: the solver's table (a layer per orb
count) agrees, position by position, with a plain minimax over the public API."""

from __future__ import annotations

from functools import cache

import pytest

import boomboard
from boomboard.solver import solve


def minimax(game):
    """(win, plies to the end with perfect play) for the player to move: wins as
    fast and losses as slow as possible, as the solver's remoteness counts them."""

    @cache
    def value(notation: str) -> tuple[bool, int]:
        state = game.state_from_notation(notation)
        outcome = state.outcome()
        if outcome is not None:
            return outcome.winner == state.current_player(), 0
        results = [value(state.child(action).to_notation()) for action in state.legal_actions()]
        wins = [plies for child_wins, plies in results if not child_wins]
        if wins:
            return True, 1 + min(wins)
        return False, 1 + max(plies for _, plies in results)

    return value


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3)])
def test_every_solved_position_agrees_with_plain_minimax(tmp_path, rows, cols):
    game = boomboard.load_game("chain_reaction", rows=rows, cols=cols)
    table = solve(game, db=tmp_path, progress=False)
    value = minimax(game)
    checked = 0
    frontier, seen = [game.new_initial_state()], set()
    while frontier:
        state = frontier.pop()
        notation = state.to_notation()
        if notation in seen or state.is_terminal():
            continue
        seen.add(notation)
        entry = table.lookup(state)
        wins, plies = value(notation)
        assert (entry.value, entry.remoteness) == ("win" if wins else "lose", plies), notation
        checked += 1
        frontier.extend(state.child(action) for action in state.legal_actions())
    assert checked == len(table.keys)
