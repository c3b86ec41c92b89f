"""boomboard's games as PettingZoo AEC environments."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'boomboard[pettingzoo]'")

with warnings.catch_warnings():  # pettingzoo.test imports a deprecated module of its own
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test  # noqa: E402

import boomboard  # noqa: E402
from boomboard.observation import observation_layout  # noqa: E402
from boomboard.pettingzoo import ENVIRONMENTS, kaboom_v0  # noqa: E402
from boomboard.pettingzoo.drawing import OWNER_COLOURS, TILE, MARGIN  # noqa: E402

MODULES = sorted(ENVIRONMENTS.items())

# api_test's notes on dict observations (PettingZoo's classic games have the
# same {"observation", "action_mask"} dicts).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize("name,module", MODULES)
def test_pettingzoo_api_test_passes(name, module):
    env = module.env()
    assert env.metadata["name"] == name and env.metadata["is_parallelizable"] is False
    api_test(env, num_cycles=300)


@pytest.mark.parametrize("name,module", MODULES)
def test_pettingzoo_seed_test_passes(name, module):
    seed_test(module.env, num_cycles=100)


@pytest.mark.parametrize("name,module", MODULES)
def test_a_random_game_matches_the_state_and_ends_with_opposite_rewards(name, module):
    # Small boards so that every game ends within the loop.
    params = {"kaboom_v0": {}, "jump61_v0": {"size": 3}, "expendibots_v0": {},
              "explocus_v0": {"size": 4}, "hexplocus_v0": {"side": 3},
              "chain_reaction_v0": {"rows": 3, "cols": 3}}[name]
    env = module.env(**params)
    env.reset(seed=3)
    game = env.unwrapped.game
    layout = observation_layout(game)
    reference = game.new_initial_state()
    rng = np.random.default_rng(3)
    for agent in env.agent_iter(max_iter=5000):
        observation, reward, termination, truncation, _ = env.last()
        player = int(agent[-1])
        assert np.array_equal(observation["observation"], layout.encode(reference, player))
        if termination:
            assert reward == reference.returns()[player]
            env.step(None)
            continue
        assert not truncation and reward == 0
        assert reference.current_player() == player
        assert np.array_equal(observation["action_mask"], reference.legal_actions_mask())
        other = env.observe(f"player_{1 - player}")
        assert not other["action_mask"].any()
        assert np.array_equal(env.state(), layout.encode(reference, 0))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        reference.apply_action(action)
    assert reference.is_terminal() and not env.agents


def test_an_illegal_action_loses_in_the_wrapped_env_and_raises_in_the_raw_one():
    env = kaboom_v0.env()
    env.reset()
    env.step(8)  # detonate A1: no bomb stands there
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": -1, "player_1": 0}
    raw = kaboom_v0.raw_env()
    raw.reset()
    with pytest.raises(boomboard.IllegalActionError, match="not legal"):
        raw.step(8)


def test_parameters_reach_the_game():
    env = kaboom_v0.env(rows=5, cols=6, misere=True)
    env.reset()
    assert str(env.unwrapped.game) == "kaboom(rows=5,cols=6,misere=true)"
    assert env.action_space("player_0").n == 2 * 6 + 5 * 6 + 1
    assert env.observation_space("player_1")["observation"].shape == (7, 5, 6)
    with pytest.raises(boomboard.ParameterError, match="rows"):
        kaboom_v0.env(rows=0)
    with pytest.raises(ValueError, match="render_mode"):
        kaboom_v0.env(render_mode="human")


def test_ansi_and_rgb_renders_show_the_board():
    env = kaboom_v0.env(render_mode="ansi")
    env.reset()
    env.step(0)  # X drops in column A
    assert env.render() == str(env.unwrapped.boomboard_state)
    assert env.render().splitlines()[3] == "1 x . . ."
    env = kaboom_v0.env(render_mode="rgb_array")
    env.reset()
    env.step(0)
    env.step(3)  # O drops in column D
    image = env.render()
    assert image.dtype == np.uint8 and image.shape == (2 * MARGIN + 4 * TILE, 2 * MARGIN + 4 * TILE, 3)
    bottom = MARGIN + 3 * TILE + TILE // 2

    def centre(column):
        return tuple(image[bottom, MARGIN + column * TILE + TILE // 2])

    assert centre(0) == OWNER_COLOURS[0] and centre(3) == OWNER_COLOURS[1]
    assert centre(1) not in OWNER_COLOURS


def test_every_registered_game_has_its_module_made_from_the_registry():
    import importlib
    import pickle

    names = {boomboard.registry.game_class(name).pettingzoo_name for name in boomboard.game_names()}
    assert set(ENVIRONMENTS) == names
    for name in names:
        module = importlib.import_module(f"boomboard.pettingzoo.{name}")  # import boomboard.pettingzoo.<name>
        assert module is ENVIRONMENTS[name] and module.raw_env.__module__ == module.__name__
    raw = pickle.loads(pickle.dumps(kaboom_v0.raw_env(rows=5)))  # EzPickle rebuilds it from the module
    assert str(raw.game) == "kaboom(rows=5)"
