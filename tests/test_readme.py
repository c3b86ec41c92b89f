"""README.md's tour runs as written after the set-up command, and prints
what the README shows.

The tour's commands run in one bash shell, in the repository, one after
another as a reader types them (``source .venv/bin/activate`` first), with a
fresh home folder (so the databases start empty) and a terminal 100 columns
wide. The compiled kernels are this machine's (the set-up compiled them, as it
does for a reader): a fresh cache would only add the compiling notes, which
are left aside, and a minute or more of compiling. What a person types at a prompt (``X to move> B``) is fed to the
command. Lines that vary are left aside: progress bars, and the seconds a
solve took; a ``...`` line in the README stands for any lines.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from boomboard.jit import cache_root

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
ACTIVATE = ROOT / ".venv" / "bin" / "activate"
PROMPT = re.compile(r"^(\w+ to move> )(.+)$")

pytestmark = pytest.mark.skipif(not ACTIVATE.exists(), reason="run the set-up command first (scripts/setup)")


def tour() -> str:
    text = README.read_text()
    start = text.index("## A short tour")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def console_commands() -> list[tuple[str, list[str]]]:
    """Each ``$ command`` of the tour's console blocks with the lines the README shows after it."""
    commands = []
    for block in re.findall(r"```console\n(.*?)```", tour(), re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands:
                commands[-1][1].append(line)
    for _, shown in commands:
        while shown and not shown[-1].strip():
            shown.pop()
    return commands


def varying(line: str) -> bool:
    """A progress bar (the tables' own borders aside), or the one-line note that
    a game is being compiled (once per machine, so not in every run)."""
    return ("━" in line and line.lstrip()[:1] not in ("┏", "┡", "┗")) or line.startswith("boomboard: compiling ")


def normalise(line: str) -> str:
    return re.sub(r"solved in [\d.]+ s", "solved in N s", line.rstrip())


def with_input(output: str, typed: list[str]) -> list[str]:
    """The output as a terminal shows it: each typed line after its prompt."""
    at = 0
    for line in typed:
        prompt = re.compile(r"\w+ to move> ").search(output, at)
        assert prompt, f"no prompt left for the input {line!r}"
        at = prompt.end()
        output = output[:at] + line + "\n" + output[at:]
        at += len(line) + 1
    return output.splitlines()


def typed_lines(shown: list[str]) -> list[str]:
    """What the README shows a person typing at a prompt (the end of input,
    shown as the game stopping, is not typed)."""
    return [m.group(2) for m in map(PROMPT.match, shown) if m and m.group(2) != "Game stopped."]


def compare(command: str, shown: list[str], actual: list[str]) -> None:
    shown = [normalise(line) for line in shown]
    actual = [normalise(line) for line in actual if not varying(line)]
    i = 0
    j = 0
    while j < len(shown):
        if shown[j] == "...":
            j += 1
            if j == len(shown):
                return
            while i < len(actual) and actual[i] != shown[j]:
                i += 1
        assert i < len(actual), f"{command}: the README shows {shown[j]!r}, the output ended\n" + "\n".join(actual)
        assert actual[i] == shown[j], (f"{command}: line {i + 1} is\n{actual[i]!r}\nthe README shows\n{shown[j]!r}\n"
                                       "whole output:\n" + "\n".join(actual))
        i += 1
        j += 1
    assert i == len(actual), f"{command}: more output than the README shows: {actual[i:]}"


def test_the_tour_starts_by_activating_the_environment_the_set_up_made():
    assert console_commands()[0] == ("source .venv/bin/activate", [])
    setup = (ROOT / "scripts" / "setup").read_text()
    assert "source .venv/bin/activate" in setup  # the set-up command says how


def test_every_command_of_the_tour_runs_as_written_and_prints_what_the_readme_shows(tmp_path):
    commands = console_commands()
    script = ["set -u"]
    inputs = []
    for index, (command, shown) in enumerate(commands):
        typed = typed_lines(shown)
        inputs.append(typed)
        feed = tmp_path / f"input-{index}"
        feed.write_text("".join(line + "\n" for line in typed))
        script.append(f"echo '@@@ {index}'")
        script.append(f"{command} < {feed} 2>&1 || echo '@@@ failed with status '$?")
    home = tmp_path / "home"
    home.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("XDG_", "BOOMBOARD_", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), COLUMNS="100", LINES="50", TERM="dumb", NO_COLOR="1",
               PATH="/usr/local/bin:/usr/bin:/bin", NUMBA_CACHE_DIR=str(cache_root()))
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    outputs = re.split(r"^@@@ \d+\n", done.stdout, flags=re.M)[1:]
    assert len(outputs) == len(commands), done.stdout
    for (command, shown), output, typed in zip(commands, outputs, inputs):
        assert "@@@ failed" not in output, f"{command} failed:\n{output}"
        compare(command, shown, with_input(output, typed))


def test_the_python_example_of_the_tour_prints_what_its_comments_say():
    code = re.search(r"```python\n(.*?)```", tour(), re.S).group(1)
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for expected in ("['A', 'C2!']", "X wins: connected 4 in a row", "[1.0, -1.0]",
                     '{"game":"kaboom","actions":[14],"position":"(x 0 0 xoxx o@*o -ooo -xxx)"}'):
        assert expected in done.stdout
