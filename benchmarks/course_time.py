"""How the course Player spends the Expendibots course's 60 CPU seconds: whole
games under the course's own referee, each action's CPU time as the referee
charged it, and a picture of the time curve.

The course's referee is not part of this repository: give its project folder
(the one holding ``referee/``). The opponents are course Players fixed to one
agent (``bb_<name>.py`` modules, written into that folder)::

    python benchmarks/course_time.py run --referee-dir PATH --out LOGS \\
        --game ai:1 --game greedy:1 --game ab3:1
    python benchmarks/course_time.py plot LOGS/*.log --picture docs/images/expendibots-time-curve.png \\
        --results benchmarks/results/course-time.jsonl

``run`` plays ``boomboard.games.expendibots.course.player`` (its default agent, with
``BOOMBOARD_SEED``) as white against ``bb_<name>`` as black, ``-t 60 -s 100``;
``plot`` reads the referee's logs (``-v 1``: it prints each call's CPU time).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

OPPONENTS = {"greedy": "greedy", "ab2": "alphabeta:depth=2", "ab3": "alphabeta:depth=3", "ai": "ai:game_time=58"}
OPPONENT_MODULE = '''from boomboard.games.expendibots.course import player as course_player


class Player(course_player.Player):
    agent_spec, seed = {spec!r}, 2


course_player.prepare(Player)
'''


def run(referee_dir: Path, out: Path, games: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for game in games:
        name, _, seed = game.partition(":")
        (referee_dir / f"bb_{name}.py").write_text(OPPONENT_MODULE.format(spec=OPPONENTS[name]))
        log = out / f"{name}-seed{seed}.log"
        env = {**os.environ, "BOOMBOARD_SEED": seed}
        env.pop("BOOMBOARD_AGENT", None)
        with open(log, "w") as file:
            subprocess.run([sys.executable, "-m", "referee", "boomboard.games.expendibots.course.player", f"bb_{name}",
                            "-t", "60", "-s", "100", "-v", "1", "-C", "-a"], cwd=referee_dir, env=env,
                           stdout=file, stderr=subprocess.STDOUT, check=False)
        print(log, summary(parse(log)))


def parse(path: Path) -> dict:
    """Each side's charged calls from a referee log: construction, actions, updates."""
    sides = {colour: {"start_up": 0.0, "actions": [], "updates": 0.0, "total": 0.0} for colour in ("white", "black")}
    current = None
    result = ""
    for line in open(path):
        found = re.match(r"\* (initialising|asking|updating) (?:player \d \()?(white|black)", line)
        if found:
            current = found.groups()
            continue
        found = re.match(r"\*\s+time:\s+\+\s*([\d.]+)s\s+\(just elapsed\)\s+([\d.]+)s", line)
        if found and current:
            kind, colour = current
            seconds, total = float(found.group(1)), float(found.group(2))
            side = sides[colour]
            if kind == "initialising":
                side["start_up"] = seconds
            elif kind == "asking":
                side["actions"].append(seconds)
            else:
                side["updates"] += seconds
            side["total"] = total
            current = None
        elif line.startswith("* winner") or line.startswith("* draw") or "error" in line:
            result = (result + " " + line.strip("* \n")).strip()
    return {"game": path.stem, "result": result, **sides}


def summary(record: dict) -> str:
    white = record["white"]
    return (f"{record['result']}; white {len(white['actions'])} actions, {white['total']:.2f} s "
            f"(max {max(white['actions'], default=0):.2f} s)")


def picture(records: list[dict], path: Path, budget: float = 60.0) -> None:
    """Per-action CPU time (top) and the running total (bottom) of white, the
    course Player, in each game (matplotlib; SVG or PNG by the file's name)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (per_action, total) = plt.subplots(2, 1, figsize=(9, 7), sharex=True, height_ratios=[3, 2])
    for record in records:
        white = record["white"]
        actions = white["actions"]
        label = f"{record['game']}: {len(actions)} actions, {white['total']:.1f} s, max {max(actions):.2f} s"
        moves = range(1, len(actions) + 1)
        (line,) = per_action.plot(moves, actions, marker=".", linewidth=0.8, label=label)
        per_update = white["updates"] / max(len(actions), 1)
        running, totals = white["start_up"], []
        for seconds in actions:
            running += seconds + per_update
            totals.append(running)
        total.plot(moves, totals, color=line.get_color())
    total.axhline(budget, color="black", linestyle="--", linewidth=0.8)
    total.text(1, budget + 0.8, f"the course's {budget:g} s", fontsize=8)
    per_action.set_ylabel("CPU seconds per action")
    per_action.set_title("Expendibots course Player (ai:game_time=58) under the course's referee, -t 60")
    per_action.legend(fontsize=8)
    per_action.grid(alpha=0.3)
    total.set_ylabel("CPU seconds used in all")
    total.set_xlabel("the course Player's action (its own moves)")
    total.set_ylim(0, budget + 4)
    total.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, metadata={"Date": None} if path.suffix == ".svg" else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("run")
    play.add_argument("--referee-dir", type=Path, required=True)
    play.add_argument("--out", type=Path, required=True)
    play.add_argument("--game", action="append", required=True, help="OPPONENT:SEED, opponent one of "
                                                                      + ", ".join(OPPONENTS))
    draw = commands.add_parser("plot")
    draw.add_argument("logs", nargs="+", type=Path)
    draw.add_argument("--picture", type=Path, help="the picture (.svg or .png)")
    draw.add_argument("--results", type=Path)
    args = parser.parse_args()
    if args.command == "run":
        run(args.referee_dir, args.out, args.game)
        return
    records = [parse(log) for log in args.logs]
    for record in records:
        print(record["game"], summary(record))
    if args.results:
        with open(args.results, "w") as file:
            for record in records:
                file.write(json.dumps(record) + "\n")
    if args.picture:
        args.picture.parent.mkdir(parents=True, exist_ok=True)
        picture(records, args.picture)


if __name__ == "__main__":
    main()
