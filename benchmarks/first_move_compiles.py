"""What numba compiles during each player's first move, from an empty compile
cache: nothing is expected, as ``new_game`` compiles what the move needs
before a referee's clock runs.

Every player of ``FIRST_MOVE_PLAYERS`` (tests/test_compile_cache.py), in one
fresh process; the test suite checks the same players with the machine's
compile cache, where a missing kernel is loaded, not compiled
(test_nothing_compiles_or_loads_on_a_first_move_s_clock).
Prints each player's compiled functions and the CPU seconds of the whole run;
exits 1 if any player compiled during its move.

    python benchmarks/first_move_compiles.py
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_compile_cache import FIRST_MOVE_PLAYERS, compiled_on_first_moves  # noqa: E402


def cpu_seconds() -> float:
    """This process's and its finished children's CPU seconds."""
    return sum(usage.ru_utime + usage.ru_stime
               for usage in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))


def main() -> None:
    began = cpu_seconds(), time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        found = compiled_on_first_moves(FIRST_MOVE_PLAYERS, Path(folder))
    for player, compiled in found.items():
        print(f"{player}: {', '.join(compiled) if compiled else 'nothing compiled on its move'}")
    print(f"{cpu_seconds() - began[0]:.0f} CPU s, {time.perf_counter() - began[1]:.0f} s wall")
    sys.exit(1 if any(found.values()) else 0)


if __name__ == "__main__":
    main()
