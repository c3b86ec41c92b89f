"""A game-neutral picture of a board, drawn as plain text or in colour.

Each game describes its board once, as a :class:`BoardView` (rows of
:class:`Cell`, top row first, as people read a diagram); ``str(state)``, the
terminal's colour board and future front ends all draw from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Cell:
    """One square or hexagon: ``text`` is what stands on it ("3", "x", "2r"),
    ``owner`` the player it belongs to (``None`` for empty or neutral) and
    ``mark`` an optional role such as ``"bomb"``."""

    text: str
    owner: int | None = None
    mark: str = ""


@dataclass(frozen=True)
class BoardView:
    """Rows of cells, top first, with their labels.

    ``indents`` (in half cells, one per row) shift rows for hexagonal boards.
    On such a board ``column_labels`` name the diagonals and are drawn as on
    Abalone diagrams: each at the lower-right end of its diagonal, below the
    bottom row and after the rows of the lower half. Cells are then drawn an
    odd number of characters wide, so that every row sits exactly half a
    cell from the next.
    ``caption`` says whose turn it is and anything else off the board
    (bombs in hand, the result).
    """

    rows: list[list[Cell]]
    row_labels: list[str]
    column_labels: list[str] = field(default_factory=list)
    indents: list[int] = field(default_factory=list)
    caption: str = ""

    def cell_width(self) -> int:
        texts = [c.text for row in self.rows for c in row] + list(self.column_labels)
        width = max((len(t) for t in texts), default=1)
        if self.indents and width % 2 == 0:
            width += 1  # a cell and its gap make an even pitch: half a cell is whole characters
        return width

    def _diagonal_labels(self) -> bool:
        return bool(self.indents) and bool(self.column_labels) and bool(self.rows)

    def _pad(self, half_cells: int) -> str:
        return " " * (half_cells * (self.cell_width() + 1) // 2)

    def lines(self) -> list[tuple[str, list[tuple[str, Cell | None]]]]:
        """Each row as (left margin, [(padded text, cell or None for padding)])."""
        width = self.cell_width()
        label_width = max((len(label) for label in self.row_labels), default=0)
        out = []
        bottom = len(self.rows) - 1
        for index, row in enumerate(self.rows):
            indent = self.indents[index] if self.indents else 0
            pad = self._pad(indent)
            margin = f"{self.row_labels[index]:>{label_width}} {pad}" if self.row_labels else pad
            cells: list[tuple[str, Cell | None]] = [(c.text.rjust(width), c) for c in row]
            below = bottom - index  # rows under this one
            label = len(self.rows[-1]) + below  # the diagonal whose lowest cell is just up-right of here
            if self._diagonal_labels() and below < bottom - below and label < len(self.column_labels):
                cells.append((self.column_labels[label].rjust(width), None))
            out.append((margin, cells))
        return out

    def footer(self) -> str:
        if not self.column_labels:
            return ""
        width = self.cell_width()
        label_width = max((len(label) for label in self.row_labels), default=0)
        margin = " " * (label_width + 1) if self.row_labels else ""
        if self._diagonal_labels():
            labels = self.column_labels[:len(self.rows[-1])]
            return margin + self._pad(self.indents[-1] + 1) + " ".join(label.rjust(width) for label in labels)
        return margin + " ".join(label.rjust(width) for label in self.column_labels)

    def to_text(self) -> str:
        text = [margin + " ".join(t for t, _ in cells) for margin, cells in self.lines()]
        if self.column_labels:
            text.append(self.footer())
        if self.caption:
            text.append(self.caption)
        return "\n".join(line.rstrip() for line in text)
