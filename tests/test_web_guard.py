"""Who may use the web app, and who a request comes from
(:mod:`boomboard.web.guard`), through the HTTP API: the hosts the server
answers for, changes only from its own page and only with a JSON body, a
client identified by its connection (``X-Forwarded-For`` only from a proxy
named with ``--trusted-proxy``), and strict JSON types."""

from __future__ import annotations

import http.client
import json
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from boomboard.core.errors import ParameterError  # noqa: E402
from boomboard.learn.checkpoint import PACKAGED  # noqa: E402
from boomboard.web import WebSettings, create_app  # noqa: E402
from boomboard.web.guard import RequestGuard, served_hosts  # noqa: E402
from web_helpers import assert_error, serving  # noqa: E402

ADDRESS = "http://127.0.0.1:8000"




@pytest.fixture
def client(tmp_path):
    """The app as ``boomboard serve`` (on 127.0.0.1:8000) builds it, in process."""
    app = create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, guard=RequestGuard.for_server("127.0.0.1")))
    with TestClient(app, base_url=ADDRESS) as client:
        yield client


def new_game(client, players=("human", "human"), **headers):
    response = client.post("/api/games", json={"game": "kaboom", "players": list(players)}, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()


def play(client, game_id, *moves):
    for move in moves:
        assert client.post(f"/api/games/{game_id}/moves", json={"move": move}).status_code == 200


# -- hosts ------------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000"])
def test_the_hosts_a_loopback_server_is_for_are_answered(client, host):
    assert client.get("/api/catalog", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "", "a:b:c"])
def test_any_other_host_is_refused_naming_it(client, host):
    """DNS rebinding: a page of evil.example, its name pointed at 127.0.0.1, would otherwise read and play."""
    assert_error(client.get("/api/catalog", headers={"Host": host}), 400, "does not answer for the host",
                 "--allowed-host")
    assert_error(client.get("/", headers={"Host": host}), 400, repr(host))


def test_allowed_hosts_add_names_and_a_server_on_every_address_answers_any_address(tmp_path):
    assert served_hosts("127.0.0.1") == {"localhost", "127.0.0.1", "::1"}
    assert served_hosts("192.0.2.5", ["Games.Example"]) == {"192.0.2.5", "games.example"}
    guard = RequestGuard.for_server("0.0.0.0", ["games.example"])
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, guard=guard))) as client:
        for host in ["192.0.2.5:8000", "[2001:db8::1]", "games.example", "localhost"]:
            assert client.get("/api/catalog", headers={"Host": host}).status_code == 200, host
        assert_error(client.get("/api/catalog", headers={"Host": "evil.example"}), 400, "evil.example")
    with pytest.raises(ParameterError, match="--allowed-host"):
        served_hosts("127.0.0.1", ["http://games.example/"])


# -- changes only from the server's own page, with a JSON body ---------------------------------

CHANGES = [("moves", {"move": "A"}), ("undo", {}), ("resign", {"player": 0})]


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9000", "http://localhost:8000",
                                    "null"])
def test_a_change_from_another_origin_is_refused_and_changes_nothing(client, origin):
    game = new_game(client)
    play(client, game["id"], "A", "B")
    for action, body in CHANGES:
        assert_error(client.post(f"/api/games/{game['id']}/{action}", json=body, headers={"Origin": origin}),
                     403, repr(origin), "only the server's own page")
    assert_error(client.post("/api/games", json={"game": "kaboom"}, headers={"Origin": origin}), 403)
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["ply"] == 2 and after["outcome"] is None
    assert len(client.get("/api/games").json()["games"]) == 1


def test_a_change_from_the_servers_own_page_is_taken(client):
    own = {"Origin": ADDRESS}
    game = new_game(client, **own)
    play(client, game["id"], "A", "B")
    assert client.post(f"/api/games/{game['id']}/undo", json={}, headers=own).json()["ply"] == 1
    resigned = client.post(f"/api/games/{game['id']}/resign", json={"player": 0}, headers=own).json()
    assert resigned["outcome"]["reason"] == "resignation"


def test_without_an_origin_the_browsers_fetch_site_decides(client):
    game = new_game(client)
    play(client, game["id"], "A")
    for site in ["cross-site", "same-site"]:
        assert_error(client.post(f"/api/games/{game['id']}/undo", json={}, headers={"Sec-Fetch-Site": site}), 403)
    assert client.get(f"/api/games/{game['id']}").json()["ply"] == 1
    taken = client.post(f"/api/games/{game['id']}/undo", json={}, headers={"Sec-Fetch-Site": "same-origin"})
    assert taken.status_code == 200 and taken.json()["ply"] == 0


@pytest.mark.parametrize("headers, body", [
    ({}, None),  # a plain POST with no body: what undid and resigned games from another site
    ({"Content-Type": "text/plain"}, "{}"),
    ({"Content-Type": "application/x-www-form-urlencoded"}, "player=0"),
    ({"Content-Type": "multipart/form-data; boundary=x"}, "--x--"),
])
def test_a_change_without_a_json_body_is_refused(client, headers, body):
    game = new_game(client)
    play(client, game["id"], "A", "B")
    for action in ["undo", "resign", "moves"]:
        assert_error(client.post(f"/api/games/{game['id']}/{action}", content=body, headers=headers), 415,
                     "Content-Type: application/json")
    assert client.get(f"/api/games/{game['id']}").json()["ply"] == 2


def test_an_undo_takes_an_empty_json_object(client):
    game = new_game(client)
    play(client, game["id"], "A")
    assert_error(client.post(f"/api/games/{game['id']}/undo", headers={"Content-Type": "application/json"}),
                 422, "body")
    undone = client.post(f"/api/games/{game['id']}/undo", json={}, headers={"Content-Type": "application/json"})
    assert undone.json()["ply"] == 0


# -- strict JSON types (422 for a malformed body, as documented) -------------------------------

@pytest.mark.parametrize("body, field", [
    ({"game": "kaboom", "seed": "5"}, "seed"),
    ({"game": "kaboom", "seed": True}, "seed"),
    ({"game": "kaboom", "seed": 5.0}, "seed"),
    ({"game": "kaboom", "pace": "1"}, "pace"),
    ({"game": 5}, "game"),
    ({"game": "kaboom", "players": ["human"]}, "players"),
    ({"game": "kaboom", "players": ["human", "human", "human"]}, "players"),
    ({"game": "kaboom", "players": ["human", 1]}, "players"),
    ({"game": "kaboom", "position": 7}, "position"),
])
def test_a_new_game_with_a_wrong_json_type_is_422(client, body, field):
    assert_error(client.post("/api/games", json=body), 422, field)
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize("player", [False, True, "0", 0.0, 2, -1])
def test_resigning_takes_only_player_0_or_1(client, player):
    game = new_game(client)
    assert_error(client.post(f"/api/games/{game['id']}/resign", json={"player": player}), 422, "player")
    assert client.get(f"/api/games/{game['id']}").json()["outcome"] is None
    assert client.post(f"/api/games/{game['id']}/resign", json={"player": 1}).json()["outcome"]["winner"] == 0


def test_a_line_with_a_wrong_json_type_is_422(client):
    assert_error(client.post("/api/analysis", json={"game": "kaboom", "position": 3}), 422, "position")
    assert_error(client.post("/api/values", json={"game": ["kaboom"]}), 422, "game")


def test_the_schema_gives_the_event_stream_and_the_chart_their_content_types(client):
    paths = client.get("/openapi.json").json()["paths"]
    events = paths["/api/games/{game_id}/events"]["get"]["responses"]["200"]["content"]
    chart = paths["/api/tournaments/{tournament_id}/chart.png"]["get"]["responses"]["200"]["content"]
    assert list(events) == ["text/event-stream"] and list(chart) == ["image/png"]
    resign = paths["/api/games/{game_id}/resign"]["post"]
    assert resign["requestBody"]["required"] is True
    for operation in [resign, paths["/api/games/{game_id}/undo"]["post"]]:
        assert {"403", "415", "422"} <= set(operation["responses"])


# -- learned models by name, never by path ----------------------------------------------------

@pytest.mark.parametrize("spec", ["learned:{}", "learned:checkpoint={},search=0", "learned:{},sims=8"])
def test_a_learned_side_naming_a_path_is_refused_the_same_whether_it_exists_or_not(client, tmp_path, spec):
    """``learned:/etc/shadow`` once answered "not a model file" and a missing
    path "no model file"; the server now opens no file a request names."""
    model = tmp_path / "model.msgpack"
    model.write_bytes(PACKAGED.joinpath("kaboom.msgpack").read_bytes())
    messages = set()
    for path in ["/etc/passwd", "/no/such/file", str(tmp_path), str(model), str(PACKAGED / "kaboom.msgpack"),
                 "../kaboom", "kaboom.msgpack"]:
        response = client.post("/api/games", json={"game": "kaboom", "players": ["human", spec.format(path)]})
        assert_error(response, 400, "by name, not a path", "one of: kaboom", "--models")
        message, _, echoed = response.json()["error"].rpartition("; got ")
        assert repr(path).startswith(echoed.rstrip(".")), echoed  # the request's own value, cut if long
        messages.add(message)
    assert len(messages) == 1, messages
    assert client.get("/api/games").json()["games"] == []


def test_the_models_on_offer_are_named_in_the_catalog(client):
    assert client.get("/api/catalog").json()["models"] == ["kaboom"]


def test_a_models_folder_offers_its_models_by_name_and_they_play(tmp_path):
    pytest.importorskip("jax")
    folder = tmp_path / "models"
    (folder / "run").mkdir(parents=True)
    for target in [folder / "mine.msgpack", folder / "run" / "model.msgpack"]:
        target.write_bytes(PACKAGED.joinpath("kaboom.msgpack").read_bytes())
    (folder / "notes.txt").write_text("not a model")
    app = create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, models=folder))
    with TestClient(app) as client:
        assert client.get("/api/catalog").json()["models"] == ["kaboom", "mine", "run"]
        for name in ["mine", "run"]:
            game = new_game(client, (f"learned:{name},search=0", "human"))
            assert game["players"][0] == f"learned:{name},search=0"  # the name is kept, not the path
            deadline = time.monotonic() + 120
            while (state := client.get(f"/api/games/{game['id']}").json())["thinking"]:
                assert time.monotonic() < deadline, "the learned side never moved"
                time.sleep(0.05)
            assert state["ply"] == 1 and not state["error"], state
        assert_error(client.post("/api/games", json={"game": "kaboom", "players": ["human", "learned:notes"]}),
                     400, "one of: kaboom, mine, run")
    with pytest.raises(ParameterError, match="--models"):
        create_app(tmp_path / "other.sqlite3", WebSettings(workers=0, models=tmp_path / "missing"))


# -- who a client is -----------------------------------------------------------------------------

def scope(peer: str, forwarded: str | None = None) -> dict:
    headers = [] if forwarded is None else [(b"x-forwarded-for", forwarded.encode())]
    return {"type": "http", "client": (peer, 50000), "headers": headers}


def test_a_client_is_its_connections_address_unless_it_is_a_trusted_proxy():
    plain = RequestGuard.for_server("127.0.0.1")
    assert plain.client(scope("127.0.0.1", "203.0.113.7")) == "127.0.0.1"
    proxied = RequestGuard.for_server("127.0.0.1", trusted_proxies=["127.0.0.1", "10.0.0.0/8"])
    assert proxied.client(scope("127.0.0.1", "203.0.113.7")) == "203.0.113.7"
    assert proxied.client(scope("127.0.0.1")) == "127.0.0.1"
    # the nearest address not of a trusted proxy: what a client writes itself further left is not believed
    assert proxied.client(scope("127.0.0.1", "198.51.100.1, 203.0.113.7, 10.1.2.3")) == "203.0.113.7"
    assert proxied.client(scope("127.0.0.1", "10.1.2.3")) == "10.1.2.3"
    assert proxied.client(scope("127.0.0.1", "not-an-address, 203.0.113.7")) == "203.0.113.7"
    assert proxied.client(scope("127.0.0.1", "203.0.113.7, garbage")) == "127.0.0.1"
    assert proxied.client(scope("192.0.2.1", "203.0.113.7")) == "192.0.2.1"  # not a trusted proxy
    with pytest.raises(ParameterError, match="--trusted-proxy"):
        RequestGuard.for_server("127.0.0.1", trusted_proxies=["proxy.example"])


# -- through the real server -----------------------------------------------------------------------

PROXY = "127.0.0.2"  # a second loopback address: requests sent from it come "through the proxy"
SLOW_AI = "alphabeta:depth=30,time=300"  # holds its client's only slot far longer than the test takes


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``boomboard serve`` on a free port, one AI at a time per client, the proxy at 127.0.0.2 trusted;
    yields its port."""
    with serving(tmp_path_factory.mktemp("guard"), "--workers", "1", "--ai-per-client", "1",
                 "--ai-max-time", "300", "--trusted-proxy", PROXY) as address:
        yield int(address.rsplit(":", 1)[1].rstrip("/"))


def call(port, method, path, body=None, headers=None, source="127.0.0.1"):
    """One request from the address ``source``, without following anything: ``(status, JSON body)``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        sent = dict(headers or {}, **({"Content-Type": "application/json"} if body is not None else {}))
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def thinking_game(port, **kwargs) -> str:
    """A game against a human whose AI moves first and holds its client's slot: its id (an AI-vs-AI
    game would not: only watched, its moves are not counted against the client)."""
    status, game = call(port, "POST", "/api/games", {"game": "jump61(size=16)", "players": [SLOW_AI, "human"]},
                        **kwargs)
    assert status == 201, game
    assert game["thinking"], game
    return game["id"]


def refusals(port, game_id, requests: list[dict]) -> list[str]:
    """Send the analyses ``requests`` (keyword arguments of :func:`call`) at once; wait until as many
    have been refused with 429 as must be (all but the two that fit the client's queue), and return
    their messages. Those let in wait behind the AI until the server stops."""
    pool = ThreadPoolExecutor(len(requests))
    futures = [pool.submit(call, port, "GET", f"/api/games/{game_id}/analysis", **kwargs) for kwargs in requests]
    refused = []
    try:
        for future in as_completed(futures, timeout=120):
            status, body = future.result()
            assert status == 429, body  # nothing but a refusal can come back while the AI holds the slot
            refused.append(body["error"])
            if len(refused) == len(requests) - 2:
                return refused
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    raise AssertionError("unreachable: as_completed raises on its timeout")


def test_a_host_the_server_is_not_for_is_refused(server):
    status, body = call(server, "GET", "/api/catalog", headers={"Host": "evil.example"})
    assert status == 400 and "evil.example" in body["error"]
    assert call(server, "GET", "/api/catalog", headers={"Host": f"localhost:{server}"})[0] == 200


def test_a_forwarded_for_header_does_not_make_a_new_client(server):
    """Ten analyses with ten made-up X-Forwarded-For values once all got a
    worker; from one connection's address they are one client: its AI move
    runs, two analyses wait, the others are 429."""
    game_id = thinking_game(server, headers={"X-Forwarded-For": "198.51.100.1"})
    messages = refusals(server, game_id, [{"headers": {"X-Forwarded-For": f"198.51.100.{n}"}}
                                          for n in range(10, 16)])
    assert all("at most 3 at once from one client" in message for message in messages)


def test_a_trusted_proxy_names_the_client(server):
    game_id = thinking_game(server, headers={"X-Forwarded-For": "203.0.113.7"}, source=PROXY)
    messages = refusals(server, game_id, [{"headers": {"X-Forwarded-For": "203.0.113.7"}, "source": PROXY}] * 4)
    assert len(messages) == 2 and all("at most 3" in message for message in messages)
