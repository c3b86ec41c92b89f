"""Commands that believed what they were given: a solved table's edited
``meta.json``, more workers than cores, a pasted wall of text as a move."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from rich.console import Console

import boomboard
from boomboard.agents import HUMAN
from boomboard.cli.cores import usable_cores
from boomboard.cli.play import TerminalGame
from test_cli import scripted

SMALL = ["kaboom", "--rows", "2", "--cols", "3", "--connect", "3", "--bombs", "0"]


def boomboard_command(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "boomboard", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "COLUMNS": "200"})


def test_solve_refuses_a_meta_json_whose_start_the_table_contradicts(tmp_path):
    solved = boomboard_command("solve", *SMALL, "--db", str(tmp_path), "--quiet")
    assert solved.returncode == 0, solved.stderr
    assert "start: " in solved.stdout
    (meta_path,) = tmp_path.rglob("meta.json")
    meta = json.loads(meta_path.read_text())
    told = {"value": "win" if meta["start"]["value"] != "win" else "lose", "remoteness": 3}
    meta_path.write_text(json.dumps({**meta, "start": told}))
    again = boomboard_command("solve", *SMALL, "--db", str(tmp_path), "--quiet")
    output = (again.stdout + again.stderr).strip()
    assert again.returncode == 2, output
    assert len(output.splitlines()) == 1 and "meta.json disagrees with its table" in output
    assert f"{told['value']} in 3" in output and "--force" in output


def test_explore_warns_of_more_workers_than_cores(tmp_path):
    too_many = usable_cores() + 4
    result = boomboard_command("explore", "kaboom", "--rows", "2", "--cols", "2", "--connect", "2", "--bombs", "0",
                               "--games", "0", "--workers", str(too_many), "--store", str(tmp_path / "lab.sqlite"),
                               "--quiet")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and f"--workers {too_many}" in warnings[0] and f"{usable_cores()} cores" in warnings[0]
    fitting = boomboard_command("explore", "kaboom", "--rows", "2", "--cols", "2", "--connect", "2", "--bombs", "0",
                                "--games", "0", "--workers", "1", "--store", str(tmp_path / "lab.sqlite"), "--quiet")
    assert "warning:" not in fitting.stdout


def test_tournament_warns_of_more_workers_than_cores(tmp_path):
    too_many = usable_cores() + 4
    result = boomboard_command("tournament", "jump61(size=3)", "random:seed=1", "random:seed=2", "--games", "2",
                               "--workers", str(too_many), "--db", str(tmp_path / "arena.sqlite3"))
    assert result.returncode == 0, result.stdout + result.stderr
    warnings = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and f"--workers {too_many}" in warnings[0] and f"{usable_cores()} cores" in warnings[0]


def test_a_long_bad_move_in_the_terminal_is_not_echoed_back_whole():
    output = io.StringIO()
    pasted = "Z" * 5_000
    game = boomboard.load_game("kaboom")
    TerminalGame(game, [HUMAN, HUMAN], Console(file=output, width=120, color_system=None),
                 scripted([pasted, "A"])).run()
    text = output.getvalue()
    assert "no move is that long (5,000 characters" in text and "Type 'moves'" in text
    assert "Z" * 100 not in text and len(text) < 3_000
