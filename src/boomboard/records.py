"""Game records: one game as text, in a format modelled on chess's PGN.

A record is a block of tag pairs, ``[Name "value"]`` one a line, then the
moves, one a line, numbered as a game record is read (``1.`` the first
player's first move, ``1...`` the second player's), each in the game's own
notation, then the result on a line of its own::

    [Event "boomboard web game"]
    [Date "2026.11.27"]
    [Time "12:05:07"]
    [Game "kaboom"]
    [Parameters "rows=4,cols=4,connect=4,bombs=1,misere=false,superbomb=false"]
    [X "human"]
    [O "ai:time=0.5"]
    [Result "1-0"]
    [Termination "X wins: connected 4 in a row"]

    1. B
    1... C
    ...
    1-0

A file may hold many records, one after another. One move a line (not
PGN's ``1. e4 e5``) because some games' moves are several words. The game,
its parameters and the first position (tag ``Position``, present only
when the game did not start from the game's start) say which game it is;
the players' tags are named after the game's own players. Everything here
works through the registry and each game's notation, so no game is named
here. The format's reference is in docs/reference/records.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np

from .core.errors import BoomboardError
from .core.params import format_value, parse_game_string, resolve
from .core.state import State
from .registry import load_game

# Bounds on what a parser reads, so that a hostile file or link is refused
# before it costs much: the text of one file, the records in it, the text of
# one record (a web request's body holds one), a record's tags and a tag's value.
MAX_FILE_CHARS = 64_000_000
MAX_RECORDS = 100_000
MAX_RECORD_CHARS = 60_000
MAX_TAGS = 64
MAX_TAG_CHARS = 4_000

UNFINISHED = "*"
TIE = "1/2-1/2"
RESULTS = ("1-0", "0-1", TIE, UNFINISHED)  # the first player won, the second won, a tie, not over
UNKNOWN = "?"  # PGN's value for a tag nobody knows
_UNKNOWN_DATE = "????.??.??"

# The tags this module writes and reads itself; a player's tag is the game's
# name for that player, capitalised ("White", "X", "Red").
_OWN_TAGS = ("Event", "Date", "Time", "Game", "Parameters", "Position", "Result", "Termination")

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_MOVE = re.compile(r"(\d{1,6})(\.\.\.|\.)\s*")
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "r": "\r"}
BOM = "\ufeff"  # the byte order mark some editors write at the start of a UTF-8 file


class RecordError(BoomboardError, ValueError):
    """A record that cannot be read: where (line and column) and why."""


@dataclass
class GameRecord:
    """One game: its game string, its sides (agent specs, ``human`` or ``?``),
    its first position (``None``: the game's start), the action ids played
    and its result (one of :data:`RESULTS`), with the reason in words."""

    game: str
    players: list[str]
    actions: list[int] = field(default_factory=list)
    position: str | None = None
    result: str = UNFINISHED
    termination: str = ""
    event: str = ""
    played: datetime | None = None
    tags: dict[str, str] = field(default_factory=dict)  # any other tags, kept as they were read

    @property
    def winner(self) -> int | None:
        """0 or 1 for a decisive result, ``None`` for a tie or a game not over."""
        return {"1-0": 0, "0-1": 1}.get(self.result)

    @property
    def finished(self) -> bool:
        return self.result != UNFINISHED

    def final_state(self) -> State:
        """The position after every action (checks each one is legal)."""
        state = _first_state(self.game, self.position)
        for action in self.actions:
            state.apply_action(action)
        return state


def result_token(winner: int | None, finished: bool) -> str:
    """PGN's result for a winner (0 or 1; ``None``: a tie) of a finished game, else ``*``."""
    if not finished:
        return UNFINISHED
    return TIE if winner is None else ("1-0", "0-1")[winner]


def record_of_state(state: State, players: list[str], *, result: str | None = None, termination: str = "",
                    event: str = "", played: datetime | None = None) -> GameRecord:
    """The record of a game played to ``state``; its result is the rules'
    outcome when they ended the game, else ``result`` (default ``*``)."""
    game = state.game
    first = state.first_state()
    position = None if np.array_equal(first.array, game.initial_array()) else first.to_notation()
    outcome = state.outcome()
    if outcome is not None:
        result = result_token(outcome.winner, True)
        termination = termination or outcome.describe(game.player_names)
    return GameRecord(str(game), list(players), state.history(), position, result or UNFINISHED, termination,
                      event, played)


# ---- writing ------------------------------------------------------------------------------

def write_record(record: GameRecord) -> str:
    """The record's text, ending with a newline (records of a file are
    separated by an empty line: :func:`write_records`)."""
    game = load_game(record.game)
    state = _first_state(record.game, record.position)
    lines = [_tag("Event", record.event or UNKNOWN)]
    played = record.played
    lines.append(_tag("Date", played.astimezone(UTC).strftime("%Y.%m.%d") if played else _UNKNOWN_DATE))
    if played is not None:
        lines.append(_tag("Time", played.astimezone(UTC).strftime("%H:%M:%S")))
    lines.append(_tag("Game", game.name))
    values = game.get_parameters()
    if game.parameters:
        lines.append(_tag("Parameters", ",".join(f"{p.name}={format_value(values[p.name])}" for p in game.parameters)))
    if record.position is not None:
        lines.append(_tag("Position", record.position))
    for name, side in zip(game.player_names, record.players):
        lines.append(_tag(name.capitalize(), side))
    lines.append(_tag("Result", record.result))
    if record.termination:
        lines.append(_tag("Termination", record.termination))
    lines += [_tag(name, value) for name, value in record.tags.items()]
    lines.append("")
    offset = _numbering_offset(state)
    for ply, action in enumerate(record.actions):
        lines.append(f"{_move_number(ply + offset)} {state.action_to_string(action)}")
        state.apply_action(action)
    lines.append(record.result)
    return "\n".join(lines) + "\n"


def write_records(records) -> str:
    """Several records as one file's text."""
    return "\n".join(write_record(record) for record in records)


def _tag(name: str, value: str) -> str:
    escaped = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'[{name} "{escaped}"]'


def _numbering_offset(first: State) -> int:
    """1 where the second player moves first (a record from a set-up position):
    its first move is then ``1...``, as PGN numbers Black's first move."""
    return 1 if first.current_player() == 1 else 0


def _move_number(ply: int) -> str:
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"


# ---- reading ------------------------------------------------------------------------------

def read_record(text: str) -> GameRecord:
    """The one record in ``text`` (a web request's, a link's); :class:`RecordError` if
    there is none, more than one, or it is not a valid game."""
    if not isinstance(text, str):
        raise RecordError(f"a game record is text, got {type(text).__name__}")
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"a game record may be at most {MAX_RECORD_CHARS:,} characters (MAX_RECORD_CHARS); "
                          f"got {len(text):,}")
    records = read_records(text)
    if len(records) != 1:
        raise RecordError(f"expected one game record, found {len(records)}")
    return records[0]


def read_records(text: str) -> list[GameRecord]:
    """Every record of a file's text, in order; the first problem found is a
    :class:`RecordError` naming its line and column."""
    if len(text) > MAX_FILE_CHARS:
        raise RecordError(f"a file of game records may be at most {MAX_FILE_CHARS:,} characters "
                          f"(MAX_FILE_CHARS); got {len(text):,}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as problem:  # a lone surrogate, from JSON's "\ud800": no file could hold it
        line = text.count("\n", 0, problem.start)
        raise _error(line, problem.start - (text.rfind("\n", 0, problem.start) + 1),
                     "a game record is Unicode text; this character is half of a UTF-16 pair") from None
    text = text.removeprefix(BOM)
    records: list[GameRecord] = []
    # split at line feeds only (a CR before one is dropped): a tag's value may hold any other character
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    number = 0
    while number < len(lines):
        if _skipped(lines[number]):
            number += 1
            continue
        if len(records) == MAX_RECORDS:
            raise RecordError(f"line {number + 1}: a file may hold at most {MAX_RECORDS:,} game records (MAX_RECORDS)")
        record, number = _read_one(lines, number)
        records.append(record)
    return records


def _skipped(line: str) -> bool:
    """Empty lines and comment lines (``;`` first, as in PGN) separate and annotate records."""
    stripped = line.strip()
    return not stripped or stripped.startswith(";")


def _error(line: int, column: int, message: str) -> RecordError:
    return RecordError(f"line {line + 1}, column {column + 1}: {message}")


def _read_one(lines: list[str], start: int) -> tuple[GameRecord, int]:
    """The record that starts at line ``start``, and the line after it."""
    tags: dict[str, tuple[str, int, int]] = {}  # name -> (value, line, the value's column)
    number = start
    while number < len(lines) and (lines[number].lstrip().startswith("[") or _skipped(lines[number])):
        line = lines[number]
        if not _skipped(line):
            name, value, column = _parse_tag(line, number)
            if name in tags:
                raise _error(number, 1, f"tag {name!r} given twice (first on line {tags[name][1] + 1})")
            if len(tags) == MAX_TAGS:
                raise _error(number, 0, f"a record may have at most {MAX_TAGS} tags (MAX_TAGS)")
            tags[name] = (value, number, column)
        number += 1
    if not tags:
        raise _error(start, 0, f"expected a tag such as [Game \"NAME\"] to start a record, got {lines[start].strip()!r:.60}")
    state, record = _game_from_tags(tags, start)
    moves_from = number
    offset = _numbering_offset(state)
    while number < len(lines):
        line = lines[number]
        stripped = line.strip()
        column = len(line) - len(line.lstrip())
        if _skipped(line):
            number += 1
            continue
        if stripped in RESULTS:
            _finish(record, state, stripped, tags, number, column)
            return record, number + 1
        if stripped.startswith("["):
            break
        _read_move(state, line, number, column, len(record.actions) + offset)
        record.actions.append(state.history()[-1])
        number += 1
    raise _error(min(number, len(lines) - 1), 0, f"the record that starts on line {start + 1} has no result line "
                 f"({', '.join(RESULTS)}) after its moves (from line {moves_from + 1})")


def _parse_tag(line: str, number: int) -> tuple[str, str, int]:
    """A tag line's name, its value (unescaped) and the column where the value starts."""
    column = len(line) - len(line.lstrip())
    match = _TAG.match(line, column)
    if match is None:
        raise _error(number, column, f'expected a tag pair [Name "value"], got {line.strip()!r:.60}')
    raw = match.group(2)
    if len(raw) > MAX_TAG_CHARS:
        raise _error(number, match.start(2), f"a tag's value may be at most {MAX_TAG_CHARS:,} characters "
                     f"(MAX_TAG_CHARS); got {len(raw):,}")
    value, index = [], 0
    while index < len(raw):
        char = raw[index]
        if char == "\\":
            escaped = raw[index + 1]
            if escaped not in _ESCAPES:
                raise _error(number, match.start(2) + index, f"unknown escape \\{escaped} in a tag's value "
                             f"(known: \\\" \\\\ \\n \\r)")
            value.append(_ESCAPES[escaped])
            index += 2
        else:
            value.append(char)
            index += 1
    return match.group(1), "".join(value), match.start(2)


def _value_column(tags: dict, name: str) -> tuple[int, int]:
    """Where a tag's value starts: its line and column."""
    return tags[name][1], tags[name][2]


def _game_from_tags(tags: dict, start: int) -> tuple[State, GameRecord]:
    if "Game" not in tags:
        raise _error(start, 0, 'the record has no [Game "NAME"] tag (which game it is)')
    name = tags["Game"][0]
    try:
        game = load_game(name)
    except BoomboardError as problem:
        raise _error(*_value_column(tags, "Game"), str(problem)) from None
    if "Parameters" in tags:
        game = _with_parameters(game, tags)
    position = tags.get("Position", (None,))[0]
    try:
        state = game.new_initial_state() if position is None else game.state_from_notation(position)
    except BoomboardError as problem:
        raise _error(*_value_column(tags, "Position"), f"bad first position: {problem}") from None
    players = [tags.get(player.capitalize(), (UNKNOWN,))[0] for player in game.player_names]
    own = set(_OWN_TAGS) | {player.capitalize() for player in game.player_names}
    record = GameRecord(str(game), players, [], position, UNFINISHED, tags.get("Termination", ("",))[0],
                        "" if tags.get("Event", (UNKNOWN,))[0] == UNKNOWN else tags["Event"][0],
                        _played(tags), {key: value for key, (value, *_) in tags.items() if key not in own})
    return state, record


def _with_parameters(game, tags: dict):
    """The game of the Game tag with the Parameters tag's values; a parameter
    given twice, or given a value other than the Game tag's, is an error."""
    text = tags["Parameters"][0]
    where = _value_column(tags, "Parameters")
    given: dict[str, str] = {}
    for item in filter(str.strip, text.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise _error(*where, f"bad parameter {item.strip()!r:.60}; expected key=value")
        if key.strip() in given:
            raise _error(*where, f"parameter {key.strip()!r:.40} is given twice in the Parameters tag")
        given[key.strip()] = value.strip()
    named = parse_game_string(tags["Game"][0])[1]  # the parameters the Game tag gives itself
    try:
        values = resolve(game.parameters, {**game.get_parameters(), **given})
    except BoomboardError as problem:
        raise _error(*where, f"{problem} (for {game.name})") from None
    for key in sorted(given.keys() & named.keys()):
        if values[key] != game.get_parameters()[key]:
            raise _error(*where, f"the Parameters tag's {key}={given[key]:.40} contradicts the Game tag "
                         f"{tags['Game'][0]!r:.80}: give each parameter once")
    return load_game(game.name, **values)


def _played(tags: dict) -> datetime | None:
    """When the game was played, from its Date and Time tags (UTC); ``None`` where unknown."""
    date = tags.get("Date", (_UNKNOWN_DATE,))[0]
    time_of_day = tags.get("Time", ("00:00:00",))[0]
    if "?" in date:
        return None
    try:
        return datetime.strptime(f"{date} {time_of_day}", "%Y.%m.%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        raise _error(*_value_column(tags, "Date" if "Time" not in tags else "Time"),
                     f"expected Date YYYY.MM.DD and Time HH:MM:SS (UTC), got {date!r:.20} {time_of_day!r:.20}") from None


def _read_move(state: State, line: str, number: int, column: int, ply: int) -> None:
    """Play the move written on ``line`` (``N. MOVE`` or ``N... MOVE``), numbered as ``ply``."""
    expected = _move_number(ply)
    match = _MOVE.match(line, column)
    if match is None or match.group(1) + match.group(2) != expected:
        got = line.strip()
        raise _error(number, column, f"expected move {expected} (a move number, then the move), got {got!r:.60}")
    text = line[match.end():].rstrip()
    if not text:
        raise _error(number, match.end(), f"move {expected} has no move after its number")
    if state.is_terminal():
        raise _error(number, match.end(), f"the game is over after {len(state.history())} moves "
                     f"({state.outcome().describe(state.game.player_names)}), but move {expected} follows")
    try:
        state.play(text)
    except BoomboardError as problem:
        mover = state.game.player_names[state.current_player()]
        raise _error(number, match.end(), f"move {expected} {text!r:.60} ({mover}): {problem}") from None


def _finish(record: GameRecord, state: State, result: str, tags: dict, number: int, column: int) -> None:
    """Check the result line against the Result tag and the rules, and keep it."""
    if "Result" in tags and tags["Result"][0] != result:
        raise _error(number, column, f"the result line {result!r} differs from the Result tag "
                     f"{tags['Result'][0]!r} (line {tags['Result'][1] + 1})")
    outcome = state.outcome()
    if outcome is not None and result != result_token(outcome.winner, True):
        raise _error(number, column, f"the result {result} contradicts the rules: "
                     f"{outcome.describe(state.game.player_names)} ({result_token(outcome.winner, True)})")
    if outcome is None and result == TIE:  # a decisive result there is a resignation; a tie has no such reading
        raise _error(number, column, f"the result {TIE} is a tie the rules did not reach: the game is not over "
                     f"after {len(state.history())} moves (a game not finished ends with *, one resigned with "
                     f"the winner's 1-0 or 0-1)")
    record.result = result


def _first_state(game_string: str, position: str | None) -> State:
    game = load_game(game_string)
    return game.new_initial_state() if position is None else game.state_from_notation(position)
