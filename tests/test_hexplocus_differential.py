"""HExplocus (hexagonal board) against the reference engine, step by step, in
random games: legal moves, positions and results must agree everywhere."""

import boomboard
from differential import play_random_games
from reference.explocus import hexplocus_reference

MIDGAME = ".b1.../.b1b1b1.b2/.b1.b1.../.b2.b1.b1../...b3.w1.../...w2..../....w1.w2/w2w1w1w3b5w2/.w1... w"
TWO_STONES = "b1..../....../......./......../........./......../......./....../w1.... w"


# The suite plays a fifth of the thousand games; benchmarks/differential_games.py
# plays them all.
SUITE_SHARE = 5


def openings_from_the_standard_start(games: int) -> dict[str, int]:
    return play_random_games(boomboard.load_game("hexplocus"), hexplocus_reference(5), games, seed=1, max_plies=30)


def test_openings_from_the_standard_start():
    assert sum(openings_from_the_standard_start(1000 // SUITE_SHARE).values()) == 1000 // SUITE_SHARE


def test_games_from_a_loaded_midgame_position():
    endings = play_random_games(boomboard.load_game("hexplocus"), hexplocus_reference(5), 100, seed=2,
                                start=MIDGAME, max_plies=60)
    assert sum(endings.values()) == 100


# (game, side, games, start): the suite plays a third of each run's games,
# benchmarks/differential_games.py all of them
ENDING_RUNS = [
    ("hexplocus", 5, 6, None),  # random play on side 5 mostly lasts the 500 actions
    ("hexplocus(side=3)", 3, 150, None),
    ("hexplocus(side=4)", 4, 10, None),
    ("hexplocus", 5, 100, TWO_STONES),  # two lone stones: repetitions
]
ENDING_SHARE = 3


def whole_games_to_every_kind_of_ending(share: int) -> dict[str, int]:
    """The endings of each run's games, ``1 / share`` of them (one at least)."""
    endings: dict[str, int] = {}
    for name, side, games, start in ENDING_RUNS:
        seen = play_random_games(boomboard.load_game(name), hexplocus_reference(side), max(1, games // share), seed=3,
                                 start=start)
        for key, count in seen.items():
            endings[key] = endings.get(key, 0) + count
    return endings


def test_whole_games_reach_every_kind_of_ending():
    endings = whole_games_to_every_kind_of_ending(ENDING_SHARE)
    assert {"0:NO_TOKENS", "1:NO_TOKENS", "None:REPETITION", "None:TURN_LIMIT"} <= set(endings), endings
    assert "unfinished" not in endings
