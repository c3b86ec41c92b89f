"""Chain Reaction against the reference engine, step by step, in random games:
legal moves, positions (whose pictures at a wipe-out depend on where the
cascade stops) and results must agree everywhere."""

import random

import boomboard
from differential import compare_position, play_random_games
from reference.chain_reaction import chain_reaction_reference
from test_chain_reaction_perft import LATE_1, MIDGAME_1, SMALL_3x3, SMALL_4x4


def add(endings, seen):
    for key, count in seen.items():
        endings[key] = endings.get(key, 0) + count


# The suite plays a fifth of the thousand games; benchmarks/differential_games.py
# plays them all.
SUITE_SHARE = 5
# The thousand games by grid: ((rows, cols), games)
THOUSAND_GAMES = [((9, 6), 250), ((2, 2), 150), ((2, 3), 150), ((3, 3), 150), ((3, 5), 100), ((4, 4), 100),
                  ((5, 2), 50), ((12, 12), 10), ((2, 12), 20), ((7, 9), 20)]


def whole_games_on_many_grids(share: int) -> dict[str, int]:
    """The endings of each grid's games, ``1 / share`` of them (one at least)."""
    endings: dict[str, int] = {}
    for (rows, cols), games in THOUSAND_GAMES:
        game = boomboard.load_game("chain_reaction", rows=rows, cols=cols)
        add(endings, play_random_games(game, chain_reaction_reference(rows, cols), max(1, games // share),
                                       seed=rows * 100 + cols))
    return endings


def test_whole_games_on_many_grids():
    endings = whole_games_on_many_grids(SUITE_SHARE)
    assert sum(endings.values()) == sum(max(1, games // SUITE_SHARE) for _, games in THOUSAND_GAMES)
    # no ties, no unfinished games: every game ends with a player wiped out, and both win some
    assert set(endings) == {"0:NO_TOKENS", "1:NO_TOKENS"}, endings


def test_games_from_loaded_positions():
    endings: dict[str, int] = {}
    for start, (rows, cols), games in ((MIDGAME_1, (9, 6), 60), (LATE_1, (9, 6), 100),
                                       (SMALL_3x3, (3, 3), 100), (SMALL_4x4, (4, 4), 100)):
        game = boomboard.load_game("chain_reaction", rows=rows, cols=cols)
        add(endings, play_random_games(game, chain_reaction_reference(rows, cols), games, seed=7, start=start))
    assert set(endings) == {"0:NO_TOKENS", "1:NO_TOKENS"}, endings


def test_random_games_end_with_unstable_cells_left_and_the_pictures_agree():
    # The stop at a wipe-out leaves unstable cells in many finished games; the
    # final pictures, which depend on which wave the stop comes after, must agree.
    game, reference = boomboard.load_game("chain_reaction", rows=3, cols=3), chain_reaction_reference(3, 3)
    rng = random.Random(5)
    unstable_endings = 0
    names = [f"{c}{r}" for c in "abc" for r in (1, 2, 3)]
    for _ in range(300):
        state, position = game.new_initial_state(), reference.initial()
        while not state.is_terminal():
            move = state.action_to_string(rng.choice(state.legal_actions()))
            state.play(move)
            position = reference.play(position, move)
        compare_position(state, reference, position, "at the end")
        unstable_endings += any(state.orbs(name) >= state.critical_mass(name) for name in names)
    assert unstable_endings > 20
