"""The ``boomboard`` command."""

from __future__ import annotations

import sys
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .. import __version__
from ..core.errors import BoomboardError
from .interrupts import stop_on_ctrl_c_where_it_can_be_raised

app = typer.Typer(
    help="boomboard: chain-reaction board games (Expendibots, Jump61, Kaboom, Explocus, HExplocus, Chain Reaction).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)
console = Console(highlight=False)
GAME_OPTIONS = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command()
def catalog() -> None:
    """List the games boomboard plays, their players and their parameters."""
    from ..registry import registered_games

    table = Table(title="boomboard games")
    table.add_column("game", style="bold")
    table.add_column("players")
    table.add_column("parameters (default)")
    for info in registered_games():
        params = "\n".join(p.describe() for p in info.parameters) or "(none)"
        table.add_row(f"{info.name}\n[dim]{info.title}[/dim]", " vs ".join(info.player_names), params)
    console.print(table)


@app.command(context_settings=GAME_OPTIONS,
             epilog="Game parameters and sides are options too: boomboard play kaboom --rows 5 --misere --o random. "
                    "Run 'boomboard catalog' for each game's parameters.")
def play(
    ctx: typer.Context,
    game: Optional[str] = typer.Argument(None, help="Game name, or name(key=value,...) (default: Kaboom)."),
    position: Optional[str] = typer.Option(None, help="Start from this position (the game's notation)."),
    seed: Optional[int] = typer.Option(None, help="Seed for the agents' randomness."),
    moves: Optional[str] = typer.Option(
        None, help="Play these moves first (space separated for single-word notations, ';' otherwise)."),
    think: bool = typer.Option(False, "--think", help="Show the AI's thinking after each of its moves."),
    animate: bool = typer.Option(False, "--animate", help="Show each move's cascade as successive boards."),
) -> None:
    """Play a game in the terminal: a person against the AI (ai:time=0.5) by default.

    Each side (named as the game names its players, e.g. --white, --x) is
    'human' or an agent spec: random, greedy, alphabeta:time=1.0, alphabeta:depth=6,
    mcts:simulations=5000, ai (the strongest, 1 s a move), ai:time=5, ...
    """
    from .. import learn  # noqa: F401  (registers the "learned" agent kind for make_agent)
    from ..agents import HUMAN, make_agent, parse_spec
    from ..registry import DEFAULT_GAME, load_game
    from .options import parse_game_options
    from .play import TerminalGame

    game = game or DEFAULT_GAME
    options = parse_game_options(_base_name(game), ctx.args)
    loaded = load_game(game, **options.params)
    sides: list = [HUMAN, DEFAULT_OPPONENT]
    for player, spec in options.sides.items():
        sides[player] = spec
    built = []
    for player, spec in enumerate(sides):
        kind, _ = parse_spec(spec)
        built.append(HUMAN if kind == HUMAN else make_agent(spec, seed=None if seed is None else seed + player))
    state = loaded.new_initial_state() if position is None else loaded.state_from_notation(position)
    if moves:
        for word in _split_moves(moves):
            state.play(word)
    console.print(f"[bold]{loaded.title}[/bold] [dim]({loaded})[/dim]: "
                  + " vs ".join(f"{name} = {side}" for name, side in zip(loaded.player_names, sides))
                  + "  [dim](type 'help' on your turn)[/dim]")
    TerminalGame(loaded, built, console, _read_line, state, think=think, animate=animate).run()


@app.command(context_settings=GAME_OPTIONS)
def show(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Game name, or name(key=value,...)."),
) -> None:
    """Draw a position and list its legal moves.

    boomboard show GAME [POSITION] [--param value ...]: POSITION in the game's
    notation (default: the start).
    """
    from ..registry import load_game
    from .options import parse_game_options, split_position
    from .render import render_state

    split = split_position(_base_name(game), ctx.args)
    options = parse_game_options(_base_name(game), split.options)
    loaded = load_game(game, **options.params)
    state = split.state(loaded)
    outcome = state.outcome()
    console.print(render_state(state))  # a finished board's caption is its result, printed once, below
    if outcome:
        console.print(outcome.describe(loaded.player_names), markup=False)
    else:
        legal = [state.action_to_string(a) for a in state.legal_actions()]
        console.print(f"{len(legal)} legal moves: " + ", ".join(legal), markup=False)


@app.command(context_settings=GAME_OPTIONS)
def perft(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Game name, or name(key=value,...)."),
    depth: int = typer.Argument(3, min=0, max=12, help="Number of actions."),
    position: Optional[str] = typer.Option(None, help="Start from this position (the game's notation)."),
    divide: bool = typer.Option(False, help="Also show the count below each legal move."),
) -> None:
    """Count the action sequences of a given length (a move-generation check)."""
    from ..core.perft import compiled_perft
    from ..registry import load_game
    from .options import parse_game_options

    options = parse_game_options(_base_name(game), ctx.args)
    loaded = load_game(game, **options.params)
    state = loaded.new_initial_state() if position is None else loaded.state_from_notation(position)
    if divide and depth > 0:
        for action in state.legal_actions():
            console.print(f"{state.action_to_string(action)}: {compiled_perft(state.child(action), depth - 1)}",
                          markup=False)
    console.print(f"perft({depth}) = {compiled_perft(state, depth)}")


@app.command()
def version() -> None:
    """Print boomboard's version."""
    console.print(f"boomboard {__version__}")



# The other jobs' commands live in their own modules and add themselves to
# ``app`` (after the commands above: ``games`` falls back on ``catalog``).
from .arena import register as register_arena  # noqa: E402
from .compile import compile_games  # noqa: E402
from .explore import register as register_explore  # noqa: E402
from .learn import register as register_learn  # noqa: E402
from .serve import register as register_serve  # noqa: E402
from .solve import register as register_solver_commands  # noqa: E402

register_serve(app)
app.command("compile")(compile_games)
register_solver_commands(app)
register_arena(app)
register_learn(app)
register_explore(app)


# The AI a person plays by default: half a second a move, as in the web app,
# so that no reply keeps them waiting a second ('--o ai' is 1 s a move).
DEFAULT_OPPONENT = "ai:time=0.5"


def _base_name(game: str) -> str:
    return game.split("(", 1)[0].strip().lower()


def _split_moves(text: str) -> list[str]:
    parts = text.split(";") if ";" in text else text.split()
    return [part.strip() for part in parts if part.strip()]


def _read_line(prompt: str) -> str:
    return console.input(f"[bold]{prompt}[/bold]")




def main() -> None:
    """Entry point: runs the app, turning our errors into one clear line."""
    stop_on_ctrl_c_where_it_can_be_raised()
    try:
        code = app(standalone_mode=False)
        if isinstance(code, int) and code:  # typer returns an Exit's code here (Ctrl-C: 130)
            sys.exit(code)
    except BoomboardError as error:
        # escaped: a message may hold brackets ("pip install 'boomboard[web]'"); one line, however long
        console.print(f"[red]error:[/red] {escape(str(error))}", markup=True, highlight=False, soft_wrap=True)
        sys.exit(2)
    except (KeyboardInterrupt, EOFError):
        console.print("\nstopped.")
        sys.exit(130)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except typer.Abort:
        console.print("aborted.")
        sys.exit(1)
    except Exception as error:
        # A usage error (unknown option, bad value): typer raises click's
        # exceptions, from click itself or, since typer 0.26, from its own copy.
        if callable(getattr(error, "show", None)) and isinstance(getattr(error, "exit_code", None), int):
            error.show()
            sys.exit(error.exit_code)
        raise
