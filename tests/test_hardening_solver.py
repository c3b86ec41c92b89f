"""Issue 15, item 15: every solver command refuses a damaged table with one
clear line and exit code 2 (no traceback, no bare ``aborted.``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import boomboard
from boomboard import solver
from boomboard.cli.main import main
from boomboard.solver.format.blockstore import HEADER_SIZE, BlockFile, write_blocks
from boomboard.solver.hashed.table import HashedTable
from solve_helpers import steps_saved, stop_after, watch_steps

GAME = "jump61(size=2)"


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    db = tmp_path_factory.mktemp("solved")
    table = solver.solve(boomboard.load_game(GAME), db=db, progress=False)
    return db, table.folder


def _flip(path: Path, at: int, bit: int = 0) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 1 << bit
    path.write_bytes(bytes(data))


def _damage(folder: Path, how: str) -> None:
    if how == "empty values":
        (folder / "values.blk").write_bytes(b"")
    elif how == "float values":
        write_blocks(folder / "values.blk", BlockFile(folder / "values.blk").read_all().astype(np.float64))
    elif how == "uint32 values":
        write_blocks(folder / "values.blk", BlockFile(folder / "values.blk").read_all().astype(np.uint32))
    elif how == "a value's bit flipped":
        _flip(folder / "values.blk", HEADER_SIZE + 3, 2)
    elif how == "a key's bit flipped":
        _flip(folder / "keys.blk", HEADER_SIZE + 8 * 5 + 7, 6)
    elif how == "a dtype's bit flipped":
        _flip(folder / "keys.blk", 13)
    elif how == "npy keys":
        np.save(folder / "keys.blk", BlockFile(folder / "keys.blk").read_all())
        (folder / "keys.blk.npy").replace(folder / "keys.blk")
    elif how == "truncated keys":
        (folder / "keys.blk").write_bytes((folder / "keys.blk").read_bytes()[:-3])
    elif how == "compressed keys":
        write_blocks(folder / "keys.blk", BlockFile(folder / "keys.blk").read_all())
    elif how == "empty offsets":
        write_blocks(folder / "offsets.blk", np.zeros(0, np.int64))
    elif how == "meta a list":
        (folder / "meta.json").write_text("[1, 2, 3]")
    elif how == "meta without positions":
        meta = json.loads((folder / "meta.json").read_text())
        del meta["positions"]
        (folder / "meta.json").write_text(json.dumps(meta))
    elif how == "meta with a wrong count":
        meta = json.loads((folder / "meta.json").read_text())
        meta["positions"] += 1
        (folder / "meta.json").write_text(json.dumps(meta))
    elif how == "meta not json":
        (folder / "meta.json").write_text("{")
    elif how == "meta tokens a string":
        meta = json.loads((folder / "meta.json").read_text())
        meta["tokens"] = "many"
        (folder / "meta.json").write_text(json.dumps(meta))
    else:
        raise AssertionError(how)


DAMAGES = ["empty values", "float values", "uint32 values", "a value's bit flipped", "a key's bit flipped",
           "a dtype's bit flipped", "npy keys", "truncated keys", "compressed keys", "empty offsets", "meta a list",
           "meta without positions", "meta with a wrong count", "meta not json", "meta tokens a string"]


def _run(monkeypatch, capsys, *argv) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["boomboard", *argv])
    with pytest.raises(SystemExit) as exit_:
        main()
    captured = capsys.readouterr()
    return exit_.value.code, captured.out + captured.err


@pytest.mark.parametrize("how", DAMAGES)
def test_every_command_refuses_a_damaged_table_with_one_line_and_code_2(how, solved, tmp_path, monkeypatch, capsys):
    db, folder = solved
    copy = tmp_path / "db"
    shutil.copytree(db, copy)
    damaged = copy / folder.relative_to(db)
    _damage(damaged, how)
    solver.table._OPENED.clear()
    for argv in (["solve", GAME, "--db", str(copy), "--quiet"], ["analyze", GAME, "--db", str(copy)]):
        code, out = _run(monkeypatch, capsys, *argv)
        assert code == 2, out
        # one message (rich wraps it at the console's width when it is not a terminal)
        assert out.lstrip().startswith("error: ") and out.count("error:") == 1, out
        assert "Traceback" not in out and "aborted" not in out and "value:" not in out, out
        assert str(damaged) in out.replace("\n", "") and "--force" in out, out
    with pytest.raises((solver.NotSolvedError, solver.CorruptTableError)):
        table = solver.open_table(boomboard.load_game(GAME), db=copy)
        table.check()


def test_a_damaged_table_on_the_real_command_line(solved, tmp_path):
    db, folder = solved
    copy = tmp_path / "db"
    shutil.copytree(db, copy)
    _damage(copy / folder.relative_to(db), "empty values")
    boomboard_command = Path(sys.executable).parent / "boomboard"
    done = subprocess.run([str(boomboard_command), "analyze", GAME, "--db", str(copy)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr and "aborted" not in done.stdout, done
    assert "error:" in done.stdout and "values.blk" in done.stdout, done


def test_force_solves_a_damaged_table_again(solved, tmp_path):
    db, folder = solved
    copy = tmp_path / "db"
    shutil.copytree(db, copy)
    _damage(copy / folder.relative_to(db), "meta a list")
    table = solver.solve(boomboard.load_game(GAME), db=copy, progress=False, force=True)
    assert len(table) == json.loads((table.folder / "meta.json").read_text())["positions"]


def _interrupted(db: Path, monkeypatch, method: str, when: tuple[str, int]) -> Path:
    """The work folder of a jump61(size=3) solve stopped after step ``when`` (:mod:`solve_helpers`)."""
    stop_after(monkeypatch, when)
    with pytest.raises(KeyboardInterrupt):
        solver.solve(boomboard.load_game("jump61(size=3)"), db=db, progress=False,
                     settings=solver.SolveSettings(method=method))
    watch_steps(monkeypatch, lambda step: None)
    (work,) = db.glob("*/*.work")
    return work


def _damage_work(work: Path, how: str) -> None:
    if how == "progress a list":
        (work / "progress.json").write_text("[1]")
    elif how == "progress not json":
        (work / "progress.json").write_text('{"expanded": ')
    elif how == "progress count a string":
        (work / "progress.json").write_text('{"expanded": "3"}')
    elif how == "level of floats":
        np.save(work / "keys-00002.npy", np.zeros(4, np.float32))
    elif how == "expansion without edges":
        with np.load(work / "expansion-00001.npz") as archive:
            np.savez(work / "expansion-00001.npz", **{k: archive[k] for k in archive.files if k != "edges"})
    elif how == "tiers progress damaged":
        record = json.loads((work / "progress.json").read_text())
        (work / "progress.json").write_text(json.dumps({**record, "durable": "some"}))
    elif how == "pending file garbage":
        next(work.glob("pending-*.npz")).write_bytes(b"PK garbage")
    elif how == "layer truncated":
        (work / "layer-00001.npy").write_bytes((work / "layer-00001.npy").read_bytes()[:90])
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["progress a list", "progress not json", "progress count a string", "level of floats",
                                 "expansion without edges", "tiers progress damaged", "pending file garbage",
                                 "layer truncated"])
def test_damaged_saved_work_is_refused_with_one_line_and_force_starts_over(how, tmp_path, monkeypatch, capsys):
    tiered = how in ("tiers progress damaged", "pending file garbage", "layer truncated")
    if tiered:
        monkeypatch.setattr(solver.hashed.tiers, "buffer_budget", lambda: 1 << 12)  # children written to disk early
    work = _interrupted(tmp_path, monkeypatch, "tiers" if tiered else "memory", ("durable", 3) if tiered else ("level", 3))
    _damage_work(work, how)
    code, out = _run(monkeypatch, capsys, "solve", "jump61(size=3)", "--db", str(tmp_path), "--quiet",
                     "--method", "tiers" if tiered else "memory")
    assert code == 2, out
    assert out.lstrip().startswith("error: ") and out.count("error:") == 1 and "Traceback" not in out, out
    assert "saved work of an interrupted solve is damaged" in " ".join(out.split()) and "--force" in out, out
    table = solver.solve(boomboard.load_game("jump61(size=3)"), db=tmp_path, progress=False, force=True)
    assert len(table) == 288293 and solver.verify(table) is None


def test_a_solve_stopped_before_its_rename_finishes_the_rename(solved, tmp_path, monkeypatch):
    db, folder = solved
    copy = tmp_path / "db"
    shutil.copytree(db, copy)
    finished = copy / folder.relative_to(db)
    finished.rename(finished.with_name(finished.name + ".work"))  # as a solve killed just before os.replace leaves it
    steps = steps_saved(monkeypatch)
    table = solver.solve(boomboard.load_game(GAME), db=copy, progress=False)
    assert steps == [] and table.folder == finished and not finished.with_name(finished.name + ".work").exists()
    assert np.array_equal(table.entries, solver.open_table(boomboard.load_game(GAME), db=db).entries)


def test_a_damaged_key_cannot_hide_a_position(solved, tmp_path):
    db, folder = solved
    copy = tmp_path / "db"
    shutil.copytree(db, copy)
    game = boomboard.load_game(GAME)
    start = game.new_initial_state()
    i = solver.open_table(game, db=db)._find(start)
    damaged = copy / folder.relative_to(db)
    data = bytearray((damaged / "keys.blk").read_bytes())
    data[HEADER_SIZE + 8 * i + 3] ^= 0x08  # the start's own key: its search now misses
    (damaged / "keys.blk").write_bytes(bytes(data))
    table = HashedTable(game, damaged)
    with pytest.raises(solver.CorruptTableError, match=r"start: keys\.blk: block 0 of 1 .*checksum mismatch"):
        table.lookup(start)
