"""Matches and tournaments: a fixed schedule of games, played in parallel,
recorded as they go, resumable.

A tournament is created once (:func:`create_tournament`) with its whole
schedule in the store; :func:`run_tournament` plays the slots still empty,
``workers`` games at a time (each game is a referee thread in this process
with two agent processes, or a Ray task with ``backend='ray'``). Stopping it
(Ctrl-C, a kill) and running it again finishes the same schedule.

Colours alternate: in each pairing, game ``k`` has the first-named agent
move first when ``k`` is even. A match can be an SPRT instead of a fixed
number of games: it stops as soon as the test decides (``games`` is then the
most it plays).
"""

from __future__ import annotations

import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from itertools import combinations
from collections.abc import Callable

from ..core.errors import ParameterError
from ..ratings import Sprt
from ..registry import load_game
from .referee import GameResult, Limits, Stopped, play_game
from .specs import check_spec
from .store import Store

KINDS = ("match", "round-robin", "gauntlet")


def make_schedule(kind: str, players: list[str], games: int) -> list[tuple[str, str]]:
    """The (first, second) pairing of every game slot, in playing order."""
    if games < 1:
        raise ParameterError(f"the number of games must be at least 1; got {games}")
    if kind not in KINDS:
        raise ParameterError(f"unknown tournament kind {kind!r}; expected one of {', '.join(KINDS)}")
    if len(set(players)) != len(players):
        raise ParameterError("each agent must be named once; give twins different settings, e.g. random:seed=1 "
                             "and random:seed=2")
    if kind == "match" and len(players) != 2:
        raise ParameterError(f"a match is between 2 agents; got {len(players)}")
    if len(players) < 2:
        raise ParameterError("a tournament needs at least 2 agents")
    if kind == "gauntlet":
        pairs = [(players[0], other) for other in players[1:]]
    else:
        pairs = list(combinations(players, 2))
    slots = []
    # one game of every pairing per round, so a stopped tournament is balanced
    for round_number in range(games):
        for a, b in pairs:
            slots.append((a, b) if round_number % 2 == 0 else (b, a))
    return slots


def create_tournament(store: Store, game: str, players: list[str], kind: str, games: int, limits: Limits,
                      seed: int = 1, sprt: Sprt | None = None) -> int:
    """Check everything, store the tournament and its schedule, return its id."""
    loaded = load_game(game)
    for spec in players:
        check_spec(spec)
    if sprt is not None and kind != "match":
        raise ParameterError("an SPRT is run on a match of two agents")
    settings = {"games": games, "limits": limits.to_dict(), "seed": seed,
                "sprt": None if sprt is None else [sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta]}
    return store.create_tournament(str(loaded), players, kind, settings, make_schedule(kind, players, games))


@dataclass
class SlotResult:
    slot: int
    first: str
    second: str
    winner: int | None
    reason: str
    game_id: int | None


def match_counts(store: Store, tournament_id: int) -> tuple[int, int, int]:
    """Wins, ties and losses of a match's first-named agent."""
    first_agent = store.tournament(tournament_id).players[0]
    wins = ties = losses = 0
    for _, first, _, winner in store.slot_results(tournament_id):
        if winner is None:
            ties += 1
        elif (winner == 0) == (first == first_agent):
            wins += 1
        else:
            losses += 1
    return wins, ties, losses


def match_pairs(store: Store, tournament_id: int) -> list[int]:
    """Pentanomial counts of a match's complete game pairs (slots 2k and 2k+1,
    colours reversed): entry k counts the pairs where the first-named agent
    scored k/2 points."""
    first_agent = store.tournament(tournament_id).players[0]
    points: dict[int, list[float]] = {}
    for slot, first, _, winner in store.slot_results(tournament_id):
        score = 0.5 if winner is None else float((winner == 0) == (first == first_agent))
        points.setdefault(slot // 2, []).append(score)
    pairs = [0] * 5
    for scores in points.values():
        if len(scores) == 2:
            pairs[int(round(2 * sum(scores)))] += 1
    return pairs


def sprt_llr(store: Store, tournament_id: int, sprt: Sprt) -> float:
    return sprt.llr_pentanomial(match_pairs(store, tournament_id))


def sprt_of(settings: dict) -> Sprt | None:
    return None if not settings.get("sprt") else Sprt(*settings["sprt"])


def run_tournament(store: Store, tournament_id: int, workers: int = 1, backend: str = "local",
                   ray_address: str | None = None, on_result: Callable[[SlotResult], None] | None = None,
                   stop: threading.Event | None = None) -> str | None:
    """Play the tournament's empty slots; return the SPRT's decision (or ``None``).

    ``on_result`` is called in this thread after each recorded game. Ctrl-C
    (KeyboardInterrupt) stops the games in progress, keeps every finished
    one, and is raised again once all agent processes are gone.
    """
    record = store.tournament(tournament_id)
    limits = Limits(**record.settings["limits"])
    seed = record.settings.get("seed", 1)
    sprt = sprt_of(record.settings)
    stop = stop or threading.Event()
    pending = store.pending_slots(tournament_id)
    if backend == "ray":
        from .ray_backend import RayRunner

        runner = RayRunner(ray_address)
    elif backend == "local":
        runner = None
    else:
        raise ParameterError(f"unknown backend {backend!r}; expected local or ray")

    def decided() -> str | None:
        return sprt.decide(sprt_llr(store, tournament_id, sprt)) if sprt else None

    decision = decided()
    in_flight: dict[Future, tuple[int, str, str]] = {}
    executor = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="boomboard-referee")
    try:
        queue = iter(pending)
        while True:
            while decision is None and not stop.is_set() and len(in_flight) < max(1, workers):
                slot = next(queue, None)
                if slot is None:
                    break
                in_flight[executor.submit(_play_slot, store, record.game, tournament_id, slot, limits,
                                          seed, stop, runner)] = slot
            if not in_flight:
                break
            done, _ = wait(in_flight, timeout=0.25, return_when=FIRST_COMPLETED)
            for future in done:
                in_flight.pop(future)
                result = future.result()
                if result is not None and on_result is not None:
                    on_result(result)
                if result is not None and decision is None:
                    decision = decided()
    except KeyboardInterrupt:
        stop.set()
        wait(in_flight)
        raise
    finally:
        executor.shutdown(wait=True)
    if decision is not None or not store.pending_slots(tournament_id):
        store.finish_tournament(tournament_id)
    return decision


def _play_slot(store: Store, game: str, tournament_id: int, slot: tuple[int, str, str], limits: Limits,
               seed: int, stop: threading.Event, runner) -> SlotResult | None:
    number, first, second = slot
    settings = {"limits": limits.to_dict(), "seed": seed * 100_003 + number}
    if runner is not None:
        return _play_slot_remotely(store, game, tournament_id, slot, limits, settings, stop, runner)
    game_id = store.begin_game(game, [first, second], settings, tournament_id, number)

    class _Recorder:
        def action(self, ply: int, action: int, seconds: float, cpu: float) -> None:
            store.add_action(game_id, ply, action, seconds, cpu)

    try:
        result = play_game(game, [first, second], limits, settings["seed"], _Recorder(), stop)
    except Stopped:
        store.abort_game(game_id, "the arena was stopped during the game")
        return None
    except Exception as problem:  # a fault of the arena's own: keep the slot open, carry on
        store.abort_game(game_id, f"the referee failed: {type(problem).__name__}: {problem}")
        return None
    counted = store.finish_game(game_id, result.winner, result.reason)
    return SlotResult(number, first, second, result.winner, result.reason, game_id) if counted else None


def _play_slot_remotely(store: Store, game: str, tournament_id: int, slot: tuple[int, str, str],
                        limits: Limits, settings: dict, stop: threading.Event, runner) -> SlotResult | None:
    number, first, second = slot
    result: GameResult | None = runner.play(game, [first, second], limits, settings["seed"], stop)
    if result is None:
        return None
    game_id = store.begin_game(game, [first, second], {**settings, "backend": "ray"}, tournament_id, number)
    for ply, (action, seconds, cpu) in enumerate(zip(result.actions, result.times, result.cpu)):
        store.add_action(game_id, ply, action, seconds, cpu)
    counted = store.finish_game(game_id, result.winner, result.reason)
    return SlotResult(number, first, second, result.winner, result.reason, game_id) if counted else None
