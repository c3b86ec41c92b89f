"""Block files (boomboard.solver.format.blockstore): round trips, random access, and
every kind of damage refused with one error naming the file and the block."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boomboard.core.errors import BoomboardError
from boomboard.solver.format.blockstore import (FOOTER_SIZE, HEADER_SIZE, BlockFile, BlockWriter, CorruptTableError,
                                         write_blocks)

DTYPES = [np.uint16, np.uint64, np.int64, np.uint8]


def _array(draw_size: int, dtype, rng) -> np.ndarray:
    info = np.iinfo(dtype)
    # runs of repeated values, like a table's records, so that zstd has something to find
    values = rng.integers(info.min, info.max, size=max(1, draw_size // 7 + 1), dtype=dtype, endpoint=True)
    return np.repeat(values, 7)[:draw_size]


@settings(max_examples=40, deadline=None)
@given(size=st.integers(0, 3000), block=st.integers(1, 700), level=st.sampled_from([None, 1, 3]),
       dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**32 - 1), reads=st.lists(st.tuples(
           st.integers(0, 3000), st.integers(0, 3000)), max_size=6))
def test_round_trip(tmp_path_factory, size, block, level, dtype, seed, reads):
    rng = np.random.default_rng(seed)
    array = _array(size, dtype, rng)
    path = tmp_path_factory.mktemp("rt") / "a.blk"
    write_blocks(path, array, block_items=block, level=level, chunk=max(1, size // 3))
    stored = BlockFile(path, dtype=dtype)
    assert len(stored) == size and stored.dtype == np.dtype(dtype)
    assert np.array_equal(stored.read_all(), array)
    for a, b in reads:
        lo, hi = sorted((min(a, size), min(b, size)))
        assert np.array_equal(stored.read(lo, hi), array[lo:hi])
        assert np.array_equal(stored[lo:hi], array[lo:hi])
        if hi > lo:
            assert stored[lo] == array[lo] and stored[-1] == array[-1]
    if level is None:
        assert np.array_equal(stored.mapped(), array)


def test_streaming_writer_matches_one_write(tmp_path):
    array = _array(10_000, np.uint16, np.random.default_rng(1))
    with BlockWriter(tmp_path / "s.blk", np.uint16, block_items=999) as out:
        for lo in range(0, len(array), 333):
            out.append(array[lo:lo + 333])
    write_blocks(tmp_path / "w.blk", array, block_items=999)
    assert (tmp_path / "s.blk").read_bytes() == (tmp_path / "w.blk").read_bytes()
    assert not list(tmp_path.glob("*.tmp"))


def test_a_failed_write_leaves_nothing(tmp_path):
    with pytest.raises(RuntimeError):
        with BlockWriter(tmp_path / "x.blk", np.uint16) as out:
            out.append(np.arange(10, dtype=np.uint16))
            raise RuntimeError("killed")
    assert list(tmp_path.iterdir()) == []


def test_append_refuses_another_dtype(tmp_path):
    with BlockWriter(tmp_path / "x.blk", np.uint16) as out:
        with pytest.raises(ValueError, match="uint16"):
            out.append(np.arange(3, dtype=np.uint32))


def test_reading_one_item_decodes_one_block(tmp_path):
    array = np.arange(100_000, dtype=np.uint64) * 3
    write_blocks(tmp_path / "k.blk", array, block_items=1000)
    stored = BlockFile(tmp_path / "k.blk", cache_blocks=2)
    assert stored.decoded == 0
    assert stored[54_321] == array[54_321]
    assert stored.decoded == 1
    assert stored[54_999] == array[54_999] and stored.decoded == 1  # same block: cached
    assert stored[55_000] == array[55_000] and stored.decoded == 2
    assert stored[1] == array[1] and stored.decoded == 3
    assert stored[54_000] == array[54_000] and stored.decoded == 4  # dropped: least recently used
    assert np.array_equal(stored.read(99_500, 100_000), array[99_500:])
    assert stored.decoded == 5


def _regions(path) -> dict[str, range]:
    """Byte ranges of the header, each block, the index and the footer."""
    stored = BlockFile(path)
    regions = {"header": range(0, HEADER_SIZE)}
    for k in range(stored.blocks):
        regions[f"block {k}"] = range(int(stored.offsets[k]), int(stored.offsets[k + 1]))
    size = path.stat().st_size
    regions["index"] = range(int(stored.offsets[-1]), size - FOOTER_SIZE)
    regions["footer"] = range(size - FOOTER_SIZE, size)
    return regions


@pytest.mark.parametrize("level", [None, 3])
def test_a_bit_flip_anywhere_is_refused(tmp_path, level):
    array = _array(5000, np.uint16, np.random.default_rng(7))
    path = tmp_path / "values.blk"
    write_blocks(path, array, block_items=1024, level=level)
    good = path.read_bytes()
    rng = np.random.default_rng(3)
    regions = _regions(path)
    assert len(regions) == 3 + 5
    for region, where in regions.items():
        for byte in {where.start, where.stop - 1, int(rng.integers(where.start, where.stop))}:
            damaged = bytearray(good)
            damaged[byte] ^= 1 << int(rng.integers(8))
            path.write_bytes(bytes(damaged))
            with pytest.raises(CorruptTableError) as caught:
                stored = BlockFile(path, name="the test table", dtype=np.uint16)
                stored.read_all()
            message = str(caught.value)
            assert message.startswith("the test table: "), message
            if region.startswith("block"):
                assert f"{region} of 5 " in message
                # another block still reads: the damage is where it is said to be
                other = 0 if region != "block 0" else 1024
                assert stored[other] == array[other]


def test_one_damaged_block_is_found_by_a_read_of_it(tmp_path):
    array = np.arange(4096, dtype=np.uint16)
    path = tmp_path / "v.blk"
    write_blocks(path, array, block_items=1024, level=None)
    stored = BlockFile(path)
    damaged = bytearray(path.read_bytes())
    damaged[int(stored.offsets[2]) + 5] ^= 0x10
    path.write_bytes(bytes(damaged))
    stored = BlockFile(path, name="v")
    assert stored[10] == 10
    with pytest.raises(CorruptTableError, match=r"block 2 of 4 \(items 2048\.\.3071\)"):
        stored[2050]
    stored.check(0, 2048)
    with pytest.raises(CorruptTableError, match="block 2"):
        stored.check()


@pytest.mark.parametrize("keep", [0, 10, HEADER_SIZE, HEADER_SIZE + 100, -1, -FOOTER_SIZE])
def test_truncation_is_refused(tmp_path, keep):
    path = tmp_path / "t.blk"
    write_blocks(path, np.arange(3000, dtype=np.uint16), block_items=512)
    data = path.read_bytes()
    path.write_bytes(data[:keep] if keep >= 0 else data[:len(data) + keep])
    with pytest.raises(CorruptTableError, match="^t: "):
        BlockFile(path, name="t").read_all()


def test_wrong_dtype_foreign_and_missing_files(tmp_path):
    path = tmp_path / "k.blk"
    write_blocks(path, np.arange(10, dtype=np.uint64))
    with pytest.raises(CorruptTableError, match="holds uint64, not the uint16 expected"):
        BlockFile(path, name="k", dtype=np.uint16)
    np.save(tmp_path / "n.npy", np.zeros(100, np.uint16))
    with pytest.raises(CorruptTableError, match="bad magic"):
        BlockFile(tmp_path / "n.npy")
    with pytest.raises(CorruptTableError, match="cannot be read"):
        BlockFile(tmp_path / "absent.blk")
    assert issubclass(CorruptTableError, BoomboardError)


def test_empty_arrays(tmp_path):
    for level in (None, 3):
        path = tmp_path / f"e{level}.blk"
        write_blocks(path, np.zeros(0, np.uint16), level=level)
        stored = BlockFile(path, dtype=np.uint16)
        assert len(stored) == 0 and stored.blocks == 0
        assert stored.read_all().shape == (0,) and stored.read(0, 0).shape == (0,)
        with pytest.raises(IndexError):
            stored[0]


def test_bad_ranges_and_dtypes(tmp_path):
    path = tmp_path / "r.blk"
    write_blocks(path, np.arange(10, dtype=np.uint16))
    stored = BlockFile(path)
    with pytest.raises(IndexError):
        stored.read(5, 11)
    with pytest.raises(IndexError):
        stored[::2]
    with pytest.raises(ValueError):
        write_blocks(tmp_path / "o.blk", np.array(["a"]))
    with pytest.raises(ValueError):
        write_blocks(tmp_path / "o.blk", np.zeros((2, 2), np.uint16))
