"""Opening books: moves worked out ahead of time by a longer search.

An agent with the course's budget (60 CPU seconds a game) searches an
opening move for a second or two; an opponent with an opening book steers
every game into the same lines, so a move misjudged at that depth is
misjudged every time. A book holds, for the positions games actually
reach, the moves a search many times longer scored best, and the agent
plays them at once, keeping its time for later. Chess engines have done so
since their beginnings (python-chess reads Polyglot books for them).

A book is a JSON file in a game's folder (the game's ``opening_book``)::

    {"game": "expendibots", "format": 1, "built": {...how...},
     "positions": {"<position notation>": [["<action>", score, depth], ...]}}

keyed by the game's own position notation (:meth:`State.to_notation`) and
holding each move in the game's action notation, so it outlives changes to
the engine's arrays and action ids. Each position lists the moves its
search scored within the build's margin of the best, best first, with the
score (centi-tokens, for the player to move) and the depth reached.
:func:`build_entry` is the search that makes an entry.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from ..core.game import Game
from ..core.state import State

FORMAT = 1


class OpeningBook:
    """The moves of a book for one game, looked up by position."""

    def __init__(self, game: Game, positions: dict[str, list], source: str = "book"):
        self.game = game
        self.positions = positions
        self.source = source

    @classmethod
    def read(cls, game: Game, path) -> OpeningBook:
        """A book file, checked to be this game's and of a format this version reads."""
        data = json.loads(Path(path).read_text())
        if data.get("format") != FORMAT or data.get("game") != game.name:
            raise ValueError(f"{path} is not a format-{FORMAT} opening book of {game.name}")
        return cls(game, data["positions"], str(path))

    def __len__(self) -> int:
        return len(self.positions)

    def moves(self, state: State) -> list[tuple[int, int, int]]:
        """The book's (action, score, depth) for ``state``, best first; none
        when the position is not in it (or a move no longer parses or is not
        legal there: such an entry is ignored, never played)."""
        entries = self.positions.get(state.to_notation())
        if not entries:
            return []
        found = []
        legal = set(state.legal_actions())
        for text, score, depth in entries:
            try:
                action = state.string_to_action(text)
            except Exception:  # noqa: BLE001 - an unreadable entry is one the book does not have
                return []
            if action not in legal:
                return []
            found.append((action, int(score), int(depth)))
        return found

    def choose(self, state: State, rng, budget: float | None = None) -> tuple[int, str] | None:
        """A book move for ``state`` (at random, with ``rng``, among those the
        book lists: all within its margin of the best), and what it says of
        it; None when the position is not in the book. ``rng``: a
        ``random.Random``; ``budget`` is unused (a book move takes no search),
        there for the interface the solver's tables share."""
        moves = self.moves(state)
        if not moves:
            return None
        action, score, depth = rng.choice(moves)
        return action, (f"book: {state.action_to_string(action)}, score {score / 100:+.2f} at depth {depth}"
                        f" (one of {len(moves)})")


def game_book(game: Game) -> OpeningBook | None:
    """The book that ships with ``game`` (its ``opening_book`` file in its folder), if any."""
    name = getattr(game, "opening_book", None)
    if not name:
        return None
    package = type(game).__module__.rpartition(".")[0]
    path = resources.files(package) / name
    if not path.is_file():
        return None
    return OpeningBook.read(game, path)


def build_entry(game: Game, state: State, seconds: float, margin: int, searcher=None) -> list:
    """A book entry for ``state``: the moves a search of ``seconds`` CPU
    seconds (the game's ``ai`` settings) scored within ``margin`` of the
    best, best first, as [action notation, score, depth]."""
    from .alphabeta import AlphaBeta

    if searcher is None:
        settings = game.ai_settings[1]
        searcher = AlphaBeta(game, 22, settings.get("quiescence", 0), settings.get("contempt", 0),
                             settings.get("reductions", 0))
    searcher.clear()
    depth = searcher.search(state, seconds=seconds).depth
    # Again to that depth, to its end (the table makes it quick): the last
    # iteration of a timed search may have stopped before scoring every move.
    result = searcher.search(state, depth=depth, margin=margin)
    scores = {result.action: result.score}
    for action in result.near_best[1:]:
        scores[action] = int(searcher.root_scores[action])
    ranked = sorted(scores, key=lambda action: -scores[action])
    return [[state.action_to_string(action), int(scores[action]), result.depth] for action in ranked]
