"""Expendibots at the course Player's setting keeps to the course's limits
over a whole game: 60 s of CPU time and 100 MB per player.

The course setting shares out 58 s a game; a game at it takes about 25 CPU s,
so CI plays the same whole game at a quarter of that budget, which keeps the
same time sharing and the same tables (memory does not shrink with time).
benchmarks/course_limits.py plays it at the course setting itself."""

from __future__ import annotations

import time
import tracemalloc

import boomboard
from boomboard.agents import make_agent, parse_spec

COURSE_CPU_SECONDS = 60.0
COURSE_MEMORY_BYTES = 100 * 2**20


def whole_game_against_greedy(spec: str) -> tuple[float, int, float]:
    """The ``spec`` agent as White against greedy over a whole game: its CPU
    seconds, the game's peak traced memory in bytes, and White's return.
    The course Player module is imported before memory is traced, as this
    check always did: importing it builds its agent (traced, the game's peak
    was 47 MB higher at a quarter budget: 90.8 MB against 43.8 MB)."""
    from boomboard.games.expendibots.course import player  # noqa: F401 (imported: it builds its agent)

    game = boomboard.load_game("expendibots")
    ai, opponent = make_agent(spec, seed=1), make_agent("greedy", seed=2)
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
    return cpu, peak, state.returns()[0]


def test_the_course_setting_shares_out_less_than_the_courses_60_cpu_seconds():
    from boomboard.games.expendibots.course.player import DEFAULT_AGENT  # here: importing it builds its agent

    kind, settings = parse_spec(DEFAULT_AGENT)
    assert kind == "ai" and float(settings["game_time"]) <= COURSE_CPU_SECONDS - 2


def test_ai_keeps_to_a_game_budget_and_100_mb_over_a_whole_game_and_wins():
    budget = 14.5  # a quarter of the course setting's
    cpu, peak, white = whole_game_against_greedy(f"ai:game_time={budget}")
    assert cpu <= budget + 0.5
    assert peak <= COURSE_MEMORY_BYTES, peak
    assert white == 1.0
