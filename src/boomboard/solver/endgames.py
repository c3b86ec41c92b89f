"""Endgame tables in play: the solver's endgame tables, probed by a search.

A game solved as endgames (``game.solver_min_tokens`` > 0: every position
with at most ``T`` tokens on the board, see :mod:`boomboard.solver.driver`)
can lend its tables to a player, as chess engines probe Syzygy tables:

* **at the root**: a position the tables hold is played from them
  (:meth:`EndgameTables.choose`, :mod:`boomboard.solver.in_play`): the
  fastest win, and in a tie, a draw or a loss the move that gives the
  opponent the best chance to go wrong;
* **inside the search**: :meth:`EndgameTables.probe_arrays` gives the
  alpha-beta search (:meth:`boomboard.search.alphabeta.AlphaBeta.use_endgames`)
  each position's exact result, so a node whose material drops into the
  tables scores its exact value instead of an evaluation, and the search
  steers into won endgames.

The tables are the solver's own (``boomboard solve GAME --tokens T``, in the
solver's folder: ``BOOMBOARD_DB``, else the user data folder). The first
player that needs them builds them (a few seconds for 3 tokens, with a
progress bar on a terminal), under a file lock, so that processes starting
together build them once; ``boomboard compile`` builds them ahead. A larger
endgame table already on disk (``--tokens 4``) is used instead: it holds the
smaller endgames too.

What the tables leave out: the history rules (a position's repetition, the
action limit) are not in them (docs/explanation/solver.md); a position is played from
the tables only while its remoteness fits before the action limit.
"""

from __future__ import annotations

import fcntl
import os
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ..core.game import Game
from ..search import negamax
from .codec import is_endgames
from .in_play import TableInPlay
from ..core.recent import Recent
from .retrograde import LOSE, VALUE_SHIFT, WIN
from .table import NotSolvedError, Table, default_db, game_folder, open_table, solved_variants, table_dir

AI_ENDGAME_TOKENS = 3  # the endgame size the ``ai`` agent probes: solved in about a second (4 tokens: minutes, 4 GB)
DEFAULT_TOKENS = AI_ENDGAME_TOKENS  # what is built unless asked: the ``ai`` agent's tables

if (negamax.TABLE_SHIFT, negamax.TABLE_WIN, negamax.TABLE_LOSS) != (VALUE_SHIFT, WIN, LOSE):
    raise ImportError("the search reads the tables' entries as they are stored: their packing must agree")

_lock = threading.Lock()
# The endgame tables a process keeps open, the most recently used: each holds its
# keys and entries in memory, so a process asked for ever new variants keeps few.
ENDGAMES_KEPT = 8
_loaded: Recent[tuple[str, str, int], EndgameTables] = Recent(ENDGAMES_KEPT)


class EndgameTables(TableInPlay):
    """A solved endgame table, made ready for a search to probe."""

    def __init__(self, table: Table):
        self.tokens = int(table.meta.get("tokens", 0))
        super().__init__(table, f"endgame tables ({self.tokens} tokens)")
        self._arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def __repr__(self) -> str:
        return f"<EndgameTables {self.game}: {self.tokens} tokens, {len(self.table):,} positions>"

    def probe_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(spec, keys, entries)`` for the compiled search: the codec spec,
        every position's hashed key, sorted, and its packed value and
        remoteness, as the table stores them (every block checked first; the
        keys memory-mapped for a table of one layer, the entries decompressed)."""
        if self._arrays is None:
            keys, entries = self.table.arrays()
            if self.table.offsets.shape[0] > 2:  # sorted within layers: sort them as one run
                order = np.argsort(keys, kind="stable")
                keys, entries = np.ascontiguousarray(keys[order]), np.ascontiguousarray(entries[order])
            self._arrays = (self.table.spec, keys, entries)
        return self._arrays


def endgame_tables(game: Game, tokens: int = DEFAULT_TOKENS, db: str | os.PathLike | None = None,
                   build: bool = True, progress: bool | None = None) -> EndgameTables | None:
    """The endgame tables of ``game`` for positions of at most ``tokens``
    tokens (or a larger endgame table already solved), solved if need be
    (with ``build``; ``progress``: a line saying so on standard error and
    the solver's progress bars; by default the line, and the bars on a
    terminal). ``None`` for a game not solved as endgames, for ``tokens``
    below its least, or when the tables are not there and ``build`` is
    false. Opened once a process."""
    if not is_endgames(game) or tokens < game.solver_min_tokens:
        return None
    where = str(Path(db) if db is not None else default_db())
    key = (str(game), where, tokens)
    with _lock:
        tables = _loaded.get(key)
        if tables is None:
            table = _largest(game, tokens, where)
            if table is None:
                if not build:
                    return None
                table = _build(game, tokens, where, progress)
            tables = _loaded[key] = EndgameTables(table)
        return tables


def _largest(game: Game, tokens: int, db: str) -> Table | None:
    """The largest solved endgame table of ``game`` holding every position of ``tokens`` tokens."""
    for variant in solved_variants(game, db):  # endgames largest first
        size = variant.split("-", 1)[1] if variant.startswith("endgame-") else ""
        if size.isascii() and size.isdigit() and int(size) >= tokens:
            try:
                table = open_table(game, db, variant)
            except NotSolvedError:  # from an older boomboard, or damaged: built again if it is the one needed
                continue
            if table is not None:
                return table
    return None


def _build(game: Game, tokens: int, db: str, progress: bool | None) -> Table:
    """Solve the endgames of ``tokens`` tokens, once across processes (a file lock)."""
    from .driver import SolveSettings, solve

    folder = game_folder(game, db)
    folder.mkdir(parents=True, exist_ok=True)
    with _file_lock(folder / f"endgame-{tokens}.lock"):
        again = ""
        if (table_dir(game, f"endgame-{tokens}", db) / "meta.json").is_file():  # another process built it
            try:
                return open_table(game, db, f"endgame-{tokens}")
            except NotSolvedError as problem:  # a table of an older format, or damaged: a cache, so rebuilt
                again = f" again ({problem})"
        if progress is not False:
            print(f"boomboard: building the {game.title} endgame tables ({tokens} tokens), once{again}",
                  file=sys.stderr, flush=True)
        if progress is None:  # the solver's bars go to standard output: never into a protocol's pipe
            progress = sys.stdout.isatty() and sys.stderr.isatty()
        return solve(game, db, progress=progress, force=bool(again), settings=SolveSettings(tokens=tokens))


@contextmanager
def _file_lock(path: Path):
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
