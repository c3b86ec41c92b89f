"""benchmarks/small_boards.py: its dense solves give the values the lab's
in-memory solve gives, a second run resumes without solving again, and its
records draw as the lab's pictures."""

from __future__ import annotations


import pytest

from boomboard.lab.measure import solve_exactly
from boomboard.registry import load_game
from benchmark_scripts import load_benchmark

VARIANTS = ["kaboom(rows=3,cols=3,connect=3)", "kaboom(rows=2,cols=4,bombs=1,misere=True,superbomb=True)"]


@pytest.fixture(scope="module")
def small_boards():
    return load_benchmark("small_boards")


@pytest.fixture(scope="module")
def solved(small_boards, tmp_path_factory):
    folder = tmp_path_factory.mktemp("small")
    variants = folder / "variants.txt"
    variants.write_text("\n".join(VARIANTS) + "\n")
    out = folder / "results.jsonl"
    small_boards.solve_all(variants, folder / "db", out)
    return folder, variants, out


def test_dense_solves_agree_with_the_labs_in_memory_solve(solved, small_boards, tmp_path):
    records = small_boards.read_results(solved[2])
    assert [record["variant"] for record in records] == VARIANTS
    for record in records:
        exact = solve_exactly(load_game(record["variant"]), 1_000_000, tmp_path / "memory")
        assert (record["start"]["value"], record["start"]["remoteness"]) == (exact["value"], exact["remoteness"])
        by_move = {move["move"]: (move["value"], move["remoteness"]) for move in exact["moves"]}
        assert {move["move"]: (move["value"], move["remoteness"]) for move in record["moves"]} == by_move


def test_a_second_run_resumes_without_solving_again(solved, small_boards):
    folder, variants, out = solved
    before = out.read_text()
    small_boards.solve_all(variants, folder / "db", out)
    assert out.read_text() == before


def test_the_records_draw_as_the_labs_pictures_and_table(solved, small_boards, tmp_path):
    records = small_boards.read_results(solved[2])
    lines = small_boards.table(records)
    assert len(lines) == 2 + len(records)
    rows = small_boards.rows_of(records)
    assert [row.params for row in rows] == [record["params"] for record in records]
    written = small_boards.write_pictures(rows, "kaboom", ["rows", "cols", "connect", "bombs", "misere",
                                                           "superbomb"], tmp_path, "svg")
    assert written and all(path.stat().st_size > 0 for path in written)
    text = "".join(path.read_text() for path in written)
    assert all(f"variant:{record['game_string']}" in text for record in records)
