"""Kaboom's proof ordering (games/kaboom/threats.py) against slow Python references.

Threat cells are checked cell by cell; the moves ``proof_moves`` lists and
leaves out against what playing them shows (a win at once comes first; a
move left out lets the opponent win at once, or loses at once in misère,
and some listed move does not); ``mirror_key`` against mirrored positions.
The prover's values with this ordering are checked against the solver's
tables in tests/test_prover.py.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import boomboard
from boomboard.core.layout import PLAYER, PROOF_COUNT, PROOF_LOST, PROOF_OWN_MOVE_RESULTS, PROOF_SAFE, STATUS
from boomboard.games.kaboom import proof_engine, rules
from boomboard.games.kaboom.rules import HEIGHT
from boomboard.games.kaboom.threats import threat_cells
from boomboard.search.prover import Prover

# Every variant, on boards that fit a 64-bit word (and one that does not).
VARIANTS = ["kaboom(rows=4,cols=5,bombs=0)", "kaboom(rows=5,cols=5,connect=3,bombs=1)",
            "kaboom(rows=4,cols=5,bombs=2,misere=true)", "kaboom(rows=5,cols=4,connect=3,bombs=1,superbomb=true)",
            "kaboom(rows=4,cols=4,connect=3,bombs=1,misere=true,superbomb=true)", "kaboom(rows=6,cols=7,bombs=0)",
            "kaboom(rows=8,cols=8,connect=5,bombs=1)"]
FITTING = VARIANTS[:-1]  # the last board is larger than a word
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def sample_positions(name: str, count: int = 60, seed: int = 0) -> list:
    """Ongoing positions of random games, the later plies more often (more threats)."""
    game = boomboard.load_game(name)
    rng = random.Random(f"{name}-{seed}")
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(game.max_game_length())):
            actions = state.legal_actions()
            if not actions:
                break
            state.apply_action(rng.choice(actions))
            if state.is_terminal():
                break
            if rng.random() < 0.3:
                found.append(state.clone())
    return found[:count]


def grid(state) -> list[list[int]]:
    params = state.game.params_array
    rows, cols = int(params[0]), int(params[1])
    board = HEIGHT + cols
    return [[int(state.array[board + r * cols + c]) for c in range(cols)] for r in range(rows)]


def completes(cells, connect: int, r: int, c: int, side: int) -> bool:
    """Whether ``side``'s piece on the empty (r, c) makes ``connect`` in a row."""
    rows, cols = len(cells), len(cells[0])
    for dr, dc in DIRECTIONS:
        length = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < rows and 0 <= cc < cols and cells[rr][cc] & 3 == side:
                length += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if length >= connect:
            return True
    return False


def reference_threats(cells, connect: int, side: int) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(cells) for c, value in enumerate(row)
            if value == 0 and completes(cells, connect, r, c, side)}


def bitboard(cells, wanted) -> np.uint64:
    rows = len(cells)
    bits = 0
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            if wanted(value):
                bits |= 1 << (c * (rows + 1) + r)
    return np.uint64(bits)


@pytest.mark.parametrize("name", FITTING)
def test_threat_cells_are_the_cells_that_complete_a_line(name):
    game = boomboard.load_game(name)
    connect = int(game.params_array[2])
    seen = 0
    for state in sample_positions(name):
        cells = grid(state)
        rows = len(cells)
        empty = bitboard(cells, lambda value: value == 0)
        for side in (1, 2):
            found = int(threat_cells(bitboard(cells, lambda value, side=side: value & 3 == side), empty,
                                     game.params_array))
            expected = reference_threats(cells, connect, side)
            assert {(bit % (rows + 1), bit // (rows + 1)) for bit in range(64) if found >> bit & 1} == expected, \
                state.to_notation()
            seen += len(expected)
    assert seen  # the sample had threats to find


def mover_result(state, action) -> str:
    """What ``action`` leads to at once: 'win', 'lose', 'tie' or 'on'."""
    child = state.child(action)
    status = int(child.array[STATUS])
    if status == 0:
        return "on"
    return "tie" if status == 3 else "win" if status == 1 + int(state.array[PLAYER]) else "lose"


def hands_a_win(child) -> bool:
    """Whether the player to move in ``child`` can win with one action."""
    return not child.is_terminal() and any(mover_result(child, reply) == "win" for reply in child.legal_actions())


def listed_moves(state) -> list[int]:
    out = np.zeros(state.game.max_legal_actions(), np.int32)
    n = state.game.kernels.proof_moves(state.array, state.game.params_array, out)
    return [int(a) for a in out[:n]]


@pytest.mark.parametrize("name", VARIANTS)
def test_proof_moves_lists_a_win_first_and_leaves_out_only_sure_losses(name):
    game = boomboard.load_game(name)
    rows, cols, connect, _, misere, _ = (int(value) for value in game.params_array)
    fits = cols * (rows + 1) <= 64  # else every move is listed, in action order
    left_out = 0
    for state in sample_positions(name):
        legal = state.legal_actions()
        listed = listed_moves(state)
        assert len(set(listed)) == len(listed) >= 1 and set(listed) <= set(legal), state.to_notation()
        results = {a: mover_result(state, a) for a in legal}
        if "win" in results.values():
            assert len(listed) == 1 and results[listed[0]] == "win", state.to_notation()
            continue
        for action in set(legal) - set(listed):
            left_out += 1
            assert results[action] == "lose" or hands_a_win(state.child(action)), state.to_notation()
        if set(legal) - set(listed):
            assert any(results[a] != "lose" for a in listed), state.to_notation()
        # drops that lose at once come last, in any order; the others by the mover's
        # threat cells after them: the more the better (in misère the fewer)
        side = 1 + int(state.array[PLAYER])
        counts = [len(reference_threats(grid(state.child(a)), connect, side))
                  for a in listed if a < 2 * cols and results[a] == "on" and not hands_a_win(state.child(a))]
        assert not fits or counts == sorted(counts, reverse=not misere), state.to_notation()
    if fits and not misere:
        assert left_out  # the sample met moves under the opponent's threats
    if not fits:
        assert not left_out


@pytest.mark.parametrize("name", FITTING)
def test_the_proof_engine_vouches_for_pons_bounds_only_where_they_hold(name):
    """The bitboard proof engine's flags: from a node it marks, no action of the next two plies makes a line of the
    player who did not play it (PROOF_OWN_MOVE_RESULTS), and no listed move loses at once or hands the opponent a
    win (PROOF_SAFE); it marks exactly the nodes with no bomb left anywhere, of a game where lines win; and of
    those, it says every move hands the opponent a win (PROOF_LOST) exactly where every move does."""
    game = boomboard.load_game(name)
    geometry = game.proof_engine_params()
    position, out = proof_engine.new_position(geometry), np.zeros(game.max_legal_actions(), np.int32)
    marked = unmarked = safe = 0
    for state in sample_positions(name, count=40):
        proof_engine.load_position(state.array, geometry, position)
        listed = int(proof_engine.proof_moves(position, geometry, out))
        moves = [int(a) for a in out[:listed & PROOF_COUNT]]
        if any(mover_result(state, a) == "win" for a in state.legal_actions()):
            continue  # the winning move comes alone: the node needs no bound
        no_bomb_left = not any(state.array[rules.HAND + p] or state.array[rules.ARMED + p] for p in (0, 1))
        assert bool(listed & PROOF_OWN_MOVE_RESULTS) == (no_bomb_left and not game["misere"]), state.to_notation()
        if listed & PROOF_OWN_MOVE_RESULTS:
            marked += 1
            for action in state.legal_actions():
                child = state.child(action)
                assert mover_result(state, action) != "lose", state.to_notation()
                assert child.is_terminal() or all(mover_result(child, r) != "lose" for r in child.legal_actions())
        else:
            unmarked += 1
        if listed & PROOF_SAFE:
            safe += 1
            assert all(mover_result(state, a) != "lose" and not hands_a_win(state.child(a)) for a in moves)
        every_move_hands_a_win = all(mover_result(state, a) == "lose" or hands_a_win(state.child(a))
                                     for a in state.legal_actions())
        if listed & PROOF_LOST:
            assert every_move_hands_a_win, state.to_notation()
        else:
            assert not (listed & PROOF_OWN_MOVE_RESULTS and every_move_hands_a_win), state.to_notation()
    assert (marked and safe) or game["bombs"] or game["misere"]
    assert unmarked or not (game["bombs"] or game["misere"])


def test_a_node_where_every_drop_hands_the_opponent_a_win_is_settled_lost():
    """O threatens A1 and E1 at once; X cannot win at once (its threats A2 and E2 float): every drop of X hands O
    a win, which the proof engine says (PROOF_LOST), and the prover scores as a loss in two plies."""
    from boomboard.search.prover import Prover

    game = boomboard.load_game("kaboom(rows=4,cols=5,bombs=0)")
    state = game.state_from_notation("(x 0 0 -ooo- -xxx- ----- -----)")
    geometry = game.proof_engine_params()
    position, out = proof_engine.new_position(geometry), np.zeros(game.max_legal_actions(), np.int32)
    proof_engine.load_position(state.array, geometry, position)
    assert int(proof_engine.proof_moves(position, geometry, out)) & PROOF_LOST
    proof = Prover(game, table_bits=10).prove(state)
    assert (proof.value, proof.plies) == ("lose", 2)
    assert proof.nodes < len(state.legal_actions())  # the root alone, once a null window: no drop searched


def mirrored(state):
    """The state of ``state``'s mirror image (columns reversed)."""
    array = state.array.copy()
    params = state.game.params_array
    rows, cols = int(params[0]), int(params[1])
    board = HEIGHT + cols
    for c in range(cols):
        array[HEIGHT + c] = state.array[HEIGHT + cols - 1 - c]
        for r in range(rows):
            array[board + r * cols + c] = state.array[board + r * cols + cols - 1 - c]
    return state.game.state_from_array(array)


@pytest.mark.parametrize("name", VARIANTS[:3])
def test_a_position_and_its_mirror_share_one_key_and_their_proofs(name):
    game = boomboard.load_game(name)
    kernels, params = game.kernels, game.params_array
    shared: dict[int, bytes] = {}
    for state in sample_positions(name, count=40):
        image = mirrored(state)
        key, image_key = int(kernels.mirror_key(state.array, params)), int(kernels.mirror_key(image.array, params))
        assert key >> 1 == image_key >> 1, state.to_notation()
        own, other = int(kernels.position_key(state.array, params)), int(kernels.position_key(image.array, params))
        assert (key & 1) != (image_key & 1) or own == other, state.to_notation()
        canonical = min(state.array.tobytes(), image.array.tobytes())
        assert shared.setdefault(key >> 1, canonical) == canonical, "two positions share a key"
    prover = Prover(game, table_bits=16)
    late = [state for state in sample_positions(name, count=200, seed=1) if state.ply() >= 14]  # quick to prove
    assert len(late) >= 6
    for state in late[:6]:
        first, second = prover.prove(state, best_moves=True), prover.prove(mirrored(state), best_moves=True)
        assert (first.value, first.plies) == (second.value, second.plies), state.to_notation()
        assert second.best_moves == sorted(mirror_action(game, a) for a in first.best_moves), state.to_notation()


def mirror_action(game, action: int) -> int:
    """The action that mirrors ``action``: a drop or a bomb's column, a detonation's cell."""
    rows, cols = int(game.params_array[0]), int(game.params_array[1])
    if action < 2 * cols:
        return action - action % cols + cols - 1 - action % cols
    if action < 2 * cols + rows * cols:
        cell = action - 2 * cols
        return 2 * cols + cell - cell % cols + cols - 1 - cell % cols
    return action  # the pass
