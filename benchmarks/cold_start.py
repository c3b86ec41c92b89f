"""What a person waits for: each game's first AI move in a fresh process, with an
empty compile cache and with the cache ``boomboard compile`` fills, and the
start-up of the quick commands.

    python benchmarks/cold_start.py                 # every game, Markdown table
    python benchmarks/cold_start.py kaboom jump61   # some games

Each figure is one fresh process: CPU seconds (user + system, the process and
its children), wall seconds, and peak resident memory. "cold" runs with
``NUMBA_CACHE_DIR`` set to a new empty folder, so everything the move needs
compiles; "warm" runs after ``boomboard compile`` on the default cache.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rules_speed import commit, machine, print_table  # noqa: E402

FIRST_MOVE = """
import boomboard
from boomboard.agents import make_agent
game = boomboard.load_game({game!r})
agent = make_agent("ai:time=0.2", seed=1)
agent.new_game(game, 0)
state = game.new_initial_state()
state.apply_action(agent.choose_action(state))
"""

PUZZLE = '{"white": [[1, 3, 3], [1, 4, 4]], "black": [[1, 5, 5], [1, 6, 6]]}'


def measure(command: list[str], env: dict[str, str] | None = None, stdin: str = "") -> tuple[float, float, float]:
    """(CPU seconds, wall seconds, peak RSS in MB) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, env={**os.environ, **(env or {})})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, after.ru_maxrss / 1024


def main() -> None:
    from boomboard import game_names

    games = sys.argv[1:] or game_names()
    python = sys.executable
    boomboard = str(Path(python).with_name("boomboard"))
    subprocess.run([boomboard, "compile", *games], check=True, capture_output=True)
    rows = []
    for game in games:
        with tempfile.TemporaryDirectory() as empty:
            cold = measure([python, "-c", FIRST_MOVE.format(game=game)], {"NUMBA_CACHE_DIR": empty})
        warm = measure([python, "-c", FIRST_MOVE.format(game=game)])
        rows.append([f"{game}: first `ai` move", f"{cold[0]:.1f}", f"{cold[1]:.1f}", f"{cold[2]:.0f}",
                     f"{warm[0]:.2f}", f"{warm[1]:.2f}", f"{warm[2]:.0f}"])
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as puzzle:
        puzzle.write(PUZZLE)
    quick = {
        "`boomboard --help`": ([boomboard, "--help"], ""),
        "`boomboard jump61`, first command": ([boomboard, "jump61"], "new\nquit\n"),
        "`boomboard expendibots puzzle` (1 action)": ([boomboard, "expendibots", "puzzle", puzzle.name], ""),
    }
    for label, (command, stdin) in quick.items():
        cpu, wall, rss = measure(command, stdin=stdin)
        rows.append([label, "", "", "", f"{cpu:.2f}", f"{wall:.2f}", f"{rss:.0f}"])
    os.unlink(puzzle.name)
    print_table(["what", "cold CPU s", "cold wall s", "cold MB", "warm CPU s", "warm wall s", "warm MB"], rows,
                markdown=True, title=f"Cold start, commit {commit()}, {machine()}")


if __name__ == "__main__":
    main()
