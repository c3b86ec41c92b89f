"""A deliberately simple reference engine for Expendibots.

Written from the rulebook (section 1) alone, apart from the compiled engine:
a board is a dict from (x, y) to (colour, tokens), actions are worked out and
applied as text in the game's move notation (``1 b2 b3``, ``boom b2``: squares
named like chess squares, column letter and row number, a1 the bottom left),
chain reactions are a breadth-first search over a set. It speaks only
notation (see ``tests/differential.py``).
"""

from __future__ import annotations

import json
import re

WHITE, BLACK = "white", "black"
SIDE = 8
START_COLUMNS = (0, 1, 3, 4, 6, 7)

COLUMNS = "abcdefgh"
MOVE_TEXT = re.compile(r"(\d+) ([a-h])([1-8]) ([a-h])([1-8])")
BOOM_TEXT = re.compile(r"boom ([a-h])([1-8])")


def square(x, y):
    return f"{COLUMNS[x]}{y + 1}"


def coordinates(column, row):
    return COLUMNS.index(column), int(row) - 1


def opponent(colour):
    return BLACK if colour == WHITE else WHITE


class Position:
    """The board, whose turn it is, and the history the end rules need."""

    def __init__(self, board, turn, seen, actions_played, result):
        self.board = board  # {(x, y): (colour, tokens)}
        self.turn = turn
        self.seen = seen  # {position key: how often it has occurred}
        self.actions_played = actions_played
        self.result = result  # None, or (winner 0/1/None, reason name)

    def key(self):
        return frozenset(self.board.items()), self.turn


def count_tokens(board, colour):
    return sum(tokens for owner, tokens in board.values() if owner == colour)


def tokens_result(board):
    """End checks 1 and 2, on the board alone."""
    white, black = count_tokens(board, WHITE), count_tokens(board, BLACK)
    if white == 0 and black == 0:
        return (None, "BOTH_NO_TOKENS")
    if black == 0:
        return (0, "NO_TOKENS")
    if white == 0:
        return (1, "NO_TOKENS")
    return None


def new_position(board, turn):
    position = Position(board, turn, {}, 0, tokens_result(board))
    position.seen[position.key()] = 1
    return position


def on_board(x, y):
    return 0 <= x < SIDE and 0 <= y < SIDE


class ExpendibotsReference:
    def initial(self):
        board = {}
        for x in START_COLUMNS:
            for y in (0, 1):
                board[(x, y)] = (WHITE, 1)
            for y in (6, 7):
                board[(x, y)] = (BLACK, 1)
        return new_position(board, WHITE)

    def from_notation(self, text):
        data = json.loads(text)
        board = {}
        for colour in (WHITE, BLACK):
            for tokens, x, y in data[colour]:
                board[(x, y)] = (colour, tokens)
        return new_position(board, data.get("turn", WHITE))

    def to_notation(self, position):
        data = {WHITE: [], BLACK: []}
        for y in range(SIDE):
            for x in range(SIDE):
                if (x, y) in position.board:
                    colour, tokens = position.board[(x, y)]
                    data[colour].append([tokens, x, y])
        if position.turn == BLACK:
            data["turn"] = BLACK
        return json.dumps(data)

    def legal(self, position):
        if position.result is not None:
            return []
        actions = []
        for (x, y), (colour, n) in position.board.items():
            if colour != position.turn:
                continue
            actions.append(f"boom {square(x, y)}")
            for dx, dy in ((0, 1), (0, -1), (-1, 0), (1, 0)):
                for distance in range(1, n + 1):
                    tx, ty = x + dx * distance, y + dy * distance
                    if not on_board(tx, ty):
                        continue
                    there = position.board.get((tx, ty))
                    if there is not None and there[0] != colour:
                        continue
                    for moved in range(1, n + 1):
                        actions.append(f"{moved} {square(x, y)} {square(tx, ty)}")
        return actions

    def play(self, position, move):
        assert move in self.legal(position), move
        board = dict(position.board)
        boom = BOOM_TEXT.fullmatch(move)
        if boom:
            explode(board, coordinates(*boom.groups()))
        else:
            count, column_a, row_a, column_b, row_b = MOVE_TEXT.fullmatch(move).groups()
            moved, (xa, ya), (xb, yb) = int(count), coordinates(column_a, row_a), coordinates(column_b, row_b)
            colour, n = board[(xa, ya)]
            if n == moved:
                del board[(xa, ya)]
            else:
                board[(xa, ya)] = (colour, n - moved)
            already = board.get((xb, yb), (colour, 0))[1]
            board[(xb, yb)] = (colour, already + moved)
        after = Position(board, opponent(position.turn), dict(position.seen), position.actions_played + 1, None)
        after.seen[after.key()] = after.seen.get(after.key(), 0) + 1
        after.result = tokens_result(board)
        if after.result is None and after.seen[after.key()] >= 4:
            after.result = (None, "REPETITION")
        if after.result is None and after.actions_played >= 500:
            after.result = (None, "TURN_LIMIT")
        return after

    def result(self, position):
        return position.result


def chained(board, start):
    """``start`` and every square of ``board`` (any mapping keyed by (x, y))
    the chain reaction from it reaches: stacks a king's step apart."""
    exploding = [start]
    caught = {start}
    while exploding:
        x, y = exploding.pop(0)
        for ax in range(x - 1, x + 2):
            for ay in range(y - 1, y + 2):
                if (ax, ay) in board and (ax, ay) not in caught:
                    caught.add((ax, ay))
                    exploding.append((ax, ay))
    return caught


def explode(board, start):
    """Remove the stack on ``start`` and every stack reached by the chain reaction."""
    for square in chained(board, start):
        del board[square]


def expendibots_reference():
    return ExpendibotsReference()
