"""Reading a solved table: a position's moves, best first, and checking a table.

Moves are ranked as GAMESMAN ranks them, for the player making them: a
winning move (the child is a loss for the opponent) with the fewest moves to
the win, then a tie with the fewest moves to it, then a draw, then a losing
move with the most moves to the loss.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..core.state import State
from .solving import progress_bar
from .table import Entry, NotSolvedError, Table, tables_for

_FOR_THE_MOVER = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}
_RANK = {"win": 0, "tie": 1, "draw": 2, "lose": 3}


@dataclass(frozen=True)
class MoveAnalysis:
    """One legal move: its id, its notation, and its value and remoteness for
    the player making it (``remoteness`` counts this move; -1 for a draw)."""

    action: int
    notation: str
    value: str
    remoteness: int


@dataclass(frozen=True)
class Analysis:
    """A position's value and remoteness for the player to move, and every legal move, best first."""

    value: str
    remoteness: int
    moves: list[MoveAnalysis] = field(default_factory=list)

    @property
    def best_moves(self) -> list[MoveAnalysis]:
        """The moves as good as the best one (same value and remoteness)."""
        if not self.moves:
            return []
        first = self.moves[0]
        return [m for m in self.moves if (m.value, m.remoteness) == (first.value, first.remoteness)]


def move_entry(child: Entry) -> tuple[str, int]:
    """A move's value and remoteness for its maker, from the child's entry."""
    value = _FOR_THE_MOVER[child.value]
    return value, -1 if value == "draw" else child.remoteness + 1


def rank_key(value: str, remoteness: int) -> tuple[int, int]:
    """Sort key of a move (smaller is better): wins and ties sooner, losses later."""
    return (_RANK[value], -remoteness if value == "lose" else remoteness)


def analyze_with(table: Table, state: State) -> Analysis:
    entry = table.lookup(state)
    moves = []
    for action in state.legal_actions():
        value, remoteness = move_entry(table.lookup(state.child(action)))
        moves.append(MoveAnalysis(action, state.action_to_string(action), value, remoteness))
    moves.sort(key=lambda m: (*rank_key(m.value, m.remoteness), m.action))
    return Analysis(entry.value, entry.remoteness, moves)


def analyze(state: State, db: str | os.PathLike | None = None) -> Analysis:
    """The value and remoteness of ``state`` and of each of its legal moves,
    best first, from whichever solved table holds it.

    Raises :class:`~boomboard.solver.table.NotSolvedError` if none does."""
    return analyze_with(tables_for(state, db), state)


def verify(table: Table, progress: bool = False) -> int | None:
    """Recompute every entry from its children's (:meth:`Table.verify`); the
    index of the first one that disagrees, or ``None`` if all agree."""
    with progress_bar(progress) as bar:
        task = bar.add_task("verifying", total=len(table))
        return table.verify(done=lambda n: bar.advance(task, n))


def search_disagreements(table: Table, samples: int, seed: int, values=("win", "lose", "tie"),
                         most_remoteness: int | None = None,
                         checked_one=None) -> tuple[int, list[tuple[str, Entry, str]]]:
    """Check ``table`` against a search that shares nothing with the solver
    but the rules: full-depth alpha-beta from ``samples`` random stored
    positions whose value is among ``values`` (and remoteness at most
    ``most_remoteness``). Returns how many ranks were drawn to find them and
    the disagreements: (position, stored entry, what the search proved).
    ``checked_one()``, if given, is called after each position (progress)."""
    import random

    from ..search.alphabeta import MAX_PLY, AlphaBeta

    searcher = AlphaBeta(table.game, table_bits=16)
    depth = min(MAX_PLY - 2, table.game.max_game_length())
    rng = random.Random(seed)
    wrong, checked, drawn = [], 0, 0
    while checked < samples:
        i = rng.randrange(len(table))
        drawn += 1
        try:
            entry = table.entry_at(i)
        except NotSolvedError:  # a dense table's rank that is no position
            continue
        if entry.value not in values or (most_remoteness and entry.remoteness > most_remoteness):
            continue
        state = table.state_at(i)
        searcher.clear()
        result = searcher.search(state, depth=depth if entry.value == "tie" else entry.remoteness + 1)
        expected = {"win": entry.remoteness, "lose": -entry.remoteness, "tie": None}[entry.value]
        if result.forced_result != expected or (entry.value == "tie" and result.score != 0):
            wrong.append((state.to_notation(), entry, result.describe_score()))
        checked += 1
        if checked_one is not None:
            checked_one()
    return drawn, wrong
