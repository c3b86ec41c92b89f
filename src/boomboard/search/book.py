"""Opening books: moves worked out ahead of time by a longer search.

An agent with the course's budget (60 CPU seconds a game) searches an
opening move for a second or two; an opponent with an opening book steers
every game into the same lines, so a move misjudged at that depth is
misjudged every time. A book holds, for the positions games actually
reach, the moves a search many times longer scored best, and the agent
plays them at once, keeping its time for later. Chess engines have done so
since their beginnings (python-chess reads Polyglot books for them).

A book is a JSON file in a game's folder (the game's ``opening_book``), or
one of the files of a folder there, one book per variant of the game
(``.json``, or ``.json.zst`` compressed with zstandard, for a large one)::

    {"game": "expendibots", "format": 1, "built": {...how...},
     "positions": {"<position notation>": [["<action>", score, depth], ...]}}

where ``game`` is the game with its parameters as :func:`boomboard.load_game`
reads it (``str(game)``: ``kaboom(rows=6,cols=7,bombs=0)``): a book is
played only in the variant it was built for.

keyed by the game's own position notation (:meth:`State.to_notation`) and
holding each move in the game's action notation, so it outlives changes to
the engine's arrays and action ids. Each position lists the moves its
search scored within the build's margin of the best, best first, with the
score (centi-tokens, for the player to move) and the depth reached.
:func:`build_entry` is the search that makes an entry.

A book may also hold what games taught: ``"results": {"<position>":
{"<action>": [games, points], ...}}``, for the positions an agent reached
(points: 1 a win, 1/2 a tie, for the side that moved), as
:func:`results_of_games` gathers them from game records. A search scores
many opening moves alike, and a fixed opponent's book can punish one of
them deeper than the search sees; :meth:`OpeningBook.prefer` then chooses
among the moves the search found near-equal by their results, as chess
engines' book learning does (Crafty's, since the 1990s): by Thompson
sampling, so a move that did well is played most, and one never tried,
or tried little, still now and then.

A book may also hold proofs: ``"proofs": {"<position>": [["<action>",
"win" | "tie" | "lose", plies or null], ...]}``, moves that a proof by
search (:mod:`boomboard.search.prover`) showed keep the position's value
for the side to move, with the plies to the end where the proof was exact.
Where a position has proofs, the book plays one of them, never a searched
move: that is how a first player who wins with perfect play wins every game
from the start, before its own proofs within a move's time can reach
(Connect-4 on 7x6: benchmarks/proved_book.py builds Kaboom's).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from ..core.game import Game
from ..core.state import State

FORMAT = 1
BOOK_SUFFIXES = (".json", ".json.zst")


class OpeningBook:
    """The moves of a book for one game, looked up by position."""

    def __init__(self, game: Game, positions: dict[str, list], source: str = "book",
                 results: dict[str, dict[str, list]] | None = None, proofs: dict[str, list] | None = None):
        self.game = game
        self.positions = positions
        self.source = source
        self.results = results or {}
        self.proofs = proofs or {}

    @classmethod
    def read(cls, game: Game, path) -> OpeningBook:
        """A book file, checked to be this game's (this variant's) and of a
        format this version reads."""
        return cls.from_data(game, read_book_file(path), str(path))

    @classmethod
    def from_data(cls, game: Game, data: dict, source: str) -> OpeningBook:
        """The book of a book file's JSON, checked as :meth:`read` does."""
        if data.get("format") != FORMAT or data.get("game") != str(game):
            raise ValueError(f"{source} is not a format-{FORMAT} opening book of {game}")
        return cls(game, data["positions"], source, data.get("results"), data.get("proofs"))

    def __len__(self) -> int:
        return len(self.positions) + len(self.proofs.keys() - self.positions.keys())

    def proved_moves(self, state: State) -> list[tuple[int, str, int | None]]:
        """The book's proved (action, value, plies) for ``state``; none when
        it holds no proof of the position (an entry that no longer parses or
        is not legal there is left out)."""
        found = []
        legal = set(state.legal_actions())
        for text, value, plies in self.proofs.get(state.to_notation(), ()):
            try:
                action = state.string_to_action(text)
            except Exception:  # noqa: BLE001 - an unreadable entry is one the book does not have
                continue
            if action in legal:
                found.append((action, value, plies))
        return found

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
        it; None when the position is not in the book. Where the book holds
        proofs of ``state``, one of the proved moves. ``rng``: a
        ``random.Random``; ``budget`` is unused (a book move takes no search),
        there for the interface the solver's tables share."""
        proved = self.proved_moves(state)
        if proved:
            action, value, plies = rng.choice(proved)
            return action, (f"book: {state.action_to_string(action)}, proved to {value}"
                            f"{'' if plies is None else f' in {plies} plies'} (one of {len(proved)})")
        moves = self.moves(state)
        if not moves:
            return None
        action, score, depth = rng.choice(moves)
        return action, (f"book: {state.action_to_string(action)}, score {score / 100:+.2f} at depth {depth}"
                        f" (one of {len(moves)})")

    def results_for(self, state: State) -> dict[int, tuple[int, float]]:
        """What games taught of ``state``: for each legal move played from it,
        (games, points for the side that moved); empty where nothing was learnt
        (an entry that no longer parses or is not legal is left out)."""
        learnt = {}
        legal = set(state.legal_actions())
        for text, (games, points) in self.results.get(state.to_notation(), {}).items():
            try:
                action = state.string_to_action(text)
            except Exception:  # noqa: BLE001 - an unreadable entry is one the book does not have
                continue
            if action in legal:
                learnt[action] = (int(games), float(points))
        return learnt

    def prefer(self, state: State, candidates: list[int], rng) -> int | None:
        """One of ``candidates`` (moves a search scored near-equal at
        ``state``) chosen by what games taught: each move's score is drawn
        from its results' Beta(1 + points, 1 + losses) (a move never played
        from Beta(1, 1)), and the highest draw is played. None when the book
        learnt nothing of ``state`` or of any of the candidates."""
        learnt = self.results_for(state)
        if not any(action in learnt for action in candidates):
            return None

        def draw(action: int) -> float:
            games, points = learnt.get(action, (0, 0.0))
            return rng.betavariate(1 + points, 1 + games - points)

        return max(candidates, key=draw)


def results_of_games(game: Game, records: Iterable[dict], plies: int,
                     min_games: int = 1) -> dict[str, dict[str, list]]:
    """A book's ``results`` from game records (``actions`` in the game's
    notation, ``ours``: the agent's side by name, ``winner``: a side's name
    or None for a tie): for every position of the first ``plies`` plies
    where ``ours`` was to move and that ``min_games`` games or more
    reached, each move played there with [games, points for ``ours``]."""
    learnt: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(lambda: [0, 0.0]))
    for record in records:
        if "actions" not in record or record.get("ours") not in game.player_names:
            continue
        points = 0.5 if record.get("winner") is None else float(record["winner"] == record["ours"])
        state = game.new_initial_state()
        for text in record["actions"][:plies]:
            if state.is_terminal():
                break
            ours = game.player_names[state.current_player()] == record["ours"]
            position, action = state.to_notation(), state.string_to_action(text)
            if ours:
                tally = learnt[position][state.action_to_string(action)]
                tally[0] += 1
                tally[1] += points
            state.apply_action(action)
    return {position: {move: list(tally) for move, tally in sorted(moves.items())}
            for position, moves in sorted(learnt.items())
            if sum(tally[0] for tally in moves.values()) >= min_games}


def game_book(game: Game) -> OpeningBook | None:
    """The book that ships with ``game`` (its ``opening_book`` file in its
    folder, or the file of that folder built for this variant), if any."""
    name = getattr(game, "opening_book", None)
    if not name:
        return None
    package = type(game).__module__.rpartition(".")[0]
    path = resources.files(package) / name
    paths = sorted((p for p in path.iterdir() if p.name.endswith(BOOK_SUFFIXES)), key=lambda p: p.name) \
        if path.is_dir() else [path] if path.is_file() else []
    for candidate in paths:
        if _book_game(candidate) == str(game):
            return OpeningBook.read(game, candidate)
    return None


# The variant each book file was built for, by file (and its modification time):
# a cache shared by every thread of the process, which only ever adds to it.
_BOOK_GAMES: dict[tuple[str, int], str | None] = {}


def _book_game(path) -> str | None:
    """The variant the book file ``path`` was built for, read once a
    process: a game with several books reads each (the 7x6 Connect-4 book:
    23 ms) to find the one for its variant, at every agent's warm-up."""
    key = (str(path), path.stat().st_mtime_ns if isinstance(path, Path) else 0)
    if key not in _BOOK_GAMES:
        _BOOK_GAMES[key] = read_book_file(path).get("game")
    return _BOOK_GAMES[key]


def read_book_file(path) -> dict:
    """A book file's JSON, from a ``.json`` file or a zstandard-compressed ``.json.zst`` one (a large book)."""
    path = Path(path) if isinstance(path, str) else path  # or a package's resource
    data = path.read_bytes()
    if path.name.endswith(".zst"):
        import zstandard

        data = zstandard.ZstdDecompressor().decompress(data)
    return json.loads(data)


def write_book_file(path: Path, book: dict) -> None:
    """Write ``book`` as JSON, compressed with zstandard where ``path`` ends in ``.zst``."""
    data = (json.dumps(book, indent=0) + "\n").encode()
    if path.name.endswith(".zst"):
        import zstandard

        data = zstandard.ZstdCompressor(level=19).compress(data)
    path.write_bytes(data)


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
