"""Opening books (boomboard.search.book): read, looked up, built, and played by ``ai``."""

import json
import random

import pytest

import boomboard
from boomboard.agents import make_agent
from boomboard.search.book import FORMAT, OpeningBook, build_entry, game_book

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


@pytest.mark.parametrize("changes", [{"format": FORMAT + 1}, {"game": "jump61"}])
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
    plain = make_agent("ai:time=0.05", seed=0)  # off by default: it did not win more (docs/strength.md)
    plain.new_game(game, 0)
    plain.choose_action(start.clone())
    assert not plain.last_thinking.startswith("book:")


def test_a_game_without_a_book_has_none():
    assert game_book(KABOOM) is None
