"""Fit the opponent model of ``boomboard.solver.in_play`` to recorded games.

Reads the JSON lines of ``benchmarks/openspiel_mcts.py`` (games with every
action recorded), replays each against the game's solved table, and for
every move of the opponent (OpenSpiel's MCTS) in a tied or a won position
sorts its replies into kinds: in a tie, replies that keep it and replies
that lose, by how many plies after the reply the loss comes; in a win,
replies that keep it (near or far), tie, or lose. The opponent is taken to
play a reply with a chance in proportion to its kind's weight (1 for a reply
that keeps the value), and the weights are fitted by maximum likelihood
(minorize-maximize updates, Hunter 2004, as for Bradley-Terry models).

    python benchmarks/opponent_model.py benchmarks/results/openspiel-mcts-*.jsonl

prints the number of moves of each kind, the fitted weights, and the
weights ``in_play`` uses, for comparison. The game must be solved
(``boomboard solve kaboom``; ``boomboard compile`` solves its default board).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

import boomboard
from boomboard import solver
from boomboard.solver import in_play

KEEP = "keeps the value"


def tie_kind(value: str, remoteness: int) -> str:
    """A reply's kind in a tie, from the position after it (us to move)."""
    if value == "tie":
        return KEEP
    if value != "win":
        return "other"
    if remoteness <= 6:
        return "loses within 6 plies"
    return f"loses in {remoteness} plies" if remoteness < 23 else "loses in 23 plies or more"


def win_kind(value: str, remoteness: int) -> str:
    """A reply's kind in a win for the opponent, from the position after it (us to move)."""
    if value == "lose":
        return "wins within 7 plies" if remoteness <= in_play.VISIBLE_PLIES else KEEP
    return "ties" if value == "tie" else "loses"


def decisions(paths: list[str], game_name: str) -> dict[str, list[tuple[list[str], str]]]:
    """For the opponent's moves in tied and in won positions: each move's reply kinds and the kind played."""
    game = boomboard.load_game(game_name)
    table = solver.open_table(game, None, "start")
    if table is None:
        raise SystemExit(f"{game} is not solved: run boomboard solve {game_name}")
    found: dict[str, list[tuple[list[str], str]]] = {"tie": [], "win": []}
    for path in paths:
        for line in open(path):
            record = json.loads(line)
            if record["game"] != game_name or not record.get("actions"):
                continue
            state = game.new_initial_state()
            for action in record.get("opening_actions") or []:
                state.apply_action(action)
            for action in record["actions"]:
                value = table.lookup(state).value
                if state.current_player() != record["ai_player"] and value in found:
                    kind = tie_kind if value == "tie" else win_kind
                    kinds, played = [], None
                    for reply in state.legal_actions():
                        entry = table.lookup(state.child(reply))
                        kinds.append(kind(entry.value, entry.remoteness))
                        if reply == action:
                            played = kinds[-1]
                    found[value].append((kinds, played))
                state.apply_action(action)
    return found


def fit(moves: list[tuple[list[str], str]], rounds: int = 300) -> dict[str, float]:
    """Maximum-likelihood weights of each kind (that of :data:`KEEP` held at 1)."""
    kinds = sorted({kind for offered, _ in moves for kind in offered})
    weights = {kind: 1.0 for kind in kinds}
    played = Counter(kind for _, kind in moves)
    for _ in range(rounds):
        for kind in kinds:
            if kind == KEEP:
                continue
            exposure = sum(offered.count(kind) / sum(weights[k] for k in offered) for offered, _ in moves)
            weights[kind] = played[kind] / exposure if exposure else 0.0
    return weights


def _order(kind: str) -> tuple[bool, int, str]:
    """Kinds in reading order: the value kept first, then by plies."""
    digits = "".join(c for c in kind.split(" or ")[0] if c.isdigit())
    return kind != KEEP, int(digits) if digits else 0, kind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", help="JSON lines of benchmarks/openspiel_mcts.py")
    parser.add_argument("--game", default="kaboom")
    args = parser.parse_args()
    found = decisions(args.results, args.game)
    for value, moves in found.items():
        print(f"\nthe opponent to move in a {value} ({len(moves):,} moves)\n")
        offered = Counter(kind for kinds, _ in moves for kind in kinds)
        played = Counter(kind for _, kind in moves)
        print("| reply | offered | played | fitted weight |\n|---|---:|---:|---:|")
        for kind, weight in sorted(fit(moves).items(), key=lambda item: _order(item[0])):
            print(f"| {kind} | {offered[kind]:,} | {played[kind]:,} | {weight:.2f} |")
    print(f"\nin_play uses: losing replies in a tie {in_play.LOSING_REPLY_WEIGHTS}; "
          f"in a win, a tie {in_play.TYING_REPLY_WEIGHT}, a loss {in_play.BLUNDER_WEIGHT}")


if __name__ == "__main__":
    main()
