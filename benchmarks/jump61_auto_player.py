"""The Jump61 course program's auto player against a student's alpha-beta.

Plays ``--pairs`` random 4-move openings, each with both colours, between
``ai:depth=7`` (about a tenth of the auto player's default budget, as a
depth so that the games do not depend on the machine's load) and the
student agent of ``tests/arena_agents/jump61_student.py`` (alpha-beta to 4
plies, scoring squares), and prints the games won. The test suite plays the
first 2 pairs (tests/test_jump61_search.py); the full run is 10 pairs, and
was expected to win at least 18 of its 20 games.

    python benchmarks/jump61_auto_player.py [--pairs 10]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_jump61_search import games_won_against_the_student  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10, help="openings, each played with both colours")
    args = parser.parse_args()
    began = time.process_time()
    won = games_won_against_the_student(args.pairs)
    print(f"won {won} of {2 * args.pairs} games ({time.process_time() - began:.0f} CPU s)")


if __name__ == "__main__":
    main()
