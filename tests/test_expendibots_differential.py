"""Expendibots against the reference engine, step by step: legal actions,
positions and results must agree everywhere, in random games from the start,
from loaded positions, and in games steered into the history rules."""

import random

import boomboard
from differential import compare_position, engine_result, play_random_games
from reference.expendibots import expendibots_reference
from test_expendibots_perft import ENDING, MIDGAME_1, MIDGAME_2, TALL

GAME = boomboard.load_game("expendibots")


def add(total, seen):
    for key, count in seen.items():
        total[key] = total.get(key, 0) + count


# The suite plays a fifth of the thousand games; benchmarks/differential_games.py
# plays them all.
SUITE_SHARE = 5


def random_games_from_the_start(games: int) -> dict[str, int]:
    return play_random_games(GAME, expendibots_reference(), games, seed=1)


def test_random_games_from_the_start():
    endings = random_games_from_the_start(1000 // SUITE_SHARE)
    assert sum(endings.values()) == 1000 // SUITE_SHARE and "unfinished" not in endings
    # random games mostly end by a boom that leaves one side without tokens
    assert {"0:NO_TOKENS", "1:NO_TOKENS", "None:BOTH_NO_TOKENS"} <= set(endings), endings


def test_random_games_from_loaded_positions():
    endings: dict[str, int] = {}
    for number, start in enumerate((MIDGAME_1, MIDGAME_2, TALL, ENDING)):
        add(endings, play_random_games(GAME, expendibots_reference(), 100, seed=10 + number, start=start))
    assert sum(endings.values()) == 400
    assert {"0:NO_TOKENS", "1:NO_TOKENS", "None:BOTH_NO_TOKENS"} <= set(endings), endings


def play_steered_game(start, keep, seed):
    """A game from ``start`` in both engines, compared at every step, where each
    action is chosen at random among the legal ones ``keep(referee tuple, player)``
    accepts (all legal ones if it accepts none)."""
    rng = random.Random(seed)
    reference = expendibots_reference()
    state, position = GAME.state_from_notation(start), reference.from_notation(start)
    moves = []
    while True:
        compare_position(state, reference, position, f"steered game (seed {seed}) after {moves}")
        if state.is_terminal():
            return engine_result(state)
        legal = state.legal_actions()
        player = state.current_player()
        action = rng.choice([a for a in legal if keep(state.action_to_tuple(a), player)] or legal)
        move = state.action_to_string(action)
        state.apply_action(action)
        position = reference.play(position, move)
        moves.append(move)


def test_steered_games_reach_repetition_and_the_action_limit():
    endings: dict[str, int] = {}
    # two lone tokens that only move, each in its own 2x2 corner: positions recur
    corners = ({(0, 0), (1, 0), (0, 1), (1, 1)}, {(6, 6), (7, 6), (6, 7), (7, 7)})
    for seed in range(5):
        result = play_steered_game('{"white": [[1, 0, 0]], "black": [[1, 7, 7]]}',
                                   lambda action, player: action[0] == "MOVE" and action[3] in corners[player],
                                   seed)
        add(endings, {f"{result[0]}:{result[1]}": 1})
    # tokens that never boom, free to roam: the 500th action comes first
    for seed in range(3):
        result = play_steered_game('{"white": [[2, 0, 0], [1, 3, 3]], "black": [[2, 7, 7], [1, 4, 4]]}',
                                   lambda action, player: action[0] == "MOVE", seed)
        add(endings, {f"{result[0]}:{result[1]}": 1})
    assert endings == {"None:REPETITION": 5, "None:TURN_LIMIT": 3}, endings
