"""``boomboard serve``: the web app on a local address."""

from __future__ import annotations

import signal
import socket
import webbrowser
from pathlib import Path
from typing import Optional

import typer
from platformdirs import user_data_dir

from ..core.errors import ParameterError
from ..core.extras import require_extra


def default_db_path() -> Path:
    """Where the web app keeps its games unless told otherwise."""
    return Path(user_data_dir("boomboard")) / "web.sqlite3"


def check_not_the_arena_db(db: Path, arena_db: Path | None) -> None:
    """Refuse a games database that is the arena's file (named by --arena-db,
    or the arena's default): the two hold different tables of one name."""
    from ..arena.store import default_path

    arena = arena_db or default_path()
    try:
        same = db.resolve() == arena.resolve() or (db.exists() and arena.exists() and db.samefile(arena))
    except OSError:  # a path that cannot be resolved: the store says why when it opens it
        return
    if same:
        raise ParameterError(f"--db {db} is the arena's database ({'--arena-db' if arena_db else 'its default'}): "
                             f"the web app's games need a file of their own")


def _server_class():
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server, but a second Ctrl-C does not force the exit halfway
        through the shutdown (which printed tracebacks): the stop under way
        takes about a second, workers killed included."""

        def handle_exit(self, sig, frame) -> None:
            if self.should_exit and sig == signal.SIGINT:
                return
            super().handle_exit(sig, frame)

    return Server


def _Server(config):
    return _server_class()(config)


def _checked_workers(workers: int | None) -> int:
    """``--workers``, checked against this machine's limit (its default: 2, or the limit if lower)."""
    from ..web.workers import DEFAULT_WORKERS, check_workers, workers_limit

    if workers is None:
        return min(DEFAULT_WORKERS, workers_limit()[0])
    if workers < 0:
        raise ParameterError(f"--workers must be 0 or more, got {workers}")
    return workers and check_workers(workers, "--workers")


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``boomboard`` app."""

    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="address to listen on (keep 127.0.0.1 unless you mean it)"),
        port: int = typer.Option(8000, help="port to listen on (0: any free port)"),
        db: Optional[Path] = typer.Option(None, help="SQLite file of the games (default: the user data folder)"),
        arena_db: Optional[Path] = typer.Option(None, "--arena-db", help="the arena's database of tournaments "
                                                "to show (default: the arena's own, in the user data folder)"),
        solver_db: Optional[Path] = typer.Option(None, "--solver-db", help="folder of solved tables "
                                                 "(default: BOOMBOARD_DB, else the user data folder's 'solved')"),
        workers: Optional[int] = typer.Option(None, help="processes that compute AI moves and analyses "
                                              "(default 2, or this machine's limit if lower; at most one a core, "
                                              "at least 2, and one per 3 GiB of memory; 0: threads of the "
                                              "server, which stall it while an AI searches)"),
        open_browser: bool = typer.Option(False, "--open", help="open the page in a browser"),
        ai_max_time: float = typer.Option(10.0, "--ai-max-time", help="the most CPU seconds per move an agent "
                                          "may be given; also the time cap of a search set by depth or size"),
        ai_max_game_time: float = typer.Option(600.0, "--ai-max-game-time",
                                               help="the most CPU seconds per game an agent may be given"),
        ai_max_depth: int = typer.Option(30, "--ai-max-depth", help="the deepest alpha-beta search allowed"),
        ai_max_simulations: int = typer.Option(5_000_000, "--ai-max-simulations",
                                               help="the most MCTS simulations per move allowed"),
        ai_max_table_bits: int = typer.Option(24, "--ai-max-table-bits",
                                              help="the largest alpha-beta table allowed (2**bits entries)"),
        ai_per_client: int = typer.Option(1, "--ai-per-client", help="AI moves and analyses one client (an "
                                          "address) may have running at once; the others wait (AI-vs-AI "
                                          "games it only watches are not counted)"),
        ai_max_queue_wait: float = typer.Option(3.0, "--ai-max-queue-wait", help="the longest, in seconds, an "
                                                "analysis may wait for a worker; longer: 503 with Retry-After"),
        watch_grace: float = typer.Option(60.0, "--watch-grace", help="seconds an AI-vs-AI game runs on with "
                                          "nobody watching it (no poll, no event stream) before it is "
                                          "stopped; 1 to 3600"),
        allowed_hosts: list[str] = typer.Option([], "--allowed-host", help="also answer requests for this host "
                                                "name (repeatable); the server answers only for the address "
                                                "it listens on (and localhost on a loopback one)"),
        models: Optional[Path] = typer.Option(None, "--models", help="a folder of learned models (NAME.msgpack "
                                              "files, training run folders) that a side may play by name, "
                                              "learned:NAME; requests never name a path"),
        trusted_proxies: list[str] = typer.Option([], "--trusted-proxy", help="a proxy's address or network "
                                                  "(repeatable) whose X-Forwarded-For names the client; "
                                                  "otherwise a client is its connection's address"),
        max_body: int = typer.Option(65_536, "--max-body", help="the largest request body taken, in bytes "
                                     "(larger: 413)"),
        max_parameters: int = typer.Option(256, "--max-parameters", help="the most query parameters, and JSON "
                                           "object members in a body, of one request (more: 400)"),
        max_head: int = typer.Option(16_384, "--max-head", help="the largest request line and headers taken, "
                                     "in bytes (larger: 431)"),
        streams_per_client: int = typer.Option(8, "--streams-per-client", help="the most event streams one "
                                               "client (an address) may hold open (more: 429)"),
        max_streams: int = typer.Option(100, "--max-streams", help="the most event streams open at once, "
                                        "all clients together (more: 503)"),
        idle_timeout: float = typer.Option(10.0, "--idle-timeout", help="seconds a client may take to send "
                                           "a request's head or body (longer: 408), or leave its answer "
                                           "unread (longer: disconnected)"),
        max_requests: int = typer.Option(48, "--max-requests", help="the most requests being answered at "
                                         "once; more get 503 with Retry-After rather than a queue"),
        max_wait: float = typer.Option(0.5, "--max-wait", help="the longest, in seconds, a request may wait "
                                       "for its turn; longer: 503 with Retry-After rather than a later answer"),
    ) -> None:
        """Play, watch and analyse games in the browser (FastAPI and uvicorn; games kept in SQLite).
        Needs the web extra."""
        require_extra("web", "boomboard serve")
        import uvicorn  # imported here: the other commands start faster without the web stack

        from ..web import WebSettings, create_app
        from ..web.guard import RequestGuard
        from ..web.limits import ServerLimits, uvicorn_options
        from ..web.service import AgentLimits

        if not 0 <= port <= 65535:
            raise ParameterError(f"--port must be 0..65535, got {port}")
        workers = _checked_workers(workers)
        limits = AgentLimits(time=ai_max_time, game_time=ai_max_game_time, depth=ai_max_depth,
                             simulations=ai_max_simulations, table_bits=ai_max_table_bits,
                             per_client=ai_per_client, queue_wait=ai_max_queue_wait)
        guard = RequestGuard.for_server(host, allowed_hosts, trusted_proxies)
        server_limits = ServerLimits(body_bytes=max_body, parameters=max_parameters, head_bytes=max_head,
                                     streams_per_client=streams_per_client, streams=max_streams,
                                     idle_timeout=idle_timeout, requests=max_requests, wait_seconds=max_wait)
        path = db or default_db_path()
        check_not_the_arena_db(path, arena_db)
        try:  # bound first, so that the address printed is the real one (port 0 included)
            listener = socket.create_server((host, port), backlog=2048)
        except OSError as problem:
            raise ParameterError(f"cannot listen on {host}:{port}: {problem.strerror or problem}") from None
        url = f"http://{host}:{listener.getsockname()[1]}/"
        settings = WebSettings(arena_db=arena_db, solver_db=solver_db, workers=workers, limits=limits, guard=guard,
                               models=models, server_limits=server_limits, watch_grace=watch_grace)
        web_app = create_app(path, settings)
        # proxy_headers off: uvicorn would take X-Forwarded-For from any local client; the guard reads it
        server = _Server(uvicorn.Config(web_app, log_level="warning", timeout_graceful_shutdown=1,
                                        proxy_headers=False, **uvicorn_options(server_limits)))
        typer.echo(f"boomboard is serving at {url}  (games in {path}; Ctrl-C stops)")
        if open_browser:
            webbrowser.open(url)
        try:
            server.run(sockets=[listener])
        except KeyboardInterrupt:  # uvicorn raises the captured Ctrl-C again once stopped
            pass
        finally:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the stop is done: no traceback from another Ctrl-C
        typer.echo("boomboard stopped")
