"""The Expendibots course Player's setting over a whole game against greedy:
its CPU seconds and the game's peak memory, against the course's limits
(60 CPU s and 100 MB a player). CI plays the same game at a quarter of the
budget (tests/test_expendibots_course_limits.py)::

    python benchmarks/course_limits.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_expendibots_course_limits import (  # noqa: E402
    COURSE_CPU_SECONDS,
    COURSE_MEMORY_BYTES,
    whole_game_against_greedy,
)

from boomboard.games.expendibots.course.player import DEFAULT_AGENT  # noqa: E402


def main() -> None:
    cpu, peak, white = whole_game_against_greedy(DEFAULT_AGENT)
    print(f"{DEFAULT_AGENT} against greedy: {cpu:.1f} CPU s (limit {COURSE_CPU_SECONDS:g}), "
          f"peak {peak / 2**20:.1f} MB (limit {COURSE_MEMORY_BYTES / 2**20:g}), White's return {white:+g}")
    within = cpu <= COURSE_CPU_SECONDS and peak <= COURSE_MEMORY_BYTES and white == 1.0
    print("within the course's limits, and won" if within else "NOT within the course's limits, or not won")
    sys.exit(0 if within else 1)


if __name__ == "__main__":
    main()
