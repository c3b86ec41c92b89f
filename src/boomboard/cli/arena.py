"""Arena commands: ``match``, ``tournament``, ``resume``, ``replay`` and the
recorded games' ``games list/show/export/import``; the protocol commands
live in :mod:`boomboard.cli.protocols`."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import BoomboardError, ParameterError
from ..core.extras import require_extra
from .cores import oversubscribed_warning
from .render import shown_path

if TYPE_CHECKING:  # imported where used: the arena's modules are not loaded for --help
    from ..arena.referee import Limits
    from ..arena.store import Store

console = Console(highlight=False)

DB_HELP = "Arena database (default: arena.sqlite3 in the user's data directory)."


def _limits(move_time, game_time, move_wall, game_wall, memory, course_limits) -> Limits:
    from ..arena.referee import Limits

    if course_limits:
        game_time = 60.0 if game_time is None else game_time
        memory = 100.0 if memory is None else memory
    for name, value in (("--move-time", move_time), ("--game-time", game_time), ("--move-wall", move_wall),
                        ("--game-wall", game_wall), ("--memory", memory)):
        if value is not None and value <= 0:
            raise ParameterError(f"{name} must be positive; got {value}")
    return Limits(move_time, game_time, move_wall, game_wall, memory)


def _check_backend_and_chart(backend: str, chart: Optional[Path]) -> None:
    """Refuse a backend that cannot run, or a chart that cannot be drawn,
    before any tournament is stored or played."""
    if backend not in ("local", "ray"):
        raise ParameterError(f"unknown backend {backend!r}; expected local or ray")
    if backend == "ray":
        require_extra("ray", "--backend ray")
    if chart is not None:
        require_extra("plot", "--chart")


def _workers(workers: Optional[int]) -> int:
    if workers is None:
        return os.cpu_count() or 1
    if workers < 1:
        raise ParameterError(f"--workers must be at least 1; got {workers}")
    warning = oversubscribed_warning(workers, "the games")
    if warning:
        console.print(warning, markup=False)
    return workers


def _run_with_progress(store: Store, tournament_id: int, workers: int, backend: str, ray_address: Optional[str]):
    from ..arena.tournament import SlotResult, run_tournament

    record = store.tournament(tournament_id)
    tally = {agent: [0, 0, 0] for agent in record.players}
    for _, first, second, winner in store.slot_results(tournament_id):
        _count(tally, first, second, winner)
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()]
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(_score_text(record, tally), total=record.slots, completed=record.played,
                                 rate="")
        played_here = [0]

        def on_result(result: SlotResult) -> None:
            _count(tally, result.first, result.second, result.winner)
            played_here[0] += 1
            elapsed = progress.tasks[0].elapsed or 1e-9
            progress.update(task, advance=1, description=_score_text(record, tally),
                            rate=f"{played_here[0] / elapsed:.2f} games/s")

        try:
            decision = run_tournament(store, tournament_id, workers, backend, ray_address, on_result)
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"stopped; {store.tournament(tournament_id).played} of {record.slots} games are "
                          f"recorded; continue with: boomboard resume {tournament_id} --db {store.path}",
                          markup=False)
            raise  # main() ends with 'stopped.' and exit code 130
    return decision


def _count(tally, first, second, winner) -> None:
    for side, agent in enumerate((first, second)):
        tally.setdefault(agent, [0, 0, 0])[1 if winner is None else (0 if winner == side else 2)] += 1


def _score_text(record, tally) -> str:
    if record.kind == "match":
        a, b = record.players
        wins, ties, losses = tally[a]
        return f"{a} {wins + ties / 2:g} - {losses + ties / 2:g} {b}"
    leader = max(tally.items(), key=lambda item: (item[1][0] + item[1][1] / 2, item[0]))
    return f"leader {leader[0]} ({leader[1][0] + leader[1][1] / 2:g})"


def _report(store: Store, tournament_id: int, decision: Optional[str], chart: Optional[Path]) -> None:
    from ..ratings import elo_estimate
    from ..arena.tournament import match_counts, match_pairs, sprt_of

    record = store.tournament(tournament_id)
    table = Table(title=f"tournament {tournament_id}: {record.kind} of {record.game}, "
                        f"{record.played}/{record.slots} games")
    for column in ("agent", "games", "wins", "ties", "losses", "score", "Elo (95%)"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    standings = store.standings(tournament_id)
    for s in standings:
        elo = "n/a" if s.games == 0 else _elo_text(s.elo, s.elo_error)
        table.add_row(s.agent, str(s.games), str(s.wins), str(s.ties), str(s.losses), f"{s.score:g}", elo)
    console.print(table)
    if record.kind == "match":
        wins, ties, losses = match_counts(store, tournament_id)
        estimate = elo_estimate(wins, ties, losses)
        console.print(f"{record.players[0]} vs {record.players[1]}: +{wins} ={ties} -{losses}, "
                      f"Elo difference {estimate.describe()}", markup=False)
        sprt = sprt_of(record.settings)
        if sprt is not None:
            pairs = match_pairs(store, tournament_id)
            llr = sprt.llr_pentanomial(pairs)
            verdict = {"H1": f"H1 accepted: {record.players[0]} is stronger (elo >= {sprt.elo1:g})",
                       "H0": f"H0 accepted: {record.players[0]} is not stronger than elo {sprt.elo0:g}",
                       None: "no decision yet"}[decision if decision else sprt.decide(llr)]
            console.print(f"SPRT [{sprt.elo0:g}, {sprt.elo1:g}] alpha={sprt.alpha:g} beta={sprt.beta:g}: "
                          f"pentanomial {pairs}, LLR {llr:.2f} "
                          f"(bounds {sprt.lower_bound:.2f}, {sprt.upper_bound:.2f}); {verdict}",
                          markup=False)
    if chart is not None:
        from ..arena.chart import rating_chart

        console.print(f"rating chart: {rating_chart(standings, chart)}")


def _elo_text(elo: float, error: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    rounded = round(elo)
    shown = "0" if rounded == 0 else f"{rounded:+d}"  # never "-0"
    return f"{shown} +/- {'inf' if math.isinf(error) else f'{error:.0f}'}"


_GAMES_OPT = typer.Option(10, "--games", "-n", help="Games per pairing (colours alternate); with --sprt, the most.")
_MOVE_TIME = typer.Option(None, "--move-time", help="CPU seconds per action (over it: the game is lost).")
_GAME_TIME = typer.Option(None, "--game-time", help="CPU seconds per agent for the whole game.")
_MOVE_WALL = typer.Option(None, "--move-wall", help="Wall-clock seconds per action (default: 3x the CPU budget + 2 s).")
_GAME_WALL = typer.Option(None, "--game-wall", help="Wall-clock seconds per agent for the whole game.")
_MEMORY = typer.Option(None, "--memory", help="Megabytes each agent may allocate while it plays.")
_COURSE = typer.Option(False, "--course-limits", help="The Expendibots course's limits: 60 s CPU and 100 MB per game.")
_WORKERS = typer.Option(None, "--workers", "-j", help="Games played at once (default: the number of cores).")
_SEED = typer.Option(1, "--seed", help="Seeds every agent's randomness (game by game).")
_DB = typer.Option(None, "--db", help=DB_HELP)
_CHART = typer.Option(None, "--chart", help="Save a rating chart (PNG) here.")
_BACKEND = typer.Option("local", "--backend", help="local (processes on this machine) or ray.")
_RAY_ADDRESS = typer.Option(None, "--ray-address", help="Address of a running Ray cluster (with --backend ray).")


def match(
    game: str = typer.Argument(..., help="Game name, or name(key=value,...)."),
    first: str = typer.Argument(..., help="Agent spec A (random, ai:time=0.1, engine:CMD, course:PATH, python:PATH)."),
    second: str = typer.Argument(..., help="Agent spec B."),
    games: int = _GAMES_OPT, move_time: Optional[float] = _MOVE_TIME, game_time: Optional[float] = _GAME_TIME,
    move_wall: Optional[float] = _MOVE_WALL, game_wall: Optional[float] = _GAME_WALL,
    memory: Optional[float] = _MEMORY, course_limits: bool = _COURSE, workers: Optional[int] = _WORKERS,
    seed: int = _SEED,
    sprt: Optional[str] = typer.Option(None, "--sprt", help="Run an SPRT 'elo0,elo1[,alpha,beta]' (is A stronger than B?)."),
    db: Optional[Path] = _DB, chart: Optional[Path] = _CHART, backend: str = _BACKEND,
    ray_address: Optional[str] = _RAY_ADDRESS,
) -> None:
    """Play A against B, colours alternating: score, Elo difference, optional SPRT."""
    from ..ratings import parse_sprt
    from ..registry import load_game

    limits = _limits(move_time, game_time, move_wall, game_wall, memory, course_limits)
    _play_new(game, [first, second], "match", games, limits, seed, parse_sprt(sprt) if sprt else None,
              f"{first} vs {second} in {load_game(game)}, up to {games} games", db, workers, chart, backend,
              ray_address)


def tournament(
    game: str = typer.Argument(..., help="Game name, or name(key=value,...)."),
    agents: list[str] = typer.Argument(..., help="Two or more agent specs."),
    games: int = _GAMES_OPT,
    gauntlet: bool = typer.Option(False, "--gauntlet", help="The first agent plays each other one (default: round robin)."),
    move_time: Optional[float] = _MOVE_TIME, game_time: Optional[float] = _GAME_TIME,
    move_wall: Optional[float] = _MOVE_WALL, game_wall: Optional[float] = _GAME_WALL,
    memory: Optional[float] = _MEMORY, course_limits: bool = _COURSE, workers: Optional[int] = _WORKERS,
    seed: int = _SEED, db: Optional[Path] = _DB, chart: Optional[Path] = _CHART, backend: str = _BACKEND,
    ray_address: Optional[str] = _RAY_ADDRESS,
) -> None:
    """A round robin (or gauntlet) between agents: standings with Elo and 95% intervals."""
    from ..registry import load_game

    limits = _limits(move_time, game_time, move_wall, game_wall, memory, course_limits)
    kind = "gauntlet" if gauntlet else "round-robin"
    _play_new(game, list(agents), kind, games, limits, seed, None,
              f"{kind} of {len(agents)} agents in {load_game(game)}", db, workers, chart, backend, ray_address)


def _play_new(game, agents, kind, games, limits, seed, test, described, db, workers, chart, backend,
              ray_address) -> None:
    """Create a match or tournament, play it with live progress and report it."""
    from ..arena.store import open_store
    from ..arena.tournament import create_tournament

    _check_backend_and_chart(backend, chart)
    store = open_store(db)
    tournament_id = create_tournament(store, game, agents, kind, games, limits, seed, test)
    label = "match" if kind == "match" else "tournament"
    console.print(f"{label} {tournament_id}: {described} (database {shown_path(store.path)})", markup=False,
                  soft_wrap=True)
    decision = _run_with_progress(store, tournament_id, _workers(workers), backend, ray_address)
    _report(store, tournament_id, decision, chart)


def resume(
    tournament_id: int = typer.Argument(..., help="The tournament (or match) to finish."),
    workers: Optional[int] = _WORKERS, db: Optional[Path] = _DB, chart: Optional[Path] = _CHART,
    backend: str = _BACKEND, ray_address: Optional[str] = _RAY_ADDRESS,
) -> None:
    """Finish a stopped tournament: plays exactly the games still missing."""
    from ..arena.store import open_store

    _check_backend_and_chart(backend, chart)
    store = open_store(db)
    record = store.tournament(tournament_id)
    console.print(f"resuming {record.kind} {tournament_id}: {record.played} of {record.slots} games recorded",
                  markup=False)
    decision = _run_with_progress(store, tournament_id, _workers(workers), backend, ray_address)
    _report(store, tournament_id, decision, chart)


def standings(tournament_id: int = typer.Argument(...), db: Optional[Path] = _DB,
              chart: Optional[Path] = _CHART) -> None:
    """Show a tournament's standings (and save its rating chart)."""
    from ..arena.store import open_store

    _report(open_store(db), tournament_id, None, chart)


games_app = typer.Typer(help="Recorded games: list and show the arena's; export the arena's or the web app's as "
                             "game records (one text record per game, PGN-like: docs/reference/records.md); import records "
                             "into the web app. (The list of games boomboard plays is 'boomboard catalog'.)",
                        no_args_is_help=False, add_completion=False)
SOURCE_HELP = "Whose games: 'arena' (the arena's database) or 'web' (the web app's)."
WEB_DB_HELP = "The web app's games database (default: web.sqlite3 in the user's data directory, as boomboard serve)."


@games_app.command("list")
def games_list(limit: int = typer.Option(20, help="How many (newest first)."),
               tournament: Optional[int] = typer.Option(None, help="Only this tournament's games."),
               db: Optional[Path] = _DB) -> None:
    """List the arena's recorded games, newest first."""
    from ..arena.store import open_store
    from ..registry import load_game

    store = open_store(db)
    table = Table(title=f"games in {store.path}")
    for column in ("id", "tournament", "game", "first", "second", "plies", "result", "status"):
        table.add_column(column)
    for record in store.games(limit=limit, tournament_id=tournament):
        names = load_game(record.game).player_names
        result = "tie" if record.winner is None else f"{names[record.winner]} wins"
        if record.status != "done":
            result = "-"
        table.add_row(str(record.id), str(record.tournament_id or "-"), record.game, record.players[0],
                      record.players[1], str(len(record.actions)), result, record.status)
    console.print(table)


@games_app.command("show")
def games_show(game_id: int = typer.Argument(...), db: Optional[Path] = _DB) -> None:
    """Show one arena game: agents, settings, every action with its time, result and reason."""
    from ..arena.store import open_store
    from ..registry import load_game

    record = open_store(db).game(game_id)
    game = load_game(record.game)
    state = game.new_initial_state()
    console.print(f"game {record.id} ({record.game}), {record.status}, started {record.started}", markup=False)
    for player, spec in enumerate(record.players):
        console.print(f"  {game.player_names[player]}: {spec}", markup=False)
    console.print(f"  settings: {record.settings}", markup=False)
    for ply, (action, seconds) in enumerate(zip(record.actions, record.times)):
        mover = game.player_names[state.current_player()]
        cpu = record.cpu[ply] if ply < len(record.cpu) and record.cpu[ply] is not None else None
        cpu_text = "" if cpu is None else f" ({cpu:.3f} s CPU)"
        console.print(f"{ply + 1:4d}. {mover:6s} {state.action_to_string(action):28s} {seconds:8.3f} s{cpu_text}",
                      markup=False)
        state.apply_action(action)
    console.print(f"result: {'tie' if record.winner is None else game.player_names[record.winner] + ' wins'}"
                  f" ({record.reason})", markup=False)


@games_app.command("export")
def games_export(output: Optional[Path] = typer.Option(None, "--output", "-o", help="File (default: standard output)."),
                 source: str = typer.Option("arena", help=SOURCE_HELP),
                 tournament: Optional[int] = typer.Option(None, help="Only this tournament's games (arena)."),
                 db: Optional[Path] = typer.Option(None, help="The database to read (default: the source's own)."),
                 json_lines: bool = typer.Option(False, "--json", help="The arena's former output: one JSON line a "
                                                 "game, with each move's time (arena only).")) -> None:
    """Write the arena's or the web app's games as game records, oldest first.

    Each record holds the game, its parameters, players, date and result, then
    its moves in the game's notation (docs/reference/records.md)."""
    from ..records import write_record

    if source not in ("arena", "web"):
        raise ParameterError(f"--source must be arena or web; got {source!r}")
    if json_lines and (source != "arena"):
        raise ParameterError("--json writes the arena's records only (--source arena)")
    if source == "arena":
        from ..web.archive import arena_record

        games = _arena_games(db, tournament)
        records = [arena_record(game) for game in games]
    else:
        records = _web_games(db)
    if json_lines:
        text = "".join(game.to_json() + "\n" for game in games)
    else:
        text = "\n".join(write_record(record) for record in records)
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        console.print(f"{len(records)} games written to {output}", markup=False)


def _arena_games(db: Optional[Path], tournament: Optional[int]) -> list:
    """The arena's games as it stores them, oldest first."""
    from ..arena.store import open_store

    store = open_store(db)
    games, offset = [], 0
    while True:
        page = store.games(limit=500, offset=offset, tournament_id=tournament)
        games += page
        offset += len(page)
        if len(page) < 500:
            break
    return list(reversed(games))


def _web_games(db: Optional[Path]) -> list:
    """The web app's games as records, oldest first."""
    from ..web.archive import web_record

    store = _web_store(db)
    games, offset = [], 0
    while True:
        page = store.recent(limit=500, offset=offset)
        games += page
        offset += len(page)
        if len(page) < 500:
            break
    return [web_record(game) for game in reversed(games)]


def _web_store(db: Optional[Path]):
    from ..web.store import GameStore
    from .serve import check_not_the_arena_db, default_db_path

    path = db or default_db_path()
    check_not_the_arena_db(path, None)
    return GameStore(path)


IMPORT_CHANGES_SHOWN = 20  # the sides stored as human that an import lists one by one


@games_app.command("import")
def games_import(files: list[Path] = typer.Argument(..., help="Files of game records ('-': standard input), "
                                                         "each at most 64,000,000 characters (MAX_FILE_CHARS)."),
                 db: Optional[Path] = typer.Option(None, help=WEB_DB_HELP)) -> None:
    """Add the games of game-record files to the web app's games.

    They are listed on its Games page, to replay and analyse; an unfinished
    game can be played on. Every record is checked (game, parameters, each
    move, result) before any is added, and all are added in one transaction
    (an import stopped halfway adds none); a game stored already (the same
    game, first position and moves) is skipped, so importing a file twice
    adds its games once. A side the web app cannot play (an unknown agent,
    a setting past boomboard serve's default limits) is stored as human,
    and said so."""
    from ..records import MAX_FILE_CHARS, read_records
    from ..web.archive import stored_game

    records = []
    for file in files:
        text = _read_text(file, MAX_FILE_CHARS)
        try:
            records += read_records(text)
        except BoomboardError as problem:
            raise ParameterError(f"{'standard input' if str(file) == '-' else file}: {problem}") from None
    games, changes = [], []
    for number, record in enumerate(records, 1):
        game, changed = stored_game(record)
        games.append(game)
        changes += [f"record {number}: {change}" for change in changed]
    for change in changes[:IMPORT_CHANGES_SHOWN]:
        console.print(change, markup=False, soft_wrap=True)
    if len(changes) > IMPORT_CHANGES_SHOWN:
        console.print(f"... and {len(changes) - IMPORT_CHANGES_SHOWN} more sides stored as human", markup=False)
    store = _web_store(db)
    console.print(f"storing {len(games):,} games in {store.path} (all or none)", markup=False, soft_wrap=True)
    console.file.flush()  # said before the wait, also into a pipe
    added, skipped = store.add_new(games)
    already = f"; {skipped} skipped, stored already (the same game and moves)" if skipped else ""
    console.print(f"{added} games imported into {store.path}{already}", markup=False, soft_wrap=True)


def _read_text(file: Path, limit: int) -> str:
    """A file's text (``-``: standard input), refused past ``limit`` characters."""
    try:
        if str(file) == "-":
            text = sys.stdin.read(limit + 1)
        else:
            with open(file, encoding="utf-8") as handle:
                text = handle.read(limit + 1)
    except (OSError, UnicodeDecodeError) as problem:
        raise ParameterError(f"cannot read {file}: {getattr(problem, 'strerror', None) or problem}") from None
    if len(text) > limit:
        raise ParameterError(f"{file} holds more than {limit:,} characters (MAX_FILE_CHARS): split it")
    return text


def replay(game_id: int = typer.Argument(...), db: Optional[Path] = _DB,
           all_plies: bool = typer.Option(False, "--all", help="Print every position, no stepping.")) -> None:
    """Step through a recorded game: Enter or n next, p previous, a number jumps there, q quits."""
    from ..arena.store import open_store
    from ..registry import load_game
    from .render import render_state

    record = open_store(db).game(game_id)
    game = load_game(record.game)
    states = [game.new_initial_state()]
    for action in record.actions:
        states.append(states[-1].child(action))
    ply = 0
    while True:
        state = states[ply]
        heading = f"game {record.id}: {record.players[0]} vs {record.players[1]}, ply {ply}/{len(record.actions)}"
        if ply:
            mover = game.player_names[states[ply - 1].current_player()]
            heading += f", {mover} played {states[ply - 1].action_to_string(record.actions[ply - 1])}"
        console.print(heading, markup=False)
        console.print(render_state(state))
        if ply == len(record.actions):
            console.print(f"result: {record.reason or record.status}", markup=False)
        if all_plies:
            if ply == len(record.actions):
                return
            ply += 1
            continue
        try:
            answer = console.input("[dim](n)ext, (p)revious, number, (q)uit> [/dim]").strip().lower()
        except EOFError:
            return
        if answer in ("q", "quit"):
            return
        if answer in ("", "n"):
            ply = min(ply + 1, len(record.actions))
        elif answer == "p":
            ply = max(ply - 1, 0)
        elif answer.isdigit():
            ply = min(int(answer), len(record.actions))
        else:
            console.print("type n, p, a ply number or q", markup=False)


def register(app: typer.Typer) -> None:
    """Add the arena's commands to the ``boomboard`` app.

    ``boomboard games`` alone still prints the catalogue (``boomboard
    catalog``), with a note; its subcommands are for recorded games.
    """
    for command in (match, tournament, resume, standings, replay):
        app.command()(command)
    catalog = next((c for c in app.registered_commands if (c.name or c.callback.__name__) == "catalog"), None)
    if catalog is not None:

        @games_app.callback(invoke_without_command=True)
        def games_root(ctx: typer.Context) -> None:
            """Recorded games (list, show, export, import); alone, as before, the catalogue of games."""
            if ctx.invoked_subcommand is None:
                # 'boomboard games' listed the games before it meant recorded games: scripts may still say it
                Console(stderr=True, highlight=False).print(
                    "note: the list of games is 'boomboard catalog'; 'boomboard games' is for recorded games "
                    "(list, show, export, import)", markup=False)
                catalog.callback()

    app.add_typer(games_app, name="games")
    from . import protocols

    protocols.register(app)
