"""A solve's work in progress (``VARIANT.work/``): arrays and records written
atomically (to a temporary name, then renamed), and read back checked, so a
killed solve resumes from what is whole and a damaged file is named in one
line (:class:`DamagedWorkError`) instead of read as work. Both drivers use them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ...core.errors import BoomboardError


class DamagedWorkError(BoomboardError):
    """The saved work of an interrupted solve (``VARIANT.work/``) cannot be read back."""


def damaged_work(path: Path, problem: str) -> DamagedWorkError:
    return DamagedWorkError(f"{path}: the saved work of an interrupted solve is damaged ({problem}); run again "
                            "with --force to start over")


def read_record(path: Path, fields: dict[str, tuple]) -> dict | None:
    """The JSON object saved at ``path`` (``None`` if there is none),
    checked to hold ``fields`` of the types given (``None`` among them: may be null)."""
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError) as problem:
        raise damaged_work(path, f"{type(problem).__name__}: {str(problem)[:80]}") from None
    if not isinstance(record, dict):
        raise damaged_work(path, f"it holds {type(record).__name__}, not an object")
    for name, kinds in fields.items():
        if not _fits(record.get(name), kinds):
            raise damaged_work(path, f"{name!r} is {record.get(name)!r:.40}")
    return record


def _fits(value, kinds: tuple) -> bool:
    if value is None or isinstance(value, bool):  # JSON's null and booleans, told apart from numbers
        return type(value) in kinds or (value is None and None in kinds)
    return any(kind not in (None, bool) and isinstance(value, kind) for kind in kinds)


def load_saved(path: Path, dtype, mmap_mode: str | None = None) -> np.ndarray:
    """A work array saved by :func:`save_atomic`, checked to be 1-D of ``dtype``."""
    try:
        array = np.load(path, mmap_mode=mmap_mode, allow_pickle=False)
    except Exception as problem:  # an empty file is an EOFError, a bad header a ValueError, ...
        raise damaged_work(path, f"{type(problem).__name__}: {str(problem)[:80] or 'empty'}") from None
    if not isinstance(array, np.ndarray) or array.ndim != 1 or array.dtype != dtype:
        raise damaged_work(path, f"{getattr(array, 'dtype', type(array).__name__)} data, not 1-D "
                                 f"{np.dtype(dtype).name}")
    return array


def load_archive(path: Path, fields: dict[str, type] | None = None, dtype=None) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` work file: ``fields`` (name: dtype), or all, each of ``dtype``."""
    try:
        with np.load(path, allow_pickle=False) as archive:
            names = list(fields) if fields is not None else archive.files
            arrays = {name: archive[name] for name in names}
    except Exception as problem:  # a missing member is a KeyError, a damaged zip a BadZipFile, ...
        raise damaged_work(path, f"{type(problem).__name__}: {str(problem)[:80] or 'empty'}") from None
    for name, array in arrays.items():
        wanted = fields[name] if fields is not None else dtype
        if array.ndim != 1 or array.dtype != wanted:
            raise damaged_work(path, f"{name}: {array.dtype} data, not 1-D {np.dtype(wanted).name}")
    return arrays


def save_atomic(path: Path, array: np.ndarray) -> None:
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "wb") as handle:
        np.save(handle, array)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def write_json_atomic(path: Path, record: dict) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(record, indent=1))
    os.replace(temporary, path)
