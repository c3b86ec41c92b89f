"""The variant lab stores a variant's work in parts as each is done (its
exact solve, its self-play games in chunks): chunks give the row one run of
all the games gives, a sweep killed between parts resumes with only the
parts missing, and a store written before parts were kept resumes."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap

import pytest

import boomboard
from boomboard.lab import Settings, Store, explore, parse_grid
from boomboard.lab.measure import measure, play_games
from boomboard.lab.store import SCHEMA
from boomboard.lab.sweep import GAMES_A_CHUNK, parts_of
from process_helpers import kill_when
from test_lab import comparable

# 3x3 with a bomb at depth 1: the seeds change who wins and how long a game lasts, so a game
# played with another game's seeds shows in the row
VARIANT = str(boomboard.load_game("kaboom(rows=3,cols=3,connect=3,bombs=1)"))  # its name as the store keeps it
VARIANT_GRID = {"rows": "3", "cols": "3", "connect": "3", "bombs": "1"}
GAMES = 2 * GAMES_A_CHUNK + 1  # three parts of games, the last of one game
TWO_VARIANTS = {"rows": "2..3", "cols": "3", "connect": "3", "bombs": "0"}


def one_go_rows(tmp_path, variants: list[str]) -> list:
    """The rows of ``variants`` measured each in one run (no parts), as the store gives them back."""
    with Store(tmp_path / "one-go.sqlite") as store:
        for variant in variants:
            game = boomboard.load_game(variant)
            store.add("kaboom", game.get_parameters(), measure(variant, 1_000_000, GAMES, 1, str(tmp_path / "w")))
        return comparable(store.rows())


@pytest.fixture(scope="module")
def variant_in_one_go(tmp_path_factory) -> list:
    """The row of ``VARIANT`` measured in one run, the same for every test: measured once."""
    return one_go_rows(tmp_path_factory.mktemp("one-go"), [VARIANT])


def stored_parts(path) -> dict[str, set[str]]:
    """The keys of every part in the store at ``path``, by variant (none while it is not yet a store)."""
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)  # read only: never makes the file
    except sqlite3.Error:
        return {}
    try:
        found = {}
        for variant, part in connection.execute("SELECT variant, part FROM parts"):
            found.setdefault(variant, set()).add(part)
        return found
    except sqlite3.Error:  # no parts table yet, or locked by the sweep's write
        return {}
    finally:
        connection.close()


def test_a_chunk_of_games_plays_what_the_whole_run_plays_there():
    game = boomboard.load_game(VARIANT)
    whole = play_games(game, 0, GAMES, depth=1)
    assert {-1.0, 1.0} <= {record["first_return"] for record in whole}  # both players win some: the seeds matter
    assert play_games(game, 4, 8, depth=1) == whole[4:8]


def test_a_variants_games_in_several_parts_give_the_row_of_one_run_of_them_all(tmp_path, variant_in_one_go):
    grid = parse_grid("kaboom", VARIANT_GRID)
    ran = []
    with Store(tmp_path / "lab.sqlite") as store:
        assert explore(grid, store, Settings(games=GAMES, depth=1, workers=2),
                       on_part=lambda variant, key, share: ran.append((variant, key, share))) == 1
        rows = comparable(store.rows())
        assert store.parts(VARIANT) == {}  # joined into the row, then removed
    assert sorted(key for _, key, _ in ran) == ["exact budget=1000000", "games depth=1 0..3", "games depth=1 4..7",
                                                "games depth=1 8..8"]
    assert {(variant, share) for variant, _, share in ran} == {(VARIANT, 1 / 4)}
    assert rows == variant_in_one_go
    assert rows[0][3]["games"] == GAMES and 0 < rows[0][3]["score"] < 1


SWEEP_HELD_AFTER_TWO_PARTS = textwrap.dedent("""
    import sys

    from boomboard.lab import Settings, Store, explore, parse_grid


    stored = []


    def hold_after_two_parts(variant, key, share):
        stored.append(key)
        if len(stored) == 2:
            sys.stdin.read()  # held here, the pool's worker busy on the next part, until killed


    if __name__ == "__main__":
        with Store(sys.argv[1]) as store:
            explore(parse_grid("kaboom", {grid!r}), store, Settings(games={games}, depth=1, workers=1),
                    on_part=hold_after_two_parts)
""")


def test_a_sweep_killed_between_parts_resumes_with_only_the_missing_parts(tmp_path):
    killed = tmp_path / "killed.sqlite"
    script = tmp_path / "sweep.py"
    script.write_text(SWEEP_HELD_AFTER_TWO_PARTS.format(grid=TWO_VARIANTS, games=GAMES))
    process = subprocess.Popen([sys.executable, str(script), str(killed)], stdin=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    kill_when(process, lambda: sum(map(len, stored_parts(killed).values())) >= 2, "two parts stored")
    process.stdin.close()
    process.stderr.close()
    before = stored_parts(killed)
    grid = parse_grid("kaboom", TWO_VARIANTS)
    settings = Settings(games=GAMES, depth=1, workers=2)
    every = {str(game): {job.key for job in parts_of(str(game), settings, tmp_path)} for game in grid.variants}
    with Store(killed) as store:
        assert store.rows() == []  # killed before any variant had all its parts
        ran = []
        assert explore(grid, store, settings, on_part=lambda variant, key, share: ran.append((variant, key))) == 2
        resumed = comparable(store.rows())
        assert all(store.parts(variant) == {} for variant in every)
    assert sum(map(len, before.values())) == 2
    assert sorted(ran) == sorted((variant, key) for variant, keys in every.items()
                                 for key in keys - before.get(variant, set()))
    assert resumed == one_go_rows(tmp_path, list(every))


class Killed(Exception):
    """Raised from a sweep's progress callback: the sweep stops there, as if killed."""


def test_a_variant_whose_parts_were_all_stored_gets_its_row_without_measuring_again(tmp_path, variant_in_one_go):
    grid = parse_grid("kaboom", VARIANT_GRID)
    settings = Settings(games=GAMES, depth=1, workers=1)
    count, stored = len(parts_of(VARIANT, settings, tmp_path)), []

    def stop_after_the_last_part(variant, key, share):
        stored.append(key)
        if len(stored) == count:
            raise Killed  # every part stored, the row not yet

    with Store(tmp_path / "lab.sqlite") as store:
        try:
            explore(grid, store, settings, on_part=stop_after_the_last_part)
        except Killed:
            pass
        assert store.rows() == [] and len(store.parts(VARIANT)) == count
        ran = []
        assert explore(grid, store, settings, on_part=lambda *part: ran.append(part)) == 1
        assert ran == [] and store.parts(VARIANT) == {}
        assert comparable(store.rows()) == variant_in_one_go


def test_a_store_written_before_parts_were_kept_opens_and_resumes(tmp_path, variant_in_one_go):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as connection:  # a store of a sweep that stored rows only, one row in
        connection.execute(SCHEMA)
        connection.execute("INSERT INTO variants (variant, game, params, games, score) VALUES "
                           "('kaboom(rows=3,cols=3,connect=3,bombs=0)', 'kaboom', "
                           "'{\"bombs\": 0, \"cols\": 3, \"connect\": 3, \"rows\": 3}', 7, 0.25)")
    connection.close()
    with Store(path) as store:
        assert explore(parse_grid("kaboom", {**VARIANT_GRID, "bombs": "0,1"}), store,
                       Settings(games=GAMES, depth=1, workers=1)) == 1
        rows = {row.variant: row for row in store.rows()}
        assert store.parts(VARIANT) == {}
    assert rows["kaboom(rows=3,cols=3,connect=3,bombs=0)"].estimate["games"] == 7  # the old row, kept as it was
    assert comparable([rows[VARIANT]]) == variant_in_one_go
