"""The thousand random games of each differential test, and Explocus' and
HExplocus' games to every kind of ending: every step of each game compared
between the engine and the reference engine (tests/reference/).

The test suite plays a fifth of each thousand (``SUITE_SHARE`` in the tests'
files: test_chain_reaction_differential, test_expendibots_differential,
test_explocus_differential, test_hexplocus_differential,
test_jump61_differential) and a third of the games to every ending
(``ENDING_SHARE``); this plays them all and prints, for each run, the games
played, the endings seen and the CPU seconds. A disagreement fails with the
position where the engines part.

    python benchmarks/differential_games.py ["explocus endings" jump61 ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_chain_reaction_differential  # noqa: E402
import test_expendibots_differential  # noqa: E402
import test_explocus_differential  # noqa: E402
import test_hexplocus_differential  # noqa: E402
import test_jump61_differential  # noqa: E402

RUNS = {
    "chain_reaction": lambda: test_chain_reaction_differential.whole_games_on_many_grids(1),
    "expendibots": lambda: test_expendibots_differential.random_games_from_the_start(1000),
    "explocus": lambda: test_explocus_differential.openings_from_the_standard_start(1000),
    "explocus endings": lambda: test_explocus_differential.whole_games_to_every_kind_of_ending(1),
    "hexplocus": lambda: test_hexplocus_differential.openings_from_the_standard_start(1000),
    "hexplocus endings": lambda: test_hexplocus_differential.whole_games_to_every_kind_of_ending(1),
    "jump61": lambda: test_jump61_differential.whole_games_on_every_size(1),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"the games to play, of {', '.join(RUNS)} (all if none)")
    args = parser.parse_args()
    if unknown := set(args.games) - set(RUNS):
        parser.error(f"no differential games for {', '.join(sorted(unknown))}")
    print("| game | games | endings | CPU s |\n|---|---|---|---|")
    for name in args.games or RUNS:
        began = time.process_time()
        endings = RUNS[name]()
        print(f"| {name} | {sum(endings.values())} | {dict(sorted(endings.items()))} | "
              f"{time.process_time() - began:.1f} |", flush=True)


if __name__ == "__main__":
    main()
