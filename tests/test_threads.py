"""Threads share games safely: several threads over random positions of every
game (benchmarks/thread_stress.py, a short run), the registry's cache, the
read-only parameter arrays, and the web service and the arena through their
own entry points, each compared with a single-threaded run."""

from __future__ import annotations

import random
import sys
import threading

import pytest

import boomboard
from boomboard.registry import GAME_CACHE_SIZE
from benchmark_scripts import load_benchmark



@pytest.fixture(scope="module")
def stress():
    return load_benchmark("thread_stress", "thread_stress_bench")


def test_threads_sharing_every_game_get_the_single_threaded_results(stress):
    positions = stress.all_positions(per_game=8, seed=1)
    assert {str(p.state.game) for p in positions} == {str(boomboard.load_game(n)) for n in boomboard.game_names()}
    result = stress.stress(positions, threads=4, checks_per_thread=2500, switch=1e-6, seed=1)
    assert result.calls == 4 * 2500 * stress.CALLS_PER_CHECK
    assert result.wrong == 0


def test_every_games_parameter_and_start_arrays_are_read_only():
    for name in boomboard.game_names():
        game = boomboard.load_game(name)
        for array in (game.params_array, game.initial_array()):
            assert not array.flags.writeable
            with pytest.raises(ValueError, match="read-only"):
                array[0] = array[0]
        state = game.new_initial_state()  # the compiled rules take the read-only parameters
        state.apply_action(state.legal_actions()[-1])
        assert state.ply() == 1 and state.array.flags.c_contiguous


def test_each_thread_has_its_own_action_scratch_and_keeps_it():
    game = boomboard.load_game("kaboom")
    buffers = {}

    def keep(name: str) -> None:
        buffers[name] = (game.action_scratch(), game.action_scratch())

    threads = [threading.Thread(target=keep, args=(f"t{i}",)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(first is again for first, again in buffers.values())  # one buffer per thread, reused
    assert len({id(first) for first, _ in buffers.values()}) == 3
    assert buffers["t0"][0].shape == (game.num_distinct_actions(),)


def test_the_game_cache_is_bounded_and_keeps_the_most_recent():
    first = boomboard.load_game("kaboom(rows=7,cols=9)")
    assert boomboard.load_game("kaboom", rows=7, cols=9) is first  # any spelling of one game
    variants = [(rows, cols) for rows in range(2, 12) for cols in range(2, 12)][:GAME_CACHE_SIZE]
    for rows, cols in variants:
        boomboard.load_game("kaboom", rows=rows, cols=cols, connect=2)
    latest = boomboard.load_game("kaboom", rows=variants[-1][0], cols=variants[-1][1], connect=2)
    assert boomboard.load_game(str(latest)) is latest
    again = boomboard.load_game("kaboom(rows=7,cols=9)")
    assert again is not first and again == first  # dropped, built again: an equal game


def test_threads_loading_one_new_game_at_once_share_one_object():
    spec = "kaboom(rows=3,cols=11,connect=3)"  # loaded by no other test
    threads, loaded = 8, []
    ready = threading.Barrier(threads)

    def load() -> None:
        ready.wait()
        loaded.append(boomboard.load_game(spec))

    workers = [threading.Thread(target=load) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(loaded) == threads and all(game is loaded[0] for game in loaded)


class _Switching:
    """The interpreter switching threads as often as it can while inside, so
    that a state the threads share is raced far more often than every 5 ms."""

    def __enter__(self):
        self.previous = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)

    def __exit__(self, *exc):
        sys.setswitchinterval(self.previous)


def run_threads(work, arguments: list) -> list:
    """``work(argument)`` for each argument, each in a thread of its own, all at
    once; their results in order (an exception in one is raised here)."""
    results: list = [None] * len(arguments)
    errors: list = []
    ready = threading.Barrier(len(arguments))

    def run(index: int) -> None:
        ready.wait()
        try:
            results[index] = work(arguments[index])
        except BaseException as error:  # noqa: BLE001 - raised again in the calling thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(arguments))]
    with _Switching():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if errors:
        raise errors[0]
    return results


def random_line(seed: int, game: str = "kaboom") -> list[tuple[list[int], str, int]]:
    """A random game's plies, single-threaded: each position's legal actions
    and notation, and the action played there."""
    rng = random.Random(seed)
    state, line = boomboard.load_game(game).new_initial_state(), []
    while not state.is_terminal():
        legal = state.legal_actions()
        line.append((legal, state.to_notation(), rng.choice(legal)))
        state.apply_action(line[-1][2])
    return line


def test_the_web_app_serves_threads_on_one_variant_as_it_serves_one(tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from boomboard.web import WebSettings, create_app
    from test_web_api import new_game, wait_for

    seeds = list(range(4))
    lines = {seed: random_line(seed) for seed in seeds}

    def ai_game(client, seed: int) -> str:
        return new_game(client, "kaboom", ("random", "random"), pace=0, seed=seed)["id"]

    def finished_moves(client, game_id: str) -> list[str]:
        done = wait_for(client, game_id, lambda s: s["outcome"] is not None)
        return [move["text"] for move in done["moves"]]

    def human_game(client, seed: int) -> int:
        """Play ``lines[seed]`` through the API; the plies whose legal moves or position differ."""
        game_id, wrong = new_game(client, "kaboom", ("human", "human"))["id"], 0
        for legal, position, action in lines[seed]:
            shown = client.get(f"/api/games/{game_id}").json()
            wrong += [g["id"] for g in shown["legal"]] != legal or shown["position"] != position
            assert client.post(f"/api/games/{game_id}/moves", json={"move": action}).status_code == 200
        return wrong

    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        alone = {seed: finished_moves(client, ai_game(client, seed)) for seed in seeds}  # one game at a time

        def both(seed: int) -> tuple[list[str], int]:  # AI moves in the service's threads, a human's in this one
            game_id = ai_game(client, seed)
            return human_game(client, seed), finished_moves(client, game_id)

        together = dict(zip(seeds, run_threads(both, seeds)))
    assert {seed: wrong for seed, (wrong, _) in together.items()} == {seed: 0 for seed in seeds}
    assert {seed: moves for seed, (_, moves) in together.items()} == alone


def test_the_arena_referees_threads_of_games_as_it_referees_one(tmp_path):
    from boomboard.arena.referee import Limits
    from boomboard.arena.store import open_store
    from boomboard.arena.tournament import create_tournament, run_tournament

    def games(workers: int) -> dict:
        store = open_store(tmp_path / f"arena-{workers}.sqlite3")
        tournament = create_tournament(store, "kaboom", ["random", "random:seed=5"], "match", 6, Limits(), seed=3)
        with _Switching():
            run_tournament(store, tournament, workers=workers)
        return {record.settings["seed"]: (record.players, record.actions, record.winner, record.reason)
                for record in store.games(limit=100, tournament_id=tournament)}

    alone = games(workers=1)
    assert len(alone) == 6 and all(record[1] for record in alone.values())
    assert games(workers=4) == alone


def from_another_thread(call) -> BaseException | None:
    """What ``call()`` raises in a second thread (None if nothing), waited for here."""
    raised: list = [None]

    def run() -> None:
        try:
            call()
        except BaseException as error:  # noqa: BLE001 - handed back to the caller
            raised[0] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return raised[0]


def test_a_search_used_by_a_second_thread_meanwhile_says_so():
    from boomboard.core.threads import ConcurrentUseError
    from boomboard.search.alphabeta import AlphaBeta

    game = boomboard.load_game("kaboom")
    searcher, start = AlphaBeta(game, table_bits=10), game.new_initial_state()
    seen: list = []

    def meanwhile(result) -> bool:  # runs inside the first thread's search
        seen.append(from_another_thread(lambda: searcher.search(start, depth=1)))
        return True

    searcher.search(start, depth=3, on_iteration=meanwhile)
    assert isinstance(seen[0], ConcurrentUseError) and "give each thread its own AlphaBeta" in str(seen[0])
    assert searcher.search(start, depth=1).action in start.legal_actions()  # free again once the first is out


def test_an_agent_is_guarded_for_one_thread_and_may_call_itself():
    import copy

    from boomboard.agents.base import RandomAgent
    from boomboard.core.threads import ConcurrentUseError

    class Meddled(RandomAgent):
        def choose_action(self, state):
            self.meanwhile = from_another_thread(lambda: self.observe(state, 0))
            return super().choose_action(state)  # the same thread calling in again is no conflict

    agent, state = Meddled(seed=1), boomboard.load_game("kaboom").new_initial_state()
    assert agent.choose_action(state) in state.legal_actions()
    assert isinstance(agent.meanwhile, ConcurrentUseError) and "Meddled" in str(agent.meanwhile)
    twin = copy.deepcopy(agent)  # the guard's lock is not copied: the twin has its own
    assert twin.choose_action(state) == agent.choose_action(state)
