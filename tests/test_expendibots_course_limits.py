"""Expendibots at the course Player's setting keeps to the course's limits
over a whole game: 60 s of CPU time and 100 MB per player."""

from __future__ import annotations

import time
import tracemalloc

import boomboard
from boomboard.agents import make_agent


def test_ai_plays_a_full_game_within_60_cpu_seconds_and_100_mb():
    from boomboard.games.expendibots.course.player import DEFAULT_AGENT  # here: importing it builds its agent

    game = boomboard.load_game("expendibots")
    ai, opponent = make_agent(DEFAULT_AGENT, seed=1), make_agent("greedy", seed=2)
    tracemalloc.start()
    ai.new_game(game, 0)
    opponent.new_game(game, 1)
    cpu = 0.0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            began = time.process_time()
            action = ai.choose_action(state.clone())
            cpu += time.process_time() - began
        else:
            action = opponent.choose_action(state.clone())
        state.apply_action(action)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert cpu <= 60.0
    assert peak <= 100 * 2**20, peak
    assert state.returns()[0] == 1.0, state.outcome()
