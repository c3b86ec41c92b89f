"""benchmarks/expendibots_course_match.py reads the staff referee's commentary
(referee 1.1, ``-v 1``) into a game record."""

from benchmark_scripts import BENCHMARKS, load_benchmark

match = load_benchmark("expendibots_course_match")

# The shape of the referee's output, abridged: two plies, then the end.
COMMENTARY = """\
* importing player 1's player class 'Player' from package 'boomboard.arena.course_player'
** initialising players
* initialising white player as a 'boomboard.arena.course_player.Player'
*   time:  + 0.004s  (just elapsed)    0.004s  (game total)
* initialising black player as a 'student.player.ExamplePlayer'
*   time:  + 0.250s  (just elapsed)    0.250s  (game total)
** player 1 (white)'s turn
* asking player 1 (white) for next action...
*   player 1 (white) returned action: ('MOVE', 1, (4, 0), (4, 1))
*   time:  + 1.500s  (just elapsed)    1.504s  (game total)
* updating player 1 (white) with white's action ('MOVE', 1, (4, 0), (4, 1))...
*   time:  + 0.001s  (just elapsed)    1.505s  (game total)
* updating player 2 (black) with white's action ('MOVE', 1, (4, 0), (4, 1))...
*   time:  + 0.002s  (just elapsed)    0.252s  (game total)
** player 2 (black)'s turn
* asking player 2 (black) for next action...
*   player 2 (black) returned action: ('BOOM', (0, 7))
*   time:  + 3.000s  (just elapsed)    3.252s  (game total)
* updating player 1 (white) with black's action ('BOOM', (0, 7))...
*   time:  + 0.001s  (just elapsed)    1.506s  (game total)
"""


def test_a_won_game_is_read_with_each_sides_cpu_and_actions():
    record = match.parse_referee_output(COMMENTARY + "** game over!\n* winner: white\n")
    assert record["winner"] == "white" and record["reason"] == "no tokens"
    assert record["plies"] == 2
    assert record["actions"] == ["('MOVE', 1, (4, 0), (4, 1))", "('BOOM', (0, 7))"]
    assert record["cpu"] == {"white": 1.506, "black": 3.252}
    assert record["longest_move"] == {"white": 1.5, "black": 3.0}


def test_a_draw_and_a_forfeit():
    draw = match.parse_referee_output(COMMENTARY + "* draw detected: game state occurred 4 times.\n")
    assert draw["winner"] is None and draw["reason"] == "game state occurred 4 times."
    forfeit = match.parse_referee_output(
        COMMENTARY + "* asking player 2 (black) for next action...\n** game error!\n"
        "* error: resource limit exceeded!\n* player 2 exceeded available time\n")
    assert forfeit["winner"] == "white"
    assert forfeit["reason"] == "time or space limit: player 2 exceeded available time"


def test_an_unfinished_game_has_no_winner():
    record = match.parse_referee_output(COMMENTARY)
    assert record["winner"] is None and record["reason"] == "unfinished"


def test_an_opening_is_played_by_both_wrappers_then_the_wrapped_players_play_on(tmp_path, monkeypatch):
    """benchmarks/course_opening.py: each side plays its colour's moves of the
    opening, and the Players it wraps are told of every action."""
    import json
    import sys

    (tmp_path / "scripted.py").write_text(
        "class Player:\n"
        "    def __init__(self, colour):\n"
        "        self.colour, self.seen = colour, []\n"
        "    def action(self):\n"
        "        return ('BOOM', (len(self.seen), 0))\n"
        "    def update(self, colour, action):\n"
        "        self.seen.append((colour, action))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    monkeypatch.setenv("BOOMBOARD_WRAP_WHITE", "scripted")
    monkeypatch.setenv("BOOMBOARD_WRAP_BLACK", "scripted:Player")
    opening = ["('MOVE', 1, (3, 1), (4, 1))", "('MOVE', 1, (4, 6), (3, 6))", "('MOVE', 2, (4, 1), (6, 1))"]
    monkeypatch.setenv("BOOMBOARD_OPENING", json.dumps(opening))
    sys.modules.pop("course_opening", None)
    import course_opening

    white, black = course_opening.Player("white"), course_opening.Player("black")
    played = []
    for ply in range(5):
        colour, mover = ("white", white) if ply % 2 == 0 else ("black", black)
        action = mover.action()
        played.append(action)
        for player in (white, black):
            player.update(colour, action)
    assert played[:3] == [eval(a) for a in opening]
    assert played[3:] == [("BOOM", (3, 0)), ("BOOM", (4, 0))]  # the wrapped players, told of all 3 opening actions
    assert white.wrapped.seen == black.wrapped.seen == [(c, a) for c, a in zip(["white", "black"] * 3, played)]
    sys.modules.pop("course_opening", None)


def test_the_table_pools_results_files_and_scores_each_colour_apart(tmp_path, capsys):
    import json

    def game(ours, score, agent="pybros"):
        return json.dumps({"agent": agent, "repository": "CorentinBrtx/pybros-expendibots@e157897", "ours": ours,
                           "score": score, "plies": 80, "our_cpu": 30.0, "their_cpu": 20.0, "reason": "no tokens"})

    (tmp_path / "a.jsonl").write_text("\n".join([game("black", 1.0), game("black", 0.5), game("white", 1.0)]) + "\n")
    (tmp_path / "b.jsonl").write_text(game("black", 1.0) + "\n" + game("black", 0.0, agent="tdleaf_pybros") + "\n")
    assert match.main(["table", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")]) == 0
    rows = {line.split(" | ")[0].strip("| "): line for line in capsys.readouterr().out.splitlines()}
    assert "| 4 | +1 =0 -0 (100%) | +2 =1 -0 (83.3%; 95%: 50.7% to 100.0%) | 88% |" in rows["pybros"]
    assert "| 1 | - | +0 =0 -1 (0%) | 0% |" in rows["tdleaf_pybros"]
    assert match.main(["table", str(tmp_path / "none.jsonl")]) == 1
    for not_games in ("* winner: white\n", '{"index": 1, "score": 1.0}\n'):  # referee output, an SPRT record
        (tmp_path / "c.jsonl").write_text(not_games)
        assert match.main(["table", str(tmp_path / "c.jsonl")]) == 1
        assert "not a results file" in capsys.readouterr().err


def test_a_score_s_interval_narrows_with_more_games():
    assert match.score_with_interval([1.0] * 9) == "100%"  # no spread: no interval to give
    small = [1.0] * 17 + [0.5] * 3
    assert match.score_with_interval(small) == "92.5%; 95%: 84.5% to 100.0%"  # clipped at 100%
    assert match.score_with_interval(small * 9) == "92.5%; 95%: 89.9% to 95.1%"


def test_openings_split_the_games_by_material_at_a_ply_and_count_repeated_lines(tmp_path, capsys):
    import json

    quiet = ["('MOVE', 1, (0, 1), (0, 2))", "('MOVE', 1, (0, 6), (0, 5))", "('MOVE', 1, (1, 1), (1, 2))"]
    # White's a2 token steps to a3; then White booms b2, which takes a1, b1 and a3 with it.
    boom = ["('MOVE', 1, (0, 1), (0, 2))", "('MOVE', 1, (0, 6), (0, 5))", "('BOOM', (1, 1))"]
    assert match.material_after(quiet, 3) == (12, 12)
    assert match.material_after(boom, 3) == (8, 12)
    assert match.material_after(boom, 2) == (12, 12)  # only the plies asked for are played

    def game(actions, score):
        return json.dumps({"actions": actions, "score": score})

    (tmp_path / "a.jsonl").write_text("\n".join([game(quiet, 1.0), game(quiet, 0.5), game(boom, 0.0)]) + "\n")
    assert match.main(["openings", str(tmp_path / "a.jsonl"), "--ply", "3"]) == 0
    out = capsys.readouterr().out
    assert "| 12, 12 | 2 | +1 =1 -0 |" in out and "| 8, 12 | 1 | +0 =0 -1 | 0% |" in out
    assert "3 games, 2 different first 3 plies; the most played 2 times" in out
    assert match.main(["openings", str(tmp_path / "none.jsonl")]) == 1
    (tmp_path / "b.jsonl").write_text('{"index": 1, "score": 1.0}\n')  # an SPRT record: no actions
    assert match.main(["openings", str(tmp_path / "b.jsonl")]) == 1
    assert "not a results file" in capsys.readouterr().err


def test_what_played_changes_with_the_package_s_data_as_with_its_code(tmp_path):
    """A relearnt opening book is another Player: its games are not taken
    for the old book's when a run resumes."""
    package = tmp_path / "boomboard"
    (package / "games").mkdir(parents=True)
    (package / "search.py").write_text("DEPTH = 6\n")
    (package / "games" / "book.json").write_text('{"results": {}}\n')
    (package / "__kernels__").mkdir()
    first = match.played_fingerprint(package)
    (package / "__kernels__" / "cached.json").write_text("{}")  # the compile cache is not what plays
    (package / "notes.txt").write_text("not source nor data")
    assert match.played_fingerprint(package) == first
    (package / "games" / "book.json").write_text('{"results": {"a": 1}}\n')
    relearnt = match.played_fingerprint(package)
    assert relearnt != first and len(relearnt) == 16
    (package / "search.py").write_text("DEPTH = 7\n")
    assert match.played_fingerprint(package) not in (first, relearnt)
