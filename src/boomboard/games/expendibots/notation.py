"""Expendibots notations, read and written in plain Python.

Squares are ``(x, y)``: ``x`` the column 0..7 from the left, ``y`` the row
0..7 from the bottom (White's side), the course referee's convention.

* **Referee actions**, the Python tuples the course referee and its agents
  exchange: ``("MOVE", n, (xa, ya), (xb, yb))`` and ``("BOOM", (x, y))``.
  :func:`encode_action` and :func:`decode_action` convert them to and from
  our action ids; :func:`format_tuple` prints one as Python does.
* **Text form**, the referee's log: ``MOVE n from (xa, ya) to (xb, yb).`` and
  ``BOOM at (x, y).`` (:func:`format_action`). :func:`parse_action` reads it
  in any case, with any spacing and with or without the final period, and
  also reads the printed tuple form.
* **Short form**, the game's move notation for people, written everywhere
  a move is shown (the boards, the terminal, the web page, records): squares
  named like chess, a letter ``a``..``h`` for the column ``x`` 0..7 and a
  digit ``1``..``8`` for the row ``y`` 0..7 (``b2`` is ``(1, 1)``), as the
  boards label them; ``1 b2 b3`` moves 1 token from b2 to b3 and ``boom b2``
  explodes the stack on b2 (:func:`format_short`). :func:`parse_action` reads
  it in any case, with ``-`` or spaces between the squares.
* **Colours**: ``"white"`` (player 0, moves first) and ``"black"`` (player 1).
* **Positions**, the course's JSON: ``{"white": [[n, x, y], ...], "black":
  [[n, x, y], ...]}``. It has no side to move: White moves unless the
  optional key ``"turn": "black"`` (our extension) says otherwise.
  :func:`format_position` lists the stacks sorted by ``(y, x)`` and adds
  ``"turn": "black"`` only when Black is to move.
* **Short positions**, the position notation for people, in the squares'
  names: ``white a1 b1 3d4; black a7 h8; white to move``, each colour's
  stacks sorted by ``(y, x)``, a stack of more than one token written with
  its count (``3d4``) (:func:`format_short_position`).
  :func:`parse_any_position` reads it and the JSON form.

The referee's text and tuple forms are spoken only where the course's
protocol needs them (its referee's log, its agents, its puzzle's answer);
every input reads all three forms.

Positions are signed cells here, as in the engine: a list of 64 ints indexed
``y*8 + x``, ``+n`` for a White stack of ``n``, ``-n`` for Black's.
"""

from __future__ import annotations

import json
import numbers
import re
from typing import Any, Union

from boomboard.core.errors import IllegalActionError, InvalidPositionError, NotationError

from .rules import DIRECTIONS, MAX_DISTANCE, MAX_TOKENS, MOVES, NUM_ACTIONS, SIZE, SQUARES

Square = tuple[int, int]
Action = Union[tuple[str, Square], tuple[str, int, Square, Square]]  # a referee action

COLOURS = ("white", "black")
COLUMN_LETTERS = "abcdefgh"  # the columns x = 0..7, as the short form and the boards label them
TEXT_FORMS = "'MOVE n from (xa, ya) to (xb, yb).' or 'BOOM at (x, y).'"
TUPLE_FORMS = "(\"MOVE\", n, (xa, ya), (xb, yb)) or (\"BOOM\", (x, y))"
SHORT_POSITION_FORM = "'white a1 b1 3d4; black a7 h8; white to move' (3d4: a stack of 3 on d4)"
POSITION_FORM = '{"white": [[n, x, y], ...], "black": [[n, x, y], ...]}, optionally with "turn": "black"'

START_POSITION = json.dumps({
    "white": [[1, x, y] for y in (0, 1) for x in (0, 1, 3, 4, 6, 7)],
    "black": [[1, x, y] for y in (6, 7) for x in (0, 1, 3, 4, 6, 7)],
})

_INT = r"(-?\d{1,4})"
_PAIR = rf"\(\s*{_INT}\s*,\s*{_INT}\s*\)"
_QUOTE = r"""(['"])"""
# matched against the stripped text; no two \s* touch, so no input makes them backtrack long
_TEXT_MOVE = re.compile(rf"move\s+(\d{{1,4}})\s+from\s*{_PAIR}\s*to\s*{_PAIR}\s*\.?", re.I)
_TEXT_BOOM = re.compile(rf"boom\s+at\s*{_PAIR}\s*\.?", re.I)
_TUPLE_MOVE = re.compile(rf"\(\s*{_QUOTE}move\1\s*,\s*{_INT}\s*,\s*{_PAIR}\s*,\s*{_PAIR}\s*\)", re.I)
_TUPLE_BOOM = re.compile(rf"\(\s*{_QUOTE}boom\1\s*,\s*{_PAIR}\s*\)", re.I)
_NAME = r"([a-z])(\d{1,2})"
_SHORT_MOVE = re.compile(rf"(\d{{1,4}})\s+{_NAME}(?:\s*-\s*|\s+){_NAME}", re.I)
_SHORT_STACK = re.compile(r"(\d{1,3})?([a-z])(\d{1,2})", re.I)
_SHORT_BOOM = re.compile(rf"boom\s+{_NAME}", re.I)
SHORT_FORMS = "'1 b2 b3' (move 1 token from b2 to b3) or 'boom b2'"


def _shown(value: Any) -> str:
    """``value`` for an error message, cut short if long."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# -- squares and colours ------------------------------------------------------------

def square_index(square: Square) -> int:
    """The engine's index ``y*8 + x`` of an on-board square ``(x, y)``."""
    x, y = square
    return y * SIZE + x


def square_of(index: int) -> Square:
    """The square ``(x, y)`` of an engine index."""
    return index % SIZE, index // SIZE


def on_board(square: Square) -> bool:
    x, y = square
    return 0 <= x < SIZE and 0 <= y < SIZE


def square_name(square: Square) -> str:
    """The short name of ``(x, y)``: ``(1, 1)`` is ``b2``."""
    x, y = square
    return f"{COLUMN_LETTERS[x]}{y + 1}"


def _named(letter: str, digits: str) -> Square:
    square = (ord(letter.lower()) - ord("a"), int(digits) - 1)
    if not on_board(square):
        raise IllegalActionError(f"there is no square {letter.lower()}{digits}; columns run a..h and rows 1..8")
    return square


def colour_name(player: int) -> str:
    """``"white"`` for player 0, ``"black"`` for player 1."""
    return COLOURS[player]


def parse_colour(text: str) -> int:
    """The player (0 or 1) of ``"white"`` or ``"black"`` (any case)."""
    if isinstance(text, str) and text.strip().lower() in COLOURS:
        return COLOURS.index(text.strip().lower())
    raise NotationError(f"expected a colour, 'white' or 'black'; got {_shown(text)}")


# -- referee actions and action ids --------------------------------------------------

def _integer(value: Any, what: str) -> int:
    # any integer type (an agent may hand back NumPy integers), but not a bool
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise NotationError(f"{what} must be an integer; got {_shown(value)}")
    return int(value)


def _square(value: Any, what: str) -> Square:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise NotationError(f"{what} must be a square (x, y); got {_shown(value)}")
    square = (_integer(value[0], f"{what}'s x"), _integer(value[1], f"{what}'s y"))
    if not on_board(square):
        raise IllegalActionError(f"{what} {square} is off the board; x and y run 0..{SIZE - 1}")
    return square


def check_action(action: Any) -> Action:
    """A referee action as a tuple of ints, checked to name a move or boom that
    exists on the board (whether it is legal depends on the position).

    Lists are accepted in place of tuples. Raises :class:`NotationError` for
    anything not shaped like a referee action and :class:`IllegalActionError`
    for one no position allows (off the board, diagonal, too many tokens).
    """
    if not isinstance(action, (tuple, list)) or not action or not isinstance(action[0], str):
        raise NotationError(f"expected a referee action, {TUPLE_FORMS}; got {_shown(action)}")
    kind = action[0].upper()
    if kind == "BOOM" and len(action) == 2:
        return ("BOOM", _square(action[1], "the exploding square"))
    if kind != "MOVE" or len(action) != 4:
        raise NotationError(f"expected a referee action, {TUPLE_FORMS}; got {_shown(action)}")
    count = _integer(action[1], "the number of tokens moved")
    origin = _square(action[2], "the origin")
    target = _square(action[3], "the destination")
    if not 1 <= count <= MAX_TOKENS:
        raise IllegalActionError(f"a move carries 1 to {MAX_TOKENS} tokens (a colour has at most "
                                 f"{MAX_TOKENS}); got {count}")
    if origin == target or (origin[0] != target[0] and origin[1] != target[1]):
        raise IllegalActionError(f"a move goes 1 or more squares up, down, left or right; "
                                 f"{origin} to {target} does not")
    return ("MOVE", count, origin, target)


def encode_action(action: Any) -> int:
    """The action id of a referee action (see :func:`check_action` for errors).

    >>> encode_action(("BOOM", (3, 1)))
    11
    >>> encode_action(("MOVE", 2, (3, 1), (3, 3)))
    3773
    """
    action = check_action(action)
    if action[0] == "BOOM":
        return square_index(action[1])
    _, count, (xa, ya), (xb, yb) = action
    distance = abs(xb - xa) + abs(yb - ya)
    direction = DIRECTIONS.index(((xb - xa) // distance, (yb - ya) // distance))
    line = (square_index((xa, ya)) * len(DIRECTIONS) + direction) * MAX_DISTANCE + distance - 1
    return MOVES + line * MAX_TOKENS + count - 1


def decode_action(action: int) -> Action:
    """The referee action of an action id.

    Raises :class:`IllegalActionError` for an id outside ``0..21567`` or one
    whose move would leave the board (such ids exist but are never legal).
    """
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(f"action ids run 0..{NUM_ACTIONS - 1}; got {_shown(action)}")
    if action < MOVES:
        return ("BOOM", square_of(action))
    line, count = divmod(action - MOVES, MAX_TOKENS)
    line, step = divmod(line, MAX_DISTANCE)
    sq, direction = divmod(line, len(DIRECTIONS))
    (xa, ya), (dx, dy) = square_of(sq), DIRECTIONS[direction]
    target = (xa + (step + 1) * dx, ya + (step + 1) * dy)
    if not on_board(target):
        raise IllegalActionError(f"action {action} would move from {(xa, ya)} to {target}, off the board; "
                                 "it is never legal")
    return ("MOVE", count + 1, (xa, ya), target)


# -- text and printed tuple forms ---------------------------------------------------

def format_action(action: Any) -> str:
    """The text form: ``MOVE n from (xa, ya) to (xb, yb).`` or ``BOOM at (x, y).``"""
    action = check_action(action)
    if action[0] == "BOOM":
        (x, y) = action[1]
        return f"BOOM at ({x}, {y})."
    _, count, (xa, ya), (xb, yb) = action
    return f"MOVE {count} from ({xa}, {ya}) to ({xb}, {yb})."


def format_short(action: Any) -> str:
    """The short form: ``1 b2 b3`` or ``boom b2``."""
    action = check_action(action)
    if action[0] == "BOOM":
        return f"boom {square_name(action[1])}"
    _, count, origin, target = action
    return f"{count} {square_name(origin)} {square_name(target)}"


def format_tuple(action: Any) -> str:
    """The tuple form as Python prints it: ``('MOVE', 1, (0, 1), (0, 2))``."""
    return repr(check_action(action))


def parse_action(text: str) -> Action:
    """A referee action from its text form (any case, any spacing, final
    period optional), its printed tuple form (either quote) or its short form
    (``1 b2 b3``, ``boom b2``)."""
    if not isinstance(text, str):
        raise NotationError(f"expected an action as text, got {type(text).__name__}")
    numbers = None
    stripped = text.strip() if text.isascii() else ""  # not other scripts' digits
    for pattern, kind in ((_TEXT_MOVE, "MOVE"), (_TEXT_BOOM, "BOOM"), (_TUPLE_MOVE, "MOVE"), (_TUPLE_BOOM, "BOOM")):  # noqa: B007 (kind is read after the loop)
        match = pattern.fullmatch(stripped)
        if match:
            numbers = [int(group) for group in match.groups() if group not in ("'", '"')]
            break
    if numbers is None:
        if match := _SHORT_BOOM.fullmatch(stripped):
            return check_action(("BOOM", _named(*match.groups())))
        if match := _SHORT_MOVE.fullmatch(stripped):
            count, *names = match.groups()
            return check_action(("MOVE", int(count), _named(*names[:2]), _named(*names[2:])))
        raise NotationError(f"expected an action such as {SHORT_FORMS}, {TEXT_FORMS} or {TUPLE_FORMS}; "
                            f"got {_shown(text)}")
    if kind == "BOOM":
        return check_action(("BOOM", tuple(numbers)))
    return check_action(("MOVE", numbers[0], tuple(numbers[1:3]), tuple(numbers[3:5])))


# -- positions --------------------------------------------------------------------

def read_position(data: Any) -> tuple[list[int], int]:
    """Signed cells and the player to move from a decoded JSON position.

    Raises :class:`NotationError` for the wrong shape (not an object, missing
    or unknown keys, a stack that is not a list of three) and
    :class:`InvalidPositionError` for an impossible position: a count below 1
    or not an integer, a square off the board, two stacks on one square, more
    than 12 tokens of a colour.
    """
    if not isinstance(data, dict):
        raise NotationError(f"expected a position as a JSON object, {POSITION_FORM}; got {_shown(data)}")
    missing = [colour for colour in COLOURS if colour not in data]
    unknown = sorted(str(key) for key in data if key not in (*COLOURS, "turn"))
    if missing or unknown:
        problem = f"missing {', '.join(missing)}" if missing else f"unknown key(s) {', '.join(unknown)}"
        raise NotationError(f"expected a position as {POSITION_FORM}; {problem}")
    player = parse_colour(data["turn"]) if "turn" in data else 0
    cells = [0] * SQUARES
    owners: dict[Square, str] = {}
    for side, colour in enumerate(COLOURS):
        stacks = data[colour]
        if not isinstance(stacks, list):
            raise NotationError(f"{colour!r} must be a list of stacks [n, x, y]; got {_shown(stacks)}")
        total = 0
        for stack in stacks:
            if not isinstance(stack, list) or len(stack) != 3:
                raise NotationError(f"each {colour} stack must be a list [n, x, y]; got {_shown(stack)}")
            if any(isinstance(v, bool) or not isinstance(v, int) for v in stack):
                raise InvalidPositionError(f"a {colour} stack [n, x, y] holds integers only; got {_shown(stack)}")
            count, x, y = stack
            if count < 1:
                raise InvalidPositionError(f"the {colour} stack on {(x, y)} has {count} tokens; a stack "
                                           "holds at least 1")
            if not on_board((x, y)):
                raise InvalidPositionError(f"the {colour} stack on {(x, y)} is off the board; x and y run "
                                           f"0..{SIZE - 1}")
            if (x, y) in owners:
                mixed = "" if owners[(x, y)] == colour else f" ({owners[(x, y)]} and {colour}: stacks never mix)"
                raise InvalidPositionError(f"two stacks on {(x, y)}{mixed}; a square holds one stack")
            owners[(x, y)] = colour
            total += count
            cells[square_index((x, y))] = count if side == 0 else -count
        if total > MAX_TOKENS:
            raise InvalidPositionError(f"{colour} has {total} tokens; a colour has at most {MAX_TOKENS}")
    return cells, player


def parse_position(text: str) -> tuple[list[int], int]:
    """Signed cells and the player to move from the JSON text (see :func:`read_position`)."""
    if not isinstance(text, str):
        raise NotationError(f"expected a position as text, got {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise NotationError(f"expected a position as JSON, {POSITION_FORM}; got {_shown(text)}") from None
    return read_position(data)


def position_data(cells, player: int) -> dict[str, Any]:
    """The JSON object of a position: stacks sorted by ``(y, x)``; ``"turn"`` only for Black."""
    data: dict[str, Any] = {colour: [] for colour in COLOURS}
    for sq in range(SQUARES):
        height = int(cells[sq])
        if height:
            data["white" if height > 0 else "black"].append([abs(height), *square_of(sq)])
    if player == 1:
        data["turn"] = "black"
    return data


def format_position(cells, player: int) -> str:
    """The position as one line of JSON, spaced as ``json.dumps`` does by default."""
    return json.dumps(position_data(cells, player))


def format_short_position(cells, player: int) -> str:
    """The position in the squares' names: ``white a1 3d4; black a7; white to move``."""
    data = position_data(cells, player)
    sides = [" ".join([colour, *(("" if n == 1 else str(n)) + square_name((x, y)) for n, x, y in data[colour])])
             for colour in COLOURS]
    return f"{sides[0]}; {sides[1]}; {colour_name(player)} to move"


def parse_short_position(text: str) -> tuple[list[int], int]:
    """Signed cells and the player to move from the short form (checked as
    :func:`read_position` checks the JSON form)."""
    data: dict[str, Any] = {}
    for part in text.split(";"):
        words = part.lower().split()
        if len(words) == 3 and words[1:] == ["to", "move"] and "turn" not in data:
            data["turn"] = words[0]
        elif words and words[0] in COLOURS and words[0] not in data:
            data[words[0]] = [_short_stack(word, words[0]) for word in words[1:]]
        else:
            raise NotationError(f"expected a position as {SHORT_POSITION_FORM} or as JSON, {POSITION_FORM}; "
                                f"got {_shown(text)}")
    return read_position(data)


def _short_stack(word: str, colour: str) -> list[int]:
    """``[n, x, y]`` of a stack written ``d4`` or ``3d4``."""
    match = _SHORT_STACK.fullmatch(word)
    if not match:
        raise NotationError(f"expected a {colour} stack as a square (d4) or a count and a square (3d4); "
                            f"got {_shown(word)}")
    count, letter, digits = match.groups()
    x, y = ord(letter) - ord("a"), int(digits) - 1
    if not on_board((x, y)):
        raise InvalidPositionError(f"there is no square {word[len(count or ''):]}; columns run a..h and rows 1..8")
    return [int(count or 1), x, y]


def parse_any_position(text: str) -> tuple[list[int], int]:
    """Signed cells and the player to move from either position form: JSON
    (it starts with ``{``) or the short form."""
    if not isinstance(text, str):
        raise NotationError(f"expected a position as text, got {type(text).__name__}")
    return parse_position(text) if text.lstrip().startswith("{") else parse_short_position(text)
