"""The solver's compiled passes over a game's position graph.

Positions are the keys of :mod:`boomboard.solver.codec`; the rules come from
:mod:`boomboard.search.kernels`, so every pass works for every game.

1. :func:`expand`: breadth-first enumeration of the positions reachable from
   a start set, deduplicated in an open-addressing hash index of keys.
   Each position is numbered in the order found; the same pass writes each
   position's children by number (compressed sparse rows). A finished child
   is not a position of the table: its result is folded into its parent at
   once (``seeds``). :func:`link_parents` turns the lists around.
3. :func:`seed_wins_and_losses`, :func:`propagate`, :func:`seed_ties`:
   retrograde analysis, as in GAMESMAN's loopy solver and chess tablebases.
   Solved positions wait in a first-in first-out queue, which keeps them in
   order of remoteness: a position with a losing child wins, in one more
   than the first (nearest) such child; a position whose children all win
   loses, in one more than the last (farthest). Once no win or loss is left
   to find, ties spread the same way from the positions next to a tied end
   (a tie with the fewest moves to it). What is still unknown then is a
   draw: neither player can force an end they prefer.

Values are from the point of view of the player to move, coded in GAMESMAN's
order of preference: ``LOSE < DRAW < TIE < WIN``.
"""

from __future__ import annotations

import mmap

import numpy as np
from numba import config, types

from boomboard.jit import njit
from numba.core import cgutils
from numba.extending import intrinsic

from ..core.layout import PLAYER, STATUS, STATUS_TIE, mix64
from ..search.kernels import apply_action, legal_actions
from .codec import decode, encode
from .layers import find, unhashed

LOSE, DRAW, TIE, WIN = 0, 1, 2, 3
UNKNOWN = 255
VALUE_SHIFT = 14  # a stored entry: value << 14 | remoteness
MAX_REMOTENESS = (1 << VALUE_SHIFT) - 1

SEED_WIN = 1  # a move ends the game, won by the player making it
SEED_TIE = 2  # a move ends the game in a tie


@njit(cache=True)
def terminal_value(s):
    """The value of a finished position for the player to move in it."""
    if s[STATUS] == STATUS_TIE:
        return TIE
    if s[STATUS] == 1 + s[PLAYER]:
        return WIN
    return LOSE


# -- the hash index -----------------------------------------------------------------
@njit(cache=True)
def index_of(table, key, next_index):
    """The number of ``key`` in the open-addressing index ``table`` (rows of
    key + 1 and number, side by side so a probe touches one cache line;
    empty rows hold 0, so fresh zeroed memory is an empty index; a power of
    two of them); a new key gets ``next_index``. Returns (number, whether new).
    Keys are below ``OUTSIDE``, so key + 1 never wraps to 0."""
    mask = np.uint64(table.shape[0] - 1)
    slot = mix64(key) & mask
    stored = key + np.uint64(1)
    while True:
        found = table[slot, 0]
        if found == stored:
            return np.int64(table[slot, 1]), False
        if found == 0:
            table[slot, 0] = stored
            table[slot, 1] = np.uint64(next_index)
            return next_index, True
        slot = (slot + np.uint64(1)) & mask


PREFETCH_AHEAD = 16  # probes between asking for a row and looking it up (measured: 8 helps little, 32 no more)

if config.DISABLE_JIT:
    def prefetch(address):
        """A hint for the processor; nothing to do in plain Python."""
else:
    @intrinsic
    def prefetch(typingctx, address):
        """Ask the processor to start loading the cache line at ``address`` (an
        integer) and go on at once: LLVM's ``llvm.prefetch``, which numba
        does not expose."""
        from llvmlite import ir

        def codegen(context, builder, sig, args):
            byte_pointer = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            function = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]), "llvm.prefetch.p0i8")
            # read (0), keep in all cache levels (3), data (1)
            builder.call(function, [builder.inttoptr(args[0], byte_pointer), ir.Constant(i32, 0),
                                    ir.Constant(i32, 3), ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return types.void(types.intp), codegen


@njit(cache=True)
def index_all(table, keys, first):
    """Enter ``keys`` with the numbers ``first, first + 1, ...``."""
    for i in range(keys.shape[0]):
        index_of(table, keys[i], first + i)


@njit(cache=True)
def rehash(old, new):
    """Move every entry of the index ``old`` into the larger empty ``new``.
    Read in slot order, the keys land in ``new`` in nearly ascending slots
    too (a key's slot keeps its low bits), so both tables stream through the
    cache instead of missing on every key."""
    for slot in range(old.shape[0]):
        if old[slot, 0] != 0:
            index_of(new, old[slot, 0] - np.uint64(1), np.int64(old[slot, 1]))


def new_index(count: int) -> np.ndarray:
    """An empty index with room for ``count`` keys, in huge pages where the
    system gives them: each probe is a random access, and with 4 KiB pages
    most of them would also miss the address translation cache."""
    rows = table_size(count)
    nbytes = rows * 16
    try:
        memory = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        if hasattr(mmap, "MADV_HUGEPAGE"):
            memory.madvise(mmap.MADV_HUGEPAGE)
        return np.frombuffer(memory, dtype=np.uint64).reshape(rows, 2)  # anonymous memory is zeroed
    except (OSError, ValueError, AttributeError):
        return np.zeros((rows, 2), dtype=np.uint64)


def table_size(count: int) -> int:
    """A power of two at least twice ``count`` (open addressing stays fast below half full)."""
    size = 1 << 10
    while size < 2 * count:
        size <<= 1
    return size


# -- enumeration -------------------------------------------------------------------
@njit(cache=True)
def copy_position(source, target):
    """``target[:] = source`` as a plain loop: for arrays of a few dozen
    entries, the compiled slice assignment costs several times as much."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@njit(cache=True)
def expand(spec, rules, params, s, child, actions, frontier, start, table, known, room,
           new_keys, child_keys, edges, degrees, opens, seeds):
    """Expand ``frontier[start:]``: number each child position (new ones from
    ``known`` on, written to ``new_keys``), write the numbers to ``edges``,
    and for frontier position ``i`` the moves not known to lose to
    ``opens[i]``, its number of child positions (moves that do not end the
    game) to ``degrees[i]`` and what the moves that end it give to ``seeds[i]``.

    The children's keys are all generated first (into ``child_keys``) and
    looked up after, in a tight loop whose independent probes of the large
    index the processor overlaps, instead of one cache miss at a time.
    Stops early when fewer than one position's worth of ``room`` (keys the
    index may still take), ``new_keys`` or ``edges`` is left. Returns (next
    start, new keys written, edges written)."""
    linked = 0
    worst = actions.shape[0]
    stop = frontier.shape[0]
    for i in range(start, frontier.shape[0]):
        if room - linked < worst or new_keys.shape[0] - linked < worst or edges.shape[0] - linked < worst:
            stop = i
            break
        decode(spec, frontier[i], params, s)
        n = legal_actions(rules, s, params, actions)
        open_moves, flags, first = 0, 0, linked
        for a in range(n):
            copy_position(s, child)
            apply_action(rules, child, params, actions[a])
            if child[STATUS] != 0:
                value = terminal_value(child)
                if value == LOSE:
                    flags |= SEED_WIN
                elif value == TIE:
                    flags |= SEED_TIE
                    open_moves += 1
                continue  # a move to a won end is a known loss: not open
            child_keys[linked] = encode(spec, child, params)
            linked += 1
            open_moves += 1
        degrees[i] = linked - first
        opens[i] = open_moves
        seeds[i] = flags
    written = 0
    # Each probe is a cache miss in an index far larger than the cache; a
    # lookup whose outcome (new or known) mispredicts throws away the loads
    # the processor had started for the next ones, so they are requested
    # explicitly, well ahead.
    mask = np.uint64(table.shape[0] - 1)
    rows = table.ctypes.data
    for k in range(linked):
        if k + PREFETCH_AHEAD < linked:
            prefetch(rows + np.intp(mix64(child_keys[k + PREFETCH_AHEAD]) & mask) * table.strides[0])
        j, new = index_of(table, child_keys[k], known + written)
        if new:
            new_keys[written] = child_keys[k]
            written += 1
        edges[k] = j
    return stop, written, linked


@njit(cache=True)
def link_parents(child_offsets, edges, parent_offsets, parents):
    """Turn the child lists around: ``parents[parent_offsets[j]:...]`` lists
    ``j``'s parents (once per move that reaches it)."""
    fill = parent_offsets[:-1].copy()
    for i in range(child_offsets.shape[0] - 1):
        for k in range(child_offsets[i], child_offsets[i + 1]):
            j = edges[k]
            parents[fill[j]] = i
            fill[j] += 1


# -- retrograde analysis -------------------------------------------------------------
@njit(cache=True)
def seed_wins_and_losses(remaining, seed, value, remoteness, queue):
    """Positions one move from their end: a winning move, or only losing ones."""
    tail = 0
    for i in range(value.shape[0]):
        if seed[i] & SEED_WIN:
            value[i], remoteness[i] = WIN, 1
        elif remaining[i] == 0:
            value[i], remoteness[i] = LOSE, 1
        else:
            continue
        queue[tail] = i
        tail += 1
    return tail


@njit(cache=True)
def seed_ties(seed, value, remoteness, queue, tail):
    """Unsolved positions one move from a tied end."""
    for i in range(value.shape[0]):
        if value[i] == UNKNOWN and seed[i] & SEED_TIE:
            value[i], remoteness[i] = TIE, 1
            queue[tail] = i
            tail += 1
    return tail


@njit(cache=True)
def propagate(offsets, parents, remaining, value, remoteness, queue, head, tail, stop):
    """Solve the parents of the queued positions ``queue[head:]`` (until
    ``stop`` of them are done); returns (head, tail)."""
    while head < tail and head < stop:
        c = queue[head]
        head += 1
        v = value[c]
        r = remoteness[c] + 1
        for k in range(offsets[c], offsets[c + 1]):
            p = parents[k]
            if value[p] != UNKNOWN:
                continue
            if v == TIE:
                value[p] = TIE
            elif v == LOSE:
                value[p] = WIN
            else:
                remaining[p] -= 1
                if remaining[p] != 0:
                    continue
                value[p] = LOSE
            remoteness[p] = r
            queue[tail] = p
            tail += 1
    return head, tail


@njit(cache=True)
def pack(value, remoteness, out):
    """Entries as stored: ``value << 14 | remoteness``; unknown ones are draws."""
    for i in range(value.shape[0]):
        if value[i] == UNKNOWN:
            out[i] = DRAW << VALUE_SHIFT
        else:
            out[i] = (np.uint16(value[i]) << VALUE_SHIFT) | np.uint16(remoteness[i])


# -- a position from its children ------------------------------------------------------
@njit(cache=True)
def score(spec, rules, params, s, child, actions, hashes, entries, offsets):
    """The packed entry of the position ``s`` computed from its children's
    entries in a table (``hashes``, ``entries``, ``offsets``: see
    :mod:`boomboard.solver.layers`), or -1 if a child is not in it.

    A losing child makes a win, one move more than the nearest such child; a
    tied one a tie, one more than the nearest; a drawn child with no better
    move a draw; a position whose children all win loses, one move more than
    the farthest."""
    n = legal_actions(rules, s, params, actions)
    min_lose, min_tie, max_win = MAX_REMOTENESS + 1, MAX_REMOTENESS + 1, -1
    draws = 0
    for a in range(n):
        copy_position(s, child)
        apply_action(rules, child, params, actions[a])
        if child[STATUS] != 0:
            v, r = terminal_value(child), 0
        else:
            i = find(spec, params, hashes, offsets, child, encode(spec, child, params))
            if i < 0:
                return -1
            entry = np.int64(entries[i])
            v, r = entry >> VALUE_SHIFT, entry & MAX_REMOTENESS
        if v == LOSE:
            min_lose = min(min_lose, r)
        elif v == TIE:
            min_tie = min(min_tie, r)
        elif v == WIN:
            max_win = max(max_win, r)
        else:
            draws += 1
    if min_lose <= MAX_REMOTENESS:
        return (WIN << VALUE_SHIFT) | (min_lose + 1)
    if min_tie <= MAX_REMOTENESS:
        return (TIE << VALUE_SHIFT) | (min_tie + 1)
    if draws == 0 and n > 0:
        return (LOSE << VALUE_SHIFT) | (max_win + 1)
    return DRAW << VALUE_SHIFT


@njit(cache=True)
def verify_range(spec, rules, params, s, child, actions, hashes, entries, offsets, lo, hi):
    """Recompute each entry of ``lo..hi-1`` from its children's entries;
    return the first index that disagrees, or -1."""
    for i in range(lo, hi):
        decode(spec, unhashed(hashes[i]), params, s)
        if score(spec, rules, params, s, child, actions, hashes, entries, offsets) != np.int64(entries[i]):
            return i
    return -1
