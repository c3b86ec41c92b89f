"""Game records (boomboard.records): the text format, its round trip for
every game, its errors, and ``boomboard games export/import``."""

from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boomboard.arena.store import open_store
from boomboard.core.errors import BoomboardError
from boomboard.records import (MAX_RECORD_CHARS, MAX_TAGS, RESULTS, TIE, GameRecord, RecordError, read_record,
                               read_records, record_of_state, write_record, write_records)
from boomboard.registry import game_names, load_game
from boomboard.web.store import GameStore, StoredGame

BOOMBOARD = [sys.executable, "-m", "boomboard"]

# every game at its defaults, and some variants whose parameters the Parameters tag must carry
GAMES = [*game_names(), "kaboom(rows=5,cols=3,connect=3,misere=true)", "jump61(size=3)",
         "chain_reaction(rows=3,cols=4)", "explocus(size=5)", "hexplocus(side=3)"]
# a tag's value holds any text but a line feed's own escape: quotes, backslashes, other line separators
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=24)
# how a record may end a game its rules did not end: a resignation or not over (a tie only the rules reach)
ENDINGS = [result for result in RESULTS if result != TIE]
WHEN = st.none() | st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2100, 1, 1)).map(
    lambda moment: moment.replace(microsecond=0, tzinfo=UTC))


def random_record(name: str, seed: int, plies: int, set_up: bool, sides, ending: str, termination: str,
                  event: str, played, note: str) -> GameRecord:
    """A game of random legal moves: ``plies`` of them (or to its end), from the
    start or from a position reached first by other random moves (``set_up``)."""
    game = load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    if set_up:
        for _ in range(rng.randrange(1, 12)):
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        state = game.state_from_notation(state.to_notation())
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    record = record_of_state(state, list(sides), result=ending, termination=termination, event=event, played=played)
    record.tags = {"Annotator": note}
    return record


@settings(deadline=None, max_examples=80)
@given(games=st.lists(st.tuples(st.sampled_from(GAMES), st.integers(0, 2**32 - 1), st.integers(0, 90),
                                st.booleans(), st.lists(TEXT, min_size=2, max_size=2), st.sampled_from(ENDINGS),
                                TEXT, TEXT, WHEN, TEXT), min_size=1, max_size=3))
def test_random_games_of_every_game_come_back_whole_from_their_records(games):
    records = [random_record(*game) for game in games]
    assert read_records(write_records(records)) == records


def test_the_property_covers_all_six_games():
    assert {load_game(name).name for name in GAMES} == set(game_names()) and len(game_names()) == 6


def test_a_record_reads_as_written_by_hand():
    text = ('[Event "club night"]\n[Date "2026.11.27"]\n[Time "12:05:07"]\n[Game "kaboom"]\n'
            '[Parameters "rows=5"]\n[X "human"]\n[O "random"]\n[Result "1-0"]\n'
            '; X fills column A\n\n1. A\n1... B\n2. A\n2... B\n3. A\n3... B\n4. A\n1-0\n')
    record = read_record(text)
    assert record.game == "kaboom(rows=5)" and record.players == ["human", "random"] and record.winner == 0
    assert record.event == "club night" and record.played == datetime(2026, 11, 27, 12, 5, 7, tzinfo=UTC)
    state = load_game("kaboom(rows=5)").new_initial_state()
    for word in "A B A B A B A".split():
        state.play(word)
    assert record.actions == state.history() and record.final_state().outcome().winner == 0


def test_records_are_written_in_each_games_own_notation():
    for name in game_names():
        state = load_game(name).new_initial_state()
        rng = random.Random(5)
        for _ in range(4):
            state.apply_action(rng.choice(state.legal_actions()))
        lines = write_record(record_of_state(state, ["human", "human"])).splitlines()
        moves = [line.split(" ", 1)[1] for line in lines if line[:1].isdigit()]
        assert moves == state.history_strings(), name


def test_a_record_from_a_position_with_the_second_player_to_move_numbers_its_first_move_1_dots():
    game = load_game("kaboom")
    state = game.new_initial_state()
    state.play("A")
    start = game.state_from_notation(state.to_notation())
    start.play("B")
    text = write_record(record_of_state(start, ["human", "human"]))
    assert "\n1... B\n" in text and "[Position " in text
    assert read_record(text).actions == start.history()


def test_an_unfinished_game_and_a_resignation_keep_their_result():
    state = load_game("jump61(size=3)").new_initial_state()
    state.apply_action(state.legal_actions()[0])
    for result, termination in (("*", ""), ("0-1", "Red resigned")):
        record = read_record(write_record(record_of_state(state, ["human", "ai"], result=result,
                                                          termination=termination)))
        assert (record.result, record.termination, record.finished) == (result, termination, result != "*")


BASE = ['[Game "kaboom"]', '[X "human"]', '[O "random"]', '[Result "1-0"]', "",
        "1. A", "1... B", "2. A", "2... B", "3. A", "3... B", "4. A", "1-0"]


def edited(changes: dict[int, str | None] = None, extra: list[str] = ()) -> str:
    """BASE with lines (0-based) replaced (``None``: removed) and lines added at its end."""
    lines = [changes.get(i, line) if changes else line for i, line in enumerate(BASE)]
    return "\n".join([line for line in lines if line is not None] + list(extra)) + "\n"


MALFORMED = [
    ("unknown game", edited({0: '[Game "chess"]'}), ["line 1, column 8", "unknown game 'chess'", "kaboom"]),
    ("unknown game, indented", edited({0: '  [Game   "chess"]'}), ["line 1, column 12", "unknown game 'chess'"]),
    ("parameter out of range", edited({1: '[Parameters "rows=99"]\n[X "human"]'}),
     ["line 2, column 14", "'rows' must be <= 12"]),
    ("unknown parameter", edited({1: '[Parameters "depth=3"]\n[X "human"]'}), ["line 2", "unknown parameter(s) depth"]),
    ("illegal move", edited({7: "2. Q"}), ["line 8, column 4", "move 2. 'Q' (x)"]),
    ("move numbered wrong", edited({6: "2. B"}), ["line 7, column 1", "expected move 1..."]),
    ("move without a move", edited({5: "1."}), ["line 6", "move 1. has no move after its number"]),
    ("no result line", edited({12: None}), ["record that starts on line 1 has no result line"]),
    ("result against the rules", edited({3: '[Result "0-1"]', 12: "0-1"}), ["line 13", "contradicts the rules", "1-0"]),
    ("result line against the tag", edited({12: "*"}), ["line 13", "differs from the Result tag '1-0' (line 4)"]),
    ("not a tag", edited({1: "[X human]"}), ["line 2, column 1", "expected a tag pair"]),
    ("tag given twice", edited({2: '[X "random"]'}), ["line 3", "tag 'X' given twice (first on line 2)"]),
    ("unknown escape", edited({1: '[X "hu\\qman"]'}), ["line 2, column 7", "unknown escape \\q"]),
    ("move after the end", edited({12: "4... B"}, ["1-0"]), ["line 13", "the game is over after 7 moves"]),
    ("no Game tag", edited({0: '[Event "x"]'}), ["line 1", "no [Game"]),
    ("bad first position", edited({0: '[Game "kaboom"]\n[Position "(x 0 0 zz)"]'}), ["line 2, column 12",
                                                                                   "bad first position"]),
    ("bad date", edited({0: '[Game "kaboom"]\n[Date "27.11.2026"]'}), ["line 2", "expected Date YYYY.MM.DD"]),
    ("no tags at all", "hello\n", ["line 1, column 1", "expected a tag"]),
    ("half a UTF-16 pair", edited({1: '[X "hu\ud800"]'}), ["line 2, column 7", "half of a UTF-16 pair"]),
    ("too many tags", "\n".join(f'[T{i} "v"]' for i in range(MAX_TAGS + 1)) + "\n", [f"at most {MAX_TAGS} tags"]),
]


@pytest.mark.parametrize("text, words", [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_a_malformed_record_is_refused_with_where_and_why(text, words):
    with pytest.raises(RecordError) as caught:
        read_records(text)
    assert isinstance(caught.value, BoomboardError)
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_the_base_of_the_malformed_cases_is_itself_valid():
    assert read_record(edited()).winner == 0


def test_one_record_is_bounded_and_alone():
    with pytest.raises(RecordError, match="MAX_RECORD_CHARS"):
        read_record(edited() + ";" * MAX_RECORD_CHARS)
    with pytest.raises(RecordError, match="expected one game record, found 2"):
        read_record(edited() + "\n" + edited())
    with pytest.raises(RecordError, match="found 0"):
        read_record("; nothing but a comment\n")


# ---- boomboard games export / import ------------------------------------------------------

def run(*args, stdin=None):
    done = subprocess.run([*BOOMBOARD, *args], capture_output=True, text=True, input=stdin, timeout=300)
    return done


def test_games_export_and_import_round_trip_web_games(tmp_path):
    source = GameStore(tmp_path / "web.sqlite3")
    finished = record_of_state(random_state("kaboom", 3, 40), ["human", "random"])
    source.add(StoredGame("a1", finished.game, finished.players, finished.actions, created=1_700_000_000.0,
                          finished=True))
    unfinished = random_state("jump61(size=3)", 4, 3)
    source.add(StoredGame("b2", str(unfinished.game), ["human", "ai:time=0.5"], unfinished.history(),
                          created=1_700_000_100.0))
    resigned = random_state("chain_reaction(rows=3,cols=4)", 5, 4)
    source.add(StoredGame("c3", str(resigned.game), ["human", "human"], resigned.history(), resigned=1,
                          finished=True, created=1_700_000_200.0))
    source.close()
    exported = run("games", "export", "--source", "web", "--db", str(tmp_path / "web.sqlite3"),
                   "-o", str(tmp_path / "games.txt"))
    assert exported.returncode == 0, exported.stderr
    assert "3 games written" in exported.stdout
    text = (tmp_path / "games.txt").read_text()
    records = read_records(text)
    assert [r.actions for r in records] == [finished.actions, unfinished.history(), resigned.history()]
    assert [r.result for r in records] == [finished.result, "*", "1-0"]
    assert records[2].termination == "Red wins: Green resigned"
    imported = run("games", "import", str(tmp_path / "games.txt"), "--db", str(tmp_path / "copy.sqlite3"))
    assert imported.returncode == 0, imported.stderr
    assert "3 games imported" in imported.stdout
    again = run("games", "export", "--source", "web", "--db", str(tmp_path / "copy.sqlite3"))
    assert again.returncode == 0, again.stderr
    assert again.stdout == text


def random_state(name, seed, plies):
    state = load_game(name).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_games_export_writes_the_arenas_games_as_records_and_json_on_request(tmp_path):
    db = tmp_path / "arena.sqlite3"
    store = open_store(db)
    state = random_state("kaboom(cols=5)", 8, 60)
    game_id = store.begin_game("kaboom(cols=5)", ["random:seed=1", "random:seed=2"], {})
    for ply, action in enumerate(state.history()):
        store.add_action(game_id, ply, action, 0.01)
    winner = state.outcome().winner
    store.finish_game(game_id, winner, "connect")
    cut = store.begin_game("kaboom", ["ai", "random"], {})
    store.add_action(cut, 0, load_game("kaboom").new_initial_state().legal_actions()[0], 0.01)
    store.abort_game(cut, "the referee stopped")
    store.close()
    done = run("games", "export", "--db", str(db))
    assert done.returncode == 0, done.stderr
    first, second = read_records(done.stdout)
    assert (first.game, first.actions, first.players) == ("kaboom(cols=5)", state.history(),
                                                          ["random:seed=1", "random:seed=2"])
    assert first.result == ("1-0", "0-1", "1/2-1/2")[2 if winner is None else winner]
    assert second.result == "*" and "the referee stopped" in second.termination
    as_json = run("games", "export", "--db", str(db), "--json")
    assert as_json.returncode == 0 and len(as_json.stdout.splitlines()) == 2 and '"times"' in as_json.stdout


def test_games_import_refuses_a_bad_file_naming_it_and_the_line_and_adds_nothing(tmp_path):
    (tmp_path / "good.txt").write_text(edited())
    (tmp_path / "bad.txt").write_text(edited({7: "2. Q"}))
    done = run("games", "import", str(tmp_path / "good.txt"), str(tmp_path / "bad.txt"),
               "--db", str(tmp_path / "web.sqlite3"))
    assert done.returncode == 2
    assert "bad.txt: line 8, column 4" in done.stdout and "Traceback" not in done.stdout + done.stderr
    assert GameStore(tmp_path / "web.sqlite3").recent() == []
    piped = run("games", "import", "-", "--db", str(tmp_path / "web.sqlite3"), stdin=edited())
    assert piped.returncode == 0 and "1 games imported" in piped.stdout


WEB_PARTS_SCRIPT = """
import sys
import boomboard.web.archive, boomboard.web.cascade, boomboard.web.store
print(sorted(name for name in ("fastapi", "starlette", "boomboard.web.app") if name in sys.modules))
"""


def test_the_parts_of_the_web_package_the_commands_use_leave_the_web_server_unimported():
    """``games export`` and ``games import`` read and write games through the web app's records and
    store, ``play`` draws cascades with its steps: none of them starts the server, so none imports it
    (FastAPI and the app's routes: about a second of CPU at each start of those commands)."""
    done = subprocess.run([sys.executable, "-c", WEB_PARTS_SCRIPT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_games_alone_still_lists_the_catalogue_with_a_note_and_catalog_is_its_name():
    catalog = run("catalog")
    old = run("games")
    assert catalog.returncode == old.returncode == 0
    assert old.stdout == catalog.stdout and all(name in catalog.stdout for name in game_names())
    assert "boomboard catalog" in old.stderr and catalog.stderr == ""
    helped = run("games", "--help")
    assert "import" in helped.stdout and "catalog" in helped.stdout


# ---- the documentation ------------------------------------------------------------------

DOCS = Path(__file__).parent.parent / "docs"


def test_the_reference_example_is_a_record_written_as_boomboard_writes_it():
    page = (DOCS / "reference" / "records.md").read_text()
    example = re.search(r"```text\n(.*?)```", page, re.S).group(1)
    assert write_record(read_record(example)) == example


@pytest.mark.parametrize("page", ["reference/records.md", "reference/configuration.md"])
def test_the_limits_the_docs_give_are_the_modules(page):
    text = (DOCS / page).read_text()
    for dotted in sorted(set(re.findall(r"`(boomboard\.(?:records|web\.store)\.[A-Z_]+)`", text))):
        module, _, name = dotted.rpartition(".")
        value = getattr(importlib.import_module(module), name)
        row = next(line for line in text.splitlines() if dotted in line and line.startswith("|"))
        assert f"{value:,}" in row, (dotted, value, row)
    assert "MAX_RECORD_CHARS" in text and "MAX_FILE_CHARS" in text
