"""Jump61 against the reference engine, step by step, in random games: legal
moves, positions (whose pictures at a win depend on the order of the jumps)
and results must agree everywhere."""

import random

import boomboard
from differential import compare_position, play_random_games
from reference.jump61 import jump61_reference
from test_jump61_perft import MIDGAME_1, MIDGAME_2

RED_SQUARE = "===\n    1- 1- 1- 1-\n    3r 4r 1- 1-\n    1- 2b 1- 1-\n    1- 1- 1- 1-\n==="


def add(endings, seen):
    for key, count in seen.items():
        endings[key] = endings.get(key, 0) + count


# The suite plays a fifth of the thousand games; benchmarks/differential_games.py
# plays them all.
SUITE_SHARE = 5
# The thousand games by size: (game, size, games)
THOUSAND_GAMES = [("jump61", 6, 400), ("jump61(size=2)", 2, 150), ("jump61(size=3)", 3, 200),
                  ("jump61(size=4)", 4, 150), ("jump61(size=5)", 5, 80), ("jump61(size=10)", 10, 20)]


def whole_games_on_every_size(share: int) -> dict[str, int]:
    """The endings of each size's games, ``1 / share`` of them."""
    endings: dict[str, int] = {}
    for name, size, games in THOUSAND_GAMES:
        add(endings, play_random_games(boomboard.load_game(name), jump61_reference(size), games // share, seed=size))
    return endings


def test_whole_games_on_every_size():
    endings = whole_games_on_every_size(SUITE_SHARE)
    assert sum(endings.values()) == sum(games // SUITE_SHARE for _, _, games in THOUSAND_GAMES)
    # no ties, no unfinished games: every game ends with one colour, and both colours win
    assert set(endings) == {"0:ALL_ONE_COLOUR", "1:ALL_ONE_COLOUR"}, endings


def test_games_from_loaded_positions():
    endings: dict[str, int] = {}
    for start, size, games in ((MIDGAME_1, 6, 100), (MIDGAME_2, 6, 100), (RED_SQUARE, 4, 100)):
        add(endings, play_random_games(boomboard.load_game("jump61", size=size), jump61_reference(size), games,
                                       seed=7, start=start))
    assert set(endings) == {"0:ALL_ONE_COLOUR", "1:ALL_ONE_COLOUR"}, endings


def test_random_games_end_with_overfull_squares_left_and_the_pictures_agree():
    # The stop at one colour leaves overfull squares in many finished games; the
    # final pictures, which depend on the order of the jumps, must agree.
    game, reference = boomboard.load_game("jump61", size=3), jump61_reference(3)
    rng = random.Random(5)
    overfull_endings = 0
    for _ in range(200):
        state, position = game.new_initial_state(), reference.initial()
        while not state.is_terminal():
            move = state.action_to_string(rng.choice(state.legal_actions()))
            state.play(move)
            position = reference.play(position, move)
        compare_position(state, reference, position, "at the end")
        size = game.size
        overfull_endings += any(state.spots(r, c) > state.neighbours(r, c)
                                for r in range(1, size + 1) for c in range(1, size + 1))
    assert overfull_endings > 20
