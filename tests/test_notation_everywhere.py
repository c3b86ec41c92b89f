"""One notation per game, everywhere: the web board's labels are the labels of
the terminal's board, every move the web page shows (legal moves, the move
list, the analysis, the rules page's example) is written in the game's move
notation and reads back to the same action, and Expendibots' course forms are
read everywhere but shown back in the game's own notation."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import boomboard  # noqa: E402
from boomboard.web import WebSettings, create_app  # noqa: E402
from boomboard.web.geometry import layout, move_gestures  # noqa: E402

# Each game at its defaults, and a variant where its parameters change the board.
GAME_STRINGS = [*boomboard.game_names(), "jump61(size=3)", "kaboom(rows=5,cols=6)", "explocus(size=4)",
                "hexplocus(side=3)", "chain_reaction(rows=3,cols=4)"]
PLIES_PLAYED = 4
CLOSE = 1e-6


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("web") / "web.sqlite3", WebSettings(workers=0))) as client:
        yield client


def _web_labels(game) -> tuple[list[str], list[str]]:
    """The web board's row labels, top row first, and its other (column or
    diagonal) labels, left first. A row label stands level with a row of
    cells, left of all of them."""
    board = layout(game)
    rows, columns = [], []
    for text, x, y in board.labels:
        row = [cx for cx, cy in board.centres if abs(cy - y) < CLOSE]
        (rows if row and x < min(row) else columns).append((text, x, y))
    return [t for t, _, _ in sorted(rows, key=lambda r: r[2])], [t for t, _, _ in sorted(columns, key=lambda c: c[1])]


@pytest.mark.parametrize("game_string", GAME_STRINGS)
def test_the_web_board_is_labelled_as_the_terminal_board_is(game_string):
    game = boomboard.load_game(game_string)
    view = game.new_initial_state().board_view()
    assert _web_labels(game) == (view.row_labels, view.column_labels)


@pytest.mark.parametrize("game_string", GAME_STRINGS)
def test_each_cell_is_named_by_the_labels_of_its_row_and_column(game_string):
    """A cell's name (as moves write it) holds the label level with its row and,
    on a square board, the label above or below its column."""
    board = layout(boomboard.load_game(game_string))
    for name, (x, y) in zip(board.names, board.centres):
        row = [text for text, lx, ly in board.labels if abs(ly - y) < CLOSE and lx < x]
        assert len(row) == 1 and row[0] in name, (name, row)
        if board.shape == "square":
            column = [text for text, lx, _ in board.labels if abs(lx - x) < CLOSE]
            assert len(column) == 1 and column[0] in name, (name, column)
            assert name.replace(row[0], "", 1).replace(column[0], "", 1).strip() == "", name


@pytest.mark.parametrize("game_string", GAME_STRINGS)
def test_moves_name_the_cells_the_board_names(game_string):
    """A click's cells are named in the move's text, as the board labels them."""
    state = boomboard.load_game(game_string).new_initial_state()
    board = layout(state.game)
    names = set(board.names) | set(board.groups or [])
    for gesture in move_gestures(state):
        for cell in (gesture["from"], gesture["to"]):
            assert cell is None or (cell in names and cell in gesture["text"]), gesture


def _play_random_moves(client, game_string: str, seed: int) -> dict:
    state = client.post("/api/games", json={"game": game_string, "players": ["human", "human"]}).json()
    rng = random.Random(seed)
    for _ in range(PLIES_PLAYED):
        if state["outcome"] is not None:
            break
        move = rng.choice(state["legal"])
        answer = client.post(f"/api/games/{state['id']}/moves", json={"move": move["text"]})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


@pytest.mark.parametrize("game_string", boomboard.game_names())
def test_every_move_the_web_page_shows_is_in_the_notation_and_reads_back(client, game_string):
    state = _play_random_moves(client, game_string, seed=len(game_string))
    replay = boomboard.load_game(game_string).new_initial_state()
    assert len(state["moves"]) == len(state["actions"]) > 0
    for shown, action in zip(state["moves"], state["actions"]):  # the move list
        assert shown["text"] == replay.action_to_string(action)
        assert replay.string_to_action(shown["text"]) == action
        replay.apply_action(action)
    for legal in state["legal"]:  # the buttons, the clicks and the input's placeholder
        assert legal["text"] == replay.action_to_string(legal["id"])
        assert replay.string_to_action(legal["text"]) == legal["id"]
    analysis = client.post("/api/analysis", json={"game": game_string, "actions": state["actions"]})
    assert analysis.status_code == 200, analysis.text
    moves = analysis.json()["moves"]
    assert moves
    for move in moves:
        assert move["text"] == replay.action_to_string(move["id"])
        assert replay.string_to_action(move["text"]) == move["id"]


@pytest.mark.parametrize("course_form", ["MOVE 1 from (1, 0) to (1, 1).", "move 1 FROM (1,0) to (1,1)",
                                         "('MOVE', 1, (1, 0), (1, 1))", "1 B1-b2"])
def test_expendibots_course_input_is_shown_back_in_the_notation(client, course_form):
    state = client.post("/api/games", json={"game": "expendibots", "players": ["human", "human"]}).json()
    answer = client.post(f"/api/games/{state['id']}/moves", json={"move": course_form})
    assert answer.status_code == 200, answer.text
    assert [m["text"] for m in answer.json()["moves"]] == ["1 b1 b2"]


def test_expendibots_web_positions_are_written_in_the_squares_names(client):
    """The position the page links to and "Start from" reads are in a1..h8, not 0-based JSON."""
    people = "white a1 3d4; black 2h8; black to move"
    state = client.post("/api/games", json={"game": "expendibots", "players": ["human", "human"],
                                            "position": people}).json()
    assert state["position"] == state["start"] == people
    answer = client.post(f"/api/games/{state['id']}/moves", json={"move": "boom h8"}).json()
    assert answer["position"] == "white a1 3d4; black; white to move" and answer["start"] == people
    shared = client.post("/api/position", json={"game": "expendibots", "position": people, "actions": []}).json()
    assert shared["position"] == people


def test_expendibots_web_board_names_squares_a1_to_h8():
    board = layout(boomboard.load_game("expendibots"))
    assert [t for t, _, _ in board.labels] == list("abcdefgh") + [str(row) for row in range(1, 9)]
    assert board.names[0] == "a1" and board.names[1] == "b1" and board.names[-1] == "h8"


def test_the_rules_page_example_is_in_the_notation_its_text_uses(client):
    for name in boomboard.game_names():
        rules = client.get(f"/api/rules/{name}").json()
        example = rules["example"]
        state = boomboard.load_game(example["state"]["game"]).state_from_notation(example["state"]["position"])
        assert example["move"] == state.action_to_string(state.string_to_action(example["move"]))
    expendibots = client.get("/api/rules/expendibots").json()
    assert expendibots["example"]["move"] == "boom b2"
    labels = [label["text"] for label in expendibots["example"]["state"]["layout"]["labels"]]
    assert labels == list("abcdefgh") + [str(row) for row in range(1, 9)]
