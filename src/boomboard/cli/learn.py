"""``boomboard train``: a policy-value net trained by self-play (the ``learn`` extra)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from .solve import GAME_OPTIONS, _load

console = Console(highlight=False)


def train_command(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Game name, or name(key=value,...)."),
    out: Path = typer.Option(..., "--out", help="Run folder: created, or resumed from its last checkpoint."),
    minutes: Optional[float] = typer.Option(None, "--minutes", min=0.0,
                                            help="Train until the run's training time reaches this."),
    iterations: Optional[int] = typer.Option(None, "--iterations", min=1,
                                             help="Train until the run reaches this many iterations."),
    seed: int = typer.Option(0, "--seed", help="Seeds the net, the search and the self-play games."),
    envs: int = typer.Option(64, "--envs", min=1, help="Self-play games played at once (an iteration)."),
    simulations: int = typer.Option(32, "--simulations", min=2, help="Search simulations per self-play move."),
    channels: int = typer.Option(32, "--channels", min=1, help="The net's width."),
    blocks: int = typer.Option(3, "--blocks", min=1, help="The net's residual blocks."),
    learning_rate: float = typer.Option(1e-3, "--learning-rate", min=0.0, help="Adam's step size."),
    random_plies: int = typer.Option(0, "--random-plies", min=0,
                                     help="Open each self-play game with 0 to this many random moves (not learned from)."),
    value_mix: float = typer.Option(0.0, "--value-mix", min=0.0, max=1.0,
                                    help="Value target: the game's result times 1-MIX plus the search's value times MIX."),
    anneal: float = typer.Option(0.0, "--anneal", min=0.0,
                                 help="Lower the learning rate along a cosine to 1/20 of it over this many "
                                      "minutes of training (0: constant; set it to --minutes)."),
    mirror: bool = typer.Option(False, "--mirror/--no-mirror",
                                help="Learn each sampled position as itself or as its mirror image, at random "
                                     "(where the game has one)."),
    decisive: bool = typer.Option(False, "--decisive/--no-decisive",
                                  help="Self-play's search values a position where the player to move can win "
                                       "at once as a win."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1,
                                          help="Batches of games played at once, one per core (default: every core)."),
    checkpoint_minutes: float = typer.Option(2.0, "--checkpoint-minutes", min=0.0,
                                             help="Training time between checkpoints."),
    baseline: str = typer.Option("greedy", "--baseline", help="The agent the Elo estimate is measured against."),
    db: Optional[Path] = typer.Option(None, "--db", help="Folder of solved tables, for the agreement "
                                                         "with perfect play (default: the user data folder)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Train a policy-value net for a game by self-play with tree search.

    Game parameters are options: boomboard train kaboom --out runs/k44 --minutes 60.
    Run it again with the same --out to resume from the last checkpoint
    (the run's settings are kept; --minutes and --iterations count the whole run).
    Ctrl-C or a SIGTERM stops it after checkpointing the iterations done.
    Where the solver has solved the game (boomboard solve GAME), every
    checkpoint is scored against perfect play. Needs the learn extra.
    """
    from ..core.errors import ParameterError
    from ..core.extras import require_extra

    if minutes is None and iterations is None:
        raise ParameterError("say how long to train: --minutes M or --iterations N (a run resumes where it stopped)")
    require_extra("learn", "boomboard train")
    from ..learn.train import Trainer, TrainConfig

    loaded = _load(game, ctx.args)
    config = TrainConfig(game=str(loaded), seed=seed, envs=envs, simulations=simulations, channels=channels,
                         blocks=blocks, learning_rate=learning_rate, random_plies=random_plies,
                         value_mix=value_mix, anneal=anneal, mirror=mirror, decisive=decisive,
                         workers=workers or len(os.sched_getaffinity(0)),
                         checkpoint_seconds=checkpoint_minutes * 60, baseline=baseline)
    trainer = Trainer.open(out, config, db=db)
    resumed = trainer.iteration
    console.print(f"[bold]{trainer.config.game}[/bold]: net of {trainer.parameters:,} parameters, run folder {out}"
                  + (f", resumed at iteration {resumed}" if resumed else ""), soft_wrap=True)
    if trainer.truth is None:
        console.print("no solved table for this game: no agreement with perfect play "
                      "(boomboard solve GAME first, where it is small enough)")
    total = minutes * 60 if minutes is not None else float(iterations or 1)
    columns = [TextColumn("[bold]train[/bold]"), BarColumn(), TextColumn("{task.fields[games]:>7,} games"),
               TextColumn("{task.fields[moves]:>9,} moves"), TextColumn("loss {task.fields[loss]}"),
               TextColumn("Elo {task.fields[elo]}"), TextColumn("{task.fields[agree]}"), TimeElapsedColumn()]
    with Progress(*columns, console=console, disable=quiet) as progress:
        task = progress.add_task("train", total=total, games=trainer.games, moves=trainer.moves, loss="-",
                                 elo="-", agree="")

        def report(kind: str, line: dict) -> None:
            done = line["seconds"] if minutes is not None else line["iteration"]
            fields = {"games": line["games"]}
            if kind == "iteration":
                fields.update(moves=line["moves"], loss=f"{line['loss']:.3f}")
            else:
                elo = line["elo"]
                fields["elo"] = f"{elo:+.0f} vs {line['baseline']}" if elo is not None else f"score {line['score']:.0%}"
                if "move_agreement" in line:
                    fields["agree"] = f"perfect moves {line['move_agreement']:.1%}"
                if quiet:
                    console.print(f"checkpoint at iteration {line['iteration']}: {fields['elo']} "
                                  f"{fields.get('agree', '')}")
            progress.update(task, completed=min(done, total), **fields)

        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            trainer.run(minutes=minutes, iterations=iterations, report=report)
        finally:
            signal.signal(signal.SIGTERM, previous)
    console.print(f"iteration {trainer.iteration}, {trainer.games:,} games in {trainer.seconds / 60:.1f} min; "
                  f"model: {out / 'model.msgpack'} (play it as learned:{out})", soft_wrap=True)


def _interrupt(number, frame):
    """A SIGTERM (a scheduler, ``kill``) stops like Ctrl-C: the iterations done are checkpointed."""
    raise KeyboardInterrupt


def register(app: typer.Typer) -> None:
    """Add ``train`` to the ``boomboard`` command."""
    app.command("train", context_settings=GAME_OPTIONS)(train_command)
