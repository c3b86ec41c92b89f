"""How steady, consistent and calibrated the analysis board's value is, in
every game (issue 46); and the fit of each game's analysis model.

Three steps, each writing JSON lines that the next (or the results page) reads:

``lines``: seeded lines of strong play (a few random opening plies, then
the analysis's own starred move at every ply); at each ply the value shown
(the first player's expected score, in points) and the played move's listed
value. Reports, per game, the median and 90th percentile of the change of
the shown value from ply to ply (the *swing*) and the median gap between a
move's listed value and the next ply's headline, and the CPU seconds per
position. Run it on today's code and on the new code to compare::

    PYTHONPATH=src python benchmarks/analysis_quality.py lines --out after.jsonl

``selfplay``: positions from self-play games of ``alphabeta`` at a fixed
depth (seeded random opening plies for variety), each sampled position
analysed (its search score, for the player to move), labelled with the
game's outcome for the first player (1, 0.5 for a tie, 0).

``played``: the same rows from games already played and kept in an arena
database (``benchmarks/analysis_vs_ai.py``'s matches of the analysis
against ``ai``: strong play on both sides), every ``every``-th position of
each finished game, the game's id as its seed; resumable (games already in
``--out`` are skipped)::

    PYTHONPATH=src python benchmarks/analysis_quality.py played --db analysis-vs-ai.sqlite3 --out played.jsonl

``fit``: per game, a logistic curve from score to outcome that reads the
start within the variant lab's measured first-player score (its 95%
interval; pinned to the interval's nearest end where a free fit would not), scored out of
sample (each half of the games by the curve fitted on the other half:
Brier score, reliability bins) against ``tanh(score / 300)``; writes each game's
analysis model file (with ``--write``) and a reliability diagram per game.

``report``: the results page's tables, from the ``lines`` files of before
and after and the ``fit`` file (``benchmarks/results/analysis-*.jsonl``).

The analysis never reads a solver table here (an empty table folder), so
every game shows what its search says where no table reaches.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import random
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

import boomboard
from boomboard.agents import make_agent
from boomboard.analysis import best_moves
from boomboard.web import analysis

GAMES = ["expendibots", "jump61", "kaboom", "explocus", "hexplocus", "chain_reaction"]
ROOT = Path(__file__).resolve().parents[1]
# The first player's score from each game's start over 200 games of the
# variant lab (docs/how-to/variants.md); Kaboom's start is solved (a table
# answers there), so its curve is fitted freely.
LAB_START = {"expendibots": 0.540, "jump61": 0.490, "chain_reaction": 0.515, "explocus": 0.532, "hexplocus": 0.458}
LAB_GAMES = 200


def lab_interval(score: float) -> tuple[float, float]:
    """The 95% interval of a first-player score measured over the lab's
    :data:`LAB_GAMES` games (normal approximation; ties only narrow it)."""
    half = 1.96 * math.sqrt(score * (1 - score) / LAB_GAMES)
    return score - half, score + half


def shown(result: dict) -> float:
    """The first player's expected score the page shows, in points (0-100)."""
    return 50.0 + 50.0 * result["eval"]["value"]


def play_line(game: str, seed: int, opening: int, plies: int, db: str) -> list[dict]:
    """One seeded line: ``opening`` random plies, then the analysis's best
    move ``plies`` times; per ply the headline, the best move's listed value
    and the CPU seconds its analysis took."""
    rng = random.Random(seed)
    state = boomboard.load_game(game).new_initial_state()
    actions = []
    for _ in range(opening):
        if state.is_terminal():
            break
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    rows = []
    for _ in range(plies):
        if state.is_terminal():
            break
        began = time.process_time()
        result = analysis.analyse(game, None, actions, db)
        seconds = time.process_time() - began
        star = best_moves(state, result)[0]
        best = next(move for move in result["moves"] if move["id"] == star)
        rows.append({"game": game, "seed": seed, "ply": len(actions), "shown": shown(result),
                     "exact": result["eval"]["exact"], "move": 50.0 + 50.0 * best["eval"]["value"],
                     "seconds": round(seconds, 3)})
        actions.append(best["id"])
        state.apply_action(best["id"])
    return rows


def line_figures(rows: list[dict]) -> dict:
    """Swing and gap (points) and CPU seconds per position, over ``rows`` of one game."""
    swings, gaps = [], []
    by_line: dict = {}
    for row in rows:
        by_line.setdefault(row["seed"], []).append(row)
    for line in by_line.values():
        for before, after in zip(line, line[1:]):
            swings.append(abs(after["shown"] - before["shown"]))
            gaps.append(abs(after["shown"] - before["move"]))
    seconds = [row["seconds"] for row in rows]
    return {"positions": len(rows), "swing_median": float(np.median(swings)),
            "swing_p90": float(np.percentile(swings, 90)), "gap_median": float(np.median(gaps)),
            "gap_p90": float(np.percentile(gaps, 90)), "seconds_median": float(np.median(seconds)),
            "seconds_max": float(np.max(seconds))}


def run_lines(args) -> None:
    with tempfile.TemporaryDirectory() as db, open(args.out, "w") as out:
        for game in args.games:
            analysis.analyse(game, None, [], db)  # compile and load first: not counted
            rows = []
            for seed in range(args.lines):
                rows += play_line(game, seed, args.opening, args.plies, db)
            for row in rows:
                out.write(json.dumps(row) + "\n")
            print(game, json.dumps(line_figures(rows)), flush=True)


def self_play_game(game: str, seed: int, agent_spec: str, opening: int, every: int, db: str) -> list[dict]:
    """One self-play game of ``agent_spec`` after ``opening`` random plies;
    every ``every``-th position the analysis estimates (not one it proves)
    with its score, then all labelled with the outcome."""
    rng = random.Random(seed)
    state = boomboard.load_game(game).new_initial_state()
    agents = [make_agent(agent_spec, seed=seed * 2 + side) for side in (0, 1)]
    for side, agent in enumerate(agents):
        agent.new_game(state.game, side)
    actions, samples = [], []
    while not state.is_terminal():
        if len(actions) % every == 0:
            result = analysis.analyse(game, None, actions, db)
            if result["source"] == "search" and not result["eval"]["exact"]:
                samples.append({"ply": len(actions), "mover": state.current_player(), "score": result["score"]})
        if len(actions) < opening:
            action = rng.choice(state.legal_actions())
        else:
            action = int(agents[state.current_player()].choose_action(state))
        actions.append(action)
        state.apply_action(action)
    winner = state.outcome().winner
    outcome = 0.5 if winner is None else float(winner == 0)
    return [{"game": game, "seed": seed, "plies": len(actions), "outcome": outcome, **s} for s in samples]


def played_game(record, every: int, db: str) -> list[dict]:
    """The rows of one finished arena game: every ``every``-th position the
    analysis estimates, labelled with the game's outcome."""
    state = boomboard.load_game(record.game).new_initial_state()
    samples = []
    for ply, action in enumerate(record.actions):
        if ply % every == 0:
            result = analysis.analyse(record.game, None, record.actions[:ply], db)
            if result["source"] == "search" and not result["eval"]["exact"]:
                samples.append({"ply": ply, "mover": state.current_player(), "score": result["score"]})
        state.apply_action(action)
    outcome = 0.5 if record.winner is None else float(record.winner == 0)
    return [{"game": record.game, "seed": record.id, "plies": len(record.actions), "outcome": outcome,
             "source": "arena", **s} for s in samples]


def run_played(args) -> None:
    from boomboard.arena.store import open_store

    done = set()
    if args.out.exists():
        done = {(r["game"], r["seed"]) for r in map(json.loads, open(args.out))}
    store = open_store(args.db)
    records = [r for r in store.games(limit=1_000_000) if r.status == "done" and r.game in args.games]
    store.close()
    with tempfile.TemporaryDirectory() as db, open(args.out, "a") as out:
        for game in args.games:
            began, count = time.process_time(), 0
            for record in (r for r in records if r.game == game and (game, r.id) not in done):
                for row in played_game(record, args.every, db):
                    out.write(json.dumps(row) + "\n")
                out.flush()
                count += 1
            print(game, f"{count} games, {time.process_time() - began:.0f} CPU s", flush=True)


def run_selfplay(args) -> None:
    """Self-play games, each one's rows written as it ends; resumable: a
    seed already in ``--out`` (its rows, or its line saying it had none) is
    not played again. With ``--part K/N`` only seeds equal to K modulo N,
    so that N processes, each with its own ``--out``, share the seeds."""
    part, parts = (int(n) for n in args.part.split("/"))
    done = set()
    if args.out.exists():
        done = {(r["game"], r["seed"]) for r in map(json.loads, open(args.out))}
    with tempfile.TemporaryDirectory() as db, open(args.out, "a") as out:
        for game in args.games:
            began, played = time.process_time(), 0
            seeds = range(args.first_seed, args.first_seed + args.games_each)
            for seed in (s for s in seeds if s % parts == part and (game, s) not in done):
                rows = self_play_game(game, seed, args.agent, args.opening, args.every, db)
                for row in rows or [{"game": game, "seed": seed, "samples": 0}]:
                    out.write(json.dumps(row) + "\n")
                out.flush()
                played += 1
                if time.process_time() - began > args.seconds_each:
                    break
            print(game, f"{time.process_time() - began:.0f} CPU s, {played} games played", flush=True)


def reliability(predicted: np.ndarray, outcome: np.ndarray, bins: int = 5) -> list[dict]:
    """Predicted against observed mean, in equal-width bins of the prediction."""
    edges = np.linspace(0, 1, bins + 1)
    rows = []
    for low, high in zip(edges, edges[1:]):
        inside = (predicted >= low) & ((predicted < high) | (high == 1))
        if inside.any():
            rows.append({"low": float(low), "high": float(high), "n": int(inside.sum()),
                         "predicted": float(predicted[inside].mean()), "observed": float(outcome[inside].mean())})
    return rows


# The saturations a fit tries (hundredths; None: the score as it is): a search's largest
# scores are often no surer than moderate ones (Kaboom: a cascade that looks decisive at
# the horizon). In a game that ends in a tie at an action limit, the fit also tries each
# with the three outcomes of the analysis model's ``decided`` (boomboard.search.calibration).
# It keeps the curve whose held-out Brier score is best among those whose every bin of
# enough positions is within CALIBRATION_GOAL points (issue 46's goal), or the best of all
# where none is.
SATURATIONS = (None, 25, 50, 100, 200, 400)
CALIBRATION_GOAL = 5.0


@dataclass(frozen=True)
class Sample:
    """One game's fitting rows as arrays: the score from the first player's
    side ``x``, the outcome ``y``, the actions ``left`` before the game's
    ``limit`` (None for a game without one: its limit is 0), and ``odd``,
    whether the row's game is odd-numbered (the two folds)."""

    x: np.ndarray
    y: np.ndarray
    left: np.ndarray | None
    limit: int
    odd: np.ndarray


def fit_game(game: str, rows: list[dict], start_score: float | None) -> dict:
    """The fitted curve of one game and its out-of-sample scores against
    tanh(score / 300). With ``start_score`` (the first player's score from
    the start, measured by the lab), the curve is fitted freely if it then
    reads the start within the lab's 95% interval, and otherwise made to
    pass, at the start position's search score, through the end of that
    interval nearest to the free curve's reading (only the slope fitted):
    the start never contradicts the lab's measurement, and the curve moves
    no further from the self-play outcomes than that asks.

    Two-fold cross-fitting by game: the odd-numbered games are scored by the
    curve fitted on the even-numbered ones and the even by that of the odd,
    so every position is scored by a curve that never saw its game (a
    game's positions share its outcome, so a split by position would leak
    it); the curve written is the one fitted on every game, with the
    saturation (and three outcomes or not) :data:`SATURATIONS` says how to choose."""
    from boomboard.search.calibration import analysis_model

    loaded = boomboard.load_game(game)
    limit = loaded.action_limit
    y = np.array([r["outcome"] for r in rows], float)
    sample = Sample(x=np.array([r["score"] if r["mover"] == 0 else -r["score"] for r in rows], float), y=y,
                    left=np.array([limit - r["ply"] for r in rows], float) if limit else None, limit=limit,
                    odd=np.array([r["seed"] % 2 == 1 for r in rows]))
    with tempfile.TemporaryDirectory() as db:
        start = analysis.analyse(game, None, [], db)["score"]
    current = analysis_model(loaded)
    shapes = [(saturation, False) for saturation in SATURATIONS]
    if limit and np.any(y == 0.5):
        shapes += [(saturation, True) for saturation in SATURATIONS]
    fits = [fit_curve(sample, current, saturation, decided, start, start_score) for saturation, decided in shapes]
    calibrated = [fit for fit in fits if (worst_bin(reliability(fit[1], y)) or 0.0) <= CALIBRATION_GOAL]
    model, fitted, through_lab = min(calibrated or fits, key=lambda fit: float(np.mean((fit[1] - y) ** 2)))
    shipped = predict(current, sample.x, sample.left)
    today = 0.5 + 0.5 * np.tanh(sample.x / 300)
    return {"game": game, "depth": model.depth, "nodes": model.nodes, "intercept": round(model.intercept, 4),
            "slope": round(model.slope, 6), "saturation": model.saturation,
            "decided": None if model.decided is None else [round(v, 6) for v in model.decided],
            "positions": int(len(rows)), "games": len({r["seed"] for r in rows}),
            "through_lab": through_lab,
            "start_reads": None if start is None else round(float(predict(model, [start], [limit])[0]), 4),
            "held_positions": int(len(rows)), "held_games": len({r["seed"] for r in rows}),
            "brier_fitted": float(np.mean((fitted - y) ** 2)),
            "brier_today": float(np.mean((today - y) ** 2)),
            "brier_shipped": float(np.mean((shipped - y) ** 2)),
            "bins_fitted": reliability(fitted, y), "bins_today": reliability(today, y),
            "worst_bin_fitted": worst_bin(reliability(fitted, y))}


def predict(model, x, left) -> np.ndarray:
    """``model``'s first-player expected score at first-player scores ``x``,
    each read ``left`` actions before the game's limit (where the model asks)."""
    if model.decided is None:
        return np.array([model.first_player_score(value, 0) for value in x])
    return np.array([replace(model, actions_left=int(n)).first_player_score(value, 0) for value, n in zip(x, left)])


def fit_curve(sample: Sample, current, saturation: float | None, decided: bool, start: float | None,
              start_score: float | None):
    """The curve fitted on every game at one ``saturation`` (with three
    outcomes where ``decided``), the held-out predictions of its two-fold
    cross-fit (:func:`fit_game`), and whether it was made to pass through
    the lab's start."""
    from boomboard.search.calibration import AnalysisModel, fit_logistic, saturated

    read = saturated(sample.x, saturation)
    ended = sample.y != 0.5  # the game had a winner
    through = None

    def curve(inside: np.ndarray) -> AnalysisModel:
        if not decided:
            return AnalysisModel(current.depth, current.nodes, *fit_logistic(read[inside], sample.y[inside], through),
                                 saturation)
        chance = fit_logistic(sample.left[inside], ended[inside].astype(float))
        win = fit_logistic(read[inside & ended], sample.y[inside & ended], through)
        return AnalysisModel(current.depth, current.nodes, *win, saturation, chance)

    every = np.ones_like(sample.odd)
    if start_score is not None and start is not None:  # a start the search proves reads its result, not the curve
        low, high = lab_interval(start_score)
        free = curve(every)
        reads = float(predict(free, [start], [sample.limit])[0])
        if not low <= reads <= high:
            target = min(max(reads, low), high)
            if decided:  # the win curve's point that makes the three outcomes read the target
                share = 1 / (1 + math.exp(-(free.decided[0] + free.decided[1] * sample.limit)))  # a winner, from the start
                target = min(max((target - (1 - share) / 2) / share, 0.01), 0.99)
            through = (float(saturated(start, saturation)), target)
    fitted = np.empty_like(sample.y)
    for scored in (sample.odd, ~sample.odd):
        fitted[scored] = predict(curve(~scored), sample.x[scored], None if sample.left is None else sample.left[scored])
    return curve(every), fitted, through is not None


# A reliability bin counts toward the calibration error only with this many
# held-out positions: fewer leave its observed score too uncertain to judge.
ENOUGH_POSITIONS = 50


def worst_bin(bins: list[dict]) -> float | None:
    """The largest gap, in points, between predicted and observed among the
    bins with :data:`ENOUGH_POSITIONS` positions (None if there is none)."""
    gaps = [100 * abs(b["predicted"] - b["observed"]) for b in bins if b["n"] >= ENOUGH_POSITIONS]
    return round(max(gaps), 1) if gaps else None


def draw(fit: dict, folder: Path) -> Path:
    """A reliability diagram of one game: the fitted curve's bins and today's."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(3.6, 3.6))
    axes.plot([0, 1], [0, 1], color="0.7", linewidth=1)
    for key, label, marker in (("bins_today", "tanh(score/300)", "s"), ("bins_fitted", "fitted", "o")):
        bins = fit[key]
        axes.plot([b["predicted"] for b in bins], [b["observed"] for b in bins], marker=marker,
                  label=f"{label}: Brier {fit['brier_' + key[5:]]:.3f}")
    axes.set(xlim=(0, 1), ylim=(0, 1), xlabel="predicted first-player score", ylabel="observed")
    axes.set_title(f"{fit['game']} ({fit['positions']:,} positions, {fit['games']:,} games)", fontsize=9)
    axes.legend(fontsize=7, loc="upper left")
    figure.tight_layout()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"analysis-reliability-{fit['game']}.svg"
    figure.savefig(path)
    plt.close(figure)
    return path


def run_fit(args) -> None:
    # a self-played game with no estimated position leaves a line without a score
    rows = [row for path in args.data for row in map(json.loads, open(path)) if "score" in row]
    out = open(args.out, "w") if args.out else None
    for game in args.games:
        fit = fit_game(game, [r for r in rows if r["game"] == game], LAB_START.get(game))
        print(json.dumps(fit), flush=True)
        if out:
            out.write(json.dumps(fit) + "\n")
        draw(fit, args.images)
        if args.write:
            loaded = boomboard.load_game(game)
            path = Path(inspect.getfile(type(loaded))).parent / loaded.analysis_model
            model = {k: fit[k] for k in ("depth", "nodes", "intercept", "slope", "positions", "games")}
            model.update({k: fit[k] for k in ("saturation", "decided") if fit[k] is not None})
            path.write_text(json.dumps(model) + "\n")


def run_report(args) -> None:
    """Markdown tables: swing and gap before and after, and the fits."""
    def figures(path: Path) -> dict:
        rows = [json.loads(line) for line in open(path)]
        return {game: line_figures([r for r in rows if r["game"] == game]) for game in args.games}

    before, after = figures(args.before), figures(args.after)
    print("| game | swing median | swing p90 | gap median | CPU s a position (median, max) |")
    print("|---|---|---|---|---|")
    for game in args.games:
        b, a = before[game], after[game]
        print(f"| {game} | {b['swing_median']:.1f} → {a['swing_median']:.1f} | {b['swing_p90']:.1f} → "
              f"{a['swing_p90']:.1f} | {b['gap_median']:.1f} → {a['gap_median']:.1f} | "
              f"{b['seconds_median']:.2f}, {b['seconds_max']:.2f} → {a['seconds_median']:.2f}, {a['seconds_max']:.2f} |")
    print()
    print("| game | depth | intercept | slope | games (held out) | positions (held out) | Brier: tanh(s/300) "
          "| Brier: shipped | Brier: fitted | worst bin (points) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for line in open(args.fits):
        f = json.loads(line)
        worst = f.get("worst_bin_fitted")
        print(f"| {f['game']} | {f['depth']} | {f['intercept']:+.3f} | {f['slope']:.5f} | {f['games']} ({f['held_games']}) "
              f"| {f['positions']} ({f['held_positions']}) | {f['brier_today']:.3f} | {f.get('brier_shipped', math.nan):.3f} "
              f"| {f['brier_fitted']:.3f} | {'-' if worst is None else worst} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    every_step = argparse.ArgumentParser(add_help=False)
    every_step.add_argument("--games", nargs="+", default=GAMES)
    steps = parser.add_subparsers(dest="step", required=True)
    lines = steps.add_parser("lines", parents=[every_step])
    lines.add_argument("--lines", type=int, default=3)
    lines.add_argument("--opening", type=int, default=2)
    lines.add_argument("--plies", type=int, default=10)
    lines.add_argument("--out", type=Path, required=True)
    play = steps.add_parser("selfplay", parents=[every_step])
    play.add_argument("--agent", default="alphabeta:depth=2")
    play.add_argument("--games-each", type=int, default=40)
    play.add_argument("--first-seed", type=int, default=0)
    play.add_argument("--seconds-each", type=float, default=150)
    play.add_argument("--opening", type=int, default=4)
    play.add_argument("--every", type=int, default=5,
                      help="analyse every N-th position; an odd N samples both players to move, as the curve reads both")
    play.add_argument("--part", default="0/1", help="K/N: play only the seeds equal to K modulo N")
    play.add_argument("--out", type=Path, required=True)
    played = steps.add_parser("played", parents=[every_step])
    played.add_argument("--db", type=Path, required=True, help="an arena database of finished games")
    played.add_argument("--every", type=int, default=5, help="as selfplay's --every")
    played.add_argument("--out", type=Path, required=True)
    fit = steps.add_parser("fit", parents=[every_step])
    fit.add_argument("--data", type=Path, nargs="+", required=True)
    fit.add_argument("--out", type=Path)
    fit.add_argument("--images", type=Path, default=ROOT / "docs" / "images")
    fit.add_argument("--write", action="store_true")
    report = steps.add_parser("report", parents=[every_step])
    report.add_argument("--before", type=Path, required=True)
    report.add_argument("--after", type=Path, required=True)
    report.add_argument("--fits", type=Path, required=True)
    args = parser.parse_args(argv)
    {"lines": run_lines, "selfplay": run_selfplay, "played": run_played, "fit": run_fit,
     "report": run_report}[args.step](args)


if __name__ == "__main__":
    main(sys.argv[1:])
