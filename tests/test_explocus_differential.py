"""Explocus (square board) against the reference engine, step by step, in
random games: legal moves, positions and results must agree everywhere."""

import boomboard
from differential import play_random_games
from reference.explocus import explocus_reference

MIDGAME = "...b1..b1./.b1b3b1.b1b2./....b1b1../.b2....../.....w3../......../w1w2w1.w1.w2./..w1w1.w1w1. w"
TWO_STONES = "w1......./......../......../......../......../......../......../.......b1 w"


# The suite plays a fifth of the thousand games; benchmarks/differential_games.py
# plays them all.
SUITE_SHARE = 5


def openings_from_the_standard_start(games: int) -> dict[str, int]:
    return play_random_games(boomboard.load_game("explocus"), explocus_reference(8), games, seed=1, max_plies=30)


def test_openings_from_the_standard_start():
    assert sum(openings_from_the_standard_start(1000 // SUITE_SHARE).values()) == 1000 // SUITE_SHARE


def test_games_from_a_loaded_midgame_position():
    endings = play_random_games(boomboard.load_game("explocus"), explocus_reference(8), 100, seed=2,
                                start=MIDGAME, max_plies=60)
    assert sum(endings.values()) == 100


def test_whole_games_reach_every_kind_of_ending():
    endings: dict[str, int] = {}
    runs = [
        ("explocus", 8, 10, None),  # random play on 8x8 mostly lasts the 500 actions
        ("explocus(size=4)", 4, 300, None),
        ("explocus(size=5)", 5, 120, None),
        ("explocus", 8, 100, TWO_STONES),  # two lone stones: repetitions
    ]
    for name, size, games, start in runs:
        seen = play_random_games(boomboard.load_game(name), explocus_reference(size), games, seed=3, start=start)
        for key, count in seen.items():
            endings[key] = endings.get(key, 0) + count
    assert {"0:NO_TOKENS", "1:NO_TOKENS", "None:REPETITION", "None:TURN_LIMIT"} <= set(endings), endings
    assert "unfinished" not in endings
