"""benchmarks/bdd_vs_dense.py reads the start's value and the position count
from the BDD solver's output and boomboard solve's summary. The samples are
written here in the shape of those programs' print statements (numbers made
up, kept consistent), not taken from a run."""

from __future__ import annotations

import sys

import pytest
from benchmark_scripts import load_benchmark



@pytest.fixture(scope="module")
def bench():
    yield load_benchmark("bdd_vs_dense", "bdd_vs_dense_bench")
    del sys.modules["bdd_vs_dense_bench"]


def bdd_output(ply0: str, ply1: str = "win=2 draw=1 loss=0 term=0 / total=3 in 0.001 seconds") -> str:
    # A 3-wide board: the forward pass, then the backward pass from the last ply
    # to ply 0. Ply 1's line comes first and must not be taken for ply 0's.
    return f"""Made directory solution_w3_h4.


Reachable states computation:

Ply 0/12: BDD(1) 1
Ply 1/12: PlyBDD(9) with satcount = 3 in 0.001 seconds
Ply 2/12: PlyBDD(17) with satcount = 9 in 0.001 seconds

Total number of positions for width=3 x height=4 board: 4321

Finished computing reachable states in 0.010 seconds.


Retrograde analysis:

Ply 12/12:
  Wrote 5 nodes to file solution_w3_h4/bdd_w3_h4_12_win.10.bin.
  win=0 draw=20 loss=7 term=7 / total=27 in 0.002 seconds
Ply 1/12:
  Wrote 3 nodes to file solution_w3_h4/bdd_w3_h4_1_win.10.bin.
  {ply1}
Ply 0/12:
  Wrote 1 nodes to file solution_w3_h4/bdd_w3_h4_0_win.10.bin.
  Wrote 4 nodes to file solution_w3_h4/bdd_w3_h4_0_draw.10.bin.
  Wrote 1 nodes to file solution_w3_h4/bdd_w3_h4_0_loss.10.bin.
  {ply0}
DEINIT GC: Forced GC started ... done
No memory leak detected.

Finished in 0.100 seconds.
"""


@pytest.mark.parametrize(("ply0", "value"), [
    ("win=0 draw=1 loss=0 term=0 / total=1 in 0.001 seconds", "tie"),
    ("win=1 draw=0 loss=0 term=0 / total=1 in 0.001 seconds", "win"),
    ("win=0 draw=0 loss=1 term=0 / total=1 in 0.001 seconds", "lose"),
])
def test_the_bdd_start_value_is_ply_zeros_and_the_count_the_forward_total(bench, ply0, value):
    assert bench.parse_bdd_output(bdd_output(ply0)) == (value, 4321)


def test_an_unfinished_bdd_run_is_refused_rather_than_read_from_another_ply(bench):
    cut = bdd_output("win=0 draw=1 loss=0 term=0 / total=1 in 0.001 seconds").split("Ply 0/12:\n")[0]
    with pytest.raises(ValueError, match="ply-0"):
        bench.parse_bdd_output(cut)


def test_a_ply_zero_holding_more_than_the_empty_board_is_refused(bench):
    with pytest.raises(ValueError, match="one position"):
        bench.parse_bdd_output(bdd_output("win=1 draw=1 loss=0 term=0 / total=2 in 0.001 seconds"))


def test_the_dense_summary_gives_value_remoteness_and_records(bench):
    text = ("kaboom(rows=3,bombs=0) (start): 1,234 positions in 5,678 dense records (mirror images once), "
            "solved in 1.0 s, 999 bytes in /x\nvalues: 1 win, 2 lose, 1,231 tie; longest remoteness 12\n"
            "start: lose in 11 for x (the player to move)\n")
    assert bench.parse_dense_output(text) == ("lose", 11, 5678)


def test_a_board_disagreeing_with_tromp_is_marked(bench):
    published = {"result": {"6x4": "-"}, "position_count": {"6x4": 100}}
    dense = bench.Run(1.0, 10.0, 2**20, "lose", remoteness=30, records=50)
    agreeing = bench.Run(2.0, 20.0, 2**21, "lose", positions=100)
    assert bench.table_line("6x4", published, dense, agreeing)[1]
    miscounted = bench.Run(2.0, 20.0, 2**21, "lose", positions=101)
    line, same = bench.table_line("6x4", published, dense, miscounted)
    assert not same and line.endswith("| NO |")
    other_value = bench.Run(1.0, 10.0, 2**20, "tie", remoteness=30, records=50)
    assert not bench.table_line("6x4", published, other_value, agreeing)[1]


def test_a_board_is_width_by_height_with_the_bdd_table_size(bench):
    assert bench.parse_board("7x4:26") == (7, 4, 26)
    with pytest.raises(SystemExit, match="WIDTHxHEIGHT"):
        bench.parse_board("7x4")
