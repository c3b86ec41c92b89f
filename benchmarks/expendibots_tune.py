"""Tune and test Expendibots' evaluation terms from games.

Four steps, each resumable from its files:

``selfplay``
    plays alpha-beta against itself at a small budget, from random openings
    and with an occasional random move (so that games are decided and
    positions varied), and keeps every position's evaluation counts
    (:func:`boomboard.games.expendibots.evaluation.features`) with the
    game's result for the player to move;
``fit``
    Texel-style tuning: a logistic model of the result on the counts,
    fitted by maximum likelihood, its coefficients scaled so that a token is
    worth 100 (the scale searches use), printed as weights;
``convert``
    plays a weight set against ``greedy`` to the end of every game, to see
    whether it converts a won game within the action limit;
``sprt``
    plays two weight sets against each other at equal CPU time, each opening
    with both colours, until a sequential probability ratio test (Elo 0
    against Elo ``--elo1``, 5% errors both ways) accepts one hypothesis, and
    keeps every game as a JSON line.

::

    python benchmarks/expendibots_tune.py selfplay --games 200 --time 0.005 --out /tmp/positions.jsonl
    python benchmarks/expendibots_tune.py fit benchmarks/results/texel-expendibots-positions.jsonl.gz
    python benchmarks/expendibots_tune.py convert --weights 100,37,-11,17,-13,-14,6 \\
        --results benchmarks/results/convert-expendibots.jsonl
    python benchmarks/expendibots_tune.py sprt --new 100,37,-11,17,-13,-14 --old 100,37,-11,0,0,-14 \\
        --time 0.03 --seed 2 --results benchmarks/results/sprt-expendibots-raids.jsonl

SPRT games are adjudicated as engine testers do (a lead of 3 tokens kept for
10 plies wins; past ply 300 a lead of at most 1 draws), so ``convert`` checks
separately that a lead is turned into a win.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

import boomboard
from boomboard.agents.search_agents import variety_margin
from boomboard.games.expendibots import evaluation
from boomboard.search.alphabeta import AlphaBeta

sys.path.insert(0, str(Path(__file__).parent))  # its sibling modules, however it is loaded
from records import read_records  # noqa: E402

CONTEMPT = 50  # as in ``ai``: without it equal searchers shuffle into early repetitions
COLUMNS = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
           TimeRemainingColumn())


def weighted_params(game, weights) -> np.ndarray:
    params = game.params_array.copy()
    params[evaluation.P_WEIGHTS:evaluation.P_WEIGHTS + len(weights)] = weights
    return params


def random_opening(game, rng: random.Random, plies: int):
    """A start after ``plies`` random moves (booms left out: they only lose tokens this early)."""
    while True:
        state = game.new_initial_state()
        for _ in range(plies):
            state.apply_action(rng.choice([a for a in state.legal_actions() if a >= evaluation.MOVES]))
        if not state.is_terminal():
            return state


# Adjudication, as engine testers do to save time: a lead of this many tokens
# kept for this many plies wins; past this ply, a lead of at most one token draws.
ADJUDICATE_LEAD, ADJUDICATE_PLIES, ADJUDICATE_DRAW_PLY = 3, 10, 300


def adjudicated(state, lead_since: dict) -> float | None:
    """The result for player 0 if the game can be adjudicated now."""
    lead = state.tokens(0) - state.tokens(1)
    if abs(lead) < ADJUDICATE_LEAD:
        lead_since.clear()
    else:
        first = lead_since.setdefault(lead > 0, state.ply())
        if state.ply() - first >= ADJUDICATE_PLIES:
            return 1.0 if lead > 0 else 0.0
    if state.ply() >= ADJUDICATE_DRAW_PLY and abs(lead) <= 1:
        return 0.5
    return None


def play(game, state, searchers, seconds: float, rng: random.Random | None = None, noise: float = 0.0,
         positions: list | None = None, adjudicate: bool = False) -> float | None:
    """Play ``state`` out, ``searchers[p]`` moving for player ``p``; returns the
    result for player 0 (1, 0.5 or 0). With ``positions``, appends each
    position's (counts, player to move) as it goes."""
    counts = np.zeros(len(evaluation.WEIGHTS), np.int32)
    every_count = weighted_params(game, [1] * len(evaluation.WEIGHTS))  # no count skipped
    lead_since: dict = {}
    while not state.is_terminal():
        if adjudicate and (result := adjudicated(state, lead_since)) is not None:
            return result
        player = state.current_player()
        if positions is not None:
            evaluation.features(state.array, every_count, counts)
            positions.append((counts.copy(), player))
        if rng is not None and rng.random() < noise:
            action = rng.choice([a for a in state.legal_actions() if a >= evaluation.MOVES] or state.legal_actions())
        else:
            action = searchers[player].search(state, seconds=seconds).action
        state.apply_action(action)
    returns = state.returns()
    return 0.5 + 0.5 * returns[0]


def selfplay(args) -> int:
    """Games appended to ``--out`` as they finish, one JSON line each (so a
    run that stops resumes where it stopped): every position's counts and
    the result for the player to move there."""
    game = boomboard.load_game("expendibots")
    done = len(args.out.read_text().splitlines()) if args.out.exists() else 0
    with Progress(*COLUMNS) as progress, args.out.open("a") as out:
        task = progress.add_task("self-play games", total=args.games, completed=done)
        for index in range(done, args.games):
            rng = random.Random(args.seed * 1_000_003 + 2 * index)  # one seed per game
            searchers = [AlphaBeta(game, 18, contempt=CONTEMPT), AlphaBeta(game, 18, contempt=CONTEMPT)]
            positions: list = []
            result = play(game, random_opening(game, rng, args.opening), searchers, args.time, rng, args.noise,
                          positions)
            out.write(json.dumps({"counts": [counts.tolist() for counts, _ in positions],
                                  "results": [result if player == 0 else 1.0 - result for _, player in positions]})
                      + "\n")
            out.flush()
            progress.advance(task)
    return 0


def load_positions(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The positions ``selfplay`` wrote (gzipped if the name ends in ``.gz``)."""
    counts, results = [], []
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    for line in text.splitlines():
        game = json.loads(line)
        counts += game["counts"]
        results += game["results"]
    return np.array(counts, float), np.array(results, float)


def fit(args) -> int:
    from scipy.optimize import minimize

    x, y = load_positions(args.positions)
    names = evaluation.FEATURE_NAMES[:x.shape[1]]  # positions kept before a count was added lack it

    def loss(beta):
        z = np.clip(x @ beta, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        eps = 1e-9
        return -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + 1e-6 * beta @ beta

    start = np.array(evaluation.WEIGHTS[:x.shape[1]], float) / 100.0
    best = minimize(loss, start, method="L-BFGS-B")
    weights = np.round(100 * best.x / best.x[0]).astype(int)
    summary = {"positions": int(len(y)), "loss": float(best.fun), "loss_at_defaults": float(loss(start)),
               "coefficients": dict(zip(names, map(float, best.x))), "weights": dict(zip(names, map(int, weights)))}
    print(json.dumps(summary, indent=2))
    print("--new " + ",".join(map(str, weights)))
    if args.summary:
        Path(args.summary).write_text(json.dumps(summary, indent=2) + "\n")
    return 0


def llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of Elo ``elo1`` against ``elo0`` for a score
    (the trinomial approximation fishtest and cutechess use)."""
    n = wins + draws + losses
    if n == 0 or wins + draws == 0 or losses + draws == 0:
        return 0.0
    score = (wins + draws / 2) / n
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    if variance <= 0:
        return 0.0
    s0, s1 = (1 / (1 + 10 ** (-elo / 400)) for elo in (elo0, elo1))
    return n * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance)


SEARCH_SETTINGS = ("null_move", "quiescence")  # AlphaBeta's attributes a test may set
CHOICE_SETTINGS = ("margin", "variety_plies")  # how a move is chosen from the search, as ``ai`` does


def search_settings(text: str) -> dict[str, int]:
    """``'null_move=2,margin=10'`` as a dict of :data:`SEARCH_SETTINGS` and :data:`CHOICE_SETTINGS`."""
    settings = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in SEARCH_SETTINGS + CHOICE_SETTINGS:
            known = ", ".join(SEARCH_SETTINGS + CHOICE_SETTINGS)
            raise SystemExit(f"unknown search setting {name!r}: one of {known}")
        settings[name] = int(value)
    return settings


class _NearBest:
    """A searcher that chooses at random among the root moves scored within
    ``margin`` of the best, as ``ai`` does (only before ``variety_plies``, if given)."""

    def __init__(self, searcher, margin: int, variety_plies: int, seed: int):
        self.searcher, self.margin, self.variety_plies = searcher, margin, variety_plies
        self.rng = random.Random(seed)

    def search(self, state, seconds=None):
        result = self.searcher.search(state, seconds=seconds,
                                      margin=variety_margin(self.margin, self.variety_plies, state.ply()))
        return SimpleNamespace(action=self.rng.choice(result.near_best))


def sprt(args) -> int:
    game = boomboard.load_game("expendibots")
    new = weighted_params(game, [int(w) for w in args.new.split(",")])
    args.old = args.old or ",".join(map(str, evaluation.WEIGHTS))  # recorded as numbers: defaults change
    old = weighted_params(game, [int(w) for w in args.old.split(",")])
    args.results.parent.mkdir(parents=True, exist_ok=True)
    games = read_records(args.results)
    lower, upper = math.log(0.05 / 0.95), math.log(0.95 / 0.05)

    def tally():
        wins = sum(g["score"] == 1 for g in games)
        draws = sum(g["score"] == 0.5 for g in games)
        return wins, draws, len(games) - wins - draws

    with Progress(*COLUMNS) as progress, args.results.open("a") as out:
        task = progress.add_task("SPRT games", total=args.max_games, completed=len(games))
        while len(games) < args.max_games:
            ratio = llr(*tally(), args.elo0, args.elo1)
            if len(games) >= args.min_games and not lower < ratio < upper:
                break
            index = len(games)
            rng = random.Random(args.seed + index // 2)  # each opening twice, colours swapped
            state = random_opening(game, rng, args.opening)
            searchers = [AlphaBeta(game, 18, contempt=CONTEMPT), AlphaBeta(game, 18, contempt=CONTEMPT)]
            new_player = index % 2
            searchers[new_player].reductions = args.new_reductions
            searchers[1 - new_player].reductions = args.old_reductions
            for player, settings in ((new_player, args.new_search), (1 - new_player, args.old_search)):
                settings = search_settings(settings)
                for name in SEARCH_SETTINGS:
                    if name in settings:
                        setattr(searchers[player], name, settings[name])
                if settings.get("margin"):
                    seed = args.seed * 1_000_003 + 2 * index + player
                    searchers[player] = _NearBest(searchers[player], settings["margin"],
                                                  settings.get("variety_plies", 0), seed)
            searchers[new_player].params = new
            searchers[1 - new_player].params = old
            result = play(game, state, searchers, args.time, adjudicate=True)
            score = result if new_player == 0 else 1 - result
            record = {"index": index, "new": args.new, "old": args.old, "new_player": new_player,
                      "new_reductions": args.new_reductions, "old_reductions": args.old_reductions,
                      **({"new_search": args.new_search, "old_search": args.old_search}
                         if args.new_search or args.old_search else {}),
                      "time": args.time, "score": score, "plies": state.ply()}
            out.write(json.dumps(record) + "\n")
            out.flush()
            games.append(record)
            progress.update(task, advance=1, description=f"SPRT +{tally()[0]} ={tally()[1]} -{tally()[2]} "
                                                          f"LLR {llr(*tally(), args.elo0, args.elo1):+.2f}")
    wins, draws, losses = tally()
    ratio = llr(wins, draws, losses, args.elo0, args.elo1)
    verdict = "H1 accepted (keep)" if ratio >= upper else "H0 accepted (drop)" if ratio <= lower else "inconclusive"
    score = (wins + draws / 2) / max(1, len(games))
    print(f"new {args.new} vs {args.old}: +{wins} ={draws} -{losses} ({score:.1%}), "
          f"LLR {ratio:+.2f} in [{lower:.2f}, {upper:.2f}] for Elo {args.elo0} vs {args.elo1}: {verdict}")
    return 0


class _Greedy:
    """The ``greedy`` agent behind the searchers' ``search`` call."""

    def __init__(self, game, seed: int):
        from boomboard.agents import make_agent

        self.agent = make_agent("greedy", seed=seed)
        self.agent.new_game(game, 0)

    def search(self, state, seconds=None):
        return SimpleNamespace(action=self.agent.choose_action(state.clone()))


def convert(args) -> int:
    """Whether a weight set converts: alpha-beta with it against ``greedy``,
    every game played to its end (no adjudication), each opening with both
    colours; games that reach the action limit are the ones it could not win."""
    game = boomboard.load_game("expendibots")
    params = weighted_params(game, [int(w) for w in args.weights.split(",")])
    games = read_records(args.results)
    mine = [g for g in games if g["weights"] == args.weights and g["time"] == args.time]
    with Progress(*COLUMNS) as progress, args.results.open("a") as out:
        task = progress.add_task(f"{args.weights} against greedy", total=args.games, completed=len(mine))
        for index in range(len(mine), args.games):
            rng = random.Random(100 + index // 2)
            searcher = AlphaBeta(game, 18, contempt=CONTEMPT)
            searcher.params = params
            ours = index % 2
            searchers = [searcher, _Greedy(game, index)] if ours == 0 else [_Greedy(game, index), searcher]
            state = random_opening(game, rng, 2)
            result = play(game, state, searchers, args.time)
            record = {"index": index, "weights": args.weights, "time": args.time, "ours": ours,
                      "score": result if ours == 0 else 1 - result, "plies": state.ply()}
            out.write(json.dumps(record) + "\n")
            out.flush()
            mine.append(record)
            progress.advance(task)
    score = sum(g["score"] for g in mine) / len(mine)
    limit = sum(g["plies"] >= game.action_limit for g in mine)
    print(f"{args.weights} against greedy: {score:.1%} of {len(mine)} games, {limit} at the action limit, "
          f"plies {[g['plies'] for g in mine]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("selfplay")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--time", type=float, default=0.01)
    p.add_argument("--opening", type=int, default=4)
    p.add_argument("--noise", type=float, default=0.03, help="the chance of a random move (never a boom)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    p = commands.add_parser("fit")
    p.add_argument("positions", type=Path)
    p.add_argument("--summary", type=Path)
    p = commands.add_parser("sprt")
    p.add_argument("--new", required=True, help="the weights tested, comma-separated")
    p.add_argument("--old", help="the weights they play (default: the game's defaults)")
    p.add_argument("--new-reductions", type=int, default=0, help="late move reductions of the new side (plies)")
    p.add_argument("--old-reductions", type=int, default=0, help="late move reductions of the old side (plies)")
    p.add_argument("--new-search", default="",
                   help="more settings of the new side: null_move, quiescence, margin, variety_plies "
                        "('margin=10,variety_plies=20')")
    p.add_argument("--old-search", default="", help="more search settings of the old side")
    p.add_argument("--time", type=float, default=0.05)
    p.add_argument("--opening", type=int, default=4)
    p.add_argument("--elo0", type=float, default=0.0)
    p.add_argument("--elo1", type=float, default=50.0)
    p.add_argument("--min-games", type=int, default=40,
                   help="games before a verdict: the trinomial approximation is poor on a handful")
    p.add_argument("--max-games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--results", type=Path, required=True)
    p = commands.add_parser("convert")
    p.add_argument("--weights", required=True)
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--time", type=float, default=0.03)
    p.add_argument("--results", type=Path, required=True)
    args = parser.parse_args(argv)
    return {"selfplay": selfplay, "fit": fit, "sprt": sprt, "convert": convert}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
