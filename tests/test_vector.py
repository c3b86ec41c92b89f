"""The batched environment against the Python State, step by step."""

from __future__ import annotations

import numpy as np
import pytest

import boomboard
from boomboard import IllegalActionError, ParameterError
from boomboard.observation import observation_layout
from boomboard.vector import VectorEnv, max_legal_actions
from no_jit import run_json_script

# Small boards end quickly, so the history rules and auto-reset are exercised.
GAMES = [
    "kaboom",
    "kaboom(rows=3,cols=3,connect=3,misere=true)",
    "kaboom(rows=4,cols=5,bombs=2,superbomb=true)",
    "jump61(size=3)",
    "jump61",
    "expendibots",
    "explocus(size=4)",
    "explocus",
    "hexplocus(side=3)",
    "chain_reaction(rows=3,cols=3)",
    "chain_reaction",
]


def follow(game_string: str, num_envs: int, steps: int, seed: int) -> dict:
    """Step a VectorEnv with random legal actions and the same actions through
    Python States; every array, mask, observation, reward and reset must agree."""
    game = boomboard.load_game(game_string)
    layout = observation_layout(game)
    env = VectorEnv(game, num_envs, seed=seed)
    obs, _ = env.reset()
    states = [game.new_initial_state() for _ in range(num_envs)]
    seen = {"ended": 0, "won": 0, "tied": 0, "reasons": set()}
    for _ in range(steps):
        masks = env.action_mask()
        for i, state in enumerate(states):
            assert np.array_equal(env.states[i], state.array)
            assert np.array_equal(masks[i], state.legal_actions_mask().astype(bool))
            assert np.array_equal(obs[i], layout.encode(state))
        actions = env.sample_actions()
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, state in enumerate(states):
            mover = state.current_player()
            assert info["mover"][i] == mover
            state.apply_action(int(actions[i]))
            assert terminated[i] == state.is_terminal()
            assert rewards[i] == state.returns()[mover]
            if state.is_terminal():
                seen["ended"] += 1
                seen["won" if rewards[i] else "tied"] += 1
                seen["reasons"].add(state.outcome().reason.name)
                assert info["status"][i] == state.array[1]
                assert info["episode_length"][i] == state.ply()
                states[i] = game.new_initial_state()
            else:
                assert info["status"][i] == 0
        assert np.array_equal(info["current_player"], [s.current_player() for s in states])
    return seen


@pytest.mark.parametrize("game_string", GAMES)
def test_vector_env_plays_exactly_like_the_python_state(game_string):
    seen = follow(game_string, num_envs=6, steps=60, seed=3)
    if game_string.startswith(("kaboom", "jump61(size=3)", "chain_reaction(rows=3")):
        assert seen["ended"] > 0  # auto-reset was exercised


def test_history_rules_end_games_in_the_batch_as_in_the_state():
    # Half the random games on a 5x5 Explocus board tie, by repetition or at
    # 500 actions; both rules read each environment's own key history.
    seen = follow("explocus(size=5)", num_envs=6, steps=600, seed=5)
    assert {"TURN_LIMIT", "NO_TOKENS"} <= seen["reasons"]


def test_a_fourth_repetition_ends_the_game():
    game = boomboard.load_game("explocus(size=4,setup=...b1/..../..../w1... w)")
    state = game.new_initial_state()
    shuffle = [state.play(text) for text in ("a1-b1", "d4-c4", "b1-a1", "c4-d4")]
    env = VectorEnv(game, num_envs=1, seed=0)
    env.reset()
    for ply in range(12):  # the start position occurs for the 4th time after 12 actions
        _, rewards, terminated, _, info = env.step(np.array([shuffle[ply % 4]]))
        assert terminated[0] == (ply == 11)
    assert info["status"][0] == 3 and rewards[0] == 0.0 and info["episode_length"][0] == 12


def test_finished_environments_restart_from_the_first_position():
    env = VectorEnv("kaboom(rows=1,cols=4,connect=2,bombs=0)", num_envs=3, seed=0)
    env.reset()
    env.step(np.array([0, 0, 0]))
    obs, rewards, terminated, _, info = env.step(np.array([1, 2, 1]))
    assert terminated.tolist() == [False, False, False]
    # the rows become "xox-", "xxo-" (X connects two) and "xo-x"
    obs, rewards, terminated, _, info = env.step(np.array([2, 1, 3]))
    assert terminated.tolist() == [False, True, False]
    assert rewards.tolist() == [0.0, 1.0, 0.0] and info["status"].tolist() == [0, 1, 0]
    assert info["episode_length"].tolist() == [0, 3, 0]
    assert np.array_equal(env.states[1], env.game.initial_array())
    assert env.current_player.tolist() == [1, 0, 1]


def test_an_illegal_action_raises_and_steps_nothing():
    env = VectorEnv("kaboom", num_envs=3, seed=0)
    env.reset()
    before = env.states.copy()
    detonate_a1 = 2 * 4  # no bomb stands on A1
    with pytest.raises(IllegalActionError, match="environment 1: action 8 is not legal"):
        env.step(np.array([0, detonate_a1, 0]))
    assert np.array_equal(env.states, before)
    with pytest.raises(IllegalActionError, match="shape"):
        env.step(np.array([0, 0]))
    with pytest.raises(IllegalActionError, match="integer"):
        env.step(np.array([0.0, 1.0, 2.0]))


def test_the_penalty_option_makes_an_illegal_action_lose():
    env = VectorEnv("kaboom", num_envs=2, seed=0, illegal="lose")
    env.reset()
    obs, rewards, terminated, _, info = env.step(np.array([0, 24]))  # 24: pass, illegal here
    assert terminated.tolist() == [False, True]
    assert rewards.tolist() == [0.0, -1.0] and info["status"].tolist() == [0, 2]
    assert np.array_equal(env.states[1], env.game.initial_array())


def test_bad_arguments_get_clear_errors():
    with pytest.raises(ParameterError, match="num_envs"):
        VectorEnv("kaboom", 0)
    with pytest.raises(ParameterError, match="illegal"):
        VectorEnv("kaboom", 2, illegal="ignore")
    with pytest.raises(boomboard.UnknownGameError):
        VectorEnv("chess", 2)


def test_sampling_is_seeded_and_legal():
    first, second = VectorEnv("jump61", 64, seed=9), VectorEnv("jump61", 64, seed=9)
    for _ in range(20):
        a, b = first.sample_actions(), second.sample_actions()
        assert np.array_equal(a, b)
        assert first.action_mask()[np.arange(64), a].all()
        first.step(a)
        second.step(b)


def test_legal_action_bound_holds_where_moves_are_most():
    # All 12 tokens in one stack on (3, 3): 14 squares in reach x 12 counts, and a boom.
    game = boomboard.load_game("expendibots")
    state = game.state_from_notation('{"white": [[12, 3, 3]], "black": [[1, 7, 7]]}')
    assert len(state.legal_actions()) == 14 * 12 + 1 <= max_legal_actions(game) < game.num_distinct_actions()
    for name in ("explocus", "hexplocus"):
        game = boomboard.load_game(name)
        assert max_legal_actions(game) < game.num_distinct_actions()


NO_JIT_SCRIPT = """
import json
from boomboard.vector import VectorEnv
out = {}
for name in ("kaboom", "jump61(size=4)", "expendibots", "explocus(size=5)", "hexplocus(side=3)"):
    env = VectorEnv(name, 4, seed=1)
    env.reset()
    for _ in range(30):
        obs, rewards, terminated, _, _ = env.step(env.sample_actions())
    out[name] = [env.states.tolist(), obs.tolist(), rewards.tolist(), terminated.tolist()]
print(json.dumps(out))
"""


def test_the_batch_kernels_run_as_plain_python_with_the_same_results():
    assert run_json_script(NO_JIT_SCRIPT, "1") == run_json_script(NO_JIT_SCRIPT, "0")


def test_gymnasium_spaces_describe_the_batch():
    spaces = pytest.importorskip("gymnasium.spaces", reason="gymnasium is not installed")
    env = VectorEnv("jump61(size=4)", num_envs=5, seed=0)
    obs, _ = env.reset()
    assert env.single_observation_space.contains(obs[0]) and env.observation_space.contains(obs)
    assert env.single_action_space == spaces.Discrete(16)
    assert env.action_space.shape == (5,) and env.action_space.contains(env.sample_actions().astype(np.int64))
    kaboom = VectorEnv("kaboom", num_envs=2)
    assert kaboom.single_observation_space.high.max() == 1.0


def test_a_reset_mask_restarts_only_the_chosen_environments():
    env = VectorEnv("jump61(size=3)", num_envs=4, seed=2)
    env.reset()
    env.step(np.array([0, 1, 2, 3]))
    before = env.states.copy()
    obs, info = env.reset(options={"reset_mask": np.array([False, True, False, True])})
    assert np.array_equal(env.states[[0, 2]], before[[0, 2]])
    assert np.array_equal(env.states[1], env.game.initial_array()) and env.legal_actions(1) == list(range(9))
    assert info["current_player"].tolist() == [1, 0, 1, 0]
    with pytest.raises(ParameterError, match="reset_mask"):
        env.reset(options={"reset_mask": [1, 0, 1, 0]})


def test_a_mask_buffer_is_refilled_in_place():
    env = VectorEnv("kaboom", num_envs=3, seed=4)
    buffer = env.action_mask()
    for _ in range(12):
        env.step(env.sample_actions())
        refilled = env.action_mask(out=buffer)
        assert refilled is buffer and np.array_equal(buffer, env.action_mask())
    with pytest.raises(ParameterError, match="out must be"):
        env.action_mask(out=np.zeros((3, 25), dtype=np.int8))


MIRRORED = ["kaboom", "kaboom(rows=5,cols=6,bombs=2,superbomb=true)", "jump61(size=5)", "jump61"]


@pytest.mark.parametrize("game_string", MIRRORED)
def test_a_game_played_in_a_mirror_reads_as_the_mirror_image(game_string):
    """Playing every action's mirror from the (symmetric) start gives, move
    after move, the reversed columns of the tensor and the mirrored legal actions."""
    game = boomboard.load_game(game_string)
    layout = observation_layout(game)
    assert layout.mirror is not None and layout.mirror.tolist() != list(range(game.num_distinct_actions()))
    rng = np.random.default_rng(5)
    for _ in range(20):
        state, image = game.new_initial_state(), game.new_initial_state()
        while not state.is_terminal():
            assert not image.is_terminal()
            np.testing.assert_array_equal(layout.encode(image), layout.encode(state)[..., ::-1])
            legal = state.legal_actions_mask().astype(bool)
            np.testing.assert_array_equal(image.legal_actions_mask().astype(bool)[layout.mirror], legal)
            action = int(rng.choice(np.flatnonzero(legal)))
            state.apply_action(action)
            image.apply_action(int(layout.mirror[action]))
        assert image.is_terminal() and image.returns() == state.returns()


def test_games_without_a_mirror_say_so():
    assert observation_layout(boomboard.load_game("expendibots")).mirror is None
