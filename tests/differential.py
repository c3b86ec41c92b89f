"""Differential testing: the compiled engine against a simple reference.

Each ``tests/reference/<game>.py`` is written separately from the engine, in
plain Python, straight from the rulebook, and speaks only notation: it never
sees our action ids or arrays. A reference object has:

* ``initial()`` and ``from_notation(text)``: a position (any Python value,
  carrying whatever history the rules need);
* ``to_notation(position)``: the native position notation;
* ``legal(position)``: the legal actions as notation strings;
* ``play(position, move)``: the next position (the argument is not changed);
* ``result(position)``: ``None`` while the game goes on, else
  ``(winner, reason)`` with winner 0, 1 or ``None`` and reason a
  :class:`boomboard.Reason` member name such as ``"REPETITION"``.
"""

from __future__ import annotations

import random

from boomboard import State


def engine_result(state: State):
    outcome = state.outcome()
    return None if outcome is None else (outcome.winner, outcome.reason.name)


def compare_position(state: State, reference, position, where: str) -> None:
    ours = sorted(state.action_to_string(a) for a in state.legal_actions())
    theirs = sorted(reference.legal(position))
    assert ours == theirs, (f"{where}: legal actions differ\nengine only: {sorted(set(ours) - set(theirs))}\n"
                            f"reference only: {sorted(set(theirs) - set(ours))}")
    assert state.to_notation() == reference.to_notation(position), f"{where}: positions differ"
    assert engine_result(state) == reference.result(position), f"{where}: results differ"


def play_random_games(game, reference, n_games: int, seed: int, start: str | None = None,
                      max_plies: int | None = None) -> dict[str, int]:
    """Play ``n_games`` random games in both engines, comparing every step.

    Returns counts of the results seen, so a test can also check that the
    games reached the endings it means to cover.
    """
    rng = random.Random(seed)
    endings: dict[str, int] = {}
    for number in range(n_games):
        state = game.new_initial_state() if start is None else game.state_from_notation(start)
        position = reference.initial() if start is None else reference.from_notation(start)
        moves: list[str] = []
        while True:
            where = f"game {number} (seed {seed}) after {moves}"
            compare_position(state, reference, position, where)
            if state.is_terminal() or (max_plies is not None and len(moves) >= max_plies):
                break
            action = rng.choice(state.legal_actions())
            move = state.action_to_string(action)
            assert state.string_to_action(move) == action, f"{where}: {move!r} does not parse back"
            state.apply_action(action)
            position = reference.play(position, move)
            moves.append(move)
        result = engine_result(state)
        key = "unfinished" if result is None else f"{result[0]}:{result[1]}"
        endings[key] = endings.get(key, 0) + 1
    return endings
