"""The move picture (boomboard.solver.picture, ``analyze --picture``): one
cell a move, coloured by the move's value, in the PNG as in the figure."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb

import boomboard
from boomboard import solver
from boomboard.cli.main import main
from boomboard.solver.analysis import Analysis, MoveAnalysis
from boomboard.solver.picture import VALUE_COLOURS, move_colour

GAME = "kaboom(rows=3,cols=3,connect=3)"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    db = tmp_path_factory.mktemp("solved")
    solver.solve(boomboard.load_game(GAME), db=db, progress=False)
    return db


def _cells(figure):
    return [p for p in figure.axes[0].patches if (p.get_gid() or "").startswith("move:")]


def _hue(rgb) -> str:
    """Which value a colour shows, read off its channels alone."""
    r, g, b = rgb[:3]
    if min(r, g) > b + 0.2 and abs(r - g) < 0.2:
        return "tie"  # yellow: red and green over blue
    if g > r + 0.1 and g > b + 0.1:
        return "win"
    if r > g + 0.1 and r > b + 0.1:
        return "lose"
    return "draw"


def test_every_move_is_a_cell_of_its_value_in_the_figure_and_the_png(db, tmp_path):
    state = boomboard.load_game(GAME).new_initial_state()
    analysis = solver.analyze(state, db=db)
    assert {m.value for m in analysis.moves} >= {"win", "lose", "tie"}  # the picture has each colour to show
    path = tmp_path / "moves.png"
    figure = solver.draw_moves(analysis, path)
    cells = _cells(figure)
    moves = sorted(analysis.moves, key=lambda m: m.action)
    assert [c.get_gid() for c in cells] == [f"move:{m.notation}" for m in moves]
    assert len(cells) == len(state.legal_actions())
    image = __import__("matplotlib.image").image.imread(path)
    assert image.shape[1] == round(figure.get_figwidth() * figure.dpi)
    axes = figure.axes[0]
    for cell, move in zip(cells, moves):
        assert _hue(cell.get_facecolor()) == move.value, (move, cell.get_facecolor())
        x, y = cell.get_xy()
        px, py = axes.transData.transform((x + 0.2, y + 0.12))  # a corner of the cell, away from its text
        pixel = image[image.shape[0] - int(py) - 1, int(px)]
        assert _hue(pixel) == move.value, (move, pixel)
        assert np.allclose(pixel[:3], cell.get_facecolor()[:3], atol=0.02)
    best = min((m for m in moves if m.value == "win"), key=lambda m: m.remoteness)
    slow = max((m for m in moves if m.value == "win"), key=lambda m: m.remoteness)
    assert best.remoteness < slow.remoteness
    shade = {c.get_gid(): sum(c.get_facecolor()[:3]) for c in cells}
    assert shade[f"move:{best.notation}"] < shade[f"move:{slow.notation}"]  # the quickest win is the deepest green


def test_the_shade_follows_the_remoteness():
    near, far = move_colour("win", 3, 3, 20), move_colour("win", 20, 3, 20)
    assert near == pytest.approx(to_rgb(VALUE_COLOURS["win"]))
    assert sum(far) > sum(near) + 0.5 and _hue(far) == "win"
    assert sum(move_colour("lose", 3, 3, 9)) < sum(move_colour("lose", 6, 3, 9)) < sum(move_colour("lose", 9, 3, 9))
    assert move_colour("tie", 7, 7, 7) == pytest.approx(to_rgb(VALUE_COLOURS["tie"]))
    assert move_colour("draw", -1, -1, -1) == pytest.approx(to_rgb(VALUE_COLOURS["draw"]))


def _run(monkeypatch, capsys, *argv) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["boomboard", *argv])
    with pytest.raises(SystemExit) as exit_:
        main()
        raise SystemExit(0)
    captured = capsys.readouterr()
    return exit_.value.code, captured.out + captured.err


def test_analyze_draws_the_picture(db, tmp_path, monkeypatch, capsys):
    path = tmp_path / "start.png"
    code, out = _run(monkeypatch, capsys, "analyze", GAME, "--db", str(db), "--picture", str(path))
    assert code == 0, out
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"picture: {path}" in out.replace("\n", "")
    code, out = _run(monkeypatch, capsys, "analyze", GAME, "--db", str(db), "--picture",
                     str(tmp_path / "absent" / "x.png"))
    assert code == 2 and "cannot write the picture" in out and "Traceback" not in out, out


@pytest.mark.parametrize("notation, count", [("A{}", 40), ("MOVE 1 from (1, 6) to (1, {}).", 7)])
def test_cells_wrap_into_rows_and_hold_their_notation(notation, count):
    moves = [MoveAnalysis(i, notation.format(i), ("win", "tie", "lose")[i % 3], 1 + i % 5) for i in range(count)]
    figure = solver.draw_moves(Analysis("win", 2, moves))
    cells = _cells(figure)
    assert len(cells) == count
    rows = sorted({cell.get_y() for cell in cells})
    assert len(rows) == -(-count // sum(cell.get_y() == rows[0] for cell in cells)) > 1
    renderer = FigureCanvasAgg(figure).get_renderer()
    boxes = [cell.get_window_extent(renderer) for cell in cells]
    texts = [t for t in figure.axes[0].texts if t.get_text().startswith(notation.split("{")[0])]
    assert len(texts) == count
    for text, box in zip(texts, boxes):
        inside = text.get_window_extent(renderer)
        assert box.x0 <= inside.x0 and inside.x1 <= box.x1, (text.get_text(), inside, box)
