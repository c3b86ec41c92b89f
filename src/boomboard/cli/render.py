"""Boards in colour for the terminal, drawn from a game's :class:`BoardView`; a game
without pictures (no ``play`` capability) is shown by its position notation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rich.text import Text

from ..core.board_view import BoardView, Cell
from ..core.capabilities import PLAY, provides

# A colour per player name, chosen so each reads on dark and light terminals.
_PLAYER_STYLES = {
    "white": "bold black on grey85",
    "black": "bold grey93 on grey30",
    "red": "bold white on red3",
    "blue": "bold white on blue3",
    "green": "bold white on green4",
    "x": "bold red1",
    "o": "bold yellow1",
}
_FALLBACK_STYLES = ("bold cyan", "bold magenta")


def player_style(player_names: tuple[str, str], player: int) -> str:
    return _PLAYER_STYLES.get(player_names[player], _FALLBACK_STYLES[player])


def cell_style(cell: Cell, player_names: tuple[str, str]) -> str:
    if cell.owner is None:
        return "grey50"
    style = player_style(player_names, cell.owner)
    if cell.mark == "bomb":
        style += " underline"
    return style


def render_board(view: BoardView, player_names: tuple[str, str]) -> Text:
    """The board as rich text: one coloured cell per square, labels dimmed."""
    text = Text()
    for margin, cells in view.lines():
        text.append(margin, style="dim")
        for index, (padded, cell) in enumerate(cells):
            if index:
                text.append(" ")
            text.append(padded, style=cell_style(cell, player_names) if cell else "")
        text.append("\n")
    footer = view.footer()
    if footer:
        text.append(footer + "\n", style="dim")
    if view.caption:
        text.append(view.caption + "\n", style="italic")
    return text


def shown_path(path) -> str:
    """``path`` as people write it: ``~/...`` for a path in their home folder."""
    path = Path(path)
    try:
        return "~/" + path.resolve().relative_to(Path.home().resolve()).as_posix()
    except ValueError:
        return str(path)


def render_state(state) -> Text:
    """The position of ``state`` for the terminal: its board where the game
    draws one (the ``play`` capability), else its position notation; a
    finished game's result is left for a line of its own."""
    game = state.game
    if provides(game, PLAY):
        view = state.board_view()
        if state.is_terminal():  # the result has a line of its own, below the board
            view = dataclasses.replace(view, caption="")
        return render_board(view, game.player_names)
    to_move = "" if state.is_terminal() else f"  ({game.player_names[state.current_player()]} to move)"
    return Text(state.to_notation() + to_move)
