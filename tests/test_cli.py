"""The ``boomboard`` command and terminal play, driven as a person would."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time

import pytest
from rich.console import Console

import boomboard
from boomboard.agents import HUMAN, make_agent
from boomboard.cli.options import parse_game_options
from boomboard.cli.play import TerminalGame
from boomboard.core import ParameterError
from process_helpers import as_from_a_terminal


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
    assert outcome.winner == 0 and outcome.reason == boomboard.load_game("kaboom").end_reasons.CONNECT
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


@pytest.fixture(scope="module")
def random_game_played():
    """``boomboard play`` of a whole random game, run once for the tests that read its output."""
    return run_cli("play", "kaboom", "--x", "random", "--o", "random", "--seed", "5")


def test_cli_plays_a_whole_random_game(random_game_played):
    done = random_game_played
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


# -- the first minutes at the terminal ------------------------------------------------
def test_expendibots_positions_are_printed_and_read_in_the_squares_names():
    """`position` prints what the board shows (a1..h8, not 0-based JSON), and
    `show` and `play --position` read that text back."""
    done = run_cli("play", "expendibots", "--white", "human", "--black", "human", "--moves", "1 b2 b3;",
                   stdin="position\n")
    assert done.returncode == 0, done.stderr
    printed = next(line.split("> ", 1)[1] for line in done.stdout.splitlines() if "> white " in line)
    assert printed == ("white a1 b1 d1 e1 g1 h1 a2 d2 e2 g2 h2 b3; "
                       "black a7 b7 d7 e7 g7 h7 a8 b8 d8 e8 g8 h8; black to move")
    shown = run_cli("show", "expendibots", printed)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "legal moves" in shown.stdout and "boom g7" in shown.stdout
    assert "[" not in printed


def test_expendibots_short_form_is_explained_in_help_listed_and_played():
    match, output = terminal_game("expendibots", [HUMAN, HUMAN], ["help", "moves", "2 b2 b3", "1 b2 b3", "boom g7"])
    match.run()
    text = output.getvalue()
    unwrapped = " ".join(text.split())  # the help's lines wrap anywhere
    assert "'1 b2 b3' moves 1 token from b2 to b3" in unwrapped and "'boom b2'" in unwrapped
    assert "the course referee's form works too ('MOVE 1 from (1, 1) to (1, 2).'" in unwrapped
    assert "'MOVE 1 from (1, 1) to (1, 2).'" in text and "'BOOM at (1, 1).'" in text  # no quoted move split
    assert "50 legal moves: boom a1, boom b1," in text and "1 b2 b3" in text
    assert "has only 1 token, so a move from it takes that 1 token, not 2" in text
    assert "of them 1 to" not in text  # the old unreadable message
    assert match.state.history_strings() == ["1 b2 b3", "boom g7"]
    assert "   a  b  c  d  e  f  g  h" in text  # the board is labelled as the short form names squares


def test_terminal_history_is_in_the_move_notation_whichever_form_was_typed():
    course_forms = ["MOVE 1 from (1, 1) to (1, 2).", "('BOOM', (6, 6))", "move 1 FROM (1, 2) to (1, 3)", "history"]
    match, output = terminal_game("expendibots", [HUMAN, HUMAN], course_forms)
    match.run()
    assert "1. 1 b2 b3, boom g7  2. 1 b3 b4" in output.getvalue().splitlines()
    assert match.state.history_strings() == ["1 b2 b3", "boom g7", "1 b3 b4"]


def test_terminal_history_numbers_turns_when_the_second_player_starts():
    game = boomboard.load_game("expendibots")
    black_to_move = game.state_from_notation('{"white": [[1, 0, 0]], "black": [[1, 7, 7], [1, 5, 5]], "turn": "black"}')
    output = io.StringIO()
    match = TerminalGame(game, [HUMAN, HUMAN], Console(file=output, width=120, color_system=None),
                         scripted(["1 h8 h7", "1 a1 a2", "history"]), state=black_to_move)
    match.run()
    assert "1. ..., 1 h8 h7  2. 1 a1 a2" in output.getvalue().splitlines()


def test_agents_moves_are_shown_in_the_short_form():
    match, output = terminal_game("expendibots", [make_agent("random", seed=1), HUMAN], [])
    match.run()
    line = next(line for line in output.getvalue().splitlines() if line.startswith("White plays "))
    assert re.fullmatch(r"White plays (boom [a-h][1-8]|\d+ [a-h][1-8] [a-h][1-8])", line)


def test_explocus_moves_without_the_dash_at_the_terminal():
    match, output = terminal_game("explocus", [HUMAN, HUMAN], ["c2c4"])
    match.run()
    assert match.state.history_strings() == ["c2-c4"]


def test_animate_shows_each_step_of_a_cascade_as_its_own_board():
    output = io.StringIO()
    console = Console(file=output, width=120, color_system=None)
    game = boomboard.load_game("kaboom")
    state = game.state_from_notation("(x 0 0 xoxx o@*o -ooo -xxx)")
    match = TerminalGame(game, [HUMAN, HUMAN], console, scripted(["C2!"]), state, animate=True, frame_seconds=0)
    outcome = match.run()
    text = output.getvalue()
    assert outcome.winner == 0
    # the blast of X's bomb (it takes O's bomb on B2), then O's bomb's blast, then the fall
    assert "step 1 of 3: C1, B2, C2, D2, C3" in text
    assert "step 2 of 3: B1, A2, B2, B3" in text
    first = text.index("step 1 of 3")
    assert "3 . o . o\n2 o . . .\n1 x o . x" in text[:first]
    assert text.count("  A B C D") == 4  # the start, two steps, the result


def test_without_animate_only_the_result_is_drawn():
    match, output = terminal_game("jump61", [HUMAN, HUMAN], ["1 1", "1 2", "1 1"])
    match.run()
    assert "step " not in output.getvalue()


def test_help_shows_flags_as_flags_not_as_options_taking_a_value():
    for command in ("serve", "play", "solve"):
        done = run_cli(command, "--help")
        assert done.returncode == 0, done.stderr
        assert "<bool>" not in done.stdout, command
        assert "--help" in done.stdout


def _ragged_breaks(help_text: str, width: int = 80) -> list[str]:
    """Lines of a help text broken where the next line's first word would have
    fitted: a sentence wrapped at the source's line ends, not the terminal's."""
    ragged = []
    lines = help_text.splitlines()
    for line, following in zip(lines, lines[1:]):
        boxed = line.startswith("│") and following.startswith("│")
        text, next_text = (line[1:-1], following[1:-1]) if boxed else (line, following)
        words = next_text.split()
        new_entry = boxed and next_text[:2].strip()  # a command or option's own line, not a continuation
        if not text.strip() or not words or new_entry or words[0].startswith(("[", "Usage:")):
            continue
        if len(text.rstrip()) + 1 + len(words[0]) < (width - 2 if boxed else width) - 2:
            ragged.append(line.strip())
    return ragged


@pytest.mark.parametrize("command", [[], ["play"], ["solve"], ["train"], ["explore"]])
def test_help_fills_80_columns_without_ragged_breaks(command):
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb"}
    done = subprocess.run([sys.executable, "-m", "boomboard", *command, "--help"], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert max(len(line) for line in done.stdout.splitlines()) <= 80
    assert _ragged_breaks(done.stdout) == []


def test_the_hint_for_an_unsolved_variant_is_the_command_that_solves_it(tmp_path):
    done = run_cli("analyze", "kaboom", "--rows", "3", "--cols", "3", "--connect", "3", "--misere", "--bombs", "0",
                   "--db", str(tmp_path))
    assert done.returncode == 2, done.stdout + done.stderr
    hint = done.stdout.split("run: ", 1)[1].strip()
    assert hint == f"boomboard solve kaboom --rows 3 --cols 3 --connect 3 --bombs 0 --misere --db {tmp_path}"
    words = hint.split()
    options = parse_game_options("kaboom", words[3:-2])
    assert str(boomboard.load_game("kaboom", **options.params)) == "kaboom(rows=3,cols=3,connect=3,bombs=0,misere=true)"


@pytest.mark.parametrize("command", [["play", "kaboom"], ["show", "kaboom"], ["analyze", "kaboom"]])
def test_an_on_off_parameter_given_a_word_is_a_bad_value_not_a_bad_position(command):
    done = run_cli(*command, "--misere", "maybe")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout.strip() == ("error: --misere is on or off: give --misere, --no-misere or --misere true/false; "
                                   "got 'maybe'")


def test_an_unknown_agent_is_answered_in_plain_words():
    done = run_cli("play", "kaboom", "--o", "genius")
    assert done.returncode == 2
    assert done.stdout.strip().startswith("error: unknown agent 'genius'; known agents: human, random, greedy")
    assert done.stdout.strip().endswith("(docs/reference/agents.md describes each)")
    assert "layer" not in done.stdout


def test_the_result_is_printed_once(random_game_played):
    done = random_game_played
    assert done.returncode == 0, done.stderr
    results = [line for line in done.stdout.splitlines() if " wins: " in line or line.startswith("Tie: ")]
    assert len(results) == 1, results
    shown = run_cli("show", "kaboom", "(o 0 0 xxxx oo-- ---- ----)")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert shown.stdout.count("X wins: connected 4 in a row") == 1


def test_a_missing_extra_says_how_to_install_it_both_ways():
    message = str(boomboard.MissingExtraError("openspiel", "boomboard.openspiel"))
    assert "pip install 'boomboard[openspiel]'" in message and "scripts/setup openspiel" in message


def test_ctrl_c_during_the_ais_move_stops_at_once_in_one_line():
    # A minute of search for the AI's first move: a Ctrl-C taken only when the
    # search returns would leave the AI's move printed before the line that says so.
    import signal

    import psutil

    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "boomboard", "play", "kaboom", "--rows", "6", "--cols", "7",
               "--x", "alphabeta:time=60", "--o", "human"]
    # a session of its own: Ctrl-C goes to the whole group, as a terminal sends it
    with as_from_a_terminal():
        game = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env, start_new_session=True)
    try:
        searching = psutil.Process(game.pid)
        deadline = time.monotonic() + 120  # starting (and compiling, the first time) takes a while under load
        while not searching.children() and game.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # polling for the AI's process, not waiting for an amount of work
        assert searching.children(), "the AI's move did not start in a process of its own"
        agent = searching.children()[0]
        os.killpg(game.pid, signal.SIGINT)
        out, err = game.communicate(timeout=50)  # well under the search's minute of CPU
    finally:
        if game.poll() is None:
            game.kill()
    assert game.returncode == 130, err
    assert out.rstrip().endswith("Game stopped (Ctrl-C).") and "X plays" not in out
    # nothing on standard error but, on a machine's first game, the notice that it compiles
    assert all(line.startswith("boomboard: compiling") for line in err.splitlines()), err
    assert not agent.is_running() or agent.status() == psutil.STATUS_ZOMBIE
