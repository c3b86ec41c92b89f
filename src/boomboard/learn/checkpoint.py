"""Model files: a trained net with what it needs to be rebuilt and checked.

A model file (``model.msgpack`` in a run folder, or one of its numbered
snapshots ``model-000040.msgpack``) holds, in flax's msgpack encoding:
``format``, ``game`` (the game with its parameters, as ``str(game)`` writes
it), ``net`` (a :class:`NetConfig`), the training
``iteration``, ``games`` and ``seconds`` it had reached, and ``params``.
Files are written whole to a temporary name and then renamed, so a killed
process never leaves half a file.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..core.errors import BoomboardError

FORMAT = 1
MODEL = "model.msgpack"
PACKAGED = Path(__file__).parent / "models"


class CheckpointError(BoomboardError, ValueError):
    """A model file or run folder that cannot be used (missing, damaged, another game's)."""


@dataclass(frozen=True)
class NetConfig:
    """The shape of a net: what a checkpoint records to rebuild it."""

    planes: int
    height: int
    width: int
    actions: int
    channels: int = 32
    blocks: int = 3

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Model:
    game: str
    net: NetConfig
    params: dict
    iteration: int
    games: int
    seconds: float
    path: Path


def write_atomically(path: Path, data: bytes) -> None:
    """``data`` to ``path`` through a temporary file and a rename."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def save_model(path: Path, game: str, net: NetConfig, params, iteration: int, games: int, seconds: float) -> None:
    from flax import serialization

    record = {"format": FORMAT, "game": game, "net": net.to_dict(), "iteration": iteration, "games": games,
              "seconds": float(seconds), "params": serialization.to_state_dict(params)}
    write_atomically(path, serialization.msgpack_serialize(_to_numpy(record)))


def _to_numpy(tree):
    if isinstance(tree, dict):
        return {key: _to_numpy(value) for key, value in tree.items()}
    if hasattr(tree, "shape"):
        return np.asarray(tree)
    return tree


def resolve(path: str | os.PathLike) -> Path:
    """The model file a ``learned:`` path names: the file itself, or a run folder's latest model."""
    target = Path(path).expanduser()
    if target.is_dir():
        target = target / MODEL
        if not target.is_file():
            raise CheckpointError(f"no model in {path!r} yet: a run folder has one after its first checkpoint")
    elif not target.is_file():
        raise CheckpointError(f"no model file or run folder {str(path)!r}")
    return target


def load_model(path: str | os.PathLike) -> Model:
    """Read a model file (or a run folder's latest model); :class:`CheckpointError` if it is not one."""
    from flax import serialization

    target = resolve(path)
    try:
        record = serialization.msgpack_restore(target.read_bytes())
        if record.get("format") != FORMAT:
            raise CheckpointError(f"{target} is a model file of format {record.get('format')!r}; "
                                  f"this boomboard reads format {FORMAT}")
        return Model(game=record["game"], net=NetConfig(**record["net"]), params=record["params"],
                     iteration=int(record["iteration"]), games=int(record["games"]),
                     seconds=float(record["seconds"]), path=target)
    except CheckpointError:
        raise
    except Exception as problem:  # msgpack and flax raise many kinds on a damaged or foreign file
        raise CheckpointError(f"{target} is not a boomboard model file ({type(problem).__name__})") from None


def packaged_model(game: str) -> Path | None:
    """The model shipped inside the package for ``game`` (as ``str(game)``
    writes it), if any: ``models/index.json`` maps games to files, so that
    asking needs no JAX."""
    index = PACKAGED / "index.json"
    if not index.is_file():
        return None
    name = json.loads(index.read_text()).get(game)
    return None if name is None else PACKAGED / name
