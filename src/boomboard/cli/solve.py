"""``boomboard solve`` and ``boomboard analyze``: the strong solver on the command line."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table as RichTable

from ..core.errors import BoomboardError, ParameterError

console = Console(highlight=False)
GAME_OPTIONS = {"allow_extra_args": True, "ignore_unknown_options": True}
MAX_PROVE_SECONDS = 86_400  # analyze --prove: a day of CPU time at most


def _load(game: str, args: list[str]):
    from ..registry import load_game
    from .options import parse_game_options

    options = parse_game_options(_base_name(game), args)
    if options.sides:
        raise BoomboardError("players are not options here; give only the game's parameters")
    return load_game(game, **options.params)


def _base_name(game: str) -> str:
    return game.split("(", 1)[0].strip().lower()


def _describe(value: str, remoteness: int) -> str:
    if value == "draw":
        return "draw"
    return f"{value} in {remoteness}" if remoteness else f"{value} (over)"


def _print_plan(game, symmetry: bool, cores: int) -> None:
    from ..solver.dense_plan import MEASURED_BYTES_PER_RECORD, MEASURED_RECORDS_PER_CPU_SECOND, plan

    if game.solver_dense_spec() is None:
        raise ParameterError(f"{game} cannot be solved densely, so there is no dense plan for it")
    counted = plan(game, symmetry)
    gib = 1 << 30
    console.print(f"[bold]{counted.game}[/bold], dense, symmetry {'on' if symmetry else 'off'}: "
                  f"{counted.levels} levels, {counted.tiers:,} tiers stored, {counted.records:,} records "
                  f"({counted.records * 2 / gib:,.2f} GiB at 2 bytes)", soft_wrap=True)
    console.print(f"memory: {counted.memory_bytes() / gib:,.2f} GiB for the largest level and the levels it "
                  f"reads (largest level {counted.largest_level:,} records), on one machine or each Ray worker")
    console.print(f"disk: about {counted.records * MEASURED_BYTES_PER_RECORD / gib:,.2f} GiB compressed "
                  f"({MEASURED_BYTES_PER_RECORD} bytes a record, as measured)")
    import psutil

    memory = psutil.virtual_memory().total
    if counted.needs_window(memory):
        console.print(f"here ({memory / gib:,.1f} GiB of memory): the levels read go through a mapped window "
                      f"file, up to {counted.memory_bytes() / gib:,.2f} GiB of disk besides the table")
    console.print(f"time: about {counted.hours(MEASURED_RECORDS_PER_CPU_SECOND, 1):,.1f} CPU hours, "
                  f"{counted.hours(MEASURED_RECORDS_PER_CPU_SECOND, cores):,.2f} h on {cores} cores "
                  f"({MEASURED_RECORDS_PER_CPU_SECOND / 1e6:.1f} M records per CPU second, as measured)")


def solve_command(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Game name, or name(key=value,...)."),
    db: Optional[Path] = typer.Option(None, "--db", help="Folder of solved tables (default: the user data folder)."),
    tokens: int = typer.Option(3, "--tokens", min=2, max=6, help="Expendibots: most tokens on the board."),
    position: Optional[str] = typer.Option(None, "--position", help="Solve what is reachable from this position."),
    verify: bool = typer.Option(False, "--verify",
                                help="Check every stored value against its children, and print the counts made "
                                     "again from the records (refusing a meta.json that disagrees)."),
    force: bool = typer.Option(False, "--force", help="Solve again even if a table exists."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bars."),
    max_positions: Optional[int] = typer.Option(
        None, "--max-positions", min=1,
        help="Stop (resumably) beyond this many positions (default: none; in memory, what half the memory holds)."),
    method: str = typer.Option("auto", "--method",
                               help="auto (dense where the game ranks its positions, else in memory, or a layer at "
                                    "a time on disk when too big), dense, memory, or tiers."),
    symmetry: bool = typer.Option(True, "--symmetry/--no-symmetry",
                                  help="Dense: solve and store one of each pair of mirror images."),
    threads: Optional[int] = typer.Option(None, "--threads", min=1,
                                          help="Dense: threads scanning a level (default: all cores; "
                                               "with --backend ray, per task, default 1)."),
    backend: str = typer.Option("local", "--backend",
                                help="Dense: local, or ray (a level's tiers as tasks on a Ray cluster)."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address",
                                              help="With --backend ray: the cluster (default: a local instance)."),
    memory: Optional[float] = typer.Option(None, "--memory", min=0.001,
                                           help="Dense: GiB of memory to plan with instead of this machine's "
                                                "(each Ray node's); levels read that need more than 80% of it "
                                                "go through a mapped file."),
    plan: bool = typer.Option(False, "--plan", help="Dense: print what the solve needs (records, memory, disk, "
                                                    "time) without solving."),
    cores: int = typer.Option(0, "--cores", min=0, help="With --plan: cores to estimate the time for "
                                                       "(default: this machine's)."),
) -> None:
    """Solve a game: the value and remoteness of every position reachable from
    its start (Expendibots: of every endgame with at most --tokens tokens).

    Game parameters are options: boomboard solve kaboom --rows 3 --cols 3 --connect 3.
    An interrupted solve resumes where it stopped when run again.
    """
    from ..solver import SolveSettings, solve
    from .render import shown_path

    loaded = _load(game, ctx.args)
    if plan:
        _print_plan(loaded, symmetry, cores or os.cpu_count() or 1)
        return
    root = None if position is None else loaded.state_from_notation(position)
    settings = SolveSettings(tokens=tokens, max_positions=max_positions, method=method, symmetry=symmetry,
                             threads=threads, backend=backend, ray_address=ray_address,
                             memory=None if memory is None else int(memory * (1 << 30)))
    table = solve(loaded, db=db, settings=settings, progress=not quiet, root=root, force=force)
    start_state = root or loaded.new_initial_state()
    meta = table.meta
    if verify:  # what is printed is what the records say, not what meta.json claims
        meta = _verified_summary(table, start_state, progress=not quiet)
    else:
        disagreement = table.meta_disagreement(start_state)
        if disagreement:
            raise BoomboardError(f"{shown_path(table.folder / 'meta.json')} disagrees with its table: it says "
                                 f"{disagreement}; solve it again with --force")
    if meta.get("kind") == "dense":  # every rank of the tiers is stored: positions, and ranks that are none
        stored = (f"{meta['positions']:,} positions in {meta['records']:,} dense records"
                  + (" (mirror images once)" if meta.get("symmetric") else ""))
    else:
        stored = f"{meta['positions']:,} positions"
    console.print(f"[bold]{table.game}[/bold] ({meta['variant']}): {stored}, "
                  f"solved in {meta['seconds']:.1f} s, {meta['bytes']:,} bytes in {shown_path(table.folder)}",
                  soft_wrap=True)
    counts = ", ".join(f"{n:,} {v}" for v, n in meta["values"].items() if n)
    console.print(f"values: {counts}; longest remoteness {meta['max_remoteness']}")
    if meta.get("start"):
        start = meta["start"]
        mover = loaded.player_names[start_state.current_player()]
        console.print(f"start: {_describe(start['value'], start['remoteness'])} for {mover} (the player to move)")
    if verify:
        console.print(f"verified: all {len(table):,} {'records' if meta.get('kind') == 'dense' else 'entries'} "
                      "agree with their children; the figures above are counted from them")


def _verified_summary(table, start_state, progress: bool) -> dict:
    """``table``'s ``meta.json`` with what it summarizes counted again from the
    records, once every record is checked against its children's; a
    :class:`BoomboardError` if a record or ``meta.json`` disagrees."""
    from ..solver import verify as verify_table

    bad = verify_table(table, progress=progress)
    if bad is not None:
        state = table.state_at(bad)
        raise BoomboardError(f"verification failed at position {bad} ({state.to_notation()}): "
                             "its entry disagrees with its children's")
    counted = table.recount(start_state)
    for name, value in counted.items():
        if table.meta.get(name) != value:
            raise BoomboardError(f"verification failed: {table.folder / 'meta.json'} says {name} "
                                 f"{table.meta.get(name)!r:.80}, the records {value!r:.80}; solve it again "
                                 "with --force")
    return {**table.meta, **counted}


def analyze_command(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Game name, or name(key=value,...)."),
    db: Optional[Path] = typer.Option(None, "--db", help="Folder of solved tables (default: the user data folder)."),
    picture: Optional[Path] = typer.Option(None, "--picture", help="Also draw the moves, coloured by value, "
                                           "into this image (.png, .svg, .pdf)."),
    prove: bool = typer.Option(False, "--prove", help="No table: prove the value by search (boards too big to "
                                                      "solve), with the best moves, within --prove-seconds and "
                                                      "--prove-nodes."),
    prove_seconds: float = typer.Option(60.0, "--prove-seconds", min=0.001, max=MAX_PROVE_SECONDS,
                                        help="With --prove: CPU seconds before it stops with \"not proved\" "
                                             f"(at most {MAX_PROVE_SECONDS:,})."),
    prove_nodes: Optional[int] = typer.Option(None, "--prove-nodes", min=1,
                                              help="With --prove: nodes before it stops with \"not proved\" "
                                                   "(default: no node limit)."),
    prove_table_bits: int = typer.Option(22, "--prove-table-bits", min=10, max=26,
                                         help="With --prove: the transposition table has 2^N entries of 16 "
                                              "bytes (default 22: 64 MiB; at most 26: 1 GiB)."),
) -> None:
    """Show a position's perfect-play value and every legal move's, best first.

    boomboard analyze GAME [POSITION] [--param value ...]: POSITION in the
    game's notation (default: the start), e.g.
    boomboard analyze kaboom "(x 0 0 xoxx o@*o -ooo -xxx)".
    With --prove, no table is read: a search proves the value and the best
    moves (boards too big for tables: boomboard analyze kaboom --rows 6
    --cols 7 --bombs 0 --prove).
    """
    from ..solver import analyze

    from .options import split_position

    split = split_position(_base_name(game), ctx.args)
    loaded = _load(game, split.options)
    state = split.state(loaded)
    if prove:
        if picture is not None:
            raise BoomboardError("--picture draws a table's values; it does not go with --prove")
        _print_proof(loaded, state, prove_seconds, prove_nodes, prove_table_bits)
        return
    analysis = analyze(state, db=db)
    if picture is not None:
        from ..solver import draw_moves

        draw_moves(analysis, picture)
    mover = loaded.player_names[state.player_to_move()]
    console.print(f"{state.to_notation()}", markup=False)
    console.print(f"value: {_describe(analysis.value, analysis.remoteness)} for {mover} (the player to move)")
    if not analysis.moves:
        return
    table = RichTable(title=f"{len(analysis.moves)} moves, best first")
    table.add_column("move")
    table.add_column("value for " + mover)
    table.add_column("remoteness", justify="right")
    for move in analysis.moves:
        table.add_row(move.notation, move.value, "" if move.value == "draw" else str(move.remoteness))
    console.print(table)
    if picture is not None:
        console.print(f"picture: {picture}", markup=False, highlight=False)


def _print_proof(game, state, seconds: float, nodes: int | None, table_bits: int) -> None:
    """``analyze --prove``: the value proved by search, the best moves and the cost."""
    from ..search.prover import Prover

    if state.is_terminal():
        raise BoomboardError("the game is over at that position; there is nothing to prove")
    proof = Prover(game, table_bits=table_bits).prove(state, seconds=seconds, nodes=nodes, best_moves=True)
    mover = game.player_names[state.player_to_move()]
    console.print(f"{state.to_notation()}", markup=False)
    value = proof.value if proof.plies is None else \
        f"{proof.value} in {proof.plies} {'ply' if proof.plies == 1 else 'plies'}"
    console.print(f"value: {value} for {mover} (the player to move), proved by search")
    best = ", ".join(state.action_to_string(action) for action in proof.best_moves)
    console.print(f"best moves: {best}", markup=False)
    console.print(f"{proof.nodes:,} nodes in {proof.seconds:.2f} CPU s")


def register(app: typer.Typer) -> None:
    """Add ``solve`` and ``analyze`` to the ``boomboard`` command."""
    app.command("solve", context_settings=GAME_OPTIONS)(solve_command)
    app.command("analyze", context_settings=GAME_OPTIONS)(analyze_command)
