"""Solving a game: enumerate, index, retrograde, write; resumable.

:func:`solve` runs the passes of :mod:`boomboard.solver.hashed.graph`, compiled for
the game (``game.compiled``), and of :mod:`boomboard.solver.hashed.retrograde`, and
writes the table :mod:`boomboard.solver.table` reads. What it needs to know
of the game (its codec, whether it has layers, whether it is solved as
endgames) the game itself says: see :mod:`boomboard.solver.codec`. Work in
progress lives in ``VARIANT.work/`` beside the table's folder:

* the enumeration writes each breadth-first level to its own files (the
  moves of the level expanded, ``expansion-00011.npz``, and the positions
  found, ``keys-00012.npy``, each written to a temporary name and renamed)
  and then ``progress.json``, so a killed solve resumes at the last level;
* the retrograde pass runs in memory (a few percent of the time) and, if
  killed, starts again from the saved levels;
* the finished table is renamed into place in one step, so a table folder
  is always complete.
"""

from __future__ import annotations

import os
import shutil
import time

import numpy as np

from ...core.game import Game
from ...core.state import State
from . import retrograde
from ..format.blockstore import LEVEL, write_blocks
from ..codec import OUTSIDE, codec_spec, is_endgames, is_layered, layer_count
from .table import array_identity
from .layers import distinct
from ..solving import SolveError, SolveJob, SolveSettings, TooManyPositions, progress_bar
from ..table import Table, move_into_place
from ..format.table_format import FORMAT, VALUE_NAMES, unpack
from ..format.values import MAX_REMOTENESS, VALUE_SHIFT
from ..format.work_files import load_archive, load_saved, read_record, save_atomic, write_json_atomic
from .tiers import TieredSolve

CHUNK = 1 << 16  # positions per compiled call between progress updates
BYTES_PER_POSITION = 110  # peak memory of a solve, measured on Kaboom 4x4: index, moves, parents
# what each breadth-first level's expansion file holds
EXPANSION = {"degrees": np.uint16, "opens": np.uint16, "seeds": np.uint8, "edges": np.int32}


def _index():
    """The hash index's module, imported when a solve first needs it: it
    defines a numba intrinsic, and a dense solve from kernels built ahead of
    time runs without numba."""
    from . import index

    return index


class _Solver:
    def __init__(self, job: SolveJob, settings: SolveSettings, method: str, root: State | None):
        game = self.game = job.game
        self.tokens, self.root = settings.tokens, root
        self.spec = codec_spec(game, self.tokens)
        self.method = method
        self.tiered = method == "tiers"
        self.asked_max_positions = settings.max_positions
        self.max_positions = settings.max_positions or memory_limit_positions()
        self.variant, self.folder, self.work = job.variant, job.folder, job.work
        self.params = game.params_array
        self.graph = game.compiled("boomboard.solver.hashed.graph")  # the passes, compiled for this game
        self.s = game.initial_array().copy()
        self.child = self.s.copy()
        self.actions = np.empty(game.num_distinct_actions(), dtype=np.int32)
        self.show = job.progress
        self.timings: dict[str, float] = {}

    # -- phase 1: the positions ------------------------------------------------------
    def start_keys(self) -> np.ndarray:
        if self.root is not None:
            array = self.root.array
        elif is_endgames(self.game):
            return distinct(np.asarray(self.game.solver_start_keys(self.tokens), dtype=np.uint64))
        else:
            array = self.game.initial_array()
        key = self.game.kernels.encode(self.spec, array, self.params)
        return np.empty(0, np.uint64) if key == OUTSIDE else np.array([key], dtype=np.uint64)

    def progress_record(self) -> dict:
        record = read_record(self.work / "progress.json", {})
        if record is None or record.get("tiers"):
            return {"expanded": 0}
        return read_record(self.work / "progress.json", {"expanded": (int,)})

    def enumerate(self) -> tuple[np.ndarray, list[np.lib.npyio.NpzFile]]:
        """Every position (keys, in the order found) and each level's expansion."""
        began = time.perf_counter()
        expanded = self.progress_record()["expanded"]
        levels = [load_saved(self.work / f"keys-{i:05d}.npy", np.uint64) for i in range(expanded + 1)] if expanded \
            else []
        expansions = [load_archive(self.work / f"expansion-{i:05d}.npz", EXPANSION) for i in range(expanded)]
        if not levels:
            levels = [self.start_keys()]
            save_atomic(self.work / "keys-00000.npy", levels[0])
        count = sum(len(level) for level in levels)
        table = _index().new_index(2 * count)
        self.reindex(table, levels)
        worst = self.actions.shape[0]
        new_keys = np.empty(max(1 << 20, 4 * worst), dtype=np.uint64)
        edges = np.empty(max(1 << 20, 4 * worst), dtype=np.int32)
        child_keys = np.empty(edges.shape[0], dtype=np.uint64)
        with progress_bar(self.show) as bar:
            task = bar.add_task("enumerating positions", total=None, completed=count)
            while len(levels[-1]):
                frontier, start = levels[-1], 0
                found, linked = [], []
                degrees = np.empty(len(frontier), dtype=np.uint16)
                opens = np.empty(len(frontier), dtype=np.uint16)
                seeds = np.empty(len(frontier), dtype=np.uint8)
                while start < len(frontier):
                    room = table.shape[0] // 2 - count
                    if room < worst:
                        if count > self.max_positions:
                            raise self.too_many(count, [len(k) for k in levels])
                        table = self.grown(table)
                        room = table.shape[0] // 2 - count
                    start, written, n_edges = self.graph.expand(
                        self.spec, self.params, self.s, self.child, self.actions, frontier, start,
                        table, count, room, new_keys, child_keys, edges, degrees, opens, seeds)
                    found.append(new_keys[:written].copy())
                    linked.append(edges[:n_edges].copy())
                    count += written
                    bar.update(task, completed=count)
                expansion = {"degrees": degrees, "opens": opens, "seeds": seeds, "edges": np.concatenate(linked)}
                levels.append(np.concatenate(found))
                expansions.append(expansion)
                self.finish_level(levels, expansion, len(expansions))
        self.timings["enumerate"] = time.perf_counter() - began
        return np.concatenate(levels), expansions

    def too_many(self, count: int, by_level: list[int]) -> SolveError:
        limit = "" if self.tiered else "; by default what half this machine's memory holds"
        return TooManyPositions(f"{self.game}: more than {count:,} positions, beyond the limit of "
                          f"{self.max_positions:,} (max_positions{limit}); found so far, by "
                          f"{'layer' if self.tiered else 'level'}: {by_level}; run again with a higher "
                          "limit to go on")

    def finish_level(self, levels: list[np.ndarray], expansion: dict, expanded: int) -> None:
        """Save level ``expanded - 1``'s expansion and the next level's keys, then the count."""
        path = self.work / f"expansion-{expanded - 1:05d}.npz"
        temporary = path.with_name(path.name + ".tmp")
        with open(temporary, "wb") as handle:
            np.savez(handle, **expansion)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        save_atomic(self.work / f"keys-{expanded:05d}.npy", levels[expanded])
        write_json_atomic(self.work / "progress.json", {"expanded": expanded})

    @staticmethod
    def reindex(table: np.ndarray, parts: list[np.ndarray]) -> None:
        first = 0
        for part in parts:
            _index().index_all(table, part, first)
            first += len(part)

    @staticmethod
    def grown(table: np.ndarray) -> np.ndarray:
        """The index four times as large (rows), every key moved over.
        Fourfold rather than twofold: a growth costs a pass over every key
        and fresh memory to fault in (about 1.5 s of system time a GB on the
        reference machine), and fourfold growth moves a third as many keys
        and allocates two thirds as much over a solve, for an index that
        may end up to twice as large as twofold growth would leave it."""
        index = _index()
        bigger = index.new_index(2 * table.shape[0])
        index.rehash(table, bigger)
        return bigger

    # -- phase 2: the values ---------------------------------------------------------
    def retrograde(self, n: int, expansions: list[dict]) -> np.ndarray:
        """Values and remoteness of the positions ``0..n-1`` (numbered as found), packed."""
        if n >= 2**31 - 1:
            raise TooManyPositions(f"{n:,} positions: more than this solver's 32-bit edge lists hold")
        began = time.perf_counter()
        degrees = np.concatenate([e["degrees"] for e in expansions]) if expansions else np.empty(0, np.uint16)
        remaining = np.concatenate([e["opens"] for e in expansions]).astype(np.int32) if expansions \
            else np.empty(0, np.int32)
        seeds = np.concatenate([e["seeds"] for e in expansions]) if expansions else np.empty(0, np.uint8)
        edges = np.concatenate([e["edges"] for e in expansions]) if expansions else np.empty(0, np.int32)
        expansions.clear()
        child_offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(degrees, out=child_offsets[1:])
        del degrees
        parent_offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(edges, minlength=n), out=parent_offsets[1:])
        parents = np.empty(len(edges), dtype=np.int32)
        retrograde.link_parents(child_offsets, edges, parent_offsets, parents)
        del edges, child_offsets
        value = np.full(n, retrograde.UNKNOWN, dtype=np.uint8)
        remoteness = np.zeros(n, dtype=np.uint16)
        queue = np.empty(n, dtype=np.int32)
        with progress_bar(self.show) as bar:
            task = bar.add_task("retrograde analysis", total=n)
            tail = retrograde.seed_wins_and_losses(remaining, seeds, value, remoteness, queue)
            head = 0
            for phase in ("wins and losses", "ties"):
                if phase == "ties":
                    tail = retrograde.seed_ties(seeds, value, remoteness, queue, tail)
                while head < tail:
                    head, tail = retrograde.propagate(parent_offsets, parents, remaining, value, remoteness,
                                                      queue, head, tail, head + CHUNK)
                    bar.update(task, completed=head)
            bar.update(task, completed=n)
        if n and remoteness.max() > MAX_REMOTENESS:
            raise SolveError(f"a remoteness of {remoteness.max()} does not fit the table's 14 bits")
        entries = np.empty(n, dtype=np.uint16)
        retrograde.pack(value, remoteness, entries)
        self.timings["retrograde"] = time.perf_counter() - began
        return entries

    # -- writing -----------------------------------------------------------------------
    def index_order(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return index_order(self.graph, self.game, self.spec, self.s.copy(), keys)

    def write(self, keys: np.ndarray, entries: np.ndarray, seconds: float) -> Table:
        """Save the in-memory solve's table (keys unhashed, in any order) into the work folder, then finish."""
        hashes, order, offsets = self.index_order(keys)
        return self.finish(hashes, entries[order], offsets, seconds)

    def finish(self, keys: np.ndarray, entries: np.ndarray, offsets: np.ndarray, seconds: float) -> Table:
        """Write the table's arrays (block files: :mod:`boomboard.solver.table`)
        and ``meta.json`` into the work folder, then move it into place."""
        # the keys raw, memory-mapped for the compiled lookup; the values compressed, but for endgame
        # tables, which a search probes in place (boomboard.solver.endgames)
        level = None if is_endgames(self.game) and self.root is None else LEVEL
        def identity(name: str) -> bytes:
            return array_identity(self.game, self.variant, name)

        sizes = [write_blocks(self.work / "keys.blk", keys, level=None, identity=identity("keys.blk")).stat().st_size,
                 write_blocks(self.work / "values.blk", entries, level=level,
                              identity=identity("values.blk")).stat().st_size,
                 write_blocks(self.work / "offsets.blk", offsets, identity=identity("offsets.blk")).stat().st_size]
        counts = np.zeros(4, dtype=np.int64)
        largest = 0
        for lo in range(0, len(entries), 1 << 24):
            part = np.asarray(entries[lo:lo + (1 << 24)])
            counts += np.bincount(part >> VALUE_SHIFT, minlength=4)
            largest = max(largest, int((part & MAX_REMOTENESS).max()))
        start_state = self.root if self.root is not None else self.game.new_initial_state()
        meta = {
            "format": FORMAT,
            "game": str(self.game),
            "variant": self.variant,
            "tokens": self.tokens,
            "positions": int(len(keys)),
            "values": {VALUE_NAMES[v]: int(counts[v]) for v in VALUE_NAMES},
            "max_remoteness": largest,
            "seconds": round(seconds, 3),
            "phase_seconds": {k: round(v, 3) for k, v in self.timings.items()},
            "bytes": sum(sizes),
            "root": None if self.root is None else self.root.to_notation(),
        }
        if not is_endgames(self.game) or self.root is not None:
            key = np.uint64(self.game.kernels.encode(self.spec, start_state.array, self.params))
            keys = np.asarray(keys).view()
            keys.flags.writeable = False  # as a table's keys are: one compiled find serves both
            i = self.graph.find(self.spec, self.params, keys, offsets, start_state.array, key)
            if i >= 0:
                entry = unpack(int(entries[i]))
                meta["start"] = {"value": entry.value, "remoteness": entry.remoteness}
        del keys, entries
        write_json_atomic(self.work / "meta.json", meta)
        return move_into_place(self.game, self.work, self.folder)

    def solve_in_tiers(self) -> Table:
        """The out-of-core path of :mod:`boomboard.solver.hashed.tiers`; only the
        disk bounds it, unless ``max_positions`` was given."""
        self.tiered, self.max_positions = True, self.asked_max_positions
        tiers = TieredSolve(self)
        began = time.perf_counter()
        with progress_bar(self.show) as bar:
            if not tiers.progress()["indexed"]:
                task = bar.add_task("enumerating positions", total=None)
                tiers.enumerate(self.start_keys(), bar, task)
                tiers.index()
                self.timings["enumerate"] = time.perf_counter() - began
            solving = time.perf_counter()
            task = bar.add_task("solving layers", total=None)
            keys, entries, offsets = tiers.solve(bar, task)
            self.timings["solve"] = time.perf_counter() - solving
        return self.finish(keys, entries, offsets, time.perf_counter() - began)

    def run(self) -> Table:
        self.work.mkdir(parents=True, exist_ok=True)
        if self.tiered or TieredSolve(self).progress()["durable"] >= 0:
            return self.solve_in_tiers()
        began = time.perf_counter()
        try:
            found, expansions = self.enumerate()
        except SolveError:
            if self.method != "auto" or not is_layered(self.game) or self.asked_max_positions:
                raise
            # too big for memory: start again, a layer at a time
            shutil.rmtree(self.work)
            self.work.mkdir(parents=True)
            return self.solve_in_tiers()
        entries = self.retrograde(len(found), expansions)
        return self.write(found, entries, time.perf_counter() - began)


def solve_hashed(job: SolveJob, settings: SolveSettings, method: str, root: State | None) -> Table:
    """Solve ``job``'s game with hashed keys, in memory or (``method``
    ``"tiers"``, or ``"auto"`` when memory is short in a layered game) a
    layer at a time on disk, from its start or from ``root``."""
    return _Solver(job, settings, method, root).run()


def index_order(graph, game: Game, spec: np.ndarray, scratch: np.ndarray,
                keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A table's index for ``keys``: their hashes sorted within each layer,
    the order that sorts them so, and where each layer begins (``graph``:
    :mod:`boomboard.solver.hashed.graph` compiled for ``game``)."""
    hashes = np.empty_like(keys)
    layers = np.empty(len(keys), dtype=np.int32)
    graph.hash_and_layer(spec, game.params_array, scratch, keys, hashes, layers)
    count = layer_count(game, spec)
    # by layer first (a stable radix sort of small numbers), then by hash within each layer
    order = np.argsort(layers.astype(np.uint16) if count <= 1 << 16 else layers, kind="stable")
    offsets = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.bincount(layers, minlength=count), out=offsets[1:])
    for lo, hi in zip(offsets[:-1], offsets[1:]):
        if hi - lo > 1:
            within = order[lo:hi]
            order[lo:hi] = within[np.argsort(hashes[within])]
    return hashes[order], order, offsets


def memory_limit_positions() -> int:
    """How many positions fit in half of this machine's memory, at about
    110 bytes each while solving (index, moves, parents, values)."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = 8 << 30
    return memory // 2 // BYTES_PER_POSITION
