"""A solved table's files are bound to it: a valid file from another level,
another table or another variant of the game is refused when opened, with
one line naming the file; ``solve --verify`` prints only what it counted
from the records."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

import boomboard
from boomboard import solver
from boomboard.agents import make_agent
from boomboard.cli.main import main
from boomboard.solver.format.blockstore import CorruptTableError
from boomboard.solver.dense.store import level_path
from boomboard.solver.table import load_table

GAME = "kaboom(rows=2,cols=3,connect=2,bombs=1)"
MISERE = "kaboom(rows=2,cols=3,connect=2,bombs=1,misere=true)"  # the same layout, other values


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """The dense and hashed tables of GAME and of its misère variant."""
    db = tmp_path_factory.mktemp("tables")
    for name in (GAME, MISERE):
        solver.solve(boomboard.load_game(name), db=db / "dense", progress=False, settings=solver.SolveSettings(method="dense"))
        solver.solve(boomboard.load_game(name), db=db / "hashed", progress=False, settings=solver.SolveSettings(method="memory"))
    return db


def _copy(db: Path, tmp_path: Path, kind: str, name: str = GAME) -> tuple[Path, Path]:
    """A copy of ``kind``'s database, and the folder of ``name``'s table in it."""
    copy = tmp_path / kind
    shutil.copytree(db / kind, copy)
    solver.table._OPENED.clear()
    return copy, solver.table.table_dir(boomboard.load_game(name), "start", copy)


def _level_of(path: Path) -> int:
    return int(path.stem.split("-")[1])


def _swap(first: Path, second: Path) -> None:
    aside = first.with_name("aside")
    os.replace(first, aside)
    os.replace(second, first)
    os.replace(aside, second)


def _assert_refused_naming(caught, path: Path, named: str | None = None) -> None:
    message = str(caught.value)
    assert (named or str(path)) in message and "\n" not in message, message
    assert "belongs elsewhere" in message and "--force" in message, message


def _run(monkeypatch, capsys, *argv) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["boomboard", *argv])
    try:
        main()
        code = 0
    except SystemExit as exit_:
        code = exit_.code or 0
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _assert_one_error_line(code: int, out: str, *words: str) -> None:
    assert code == 2, out
    # one message (rich wraps it at the console's width when it is not a terminal)
    assert out.lstrip().startswith("error: ") and out.count("error:") == 1, out
    assert "Traceback" not in out and "value:" not in out and "verified" not in out, out
    for word in words:
        assert word in out.replace("\n", ""), out


def test_every_pair_of_swapped_level_files_is_refused_naming_each_file(db, tmp_path):
    _, folder = _copy(db, tmp_path, "dense")
    game = boomboard.load_game(GAME)
    files = sorted(folder.glob("level-*.blocks"))
    assert len(files) >= 30
    for first, second in itertools.combinations(files, 2):
        _swap(first, second)
        table = load_table(game, folder)
        for path in (first, second):
            with pytest.raises(CorruptTableError) as caught:
                table.level(_level_of(path))
            _assert_refused_naming(caught, path)
        _swap(first, second)
    table = load_table(game, folder)  # swapped back: every level reads, and the table holds its truth
    table.check()
    assert solver.verify(table) is None


def test_a_level_file_from_the_misere_table_is_refused_naming_it(db, tmp_path):
    _, folder = _copy(db, tmp_path, "dense")
    _, other = _copy(db, tmp_path / "misere", "dense", MISERE)
    game = boomboard.load_game(GAME)
    for path in sorted(folder.glob("level-*.blocks")):
        kept = path.read_bytes()
        shutil.copyfile(other / path.name, path)  # the same level, of the same size, from the other variant
        with pytest.raises(CorruptTableError) as caught:
            load_table(game, folder).level(_level_of(path))
        _assert_refused_naming(caught, path)
        path.write_bytes(kept)


def _start_level(table) -> int:
    engine = table.layout.engine  # what the passes play on: the state arrays, or the game's dense engine
    start = engine.load(table.game.new_initial_state().array)
    level, _ = table.layout.passes.lookup(table.layout.dspec, engine.params, start, table.symmetric,
                                          table.layout.levels, table.layout.start)
    return int(level)


@pytest.mark.parametrize("command", ["analyze", "solve --verify --quiet"])
def test_commands_refuse_a_swapped_level_with_one_line_naming_it(db, tmp_path, monkeypatch, capsys, command):
    copy, folder = _copy(db, tmp_path, "dense")
    start = level_path(folder, _start_level(load_table(boomboard.load_game(GAME), folder)))
    other = next(p for p in sorted(folder.glob("level-*.blocks"), reverse=True) if p != start)
    _swap(start, other)
    name, *options = command.split()
    code, out = _run(monkeypatch, capsys, name, GAME, "--db", str(copy), *options)
    _assert_one_error_line(code, out, "belongs elsewhere", "--force")
    assert str(start) in out.replace("\n", "") or str(other) in out.replace("\n", ""), out


@pytest.mark.parametrize("command", ["analyze", "solve --verify --quiet"])
def test_commands_refuse_the_misere_tables_levels(db, tmp_path, monkeypatch, capsys, command):
    copy, folder = _copy(db, tmp_path, "dense")
    _, other = _copy(db, tmp_path / "misere", "dense", MISERE)
    for path in folder.glob("level-*.blocks"):
        shutil.copyfile(other / path.name, path)
    name, *options = command.split()
    code, out = _run(monkeypatch, capsys, name, GAME, "--db", str(copy), *options)
    _assert_one_error_line(code, out, "belongs elsewhere", "level-", "--force")


@pytest.mark.parametrize("name", ["keys.blk", "values.blk", "offsets.blk"])
def test_a_hashed_tables_array_from_the_other_variant_or_another_array_is_refused(db, tmp_path, name):
    _, folder = _copy(db, tmp_path, "hashed")
    _, other = _copy(db, tmp_path / "misere", "hashed", MISERE)
    game = boomboard.load_game(GAME)
    kept = (folder / name).read_bytes()
    shutil.copyfile(other / name, folder / name)
    with pytest.raises(CorruptTableError) as caught:
        load_table(game, folder)
    _assert_refused_naming(caught, folder / name, f"{folder}: {name}")  # as a hashed table names its files
    (folder / name).write_bytes(kept)
    for second in {"keys.blk", "values.blk", "offsets.blk"} - {name}:
        _swap(folder / name, folder / second)
        with pytest.raises(CorruptTableError, match=r"\.blk: "):
            load_table(game, folder)
        _swap(folder / name, folder / second)
    assert solver.verify(load_table(game, folder)) is None


def test_opening_a_level_checks_its_header_not_its_blocks(db, tmp_path):
    """The identity costs nothing that grows with the table: opening reads
    the header, the footer and the index; each block's checksum is checked
    when the block is first read."""
    _, folder = _copy(db, tmp_path, "dense")
    table = load_table(boomboard.load_game(GAME), folder)
    biggest = max(folder.glob("level-*.blocks"), key=lambda p: p.stat().st_size)
    records = table.level(_level_of(biggest))
    assert records.decoded == 0 and not records._checked.any()
    records[len(records) - 1]
    assert records.decoded == 1 and records._checked.sum() == 1


@pytest.mark.parametrize("kind", ["dense", "hashed"])
def test_a_table_of_the_older_format_is_refused_with_a_line_saying_what_to_do(db, tmp_path, kind):
    _, folder = _copy(db, tmp_path, kind)
    meta = json.loads((folder / "meta.json").read_text())
    (folder / "meta.json").write_text(json.dumps({**meta, "format": solver.table.FORMAT - 1}))
    with pytest.raises(solver.NotSolvedError) as caught:
        load_table(boomboard.load_game(GAME), folder)
    message = str(caught.value)
    assert str(folder) in message and f"format {solver.table.FORMAT - 1}" in message and "--force" in message


def _counted(table) -> dict:
    """The values of every stored position, counted one entry at a time."""
    counts: dict[str, int] = {}
    for i in range(len(table)):
        try:
            entry = table.entry_at(i)
        except solver.NotSolvedError:  # a dense rank that is no position
            continue
        counts[entry.value] = counts.get(entry.value, 0) + 1
    return counts


@pytest.mark.parametrize("kind", ["dense", "hashed"])
def test_verify_prints_what_it_counted_and_refuses_an_edited_meta(db, tmp_path, monkeypatch, capsys, kind):
    copy, folder = _copy(db, tmp_path, kind)
    game = boomboard.load_game(GAME)
    table = load_table(game, folder)
    counts = _counted(table)
    start = table.lookup(game.new_initial_state())
    code, out = _run(monkeypatch, capsys, "solve", GAME, "--db", str(copy), "--quiet", "--verify")
    assert code == 0, out
    printed = " ".join(out.split())
    assert f"{sum(counts.values()):,} positions" in printed, out
    values = ", ".join(f"{counts[v]:,} {v}" for v in ("win", "lose", "tie", "draw") if counts.get(v))
    assert f"values: {values};" in printed, out
    assert f"start: {start.value} in {start.remoteness}" in printed and "verified" in printed, out

    meta = json.loads((folder / "meta.json").read_text())
    edits = {"values": {**meta["values"], "win": meta["values"]["win"] + 7},
             "start": {"value": "tie", "remoteness": 6}, "max_remoteness": meta["max_remoteness"] + 1}
    for name, edited in edits.items():
        (folder / "meta.json").write_text(json.dumps({**meta, name: edited}))
        solver.table._OPENED.clear()
        code, out = _run(monkeypatch, capsys, "solve", GAME, "--db", str(copy), "--quiet", "--verify")
        _assert_one_error_line(code, out, "meta.json", f"says {name}", "--force")
        assert "tie in 6" not in out


def test_the_solver_agent_refuses_the_misere_tables_levels(db, tmp_path):
    copy, folder = _copy(db, tmp_path, "dense")
    _, other = _copy(db, tmp_path / "misere", "dense", MISERE)
    for path in folder.glob("level-*.blocks"):
        shutil.copyfile(other / path.name, path)
    game = boomboard.load_game(GAME)
    agent = make_agent(f"solver:db={copy}")
    state = game.new_initial_state()
    with pytest.raises(CorruptTableError, match="belongs elsewhere"):  # never a move read from the wrong table
        agent.new_game(game, state.current_player())
        agent.choose_action(state)


def test_compile_solves_again_a_board_table_of_the_older_format(tmp_path, monkeypatch):
    """``boomboard compile`` keeps ai's solved board; one of the older format,
    which no longer opens, it solves again rather than stop on it."""
    from boomboard.warmup import warm_up

    monkeypatch.setenv("BOOMBOARD_DB", str(tmp_path))
    small = boomboard.load_game("kaboom(rows=3,cols=3,connect=3)")
    table = solver.solve(small, tmp_path, progress=False)
    meta = json.loads((table.folder / "meta.json").read_text())
    (table.folder / "meta.json").write_text(json.dumps({**meta, "format": solver.table.FORMAT - 1}))
    solver.table._OPENED.clear()
    warm_up(str(small))
    assert json.loads((table.folder / "meta.json").read_text())["format"] == solver.table.FORMAT
    assert solver.verify(solver.open_table(small, tmp_path, "start")) is None
