"""The web server's limits on requests, event streams and slow clients
(``boomboard.web.limits``): each is refused with its own status, naming the
limit, before any work that could hold up the other requests.

The body and parameter limits are checked in process; the head, the idle
timeouts, the event streams and the load shedding on a real uvicorn server
in a thread (loopback, a free port), since only a connection shows them.
Every wait is on the condition itself, with a deadline of tens of seconds."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
import uvicorn  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from boomboard.cli.serve import register  # noqa: E402
from boomboard.core.errors import ParameterError  # noqa: E402
from boomboard.web import WebSettings, analysis, create_app  # noqa: E402
from boomboard.web.limits import (ARRIVED, LAG_TICKS, THREAD_QUEUE_FACTOR, ClientBusy, RequestLimits,  # noqa: E402
                                  ServerLimits, ThreadWork, uvicorn_options)
from boomboard.web.service import AgentLimits  # noqa: E402
from web_helpers import assert_error  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 60.0  # seconds to wait for a condition on a loaded machine
SMALL = ServerLimits(body_bytes=1_000, parameters=20, head_bytes=2_000, streams_per_client=2, streams=3,
                     idle_timeout=1.0, requests=2, wait_seconds=0.5)
NEW_GAME = {"game": "kaboom", "players": ["human", "human"]}




@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, server_limits=SMALL))) as client:
        yield client


# -- body and parameters, before any parsing ----------------------------------------------------

def test_a_body_past_the_limit_is_a_413_from_its_length_or_as_it_streams(client):
    big = json.dumps({**NEW_GAME, "position": "x" * 2_000})
    assert_error(client.post("/api/games", content=big, headers={"content-type": "application/json"}),
                   413, "over 1,000 bytes", "--max-body")

    def chunks():  # no Content-Length: counted as it comes
        for _ in range(20):
            yield b" " * 100

    response = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert_error(response, 413, "--max-body")
    assert client.post("/api/games", json=NEW_GAME).status_code == 201  # a small body is taken


def test_a_fifty_megabyte_body_is_refused_by_the_default_limit(tmp_path):
    body = b'{"game": "kaboom", "position": "' + b"x" * 50_000_000 + b'"}'
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        assert_error(client.post("/api/games", content=body, headers={"content-type": "application/json"}),
                       413, "65,536 bytes", "--max-body")


def test_too_many_query_parameters_or_json_members_are_a_400_naming_the_limit(client):
    query = "&".join(f"k{i}=1" for i in range(21))
    assert_error(client.get(f"/api/games?{query}"), 400, "21 parameters", "at most 20", "--max-parameters")
    params = {f"k{i}": 1 for i in range(30)}
    assert_error(client.post("/api/games", json={**NEW_GAME, "params": params}), 400, "object members",
                   "at most 20", "--max-parameters")
    assert client.get("/api/games?limit=5&offset=0").status_code == 200


def test_json_nested_too_deeply_is_a_400(tmp_path):
    body = "[" * 30_000 + "]" * 30_000  # under the size limit, past Python's recursion limit
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        assert_error(client.post("/api/analysis", content=body, headers={"content-type": "application/json"}),
                       400, "nested too deeply")


def test_a_body_that_is_not_json_still_gets_the_apps_own_answer(client):
    response = client.post("/api/games", content="{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422


def test_each_limit_must_be_positive_and_names_its_option():
    with pytest.raises(ParameterError, match="--max-streams must be a positive integer"):
        ServerLimits(streams=0)
    with pytest.raises(ParameterError, match="--idle-timeout must be a positive number"):
        ServerLimits(idle_timeout=float("inf"))
    with pytest.raises(ParameterError, match="--max-body"):
        ServerLimits(body_bytes=1.5)


def test_the_serve_options_default_to_the_limits_and_the_docs_list_them():
    import typer
    from typer.main import get_command

    app = typer.Typer()
    register(app)
    defaults = {option: param.default for param in get_command(app).params
                for option in param.opts}
    limits = ServerLimits()
    web_doc = (ROOT / "docs" / "reference" / "web-server.md").read_text()  # the options reference
    for name, option in ServerLimits.OPTIONS.items():
        assert defaults[option] == getattr(limits, name), option
        assert f"`{option}`" in web_doc, option


def test_the_limits_statuses_are_in_the_schema(client):
    responses = client.get("/openapi.json").json()["paths"]["/api/games"]["post"]["responses"]
    assert {"408", "413", "431", "503"} <= set(responses)


# -- on a real server ------------------------------------------------------------------------------

class LiveServer:
    """uvicorn serving ``app`` with ``limits`` on a free loopback port, in a thread."""

    def __init__(self, app, limits: ServerLimits):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", **uvicorn_options(limits)))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True)
        self.thread.start()
        wait_for(lambda: self.server.started, "the server to start")

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        """A connection from ``source`` (another loopback address is another client)."""
        return socket.create_connection(("127.0.0.1", self.port), timeout=DEADLINE, source_address=(source, 0))

    def connections(self) -> int:
        return len(self.server.server_state.connections)

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=DEADLINE)


def wait_for(condition, what: str):
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"waited {DEADLINE:g} s for {what}")


def request(server: LiveServer, method: str, path: str, body: dict | None = None, source: str = "127.0.0.1"):
    """(status, headers, body) of one request on a fresh connection."""
    data = b"" if body is None else json.dumps(body).encode()
    with server.connect(source) as connection:
        connection.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                           f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
        return parse(read_to_end(connection))


def read_to_end(connection: socket.socket) -> bytes:
    data = b""
    while chunk := connection.recv(65536):
        data += chunk
    return data


def parse(data: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def open_stream(server: LiveServer, game_id: str, source: str = "127.0.0.1"):
    """A connection asking for a game's events, the status of the answer and
    its head (the connection stays open while the stream does; a refusal closes it)."""
    connection = server.connect(source)
    connection.sendall(f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                       f"\r\n".encode())
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(4096)
        assert chunk, received
        received += chunk
    status = int(received.split()[1])
    return connection, status, received if status == 200 else received + read_to_end(connection)


@pytest.fixture
def live(tmp_path):
    servers = []

    def start(server_limits: ServerLimits = SMALL, **options) -> LiveServer:
        app = create_app(tmp_path / f"web{len(servers)}.sqlite3", WebSettings(workers=0, server_limits=server_limits, **options))
        servers.append(LiveServer(app, server_limits))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def test_event_streams_are_capped_per_client_and_in_all(live):
    server = live()
    status, _, body = request(server, "POST", "/api/games", NEW_GAME)
    assert status == 201
    game_id = json.loads(body)["id"]
    first, status, _ = open_stream(server, game_id)
    second, status_2, _ = open_stream(server, game_id)
    assert status == status_2 == 200
    third, status, answer = open_stream(server, game_id)  # this client's third
    assert status == 429 and b"--streams-per-client" in answer, answer
    other, status, _ = open_stream(server, game_id, source="127.0.0.2")  # another client: the server's third
    assert status == 200
    fourth, status, answer = open_stream(server, game_id, source="127.0.0.3")
    assert status == 503 and b"retry-after: 1" in answer.lower() and b"--max-streams" in answer, answer
    first.close()  # a stream that ends gives its place back

    def opened():
        connection, status, _ = open_stream(server, game_id, source="127.0.0.3")
        if status != 200:
            connection.close()
        return connection if status == 200 else None

    wait_for(opened, "a place freed by a closed stream").close()
    for connection in (second, third, other, fourth):
        connection.close()


def test_a_head_too_large_is_a_431_and_one_too_slow_a_408(live):
    server = live()
    with server.connect() as connection:
        connection.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"x" * 3_000)
        status, _, body = parse(read_to_end(connection))
        assert status == 431 and b"over 2,000 bytes" in body and b"--max-head" in body
    with server.connect() as connection:  # a head that never ends: answered and closed after the idle timeout
        connection.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        status, _, body = parse(read_to_end(connection))
        assert status == 408 and b"--idle-timeout" in body
    with server.connect() as connection:  # a connection that sends nothing is closed
        assert read_to_end(connection) == b""


def test_a_body_too_slow_is_a_408(live):
    server = live()
    with server.connect() as connection:
        connection.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 100\r\n\r\n{\"game\": ")
        status, _, body = parse(read_to_end(connection))
        assert status == 408 and b"request body did not arrive" in body


def test_a_client_that_stops_reading_its_answer_is_disconnected(live):
    server = live()
    with server.connect() as connection:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        # answers far larger than the socket buffers hold, asked for all at once and never read
        connection.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 400)
        wait_for(lambda: server.connections() == 0, "the server to drop the connection")


def test_past_the_requests_limit_the_server_sheds_load_with_a_503_and_retry_after(live, monkeypatch):
    release, started = threading.Event(), []

    def slow_analysis(*args):
        started.append(args)
        assert release.wait(DEADLINE)
        return {"moves": []}

    monkeypatch.setattr(analysis, "analyse", slow_analysis)
    server = live(limits=AgentLimits(per_client=2))  # the two analyses run at once
    line = {"game": "kaboom", "actions": []}
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(request(server, "POST", "/api/analysis", line)))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    wait_for(lambda: len(started) == 2, "two analyses to be under way")
    status, headers, body = request(server, "GET", "/api/catalog")
    assert status == 503 and headers["retry-after"] == "1", body
    assert b"2 requests are being answered" in body and b"--max-requests" in body
    release.set()
    for thread in threads:
        thread.join(DEADLINE)
    assert [status for status, _, _ in answers] == [200, 200]
    assert request(server, "GET", "/api/catalog")[0] == 200


def test_a_request_that_waited_past_the_limit_for_its_turn_is_shed_with_a_503():
    answered = []

    async def app(scope, receive, send):
        answered.append(scope["path"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def call(waited: float) -> list[dict]:
        sent = []

        async def send(message):
            sent.append(message)

        async def receive():
            return {"type": "http.disconnect"}

        scope = {"type": "http", "path": f"/waited-{waited}", "query_string": b"", "headers": [],
                 ARRIVED: asyncio.get_running_loop().time() - waited}
        await RequestLimits(app, SMALL)(scope, receive, send)
        return sent

    shed = asyncio.run(call(waited=5.0))
    assert shed[0]["status"] == 503 and (b"retry-after", b"1") in shed[0]["headers"]
    assert b"waited over 0.5 s" in shed[1]["body"] and b"--max-wait" in shed[1]["body"]
    assert asyncio.run(call(waited=0.0))[0]["status"] == 204
    assert answered == ["/waited-0.0"]  # the app never saw the request that waited too long


def test_a_request_that_waited_in_its_socket_while_the_loop_ran_late_is_shed_with_a_503():
    # Issue 47, item 3: the time a request waits before its head is read was not counted, so
    # shedding did not see a loop too busy to read its sockets. Here the loop is held up again
    # and again, and a request sent during the last hold-up is read the moment it ends: it waited
    # in its socket, not in the server's queue, and is shed all the same.
    limits = dataclasses.replace(SMALL, wait_seconds=0.1)
    last_stall = threading.Event()

    def hold_up_the_loop(loop, left: int) -> None:
        if left == 1:
            last_stall.set()
        # each hold-up longer than a request may wait; the last leaves time for the request to be sent
        time.sleep(2 * limits.wait_seconds if left > 1 else 10 * limits.wait_seconds)
        if left > 1:
            loop.call_soon(hold_up_the_loop, loop, left - 1)

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            return
        if scope["path"] == "/stall":  # the loop's looks at its lateness may come one every two hold-ups
            loop = asyncio.get_running_loop()
            loop.call_soon(hold_up_the_loop, loop, 2 * LAG_TICKS + 2)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    server = LiveServer(RequestLimits(app, limits), limits)
    try:
        assert request(server, "GET", "/stall")[0] == 204
        assert last_stall.wait(DEADLINE)
        status, headers, body = request(server, "GET", "/late")
        assert status == 503 and headers["retry-after"] == "1", body
        assert b"waited over 0.1 s" in body
        # once the loop keeps time again, requests are answered again
        wait_for(lambda: request(server, "GET", "/on-time")[0] == 204, "a request answered after the hold-ups")
    finally:
        server.close()


def test_a_clients_blocking_work_runs_one_at_a_time_and_past_its_queue_is_refused_while_others_go_on():
    # Issue 47, item 3: heavy requests that are cheap to send run in threads, bounded per client.
    release = threading.Event()
    running: list[str] = []
    most_at_once = {"a": 0}

    def blocking(client: str) -> str:
        running.append(client)
        most_at_once[client] = max(most_at_once.get(client, 0), running.count(client))
        try:
            if client == "a":
                assert release.wait(DEADLINE)
            return client
        finally:
            running.remove(client)

    async def scenario():
        work = ThreadWork(threads=4, per_client=1)
        try:
            queued = [asyncio.ensure_future(work.run("a", blocking, "a")) for _ in range(THREAD_QUEUE_FACTOR)]
            await asyncio.sleep(0)  # each has taken its place
            with pytest.raises(ClientBusy, match="at most 1 of one client's at once"):
                await work.run("a", blocking, "a")
            # another client is not held up by the first one's queue
            assert await asyncio.wait_for(work.run("b", blocking, "b"), DEADLINE) == "b"
            release.set()
            assert await asyncio.wait_for(asyncio.gather(*queued), DEADLINE) == ["a"] * THREAD_QUEUE_FACTOR
            assert await work.run("a", blocking, "a") == "a"  # its queue drained, the client is served again
        finally:
            release.set()
            work.close()

    asyncio.run(scenario())
    assert most_at_once["a"] == 1


def test_the_server_stamps_when_each_request_was_read_and_answers_without_delay():
    stamps = []

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            return
        stamps.append(scope.get(ARRIVED))
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    server = LiveServer(app, SMALL)
    try:
        before = time.monotonic()
        with server.connect() as kept:  # two requests on one connection: each is stamped
            for _ in range(2):
                kept.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                answer = b""
                while b"\r\n\r\n" not in answer:
                    answer += kept.recv(4096)
                assert answer.startswith(b"HTTP/1.1 204")
            assert len(stamps) == 2 and all(before <= stamp <= time.monotonic() for stamp in stamps)
            protocol = wait_for(lambda: next(iter(server.server.server_state.connections), None), "a connection")
            connection = protocol.transport.get_extra_info("socket")
            # no Nagle delay: an answer on a kept connection is sent at once, not after the client's ACK
            assert connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        server.close()
