"""Records survive: a killed tournament resumes to exactly the games asked for;
Ctrl-C stops cleanly; records export as JSON lines; Elo and SPRT figures."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from boomboard.arena.chart import rating_chart
from boomboard.arena.store import open_store
from boomboard.core.errors import ParameterError
from boomboard.ratings import Sprt, elo_estimate, parse_sprt, score_to_elo
from process_helpers import as_from_a_terminal

BOOMBOARD = [sys.executable, "-m", "boomboard"]


def done_games(db) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT COUNT(*) FROM games WHERE status = 'done'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def start(args, db):
    with as_from_a_terminal():
        return subprocess.Popen([*BOOMBOARD, *args, "--db", str(db)], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)


def wait_for_games(process, db, count, seconds=120):
    deadline = time.monotonic() + seconds
    while done_games(db) < count:
        assert process.poll() is None, process.stdout.read()
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_a_killed_tournament_resumes_to_exactly_the_games_asked_for(tmp_path):
    db = tmp_path / "arena.sqlite3"
    agents = ["random", "greedy", "random:seed=5"]
    process = start(["tournament", "kaboom", *agents, "--games", "4", "--workers", "2", "--move-time", "2"], db)
    wait_for_games(process, db, 3)
    os.killpg(process.pid, signal.SIGKILL)  # the arena and its agent processes, no chance to clean up
    process.wait()
    killed_at = done_games(db)
    assert 3 <= killed_at < 12
    resumed = subprocess.run([*BOOMBOARD, "resume", "1", "--db", str(db), "--workers", "2"], capture_output=True,
                             text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "12/12 games" in resumed.stdout
    store = open_store(db)
    record = store.tournament(1)
    assert (record.slots, record.played) == (12, 12)
    games = store.games(limit=100, tournament_id=1)
    finished = [g for g in games if g.status == "done"]
    assert len(finished) == 12
    # every slot once, and each pairing played 4 times with colours alternating
    pairings = sorted(tuple(g.players) for g in finished)
    assert len(set(pairings)) == 6 and all(pairings.count(p) == 2 for p in set(pairings))
    assert all(g.status in ("done", "aborted") for g in games)
    assert sum(s.games for s in store.standings(1)) == 24


def test_ctrl_c_stops_cleanly_and_keeps_the_finished_games(tmp_path):
    db = tmp_path / "arena.sqlite3"
    process = start(["match", "kaboom", "random", "greedy", "--games", "1000", "--workers", "1"], db)
    wait_for_games(process, db, 2)
    os.killpg(process.pid, signal.SIGINT)  # what the terminal sends to the whole group
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 130, output
    assert "continue with: boomboard resume 1" in output
    assert "Traceback" not in output
    store = open_store(db)
    kept = store.tournament(1).played
    assert kept >= 2 and store.count_games(status="playing") == 0


def test_games_export_json_writes_one_json_record_per_line(tmp_path):
    db = tmp_path / "arena.sqlite3"
    done = subprocess.run([*BOOMBOARD, "match", "kaboom(rows=4,cols=5)", "random:seed=1", "random:seed=2",
                           "--games", "2", "--workers", "1", "--db", str(db), "--chart", str(tmp_path / "elo.png")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "elo.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    export = subprocess.run([*BOOMBOARD, "games", "export", "--json", "--db", str(db)], capture_output=True,
                            text=True, timeout=120)
    records = [json.loads(line) for line in export.stdout.splitlines()]
    assert [r["id"] for r in records] == [1, 2]
    for record in records:
        assert record["game"] == "kaboom(cols=5)" and record["status"] == "done"
        assert len(record["actions"]) == len(record["times"]) > 0
        assert record["players"] in (["random:seed=1", "random:seed=2"], ["random:seed=2", "random:seed=1"])
    shown = subprocess.run([*BOOMBOARD, "games", "show", "1", "--db", str(db)], capture_output=True, text=True,
                           timeout=120)
    assert f"{len(records[0]['actions'])}. " in shown.stdout and "result:" in shown.stdout
    replayed = subprocess.run([*BOOMBOARD, "replay", "1", "--all", "--db", str(db)], capture_output=True,
                              text=True, timeout=120)
    plies = len(records[0]["actions"])
    assert replayed.stdout.count(", ply ") == plies + 1
    assert f"ply {plies}/{plies}" in replayed.stdout and records[0]["reason"] in replayed.stdout
    stepped = subprocess.run([*BOOMBOARD, "replay", "1", "--db", str(db)], input="n\n2\np\nq\n",
                             capture_output=True, text=True, timeout=120)
    # the prompt has no newline of its own (the answer is not echoed), so read the headings by pattern
    assert re.findall(r"game 1: .*?, ply (\d+)/", stepped.stdout) == ["0", "1", "2", "1"]


def test_elo_and_its_interval_follow_cutechess():
    estimate = elo_estimate(60, 20, 20)  # score 0.7
    assert estimate.elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    variance = (60 * 0.3**2 + 20 * 0.2**2 + 20 * 0.7**2) / 100
    margin = 1.959963984540054 * math.sqrt(variance / 100)
    assert estimate.error == pytest.approx((score_to_elo(0.7 + margin) - score_to_elo(0.7 - margin)) / 2)
    assert elo_estimate(10, 0, 10).elo == pytest.approx(0.0)
    assert math.isinf(elo_estimate(5, 0, 0).elo)


def test_sprt_decides_for_a_clearly_stronger_side_and_against_an_equal_one():
    sprt = Sprt(0, 10, 0.05, 0.05)
    assert sprt.upper_bound == pytest.approx(math.log(19)) and sprt.lower_bound == pytest.approx(-math.log(19))
    assert sprt.decision(300, 100, 100) == "H1"
    assert sprt.decision(400, 200, 400) is None  # LLR about -0.5: not yet
    assert sprt.decision(4000, 2000, 4000) == "H0"
    assert sprt.decision(6, 2, 4) is None
    assert sprt.llr(3, 0, 0) == 0.0  # no spread seen yet: no evidence
    assert parse_sprt("0,5,0.1,0.1") == Sprt(0, 5, 0.1, 0.1)
    with pytest.raises(ParameterError):
        parse_sprt("5,0")


def test_the_rating_chart_is_a_png(tmp_path):
    from boomboard.arena.store import Standing

    standings = [Standing("a", 10, 7, 1, 2, 7.5, 190.0, 150.0), Standing("b", 10, 2, 1, 7, 2.5, -190.0, math.inf)]
    path = rating_chart(standings, tmp_path / "chart.png")
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_the_rating_chart_draws_no_made_up_bars_for_unbounded_ratings(tmp_path):
    from matplotlib.patches import Rectangle

    from boomboard.arena.chart import draw_chart
    from boomboard.arena.store import Standing

    standings = [Standing("best", 10, 10, 0, 0, 10.0, math.inf, math.inf),
                 Standing("mid", 20, 10, 0, 10, 10.0, -0.2, 150.0),
                 Standing("worst", 10, 0, 0, 10, 0.0, -math.inf, math.inf)]
    figure = draw_chart(standings)
    axes = figure.axes[0]
    bars = [p for p in axes.patches if isinstance(p, Rectangle)]
    assert len(bars) == 1 and abs(bars[0].get_width()) < 1  # only "mid" has a bar
    texts = " ".join(t.get_text() for t in axes.texts)
    assert "+inf: won every game" in texts and "-inf: lost every game" in texts
    assert len(axes.lines) <= 4  # the zero line and one error bar's pieces, no error bar for the infinite
    assert rating_chart(standings, tmp_path / "chart.png").read_bytes()[:4] == b"\x89PNG"


def test_the_table_never_prints_minus_zero():
    from boomboard.cli.arena import _elo_text

    assert _elo_text(-0.3, 297.0) == "0 +/- 297"
    assert _elo_text(0.4, math.inf) == "0 +/- inf"
    assert _elo_text(-12.6, 40.0) == "-13 +/- 40"
    assert _elo_text(math.inf, math.inf) == "+inf"
    assert elo_estimate(5, 0, 5).describe().startswith("0.0 +/- ")


def test_the_pentanomial_llr_is_the_trinomial_formula_over_game_pairs():
    sprt = Sprt(0, 10)
    pairs = [5, 20, 50, 30, 15]  # pairs where A scored 0, 1/2, 1, 3/2, 2 points
    scores = [0, 0.25, 0.5, 0.75, 1]
    count = sum(pairs)
    mean = sum(n * x for n, x in zip(pairs, scores)) / count
    variance = sum(n * (x - mean) ** 2 for n, x in zip(pairs, scores)) / count
    s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    assert sprt.llr_pentanomial(pairs) == pytest.approx(count * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance))
    assert sprt.llr_pentanomial([0, 0, 40, 0, 0]) == 0.0  # every pair split: no spread, no evidence
    assert sprt.decide(sprt.llr_pentanomial([1, 10, 30, 60, 40])) == "H1"


def test_seeded_games_replay_exactly():
    from boomboard.arena.referee import Limits, play_game

    first = play_game("kaboom", ["random", "random:seed=9"], Limits(), seed=12)
    again = play_game("kaboom", ["random", "random:seed=9"], Limits(), seed=12)
    other = play_game("kaboom", ["random", "random:seed=9"], Limits(), seed=13)
    assert first.actions == again.actions and first.winner == again.winner
    assert other.actions != first.actions  # the slot's seed reaches the unseeded agent


def test_a_database_from_before_cpu_times_gains_the_column(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE actions (game_id INTEGER NOT NULL, ply INTEGER NOT NULL, action INTEGER NOT NULL, "
                    "seconds REAL NOT NULL, PRIMARY KEY (game_id, ply))")
    store = open_store(path)
    game_id = store.begin_game("kaboom", ["random", "greedy"], {})
    store.add_action(game_id, 0, 1, 0.5, 0.25)
    assert store.game(game_id).cpu == [0.25]


def _report_sigint_handler(conn) -> None:
    conn.send(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)


def test_an_agent_process_ignores_ctrl_c_from_its_first_instruction():
    # The terminal's Ctrl-C reaches every process of the group, agents being
    # started included: one that had not yet reached agent_main printed a
    # KeyboardInterrupt traceback. The handler a child starts with is the
    # forkserver's after its preloading, so it must already ignore SIGINT.
    from boomboard.arena.referee import _context

    context = _context()
    ours, theirs = context.Pipe()
    process = context.Process(target=_report_sigint_handler, args=(theirs,))
    process.start()
    try:
        assert ours.poll(60)
        assert ours.recv() is True
    finally:
        process.join(10)
