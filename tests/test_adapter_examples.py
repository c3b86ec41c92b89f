"""The adapters' examples (documented in docs/how-to/adapters.md) run and say what they should."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).parent.parent / "examples"


def run_example(name: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_openspiel_example_plays_mcts_against_random():
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    out = run_example("openspiel_mcts.py", "--games", "2", "--simulations", "60")
    assert "observation tensor [7, 4, 5]" in out
    assert "MCTS won 2 of 2" in out


def test_pettingzoo_example_plays_to_the_end_and_saves_the_picture(tmp_path):
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed")
    image = tmp_path / "board.npy"
    out = run_example("pettingzoo_random.py", "--seed", "0", "--image", str(image))
    assert "player_0 ends with reward" in out and "player_1 ends with reward" in out
    assert "  A B C D E" in out
    picture = np.load(image)
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3


def test_vector_example_steps_a_batch():
    out = run_example("vector_random.py", "--envs", "64", "--steps", "150")
    assert "observations (64, 6, 6, 6), action masks (64, 36)" in out
    assert "9,600 steps" in out
    finished = int(out.split(" games finished")[0].split("\n")[-1].replace(",", ""))
    assert finished > 0


@pytest.mark.parametrize("module_name", ["boomboard.observation", "boomboard.vector", "boomboard.vector.env",
                                         "boomboard.openspiel", "boomboard.pettingzoo"])
def test_the_docstring_examples_hold(module_name):
    if module_name == "boomboard.openspiel":
        pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    if module_name == "boomboard.pettingzoo":
        pytest.importorskip("pettingzoo", reason="PettingZoo is not installed")
    module = importlib.import_module(module_name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
