"""Proof by search (boomboard.search.prover): the value it proves is the
solver's on small boards, full-depth alpha-beta's, and Pascal Pons' on a
sample of his published Connect-4 test positions; a budget ends in "not
proved", never a guess."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import boomboard
from boomboard import solver
from boomboard.core.errors import BoomboardError, GameOverError
from boomboard.games.kaboom import bitboard
from boomboard.search.alphabeta import AlphaBeta
from boomboard.search.prover import NotProvedError, Prover, proved_so_far
from no_jit import run_json_script

PONS = json.loads((Path(__file__).parent.parent / "benchmarks" / "published" / "pons-connect4.json").read_text())
CONNECT4 = "kaboom(rows=6,cols=7,bombs=0)"


def connect4_position(moves: str):
    """The 7x6 Connect-4 position after Pons' move string (columns 1 to 7)."""
    state = boomboard.load_game(CONNECT4).new_initial_state()
    for column in moves:
        state.apply_action(int(column) - 1)
    return state


def pons_score(pieces: int, value: str, plies: int | None) -> int:
    """Pons' score of a proof of a position with ``pieces`` on the 7x6 board:
    a win whose winning piece comes with ``n`` pieces on the board before it
    scores (42 + 1 - n) // 2 (his rule, stated with the data)."""
    if value == "tie":
        return 0
    magnitude = (42 + 1 - (pieces + plies - 1)) // 2
    return magnitude if value == "win" else -magnitude


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return tmp_path_factory.mktemp("solved")


# Kaboom's variants, its moves ordered by threats (games/kaboom/threats.py), and a
# game that gives no ordering of its own (its evaluation orders, search/proof_order.py).
@pytest.mark.parametrize("name", ["kaboom(rows=3,cols=3,connect=3)", "kaboom(rows=3,cols=3,connect=3,misere=true)",
                                  "kaboom(rows=4,cols=4,bombs=0)", "kaboom(rows=3,cols=4,connect=3,bombs=2)",
                                  "kaboom(rows=3,cols=4,connect=3,bombs=1,superbomb=true)",
                                  "kaboom(rows=4,cols=4,connect=3,bombs=1,misere=true)",
                                  "kaboom(rows=3,cols=4,connect=3,bombs=1,misere=true,superbomb=true)",
                                  "jump61(size=3)"])
def test_the_proof_is_the_tables_value_and_remoteness(db, name):
    table = solver.solve(boomboard.load_game(name), db=db, progress=False, settings=solver.SolveSettings(method="memory"))
    prover = Prover(table.game, table_bits=16)
    rng = random.Random(name)
    seen = {"win": 0, "lose": 0, "tie": 0}
    for _ in range(40):
        state = table.state_at(rng.randrange(len(table)))
        entry = table.lookup(state)
        proof = prover.prove(state, best_moves=True)
        assert proof.value == entry.value, state.to_notation()
        assert proof.plies == (None if entry.value == "tie" else entry.remoteness), state.to_notation()
        analysis = solver.analyze(state, db=db)
        first = analysis.moves[0]
        assert proof.best_moves == sorted(m.action for m in analysis.moves if m.value == first.value
                                          and (m.value == "tie" or m.remoteness == first.remoteness))
        # the value known, one search a move says which keep it: with its plies, and the value alone
        plies = None if entry.value == "tie" else entry.remoteness
        assert [m.action for m in analysis.moves if prover.keeps(state, m.action, entry.value, plies)] == \
            [m.action for m in analysis.moves if m.value == first.value
             and (m.value == "tie" or m.remoteness == first.remoteness)], state.to_notation()
        assert {m.action for m in analysis.moves if prover.keeps(state, m.action, entry.value)} == \
            {m.action for m in analysis.moves if m.value == first.value}, state.to_notation()
        seen[entry.value] += 1
    assert seen["win"] and seen["lose"]  # the sample tried both results


# Kaboom's variants on the bitboards of its proof engine (games/kaboom/proof_engine.py), each
# against the same prover on state arrays: bombs or none, misère, super-bombs, 3 or 4 in a row.
BITBOARD_VARIANTS = ["kaboom(rows=4,cols=4,bombs=0)", "kaboom(rows=4,cols=5,connect=3,bombs=0)",
                     "kaboom(rows=4,cols=4,connect=3,bombs=1)", "kaboom(rows=3,cols=4,connect=3,bombs=2,misere=true)",
                     "kaboom(rows=4,cols=4,connect=3,bombs=1,superbomb=true)",
                     "kaboom(rows=4,cols=4,bombs=1,misere=true,superbomb=true)", "kaboom(rows=5,cols=5,bombs=1)"]


def random_positions(name: str, count: int, seed: int = 0) -> list:
    """Ongoing positions of seeded random games, at least a third of the way in (quick to prove)."""
    game = boomboard.load_game(name)
    rng = random.Random(f"{name}-{seed}")
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(game["rows"] * game["cols"] // 3, game.max_game_length())):
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if not state.is_terminal():
            found.append(state)
    return found


@pytest.mark.parametrize("name", BITBOARD_VARIANTS)
def test_the_bitboard_prover_proves_what_the_array_prover_proves(name):
    game = boomboard.load_game(name)
    bitboards, arrays = Prover(game, table_bits=16), Prover(game, table_bits=16, own_engine=False)
    assert bitboards.stack.dtype == np.uint64 and bitboards.stack.shape[1] == bitboard.WORDS
    assert arrays.stack.dtype == np.int32
    seen = set()
    for state in random_positions(name, 12):
        first, second = (prover.prove(state, best_moves=True) for prover in (bitboards, arrays))
        assert (first.value, first.plies, first.best_moves) == (second.value, second.plies, second.best_moves), \
            state.to_notation()
        seen.add(first.value)
    assert len(seen) >= 2  # the sample is not all one result


def test_a_board_larger_than_the_bitboards_is_proved_on_state_arrays():
    game = boomboard.load_game("kaboom(rows=12,cols=5,connect=3,bombs=0)")  # 13 * 5 bits: one too many
    prover = Prover(game, table_bits=12)
    assert prover.stack.dtype == np.int32
    state = game.new_initial_state()
    for action in (0, 1, 0, 1):
        state.apply_action(action)
    proof = prover.prove(state, best_moves=True)
    assert (proof.value, proof.plies, proof.best_moves) == ("win", 1, [0])


def test_the_proof_is_full_depth_alphabetas_on_connect4_endgames():
    game = boomboard.load_game(CONNECT4)
    prover, searcher = Prover(game, table_bits=18), AlphaBeta(game, table_bits=18)
    for moves, _ in PONS["sets"]["Test_L3_R1"]["positions"][:8]:
        state = connect4_position(moves)
        proof = prover.prove(state)
        searcher.clear()
        result = searcher.search(state, depth=42 - len(moves))
        forced = result.forced_result
        expected = ("tie", None) if forced is None else ("win", forced) if forced > 0 else ("lose", -forced)
        assert (proof.value, proof.plies) == expected, moves


@pytest.mark.parametrize("test_set", sorted(PONS["sets"]))
def test_the_proof_gives_pons_scores(test_set):
    """Pons' exact score: the value, and how early the win comes (searched on bitboards)."""
    prover = Prover(boomboard.load_game(CONNECT4), table_bits=20)
    assert prover.stack.dtype == np.uint64
    for moves, score in PONS["sets"][test_set]["positions"]:
        proof = prover.prove(connect4_position(moves), seconds=120)
        assert pons_score(len(moves), proof.value, proof.plies) == score, moves


def test_a_fast_win_is_proved_without_first_searching_whether_it_wins_at_all():
    """As Pons' solve(): the bisection first asks for a fast win (cut short
    by the best score a node can still reach), not for a win in any number
    of plies (the whole tree to the end), so the exact proof of an opening
    won in 13 plies costs fewer nodes than proving only that it wins."""
    position = connect4_position("32164625")  # Test_L1_R1's first: a win in 13 plies
    prover = Prover(boomboard.load_game(CONNECT4), table_bits=20)
    exact = prover.prove(position)
    prover.clear()
    value_only = prover.prove(position, exact=False)
    assert (exact.value, exact.plies, value_only.value) == ("win", 13, "win")
    assert exact.nodes < value_only.nodes


def test_a_budget_ends_in_not_proved():
    prover = Prover(boomboard.load_game(CONNECT4), table_bits=12)
    with pytest.raises(NotProvedError, match="not proved within the limit .1,000 nodes"):
        prover.prove(boomboard.load_game(CONNECT4).new_initial_state(), nodes=1000)
    with pytest.raises(NotProvedError, match="not proved"):
        prover.prove(connect4_position("4444"), seconds=0)


# Test_L2_R1's first position (a win in 11 plies) and Test_L1_R1's (a win in 13)
@pytest.mark.parametrize("moves", [PONS["sets"]["Test_L2_R1"]["positions"][0][0], "32164625"])
def test_a_proof_stopped_at_its_budget_says_what_it_had_proved_and_that_holds(moves):
    """Stopped at a fifth to nineteen twentieths of the nodes its whole proof takes, a proof says what its
    searches had settled, and each clause is true of the whole proof's value and plies."""
    game = boomboard.load_game(CONNECT4)
    position = connect4_position(moves)
    whole = Prover(game, table_bits=20).prove(position)
    said = []
    for share in (0.2, 0.5, 0.8, 0.95):
        with pytest.raises(NotProvedError) as stopped:
            Prover(game, table_bits=20).prove(position, nodes=int(whole.nodes * share))
        assert stopped.value.proved in str(stopped.value)
        said += [clause for clause in stopped.value.proved.split(", ") if clause]
    assert said and all(holds(clause, whole.value, whole.plies) for clause in said), (whole, said)


def holds(clause: str, value: str, plies: int | None) -> bool:
    """Whether ``clause`` of a stopped proof's words is true of a position proved ``value`` in ``plies``."""
    import re

    if clause in ("a tie", "at least a tie", "at most a tie"):
        return {"a tie": value == "tie", "at least a tie": value != "lose", "at most a tie": value != "win"}[clause]
    never = re.fullmatch(r"no (loss|win) in fewer than (\d+) plies", clause)
    if never:
        return value != {"loss": "lose", "win": "win"}[never[1]] or plies >= int(never[2])
    proved = re.fullmatch(r"a (loss|win) in (\d+)(?: to (\d+))? plies", clause)
    assert proved, clause
    low, high = int(proved[2]), int(proved[3] or proved[2])
    return value == {"loss": "lose", "win": "win"}[proved[1]] and low <= plies <= high


def test_the_words_of_what_a_stopped_proof_knows():
    # a game that can last 10 more plies: on the scale, a win in d plies is 11 - d, a loss in d plies d - 11
    assert [proved_so_far(low, high, 10, True) for low, high in
            [(-10, 10), (0, 10), (-10, 0), (-3, 4), (2, 5), (3, 3), (-4, -4), (0, 0), (-10, -9)]] == [
        "", "at least a tie", "at most a tie", "no loss in fewer than 8 plies, no win in fewer than 7 plies",
        "a win in 6 to 9 plies", "a win in 8 plies", "a loss in 7 plies", "a tie", "a loss in 1 to 2 plies"]
    assert [proved_so_far(low, high, 10, False) for low, high in [(-1, 1), (0, 1), (1, 1), (-1, -1)]] == [
        "", "at least a tie", "a win", "a loss"]


def test_what_cannot_be_proved_is_refused():
    with pytest.raises(BoomboardError, match="history rules"):
        Prover(boomboard.load_game("expendibots"))
    game = boomboard.load_game("kaboom(rows=3,cols=3,connect=3)")
    with pytest.raises(BoomboardError, match="bits"):
        Prover(game, table_bits=40)
    state = game.new_initial_state()
    for action in (0, 1, 0, 1, 0):
        state.apply_action(action)
    with pytest.raises(GameOverError):
        Prover(game, table_bits=10).prove(state)
    with pytest.raises(BoomboardError, match="this prover is for"):
        Prover(game, table_bits=10).prove(boomboard.load_game("kaboom").new_initial_state())
    prover, start = Prover(game, table_bits=10), game.new_initial_state()
    with pytest.raises(GameOverError):
        prover.keeps(state, 2, "win")
    with pytest.raises(BoomboardError, match="not a legal action"):
        prover.keeps(start, 9, "tie")
    with pytest.raises(BoomboardError, match="win, lose or tie, not 'draw'"):
        prover.keeps(start, 4, "draw")
    longest = game.max_game_length()
    with pytest.raises(BoomboardError, match=f"1 to {longest} plies in this game, not {longest + 1}"):
        prover.keeps(start, 4, "win", longest + 1)


PLAIN_PYTHON = """
import json, boomboard
from boomboard.search.prover import Prover
game = boomboard.load_game("kaboom(rows=3,cols=3,connect=3)")
state = game.new_initial_state()
for action in (4, 4, 0):
    state.apply_action(action)
proof = Prover(game, table_bits=12).prove(state, best_moves=True)
print(json.dumps([proof.value, proof.plies, proof.best_moves]))
"""


def test_the_prover_runs_as_plain_python_with_the_same_proof():
    assert run_json_script(PLAIN_PYTHON, "1") == run_json_script(PLAIN_PYTHON, "0")


LOADED_WHEN_MADE = """
import json, boomboard
from boomboard.search.prover import Prover
game = boomboard.load_game("kaboom(rows=4,cols=5,bombs=0)")
prover = Prover(game, table_bits=10)
search = prover.engine.search
print(json.dumps([bool(k.dispatcher.signatures) for k in (search.prove_score, search.prove_window,
                                                          game.kernels.legal_actions, game.kernels.apply_action)]))
"""


def test_a_prover_has_its_search_loaded_when_made():
    """A fresh process: once a Prover is made, every compiled function its
    proofs call is loaded, so a proof's budget and its reported CPU time are
    the search's alone (from an empty cache, compiling took 15 CPU s of the
    first ``analyze --prove``'s time)."""
    assert run_json_script(LOADED_WHEN_MADE, "0") == [True] * 4


def run_cli(*args):
    env = {**os.environ, "COLUMNS": "120"}
    return subprocess.run([sys.executable, "-m", "boomboard", *args], capture_output=True, text=True, timeout=600,
                          env=env)


def test_analyze_prove_on_the_command_line(db):
    position = "(x 0 0 xoxx o@*o -ooo -xxx)"  # Kaboom 4x4: detonating C2 wins at once, dropping in A later
    done = run_cli("analyze", "kaboom", position, "--prove")
    assert done.returncode == 0, done.stderr
    assert "value: win in 1 ply for x (the player to move), proved by search" in done.stdout
    assert "best moves: C2!" in done.stdout and "nodes in" in done.stdout
    done = run_cli("analyze", "kaboom", "--rows", "6", "--cols", "7", "--bombs", "0", "--prove", "--prove-nodes", "500")
    assert done.returncode == 2
    said = done.stdout + done.stderr  # the command's errors go where its other errors go
    assert "not proved within the limit (500 nodes" in said and "Traceback" not in said
    done = run_cli("analyze", "expendibots", "--prove")
    assert done.returncode == 2 and "history rules" in done.stdout + done.stderr


def test_threads_with_their_own_provers_get_the_one_threads_proofs():
    from concurrent.futures import ThreadPoolExecutor

    game = boomboard.load_game(CONNECT4)  # one game object, its compiled kernels shared by the threads
    positions = [moves for moves, _ in PONS["sets"]["Test_L3_R1"]["positions"][:8]]

    def proofs(_):
        prover = Prover(game, table_bits=16)
        return [(p.value, p.plies) for p in (prover.prove(connect4_position(m)) for m in positions)]

    alone = proofs(None)
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(proofs, range(2))) == [alone, alone]


def test_a_prover_used_by_a_second_thread_meanwhile_says_so():
    from boomboard.core.threads import ConcurrentUseError
    from test_threads import from_another_thread

    game = boomboard.load_game(CONNECT4)
    prover = Prover(game, table_bits=16)
    position = connect4_position(PONS["sets"]["Test_L3_R1"]["positions"][0][0])
    seen, prove = [], prover._prove

    def prove_meanwhile(*args):  # runs inside the first thread's proof
        seen.append(from_another_thread(lambda: prover.prove(position)))
        return prove(*args)

    prover._prove = prove_meanwhile
    expected = prover.prove(position)
    assert isinstance(seen[0], ConcurrentUseError)
    del prover._prove
    assert prover.prove(position).value == expected.value  # free again once the first is out
