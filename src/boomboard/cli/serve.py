"""``boomboard serve``: the web app on a local address."""

from __future__ import annotations

import socket
import webbrowser
from pathlib import Path
from typing import Optional

import typer
from platformdirs import user_data_dir

from ..core.errors import ParameterError


def default_db_path() -> Path:
    """Where the web app keeps its games unless told otherwise."""
    return Path(user_data_dir("boomboard")) / "web.sqlite3"


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``boomboard`` app."""

    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="address to listen on (keep 127.0.0.1 unless you mean it)"),
        port: int = typer.Option(8000, help="port to listen on (0: any free port)"),
        db: Optional[Path] = typer.Option(None, help="SQLite file of the games (default: the user data folder)"),
        workers: int = typer.Option(2, help="processes that compute AI moves and analyses"),
        open_browser: bool = typer.Option(False, "--open", help="open the page in a browser"),
    ) -> None:
        """Play, watch and analyse games in the browser (FastAPI and uvicorn; games kept in SQLite)."""
        import uvicorn

        from ..web import create_app

        if not 0 <= port <= 65535:
            raise ParameterError(f"--port must be 0..65535, got {port}")
        if workers < 1:
            raise ParameterError(f"--workers must be at least 1, got {workers}")
        path = db or default_db_path()
        listener = socket.create_server((host, port))  # bound first, so the printed address is the real one
        url = f"http://{host}:{listener.getsockname()[1]}/"
        server = uvicorn.Server(uvicorn.Config(create_app(path, workers=workers), log_level="warning"))
        typer.echo(f"boomboard is serving at {url}  (games in {path}; Ctrl-C stops)")
        if open_browser:
            webbrowser.open(url)
        server.run(sockets=[listener])
