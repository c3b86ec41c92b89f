"""The solver's index: hashed keys (a bijection), interpolation search, and
the layers every move must climb, which the layer-by-layer solver relies on."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard.solver.hashed import layers
from boomboard.solver.codec import codec_spec, layer_count


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 64) - 1))
def test_hashing_a_key_is_undone_exactly(key):
    assert int(layers.unhashed(np.uint64(layers.hashed(np.uint64(key))))) == key


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=(1 << 64) - 1), min_size=1, max_size=300, unique=True),
       st.integers(min_value=0, max_value=(1 << 64) - 1))
def test_interpolation_search_finds_exactly_the_stored_hashes(values, probe):
    hashes = np.sort(np.array(values, dtype=np.uint64))
    for i, h in enumerate(hashes):
        assert layers.search(hashes, 0, len(hashes), h) == i
    expected = values.index(probe) if probe in values else None
    found = layers.search(hashes, 0, len(hashes), np.uint64(probe))
    assert (found == -1) if expected is None else hashes[found] == probe


GAMES = ["kaboom(rows=3,cols=3,connect=3)", "kaboom(rows=3,cols=3,connect=3,bombs=2,superbomb=true)",
         "kaboom(rows=2,cols=3,connect=3)", "kaboom(rows=4,cols=5,misere=true)", "jump61(size=3)",
         "jump61(size=4)"]


@pytest.mark.parametrize("name", GAMES)
def test_every_move_goes_to_a_later_layer(name):
    # The layer-by-layer solver scores a layer from later ones only: a move
    # that stayed in its layer, or went back, would leave a child unsolved.
    game = boomboard.load_game(name)
    spec, params, layer_of = codec_spec(game), game.params_array, game.kernels.layer_of
    count = layer_count(game, spec)
    assert game.solver_layered and count > 1
    rng = random.Random(name)
    passes = 0
    for _ in range(150):
        state = game.new_initial_state()
        while not state.is_terminal():
            here = layer_of(spec, state.array, params)
            assert 0 <= here < count
            action = rng.choice(state.legal_actions())
            passes += state.action_to_string(action) in ("pass", "-")
            child = state.child(action)
            if not child.is_terminal():
                assert layer_of(spec, child.array, params) > here
            state = child
    if name.startswith("kaboom(rows=2"):
        assert passes > 0  # a full 2x3 board often leaves a player without a bomb: a pass


@pytest.mark.parametrize("name", GAMES[:2] + GAMES[4:5])
def test_a_layer_is_read_off_the_decoded_key(name):
    game = boomboard.load_game(name)
    spec, params, kernels = codec_spec(game), game.params_array, game.kernels
    decoded = game.initial_array().copy()
    rng = random.Random(7)
    for _ in range(50):
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 12)):
            if state.is_terminal():
                break
            kernels.decode(spec, kernels.encode(spec, state.array, params), params, decoded)
            assert kernels.layer_of(spec, decoded, params) == kernels.layer_of(spec, state.array, params)
            state.apply_action(rng.choice(state.legal_actions()))


def test_distinct_sorts_and_drops_repeats():
    values = np.array([5, 3, 5, 9, 3, 3], dtype=np.uint64)
    assert layers.distinct(values).tolist() == [3, 5, 9]
    assert layers.distinct(np.empty(0, np.uint64)).tolist() == []


def test_the_solver_names_no_game_and_switches_on_none():
    # Each game declares what the solver needs (its codec, layers, endgames)
    # and the solver's compiled passes are specialized per game: no code of
    # the solver names a game or imports one, or the old switch on a game id.
    import io
    import tokenize
    from pathlib import Path

    from boomboard.registry import game_names

    folder = Path(boomboard.__file__).parent / "solver"
    problems = []
    for path in sorted(folder.glob("*.py")):
        text = path.read_text()
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NAME and any(name in token.string.lower() for name in game_names()):
                problems.append(f"{path.name}:{token.start[0]}: {token.string}")
        for forbidden in ("boomboard.games", "search.kernels", "search import kernels", "rules_id", ".games."):
            if forbidden in text:
                problems.append(f"{path.name}: {forbidden}")
    assert problems == []
