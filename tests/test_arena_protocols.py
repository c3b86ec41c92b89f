"""The games' own protocols: the engine protocol, the Expendibots course's
Player, referee and puzzle, and the Jump61 text program."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest

import boomboard
from boomboard.arena.referee import Limits, play_game
from boomboard.core.errors import BoomboardError
from boomboard.games.expendibots.course.puzzle import lower_bound, solve_puzzle

AGENTS = Path(__file__).parent / "arena_agents"
BOOMBOARD = [sys.executable, "-m", "boomboard"]


def run(args, stdin="", env=None, timeout=300):
    return subprocess.run([*BOOMBOARD, *args], input=stdin, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


# -- the engine protocol --------------------------------------------------------------

ENGINE_SESSION = """protocol_version
game kaboom(rows=4,cols=4)
play B
go
play Z
legal
position?
undo
undo
result
quit
"""


def test_the_engine_protocol_answers_a_scripted_session_exactly():
    done = run(["engine", "--agent", "alphabeta:depth=2"], ENGINE_SESSION)
    assert done.returncode == 0, done.stderr
    answers = done.stdout.split("\n\n")
    assert answers[0] == "= 1"
    assert answers[1] == "= kaboom"
    assert answers[2] == "="
    move = answers[3]
    assert re.fullmatch(r"= [A-D]\*?", move)
    assert answers[4] == "? there is no column Z: the columns run A to D"
    # after B and the engine's move, X has its 4 columns and a bomb to drop
    assert answers[5] == "= A; B; C; D; A*; B*; C*; D*" or "*" not in move
    state = boomboard.load_game("kaboom").new_initial_state()
    state.play("B")
    state.play(move[2:])
    assert answers[6] == "= " + state.to_notation()
    assert answers[7:10] == ["=", "=", "= ongoing"]
    assert answers[10] == "= bye"


def test_an_external_engine_plays_in_the_arena():
    engine = f"engine:{sys.executable} -m boomboard engine --agent random"
    result = play_game("kaboom", [engine, "random"], Limits(move_wall=30), seed=4)
    state = boomboard.load_game("kaboom").new_initial_state()
    for action in result.actions:
        state.apply_action(action)
    assert state.is_terminal() and result.reason == state.outcome().describe(state.game.player_names)


def test_an_engine_that_answers_nonsense_loses(tmp_path):
    script = tmp_path / "bad_engine.py"
    script.write_text("import sys\nfor line in sys.stdin:\n"
                      "    print('= Q9' if line.startswith('go') else '=', end='\\n\\n', flush=True)\n")
    result = play_game("kaboom", ["random", f"engine:{sys.executable} {script}"], Limits(move_wall=30), seed=1)
    assert result.winner == 0
    # unparsable text is "malformed" (issue 15, item 7), not an exception of ours
    assert "o (engine:" in result.reason and "forfeits: malformed: " in result.reason
    assert "'Q9'" in result.reason


# -- the Expendibots course ---------------------------------------------------------------

def test_a_course_player_plays_in_the_arena_and_bad_ones_lose():
    course = f"course:{AGENTS / 'course_random.py'}"
    result = play_game("expendibots", [course, "greedy"], Limits.course(), seed=1)
    assert result.winner == 1 and "wins" in result.reason and len(result.actions) > 2
    off_board = play_game("expendibots", [f"{course[:-3]}.py:OffBoard", "random"], Limits.course(), seed=1)
    assert "forfeits: malformed: the action ('MOVE', 1, (0, 0), (0, -1))" in off_board.reason
    nonsense = play_game("expendibots", ["random", f"{course}:NotAnAction"], Limits.course(), seed=1)
    assert nonsense.winner == 0 and "forfeits: malformed: the action 'BOOM!'" in nonsense.reason


def test_a_course_player_in_a_game_without_a_course_protocol_is_refused_in_one_line():
    from boomboard.arena.course import CourseAgent

    class Anything:
        def __init__(self, colour):
            pass

    with pytest.raises(BoomboardError, match="a course Player plays only a game with a course protocol; kaboom"):
        CourseAgent(Anything).new_game(boomboard.load_game("kaboom"), 0)


def test_the_command_line_finds_each_game_folder_s_course_programs():
    """``boomboard`` adds the commands of every game folder with a ``course``
    package (the contract's item), and of no other, without naming a game."""
    from boomboard.cli.protocols import course_packages
    from boomboard.games import PACKAGE_GAMES

    folders = {target.split(":")[0] for target in PACKAGE_GAMES.values()}
    with_course = {folder for folder in folders
                   if (Path(boomboard.__file__).parent / "games" / folder.split(".")[-1] / "course").is_dir()}
    assert {name.removesuffix(".course") for name in course_packages()} == with_course
    assert len(with_course) == 2  # Expendibots' course and Jump61's
    done = subprocess.run([*BOOMBOARD, "expendibots", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "referee" in done.stdout and "puzzle" in done.stdout
    # The command line built after a course module was imported (as in a test
    # process, or a program that uses both): every command still runs.
    script = ("import boomboard.games.expendibots.course.puzzle, boomboard.cli.main as cli\n"
              "from typer.testing import CliRunner\n"
              "print(CliRunner().invoke(cli.app, ['version']).output)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("boomboard "), done.stdout + done.stderr


def test_the_referee_charges_a_course_players_construction_but_not_its_import():
    """As the course's referee does: ``Player(colour)`` is on the clock (time
    and memory), the module's import is not."""
    course = f"course:{AGENTS / 'course_random.py'}"
    one_second = Limits(game_cpu=1.0, memory_mb=100.0)
    slow = play_game("expendibots", ["greedy", f"{course}:SlowStart"], one_second, seed=1)
    assert slow.winner == 0 and "black" in slow.reason and "forfeits: time:" in slow.reason, slow.reason
    assert "building the player" in slow.reason and not slow.actions
    assert slow.total_cpu[1] > 1.0 and slow.start_up_cpu[1] == slow.total_cpu[1]
    brief = play_game("expendibots", [f"{course}:BriefSlowStart", "greedy"], Limits.course(), seed=1)
    assert "forfeits" not in brief.reason and brief.actions
    assert 0.3 <= brief.start_up_cpu[0] < 1.0 and brief.start_up_cpu[1] == 0.0
    assert brief.total_cpu[0] >= brief.start_up_cpu[0] + sum(brief.cpu[0::2]) - 1e-6
    big = play_game("expendibots", [f"{course}:BigStart", "greedy"], Limits.course(), seed=1)
    assert big.winner == 1 and "forfeits: memory:" in big.reason and "while starting" in big.reason, big.reason
    slow_import = f"course:{AGENTS / 'course_slow_import.py'}"
    free = play_game("expendibots", [slow_import, "greedy"], one_second, seed=1)
    assert "forfeits" not in free.reason and free.start_up_cpu[0] < 0.5, free.reason


COURSE_REFEREE = """
import os, sys, time, tracemalloc
sys.path.insert(0, {agents!r})
import boomboard
from boomboard.games.expendibots.course.player import Player
from course_random import Player as Opponent

# the course referee's loop: action() from the mover, update() on both, mover included
tracemalloc.start()
game = boomboard.load_game("expendibots").new_initial_state()
players = {{"white": Player("white"), "black": Opponent("black")}}
cpu = 0.0
while not game.is_terminal():
    colour = ("white", "black")[game.current_player()]
    began = time.process_time()
    action = players[colour].action()
    if colour == "white":
        cpu += time.process_time() - began
        assert isinstance(action, tuple) and action[0] in ("MOVE", "BOOM"), action
        assert all(type(v) is int for part in action[1:] for v in (part if isinstance(part, tuple) else (part,)))
    game.apply_action(game.tuple_to_action(action))
    for player in players.values():
        player.update(colour, action)
print(game.outcome().winner, len(game.history()), cpu, tracemalloc.get_traced_memory()[1])
"""


def test_our_course_player_finishes_a_game_under_the_course_referee_loop():
    script = COURSE_REFEREE.format(agents=str(AGENTS))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "BOOMBOARD_AGENT": "ai:time=0.05", "BOOMBOARD_SEED": "3"})
    assert done.returncode == 0, done.stderr
    winner, plies, cpu, peak = done.stdout.split()
    assert winner == "0" and int(plies) > 4
    assert float(cpu) < 60 and int(peak) < 100 * 2**20


def test_the_course_player_plays_the_default_agent_without_settings(monkeypatch):
    from boomboard.games.expendibots.course import player as course_player

    monkeypatch.delenv("BOOMBOARD_AGENT", raising=False)
    player = course_player.Player("black")
    assert type(player.agent).__name__ == "AiAgent" and player.agent.settings == {"game_time": 58.0}
    with pytest.raises(ValueError):
        course_player.Player("green")


def test_the_course_player_charges_what_the_course_referee_charges_to_its_agent():
    """Its construction, its updates and the work around each choice count
    against the agent's game budget, as the course's referee counts them."""
    import time

    from boomboard.games.expendibots.course import player as course_player

    class Fixed(course_player.Player):
        agent_spec, seed = "ai:game_time=10", 3

    course_player.prepare(Fixed)
    began = time.process_time()
    player = Fixed("white")
    built = time.process_time() - began
    clock = player.agent.delegate.clock
    assert player.agent.seed == 3 and clock.game_time == 10.0
    assert 0 < clock.used <= built + 1e-6
    charged = time.process_time()
    action = player.action()
    player.update("white", action)
    player.update("black", ("MOVE", 1, (0, 6), (0, 5)))
    spent = time.process_time() - charged
    # everything those calls took, within the clock's resolution, and no more
    assert built + spent + 1e-6 >= clock.used >= 0.9 * spent
    assert course_player.DEFAULT_AGENT == "ai:game_time=58"


def test_the_referee_command_prints_the_course_log():
    course = str(AGENTS / "course_random.py")
    done = run(["expendibots", "referee", "greedy", course, "-v", "1", "-t", "60", "-s", "100", "--seed", "2"])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "* white player: greedy" and lines[1] == f"* black player: course:{course}"
    moves = [line for line in lines[2:-1] if not line.startswith("* ")]
    totals = [line for line in lines if line.startswith(("* white used ", "* black used "))]
    assert len(totals) == 2 and all(re.fullmatch(r"\* (white|black) used \d+\.\d{3} s of CPU \(of 60 s; .*\d+ actions?\)", line)
                                    for line in totals), totals
    assert "building the player" in totals[1] and "building the player" not in totals[0]
    assert moves and all(re.fullmatch(r"\[(white|black)\] - (MOVE \d+ from \(\d, \d\) to \(\d, \d\)|"
                                      r"BOOM at \(\d, \d\))\.", line) for line in moves)
    assert moves[0].startswith("[white] - ") and moves[1].startswith("[black] - ")
    state = boomboard.load_game("expendibots").new_initial_state()
    for line in moves:
        state.play(line.split(" - ", 1)[1])
    outcome = state.outcome()
    expected = (f"winner: {('white', 'black')[outcome.winner]}" if outcome.winner is not None
                else "draw detected: ")
    assert lines[-1].startswith(expected)


# -- the puzzle ------------------------------------------------------------------------------

def white_only_bfs(position: str) -> int:
    """Plain breadth-first search through the public API: the shortest length."""
    game = boomboard.load_game("expendibots")
    start = json.loads(position)
    frontier, seen = deque([(start, 0)]), {json.dumps(start, sort_keys=True)}
    while frontier:
        data, length = frontier.popleft()
        state = game.state_from_notation(json.dumps({**data, "turn": "white"}))
        for action in state.legal_actions():
            child = state.child(action)
            if child.tokens("black") == 0:
                return length + 1
            if child.tokens("white") == 0:
                continue
            after = {"white": [list(s) for s in child.stacks("white")], "black": [list(s) for s in child.stacks("black")]}
            key = json.dumps(after, sort_keys=True)
            if key not in seen:
                seen.add(key)
                frontier.append((after, length + 1))
    raise AssertionError("no solution")


PUZZLES = [
    # one boom reaches the black pair through a chain of whites
    ('{"white": [[1, 3, 3], [1, 4, 4]], "black": [[1, 5, 5], [1, 6, 6]]}', 1),
    # walk a token up to the black stack, then boom
    ('{"white": [[1, 0, 0]], "black": [[1, 0, 3]]}', 3),
    # a stack of two splits to reach two far-apart groups
    ('{"white": [[2, 3, 3]], "black": [[1, 1, 5], [1, 5, 5]]}', None),
    ('{"white": [[1, 0, 0], [1, 7, 0], [1, 3, 3]], "black": [[1, 5, 5], [1, 6, 6], [1, 4, 4], [1, 7, 3], [1, 0, 4]]}',
     None),
]


@pytest.mark.parametrize("position,known", PUZZLES)
def test_the_puzzle_solution_is_shortest_and_clears_black(position, known):
    solution = solve_puzzle(position)
    shortest = white_only_bfs(position)
    assert len(solution) == shortest and (known is None or shortest == known)
    game = boomboard.load_game("expendibots")
    data = json.loads(position)
    for line in solution:
        state = game.state_from_notation(json.dumps({**data, "turn": "white"}))
        state.play(line)
        data = {"white": [list(s) for s in state.stacks("white")], "black": [list(s) for s in state.stacks("black")]}
    assert data["black"] == []


def test_the_puzzle_bound_never_overestimates_on_the_examples():
    import numpy as np

    for position, _ in PUZZLES:
        state = boomboard.load_game("expendibots").state_from_notation(position)
        board = np.asarray(state.array[6:])
        assert lower_bound(board) <= white_only_bfs(position)


def test_the_puzzle_command_prints_one_action_per_line_and_is_fast_on_a_dozen_tokens(tmp_path):
    puzzle = tmp_path / "puzzle.json"
    puzzle.write_text('{"white": [[1, 0, 0], [1, 7, 0], [1, 3, 3]], "black": [[1, 5, 5], [1, 6, 6], [1, 1, 6], '
                      '[1, 2, 7], [1, 0, 7], [1, 6, 2], [1, 7, 3], [1, 4, 4], [2, 5, 7]]}')
    done = run(["expendibots", "puzzle", str(puzzle)], timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 9 and lines[0] == "BOOM at (3, 3)."
    assert all(re.fullmatch(r"MOVE \d+ from \(\d, \d\) to \(\d, \d\)\.|BOOM at \(\d, \d\)\.", line) for line in lines)
    missing = run(["expendibots", "puzzle", str(tmp_path / "none.json")])
    assert missing.returncode == 2 and "cannot read the puzzle" in missing.stdout


# -- the Jump61 text program ------------------------------------------------------------------

JUMP61_SESSION = """manual blue
# two people on a 2x2 board (every square a corner: overfull past 2 spots)
size 2
1 1
dump
1 1
2 2
1 1
du
2 2
1 1
dump
s 3
new
dump
bogus
quit
2 2
"""

# Worked by hand: Red's 1 1 reaches 3 spots and jumps to 1 2 and 2 1; Blue's
# 2 2 then jumps, 1 2 (now 3) jumps next, first in first out, and the board
# is all blue.
JUMP61_OUT = """===
    2r 1-
    1- 1-
===
===
    1r 2r
    2r 2b
===
* Blue wins.
===
    2b 1b
    3b 2b
===
===
    1- 1-
    1- 1-
===
"""

JUMP61_ERR = """error: square 1 1 is red; Blue may add a spot only to a blue or white square
error: the game is over; type new to start another
error: ambiguous command 's': size, set, seed
error: unknown command 'bogus'; type help for the commands
"""


def test_a_scripted_session_prints_exactly_what_the_rulebook_says():
    done = run(["jump61"], JUMP61_SESSION)
    assert (done.returncode, done.stdout, done.stderr) == (0, JUMP61_OUT, JUMP61_ERR)


def test_set_checks_its_square_and_the_parity_picks_the_side_to_move():
    # 9 spots + 2 (set 2 2 3 b) = 11: Red to move; + 1 (set 1 1 2 R) = 12: Blue, the AI, moves at once
    done = run(["jump61"], "size 3\nset 2 2 3 b\ndump\nset 1 1 5 r\nset 1 1 2 x\nSET 1 1 2 R\n")
    assert done.returncode == 0
    board, ai_move = done.stdout[:-1].rsplit("\n", 1)
    assert board == "===\n    1- 1- 1-\n    1- 3b 1-\n    1- 1- 1-\n==="
    row, col = re.fullmatch(r"\* (\d) (\d)\.", ai_move).groups()
    assert (row, col) != ("1", "1")  # Red's square: not Blue's to play
    assert done.stderr == ("error: square 1 1 takes 1..2 spots; got 5\n"
                           "error: the colour must be r or b (or R, B); got 'x'\n")


def test_a_game_against_the_ai_ends_with_its_winner_and_the_moves_replay():
    script = "size 3\nseed 5\n" + "".join(f"{r} {c}\n" for r in (1, 2, 3) for c in (1, 2, 3)) * 4 + "dump\n"
    done = run(["jump61"], script)
    assert done.returncode == 0
    wins = [line for line in done.stdout.splitlines() if line.endswith("wins.")]
    assert len(wins) == 1 and wins[0] in ("* Red wins.", "* Blue wins.")
    assert all(line.startswith("error: ") for line in done.stderr.splitlines())


def relay(first: subprocess.Popen, second: subprocess.Popen, limit: int = 400):
    """Pass each program's '* R C.' lines to the other until one reports a win;
    return the moves, the win line, and the program that made the last move."""
    moves, mover, other = [], first, second
    for _ in range(limit):
        line = mover.stdout.readline().strip()
        if line.endswith("wins."):
            return moves, line, other
        match = re.fullmatch(r"\* (\d+) (\d+)\.", line)
        assert match, line
        moves.append(f"{match.group(1)} {match.group(2)}")
        other.stdin.write(moves[-1] + "\n")
        other.stdin.flush()
        mover, other = other, mover
    raise AssertionError("no winner")


def test_two_instances_play_each_other_by_relaying_moves():
    command = [*BOOMBOARD, "jump61", "--ai", "ai:depth=2"]  # a depth, not a time: the same games however loaded
    red = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    blue = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        red.stdin.write("size 4\nseed 1\nmanual blue\nauto red\n")
        red.stdin.flush()
        blue.stdin.write("size 4\nseed 2\n")
        blue.stdin.flush()
        moves, winner, last_mover = relay(red, blue)
        # the program that made the winning move reports the same winner
        assert last_mover.stdout.readline().strip() == winner
        state = boomboard.load_game("jump61(size=4)").new_initial_state()
        for move in moves:
            state.play(move)
        assert state.is_terminal()
        assert winner == f"* {state.game.player_names[state.outcome().winner].capitalize()} wins."
    finally:
        for process in (red, blue):
            process.stdin.close()
            process.wait(timeout=60)
    assert red.returncode == blue.returncode == 0


def test_the_engine_protocol_carries_a_multiline_position_on_one_line():
    dump = "=== |     2b 1- 1- |     1- 3r 1- |     1- 1- 1- | ==="
    done = run(["engine", "--agent", "random"], f"game jump61(size=3)\nposition {dump}\nposition?\nposition ===\nquit\n")
    answers = done.stdout.split("\n\n")
    assert answers[:3] == ["= jump61(size=3)", "=", f"= {dump}"]
    assert answers[3].startswith("? ") and answers[4] == "= bye"
