"""The whole-game time manager: over simulated games on a fake clock it never
passes the budget, keeps a reserve for the endgame, spends most of the
budget in a long game, and gives unstable positions more time."""

from __future__ import annotations

import random

import pytest

from boomboard.agents import search_agents
from boomboard.agents.search_agents import _BudgetedAgent
from boomboard.agents.time_manager import MovePlan, TimeManager


def simulated_search(clock: TimeManager, plan: MovePlan, rng: random.Random, unstable: float,
                     first: float = 0.002, overshoot: float = 0.003) -> float:
    """A search by iterative deepening on a fake clock, as AlphaBetaAgent runs
    one: iterations growing 3 to 6 times, stopped between them by the time
    manager or mid-way at the hard maximum (a little late, as a real clock
    read between batches of nodes is); returns the seconds it took."""
    elapsed, took, iterations = 0.0, first, []
    for _ in range(60):
        if elapsed + took >= plan.maximum:  # cut at the deadline
            return plan.maximum + overshoot
        elapsed += took
        action = rng.randrange(3) if rng.random() < unstable else 0
        iterations.append((action, rng.randrange(-30, 30), took))
        if clock.stop_after_iteration(plan, elapsed, iterations):
            return elapsed
        took *= rng.uniform(3.0, 6.0)
    return elapsed


def play(game_time: float, plies: int, seed: int, unstable: float = 0.2, outside: float = 0.001):
    """Our moves of a ``plies``-ply game (we move first) with ``game_time``
    seconds; each move also costs ``outside`` seconds the referee charges
    (the course Player's updates). Returns the manager, each move's plan
    and the time each move took."""
    rng = random.Random(seed)
    clock = TimeManager(game_time, typical_plies=160, action_limit=500)
    plans, spent = [], []
    for ply in range(0, plies, 2):
        plan = clock.plan(ply)
        assert 0 < plan.target <= plan.maximum
        seconds = simulated_search(clock, plan, rng, unstable)
        clock.charge(seconds + outside)
        plans.append(plan)
        spent.append(seconds)
    return clock, plans, spent


@pytest.mark.parametrize("seed", range(6))
def test_a_long_game_spends_at_least_90_percent_and_keeps_a_reserve(seed):
    clock, plans, spent = play(57.0, 200, seed)
    assert 0.9 * 57.0 <= clock.used <= 57.0, clock.used
    assert clock.time_left >= 1.0  # the reserve: the game might go on
    # the endgame is never played blind: every move is planned a hundredth of a second at least
    assert min(plan.target for plan in plans) >= 0.01
    # where no search is unstable, the shares are kept on average (the soft
    # limit), so early moves do not eat the budget
    clock, plans, spent = play(57.0, 200, seed, unstable=0.0)
    assert 0.75 <= sum(spent) / sum(plan.target for plan in plans) <= 1.25
    assert 0.9 * 57.0 <= clock.used <= 57.0, clock.used


@pytest.mark.parametrize("plies", [100, 140, 180, 300, 500])
def test_games_of_any_length_keep_to_the_budget(plies):
    clock, plans, spent = play(57.0, plies, plies)
    assert 0 < clock.time_left and clock.used <= 57.0
    assert max(spent) <= 0.2 * 57.0 + 0.01
    if plies >= 180:
        assert clock.used >= 0.9 * 57.0
    else:  # a short game has not used the reserve, nor all the shares
        assert clock.time_left >= 57.0 * 0.04
    # past the usual length, early moves got more than late ones, but no move
    # is starved, even at the action limit
    assert sum(spent[-10:]) > 10 * 0.005
    if plies >= 180:
        assert sum(spent[:10]) > sum(spent[-10:])
    assert min(plan.target for plan in plans) >= 0.003


def test_an_unstable_search_is_given_up_to_three_times_its_target():
    clock = TimeManager(57.0, typical_plies=160, action_limit=500)
    plan = clock.plan(20)
    assert plan.maximum == pytest.approx(3 * plan.target)
    stable = [(5, 10, plan.target / 2), (5, 12, plan.target / 2)]
    swung = [(5, 10, plan.target / 2), (5, 200, plan.target / 2)]
    changed = [(5, 10, plan.target / 2), (7, 12, plan.target / 2)]
    past_target = plan.target * 1.01
    assert clock.stop_after_iteration(plan, past_target, stable)
    assert not clock.stop_after_iteration(plan, past_target, swung)
    assert not clock.stop_after_iteration(plan, past_target, changed)
    assert clock.stop_after_iteration(plan, 3 * plan.target, changed)
    # a stable search does not start an iteration it cannot finish before the maximum
    early = [(5, 10, plan.target / 100), (5, 12, plan.target / 4)]
    assert clock.stop_after_iteration(plan, plan.target / 2, early)
    assert not clock.stop_after_iteration(plan, plan.target / 20, [(5, 10, plan.target / 200), (5, 12, plan.target / 40)])
    # the growth is judged from the larger of the last two steps (odd and even depths differ)
    zigzag = [(5, 10, plan.target / 80), (5, 10, plan.target / 8), (5, 12, plan.target / 4)]
    assert clock.stop_after_iteration(plan, sum(i[2] for i in zigzag), zigzag)


def test_a_move_budget_alone_is_searched_to_its_end():
    clock = TimeManager(None, 0.5)
    plan = clock.plan(0)
    assert plan == MovePlan(0.5, 0.5)
    assert not clock.stop_after_iteration(plan, 0.3, [(1, 0, 0.1), (1, 0, 0.2)])
    assert TimeManager(None, None).plan(0) is None
    capped = TimeManager(57.0, 0.2, typical_plies=160).plan(0)
    assert capped.target <= 0.2 and capped.maximum <= 0.2


def test_the_agent_charges_its_whole_choice_and_what_it_is_told_to(monkeypatch):
    """Through _BudgetedAgent on a fake clock: what choose_action takes and
    what charge() adds are what the plan later shares out."""
    now = [0.0]
    monkeypatch.setattr(search_agents, "_cpu_time", lambda: now[0])

    class Fake(_BudgetedAgent):
        name = "fake"

        def _search(self, state):
            plan = self.plan(state.ply())
            now[0] += plan.target + 0.001  # the search, then a little work around it
            return state.legal_actions()[0], plan.target

    import boomboard

    game = boomboard.load_game("expendibots")
    agent = Fake(seed=1, game_time=10.0)
    agent.new_game(game, 0)
    assert agent.clock.typical_plies == game.typical_plies and agent.clock.action_limit == 500
    state = game.new_initial_state()
    first = agent.plan(0).target
    agent.choose_action(state)
    assert agent.time_left == pytest.approx(10.0 - first - 0.001)
    assert agent.overhead == pytest.approx(0.001)
    agent.charge(1.0)
    assert agent.time_left == pytest.approx(9.0 - first - 0.001)


def test_a_one_off_overhead_does_not_starve_later_moves(monkeypatch):
    """A first move that spends a second outside its search (compiled code
    loading, say) is allowed for a few moves, never more than half a plan,
    and then forgotten."""
    now = [0.0]
    monkeypatch.setattr(search_agents, "_cpu_time", lambda: now[0])
    outside = [1.0]

    class Fake(_BudgetedAgent):
        name = "fake"

        def _search(self, state):
            plan = self.plan(state.ply())
            now[0] += plan.target + outside[0]
            outside[0] = 0.001
            return state.legal_actions()[0], plan.target

    import boomboard

    game = boomboard.load_game("expendibots")
    agent = Fake(seed=1, game_time=58.0)
    agent.new_game(game, 0)
    state = game.new_initial_state()
    agent.choose_action(state)
    assert agent.overhead == pytest.approx(1.0)
    planned = agent.clock.plan(2)
    assert agent.plan(2).target >= planned.target * (0.97 - 0.5) - 1e-9
    for _ in range(8):
        agent.choose_action(state)
    assert agent.overhead == pytest.approx(0.001)
    assert agent.plan(2).target == pytest.approx(agent.clock.plan(2).target * 0.97 - 0.001)


def test_a_true_answer_from_on_iteration_stops_the_search_there():
    import boomboard
    from boomboard.search.alphabeta import AlphaBeta

    game = boomboard.load_game("expendibots")
    depths = []

    def stop_at_two(result):
        depths.append(result.depth)
        return result.depth >= 2

    result = AlphaBeta(game, table_bits=12).search(game.new_initial_state(), depth=5, on_iteration=stop_at_two)
    assert depths == [1, 2] and result.depth == 2
    # answering nothing (None) goes on as before
    assert AlphaBeta(game, table_bits=12).search(game.new_initial_state(), depth=3,
                                                 on_iteration=lambda result: None).depth == 3
