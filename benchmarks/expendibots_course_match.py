"""Expendibots `ai` against course agents, under the course's own staff referee.

The 2020 COMP30024 referee (``matomatical/AI-games``, folder
``2020-expendibots/project``) plays two ``Player`` classes in one process,
charging each its CPU time (``-t``, construction included) and memory
(``-s``). This script plays boomboard's course ``Player``
(:mod:`boomboard.games.expendibots.course.player`) against each agent package given,
with both colours, one referee process a game, and keeps every game as a
JSON line (resumable: games already in ``--results`` are not played again).
It prints the table ``docs/results/strength.md`` records.

Nothing third-party is kept in this repository: fetch the referee and the
agents' repositories outside it (see docs/results/strength.md) and point at them::

    python benchmarks/expendibots_course_match.py --referee /tmp/ex/2020-expendibots/project \\
        --agents /tmp/ex/arena --agent NeCho=CokerCoder/expendibots@9cbed5a \\
        --games 2 --results benchmarks/results/expendibots-course.jsonl

``--cold`` gives every game an empty numba cache (``NUMBA_CACHE_DIR`` in a
new temporary folder), as on a fresh install. ``table FILE...`` instead of
the options prints the table of the games kept in results files, pooled;
``openings FILE... [--ply N]`` how the games stood after ``N`` plies (each
side's tokens, with our score from there) and how many of them shared
their first ``N`` plies::

    python benchmarks/expendibots_course_match.py table benchmarks/results/expendibots-course-*.jsonl
    python benchmarks/expendibots_course_match.py openings benchmarks/results/expendibots-course-fast-*.jsonl --ply 9
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

sys.path.insert(0, str(Path(__file__).parent))  # its sibling modules, however it is loaded
from records import read_records  # noqa: E402

OURS = "boomboard.games.expendibots.course.player"
COLOURS = ("white", "black")
_TOTAL = re.compile(r"time:\s+\+\s*([\d.]+)s\s+\(just elapsed\)\s+([\d.]+)s\s+\(game total\)")
_WHO = re.compile(r"(?:asking|updating|initialising) (?:player (\d) \((white|black)\)|(white|black) player)")


def parse_referee_output(text: str) -> dict:
    """The result, the actions and each colour's CPU totals from the referee's
    ``-v 1`` output (the format of referee 1.1)."""
    totals = {"white": 0.0, "black": 0.0}
    longest = {"white": 0.0, "black": 0.0}
    actions = []
    current, asking = None, False
    for line in text.splitlines():
        who = _WHO.search(line)
        if who:
            current = who.group(2) or who.group(3)
            asking = "asking" in line
            continue
        if "returned action" in line:
            actions.append(line.split("returned action:", 1)[1].strip())
        total = _TOTAL.search(line)
        if total and current:
            totals[current] = float(total.group(2))
            if asking:
                longest[current] = max(longest[current], float(total.group(1)))
    winner, reason = None, "unfinished"
    if match := re.search(r"\* winner: (white|black)", text):
        winner, reason = match.group(1), "no tokens"
    elif match := re.search(r"\* draw detected: (.*)", text):
        reason = match.group(1).strip()
    elif "resource limit exceeded" in text or "invalid action" in text:
        # The player at fault is the one asked or updated last.
        loser = current or "white"
        winner = "black" if loser == "white" else "white"
        reason = "time or space limit" if "resource limit" in text else "invalid action"
        if match := re.search(r"\* (players? \d* ?exceeded.*)", text):
            reason += f": {match.group(1).strip()}"
    return {"winner": winner, "reason": reason, "plies": len(actions), "cpu": totals, "longest_move": longest,
            "actions": actions}


def play_game(referee: Path, agents: Path, package: str, ours_colour: str, spec: str, seed: int,
              time_limit: float, space_limit: float, cold: bool, timeout: float, player: str = OURS,
              opening: list[str] | None = None) -> dict:
    """One game under the staff referee; returns its record. ``player`` is
    our Player's module (this folder's modules are importable too); with an
    ``opening`` (the referee's actions, as strings), both sides play it
    first (:mod:`course_opening`)."""
    players = [package, package]
    players[COLOURS.index(ours_colour)] = player
    env = dict(os.environ, BOOMBOARD_AGENT=spec, BOOMBOARD_SEED=str(seed), PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join([str(referee), str(agents), str(Path(__file__).parent),
                                           os.environ.get("PYTHONPATH", "")]))
    if opening:
        for colour, wrapped in zip(COLOURS, players):
            env[f"BOOMBOARD_WRAP_{colour.upper()}"] = wrapped
        env["BOOMBOARD_OPENING"] = json.dumps(opening)
        players = ["course_opening", "course_opening"]
    with tempfile.TemporaryDirectory() as cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = cache
        began = time.monotonic()
        try:
            run = subprocess.run([sys.executable, "-m", "referee", *players, "-t", str(time_limit),
                                  "-s", str(space_limit), "-v", "1", "-C"], cwd=agents, env=env,
                                 capture_output=True, text=True, timeout=timeout)
            output = run.stdout + run.stderr
        except subprocess.TimeoutExpired as expired:
            output = (expired.stdout or b"").decode(errors="replace") if isinstance(expired.stdout, bytes) \
                else (expired.stdout or "")
            output += "\n* wall-clock timeout"
        wall = time.monotonic() - began
    record = parse_referee_output(output)
    their_colour = COLOURS[1 - COLOURS.index(ours_colour)]
    record.update(ours=ours_colour, spec=spec, seed=seed, cold=cold, wall=round(wall, 1),
                  our_cpu=record["cpu"][ours_colour], their_cpu=record["cpu"][their_colour],
                  our_longest_move=record["longest_move"][ours_colour],
                  score=1.0 if record["winner"] == ours_colour else 0.5 if record["winner"] is None else 0.0)
    if record["reason"] == "unfinished":
        record["tail"] = output[-2000:]
    return record


def score_with_interval(scores: list[float]) -> str:
    """The mean score, and its 95% interval (normal, from the games' own
    spread, as chess engine testers give it) once the games differ: the bar
    is a score, and whether a sample clears it depends on its size."""
    n = len(scores)
    mean = sum(scores) / n
    spread = (sum((s - mean) ** 2 for s in scores) / (n - 1)) ** 0.5 if n > 1 else 0.0
    if spread == 0:
        return f"{mean:.0%}"
    half = 1.96 * spread / n ** 0.5
    return f"{mean:.1%}; 95%: {max(mean - half, 0):.1%} to {min(mean + half, 1):.1%}"


def summary_table(records: list[dict], agents: dict[str, str]) -> str:
    rows = ["| agent | repository | games | as White | as Black | score | plies | our CPU s (max) | their CPU s | forfeits |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for name, repository in agents.items():
        games = [r for r in records if r["agent"] == name]
        if not games:
            continue
        def won(colour, games=games):  # the bar is a score per colour, so each colour's is shown
            mine = [g for g in games if g["ours"] == colour]
            if not mine:
                return "-"
            return f"+{sum(g['score'] == 1 for g in mine)} ={sum(g['score'] == 0.5 for g in mine)} " \
                   f"-{sum(g['score'] == 0 for g in mine)} ({score_with_interval([g['score'] for g in mine])})"
        score = sum(g["score"] for g in games) / len(games)
        forfeits = sum("limit" in g["reason"] or "invalid" in g["reason"] for g in games)
        rows.append(f"| {name} | {repository} | {len(games)} | {won('white')} | {won('black')} | {score:.0%} | "
                    f"{sum(g['plies'] for g in games) / len(games):.0f} | "
                    f"{sum(g['our_cpu'] for g in games) / len(games):.1f} ({max(g['our_cpu'] for g in games):.1f}) | "
                    f"{sum(g['their_cpu'] for g in games) / len(games):.1f} | {forfeits} |")
    return "\n".join(rows)



def played_fingerprint(package: Path) -> str:
    """16 hex digits that change whenever the package's source or data does
    (its ``.py`` and ``.json`` files: an opening book plays as code does)."""
    from boomboard.jit import files_fingerprint

    return files_fingerprint(package, (".py", ".json"))


def package_commit() -> str:
    """The commit of the git checkout holding the imported ``boomboard``
    package (a snapshot run through PYTHONPATH is not the current folder's),
    or "" outside one."""
    import boomboard
    found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                           cwd=Path(boomboard.__file__).parent)
    return found.stdout.strip() if found.returncode == 0 else ""


def print_table(paths: list[Path]) -> int:
    """Print the table of every game kept in ``paths``, each agent with the
    repository its records name (the pooled games of several runs)."""
    try:
        records = [record for path in paths for record in read_records(path)]
        if not records:
            print(f"no games in {', '.join(map(str, paths))}", file=sys.stderr)
            return 1
        table = summary_table(records, {r["agent"]: r["repository"].split("@")[0] for r in records})
    except (ValueError, KeyError, TypeError) as error:  # a line that is no game record of this script
        print(f"not a results file of this script ({type(error).__name__}: {error})", file=sys.stderr)
        return 1
    print(table)
    return 0


def material_after(actions: list[str], plies: int) -> tuple[int, int]:
    """White's and Black's tokens after the first ``plies`` of a game's
    actions (in the referee's notation)."""
    import boomboard

    state = boomboard.load_game("expendibots").new_initial_state()
    for text in actions[:plies]:
        if state.is_terminal():
            break
        state.apply_action(state.string_to_action(text))
    return state.tokens("white"), state.tokens("black")


def opening_table(records: list[dict], plies: int) -> str:
    """How the games stood after ``plies`` plies: each material count with its
    games and our score from there (a book line that wins material shows as
    its own row), then how far the games' openings repeat."""
    standings: dict[tuple[int, int], list[float]] = {}
    for record in records:
        standings.setdefault(material_after(record["actions"], plies), []).append(record["score"])
    rows = [f"| tokens after ply {plies} (White, Black) | games | result | score |", "|---|---|---|---|"]
    for (white, black), scores in sorted(standings.items(), key=lambda item: -len(item[1])):
        rows.append(f"| {white}, {black} | {len(scores)} | +{scores.count(1.0)} ={scores.count(0.5)} "
                    f"-{scores.count(0.0)} | {score_with_interval(scores)} |")
    openings = Counter(tuple(record["actions"][:plies]) for record in records)
    rows.append(f"\n{len(records)} games, {len(openings)} different first {plies} plies; "
                f"the most played {openings.most_common(1)[0][1]} times")
    return "\n".join(rows)


def print_openings(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="expendibots_course_match.py openings")
    parser.add_argument("results", type=Path, nargs="+")
    parser.add_argument("--ply", type=int, default=9, help="where the games are compared (default 9)")
    args = parser.parse_args(argv)
    try:
        records = [record for path in args.results for record in read_records(path)]
        if not records:
            print(f"no games in {', '.join(map(str, args.results))}", file=sys.stderr)
            return 1
        print(opening_table(records, args.ply))
    except (ValueError, KeyError, TypeError) as error:  # a line that is no game record of this script
        print(f"not a results file of this script ({type(error).__name__}: {error})", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["table"]:
        return print_table([Path(path) for path in argv[1:]])
    if argv[:1] == ["openings"]:
        return print_openings(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--referee", type=Path, required=True, help="the folder holding the staff `referee` package")
    parser.add_argument("--agents", type=Path, required=True, help="the folder holding the agents' packages")
    parser.add_argument("--agent", action="append", required=True, metavar="PACKAGE=OWNER/REPO@COMMIT",
                        help="an agent package and where it came from (repeatable)")
    parser.add_argument("--games", type=int, default=2, help="games per agent and colour")
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's index (its seed; even: our Player is White): games not played before")
    parser.add_argument("--colour", choices=COLOURS, help="play only the games where our Player has this colour")
    parser.add_argument("--player", default=OURS,
                        help="our Player's module, e.g. expendibots_course_variant (a control with other settings)")
    parser.add_argument("--spec", default=None, help="BOOMBOARD_AGENT for our player (default: the Player's own)")
    parser.add_argument("--time", type=float, default=60.0)
    parser.add_argument("--space", type=float, default=100.0)
    parser.add_argument("--cold", action="store_true", help="an empty numba cache for every game")
    parser.add_argument("--timeout", type=float, default=1200.0, help="wall-clock seconds before a game is abandoned")
    parser.add_argument("--opening", default=None, metavar="ACTIONS",
                        help="an opening both sides play first: the referee's actions separated by ';', "
                             "e.g. \"('MOVE', 1, (3, 1), (4, 1)); ('MOVE', 1, (4, 6), (3, 6))\"")
    parser.add_argument("--commit", default=None,
                        help="the commit our player's code is from (default: that of the git checkout "
                             "holding the boomboard package imported, e.g. through PYTHONPATH)")
    parser.add_argument("--results", type=Path, default=Path("benchmarks/results/expendibots-course.jsonl"))
    args = parser.parse_args(argv)
    if not (args.referee / "referee" / "__main__.py").exists():
        parser.error(f"no referee package in {args.referee}")
    agents = dict(item.split("=", 1) for item in args.agent)
    missing = [name for name in agents if not (args.agents / name).exists()]
    if missing:
        parser.error(f"not in {args.agents}: {', '.join(missing)}")
    from boomboard.games.expendibots.course.player import DEFAULT_AGENT
    spec = args.spec or DEFAULT_AGENT
    opening = [action.strip() for action in args.opening.split(";") if action.strip()] if args.opening else []
    try:
        from course_opening import opening_actions
        opening_actions(json.dumps(opening))
    except (ValueError, SyntaxError) as error:
        parser.error(f"--opening: not the referee's actions ({error})")

    records = read_records(args.results)
    # A game is played again when what plays changed, code or data (a book):
    # the results are theirs (the commit is kept too, for the reader).
    import boomboard
    source = played_fingerprint(Path(boomboard.__file__).parent)
    commit = args.commit or package_commit()
    if not commit:
        parser.error("the boomboard package imported is not in a git checkout: name its commit with --commit")
    if args.player != OURS:  # a variant's settings are part of what was played
        from expendibots_course_variant import settings
        spec = f"{spec} {settings()}"
    done = {(r["agent"], r["index"], r["spec"], r["cold"], r.get("source"), tuple(r.get("opening", ())))
            for r in records}
    todo = [(name, index) for name in agents for index in range(args.first, args.first + 2 * args.games)
            if (name, index, spec, args.cold, source, tuple(opening)) not in done
            and args.colour in (None, COLOURS[index % 2])]
    args.results.parent.mkdir(parents=True, exist_ok=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns) as progress, args.results.open("a") as out:
        task = progress.add_task("games", total=len(todo))
        for name, index in todo:
            ours = COLOURS[index % 2]
            progress.update(task, description=f"{name} ({'we' if ours == 'white' else 'they'} move first)")
            record = play_game(args.referee, args.agents, name, ours, spec.split(" ")[0], seed=index,
                               time_limit=args.time, space_limit=args.space, cold=args.cold, timeout=args.timeout,
                               player=args.player, opening=opening)
            record["spec"] = spec
            if opening:
                record["opening"] = opening
            record.update(agent=name, repository=agents[name], index=index, commit=commit, source=source,
                          date=time.strftime("%Y-%m-%d"), machine=platform.processor() or platform.machine())
            out.write(json.dumps(record) + "\n")
            out.flush()
            records.append(record)
            progress.advance(task)
            progress.console.print(f"{name} game {index}: ours {ours}, {record['reason']}, "
                                   f"score {record['score']}, plies {record['plies']}, "
                                   f"CPU ours {record['our_cpu']:.1f} s theirs {record['their_cpu']:.1f} s")
    print(summary_table([r for r in records if r["spec"] == spec and r["cold"] == args.cold
                         and r.get("source") == source and r.get("opening", []) == opening], agents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
