"""What one request, one client and all clients together may hold of the web
server, and the status each refusal gets.

The server answers every request on one event loop, in one core: a request
that makes it parse a huge body, or a crowd of requests it queues rather
than refuses, makes every other request wait. So the checks here come
before any parsing, and each refusal names its limit and the ``boomboard
serve`` option that sets it:

- a body past ``body_bytes`` is a 413, from its ``Content-Length`` before a
  byte of it is read, or as soon as it streams past the limit;
- more than ``parameters`` query parameters, or JSON object members in the
  body, is a 400 (counted on the query string's separators and on a JSON
  parse of the body, which the size limit keeps short);
- a request head (request line and headers) past ``head_bytes`` is a 431;
- a head or a body not received within ``idle_timeout`` seconds is a 408
  (slow clients), and a client that reads nothing of its answer for that
  long is disconnected;
- more than ``streams_per_client`` event streams of one client is a 429,
  more than ``streams`` in all a 503;
- a request that has waited ``wait_seconds`` in the server's queue (from
  the moment its head was read to the moment the app gets to it, and before
  that, in its socket, as long as the event loop runs late: :class:`LoopLag`), or that
  comes while ``requests`` requests are being answered, is a 503 with
  ``Retry-After``: an answer in a few milliseconds rather than one after
  seconds in a queue (a request counts as being answered from the end of
  its body to the start of its answer, so neither a slow body nor an event
  stream holds a place);
- work of a request that would hold the event loop (a replay of a whole
  game, a list of hundreds of games) runs in one of :data:`WORK_THREADS`
  threads (:class:`ThreadWork`), at most :data:`WORK_THREADS_PER_CLIENT`
  of one client at once; a client with :data:`THREAD_QUEUE_FACTOR` times
  that many running or waiting gets a 429 with ``Retry-After``.

:class:`RequestLimits` is the ASGI middleware that applies the request
limits (``create_app`` adds it), :class:`StreamSlots` counts the event
streams, and :func:`uvicorn_options` gives uvicorn the protocol that applies
the head and idle limits, which only the connection itself can see.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields

from ..core.errors import BoomboardError, ParameterError

MAX_BODY_BYTES = 65_536  # a game's request is well under 4 KiB; the longest line of play under 64 KiB
MAX_PARAMETERS = 256
MAX_HEAD_BYTES = 16_384  # h11's own default
MAX_STREAMS_PER_CLIENT = 8  # a few tabs of one browser
MAX_STREAMS = 100
IDLE_TIMEOUT = 10.0
MAX_REQUESTS = 48
MAX_WAIT_SECONDS = 0.5
RETRY_AFTER_SECONDS = 1
KEEP_ALIVE_SECONDS = 5  # uvicorn's default: an idle connection between two requests
# on a refusal whose request may not have been read to its end: the rest is not worth reading
CLOSE = ((b"connection", b"close"),)
# The scope's key for the event loop's time at which the request's head was
# read, less the time it is reckoned to have waited in its socket before
# (LoopLag): set by the protocol of uvicorn_options; absent elsewhere, e.g. in tests.
ARRIVED = "boomboard.arrived"
# The scope's key for the seconds a request waited from ARRIVED until the app got it (RequestLimits).
WAITED = "boomboard.waited"
# How often LoopLag looks at how late the event loop runs, and over how many looks it takes the least.
LAG_TICK_SECONDS = 0.02
LAG_TICKS = 5
# Threads for requests' blocking work (ThreadWork), in all and for one client at once.
WORK_THREADS = 4
WORK_THREADS_PER_CLIENT = 1
# A client with this many times its threads' share of work waiting is refused (429).
THREAD_QUEUE_FACTOR = 4
# How often, in seconds, a thread holding Python's interpreter lock hands it to another that waits, while the
# server runs (Python's default is 5 ms): the event loop's thread waits that long for a request thread's turn
# each time it wakes, and at the default a request to another client took 4 times as long at the median
# (44 ms against 11, two clients hammering the heaviest cheap requests, docs/results/benchmarks.md).
SWITCH_INTERVAL_SECONDS = 0.001


@dataclass(frozen=True)
class ServerLimits:
    """The server's limits on requests, event streams and slow clients (see
    the module's description; each is set by a ``boomboard serve`` option)."""

    body_bytes: int = MAX_BODY_BYTES
    parameters: int = MAX_PARAMETERS
    head_bytes: int = MAX_HEAD_BYTES
    streams_per_client: int = MAX_STREAMS_PER_CLIENT
    streams: int = MAX_STREAMS
    idle_timeout: float = IDLE_TIMEOUT
    requests: int = MAX_REQUESTS
    wait_seconds: float = MAX_WAIT_SECONDS

    OPTIONS = {"body_bytes": "--max-body", "parameters": "--max-parameters", "head_bytes": "--max-head",
               "streams_per_client": "--streams-per-client", "streams": "--max-streams",
               "idle_timeout": "--idle-timeout", "requests": "--max-requests", "wait_seconds": "--max-wait"}

    def __post_init__(self):
        for limit in fields(self):
            value = getattr(self, limit.name)
            whole = limit.type == "int"
            if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)) \
                    or not 0 < value < float("inf"):
                kind = "a positive integer" if whole else "a positive number"
                raise ParameterError(f"{self.OPTIONS[limit.name]} must be {kind}, got {value!r}")

    def option(self, name: str) -> str:
        """``"boomboard serve --OPTION"``, for the refusals' messages."""
        return f"boomboard serve {self.OPTIONS[name]}"


class ClientBusy(BoomboardError):
    """A client with too much of a kind of work waiting (a 429 with ``Retry-After``)."""

    retry_after = RETRY_AFTER_SECONDS


class ThreadWork:
    """Requests' blocking work (SQLite reads, replays of whole games, the
    JSON of long lists) in ``threads`` threads of its own, off the event
    loop, so that a request that is cheap to send cannot hold every other
    one up: at most ``per_client`` calls of one client run at once, the
    others wait their turn, and past :data:`THREAD_QUEUE_FACTOR` times that
    many waiting the client gets :class:`ClientBusy`."""

    def __init__(self, threads: int = WORK_THREADS, per_client: int = WORK_THREADS_PER_CLIENT):
        self.per_client = per_client
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="boomboard-request")
        self._slots: dict[str | None, asyncio.Semaphore] = {}
        self._load: dict[str | None, int] = {}  # a client's calls running or waiting

    async def run(self, client: str | None, function, *args):
        """``function(*args)`` in a thread, within ``client``'s share."""
        load = self._load.get(client, 0)
        if load >= THREAD_QUEUE_FACTOR * self.per_client:
            raise ClientBusy(f"this client has {load} requests being worked on; the server works on at most "
                             f"{self.per_client} of one client's at once and keeps "
                             f"{THREAD_QUEUE_FACTOR * self.per_client} waiting: try again when they are answered")
        slots = self._slots.get(client)
        if slots is None:
            slots = self._slots[client] = asyncio.Semaphore(self.per_client)
        self._load[client] = load + 1
        try:
            async with slots:
                return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)
        finally:
            self._load[client] -= 1
            if not self._load[client]:  # nothing of this client waits: its slots go too
                del self._load[client]
                self._slots.pop(client, None)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class LoopLag:
    """How late the event loop runs (``seconds``): the least of its last
    :data:`LAG_TICKS` looks, one every :data:`LAG_TICK_SECONDS`. While the
    loop has more to do than it can, a request's bytes wait about that long
    in their socket before the loop reads them, a wait the server cannot
    see otherwise, so its head's time is taken as that much earlier
    (``ARRIVED``). The least, not the last: one long stall (a game's
    kernels loaded on the loop) says nothing of how long the bytes read
    after it waited."""

    def __init__(self):
        self._late: deque[float] = deque([0.0], maxlen=LAG_TICKS)
        self._loop = None

    @property
    def seconds(self) -> float:
        return min(self._late)

    def watch(self, loop) -> None:
        """Look at ``loop`` from now on (once per loop)."""
        if self._loop is not loop:
            self._loop = loop
            loop.call_later(LAG_TICK_SECONDS, self._tick, loop, loop.time() + LAG_TICK_SECONDS)

    def _tick(self, loop, due: float) -> None:
        self._late.append(max(loop.time() - due, 0.0))
        if self._loop is loop and not loop.is_closed():
            loop.call_later(LAG_TICK_SECONDS, self._tick, loop, loop.time() + LAG_TICK_SECONDS)


class TooManyStreams(BoomboardError):
    """An event stream past a limit: ``status`` is 429 (this client's) or 503 (the server's)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class StreamSlots:
    """The event streams open, per client and in all. :meth:`open` takes a
    slot or raises :class:`TooManyStreams`; the slot's ``release`` gives it
    back (once, however often it is called)."""

    def __init__(self, limits: ServerLimits):
        self.limits = limits
        self.by_client: dict[str | None, int] = {}
        self.open_streams = 0

    def open(self, client: str | None) -> _StreamSlot:
        limits = self.limits
        if self.by_client.get(client, 0) >= limits.streams_per_client:
            raise TooManyStreams(f"this client has {limits.streams_per_client} event streams open, the most "
                                 f"the server allows one client ({limits.option('streams_per_client')}); "
                                 f"close one first", 429)
        if self.open_streams >= limits.streams:
            raise TooManyStreams(f"the server has {limits.streams} event streams open, its limit "
                                 f"({limits.option('streams')}); poll GET /api/games/ID instead, or retry "
                                 f"later", 503)
        self.by_client[client] = self.by_client.get(client, 0) + 1
        self.open_streams += 1
        return _StreamSlot(self, client)

    def _release(self, client: str | None) -> None:
        self.open_streams -= 1
        self.by_client[client] -= 1
        if not self.by_client[client]:
            del self.by_client[client]


class _StreamSlot:
    __slots__ = ("slots", "client")

    def __init__(self, slots: StreamSlots, client: str | None):
        self.slots, self.client = slots, client

    def release(self) -> None:
        slots, self.slots = self.slots, None
        if slots is not None:
            slots._release(self.client)


# -- the middleware ----------------------------------------------------------------------------

class Refusal(Exception):
    """A request refused before the app sees it: its status, message and extra headers."""

    def __init__(self, status: int, message: str, headers: tuple[tuple[bytes, bytes], ...] = ()):
        super().__init__(message)
        self.status, self.headers = status, headers


async def send_refusal(send, refusal: Refusal) -> None:
    """Answer with ``{"error": ...}``, the app's own form of an error."""
    body = json.dumps({"error": str(refusal)}).encode()
    await send({"type": "http.response.start", "status": refusal.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *refusal.headers]})
    await send({"type": "http.response.body", "body": body})


class RequestLimits:
    """ASGI middleware: the body, parameter and load limits of ``limits``
    (a :class:`ServerLimits`), checked before the app sees the request."""

    def __init__(self, app, limits: ServerLimits):
        self.app, self.limits = app, limits
        self.working = 0  # requests admitted whose answer has not started

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limits = self.limits
        try:  # a slow body waits here without holding a place among the requests being answered
            arrived = scope.get(ARRIVED)
            if arrived is not None:
                scope[WAITED] = asyncio.get_running_loop().time() - arrived
            if scope.get(WAITED, 0.0) > limits.wait_seconds:
                raise self._busy(f"this request waited over {limits.wait_seconds:g} s for its turn, the most the "
                                 f"server lets one wait ({limits.option('wait_seconds')})")
            self._check_query(scope["query_string"])
            receive = await self._read_body(scope, receive)
            if self.working >= limits.requests:
                raise self._busy(f"{limits.requests} requests are being answered, the server's limit "
                                 f"({limits.option('requests')})")
        except Refusal as refusal:
            await send_refusal(send, refusal)
            return
        self.working += 1
        working = [True]

        def done() -> None:
            if working[0]:
                working[0] = False
                self.working -= 1

        async def send_and_count(message):
            if message["type"] == "http.response.start":
                done()
            await send(message)

        try:
            await self.app(scope, receive, send_and_count)
        finally:
            done()

    @staticmethod
    def _busy(why: str) -> Refusal:
        return Refusal(503, f"the server is busy: {why}; retry in {RETRY_AFTER_SECONDS} s",
                       ((b"retry-after", str(RETRY_AFTER_SECONDS).encode()),))

    def _check_query(self, query: bytes) -> None:
        count = query.count(b"&") + 1 if query else 0
        if count > self.limits.parameters:
            raise Refusal(400, f"the query string has {count} parameters; the server takes at most "
                               f"{self.limits.parameters} ({self.limits.option('parameters')})")

    async def _read_body(self, scope, receive):
        """Read the whole body (within the limits), and give the app a
        ``receive`` that hands it over; a request without one is left as it is."""
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is None and b"transfer-encoding" not in headers:
            return receive
        limit = self.limits.body_bytes
        too_large = Refusal(413, f"the request body is over {limit:,} bytes, the most the server takes "
                                 f"({self.limits.option('body_bytes')})", CLOSE)
        if length is not None and (not length.isdigit() or int(length) > limit):
            raise too_large if length.isdigit() else Refusal(400, "Content-Length is not a number")
        chunks, size = [], 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.idle_timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0))
            except TimeoutError:
                raise Refusal(408, f"the request body did not arrive within {self.limits.idle_timeout:g} s "
                                   f"({self.limits.option('idle_timeout')})", CLOSE) from None
            if message["type"] != "http.request":  # the client went away: nothing to answer
                return _replay(b"", receive)
            size += len(message.get("body", b""))
            if size > limit:
                raise too_large
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        self._check_json_members(body, headers.get(b"content-type", b""))
        return _replay(body, receive)

    def _check_json_members(self, body: bytes, content_type: bytes) -> None:
        if b"json" not in content_type or not body:
            return
        members = 0

        def count(pairs):
            nonlocal members
            members += len(pairs)
            return None  # the objects themselves are not kept: the app parses the body again

        try:
            json.loads(body, object_pairs_hook=count)
        except RecursionError:
            raise Refusal(400, "the JSON body is nested too deeply") from None
        except ValueError:  # not JSON: the app says what is wrong with it
            return
        if members > self.limits.parameters:
            raise Refusal(400, f"the JSON body has {members} object members; the server takes at most "
                               f"{self.limits.parameters} ({self.limits.option('parameters')})")


def _replay(body: bytes, receive):
    sent = False

    async def replay():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # after the body: the disconnect, when it comes

    return replay


# Documented in the app's OpenAPI schema: every operation may answer these.
LIMIT_RESPONSES = {
    408: {"description": "the request's head or body came too slowly (boomboard serve --idle-timeout)"},
    413: {"description": "the request body is too large (boomboard serve --max-body)"},
    431: {"description": "the request's head is too large (boomboard serve --max-head)"},
    503: {"description": "the server is busy (boomboard serve --max-requests) or has its most event streams "
                         "open (--max-streams): retry after the Retry-After header's seconds"},
}


# -- the connection ------------------------------------------------------------------------------

def uvicorn_options(limits: ServerLimits) -> dict:
    """``uvicorn.Config``'s options for ``limits``: the HTTP protocol that
    applies the head size and the idle timeouts (only the connection sees a
    head before it is whole, and a client that stopped reading), and stamps
    each request with the time its head was read; and asyncio's own event
    loop, not uvloop, which under load left connections waiting seconds to
    be accepted (190 in the listen queue at 800 requests a second, see
    docs/results/benchmarks.md) where asyncio's accepts them at once."""
    return {"http": _limited_protocol(limits), "h11_max_incomplete_event_size": limits.head_bytes,
            "timeout_keep_alive": KEEP_ALIVE_SECONDS, "loop": "asyncio"}


def _raw_refusal(status: int, reason: str, message: str) -> bytes:
    """A whole answer, written to a connection that h11 cannot answer on
    (no request has come yet), which is then closed."""
    body = json.dumps({"error": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"connection: close\r\n\r\n").encode() + body


def _send_at_once(transport) -> None:
    """Turn Nagle's algorithm off on a TCP connection: asyncio does it only on
    sockets made with proto=IPPROTO_TCP, which the listener of
    socket.create_server is not, and without it each answer on a kept
    connection waited about 40 ms for the client's delayed ACK."""
    connection = transport.get_extra_info("socket")
    if connection is not None and connection.family in (socket.AF_INET, socket.AF_INET6):
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _limited_protocol(limits: ServerLimits):
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    lag = LoopLag()

    class LimitedH11Protocol(H11Protocol):
        """uvicorn's HTTP/1.1 protocol, with a request head held to
        ``head_bytes`` (431) and to ``idle_timeout`` seconds from its first
        byte or the connection's start (408), a connection cut when its
        client reads nothing of the answer for ``idle_timeout`` seconds, and
        each request's scope stamped with the time its head was read, less
        the time it waited in the socket while the loop ran late (``ARRIVED``),
        from which :class:`RequestLimits` sees its wait."""

        head_timer: asyncio.TimerHandle | None = None
        write_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            lag.watch(self.loop)
            _send_at_once(transport)
            self.head_timer = self.loop.call_later(limits.idle_timeout, self.head_too_slow)

        def data_received(self, data: bytes) -> None:
            if self.conn.their_state is h11.IDLE:  # a head is coming: is it too large already?
                head = self.conn.trailing_data[0] + data
                if len(head) > limits.head_bytes and head.find(b"\r\n\r\n", 0, limits.head_bytes) < 0:
                    self.refuse(431, "Request Header Fields Too Large",
                                f"the request's head (request line and headers) is over {limits.head_bytes:,} "
                                f"bytes, the most the server takes ({limits.option('head_bytes')})")
                    return
            starting = self.conn.their_state is h11.IDLE
            arrived = self.loop.time() - lag.seconds
            super().data_received(data)
            if starting and self.conn.their_state is not h11.IDLE and self.scope is not None:
                self.scope[ARRIVED] = arrived  # read before its task first runs: the task sees it
            if self.conn.their_state is not h11.IDLE:
                self.cancel_head_timer()
            elif self.head_timer is None and not self.transport.is_closing():
                self.head_timer = self.loop.call_later(limits.idle_timeout, self.head_too_slow)

        def head_too_slow(self) -> None:
            self.head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                if self.conn.trailing_data[0]:
                    self.refuse(408, "Request Timeout", f"the request's head did not arrive within "
                                f"{limits.idle_timeout:g} s ({limits.option('idle_timeout')})")
                else:  # nothing asked: nothing to answer
                    self.transport.close()

        def refuse(self, status: int, reason: str, message: str) -> None:
            self.cancel_head_timer()
            self.transport.write(_raw_refusal(status, reason, message))
            self.transport.close()

        def cancel_head_timer(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def pause_writing(self) -> None:
            super().pause_writing()
            if self.write_timer is None:
                self.write_timer = self.loop.call_later(limits.idle_timeout, self.transport.abort)

        def resume_writing(self) -> None:
            super().resume_writing()
            if self.write_timer is not None:
                self.write_timer.cancel()
                self.write_timer = None

        def connection_lost(self, exc) -> None:
            self.cancel_head_timer()
            if self.write_timer is not None:
                self.write_timer.cancel()
                self.write_timer = None
            super().connection_lost(exc)

    return LimitedH11Protocol
