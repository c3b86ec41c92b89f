"""The ``boomboard`` command and terminal play, driven as a person would."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from rich.console import Console

import boomboard
from boomboard.agents import HUMAN, make_agent
from boomboard.cli.options import parse_game_options
from boomboard.cli.play import TerminalGame
from boomboard.core import ParameterError


def scripted(lines):
    feed = iter(lines)

    def read_line(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read_line


def terminal_game(game_name, sides, lines):
    output = io.StringIO()
    console = Console(file=output, width=120, color_system=None)
    game = boomboard.load_game(game_name)
    match = TerminalGame(game, sides, console, scripted(lines))
    return match, output


def test_people_play_kaboom_to_a_win_with_help_moves_and_errors():
    match, output = terminal_game("kaboom", [HUMAN, HUMAN],
                                  ["help", "moves", "Z9", "A", "b", "position", "A", "B", "A", "B", "a"])
    outcome = match.run()
    text = output.getvalue()
    assert outcome.winner == 0 and outcome.reason == boomboard.Reason.CONNECT
    assert "X wins" in text
    assert "legal moves: A, B, C, D, A*, B*, C*, D*" in text
    assert "Type 'moves'" in text  # the bad move was explained, and play went on
    assert "(x 1 1 xo-- ---- ---- ----)" in text  # the position after A and b


def test_undo_takes_back_the_persons_move_and_the_reply():
    match, output = terminal_game("kaboom", [HUMAN, make_agent("random", seed=1)], ["A", "undo", "history"])
    assert match.run() is None  # the input ran out: the game stops, nothing raised
    assert match.state.history() == []
    assert "(no moves yet)" in output.getvalue()


def test_resign_ends_the_game_for_the_opponent():
    match, output = terminal_game("jump61", [HUMAN, HUMAN], ["1 1", "resign"])
    outcome = match.run()
    assert outcome.winner == 0 and outcome.reason == boomboard.Reason.RESIGNATION
    assert "Red wins: Blue resigned" in output.getvalue()


def test_agents_play_each_other_to_the_end():
    for name in ("expendibots", "jump61", "kaboom", "explocus", "hexplocus", "chain_reaction(rows=4,cols=4)"):
        match, output = terminal_game(name, [make_agent("random", seed=2), make_agent("random", seed=3)], [])
        outcome = match.run()
        assert outcome is not None and match.state.is_terminal()
        assert ("wins" in output.getvalue()) or ("Tie" in output.getvalue())


def test_game_options_split_parameters_and_sides():
    options = parse_game_options("kaboom", ["--rows", "5", "--misere", "--o", "random", "--no-superbomb"])
    assert options.params == {"rows": "5", "misere": "true", "superbomb": "false"}
    assert options.sides == {1: "random"}
    options = parse_game_options("expendibots", ["--black=human", "--white", "random:seed=2"])
    assert options.sides == {0: "random:seed=2", 1: "human"}
    with pytest.raises(ParameterError, match="--rows"):
        parse_game_options("kaboom", ["--depth", "3"])
    with pytest.raises(ParameterError, match="needs a value"):
        parse_game_options("kaboom", ["--rows"])


def run_cli(*args, stdin=""):
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb"}
    return subprocess.run([sys.executable, "-m", "boomboard", *args], input=stdin, capture_output=True,
                          text=True, timeout=300, env=env)


def test_cli_plays_a_whole_random_game():
    done = run_cli("play", "kaboom", "--x", "random", "--o", "random", "--seed", "5")
    assert done.returncode == 0, done.stderr
    assert "wins" in done.stdout or "Tie" in done.stdout


def test_cli_reports_bad_input_in_one_line_without_traceback():
    for args in (["play", "chess"], ["play", "kaboom", "--rows", "0"], ["show", "kaboom", "(x 9 9 ----)"],
                 ["play", "kaboom", "--o", "genius"], ["play", "kaboom", "--moves", "A A A A A"]):
        done = run_cli(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stdout + done.stderr
        assert "error:" in done.stdout


def test_cli_end_of_input_stops_the_game_cleanly():
    done = run_cli("play", "jump61", "--size", "3", stdin="2 2\n")
    assert done.returncode == 0, done.stderr
    assert "Game stopped." in done.stdout


def test_cli_show_and_perft():
    done = run_cli("show", "kaboom", "(o 0 1 xoxx --*o --oo --x-)")
    assert done.returncode == 0 and "legal moves" in done.stdout
    done = run_cli("perft", "kaboom", "2")
    assert done.returncode == 0 and "perft(2) = 64" in done.stdout


def test_cli_usage_errors_show_usage_without_traceback():
    for args in (["perft", "jump61", "--depth", "3"], ["perft", "kaboom", "99"], ["games", "--no-such-option"]):
        done = run_cli(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        output = done.stdout + done.stderr
        assert "Traceback" not in output
        assert "Usage:" in output


def test_cli_shows_the_ai_thinking_on_request():
    done = run_cli("play", "kaboom", "--x", "alphabeta:depth=3", "--o", "random", "--seed", "1", "--think")
    assert done.returncode == 0, done.stderr
    assert "depth 3, score" in done.stdout and "nodes" in done.stdout
