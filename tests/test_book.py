"""Opening books (boomboard.search.book): read, looked up, built, and played by ``ai``."""

import json
import random

import pytest

import boomboard
from boomboard.agents import make_agent
from boomboard.search.book import FORMAT, OpeningBook, build_entry, game_book, results_of_games
from benchmark_scripts import load_benchmark

KABOOM = boomboard.load_game("kaboom")


def write_book(tmp_path, for_game, positions, **changes):
    path = tmp_path / "book.json"
    path.write_text(json.dumps({"game": for_game.name, "format": FORMAT, "positions": positions, **changes}))
    return path


def test_a_built_entry_lists_legal_moves_best_first_within_the_margin():
    state = KABOOM.new_initial_state()
    entry = build_entry(KABOOM, state, seconds=0.3, margin=30)
    scores = [score for _, score, _ in entry]
    assert scores == sorted(scores, reverse=True) and scores[0] - scores[-1] <= 30
    assert all(state.string_to_action(text) in state.legal_actions() for text, _, _ in entry)
    assert all(depth >= 1 for _, _, depth in entry)


def test_a_book_is_looked_up_by_position_and_plays_only_what_it_lists(tmp_path):
    state = KABOOM.new_initial_state()
    entry = build_entry(KABOOM, state, seconds=0.2, margin=1000)  # many moves
    path = write_book(tmp_path, KABOOM, {state.to_notation(): entry})
    book = OpeningBook.read(KABOOM, path)
    listed = {state.string_to_action(text) for text, _, _ in entry}
    assert {action for action, _, _ in book.moves(state)} == listed
    rng = random.Random(1)
    chosen = {book.choose(state, rng)[0] for _ in range(60)}
    assert chosen <= listed and len(chosen) > 1  # at random among them
    later = state.child(state.legal_actions()[0])
    assert book.moves(later) == [] and book.choose(later, rng) is None


def test_an_entry_with_a_move_that_is_not_legal_or_readable_is_never_played(tmp_path):
    state = KABOOM.new_initial_state()
    for bad in ("nonsense", state.action_to_string(state.legal_actions()[0]) + "x"):
        path = write_book(tmp_path, KABOOM, {state.to_notation(): [[bad, 0, 5]]})
        assert OpeningBook.read(KABOOM, path).moves(state) == []


@pytest.mark.parametrize("changes", [{"format": FORMAT + 1}, {"game": "jump61"},
                                     {"game": "kaboom(rows=6,cols=7,bombs=0)"}])
def test_a_book_of_another_game_or_format_is_refused(tmp_path, changes):
    path = write_book(tmp_path, KABOOM, {}, **changes)
    with pytest.raises(ValueError, match="opening book"):
        OpeningBook.read(KABOOM, path)


def test_expendibots_ships_a_book_and_ai_plays_its_opening_from_it_when_asked():
    game = boomboard.load_game("expendibots")
    book = game_book(game)
    start = game.new_initial_state()
    assert book is not None and len(book) >= 20 and book.moves(start)
    for seed in range(3):
        agent = make_agent("ai:time=5,book=1", seed=seed)
        agent.new_game(game, 0)
        action = agent.choose_action(start.clone())
        assert action in {a for a, _, _ in book.moves(start)}
        assert agent.last_thinking.startswith("book:")
    plain = make_agent("ai:time=0.05", seed=0)  # off by default: it did not win more (docs/results/strength.md)
    plain.new_game(game, 0)
    plain.choose_action(start.clone())
    assert not plain.last_thinking.startswith("book:")


def test_a_game_without_a_book_has_none():
    assert game_book(KABOOM) is None


EXPENDIBOTS = boomboard.load_game("expendibots")


def record(actions, ours, winner):
    return {"actions": actions, "ours": ours, "winner": winner}


def test_results_of_games_count_each_move_of_our_side_with_its_points():
    start = EXPENDIBOTS.new_initial_state()
    first, other = (start.action_to_string(a) for a in start.legal_actions()[:2])
    reply = start.child(start.string_to_action(first))
    answer = reply.action_to_string(reply.legal_actions()[0])
    records = [record([first, answer], "white", "white"), record([first, answer], "white", None),
               record([other], "white", "black"), record([first, answer], "black", "black"),
               {"actions": [first]}]  # no side named: nothing to learn
    learnt = results_of_games(EXPENDIBOTS, records, plies=4)
    assert learnt[start.to_notation()] == {first: [2, 1.5], other: [1, 0.0]}
    assert learnt[reply.to_notation()] == {answer: [1, 1.0]}  # only where ``ours`` was to move
    assert reply.to_notation() not in results_of_games(EXPENDIBOTS, records, plies=4, min_games=2)
    assert reply.to_notation() not in results_of_games(EXPENDIBOTS, records, plies=1)


def test_prefer_plays_the_move_that_won_most_and_still_tries_an_untried_one_now_and_then():
    state = KABOOM.new_initial_state()
    good, bad, untried = state.legal_actions()[:3]
    book = OpeningBook(KABOOM, {}, results={state.to_notation(): {
        state.action_to_string(good): [30, 28.5], state.action_to_string(bad): [30, 12.0]}})
    rng = random.Random(7)
    assert {book.prefer(state, [good, bad], rng) for _ in range(200)} == {good}
    chosen = [book.prefer(state, [good, bad, untried], rng) for _ in range(2000)]
    assert chosen.count(good) > 1800 and 0 < chosen.count(untried) < 200 and bad not in chosen
    later = state.child(good)
    assert book.prefer(later, later.legal_actions()[:2], rng) is None  # nothing learnt there


def test_learnt_results_for_a_move_that_is_not_legal_or_readable_are_ignored():
    state = KABOOM.new_initial_state()
    legal = state.legal_actions()[0]
    book = OpeningBook(KABOOM, {}, results={state.to_notation(): {
        "nonsense": [9, 9.0], state.action_to_string(legal): [2, 1.0]}})
    assert book.results_for(state) == {legal: (2, 1.0)}


@pytest.mark.parametrize("learned", [0, 1])
def test_alphabeta_chooses_among_near_equal_moves_by_results_only_when_learned(learned):
    state = KABOOM.new_initial_state()
    favourite = state.legal_actions()[-1]
    results = {state.to_notation(): {state.action_to_string(a): [20, 20.0 if a == favourite else 2.0]
                                      for a in state.legal_actions()}}
    chosen = set()
    for seed in range(8):
        agent = make_agent(f"alphabeta:depth=1,margin=100000,learned={learned}", seed=seed)
        agent.new_game(KABOOM, 0)
        agent.book = OpeningBook(KABOOM, {}, results=results)
        chosen.add(agent.choose_action(state.clone()))
        assert agent.last_thinking.endswith("by their results") == bool(learned)
    assert (chosen == {favourite}) == bool(learned)


def test_expendibots_ai_learns_from_the_results_its_book_ships():
    book = game_book(EXPENDIBOTS)
    assert EXPENDIBOTS.ai_settings[1].get("learned") == 1 and len(book.results) >= 100
    for position, moves in book.results.items():
        state = EXPENDIBOTS.state_from_notation(position)
        assert len(book.results_for(state)) == len(moves)  # every move learnt is legal there
        assert all(0 <= points <= games for games, points in moves.values())


def test_the_book_script_writes_learnt_results_and_keeps_the_books_positions(tmp_path):
    opening_book = load_benchmark("opening_book")
    start = KABOOM.new_initial_state()
    first = start.action_to_string(start.legal_actions()[0])
    records = tmp_path / "games.jsonl"
    records.write_text(json.dumps(record([first], "x", "x")) + "\n" + json.dumps(record([first], "x", None)))
    book_path = write_book(tmp_path, KABOOM, {"kept": [[first, 5, 3]]})
    assert opening_book.main(["kaboom", str(records), "--learn", "--plies", "4", "--out", str(book_path)]) == 0
    book = OpeningBook.read(KABOOM, book_path)
    assert book.positions == {"kept": [[first, 5, 3]]}
    assert book.results_for(start) == {start.legal_actions()[0]: (2, 1.5)}
    with pytest.raises(SystemExit, match="--out"):
        opening_book.main(["kaboom", str(records), "--learn"])


CONNECT_THREE = boomboard.load_game("kaboom(rows=4,cols=4,bombs=0,connect=3)")  # a first-player win


def test_proved_moves_are_played_before_searched_ones_and_only_legal_ones(tmp_path):
    state = KABOOM.new_initial_state()
    first, second = (state.action_to_string(a) for a in state.legal_actions()[:2])
    path = write_book(tmp_path, KABOOM, {state.to_notation(): [[first, 10, 3]]},
                      proofs={state.to_notation(): [[second, "tie", None], ["nonsense", "win", 3]]})
    book = OpeningBook.read(KABOOM, path)
    assert book.proved_moves(state) == [(state.legal_actions()[1], "tie", None)]
    action, said = book.choose(state, random.Random(1))
    assert action == state.legal_actions()[1] and "proved to tie" in said
    after = state.child(state.legal_actions()[0])
    assert book.proved_moves(after) == [] and book.choose(after, random.Random(1)) is None


def build_connect_three_book(tmp_path, plies):
    proved_book = load_benchmark("proved_book")
    work, out = tmp_path / "work.jsonl", tmp_path / "book.json"
    spec = str(CONNECT_THREE)
    assert proved_book.main([spec, "--side", "x", "--plies", str(plies), "--work", str(work),
                             "--table-bits", "16"]) == 0
    assert proved_book.main([spec, "--side", "x", "--plies", str(plies), "--work", str(work), "--out", str(out)]) == 0
    return OpeningBook.read(CONNECT_THREE, out)


def assert_every_reply_answered_with_a_win(book, plies):
    """Every position the first player meets by the book's moves in its first
    ``plies`` plies, whatever the replies, is in the book (and nothing else),
    with one move that a proof shows wins."""
    from boomboard.search.prover import Prover

    prover = Prover(CONNECT_THREE, table_bits=16)
    frontier, seen = [CONNECT_THREE.new_initial_state()], set()
    while frontier:
        state = frontier.pop()
        if state.ply() > plies or state.to_notation() in seen:
            continue
        proved = book.proved_moves(state)
        assert len(proved) == 1 and proved[0][1] == "win", state.to_notation()
        after = state.child(proved[0][0])
        seen.add(state.to_notation())
        assert after.is_terminal() or prover.prove(after, exact=False).value == "lose"
        if not after.is_terminal():
            frontier += [after.child(reply) for reply in after.legal_actions() if not after.child(reply).is_terminal()]
    assert seen == book.proofs.keys()


def test_a_proved_book_answers_every_reply_and_each_move_it_holds_wins(tmp_path):
    assert_every_reply_answered_with_a_win(build_connect_three_book(tmp_path, 6), 6)


def test_a_losing_sides_book_holds_out_as_long_as_perfect_defence_allows(tmp_path):
    """``--side o`` on connect-3 4x4, an X win in 9: at each position O meets
    when X plays any of its best moves (by the solver's table, which
    shares no code with the prover), the book holds one move of O, and it
    keeps the table's remoteness: O loses no sooner than perfect defence
    allows. The book holds nothing else."""
    from boomboard.solver import solve

    proved_book = load_benchmark("proved_book")
    work, out, spec = tmp_path / "work.jsonl", tmp_path / "book.json", str(CONNECT_THREE)
    assert proved_book.main([spec, "--side", "o", "--plies", "20", "--work", str(work), "--table-bits", "16"]) == 0
    assert proved_book.main([spec, "--side", "o", "--plies", "20", "--work", str(work), "--out", str(out)]) == 0
    book = OpeningBook.read(CONNECT_THREE, out)
    table = solve(CONNECT_THREE, db=tmp_path / "db", progress=False)

    def keeps(state, action) -> bool:  # the move leaves the mover's value and its remoteness as they were
        child, entry = state.child(action), table.lookup(state)
        if child.is_terminal():
            return entry.remoteness == 1
        after = table.lookup(child)
        return after.value != entry.value and after.remoteness == entry.remoteness - 1

    frontier, seen = [CONNECT_THREE.new_initial_state()], set()
    while frontier:
        state = frontier.pop()
        if state.current_player() == 1:
            proved = book.proved_moves(state)
            assert len(proved) == 1 and proved[0][1:] == ("lose", table.lookup(state).remoteness), state.to_notation()
            assert keeps(state, proved[0][0])
            seen.add(state.to_notation())
            moves = [proved[0][0]]
        else:
            moves = [action for action in state.legal_actions() if keeps(state, action)]
        frontier += [state.child(a) for a in moves if not state.child(a).is_terminal()]
    assert seen == book.proofs.keys() and len(seen) > 5


def test_a_proved_book_is_found_for_its_variant_only(tmp_path, monkeypatch):
    book = build_connect_three_book(tmp_path, 2)
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / "connect-three.json").write_text((tmp_path / "book.json").read_text())
    (folder / "notes.txt").write_text("not a book")
    monkeypatch.setattr(type(CONNECT_THREE), "opening_book", str(folder))
    found = game_book(CONNECT_THREE)
    assert found is not None and found.proofs == book.proofs
    assert game_book(boomboard.load_game("kaboom(rows=4,cols=4,bombs=0,connect=4)")) is None


def test_a_book_for_another_variant_is_read_once_a_process(monkeypatch):
    """Kaboom's default board has no book; finding that reads the 7x6 book's
    file once, not at every agent's warm-up."""
    from boomboard.search import book as books

    reads = []
    original = books.read_book_file
    monkeypatch.setattr(books, "read_book_file", lambda path: reads.append(path) or original(path))
    monkeypatch.setattr(books, "_BOOK_GAMES", {})
    assert [books.game_book(KABOOM) for _ in range(3)] == [None] * 3
    assert len(reads) == 1


def test_threads_looking_books_up_at_once_each_find_their_variants(monkeypatch):
    """The cache of which variant each book file is for is shared by every
    thread: eight threads looking up two variants at once, the cache empty,
    each get their variant's book (or none), and the cache ends with the one
    file's entry."""
    from concurrent.futures import ThreadPoolExecutor

    from boomboard.search import book as books

    monkeypatch.setattr(books, "_BOOK_GAMES", {})
    connect_four = boomboard.load_game("kaboom(rows=6,cols=7,bombs=0)")
    with ThreadPoolExecutor(8) as pool:
        found = list(pool.map(books.game_book, [KABOOM, connect_four] * 8))
    assert found[0::2] == [None] * 8
    assert all(b is not None and b.proved_moves(connect_four.new_initial_state()) for b in found[1::2])
    assert len(books._BOOK_GAMES) == 1


def test_kaboom_ships_a_proved_7x6_book_and_ai_opens_with_its_winning_move():
    game = boomboard.load_game("kaboom(rows=6,cols=7,bombs=0)")
    book = game_book(game)
    start = game.new_initial_state()
    assert book is not None and book.proved_moves(start) == [(start.string_to_action("D"), "win", None)]
    agent = make_agent("ai", seed=3)
    agent.new_game(game, 0)
    assert agent.choose_action(start.clone()) == start.string_to_action("D")
    assert agent.delegate.last_thinking.startswith("book: D, proved to win")


def test_the_shipped_7x6_book_holds_a_proved_win_after_every_reply_to_its_moves():
    from boomboard.search.prover import Prover

    game = boomboard.load_game("kaboom(rows=6,cols=7,bombs=0)")
    book = game_book(game)
    deepest = max(game.state_from_notation(p).ply() for p in book.proofs)
    states = [game.state_from_notation(p) for p in book.proofs]
    for state in states:  # closed: each reply to each booked move, short of the deepest ply, is booked
        if state.ply() < deepest:
            after = state.child(book.proved_moves(state)[0][0])
            for reply in [] if after.is_terminal() else after.legal_actions():
                reached = after.child(reply)
                assert reached.is_terminal() or reached.to_notation() in book.proofs
    # and its deepest moves, a few of them at random, proved again here (each well under a second)
    prover = Prover(game, table_bits=20)
    for state in random.Random(5).sample([s for s in states if s.ply() == deepest], 3):
        after = state.child(book.proved_moves(state)[0][0])
        if after.is_terminal():
            assert after.returns()[state.current_player()] > 0
        else:
            assert prover.prove(after, exact=False, nodes=50_000_000).value == "lose"


def test_the_shipped_7x6_book_holds_os_longest_defence():
    """O's moves in the 7x6 book (X wins in 41 plies with perfect play): each
    says it loses in 41 less its ply, ``ai`` as O answers X's D with the book's
    D, and a few of the deepest, proved again here, keep the loss that long."""
    from boomboard.search.prover import Prover

    game = boomboard.load_game("kaboom(rows=6,cols=7,bombs=0)")
    book = game_book(game)
    losing = {p: moves for p, moves in book.proofs.items() if moves[0][1] == "lose"}
    states = {p: game.state_from_notation(p) for p in losing}
    plies = {p: 41 - sum(cell != "-" for cell in p.split(" ", 3)[3] if cell in "xo-") for p in losing}
    assert len(losing) >= 40 and all(moves[0][2] == plies[p] for p, moves in losing.items())
    after_d = game.new_initial_state().child(3)
    agent = make_agent("ai", seed=3)
    agent.new_game(game, 1)
    assert agent.choose_action(after_d.clone()) == 3
    assert agent.delegate.last_thinking.startswith("book: D, proved to lose in 40 plies")
    prover = Prover(game, table_bits=20)
    for position in sorted(losing, key=plies.get)[:3]:  # the fewest plies left: each well under a second
        action = book.proved_moves(states[position])[0][0]
        assert prover.keeps(states[position], action, "lose", plies[position], nodes=50_000_000)


def test_a_compressed_book_reads_as_its_json(tmp_path):
    from boomboard.search.book import read_book_file, write_book_file

    book = {"game": str(KABOOM), "format": FORMAT, "positions": {}, "proofs": {"p": [["A", "win", None]]}}
    plain, packed = tmp_path / "b.json", tmp_path / "b.json.zst"
    write_book_file(plain, book)
    write_book_file(packed, book)
    assert read_book_file(plain) == read_book_file(packed) == book
    assert packed.read_bytes()[:4] == b"\x28\xb5\x2f\xfd"  # zstandard's frame magic number


def test_two_processes_share_a_proved_book_build_and_make_a_whole_book(tmp_path):
    """``--part 0/2`` and ``--part 1/2`` at once append to one work file,
    each waiting for the other's share of a ply: the book they make is
    whole, as one process's is (its moves may differ: any winning one)."""
    import subprocess
    import sys
    from pathlib import Path

    script = str(Path(__file__).resolve().parents[1] / "benchmarks" / "proved_book.py")
    work, spec = tmp_path / "shared.jsonl", str(CONNECT_THREE)
    args = [sys.executable, script, spec, "--side", "x", "--plies", "6", "--table-bits", "16", "--work", str(work)]
    parts = [subprocess.Popen(args + ["--part", f"{k}/2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for k in (0, 1)]
    for part in parts:
        assert part.wait(timeout=300) == 0, part.stderr.read().decode()[-2000:]
    lines = [json.loads(line) for line in work.read_text().splitlines()]
    settled = [line for line in lines if "position" in line]
    assert len(settled) == len({line["position"] for line in settled})  # no position proved twice, no torn line
    assert [line["value"] for line in lines if "root" in line] == ["win"]  # the start, proved once (by part 0)
    out = tmp_path / "shared.json"
    subprocess.run(args + ["--out", str(out)], check=True, stdout=subprocess.DEVNULL)
    assert_every_reply_answered_with_a_win(OpeningBook.read(CONNECT_THREE, out), 6)
