"""Self-play training, its checkpoints, the agreement with perfect play and the learned agent."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("mctx")
pytest.importorskip("flax")
pytest.importorskip("optax")

import boomboard  # noqa: E402
from boomboard import solver  # noqa: E402
from boomboard.agents import make_agent  # noqa: E402
from boomboard.arena.referee import Limits, play_game  # noqa: E402
from boomboard.arena.specs import check_spec  # noqa: E402
from boomboard.core import ParameterError  # noqa: E402
from boomboard.learn.checkpoint import CheckpointError, load_model  # noqa: E402
from boomboard.learn.train import Trainer, TrainConfig  # noqa: E402
from boomboard.learn.truth import Truth, agreement, sample_positions  # noqa: E402

TINY = "kaboom(rows=3,cols=3,connect=3)"
SETTINGS = dict(game=TINY, envs=8, simulations=4, channels=8, blocks=1, batch=64, eval_games=4, truth_games=9,
                checkpoint_seconds=1e9)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("solved")
    solver.solve(boomboard.load_game(TINY), db=folder, progress=False)
    return folder


@pytest.fixture(scope="module")
def trained(tmp_path_factory, db):
    """A run of four iterations, and the loss of its buffer under the first and the last net.

    Trained once for the whole suite (about 25 CPU s): the test processes
    share the run's temporary folder, and the first to get there trains while
    the others wait on the lock, then open the finished run as a new process
    would (the resume test shows that opening a run loses nothing)."""
    import fcntl
    import os

    # with xdist each test process has its own folder in the run's; without it the base folder is the run's
    shared = tmp_path_factory.getbasetemp()
    shared = shared.parent if os.environ.get("PYTEST_XDIST_WORKER") else shared
    folder, losses_file = shared / "learn-run", shared / "learn-run-losses.json"
    with open(shared / "learn-run.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not losses_file.exists():
            trainer = Trainer.open(folder, TrainConfig(**SETTINGS), db=db)
            first = trainer.params
            trainer.run(iterations=4)
            replay = trainer.replay
            losses = [float(trainer._loss(params, replay.observations, replay.policies, replay.results)[0])
                      for params in (first, trainer.params)]
            losses_file.write_text(json.dumps(losses))
    return folder, Trainer.open(folder, db=db), json.loads(losses_file.read_text())


def test_training_lowers_the_loss_and_writes_model_and_logs(trained):
    folder, trainer, (before, after) = trained
    assert after < before * 0.9, (before, after)
    model = load_model(folder)
    assert model.game == str(boomboard.load_game(TINY)) and model.iteration == 4
    metrics = [json.loads(line) for line in (folder / "metrics.jsonl").read_text().splitlines()]
    assert [line["iteration"] for line in metrics] == [1, 2, 3, 4]
    assert all(line["games"] >= SETTINGS["envs"] * line["iteration"] for line in metrics)
    checkpoints = [json.loads(line) for line in (folder / "checkpoints.jsonl").read_text().splitlines()]
    assert [line["iteration"] for line in checkpoints] == [0, 4]
    assert all(0 <= line["move_agreement"] <= 1 and line["positions"] == len(trainer.truth) for line in checkpoints)
    assert (folder / "agreement.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_stopped_run_resumes_to_the_same_net_as_one_that_never_stopped(trained, tmp_path, db):
    folder, whole, _ = trained
    Trainer.open(tmp_path, TrainConfig(**SETTINGS), db=db).run(iterations=2)
    resumed = Trainer.open(tmp_path, db=db)  # a new process would see only the folder
    assert resumed.iteration == 2 and resumed.games > 0
    resumed.run(iterations=4)
    assert resumed.iteration == 4 and resumed.games == whole.games and resumed.moves == whole.moves
    for mine, theirs in zip(*(jax_leaves(t.params) for t in (resumed, whole))):
        np.testing.assert_array_equal(mine, theirs)
    lines = [(tmp_path / "metrics.jsonl").read_text(), (folder / "metrics.jsonl").read_text()]
    strip = [[{k: v for k, v in json.loads(line).items() if "seconds" not in k} for line in text.splitlines()]
             for text in lines]
    assert strip[0] == strip[1]


def test_a_ctrl_c_keeps_the_iterations_done(tmp_path, db):
    trainer = Trainer.open(tmp_path, TrainConfig(**SETTINGS), db=db)

    def interrupt(kind, line):
        if kind == "iteration" and line["iteration"] == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        trainer.run(iterations=5, report=interrupt)
    assert Trainer.open(tmp_path, db=db).iteration == 2


def test_a_run_folder_of_another_game_is_refused(trained):
    folder, _, _ = trained
    with pytest.raises(CheckpointError, match="is a run of kaboom"):
        Trainer.open(folder, TrainConfig(**{**SETTINGS, "game": "jump61(size=3)"}))


def jax_leaves(params):
    import jax

    return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(params)]


def test_jax_keeps_what_it_compiles_beside_the_kernels_unless_the_user_chose_a_folder(tmp_path):
    import os
    import subprocess
    import sys

    import jax

    from boomboard.jit import cache_root
    from boomboard.learn import network

    assert jax.config.jax_compilation_cache_dir == str(cache_root() / "jax")
    assert jax.config.jax_compilation_cache_max_size == network.JAX_CACHE_BYTES
    ask = "import jax, boomboard.learn.network; print(jax.config.jax_compilation_cache_dir)"
    chosen = subprocess.run([sys.executable, "-c", ask], capture_output=True, text=True, check=True,
                            env={**os.environ, "JAX_COMPILATION_CACHE_DIR": str(tmp_path)})
    assert chosen.stdout.strip() == str(tmp_path)


def test_two_processes_compiling_into_the_jax_folder_at_once_both_run_and_leave_it_for_the_next(tmp_path):
    import os
    import subprocess
    import sys

    compile_one = ("import boomboard.learn.network, jax, jax.numpy as jnp; "
                   "print(float(jax.jit(lambda x: jnp.tanh(x) * 3.0 + x.sum())(jnp.arange(4.0)).sum()))")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # the kernels' folder, and JAX's inside it
    both = [subprocess.Popen([sys.executable, "-c", compile_one], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env) for _ in range(2)]
    answers = [process.communicate(timeout=300) for process in both]
    assert [process.returncode for process in both] == [0, 0], answers
    assert answers[0][0] == answers[1][0] != "", answers
    assert list((tmp_path / "jax").iterdir())  # kept for the next process
    later = subprocess.run([sys.executable, "-c", compile_one], capture_output=True, text=True, env=env, timeout=300)
    assert later.returncode == 0 and later.stdout == answers[0][0], later.stderr


def test_the_agreement_metric_on_a_hand_checked_case():
    # three positions of four actions: the legal ones, the perfect ones, the table's class
    truth = Truth(states=np.zeros((3, 1), np.int32), observations=np.zeros((3, 1, 1, 1), np.float32),
                  legal=np.array([[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1]], bool),
                  perfect=np.array([[0, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 1]], bool),
                  classes=np.array([1, 0, -1], np.int8))
    # tops: action 1 (perfect), action 2 (not perfect), action 3 (illegal 0 is ignored: perfect)
    logits = np.array([[0.0, 1.0, 9.0, 0.0], [0.0, 0.5, 2.0, 0.0], [9.0, 0.0, 1.0, 3.0]])
    values = np.array([0.9, 0.2, 0.0])  # win (right), tie (right), tie (wrong: a loss)
    found = agreement(logits, values, truth)
    assert found == {"move": pytest.approx(2 / 3), "value": pytest.approx(2 / 3), "positions": 3}


def test_the_sample_marks_exactly_the_moves_the_solver_ranks_best(db):
    game = boomboard.load_game(TINY)
    table = solver.open_table(game, db)
    truth = sample_positions(game, table, 9, seed=1)
    assert len(truth) > 9 * 3  # every position of every game, repeats included
    for row in range(0, len(truth), 7):
        state = game.state_from_array(truth.states[row])
        analysis = solver.analyze(state, db=db)
        best = {m.action for m in analysis.moves if m.value == analysis.moves[0].value}
        assert set(np.flatnonzero(truth.perfect[row])) == best
        assert truth.classes[row] == {"win": 1, "lose": -1, "tie": 0, "draw": 0}[analysis.value]


def test_learned_specs_build_agents_and_bad_ones_say_why(trained):
    folder, _, _ = trained
    agent = make_agent(f"learned:{folder},search=0")
    assert agent.name == "learned" and not agent.use_search
    assert make_agent(f"learned:{folder}/model.msgpack,sims=8").simulations == 8
    with pytest.raises(CheckpointError, match="no model file or run folder"):
        make_agent("learned:/no/such/run")
    with pytest.raises(CheckpointError, match="no model file or run folder"):
        check_spec("learned:/no/such/run")
    with pytest.raises(ParameterError, match="must be positive"):
        make_agent(f"learned:{folder},sims=0")
    agent = make_agent(f"learned:{folder}")
    with pytest.raises(CheckpointError, match=r"was trained for kaboom\(.*\), not jump61"):
        agent.new_game(boomboard.load_game("jump61(size=3)"), 0)
    not_a_model = folder / "metrics.jsonl"
    with pytest.raises(CheckpointError, match="is not a boomboard model file"):
        make_agent(f"learned:{not_a_model}")


@pytest.mark.parametrize("settings", ["search=0", "sims=4", "sims=4,puct=0"])
def test_the_learned_agent_plays_legal_moves_through_the_arena(trained, settings):
    folder, _, _ = trained
    spec = f"learned:{folder},{settings}"
    check_spec(spec)
    for specs in ([spec, "random:seed=1"], ["random:seed=2", spec]):
        result = play_game(TINY, specs, Limits(move_cpu=5.0, memory_mb=200), seed=3)
        assert "forfeits" not in result.reason, result.reason
        state = boomboard.load_game(TINY).new_initial_state()
        for action in result.actions:
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.is_terminal() and state.outcome().winner == result.winner


def test_the_shipped_model_plays_kaboom_without_a_path():
    game = boomboard.load_game("kaboom")
    agent = make_agent("learned:search=0")
    agent.new_game(game, 0)
    state = game.new_initial_state()
    assert agent.choose_action(state) in state.legal_actions()
    with pytest.raises(CheckpointError, match="no model ships for jump61"):
        make_agent("learned").new_game(boomboard.load_game("jump61"), 0)


def test_the_shipped_model_holds_a_tie_that_it_loses_in_three_without_puct_or_decisive_moves():
    """O to move, one bomb in hand: only the bomb in D keeps the tie (the
    solver's verdict on each move: A and A* lose in 1, D in 3). The search
    alone (the guard off): the net rates X's winning line after D near zero
    (docs/results/learning.md): Gumbel
    MuZero's search never tries it, PUCT's tries it but misjudges the
    position it reaches unless it sees that X wins there at once."""
    game = boomboard.load_game("kaboom")
    state = game.deserialize_state('{"game":"kaboom","actions":[1,2,2,2,0,1,7,2,1,1,0]}')
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["A", "D", "A*", "D*"]
    chosen = {}
    for settings in ("", ",decisive=0", ",puct=0"):
        agent = make_agent(f"learned:sims=64,guard=0{settings}")
        agent.new_game(game, state.current_player())
        chosen[settings] = state.action_to_string(agent.choose_action(state.clone()))
    assert chosen == {"": "D*", ",decisive=0": "D", ",puct=0": "D"}


def test_the_guard_takes_out_the_move_that_loses_in_three_whatever_the_search():
    """The position above: D loses in 3, which a 4-ply guard proves, so every
    search (and the bare net) keeps the tie with it, and says why."""
    game = boomboard.load_game("kaboom")
    state = game.deserialize_state('{"game":"kaboom","actions":[1,2,2,2,0,1,7,2,1,1,0]}')
    for settings in (",decisive=0", ",puct=0", ",search=0"):
        agent = make_agent(f"learned:sims=64{settings},guard=4")
        agent.new_game(game, state.current_player())
        assert state.action_to_string(agent.choose_action(state.clone())) == "D*", settings
        assert "3 of 4 moves lose within 4 plies" in agent.last_thinking


def test_a_deep_guard_makes_a_weak_net_play_perfectly_where_it_sees_the_end(trained, db):
    """Where every line ends within the guard's horizon (the solver's
    remoteness of each move), the guarded, barely trained net never moves
    from a won or tied position into a worse one, and wins by the fastest
    route; unguarded, the same net does not."""
    folder, _, _ = trained
    game = boomboard.load_game(TINY)
    guard = 10
    rng = np.random.default_rng(5)
    agents = {plies: make_agent(f"learned:{folder},search=0,guard={plies}") for plies in (0, guard)}
    for agent in agents.values():
        agent.new_game(game, 0)
    seen, mistakes = 0, {0: 0, guard: 0}
    for _ in range(120):
        state = game.new_initial_state()
        for _ in range(rng.integers(2, 9)):
            if not state.is_terminal():
                state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            continue
        analysis = solver.analyze(state, db=db)
        if max(m.remoteness for m in analysis.moves) + 1 > guard:
            continue
        seen += 1
        best = analysis.moves[0]
        for plies, agent in agents.items():
            chosen = next(m for m in analysis.moves if m.action == agent.choose_action(state.clone()))
            fastest = best.value != "win" or chosen.remoteness == best.remoteness
            mistakes[plies] += chosen.value != best.value or not fastest
    assert seen >= 30
    assert mistakes[0] > 0 and mistakes[guard] == 0, (seen, mistakes)


def test_a_negative_guard_is_refused():
    with pytest.raises(ParameterError, match="guard='-1' .* must be 0 or more"):
        make_agent("learned:guard=-1")


def test_decisive_self_play_is_a_kept_setting_of_the_run(tmp_path, db):
    trainer = Trainer.open(tmp_path, TrainConfig(**{**SETTINGS, "decisive": True}), db=db)
    assert trainer.search.decisive
    trainer.run(iterations=1)
    assert json.loads((tmp_path / "run.json").read_text())["decisive"] is True
    assert Trainer.open(tmp_path).search.decisive


def test_the_web_app_offers_the_learned_player_where_a_model_ships(tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from boomboard.web import WebSettings, create_app

    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        assert "learned" in {level["spec"] for level in client.get("/api/catalog").json()["levels"]}
        full = "kaboom(rows=4,cols=4,connect=4,bombs=1,misere=false,superbomb=false)"
        assert client.get("/api/learned", params={"game": full}).json() == {"model": True, "ships": True,
                                                                              "needs": None}
        for other in ("kaboom(rows=5)", "jump61", "no_such_game"):
            assert client.get("/api/learned", params={"game": other}).json() == {"model": False, "ships": False,
                                                                                   "needs": None}


def test_the_search_step_plays_as_the_rules_do():
    import random

    from boomboard.observation import observation_layout

    game = boomboard.load_game(TINY)
    kernels = game.compiled("boomboard.learn.kernels")
    layout = observation_layout(game)
    rng = random.Random(5)
    rows, expected = [], []
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal() and rng.random() < 0.9:
            state.apply_action(rng.choice(state.legal_actions()))
        action = rng.choice(state.legal_actions()) if not state.is_terminal() else 0
        rows.append((state.array.copy(), action))
        expected.append(None if state.is_terminal() else (state, state.child(action)))
    states = np.array([r[0] for r in rows], np.int32)
    actions = np.array([r[1] for r in rows], np.int32)
    n, width = len(rows), game.num_distinct_actions()
    children, rewards, done = np.empty_like(states), np.zeros(n, np.float32), np.zeros(n, bool)
    observations, masks = np.zeros((n, layout.size), np.float32), np.zeros((n, width), bool)
    wins_now = np.zeros(n, bool)
    kernels.expand_batch(states, game.params_array, layout.table, actions, children, rewards, done, observations,
                         masks, True, wins_now, np.empty(width, np.int32))
    assert done.any() and not done.all() and wins_now.any() and not wins_now.all()
    for i, pair in enumerate(expected):
        if pair is None:  # a finished game stays as it is
            assert done[i] and rewards[i] == 0 and not masks[i].any()
            np.testing.assert_array_equal(children[i], states[i])
            continue
        parent, child = pair
        np.testing.assert_array_equal(children[i], child.array)
        assert done[i] == child.is_terminal()
        assert rewards[i] == (child.returns()[parent.current_player()] if child.is_terminal() else 0)
        np.testing.assert_array_equal(masks[i], child.legal_actions_mask().astype(bool) if not done[i] else False)
        np.testing.assert_array_equal(observations[i], layout.encode(child, int(child.array[0])).ravel())  # PLAYER
        assert wins_now[i] == (not done[i] and any(
            child.child(a).is_terminal() and child.child(a).returns()[child.current_player()] > 0
            for a in child.legal_actions()))


def test_random_openings_are_played_but_not_learned_from(trained):
    import jax

    from boomboard.learn.selfplay import self_play

    _, trainer, _ = trained
    key = jax.random.PRNGKey(0)
    learned, games, moves = self_play(trainer.search, trainer.params, 8, key, seed=1)
    assert games >= 8 and 0 < len(learned) <= moves
    assert set(np.unique(learned.results)) <= {-1.0, 0.0, 1.0}
    np.testing.assert_allclose(learned.policies.sum(axis=1), 1.0, atol=1e-5)
    # a 3x3 game lasts a dozen plies or so: openings of up to 1000 random moves are nearly always whole games
    unlearned, games, moves = self_play(trainer.search, trainer.params, 8, key, seed=1, random_plies=1000)
    assert games >= 8 and moves > 0 and len(unlearned) < len(learned) / 4


def test_the_value_target_mixes_the_result_and_the_search_value(trained):
    import jax

    from boomboard.learn.selfplay import self_play

    _, trainer, _ = trained
    key = jax.random.PRNGKey(3)
    # The mix changes the targets, not the games: the same key plays the same moves.
    result, searched, half = (self_play(trainer.search, trainer.params, 8, key, seed=5, value_mix=mix)[0]
                              for mix in (0.0, 1.0, 0.5))
    np.testing.assert_array_equal(result.observations, searched.observations)
    assert set(np.unique(result.results)) <= {-1.0, 0.0, 1.0}
    assert np.all(np.abs(searched.results) <= 1) and not set(np.unique(searched.results)) <= {-1.0, 0.0, 1.0}
    np.testing.assert_allclose(half.results, (result.results + searched.results) / 2, atol=1e-6)
    with pytest.raises(ParameterError, match="value_mix"):
        TrainConfig(**{**SETTINGS, "value_mix": 1.5}).check()


def test_workers_play_their_batches_at_once_and_the_run_stays_reproducible(tmp_path, db):
    settings = {**SETTINGS, "workers": 2}
    runs = [Trainer.open(tmp_path / name, TrainConfig(**settings), db=db) for name in ("a", "b")]
    for run in runs:
        run.run(iterations=2)
    # each iteration ends only when every game of both batches has ended once
    assert runs[0].games >= 2 * 2 * SETTINGS["envs"] and runs[0].games == runs[1].games
    for mine, theirs in zip(*(jax_leaves(run.params) for run in runs)):
        np.testing.assert_array_equal(mine, theirs)


def test_annealing_lowers_the_step_size_along_a_cosine_and_scales_every_update(trained):
    import jax

    from boomboard.learn.train import ANNEAL_FLOOR, step_size_scale

    assert step_size_scale(1234.0, 0) == 1.0  # no annealing: the learning rate as set
    assert step_size_scale(0.0, 600) == 1.0
    assert step_size_scale(300.0, 600) == pytest.approx((1 + ANNEAL_FLOOR) / 2)
    assert step_size_scale(150.0, 600) > step_size_scale(300.0, 600) > step_size_scale(450.0, 600)
    assert step_size_scale(600.0, 600) == step_size_scale(7200.0, 600) == pytest.approx(ANNEAL_FLOOR)
    _, trainer, _ = trained
    replay = trainer.replay
    moved = []
    for scale in (1.0, ANNEAL_FLOOR):
        params, _, _, _ = trainer._train_step(trainer.params, trainer.opt_state, replay.observations[:64],
                                              replay.policies[:64], replay.results[:64], np.float32(scale))
        moved.append([np.asarray(new) - np.asarray(old) for new, old in
                      zip(jax.tree_util.tree_leaves(params), jax.tree_util.tree_leaves(trainer.params))])
    for full, annealed in zip(*moved):
        np.testing.assert_allclose(annealed, full * ANNEAL_FLOOR, rtol=1e-3, atol=1e-7)
    with pytest.raises(ParameterError, match="anneal"):
        TrainConfig(**{**SETTINGS, "anneal": -1.0}).check()


def test_an_annealed_run_logs_a_falling_step_size(tmp_path, db):
    trainer = Trainer.open(tmp_path, TrainConfig(**{**SETTINGS, "anneal": 1e-4}), db=db)
    trainer.run(iterations=3)
    sizes = [line["step_size"] for line in trainer.lines("metrics.jsonl")]
    assert sizes[0] < TrainConfig.learning_rate and sizes[-1] == pytest.approx(TrainConfig.learning_rate * 0.05)
    assert json.loads((tmp_path / "run.json").read_text())["anneal"] == 1e-4


def test_the_mirrored_search_reads_both_views_and_agrees_with_itself_in_a_mirror(trained):
    from boomboard.learn.search import Search
    from boomboard.observation import observation_layout

    _, trainer, _ = trained
    mirror = observation_layout(trainer.game).mirror
    plain = Search(trainer.game, trainer.net_config, 4)
    both = Search(trainer.game, trainer.net_config, 4, mirror=True)
    obs, legal = trainer.truth.observations, trainer.truth.legal
    flipped, flipped_legal = obs[..., ::-1].copy(), legal[:, mirror]  # the mirror undoes itself
    logits, values = map(np.asarray, plain.evaluate(trainer.params, obs, legal))
    image_logits, image_values = map(np.asarray, plain.evaluate(trainer.params, flipped, flipped_legal))
    mean_logits, mean_values = map(np.asarray, both.evaluate(trainer.params, obs, legal))
    np.testing.assert_allclose(mean_values, (values + image_values) / 2, atol=1e-5)
    assert not np.allclose(values, image_values, atol=1e-3)  # an untrained-for symmetry: the views differ

    def policy(x):  # the legal moves' log-probabilities (logits are known up to a constant a row)
        x = np.where(legal, x.astype(np.float64), -np.inf)
        x = x - np.max(x, axis=1, keepdims=True)
        return np.where(legal, x - np.log(np.exp(x).sum(axis=1, keepdims=True)), 0)

    image_seen = np.where(flipped_legal, image_logits, 0)[:, mirror]
    np.testing.assert_allclose(policy(mean_logits), policy((np.where(legal, logits, 0) + image_seen) / 2), atol=1e-4)
    # the mean is the same seen in the mirror
    seen, seen_values = map(np.asarray, both.evaluate(trainer.params, flipped, flipped_legal))
    np.testing.assert_allclose(seen_values, mean_values, atol=1e-5)
    np.testing.assert_allclose(policy(seen[:, mirror]), policy(mean_logits), atol=1e-4)
    assert make_agent(f"learned:{trainer.folder}").mirror is False
    assert make_agent(f"learned:{trainer.folder},mirror=1").mirror is True


def test_a_mirrored_run_learns_random_positions_as_their_mirror_images(tmp_path, db):
    from boomboard.observation import observation_layout

    trainer = Trainer.open(tmp_path, TrainConfig(**{**SETTINGS, "mirror": True}), db=db)
    trainer.run(iterations=2)
    assert json.loads((tmp_path / "run.json").read_text())["mirror"] is True
    mirror = observation_layout(trainer.game).mirror
    obs, policies = trainer.replay.observations[:200], trainer.replay.policies[:200]
    seen, targets = trainer._mirrored(np.random.default_rng(1), obs.copy(), policies.copy())
    flipped = np.random.default_rng(1).random(len(obs)) < 0.5  # the draws _mirrored makes
    assert 0.3 < flipped.mean() < 0.7 and not np.array_equal(seen[flipped], obs[flipped])
    np.testing.assert_array_equal(seen[flipped], obs[flipped][..., ::-1])
    np.testing.assert_array_equal(targets[flipped], policies[flipped][:, mirror])
    np.testing.assert_array_equal(targets[~flipped], policies[~flipped])
    plain = Trainer.open(tmp_path / "plain", TrainConfig(**SETTINGS), db=db)
    assert plain._mirrored(np.random.default_rng(1), obs, policies)[0] is obs
