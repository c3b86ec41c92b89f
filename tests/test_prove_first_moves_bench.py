"""benchmarks/prove_first_moves.py: every first move and the start, proved in parts that resume, each the
solver's value, and a position out of time reported with what was proved."""

from __future__ import annotations

import json

import boomboard
from benchmark_scripts import load_benchmark
from boomboard import solver

GAME = "kaboom(rows=3,cols=4,connect=3,bombs=1)"


def test_the_parts_prove_every_first_move_and_the_start_once_each_as_the_table_says(tmp_path):
    bench = load_benchmark("prove_first_moves")
    files = [tmp_path / f"part-{k}.jsonl" for k in (0, 1)]
    for k, out in enumerate(files):
        bench.main([GAME, "--seconds", "60", "--table-bits", "16", "--part", f"{k}/2", "--out", str(out)])
    rows = [json.loads(line) for out in files for line in out.read_text().splitlines()]
    game = boomboard.load_game(GAME)
    start = game.new_initial_state()
    assert sorted(row["position"] for row in rows) == sorted([start.action_to_string(a) for a in start.legal_actions()]
                                                             + ["start"])
    table = solver.solve(game, db=tmp_path / "solved", progress=False)
    for row in rows:
        state = start.clone()
        if row["position"] != "start":
            state.apply_action(state.string_to_action(row["position"]))
        entry = table.lookup(state)
        assert row["proved"] and row["mover"] == state.current_player(), row
        assert (row["value"], row["plies"]) == (entry.value, None if entry.value == "tie" else entry.remoteness), row
    before = files[0].read_text()
    bench.main([GAME, "--seconds", "60", "--table-bits", "16", "--part", "0/2", "--out", str(files[0])])
    assert files[0].read_text() == before  # a rerun goes on from what is there: here, nothing is left


def test_a_position_out_of_time_is_kept_with_what_was_proved(tmp_path, capsys):
    bench = load_benchmark("prove_first_moves")
    out = tmp_path / "first-moves.jsonl"
    bench.main(["kaboom(rows=5,cols=5,bombs=1)", "--seconds", "0.5", "--table-bits", "16", "--part", "3/10",
                "--out", str(out)])
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert not row["proved"] and row["seconds"] >= 0.5 and row["nodes"] > 0
    bench.main(["--report", str(out)])
    assert f"| {row['position']} | the second player | not proved; proved so far: " in capsys.readouterr().out
