"""The learning commands' and the learned agent's errors, with or without the learn extra."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from boomboard import learn  # noqa: F401  (registers the "learned" agent kind)
from boomboard.agents import make_agent
from boomboard.core import BoomboardError


def test_train_without_a_length_stops_with_one_line_before_making_anything(tmp_path):
    done = subprocess.run([sys.executable, "-m", "boomboard", "train", "kaboom", "--out", str(tmp_path / "run")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--minutes M or --iterations N" in done.stdout
    assert "Traceback" not in done.stderr and not (tmp_path / "run").exists()


def test_the_learned_agent_without_the_extra_says_how_to_install_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mctx" else real(name, *a))
    with pytest.raises(BoomboardError, match=r"^the learned agent needs the learn extra: pip install 'boomboard\[learn\]'"):
        make_agent("learned")
