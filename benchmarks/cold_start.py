"""What a person waits for: each game's first AI move in a fresh process, with an
empty compile cache and with the cache ``boomboard compile`` fills, and the
start-up of the quick commands.

    python benchmarks/cold_start.py                 # every game, Markdown table
    python benchmarks/cold_start.py kaboom jump61   # some games

Each figure is one fresh process: CPU seconds (user + system), wall seconds,
and peak resident memory; the last column is the AI's first move alone, asked
once the game has started (the agent made and loaded), as the terminal and the
web app ask it. "cold" runs with
``NUMBA_CACHE_DIR`` set to a new empty folder, so everything the move needs
compiles; "warm" runs after ``boomboard compile`` on the default cache.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rules_speed import commit, machine, print_table  # noqa: E402

# The terminal's way: the AI is made and loaded when the game starts, then
# asked for its move; the move's own wall time is printed.
FIRST_MOVE = """
import time
import boomboard
from boomboard.agents import make_agent
game = boomboard.load_game({game!r})
agent = make_agent("ai:time=0.5", seed=1)
agent.new_game(game, 0)
state = game.new_initial_state()
started = time.perf_counter()
state.apply_action(agent.choose_action(state))
print(time.perf_counter() - started)
"""

TIME = "/usr/bin/time"  # GNU time (Debian's package "time")
PUZZLE = '{"white": [[1, 3, 3], [1, 4, 4]], "black": [[1, 5, 5], [1, 6, 6]]}'


def measure(command: list[str], env: dict[str, str] | None = None, stdin: str = "") -> tuple[float, float, float, str]:
    """(CPU seconds, wall seconds, peak RSS in MB, standard output) of one fresh
    process, as GNU time reports them (its own figures: a child forked from this
    benchmark would count this process's memory as its own)."""
    with tempfile.NamedTemporaryFile("r") as figures:
        done = subprocess.run([TIME, "-f", "%e %U %S %M", "-o", figures.name, *command], input=stdin,
                              capture_output=True, text=True, env={**os.environ, **(env or {})})
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
        wall, user, system, kilobytes = figures.read().split()[-4:]
    return float(user) + float(system), float(wall), int(kilobytes) / 1024, done.stdout


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
        rows.append([f"{game}: start, load, first `ai:time=0.5` move", f"{cold[0]:.1f}", f"{cold[1]:.1f}",
                     f"{cold[2]:.0f}", f"{warm[0]:.2f}", f"{warm[1]:.2f}", f"{warm[2]:.0f}",
                     f"{float(cold[3]):.2f} / {float(warm[3]):.2f}"])
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as puzzle:
        puzzle.write(PUZZLE)
    quick = {
        "`boomboard --help`": ([boomboard, "--help"], ""),
        "`boomboard jump61`, first command": ([boomboard, "jump61"], "new\nquit\n"),
        "`boomboard expendibots puzzle` (1 action)": ([boomboard, "expendibots", "puzzle", puzzle.name], ""),
    }
    for label, (command, stdin) in quick.items():
        cpu, wall, rss, _ = measure(command, stdin=stdin)
        rows.append([label, "", "", "", f"{cpu:.2f}", f"{wall:.2f}", f"{rss:.0f}", ""])
    os.unlink(puzzle.name)
    print_table(["what", "cold CPU s", "cold wall s", "cold MB", "warm CPU s", "warm wall s", "warm MB",
                 "the move alone, wall s (cold / warm)"], rows,
                markdown=True, title=f"Cold start, commit {commit()}, {machine()}")


if __name__ == "__main__":
    main()
