"""The web app: a JSON API over the games, and the static page that uses it.

``create_app(db_path, settings)`` builds a FastAPI application from the
routers of :mod:`boomboard.web.routes`, one a resource, which share the
app's services (:class:`~boomboard.web.context.WebState`); ``boomboard
serve`` runs it with uvicorn. Every error a request can cause comes back as a 4xx
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
import gc
import sys
from contextlib import asynccontextmanager
from pathlib import Path

from ..core.extras import require_extra

try:
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse
    from fastapi.staticfiles import StaticFiles
    from starlette.exceptions import HTTPException as StarletteHTTPException
    from starlette.routing import Match
except ImportError:
    require_extra("web", "boomboard.web")
    raise

from ..core.errors import BoomboardError, GameOverError, ParameterError
from .archive import Archive, open_arena_store
from .context import WebState
from .guard import GuardMiddleware, RequestGuard
from .limits import (RETRY_AFTER_SECONDS, SWITCH_INTERVAL_SECONDS, ClientBusy, RequestLimits, ServerLimits,
                     StreamSlots, TooManyStreams)
from .models import ModelShelf
from .openapi import error_responses
from .routes import ROUTERS
from .routes.page import STATIC
from .service import Busy, Conflict, GameService, NotFound, Overloaded
from .settings import WebSettings
from .store import DamagedGame, GameStore, NotOwner, ReadOnlyStore, StoreUnavailable


def create_app(db_path: str | Path, settings: WebSettings | None = None, *, arena=None) -> FastAPI:
    """The application, keeping its games in the SQLite file ``db_path``,
    built as ``settings`` say (:class:`~boomboard.web.settings.WebSettings`:
    what ``boomboard serve``'s options set; by default, theirs).

    The replay and tournament pages read the arena's records: ``arena`` is
    an open record store (``boomboard.arena.store.open_store``), else the
    one in the file ``settings.arena_db``. AI moves and analyses run in a
    pool of ``settings.workers`` processes (0: threads of the server) within
    ``settings.limits``; at most ``settings.sessions_kept`` idle games are
    held in memory, the others read back from ``db_path`` when asked for
    (:class:`GameService`). Every request is first checked by
    ``settings.guard`` (:class:`RequestGuard`; as always, it refuses changes
    from other sites' pages and changes without a JSON body) and held to
    ``settings.server_limits`` (:class:`ServerLimits`).
    """
    settings = settings or WebSettings()
    web = _services(db_path, settings, arena)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        web.service.resume_all()  # games in progress at the last stop carry on, their AIs too
        web.service.warm_up()
        reaper = asyncio.get_running_loop().create_task(web.service.end_unwatched_games())
        switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)  # the loop's thread gets its turn soon after a request thread
        # Python's full collections scan every object of the oldest generation while holding the interpreter
        # lock: with the 170,000 that the server's code and compiled kernels make at start, each took 100-170 ms,
        # a stall of every request, about once a second under a client's long lists. Frozen, they are not scanned.
        gc.freeze()
        yield
        gc.unfreeze()
        sys.setswitchinterval(switch_interval)
        reaper.cancel()
        web.close()

    app = FastAPI(title="boomboard", lifespan=lifespan, responses=error_responses())
    app.state.web = web
    app.state.service = web.service
    app.state.archive = web.archive
    guard = settings.guard or RequestGuard.for_server("127.0.0.1")  # no caller gets an app that answers any host
    app.state.guard = guard
    app.add_middleware(GuardMiddleware, guard=guard)
    app.add_middleware(RequestLimits, limits=web.server_limits)  # added last, so outermost: it sees every request first
    _answer_errors_as_json(app)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _services(db_path: str | Path, settings: WebSettings, arena) -> WebState:
    """The app's services as ``settings`` say; a setting refused is a
    :class:`ParameterError`, and leaves no database open nor worker started."""
    solver_db = settings.solver_db
    if solver_db is not None and not Path(solver_db).is_dir():
        raise ParameterError(f"{solver_db} is not a folder of solved tables (make them with: boomboard solve "
                             f"GAME --db {solver_db})")
    if arena is None:  # first: a bad file is refused before any worker starts
        arena = open_arena_store(settings.arena_db, required=settings.arena_db is not None)
    shelf = ModelShelf(settings.models)
    store = GameStore(db_path)
    workers = settings.workers
    threads = isinstance(workers, int) and not isinstance(workers, bool) and workers == 0  # as serve --workers 0
    try:
        service = GameService(store, workers=1 if threads else workers, processes=not threads,
                              solver_db=None if solver_db is None else str(solver_db), limits=settings.limits,
                              sessions_kept=settings.sessions_kept, models=shelf, watch_grace=settings.watch_grace)
    except BoomboardError:  # a setting refused: the database is not left open
        store.close()
        raise
    server_limits = settings.server_limits or ServerLimits()
    return WebState(service=service, store=store, archive=Archive(store, arena), shelf=shelf,
                    server_limits=server_limits, lab_store=settings.lab_store, streams=StreamSlots(server_limits))


def _answer_errors_as_json(app: FastAPI) -> None:
    """Every error a request can cause answered as ``{"error": "..."}`` with
    its status (see the module's docstring), a bug's too."""
    app.add_exception_handler(BoomboardError, _boomboard_error)
    app.add_exception_handler(TooManyStreams, _too_many_streams)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected_error)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _boomboard_error(request: Request, error: BoomboardError):
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


async def _too_many_streams(request: Request, error: TooManyStreams):
    response = _error(error.status, str(error))
    if error.status == 503:
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


async def _validation_error(request: Request, error: RequestValidationError):
    problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}"
                         for e in error.errors())
    return _error(422, f"bad request: {problems}")


async def _http_error(request: Request, error: StarletteHTTPException):
    response = _error(error.status_code, str(error.detail))
    response.headers.update(getattr(error, "headers", None) or {})
    if error.status_code == 405:  # Allow: every method of the path, not only its first route's
        allowed = set()
        # the app's own routes (its schema's) and the routers': FastAPI may keep an included router as one route
        for route in [*request.app.router.routes, *(route for router in ROUTERS for route in router.routes)]:
            match, _ = route.matches(request.scope)
            if match != Match.NONE:
                allowed.update(getattr(route, "methods", None) or ())
        if allowed:
            response.headers["Allow"] = ", ".join(sorted(allowed))
    return response


async def _unexpected_error(request: Request, error: Exception):
    # A bug, not bad input: still JSON, so that the page can show it.
    return _error(500, f"internal error ({type(error).__name__}): {error}")
