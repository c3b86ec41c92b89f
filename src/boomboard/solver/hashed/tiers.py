"""Solving an acyclic game a layer at a time, out of core.

In a game that sets ``solver_layered``, every move leads to a later layer
(the game's ``layer_of``: :mod:`boomboard.solver.hashed.layers`), so, as GAMESMAN
solves Connect 4 by tiers, a position's value needs only the values of later layers, and a
layer's positions need only earlier layers to be found:

1. *Enumerate*, from the first layer up: a layer's positions are the
   distinct children its earlier layers sent it, sorted by hashed key and
   written to ``layer-LLLLL.npy``. Its own children go to their layers'
   buffers, each deduplicated in memory; when the buffers outgrow their
   budget they are written to disk as one ``pending-NNNNNN.npz`` (an array
   per layer), and ``progress.json`` records the last layer whose children
   are all on disk. A killed solve goes back to that layer: a child found
   twice is kept once, so nothing is lost or doubled.
2. *Index*: the layers, concatenated, are the work folder's ``keys.npy``,
   with ``offsets.npy`` saying where each begins (the finished table holds
   them as block files: :mod:`boomboard.solver.table`).
3. *Solve*, from the last layer down: each position is scored from its
   children, found by interpolation search in their layers
   (:func:`boomboard.solver.hashed.graph.score`), and its entry written into
   ``values.npy``, a memory-mapped file that ``progress.json`` says is
   complete down to a layer; a killed solve resumes at the layer below.

Memory holds one layer (and the buffers); the rest is on disk, read through
the page cache. Each thread scores its own block of a layer. The compiled
passes that play the game are the game's own copy of
:mod:`boomboard.solver.hashed.graph` (:func:`~boomboard.solver.hashed.graph.expand_layer`,
:func:`~boomboard.solver.hashed.graph.solve_range`).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from boomboard.jit import njit

from ..codec import layer_count
from ..format.work_files import damaged_work, load_archive, load_saved, read_record, save_atomic, write_json_atomic
from .layers import distinct

CHUNK = 1 << 17  # positions a compiled call expands or scores between progress updates


@njit(cache=True)
def group_by_layer(children, child_layers, counts, width, layers, grouped, starts):
    """Gather the children :func:`boomboard.solver.hashed.graph.expand_layer` wrote
    into ``grouped``, layer by layer (a counting sort): layer ``l``'s from
    ``starts[l]`` to ``starts[l + 1]``."""
    starts[:] = 0
    for i in range(counts.shape[0]):
        for k in range(i * width, i * width + counts[i]):
            starts[child_layers[k] + 1] += 1
    for layer in range(layers):
        starts[layer + 1] += starts[layer]
    fill = starts[:-1].copy()
    for i in range(counts.shape[0]):
        for k in range(i * width, i * width + counts[i]):
            layer = child_layers[k]
            grouped[fill[layer]] = children[k]
            fill[layer] += 1


def buffer_budget() -> int:
    """Bytes of children kept in memory before they go to disk: an eighth of
    the machine's memory, at most 2 GiB."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = 8 << 30
    return min(memory // 8, 2 << 30)


class TieredSolve:
    """One solve's work folder and steps; ``owner`` is the driver's solver
    (game, codec, the passes compiled for the game, progress display)."""

    def __init__(self, owner, budget: int | None = None):
        self.owner = owner
        self.work: Path = owner.work
        self.spec, self.params, self.graph = owner.spec, owner.params, owner.graph
        self.layers = layer_count(owner.game, self.spec)
        self.width = owner.actions.shape[0]
        self.budget = budget or buffer_budget()
        self.scratch = np.broadcast_to(owner.s, (self.graph.BLOCKS, 2, owner.s.shape[0])).copy()
        self.record_path = self.work / "progress.json"

    def progress(self) -> dict:
        record = read_record(self.record_path, {})
        if record is not None and record.get("tiers"):  # else none, or an in-memory solve's
            return read_record(self.record_path, {"durable": (int,), "indexed": (bool,), "solved_from": (int, None)})
        return {"tiers": True, "durable": -1, "indexed": False, "solved_from": None}

    # -- 1. enumerate ------------------------------------------------------------------
    def layer_path(self, layer: int) -> Path:
        return self.work / f"layer-{layer:05d}.npy"

    def enumerate(self, start_keys: np.ndarray, bar, task) -> None:
        """Find every layer's positions (resuming after the last layer whose children are on disk)."""
        record = self.progress()
        durable = record["durable"]
        for path in self.work.glob("layer-*.npy"):  # finished after the last flush: found again below
            if int(path.stem.split("-")[1]) > durable:
                path.unlink()
        pending = self._pending_files()
        buffers: dict[int, list[np.ndarray]] = {}
        buffered = 0
        if durable < 0:
            self._add(buffers, *self._start_layers(start_keys))
        found = sum(int(load_saved(self.layer_path(layer), np.uint64, "r").shape[0])
                    for layer in range(durable + 1) if self.layer_path(layer).is_file())
        bar.update(task, completed=found)
        grouped = np.empty(CHUNK * self.width, dtype=np.uint64)
        children = np.empty(CHUNK * self.width, dtype=np.uint64)
        child_layers = np.empty(CHUNK * self.width, dtype=np.int32)
        counts = np.empty(CHUNK, dtype=np.int32)
        starts = np.empty(self.layers + 1, dtype=np.int64)
        for layer in range(durable + 1, self.layers):
            positions = self._gather(layer, buffers.pop(layer, []), pending)
            save_atomic(self.layer_path(layer), positions)
            found += len(positions)
            if self.owner.max_positions is not None and found > self.owner.max_positions:
                self._flush(buffers, pending, layer - 1)
                raise self.owner.too_many(found, self.found_by_layer())
            for lo in range(0, len(positions), CHUNK):
                part = positions[lo:lo + CHUNK]
                self.graph.expand_layer(self.spec, self.params, self.scratch, self.width, part, children,
                                        child_layers, counts[:len(part)])
                group_by_layer(children, child_layers, counts[:len(part)], self.width, self.layers, grouped, starts)
                for target in np.flatnonzero(np.diff(starts)):
                    unique = distinct(grouped[starts[target]:starts[target + 1]])
                    buffers.setdefault(int(target), []).append(unique)
                    buffered += unique.nbytes
                if buffered > self.budget:
                    self._flush(buffers, pending, layer if lo + CHUNK >= len(positions) else layer - 1)
                    buffered = 0
                bar.update(task, completed=found)
            buffered = sum(a.nbytes for parts in buffers.values() for a in parts)
        self._flush(buffers, pending, self.layers - 1)

    def _start_layers(self, start_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The start positions' layers and hashed keys."""
        keys = np.ascontiguousarray(start_keys, dtype=np.uint64)
        hashes = np.empty(len(keys), dtype=np.uint64)
        layers = np.empty(len(keys), dtype=np.int32)
        self.graph.hash_and_layer(self.spec, self.params, self.owner.s.copy(), keys, hashes, layers)
        return layers, hashes

    @staticmethod
    def _add(buffers: dict, layers: np.ndarray, hashes: np.ndarray) -> None:
        for layer in np.unique(layers):
            buffers.setdefault(int(layer), []).append(distinct(hashes[layers == layer]))

    def _pending_files(self) -> dict[Path, list[int]]:
        """The buffers on disk, and the layers each holds."""
        pending = {}
        for path in sorted(self.work.glob("pending-*.npz")):
            names = list(load_archive(path, dtype=np.uint64))
            if not all(name[:1] == "l" and name[1:].isascii() and name[1:].isdigit() for name in names):
                raise damaged_work(path, f"arrays {names[:5]}, not one a layer")
            pending[path] = [int(name[1:]) for name in names]
        return pending

    def _gather(self, layer: int, parts: list[np.ndarray], pending: dict[Path, list[int]]) -> np.ndarray:
        for path, layers in pending.items():
            if layer in layers:
                parts.append(load_archive(path, {f"l{layer}": np.uint64})[f"l{layer}"])
        if not parts:
            return np.empty(0, dtype=np.uint64)
        return distinct(np.concatenate(parts) if len(parts) > 1 else parts[0])

    def _flush(self, buffers: dict, pending: dict[Path, list[int]], durable: int) -> None:
        """Write the buffers to disk as one file and record that the children
        of every layer up to ``durable`` are on disk; drop files no longer needed."""
        if buffers:
            number = max((int(p.stem.split("-")[1]) for p in pending), default=-1) + 1
            path = self.work / f"pending-{number:06d}.npz"
            temporary = self.work / f"pending-{number:06d}.tmp.npz"
            arrays = {f"l{layer}": distinct(np.concatenate(parts)) for layer, parts in buffers.items()}
            with open(temporary, "wb") as handle:
                np.savez(handle, **arrays)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, path)
            pending[path] = list(buffers)
            buffers.clear()
        record = self.progress()
        record["durable"] = durable
        write_json_atomic(self.record_path, record)
        for path, layers in list(pending.items()):
            if max(layers) <= durable:
                path.unlink(missing_ok=True)
                del pending[path]

    def found_by_layer(self) -> list[int]:
        return [int(load_saved(p, np.uint64, "r").shape[0]) for p in sorted(self.work.glob("layer-*.npy"))]

    # -- 2. index ----------------------------------------------------------------------
    def index(self) -> None:
        """Concatenate the layers into ``keys.npy`` and ``offsets.npy``."""
        record = self.progress()
        if record["indexed"]:
            return
        sizes = [int(load_saved(self.layer_path(layer), np.uint64, "r").shape[0]) for layer in range(self.layers)]
        offsets = np.zeros(self.layers + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        temporary = self.work / "keys.tmp.npy"
        keys = np.lib.format.open_memmap(temporary, mode="w+", dtype=np.uint64, shape=(int(offsets[-1]),))
        for layer in range(self.layers):
            keys[offsets[layer]:offsets[layer + 1]] = load_saved(self.layer_path(layer), np.uint64)
        keys.flush()
        del keys
        os.replace(temporary, self.work / "keys.npy")
        save_atomic(self.work / "offsets.npy", offsets)
        record["indexed"] = True
        write_json_atomic(self.record_path, record)
        for layer in range(self.layers):
            self.layer_path(layer).unlink(missing_ok=True)

    # -- 3. solve ----------------------------------------------------------------------
    def solve(self, bar, task) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Score every layer from the last; returns (keys, entries, offsets), memory-mapped."""
        record = self.progress()
        keys = load_saved(self.work / "keys.npy", np.uint64, "r")
        offsets = load_saved(self.work / "offsets.npy", np.int64)
        path = self.work / "values.npy"
        solved_from = record["solved_from"]
        if solved_from is None or not path.is_file():
            entries = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint16, shape=keys.shape)
            solved_from = self.layers
        else:
            entries = load_saved(path, np.uint16, "r+")
            if entries.shape != keys.shape:
                raise damaged_work(path, f"{entries.shape[0]} values for {keys.shape[0]} keys")
        hashes, values = np.asarray(keys), np.asarray(entries)
        bar.update(task, total=int(offsets[-1]), completed=int(offsets[-1] - offsets[solved_from]))
        for layer in range(solved_from - 1, -1, -1):
            for lo in range(int(offsets[layer]), int(offsets[layer + 1]), CHUNK):
                hi = min(lo + CHUNK, int(offsets[layer + 1]))
                missing = self.graph.solve_range(self.spec, self.params, self.scratch, self.width, hashes,
                                                 values, offsets, lo, hi)
                if missing:
                    raise RuntimeError(f"layer {layer}: {missing} positions with a child in no layer "
                                       "(a layer measure that some move does not increase)")
                bar.update(task, advance=hi - lo)
            entries.flush()
            record["solved_from"] = layer
            write_json_atomic(self.record_path, record)
        return keys, entries, offsets
