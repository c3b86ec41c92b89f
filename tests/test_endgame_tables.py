"""Endgame tables in play: ``ai`` probes the solver's Expendibots endgames
(at the root and inside its search) and plays them perfectly."""

from __future__ import annotations

import random
import shutil

import numpy as np
import pytest

import boomboard
from boomboard import solver
from boomboard.agents import make_agent
from boomboard.core.layout import PLY
from boomboard.search.alphabeta import AlphaBeta
from boomboard.search.scores import WIN
from boomboard.solver import endgames
from boomboard.solver.format.blockstore import HEADER_SIZE, RAW
from boomboard.solver.endgames import endgame_tables
from boomboard.solver.hashed.table import HashedTable
from boomboard.solver.format.table_format import FORMAT


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return tmp_path_factory.mktemp("endgame-tables")


@pytest.fixture
def in_db(db, monkeypatch):
    """The ai's tables come from the solver's default folder: this test's."""
    monkeypatch.setenv("BOOMBOARD_DB", str(db))
    return db


@pytest.fixture(scope="module")
def game():
    return boomboard.load_game("expendibots")


@pytest.fixture(scope="module")
def tables(game, db):
    return endgame_tables(game, 3, db=db, progress=False)


def _positions(table, value, count, seed, least_remoteness=0):
    """``count`` random positions of ``table`` whose value (for the side to move) is ``value``."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        i = rng.randrange(len(table))
        entry = table.entry_at(i)
        if entry.value == value and entry.remoteness >= least_remoteness:
            found.append((table.state_at(i), entry))
    return found


def _play_out(state, ai_player, ai, opponent):
    """Play ``state`` to its end: ``ai`` for ``ai_player``, ``opponent`` for the other; the plies played."""
    plies = 0
    while not state.is_terminal():
        agent = ai if state.current_player() == ai_player else opponent
        state.apply_action(agent.choose_action(state.clone()))
        plies += 1
    return plies


def test_ai_converts_won_endgames_in_the_solvers_distance(game, tables, in_db):
    table = tables.table
    for n, (start, entry) in enumerate(_positions(table, "win", 8, seed=1, least_remoteness=5)):
        winner = start.current_player()
        ai = make_agent("ai:time=0.1", seed=n)
        ai.new_game(game, winner)
        defender = make_agent(f"solver:db={in_db}", seed=n)  # the slowest loss
        state = start.clone()
        plies = _play_out(state, winner, ai, defender)
        assert state.outcome().winner == winner, start.to_notation()
        assert plies == entry.remoteness, start.to_notation()
        assert ai.last_thinking.startswith("endgame tables (3 tokens): win in 1")


def test_ai_holds_tied_endgames(game, tables, in_db):
    table = tables.table
    for n, (start, _entry) in enumerate(_positions(table, "tie", 8, seed=2)):
        ai_player = start.current_player() if n % 2 == 0 else 1 - start.current_player()  # either side
        ai = make_agent("ai:time=0.1", seed=n)
        ai.new_game(game, ai_player)
        perfect = make_agent(f"solver:db={in_db}", seed=n)
        state = start.clone()
        _play_out(state, ai_player, ai, perfect)
        assert state.outcome().winner is None, start.to_notation()  # a tie: the ai never lost it


def test_ai_drags_out_lost_endgames(game, tables, in_db):
    table = tables.table
    for n, (start, entry) in enumerate(_positions(table, "lose", 4, seed=3, least_remoteness=4)):
        loser = start.current_player()
        ai = make_agent("ai:time=0.1", seed=n)
        ai.new_game(game, loser)
        winner = make_agent(f"solver:db={in_db}", seed=n)
        state = start.clone()
        assert _play_out(state, loser, ai, winner) == entry.remoteness


def test_the_search_probes_agree_with_the_solver(game, tables):
    """The compiled probe, and a 1-ply search whose children are all probed,
    give the solver's values exactly."""
    table = tables.table
    spec, keys, entries = tables.probe_arrays()
    negamax = game.compiled("boomboard.search.negamax")
    searcher = AlphaBeta(game, table_bits=12)
    searcher.use_endgames(tables.probe_arrays())
    rng = random.Random(4)
    for _ in range(300):
        state = table.state_at(rng.randrange(len(table)))
        entry = table.lookup(state)
        result = negamax._probe(spec, state.array, game.params_array, keys, entries)
        expected = {"win": entry.remoteness, "lose": -entry.remoteness}.get(entry.value, 0)
        assert result == expected
        score = searcher.search(state, depth=1).score
        assert score == {"win": WIN - entry.remoteness, "lose": entry.remoteness - WIN}.get(entry.value, 0)
    # outside the tables: more tokens, or a finished game
    start = game.new_initial_state()
    assert negamax._probe(spec, start.array, game.params_array, keys, entries) == negamax.NOT_IN_TABLES


def test_the_search_steers_into_won_endgames(game, tables):
    """With 5 tokens on the board, a 2-ply search sees through the boom that
    leaves 3 (White's single by Black's) the exact win beyond its horizon;
    without the tables it sees an evaluation."""
    state = game.state_from_notation('{"white": [[2, 6, 3], [1, 6, 5]], "black": [[1, 2, 6], [1, 5, 6]]}')
    probed = AlphaBeta(game, table_bits=14)
    probed.use_endgames(tables.probe_arrays())
    result = probed.search(state, depth=2)
    assert AlphaBeta(game, table_bits=14).search(state, depth=2).forced_result is None
    after = state.child(result.action)
    assert after.tokens(0) + after.tokens(1) == 3
    assert tables.table.lookup(after).value == "lose"  # for Black, to move
    assert result.forced_result == tables.table.lookup(after).remoteness + 1


def test_tables_are_built_once_then_reused(game, tmp_path, monkeypatch):
    built = endgame_tables(game, 2, db=tmp_path, progress=False)
    assert built.tokens == 2 and (tmp_path / "expendibots" / "endgame-2" / "meta.json").is_file()
    assert endgame_tables(game, 2, db=tmp_path) is built  # once a process
    endgames._loaded.clear()  # as a new process: read from disk, not solved again

    def no_solving(*args, **kwargs):
        raise AssertionError("solved again")

    monkeypatch.setattr("boomboard.solver.driver.solve", no_solving)
    again = endgame_tables(game, 2, db=tmp_path)
    assert again is not built and again.tokens == 2 and len(again.table) == len(built.table)
    assert endgame_tables(game, 2, db=tmp_path / "empty", build=False) is None


def test_a_table_of_an_older_format_is_built_again_not_refused(game, tmp_path, capsys):
    endgame_tables(game, 2, db=tmp_path, progress=False)
    meta = tmp_path / "expendibots" / "endgame-2" / "meta.json"
    meta.write_text(meta.read_text().replace(f'"format": {FORMAT}', f'"format": {FORMAT - 1}'))  # an older boomboard's
    endgames._loaded.clear()
    with pytest.raises(solver.NotSolvedError, match="format"):
        solver.open_table(game, db=tmp_path)  # a user's own table is refused, not replaced
    rebuilt = endgame_tables(game, 2, db=tmp_path)  # but the ai's cache is rebuilt
    assert rebuilt.tokens == 2 and f'"format": {FORMAT}' in meta.read_text()
    assert "building the Expendibots endgame tables (2 tokens), once again" in capsys.readouterr().err


def test_a_larger_table_on_disk_serves(game, tables, db):
    assert endgame_tables(game, 2, db=db).tokens == 3  # the 3-token table holds the 2-token endgames


def test_only_games_solved_as_endgames_have_tables(game, db):
    assert endgame_tables(boomboard.load_game("kaboom"), 3, db=db) is None
    assert endgame_tables(game, 1, db=db) is None  # below the least endgame
    agent = make_agent("ai", seed=1)
    agent.new_game(boomboard.load_game("jump61(size=3)"), 0)
    assert agent.delegate.tables is None
    off = make_agent("ai:endgames=0,depth=1", seed=1)
    off.new_game(game, 0)
    assert off.delegate.tables is None and off.delegate.searcher.endgames[1].size == 0


def test_a_result_past_the_action_limit_is_left_to_the_search(game, tables):
    """The tables know no action limit: a win that would come after it is no win."""
    (state, entry), = _positions(tables.table, "win", 1, seed=5, least_remoteness=5)
    rng = random.Random(0)
    array = state.array.copy()
    array[PLY] = game.action_limit - entry.remoteness  # the win comes with the last action
    assert tables.choose(game.state_from_array(array), rng) is not None
    array[PLY] += 1
    assert tables.choose(game.state_from_array(array), rng) is None
    searcher = AlphaBeta(game, table_bits=12)
    searcher.use_endgames(tables.probe_arrays())
    late = searcher.search(game.state_from_array(array), depth=1)
    assert late.forced_result is None  # nor does the search take the tables' word for it


def test_the_probe_reads_the_tables_in_place_and_refuses_a_damaged_one(game, tables, tmp_path):
    assert tables.table.entries.codec == RAW  # stored raw, so that the search probes them memory-mapped
    spec, keys, entries = tables.probe_arrays()
    assert not entries.flags.owndata and not entries.flags.writeable and len(entries) == len(tables.table)
    copy = tmp_path / "start"
    shutil.copytree(tables.table.folder, copy)
    data = bytearray((copy / "values.blk").read_bytes())
    data[HEADER_SIZE + 2 * (len(entries) // 2)] ^= 0x40  # a value in the middle: a win made a loss
    (copy / "values.blk").write_bytes(bytes(data))
    damaged = endgames.EndgameTables(HashedTable(game, copy))
    with pytest.raises(solver.CorruptTableError, match=r"start: values\.blk: block \d+ of \d+ .*checksum mismatch"):
        damaged.probe_arrays()
    assert np.array_equal(tables.probe_arrays()[2], entries)  # the table itself is untouched
