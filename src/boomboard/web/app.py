"""The web app: a JSON API over the games, and the static page that uses it.

``create_app(db_path)`` builds a FastAPI application; ``boomboard serve``
runs it with uvicorn. Every error a request can cause comes back as a 4xx
response with a JSON body ``{"error": "..."}`` saying what was expected:
400 for bad input (unknown game, bad parameter, bad notation, illegal move),
404 for an unknown id, 409 for a request that does not fit the game's state
(not a human's turn, game over; a stored game that cannot be read), 403
for a change to a game another client owns (see "Owners" below), 422 for
a malformed request body; and
before the app sees it (:mod:`boomboard.web.guard`), 400 for a host the
server is not for, 403 for a change asked by another site's page, 415 for
a change without a JSON body.

Owners: a game belongs to the client that made it. ``POST /api/games``
takes the client's owner token in the ``X-Boomboard-Owner`` header (the
page makes one per browser and sends it with every change), or makes one
and answers it as ``owner_token``; the store keeps only its hash. A move,
undo, resignation, stop, pause or deletion must carry that token; without
it, a 403. Anyone may read, watch, analyse and copy any game. A game with no
owner (made before owners, or imported) is adopted by the first client that
changes it with a token.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import sys
import threading
from collections import OrderedDict
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from ..core.extras import require_extra

try:
    from fastapi import FastAPI, Request
    from fastapi.encoders import jsonable_encoder
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
    from fastapi.staticfiles import StaticFiles
    from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
    from starlette.exceptions import HTTPException as StarletteHTTPException
    from starlette.routing import Match
except ImportError:
    require_extra("web", "boomboard.web")
    raise

from ..agents import agent_kinds
from ..core.capabilities import PLAY, provides
from ..core.errors import BoomboardError, GameOverError, ParameterError
from ..core.params import format_value
from ..core.recent import Recent
from ..lab.sweep import default_store as default_lab_store
from ..records import MAX_RECORD_CHARS
from ..registry import DEFAULT_GAME, game_class, registered_games
from . import analysis, pages
from .archive import Archive, open_arena_store, replay_record
from .guard import GuardMiddleware, RequestGuard
from .lab import lab_page
from .models import ModelShelf
from .limits import (LIMIT_RESPONSES, RETRY_AFTER_SECONDS, ClientBusy, RequestLimits, ServerLimits,
                     StreamSlots, SWITCH_INTERVAL_SECONDS, ThreadWork, TooManyStreams, WAITED)
from .service import SESSIONS_KEPT, WATCH_GRACE_SECONDS, AgentLimits, Busy, Conflict, GameService, NotFound, Overloaded
from .store import (ABANDONED_AFTER_SECONDS, OWNER_HEADER, DamagedGame, GameStore, NotOwner, ReadOnlyStore,
                    StoreUnavailable, owner_hash)

STATIC = Path(__file__).parent / "static"
# Answers about games kept encoded (LRU): a 509-ply game's is 35 KB, 202 KB with the cascade of a long last move.
ANSWERS_KEPT = 64
# What a values request sends, one line a point as each is ready, when it asks for it (Accept).
POINTS_MEDIA_TYPE = "application/x-ndjson"

# The sides offered in the page's menus; any agent spec may be typed instead.
LEVELS = [
    {"spec": "human", "label": "Human"},
    {"spec": "random", "label": "AI: random"},
    {"spec": "greedy", "label": "AI: greedy (1 ply)"},
    {"spec": "alphabeta:depth=3", "label": "AI: easy (alpha-beta, 3 plies)"},
    {"spec": "ai:time=0.5", "label": "AI: medium (0.5 s a move)"},
    {"spec": "mcts:time=1", "label": "AI: Monte Carlo tree search (1 s a move)"},
    {"spec": "ai:time=2", "label": "AI: strong (2 s a move)"},
    {"spec": "solver", "label": "Solver (perfect play, where a table exists)"},
    {"spec": "learned", "label": "Learned net (self-play, where a model ships)"},  # learned:NAME: "models"
]


class NewGame(BaseModel):
    model_config = ConfigDict(strict=True)  # "seed": "5" or true is a malformed request, not a seed

    game: str = Field(description="a game name or game string, e.g. 'kaboom' or 'jump61(size=3)'",
                      examples=[DEFAULT_GAME])
    params: dict[str, Any] = Field(default_factory=dict)
    players: list[str] = Field(default_factory=lambda: ["human", "ai:time=0.5"], min_length=2, max_length=2,
                               examples=[["human", "human"], ["human", "random"]])
    position: str | None = None
    pace: float | None = None
    seed: int | None = None


class Move(BaseModel):
    move: StrictInt | StrictStr = Field(description="the move in the game's notation, or its action id")


class Line(BaseModel):
    model_config = ConfigDict(strict=True)

    game: str = Field(description="a game string, e.g. 'kaboom(rows=5)'")
    position: str | None = Field(None, description="the first position in the game's notation (default: the start)")
    actions: list[StrictInt] = Field(default_factory=list, description="action ids played since")


def _check_line(line: Line) -> None:
    """Replay the line here first, so that a bad one is a 400 with the reason, not a worker's failure."""
    analysis.rebuild(line.game, line.position, line.actions)


class RecordReplay(BaseModel):
    model_config = ConfigDict(strict=True)

    record: str = Field(description=f"one game record (docs/reference/records.md), at most {MAX_RECORD_CHARS:,} characters")
    ply: int | None = Field(None, ge=0, description="the moves to show played (default: all)")


class Resign(BaseModel):
    player: StrictInt | None = Field(None, ge=0, le=1, description="who resigns (default: the human to move)")


class Undo(BaseModel):
    """An undo takes no settings; its body is ``{}`` (a JSON body, as every change asks)."""


class Stop(BaseModel):
    """A stop takes no settings; its body is ``{}``."""


class Pause(BaseModel):
    paused: StrictBool = Field(True, description="true: hold the game; false: let it go on")


class ErrorBody(BaseModel):
    error: str = Field(description="what was wrong, and what was expected")


# Every operation may answer these (documented, so that the schema is what the app does).
ERROR_RESPONSES = {
    400: {"model": ErrorBody, "description": "bad input: an unknown game, a bad parameter, bad notation, an "
                                             "illegal move, a setting past the server's limits"},
    404: {"model": ErrorBody, "description": "no such game, record or ply"},
    409: {"model": ErrorBody, "description": "the request does not fit the game's state"},
    429: {"model": ErrorBody, "description": "this client has too much AI work, or too many long lists and "
                                             "replays, under way; retry after the Retry-After header's seconds"},
    503: {"model": ErrorBody, "description": "the games database refused the write (a full disk): nothing changed"},
    422: {"model": ErrorBody, "description": "a malformed request"},
    403: {"model": ErrorBody, "description": "a change asked by a page of another site (its Origin), or a change "
                                             "to a game another client owns (without its X-Boomboard-Owner token)"},
    415: {"model": ErrorBody, "description": "a change without a JSON body (Content-Type: application/json)"},
}


def _game_links() -> dict:
    """OpenAPI links from an answer that is a game (its ``id``) to what may be
    asked of that game next, so that tools such as Schemathesis can follow
    them (its event stream is left out: it lasts as long as the game)."""
    targets = {"GetGame": ("get", "/api/games/{game_id}"), "PlayMove": ("post", "/api/games/{game_id}/moves"),
               "Undo": ("post", "/api/games/{game_id}/undo"), "Resign": ("post", "/api/games/{game_id}/resign"),
               "Stop": ("post", "/api/games/{game_id}/stop"), "Pause": ("post", "/api/games/{game_id}/pause"),
               "Analyse": ("get", "/api/games/{game_id}/analysis"), "Values": ("get", "/api/games/{game_id}/values")}
    return {name: {"operationRef": f"#/paths/{path.replace('/', '~1')}/{method}",
                   "parameters": {"game_id": "$response.body#/id"}} for name, (method, path) in targets.items()}


GAME_LINKS = _game_links()


def _errors_as_json(success: str) -> dict:
    """The responses of an operation whose success is not JSON: its errors
    still are (given a ``model``, FastAPI would file them under the
    operation's own media type), and ``success`` describes the 200."""
    errors = {status: {"description": response["description"],
                       "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
              for status, response in ERROR_RESPONSES.items()}
    return {200: {"description": success}, **errors}


class EventStream(StreamingResponse):
    media_type = "text/event-stream"  # so that the schema says what the stream is


class PNG(Response):
    media_type = "image/png"


class RecordText(Response):
    media_type = "text/plain; charset=utf-8"


def _error_responses() -> dict:
    """The schema's error answers: the app's own and the server limits', a 503
    for either reason."""
    responses = {**LIMIT_RESPONSES, **ERROR_RESPONSES}
    responses[503] = {**ERROR_RESPONSES[503], "description": ERROR_RESPONSES[503]["description"] + "; or "
                      + LIMIT_RESPONSES[503]["description"] + "; or the AI workers are too busy to start an "
                      "analysis soon (boomboard serve --ai-max-queue-wait): retry after Retry-After's seconds"}
    return responses


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(db_path: str | Path, *, arena=None, arena_db: str | Path | None = None,
               solver_db: str | Path | None = None, workers: int | None = None, processes: bool = True,
               limits: AgentLimits | None = None, sessions_kept: int = SESSIONS_KEPT,
               guard: RequestGuard | None = None, models: str | Path | None = None,
               server_limits: ServerLimits | None = None,
               lab_store: str | Path | None = None, watch_grace: float = WATCH_GRACE_SECONDS) -> FastAPI:
    """The application, keeping its games in the SQLite file ``db_path``.

    The replay and tournament pages read the arena's records: ``arena`` is an
    open record store (``boomboard.arena.store.open_store``), else the one in
    the file ``arena_db`` (a :class:`ParameterError` if it cannot be used),
    else the arena's own default file (none if it cannot be used). The
    solver's values and the ``solver`` side come from the solved tables in
    the folder ``solver_db`` (default: the solver's own, ``BOOMBOARD_DB`` or
    the user's data directory; see ``docs/explanation/solver.md``). AI moves
    and analyses run in a pool of ``workers`` processes (default 2, or fewer
    on a machine that holds fewer; past the machine's cores and memory, as
    ``boomboard serve --workers``, a :class:`ParameterError` that names the
    limit; ``processes=False``: threads, for tests), within
    ``limits`` (:class:`AgentLimits`: the most each agent setting may ask, the
    AI work one client may run at once, and how long a request's AI work may
    wait for a worker). An AI-vs-AI game nobody has looked at for
    ``watch_grace`` seconds is stopped.
    At most ``sessions_kept`` idle games are held in memory (besides those
    whose AI is thinking); the others are read back from ``db_path`` when
    asked for (:class:`GameService`). ``guard`` (:class:`RequestGuard`;
    ``boomboard serve`` gives the one for its address) says which hosts the
    app answers for and which proxies' ``X-Forwarded-For`` it believes; by
    default it is that of a server on a loopback address (it answers only
    for ``localhost``, ``127.0.0.1`` and ``::1``) and reads no proxy header;
    and, as always, it refuses changes from other sites' pages and changes
    without a JSON body.
    A ``learned`` side names one of the models the app offers
    (:class:`~boomboard.web.models.ModelShelf`: those shipped, and those in
    the folder ``models``), never a path. Requests, event streams and slow
    clients are held to ``server_limits`` (:class:`~boomboard.web.limits.ServerLimits`).
    The lab's page (``/lab/GAME``) reads the store ``boomboard explore`` writes:
    ``lab_store``, else its default (:func:`boomboard.lab.default_store`).
    """
    if solver_db is not None and not Path(solver_db).is_dir():
        raise ParameterError(f"{solver_db} is not a folder of solved tables (make them with: boomboard solve "
                             f"GAME --db {solver_db})")
    if arena is None:  # first: a bad file is refused before any worker starts
        arena = open_arena_store(arena_db, required=arena_db is not None)
    shelf = ModelShelf(models)
    store = GameStore(db_path)
    try:
        service = GameService(store, workers=workers, processes=processes,
                              solver_db=None if solver_db is None else str(solver_db), limits=limits,
                              sessions_kept=sessions_kept, models=shelf, watch_grace=watch_grace)
    except BoomboardError:  # a setting refused: the database is not left open
        store.close()
        raise
    archive = Archive(store, arena)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        service.resume_all()  # games in progress at the last stop carry on, their AIs too
        service.warm_up()
        reaper = asyncio.get_running_loop().create_task(service.end_unwatched_games())
        switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)  # the loop's thread gets its turn soon after a request thread
        yield
        sys.setswitchinterval(switch_interval)
        reaper.cancel()
        service.close()
        work.close()
        game_work.close()
        store.close()

    app = FastAPI(title="boomboard", lifespan=lifespan, responses=_error_responses())
    server_limits = server_limits or ServerLimits()
    streams = StreamSlots(server_limits)
    work = ThreadWork()  # requests' blocking work, off the event loop
    # reads and changes of single games (SQLite, kernel calls, a long game's answer), apart from the lists:
    # a client's list does not hold its own moves up
    game_work = ThreadWork()
    app.state.service = service
    app.state.archive = archive
    guard = guard or RequestGuard.for_server("127.0.0.1")  # no caller gets an app that answers any host
    app.state.guard = guard
    app.add_middleware(GuardMiddleware, guard=guard)
    app.add_middleware(RequestLimits, limits=server_limits)  # added last, so outermost: it sees every request first

    @app.exception_handler(BoomboardError)
    async def boomboard_error(request: Request, error: BoomboardError):
        if isinstance(error, NotFound):
            return _error(404, str(error))
        if isinstance(error, (Busy, ClientBusy, Overloaded)):
            response = _error(503 if isinstance(error, Overloaded) else 429, str(error))
            response.headers["Retry-After"] = str(error.retry_after)
            return response
        if isinstance(error, ReadOnlyStore):  # no use retrying until someone changes the file's permissions
            return _error(503, f"{error}; nothing was changed")
        if isinstance(error, StoreUnavailable):
            return _error(503, f"{error}; nothing was changed: try again later")
        if isinstance(error, NotOwner):
            return _error(403, str(error))
        if isinstance(error, (Conflict, GameOverError, DamagedGame)):
            return _error(409, str(error))
        return _error(400, str(error))

    @app.exception_handler(TooManyStreams)
    async def too_many_streams(request: Request, error: TooManyStreams):
        response = _error(error.status, str(error))
        if error.status == 503:
            response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}"
                             for e in error.errors())
        return _error(422, f"bad request: {problems}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException):
        response = _error(error.status_code, str(error.detail))
        response.headers.update(getattr(error, "headers", None) or {})
        if error.status_code == 405:  # Allow: every method of the path, not only its first route's
            allowed = set()
            for route in request.app.router.routes:
                match, _ = route.matches(request.scope)
                if match != Match.NONE:
                    allowed.update(getattr(route, "methods", None) or ())
            if allowed:
                response.headers["Allow"] = ", ".join(sorted(allowed))
        return response

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, error: Exception):
        # A bug, not bad input: still JSON, so that the page can show it.
        return _error(500, f"internal error ({type(error).__name__}): {error}")

    async def off_loop(http: Request, function, *args) -> JSONResponse:
        """``function(*args)``, and its answer's JSON, worked out in a request
        thread within the client's share (:class:`ThreadWork`): a long
        replay or list holds no other request up."""
        return await work.run(_client(http), lambda: _json_response(function(*args)))

    async def change_game(http: Request, game_id: str, change, *args) -> JSONResponse:
        """``change(game_id, *args)`` of :class:`GameService` asked by the
        game's owner (else a 403), made in a request thread (its SQLite write
        and kernel calls hold no other request up); then the game, described
        in another, once the change's AI has started on the loop."""
        token = _owner_token(http)

        def claimed():
            _claim(game_id, token)
            return change(game_id, *args)

        return await describe_game(http, await game_work.run(_client(http), claimed), token)

    # The last answers about games, encoded, by what each says (GameService.mark, and owned): a game read
    # again unchanged (a page polling it, a long game read by many) is not described and encoded again.
    answers: Recent[tuple, Response] = Recent(ANSWERS_KEPT)
    answers_lock = threading.Lock()  # the answers are made in request threads

    async def describe_game(http: Request, session, token: str | None) -> Response:
        """The game as the page draws it, with whether the caller, by its owner
        ``token``, may change it (``owned``), worked out in a request thread."""
        def described() -> Response:
            owned = store.may_change(session.record.id, _hashed(token))
            version, thinking = service.copy_of(session)
            key = (*service.mark(version, thinking), owned)
            with answers_lock:
                kept = answers.get(key)
            if kept is None:
                kept = _json_response({**service.describe_copy(version, thinking), "owned": owned})
                with answers_lock:
                    answers[key] = kept
            return Response(kept.body, media_type="application/json")

        return await game_work.run(_client(http), described)

    @app.get("/", include_in_schema=False)
    async def index():
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon():
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_route(game: str):
        """The page, which shows the game's rules (from /api/rules/GAME)."""
        pages.rules_page(game)  # an unknown game is a 400 here already
        return FileResponse(STATIC / "index.html")

    @app.get("/lab/{game}", include_in_schema=False)
    async def lab_route(game: str):
        """The page, which draws what ``boomboard explore`` found of the game (from /api/lab/GAME)."""
        game_class(game)  # an unknown game is a 400 here already
        return FileResponse(STATIC / "index.html")

    @app.get("/api/lab/{game}")
    def lab(game: str):
        """The game's explored variants, a heat map a family (see boomboard.lab)."""
        return lab_page(game, lab_store or default_lab_store())

    @app.get("/api/rules/{game}")
    async def rules(game: str):
        """A game's rules as HTML, from the game's own folder, with an example
        position and the steps of its move, for the page to animate."""
        return pages.rules_page(game)

    @app.post("/api/position")
    async def position(request: Line, http: Request):
        """Any position, described as the page draws it: for a link to share."""
        return await off_loop(http, pages.position_page, request.game, request.position, request.actions)

    @app.get("/api/solver")
    async def solver_table(game: str, position: str | None = None):
        """Whether the solver has a table for this game (from ``position``):
        the page offers the solver as a side only then."""
        return {"table": await service.run_off_loop(analysis.has_table, game, position, service.solver_db, cheap=True)}

    @app.get("/api/learned")
    async def learned_model(game: str):
        """Whether a trained model ships for this game and the learn extra is
        installed (``model``): the page offers the learned player as a side
        only then; else whether one ships (``ships``), and if so which extra
        to install (``needs``, one line)."""
        return await service.run_off_loop(analysis.learned_model, game, cheap=True)

    @app.get("/api/catalog")
    async def catalog():
        """The games with their parameters (and the one the page offers first), and the sides the page offers."""
        games = []
        for info in registered_games():
            if not provides(game_class(info.name), PLAY):  # a game without pictures cannot be shown here
                continue
            games.append({
                "name": info.name, "title": info.title, "player_names": list(info.player_names), "doc": info.doc,
                "parameters": [{"name": p.name, "default": p.default, "kind": p.kind.__name__, "help": p.help,
                                "minimum": p.minimum, "maximum": p.maximum, "choices": p.choices,
                                "text": format_value(p.default)} for p in info.parameters],
            })
        return {"games": games, "default": DEFAULT_GAME, "levels": LEVELS, "agent_kinds": agent_kinds(),
                "arena": archive.arena is not None, "arena_chart": archive.arena is not None,
                "models": shelf.names()}

    @app.post("/api/games", status_code=201, responses={201: {"description": "the new game", "links": GAME_LINKS}})
    async def new_game(request: NewGame, http: Request):
        """A new game, owned by the client whose token is in the ``X-Boomboard-Owner``
        header; without one, by a token made here and answered as ``owner_token``
        (send it with each change of the game)."""
        token = _owner_token(http) or secrets.token_urlsafe(24)
        session = await service.create(request.game, request.params, request.players, request.position,
                                       request.pace, request.seed, client=_client(http), owner=owner_hash(token))
        return {**service.describe(session), "owned": True, "owner_token": token}

    @app.get("/api/games")
    async def list_games(http: Request, limit: int = 50, offset: int = 0, game: str | None = None,
                         status: str = "listed"):
        """The games played here, last played first: of one ``game`` (any variant) where
        given, and of a ``status``: ``listed`` (finished, and in progress but not
        abandoned), ``finished``, ``playing`` or ``abandoned`` (unfinished, no move for 7 days)."""
        owner = _hashed(_owner_token(http))

        def listed():
            return {"games": archive.list("web", _limit(limit), _offset(offset), game=game, status=status,
                                          owner=owner),
                    "abandoned_after": ABANDONED_AFTER_SECONDS}

        return await off_loop(http, listed)

    @app.delete("/api/games/{game_id}")
    async def delete_game(game_id: str, http: Request):
        """Remove a game played here (its AI stopped): for good. Only its owner may."""
        token = _owner_token(http)

        def deleted():
            _claim(game_id, token)
            service.delete(game_id)

        await game_work.run(_client(http), deleted)
        return {"deleted": game_id}

    @app.get("/api/games/{game_id}", responses={200: {"description": "the game", "links": GAME_LINKS}})
    async def get_game(game_id: str, http: Request):
        """The game, and whether the caller may change it (``owned``: its
        ``X-Boomboard-Owner`` token is the owner's, or nobody owns the game yet)."""
        token = _owner_token(http)
        return await describe_game(http, await game_work.run(_client(http), service.get, game_id), token)

    @app.get("/api/games/{game_id}/events", response_class=EventStream,
             responses=_errors_as_json("one `data:` line with the game, as JSON, at each change"))
    async def events(game_id: str, request: Request):
        """Server-sent events: the game as ``GET /api/games/ID`` gives it, sent
        at once whenever it changes (a move, the AI starting to think, the
        end), so that the page need not poll. The stream ends with the game.
        A client may hold a few streams, and the server a bounded number in
        all (``ServerLimits``): past them, a 429 or a 503."""
        service.get(game_id)  # an unknown id is a 404 before the stream starts
        slot = streams.open(_client(request))

        async def stream():
            seen = None
            quiet = 0.0
            while True:  # a client that goes away cancels this (StreamingResponse listens for it)
                try:
                    session = service.get(game_id)
                except NotFound:  # deleted while watched: the stream ends with it
                    return
                record = session.record
                mark = (tuple(record.actions), session.thinking, record.resigned, session.error, session.over,
                        session.paused)
                if mark != seen:
                    seen, quiet = mark, 0.0
                    yield await _event(game_id, mark, session)
                    if session.over:
                        return
                elif quiet >= 15:
                    quiet = 0.0
                    yield ": still here\n\n"  # keeps proxies from closing an idle stream
                await asyncio.sleep(0.05)
                quiet += 0.05

        return _HeldStream(slot, stream(), headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    # The last event of each game streamed: the streams watching one game
    # share its encoding (at most one game per open stream is worth keeping).
    events_sent: OrderedDict[str, tuple[tuple, str]] = OrderedDict()

    async def _event(game_id: str, mark: tuple, session) -> str:
        kept = events_sent.get(game_id)
        if kept is None or kept[0] != mark:
            encoded = await asyncio.get_running_loop().run_in_executor(None, _encoded_event, service, session)
            kept = events_sent[game_id] = (mark, encoded)
        events_sent.move_to_end(game_id)
        while len(events_sent) > server_limits.streams:
            events_sent.popitem(last=False)
        return kept[1]

    @app.post("/api/games/{game_id}/moves", responses={200: {"description": "the game", "links": GAME_LINKS}})
    async def play(game_id: str, request: Move, http: Request):
        return await change_game(http, game_id, service.play, request.move)

    @app.post("/api/games/{game_id}/undo", responses={200: {"description": "the game", "links": GAME_LINKS}})
    async def undo(game_id: str, request: Undo, http: Request):
        return await change_game(http, game_id, service.undo)

    @app.post("/api/games/{game_id}/resign", responses={200: {"description": "the game", "links": GAME_LINKS}})
    async def resign(game_id: str, request: Resign, http: Request):
        return await change_game(http, game_id, service.resign, request.player)

    @app.post("/api/games/{game_id}/stop", responses={200: {"description": "the game", "links": GAME_LINKS}})
    async def stop(game_id: str, request: Stop, http: Request):
        """End a game of AI against AI where it is, without a result (409 for one a human plays)."""
        return await change_game(http, game_id, service.stop)

    @app.post("/api/games/{game_id}/pause", responses={200: {"description": "the game", "links": GAME_LINKS}})
    async def pause(game_id: str, request: Pause, http: Request):
        """Hold a game of AI against AI (``paused: true``) or let it go on
        (``false``); 409 for one a human plays."""
        return await change_game(http, game_id, service.pause, request.paused)

    def _claim(game_id: str, token: str | None) -> None:
        """Refuse (403) a change to a game another client owns (see the module's "Owners")."""
        try:
            store.claim(game_id, _hashed(token))
        except KeyError:
            raise NotFound(f"no game with id {game_id!r}") from None

    @app.get("/api/games/{game_id}/analysis")
    async def analyse(game_id: str, http: Request):
        """Every legal move's value (solver) or score (search) for the player to move."""
        return await _unless_abandoned(http, _cached(game_id, "analysis", http, None))

    @app.get("/api/games/{game_id}/values", response_class=JSONResponse,
             responses={200: {"content": {POINTS_MEDIA_TYPE: {}}}})
    async def values(game_id: str, http: Request):
        """The value of every position so far, from the first player's side:
        each its analysis's (the one ``analysis`` gives, kept by the game),
        so only positions not valued before are searched; a point is kept
        while the move played from its position is (an undo, a longer game).
        Asked with ``Accept: application/x-ndjson``, the points come one a
        line as each is ready, first to last."""
        service.get(game_id)  # an unknown id is a 404 before any point
        return await _points(http, _game_points(game_id, http))

    async def _game_points(game_id: str, http: Request):
        session = service.get(game_id)
        actions = tuple(session.record.actions)
        cached = session.value_history  # (actions, points) of the last request: maybe not every point yet
        points = [] if cached is None else cached[1][:_points_kept(cached[0], actions, len(cached[1]))]
        for point in points:
            yield point
        for ply in range(len(points), len(actions) + 1):
            result = await _cached(game_id, "analysis", http, actions[:ply])
            points.append(analysis.history_point(ply, result, actions[ply] if ply < len(actions) else None))
            session.value_history = (actions, list(points))
            yield points[-1]

    @app.post("/api/analysis")
    async def analyse_line(request: Line, http: Request):
        """The analysis of any position: a game, its first position and the actions since."""
        await work.run(_client(http), _check_line, request)
        return await _unless_abandoned(http, service.run_off_loop(
            analysis.analyse, request.game, request.position, request.actions, service.solver_db,
            client=_client(http), queue=False, waited=_waited(http)))

    @app.post("/api/values", response_class=JSONResponse, responses={200: {"content": {POINTS_MEDIA_TYPE: {}}}})
    async def values_of_line(request: Line, http: Request):
        """The value of every position of any line of play: each its own
        analysis, one worker call a position, so that each call is held to the
        per-call CPU limit however long the game (a chart of 80 Expendibots
        positions is about 34 CPU s of searches). Asked with ``Accept:
        application/x-ndjson``, the points come one a line as each is ready."""
        await work.run(_client(http), _check_line, request)
        return await _points(http, _line_points(request, http))

    async def _line_points(request: Line, http: Request):
        actions = request.actions
        for ply in range(len(actions) + 1):
            result = await service.run_off_loop(analysis.analyse, request.game, request.position, actions[:ply],
                                                service.solver_db, client=_client(http), queue=False,
                                                waited=_waited(http))
            yield analysis.history_point(ply, result, actions[ply] if ply < len(actions) else None)

    async def _points(http: Request, points):
        """A values request's answer: ``{"values": [...]}`` once every point is
        there, or (``Accept: application/x-ndjson``) a stream of one point a
        line as each is ready. Either way, a client that goes away stops the
        work: the analysis running is stopped and no further one starts."""
        if POINTS_MEDIA_TYPE in http.headers.get("accept", ""):
            # every line has a first position: a refusal of its analysis is an error answer, not a stream
            first = await _unless_abandoned(http, anext(points))
            if isinstance(first, Response):  # nobody is waiting for it any more
                return first

            async def lines():
                yield json.dumps(first) + "\n"
                try:
                    async for point in points:
                        yield json.dumps(point) + "\n"
                except BoomboardError as refused:  # the answer has begun: its last line says why it stops
                    yield json.dumps({"error": str(refused), "retry_after": getattr(refused, "retry_after", None)}) \
                        + "\n"

            return StreamingResponse(lines(), media_type=POINTS_MEDIA_TYPE, headers={"Cache-Control": "no-cache"})

        async def every_point():
            return {"values": [point async for point in points]}

        return await _unless_abandoned(http, every_point())

    async def _cached(game_id: str, kind: str, http: Request, line: tuple | None):
        """The analysis of the game's position (or that after the actions
        ``line`` from its start), kept by the game for the next request."""
        session = service.get(game_id)
        record = session.record
        actions = list(record.actions if line is None else line)
        key = (kind, tuple(actions))
        result = session.analysis(key)
        if result is None:
            result = await service.run_off_loop(analysis.analyse, record.game, record.position, actions,
                                                service.solver_db, client=_client(http), queue=False,
                                                waited=_waited(http))
            session.keep_analysis(key, result)
        return result

    @app.get("/api/archive/{source}")
    async def archive_list(source: str, http: Request, limit: int = 50, offset: int = 0,
                           tournament: str | None = None):
        def listed():
            return {"games": archive.list(_source(source), _limit(limit), _offset(offset), tournament)}

        return await off_loop(http, listed)

    @app.get("/api/archive/{source}/{game_id}/record", response_class=RecordText,
             responses=_errors_as_json("the game as a game record (text), to download"))
    async def game_record(source: str, game_id: str, http: Request):
        """A stored game as a game record (docs/reference/records.md), as a file to save."""
        text = await work.run(_client(http), archive.record_text, _source(source), game_id)
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{source}-{game_id}")[:80]
        return RecordText(text, headers={"content-disposition": f'attachment; filename="boomboard-{name}.txt"'})

    @app.post("/api/records/replay")
    async def replay_a_record(request: RecordReplay, http: Request):
        """A game record's position after ``ply`` moves (default: its end), as a replay
        is shown: a record opened from a link or a file."""
        return await off_loop(http, replay_record, request.record, request.ply)

    @app.get("/api/replay/{source}/{game_id}")
    async def replay(source: str, game_id: str, http: Request, ply: int | None = None):
        return await off_loop(http, archive.replay, _source(source), game_id, ply)

    @app.get("/api/tournaments")
    async def tournaments():
        return {"tournaments": archive.tournaments()}

    @app.get("/api/tournaments/{tournament_id}")
    async def standings(tournament_id: str):
        return {"standings": archive.standings(tournament_id)}

    @app.get("/api/tournaments/{tournament_id}/chart.png", response_class=PNG,
             responses=_errors_as_json("the chart, a PNG image"))
    def rating_chart(tournament_id: str):  # not async: matplotlib draws in FastAPI's thread pool
        """The arena's rating chart (PNG), where the arena draws one."""
        return PNG(archive.rating_chart(tournament_id))

    return app


class _HeldStream(EventStream):
    """A streamed answer that holds an event-stream slot until it ends, however it ends."""

    def __init__(self, slot, content, **options):
        super().__init__(content, **options)
        self.slot = slot

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.slot.release()


def _source(source: str) -> str:
    if source not in ("web", "arena"):
        raise NotFound(f"unknown record source {source!r}; expected 'web' or 'arena'")
    return source


def _limit(limit: int) -> int:
    return min(max(limit, 1), 500)


MAX_OFFSET = 2**62  # SQLite's integers are 64-bit


def _offset(offset: int) -> int:
    if offset > MAX_OFFSET:
        raise ParameterError(f"'offset' must be at most 2**62, got {offset}")
    return max(offset, 0)


def _points_kept(before: tuple, actions: tuple, count: int) -> int:
    """How many of the ``count`` value points of the line ``before`` hold for
    the line ``actions``: each point is its position's and the move played
    from it, so those up to the first move that differs (all of them for
    the same line)."""
    if before == actions:
        return count
    same = next((i for i, pair in enumerate(zip(before, actions)) if pair[0] != pair[1]),
                min(len(before), len(actions)))
    return min(same, count)


async def _unless_abandoned(http: Request, work):
    """Await the coroutine ``work``, cancelled as soon as the client that
    asked goes away (its analysis in a worker is then stopped, see
    :meth:`GameService.run_off_loop`): nobody waits for its answer."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnected(http))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # this request itself cancelled: its work goes too
        task.cancel()
        raise
    finally:
        gone.cancel()
    if not task.done():  # the client went away first: the work is stopped, and the answer goes nowhere
        task.cancel()
        return Response(status_code=499)
    return task.result()


async def _disconnected(http: Request) -> None:
    """Return when the client of ``http`` has gone away."""
    while (await http.receive())["type"] != "http.disconnect":
        pass


def _waited(http: Request) -> float:
    """The seconds the request waited for the server before it was worked on (:data:`WAITED`), where measured."""
    return http.scope.get(WAITED, 0.0)


# What an owner token may be: what the page makes (base64url), long enough not to be guessed.
OWNER_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")


def _owner_token(request: Request) -> str | None:
    """The request's owner token (``None``: it sent none); a malformed one is a 400."""
    token = request.headers.get(OWNER_HEADER)
    if token is not None and not OWNER_TOKEN.fullmatch(token):
        raise ParameterError(f"the {OWNER_HEADER} header is an owner token: 16 to 128 letters, digits, '-' or "
                             f"'_' (the one POST /api/games answered as owner_token)")
    return token


def _hashed(token: str | None) -> str | None:
    """What the store keeps of an owner token (``None``: no token)."""
    return None if token is None else owner_hash(token)


def _json_response(content) -> JSONResponse:
    """``content`` as a JSON answer, encoded where this is called (a request thread)."""
    try:
        return JSONResponse(content)
    except TypeError:  # not plain JSON data (FastAPI's encoder, 15 times slower, turns it into such)
        return JSONResponse(jsonable_encoder(content))


def _encoded_event(service: GameService, session) -> str:
    """A game's event-stream message: the game as ``GET /api/games/ID`` gives it, but ``owned``
    (a browser's stream carries no owner token)."""
    return f"data: {json.dumps(jsonable_encoder(service.describe(session)))}\n\n"


def _client(request: Request) -> str | None:
    """Who sent a request, for the per-client cap on AI work: its address (:meth:`RequestGuard.client`)."""
    return request.app.state.guard.client(request.scope)
