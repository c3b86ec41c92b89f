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


# (game, size, games, start): the suite plays a third of each run's games,
# benchmarks/differential_games.py all of them
ENDING_RUNS = [
    ("explocus", 8, 10, None),  # random play on 8x8 mostly lasts the 500 actions
    ("explocus(size=4)", 4, 300, None),
    ("explocus(size=5)", 5, 120, None),
    ("explocus", 8, 100, TWO_STONES),  # two lone stones: repetitions
]
ENDING_SHARE = 3


def whole_games_to_every_kind_of_ending(share: int) -> dict[str, int]:
    """The endings of each run's games, ``1 / share`` of them (one at least)."""
    endings: dict[str, int] = {}
    for name, size, games, start in ENDING_RUNS:
        seen = play_random_games(boomboard.load_game(name), explocus_reference(size), max(1, games // share), seed=3,
                                 start=start)
        for key, count in seen.items():
            endings[key] = endings.get(key, 0) + count
    return endings


def test_whole_games_reach_every_kind_of_ending():
    endings = whole_games_to_every_kind_of_ending(ENDING_SHARE)
    assert {"0:NO_TOKENS", "1:NO_TOKENS", "None:REPETITION", "None:TURN_LIMIT"} <= set(endings), endings
    assert "unfinished" not in endings
