"""Checked, compressed, random-access storage of one 1-D NumPy array.

A *block file* holds an array of fixed-width numbers (``uint16`` records of a
solved table, ``uint64`` keys, ``int64`` offsets, ...) cut into blocks of
``block_items`` items, each compressed on its own with zstandard (or stored
raw) and checked by a CRC-32 of its stored bytes. Reading one item
decompresses one block; a few decompressed blocks are kept (least recently
used dropped first). Any damage, a flipped bit anywhere in the file, a
truncated or foreign file, a dtype other than the one expected, raises
:class:`CorruptTableError` naming the file (its ``name``) and, where it is a
block, the block and its items: a reader never returns a wrong value.

Writing::

    write_blocks(path, array, block_items=1 << 16, level=3)   # atomic

    with BlockWriter(path, np.uint16, identity=tag) as out:   # streaming, atomic
        for part in parts:
            out.append(part)

Reading::

    values = BlockFile(path, name="values of kaboom 4x4", dtype=np.uint16, identity=tag)
    len(values); values[i]; values[lo:hi]; values.read(lo, hi); values.read_all()

An *identity* (16 bytes, zero if none is given) names what the array is, so
that a valid file in the wrong place is refused: a solved table puts in each
of its files a digest of its game, variant and the file's part (a level, the
keys), :func:`boomboard.solver.format.table_format.file_identity`. A reader that
names the identity it expects refuses any other, before reading a block.

``level=None`` stores the blocks raw (still checked): such a file can be used
in place, memory-mapped (:meth:`BlockFile.mapped`), with its checksums
checked on demand (:meth:`BlockFile.check`), which suits an index that a
compiled search walks.

The file, little-endian throughout::

    header   64 bytes: magic b"BBLOCKS\\0", format version (u16), codec (u16:
             0 raw, 1 zstd), dtype (8 bytes, numpy's "<u2"), block_items (u64),
             identity (16 bytes), zero padding, CRC-32 of the bytes before it (u32)
    blocks   one after the other, from byte 64
    index    block count + 1 byte offsets (u64), then one CRC-32 per block (u32)
    footer   40 bytes: item count (u64), block count (u64), where the index
             starts (u64), the index's CRC-32 (u32), the footer's CRC-32 (u32),
             magic b"BBLKEND\\0"

Every byte is covered by a checksum (header, blocks, index, footer) or
compared (magics, sizes). Opening a file checks its header (identity
included), footer and index, whose CRC-32 covers every block's: a cost of
12 bytes read a block, whatever the file's size; each block's own CRC-32 is
checked when the block is first read, once while the file is open.
CRC-32 (:func:`zlib.crc32`, in the standard library) catches every error
of up to 32 flipped bits in a row and all but one in four billion others;
its speed (well over 1 GB/s) is not what limits a read here, the
decompression is, so a faster hash would buy nothing.
The index sits after the blocks so that a writer can stream an array of
unknown length and still leave raw blocks contiguous and aligned.
"""

from __future__ import annotations

import mmap
import os
import struct
import threading
import zlib
from collections import OrderedDict
from pathlib import Path

import numpy as np

from ...core.errors import BoomboardError

__all__ = ["BLOCK_ITEMS", "LEVEL", "RAW", "ZSTD", "BlockFile", "BlockWriter", "CorruptTableError", "write_blocks"]

BLOCK_ITEMS = 1 << 12  # items a block: a random read decodes 8 KB of uint16 (docs/explanation/solver.md measures it)
LEVEL = 3  # zstandard level by default
CACHED_BLOCKS = 8  # decompressed blocks a reader keeps

VERSION = 2  # 1: no identity in the header (refused: the table is solved again)
MAGIC = b"BBLOCKS\0"
END_MAGIC = b"BBLKEND\0"
RAW, ZSTD = 0, 1
_HEADER = struct.Struct("<8sHH8sQ16s")  # magic, version, codec, dtype, block items, identity
IDENTITY_SIZE = 16
NO_IDENTITY = bytes(IDENTITY_SIZE)
HEADER_SIZE = 64  # the header, padded so that raw blocks start aligned
_FOOTER = struct.Struct("<QQQI")  # items, blocks, index start, index CRC
FOOTER_SIZE = _FOOTER.size + 4 + len(END_MAGIC)
_KINDS = "uif"  # unsigned and signed integers, floats


class CorruptTableError(BoomboardError):
    """A stored array that is damaged, truncated, or not what it should be."""


def _identity(identity: bytes) -> bytes:
    if not isinstance(identity, bytes) or len(identity) != IDENTITY_SIZE:
        raise ValueError(f"a block file's identity is {IDENTITY_SIZE} bytes, not {identity!r:.60}")
    return identity


def _dtype(dtype) -> np.dtype:
    kind = np.dtype(dtype)
    if kind.kind not in _KINDS or kind.shape or kind.fields:
        raise ValueError(f"a block file holds numbers of fixed width, not {kind}")
    return kind.newbyteorder("<")


class BlockWriter:
    """Write an array to ``path`` a part at a time (:meth:`append`); the file
    appears, complete, at :meth:`close` (written as ``path.tmp``, synced,
    then renamed), never half-written. Used as a context manager, an
    exception drops the partial file instead.

    ``block_items`` items a block; ``level``: the zstandard level (1 fast to
    22 small), or ``None`` to store the blocks raw; ``identity``: the 16 bytes
    that say what the array is (see the module's text)."""

    def __init__(self, path: str | os.PathLike, dtype, *, block_items: int = BLOCK_ITEMS,
                 level: int | None = LEVEL, identity: bytes = NO_IDENTITY):
        if block_items < 1:
            raise ValueError(f"block_items must be at least 1, not {block_items}")
        self.path = Path(path)
        self.dtype = _dtype(dtype)
        self.block_items = int(block_items)
        self.level = level
        identity = _identity(identity)
        self._compress = None
        if level is not None:
            import zstandard

            self._compress = zstandard.ZstdCompressor(level=level).compress
        self._temporary = self.path.with_name(self.path.name + ".tmp")
        self._handle = open(self._temporary, "wb")
        code = self.dtype.str.encode()
        head = _HEADER.pack(MAGIC, VERSION, RAW if level is None else ZSTD, code, self.block_items, identity)
        head = head.ljust(HEADER_SIZE - 4, b"\0")
        self._handle.write(head + struct.pack("<I", zlib.crc32(head)))
        self._offsets = [HEADER_SIZE]
        self._crcs: list[int] = []
        self._pending: list[np.ndarray] = []
        self._pending_items = 0
        self.items = 0

    def append(self, chunk) -> None:
        """Add ``chunk`` (a 1-D array of this file's dtype) at the end."""
        part = np.asarray(chunk)
        if part.ndim != 1 or part.dtype.kind not in _KINDS or part.dtype.newbyteorder("<") != self.dtype:
            raise ValueError(f"{self.path.name}: append 1-D {self.dtype.name} arrays, not {part.ndim}-D {part.dtype}")
        part = part.astype(self.dtype, copy=False)
        while len(part):
            room = self.block_items - self._pending_items
            self._pending.append(part[:room])
            self._pending_items += len(part[:room])
            part = part[room:]
            if self._pending_items == self.block_items:
                self._flush_block()

    def _flush_block(self) -> None:
        block = np.concatenate(self._pending) if len(self._pending) > 1 else self._pending[0]
        data = np.ascontiguousarray(block).tobytes()
        if self._compress is not None:
            data = self._compress(data)
        self._handle.write(data)
        self._offsets.append(self._offsets[-1] + len(data))
        self._crcs.append(zlib.crc32(data))
        self.items += self._pending_items
        self._pending, self._pending_items = [], 0

    def close(self) -> Path:
        """Finish the file and move it into place; returns its path."""
        if self._handle.closed:
            return self.path
        if self._pending_items:
            self._flush_block()
        index = np.asarray(self._offsets, dtype="<u8").tobytes() + np.asarray(self._crcs, dtype="<u4").tobytes()
        footer = _FOOTER.pack(self.items, len(self._crcs), self._offsets[-1], zlib.crc32(index))
        self._handle.write(index + footer + struct.pack("<I", zlib.crc32(footer)) + END_MAGIC)
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._handle.close()
        os.replace(self._temporary, self.path)
        return self.path

    def abort(self) -> None:
        """Drop the partial file."""
        if not self._handle.closed:
            self._handle.close()
        self._temporary.unlink(missing_ok=True)

    def __enter__(self) -> BlockWriter:
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()


def write_blocks(path: str | os.PathLike, array, *, block_items: int = BLOCK_ITEMS, level: int | None = LEVEL,
                 chunk: int = 1 << 22, identity: bytes = NO_IDENTITY) -> Path:
    """Write the 1-D ``array`` (a memory-mapped one is read ``chunk`` items at
    a time) to the block file ``path``, atomically; returns the path."""
    array = np.asarray(array) if not isinstance(array, np.ndarray) else array
    if array.ndim != 1:
        raise ValueError(f"a block file holds a 1-D array, not {array.ndim}-D")
    with BlockWriter(path, array.dtype, block_items=block_items, level=level, identity=identity) as out:
        for lo in range(0, len(array), chunk):
            out.append(array[lo:lo + chunk])
    return Path(path)


class BlockFile:
    """A block file opened for reading (the file is memory-mapped; nothing
    is read until asked, apart from the header, index and footer, which are
    checked at once).

    ``name`` names the array in error messages (default: the path);
    ``dtype``, if given, is the dtype the file must hold; ``identity``, if
    given, the identity its header must hold (``belongs_to`` names, in the
    error, what has that identity); ``hint`` is added to every error message
    (what the user should do about it)."""

    def __init__(self, path: str | os.PathLike, name: str | None = None, *, dtype=None, hint: str = "",
                 cache_blocks: int = CACHED_BLOCKS, identity: bytes | None = None, belongs_to: str = ""):
        self.path = Path(path)
        self.name = name or str(self.path)
        self.hint = hint
        self.cache_blocks = max(1, cache_blocks)
        self.decoded = 0  # blocks decompressed so far (the cache's misses)
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        try:
            with open(self.path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size < HEADER_SIZE + FOOTER_SIZE:
                    raise self._error(f"the file is truncated ({size} bytes)")
                self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as problem:
            raise self._error(f"the file cannot be read ({problem.strerror or problem})") from None
        self._read_layout(size, dtype)
        if identity is not None and self.identity != _identity(identity):
            raise self._error(f"the file belongs elsewhere: its header's identity is not that of "
                              f"{belongs_to or 'the array expected'}")
        self._checked = np.zeros(self.blocks, dtype=bool)
        self._decompress = None
        if self.codec == ZSTD:
            import zstandard

            self._decompress = zstandard.ZstdDecompressor().decompress

    def _error(self, problem: str) -> CorruptTableError:
        return CorruptTableError(f"{self.name}: {problem}{'; ' + self.hint if self.hint else ''}")

    def _read_layout(self, size: int, expected) -> None:
        view = self._map
        head = bytes(view[:HEADER_SIZE])
        magic, version, codec, code, block_items, identity = _HEADER.unpack_from(head)
        if magic != MAGIC:
            raise self._error("not a block file (bad magic)")
        if zlib.crc32(head[:-4]) != struct.unpack_from("<I", head, HEADER_SIZE - 4)[0]:
            raise self._error("the header is damaged (checksum mismatch)")
        if version != VERSION:
            raise self._error(f"block file format {version}, this boomboard reads {VERSION}")
        try:
            self.dtype = _dtype(code.rstrip(b"\0").decode("ascii"))
        except (TypeError, ValueError, UnicodeDecodeError):
            raise self._error(f"the header names no number type ({code!r})") from None
        if codec not in (RAW, ZSTD) or block_items < 1:
            raise self._error(f"the header is damaged (codec {codec}, {block_items} items a block)")
        if expected is not None and self.dtype != _dtype(expected):
            raise self._error(f"holds {self.dtype.name}, not the {np.dtype(expected).name} expected")
        self.codec, self.block_items, self.identity = codec, int(block_items), identity
        tail = bytes(view[size - FOOTER_SIZE:])
        if tail[-len(END_MAGIC):] != END_MAGIC:
            raise self._error("the file is truncated or its footer damaged (bad end magic)")
        footer = tail[:_FOOTER.size]
        if zlib.crc32(footer) != struct.unpack_from("<I", tail, _FOOTER.size)[0]:
            raise self._error("the footer is damaged (checksum mismatch)")
        items, blocks, index_start, index_crc = _FOOTER.unpack(footer)
        if blocks != -(-items // self.block_items) or index_start + 12 * blocks + 8 + FOOTER_SIZE != size:
            raise self._error(f"the file is truncated or damaged ({items} items in {blocks} blocks, "
                              f"{size} bytes)")
        index = bytes(view[index_start:size - FOOTER_SIZE])
        if zlib.crc32(index) != index_crc:
            raise self._error("the block index is damaged (checksum mismatch)")
        self.items, self.blocks = int(items), int(blocks)
        self.offsets = np.frombuffer(index, dtype="<u8", count=blocks + 1).astype(np.int64)
        self.crcs = np.frombuffer(index, dtype="<u4", offset=8 * (blocks + 1)).astype(np.int64)
        if self.offsets[0] != HEADER_SIZE or self.offsets[-1] != index_start or np.any(np.diff(self.offsets) < 0):
            raise self._error("the block index is damaged (offsets out of order)")
        if self.codec == RAW and not np.array_equal(np.diff(self.offsets), self._sizes() * self.dtype.itemsize):
            raise self._error("the block index is damaged (raw blocks of the wrong size)")

    def _sizes(self) -> np.ndarray:
        sizes = np.full(self.blocks, self.block_items, dtype=np.int64)
        if self.blocks:
            sizes[-1] = self.items - self.block_items * (self.blocks - 1)
        return sizes

    def __len__(self) -> int:
        return self.items

    def __repr__(self) -> str:
        codec = "raw" if self.codec == RAW else "zstd"
        return f"<BlockFile {self.name}: {self.items} {self.dtype.name} in {self.blocks} {codec} blocks>"

    @property
    def nbytes(self) -> int:
        """The file's size on disk."""
        return len(self._map)

    def _stored(self, k: int) -> bytes | memoryview:
        data = memoryview(self._map)[self.offsets[k]:self.offsets[k + 1]]
        if not self._checked[k]:
            if zlib.crc32(data) != self.crcs[k]:
                first = k * self.block_items
                last = min(self.items, first + self.block_items) - 1
                raise self._error(f"block {k} of {self.blocks} (items {first}..{last}) is damaged "
                                  "(checksum mismatch)")
            self._checked[k] = True
        return data

    def block(self, k: int) -> np.ndarray:
        """Block ``k``, decompressed and checked (read-only)."""
        with self._lock:
            cached = self._cache.get(k)
            if cached is not None:
                self._cache.move_to_end(k)
                return cached
            data = self._stored(k)
            size = int(self._sizes()[k]) if k == self.blocks - 1 else self.block_items
            if self._decompress is not None:
                try:
                    data = self._decompress(data, max_output_size=size * self.dtype.itemsize)
                except Exception as problem:  # zstandard.ZstdError: the checksum matched a bad block
                    raise self._error(f"block {k} of {self.blocks} does not decompress ({problem})") from None
            if len(data) != size * self.dtype.itemsize:
                raise self._error(f"block {k} of {self.blocks} holds {len(data)} bytes, not "
                                  f"{size * self.dtype.itemsize}")
            block = np.frombuffer(data, dtype=self.dtype)
            self.decoded += 1
            self._cache[k] = block
            if len(self._cache) > self.cache_blocks:
                self._cache.popitem(last=False)
            return block

    def read(self, start: int, stop: int) -> np.ndarray:
        """Items ``start`` to ``stop - 1`` (``0 <= start <= stop <= len``), as a new array."""
        if not 0 <= start <= stop <= self.items:
            raise IndexError(f"{self.name}: items {start}..{stop} are not within 0..{self.items}")
        out = np.empty(stop - start, dtype=self.dtype.newbyteorder("="))
        at = start
        while at < stop:
            k = at // self.block_items
            base = k * self.block_items
            end = min(stop, base + self.block_items)
            out[at - start:end - start] = self.block(k)[at - base:end - base]
            at = end
        return out

    def read_all(self) -> np.ndarray:
        """The whole array, in memory (the cache is left as it was)."""
        out = np.empty(self.items, dtype=self.dtype.newbyteorder("="))
        if self.codec == RAW:
            self.check()
            out[:] = self.mapped()
            return out
        keep, self._cache = self._cache, OrderedDict()
        try:
            for k in range(self.blocks):
                lo = k * self.block_items
                out[lo:lo + self.block_items] = self.block(k)
                self._cache.clear()
        finally:
            self._cache = keep
        return out

    def __array__(self, dtype=None, copy=None):
        """``np.asarray(block_file)``: the whole array, read (:meth:`read_all`)."""
        whole = self.read_all()
        return whole if dtype is None else whole.astype(dtype, copy=False)

    def __getitem__(self, item):
        if isinstance(item, slice):
            start, stop, step = item.indices(self.items)
            if step != 1:
                raise IndexError(f"{self.name}: read a range with step 1, not {step}")
            return self.read(start, max(start, stop))
        i = int(item)
        if i < 0:
            i += self.items
        if not 0 <= i < self.items:
            raise IndexError(f"{self.name}: item {item} is not within 0..{self.items - 1}")
        return self.block(i // self.block_items)[i % self.block_items]

    def mapped(self) -> np.ndarray:
        """The raw array in place, memory-mapped (read-only), for a file
        written with ``level=None``; its blocks are *not* checked: call
        :meth:`check` for the items used."""
        if self.codec != RAW:
            raise ValueError(f"{self.name}: compressed blocks cannot be memory-mapped")
        return np.frombuffer(self._map, dtype=self.dtype, count=self.items, offset=HEADER_SIZE)

    def check(self, start: int = 0, stop: int | None = None) -> None:
        """Check the checksums of the blocks holding items ``start`` to
        ``stop - 1`` (default: every block), each once in the file's life;
        raises :class:`CorruptTableError` on the first damaged one."""
        stop = self.items if stop is None else stop
        if stop <= start:
            return
        with self._lock:
            for k in range(start // self.block_items, (stop - 1) // self.block_items + 1):
                if not self._checked[k]:
                    self._stored(k)
