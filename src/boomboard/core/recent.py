"""A mapping that keeps only the entries used most recently, for the
per-process caches of loaded things (games, tables, readers), so that a
server or a worker asked for ever new ones does not grow without end."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The ``size`` entries read or written most recently (not thread-safe:
    a caller that shares one between threads holds its own lock)."""

    def __init__(self, size: int):
        if size < 1:
            raise ValueError(f"a cache keeps at least one entry, not {size}")
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, default: V | None = None) -> V | None:
        if key not in self._entries:
            return default
        self._entries.move_to_end(key)
        return self._entries[key]

    def __contains__(self, key: K) -> bool:
        return key in self._entries

    def __getitem__(self, key: K) -> V:
        value = self._entries[key]
        self._entries.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self):
        return list(self._entries)

    def clear(self) -> None:
        self._entries.clear()
