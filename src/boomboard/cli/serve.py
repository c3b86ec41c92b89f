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
        workers: int = typer.Option(2, help="processes that compute AI moves and analyses "
                                            "(0: threads of the server, which stall it while an AI searches)"),
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
                                          "address) may have running at once; the others wait"),
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

        from ..web import create_app
        from ..web.limits import ServerLimits, uvicorn_options
        from ..web.service import AgentLimits

        if not 0 <= port <= 65535:
            raise ParameterError(f"--port must be 0..65535, got {port}")
        if workers < 0:
            raise ParameterError(f"--workers must be 0 or more, got {workers}")
        limits = AgentLimits(time=ai_max_time, game_time=ai_max_game_time, depth=ai_max_depth,
                             simulations=ai_max_simulations, table_bits=ai_max_table_bits,
                             per_client=ai_per_client)
        server_limits = ServerLimits(body_bytes=max_body, parameters=max_parameters, head_bytes=max_head,
                                     streams_per_client=streams_per_client, streams=max_streams,
                                     idle_timeout=idle_timeout, requests=max_requests, wait_seconds=max_wait)
        path = db or default_db_path()
        try:  # bound first, so that the address printed is the real one (port 0 included)
            listener = socket.create_server((host, port), backlog=2048)
        except OSError as problem:
            raise ParameterError(f"cannot listen on {host}:{port}: {problem.strerror or problem}") from None
        url = f"http://{host}:{listener.getsockname()[1]}/"
        web_app = create_app(path, arena_db=arena_db, solver_db=solver_db, workers=max(workers, 1),
                             processes=workers > 0, limits=limits, server_limits=server_limits)
        server = _Server(uvicorn.Config(web_app, log_level="warning", timeout_graceful_shutdown=1,
                                        **uvicorn_options(server_limits)))
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
