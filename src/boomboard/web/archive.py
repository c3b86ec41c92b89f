"""Games to replay and tournaments to show: the web app's own finished games
and the arena's records.

The arena (``boomboard.arena``) is optional; when it is installed its store
(``boomboard.arena.store.Store``) is read through its public interface
(``games``, ``game``, ``tournaments``, ``standings``), and any object with
that interface works. Its records are turned into JSON-ready dicts here:
times as seconds since 1970 (as the web app's own games), an infinite Elo or
interval (an agent that won or lost every game) as ``null``.
"""

from __future__ import annotations

import math
import secrets
from collections import OrderedDict
import tempfile
import threading
from dataclasses import asdict, is_dataclass
from functools import lru_cache
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..arena import chart as arena_chart
from ..agents import HUMAN
from ..arena import store as arena_store
from ..core.errors import BoomboardError, ParameterError
from ..core.outcome import Outcome, Reason
from ..records import UNKNOWN, GameRecord, read_record, result_token, write_record
from .analysis import rebuild
from .cascade import cascade_steps
from .service import AgentLimits, NotFound, check_side, describe_state
from .store import GameStore, StoredGame


# matplotlib's pyplot keeps global state: one chart is drawn at a time
_CHART_LOCK = threading.Lock()
# Finished web games whose result in words is kept (LRU), so that a list does not replay them again.
RESULTS_KEPT = 10_000


def open_arena_store(path: str | Path | None = None, *, required: bool = False):
    """The arena's record store at ``path`` (default: the arena's own file,
    ``arena.sqlite3`` in the user's data directory, created if new), or
    ``None`` when the file cannot be used: the web app then serves its own
    games only. ``required``: raise :class:`ParameterError` with the reason
    instead (a file the user named)."""
    try:
        return arena_store.open_store(path)
    except (OSError, BoomboardError, ValueError) as problem:
        if required:
            message = str(problem) if isinstance(problem, BoomboardError) else f"cannot use {path}: {problem}"
            raise ParameterError(message) from None
        return None


def _plain(record: Any) -> dict:
    """A record (dataclass, named tuple or plain object) as a dict."""
    if is_dataclass(record):
        return asdict(record)
    if hasattr(record, "_asdict"):
        return dict(record._asdict())
    return dict(vars(record))


def _json_number(value: Any) -> Any:
    """JSON has no infinity: an unbounded figure is ``None`` (``null``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _seconds(moment: Any) -> float | None:
    """A stored time (seconds, or ISO 8601 text as the arena writes it) as seconds since 1970."""
    if moment is None or isinstance(moment, (int, float)):
        return moment
    try:
        return datetime.fromisoformat(str(moment)).timestamp()
    except ValueError:
        return None


class Archive:
    """Lists and replays stored games from both sources, ``web`` and ``arena``."""

    def __init__(self, games: GameStore, arena=None):
        self.games = games
        self.arena = arena
        self._results: OrderedDict[tuple, str] = OrderedDict()  # a version of a game -> its result in words
        self._results_lock = threading.Lock()  # lists are made in several threads

    def list(self, source: str, limit: int = 50, offset: int = 0, tournament: Any = None, *,
             game: str | None = None, status: str | None = None, owner: str | None = None) -> list[dict]:
        """Stored games, newest first; web games only of ``game`` (any variant) and of a
        ``status`` (:data:`boomboard.web.store.STATUSES`) where given, each with
        whether the client whose owner token hashes to ``owner`` may change it (``owned``)."""
        if source == "web":
            return [{"id": r.id, "game": r.game, "players": r.players, "plies": len(r.actions),
                     "finished": r.finished, "updated": r.updated, "result": self._web_result(r),
                     "owned": r.owner in (None, owner)}
                    for r in self.games.recent(limit, offset, game=game, status=status)]
        arena = self._arena()
        out = []
        tournament = None if tournament is None else _arena_id(tournament)
        for record in arena.games(limit=limit, offset=offset, tournament_id=tournament):
            plain = _plain(record)
            status = plain.get("status", "done")
            out.append({"id": plain["id"], "game": plain["game"], "players": list(plain["players"]),
                        "plies": len(plain["actions"]), "winner": plain.get("winner"),
                        "reason": plain.get("reason", ""), "tournament_id": plain.get("tournament_id"),
                        "started": _seconds(plain.get("started")), "status": status,
                        # an aborted game is over too: only one still being played is not
                        "finished": status != "playing"})
        return out

    def _web_result(self, record: StoredGame) -> str:
        """:func:`web_result`, replayed once per version of a game (a stored
        game changes only with its version, its moves and its end) for the
        :data:`RESULTS_KEPT` games last listed."""
        key = (record.id, record.version, len(record.actions), record.resigned, record.finished)
        with self._results_lock:
            if key in self._results:
                self._results.move_to_end(key)
                return self._results[key]
        result = web_result(record)
        with self._results_lock:
            self._results[key] = result
            while len(self._results) > RESULTS_KEPT:
                self._results.popitem(last=False)
        return result

    def record(self, source: str, game_id: str) -> GameRecord:
        """A stored game as a game record (:mod:`boomboard.records`)."""
        if source == "web":
            stored = self.games.load(game_id)
            if stored is None:
                raise NotFound(f"no web game with id {game_id!r}")
            return web_record(stored)
        try:
            plain = _plain(self._arena().game(_arena_id(game_id)))
        except (LookupError, BoomboardError):
            raise NotFound(f"no arena game with id {game_id!r}") from None
        return arena_record(plain)

    def record_text(self, source: str, game_id: str) -> str:
        return write_record(self.record(source, game_id))

    def replay(self, source: str, game_id: str, ply: int | None = None) -> dict:
        """The position after ``ply`` actions of a stored game (default: the end),
        with the cascade of the action that led to it."""
        if source == "web":
            record = self.games.load(game_id)
            if record is None:
                raise NotFound(f"no web game with id {game_id!r}")
            game, position, actions, players = record.game, record.position, record.actions, record.players
            resigned, winner, reason = record.resigned, None, ""
            unfinished = None
        else:
            arena = self._arena()
            try:
                plain = _plain(arena.game(_arena_id(game_id)))
            except (LookupError, BoomboardError):
                raise NotFound(f"no arena game with id {game_id!r}") from None
            game, position, actions = plain["game"], plain.get("position"), list(plain["actions"])
            players, resigned = list(plain["players"]), None
            winner, reason = plain.get("winner"), plain.get("reason", "")
            unfinished = _unfinished(plain.get("status", "done"), reason)
            if unfinished is not None:  # no result to show: the game was cut short, or is still on
                winner, reason = None, ""
        extra = {"id": game_id, "source": source}
        return _replay_at(game, position, actions, players, ply, (resigned, winner, reason, unfinished), extra)

    def tournaments(self) -> list[dict]:
        return [_plain(t) for t in self._arena().tournaments()]

    def standings(self, tournament_id: Any) -> list[dict]:
        arena = self._arena()
        try:  # the store's own look-up: reading every tournament to find one took 0.2 s for 500 of them
            standings = arena.standings(_arena_id(tournament_id))
        except (LookupError, BoomboardError):
            raise NotFound(f"no tournament with id {tournament_id!r}") from None
        return [{key: _json_number(value) for key, value in _plain(s).items()} for s in standings]

    def rating_chart(self, tournament_id: Any) -> bytes:
        """The arena's own rating chart of a tournament, as PNG bytes."""
        self.standings(tournament_id)  # an unknown tournament is a 404
        standings = self._arena().standings(_arena_id(tournament_id))
        with tempfile.TemporaryDirectory() as folder, _CHART_LOCK:
            path = Path(folder) / "chart.png"
            arena_chart.rating_chart(standings, path)
            return path.read_bytes()

    def _arena(self):
        if self.arena is None:
            raise NotFound("no arena records: the arena's store could not be opened")
        return self.arena


def _replay_at(game: str, position: str | None, actions: list[int], players: list[str], ply: int | None,
               ending: tuple, extra: dict) -> dict:
    """The position after ``ply`` of ``actions`` (default: all), described as
    the page shows a replay, with the cascade of the action that led to it.
    ``ending``: how the game ended where its rules did not end it, as
    ``(resigned, winner, reason, unfinished)``: who resigned, who won and
    why (a forfeit, time), or what to say of a game without a result."""
    resigned, winner, reason, unfinished = ending
    ply = len(actions) if ply is None else ply
    if not 0 <= ply <= len(actions):
        raise NotFound(f"ply must be 0..{len(actions)} for this game, got {ply}")
    at_end = ply == len(actions)
    state = rebuild(game, position, actions[:ply])
    steps = []
    if ply:
        before = rebuild(game, position, actions[:ply - 1])
        steps = cascade_steps(state.game, before.array, actions[ply - 1])
    outcome = state.outcome()
    if at_end and outcome is None:
        outcome = _recorded_outcome(state, resigned, winner, reason)
    full = rebuild(game, position, actions)
    extra = {**extra, "thinking": False, "length": len(actions), "all_actions": list(actions)}
    if at_end and outcome is None and unfinished is not None:
        extra.update(caption=unfinished, to_move=None, legal=[])
    described = describe_state(state, players, outcome, steps, extra=extra)
    described["moves"] = [{"ply": i, "player": None, "text": t} for i, t in enumerate(full.history_strings())]
    return described


def replay_record(text: str, ply: int | None = None) -> dict:
    """A game record's position after ``ply`` moves (default: the end), as
    :meth:`Archive.replay` describes a stored game's; with the record
    rewritten (``record``: its moves in the game's notation as written now)."""
    record = read_record(text)
    unfinished = None
    if not record.finished:
        unfinished = "Not finished: " + (record.termination or "the record has no result")
    ending = (None, record.winner, record.termination or ("a tie" if record.finished else ""), unfinished)
    extra = {"id": None, "source": "record", "record": write_record(record)}
    return _replay_at(record.game, record.position, record.actions, record.players, ply, ending, extra)


def web_record(stored: StoredGame) -> GameRecord:
    """A web game as a record: its result is the rules' or a resignation's."""
    state = rebuild(stored.game, stored.position, stored.actions)
    outcome = state.outcome()
    if outcome is None and stored.resigned is not None:
        outcome = _recorded_outcome(state, stored.resigned, None, "")
    result = result_token(outcome.winner, True) if outcome is not None else result_token(None, False)
    return GameRecord(stored.game, list(stored.players), list(stored.actions), stored.position, result,
                      outcome.describe(state.game.player_names) if outcome is not None else "",
                      "boomboard web game", datetime.fromtimestamp(stored.created, UTC) if stored.created else None)


def arena_record(game: Any) -> GameRecord:
    """An arena game (as its store gives it, or as a dict) as a record: one cut
    short (or still on) has no result, and says why."""
    plain = game if isinstance(game, dict) else _plain(game)
    status, reason = plain.get("status", "done"), plain.get("reason", "")
    result = result_token(plain.get("winner"), status == "done")
    tournament = plain.get("tournament_id")
    event = f"boomboard arena, tournament {tournament}" if tournament is not None else "boomboard arena"
    seconds = _seconds(plain.get("started"))
    return GameRecord(plain["game"], list(plain["players"]), list(plain["actions"]), plain.get("position"), result,
                      _unfinished(status, reason) or reason, event,
                      None if seconds is None else datetime.fromtimestamp(seconds, UTC))


def stored_game(record: GameRecord, limits: AgentLimits | None = None) -> tuple[StoredGame, list[str]]:
    """A record as a new web game (a fresh id), and what was changed to store
    it, one line a side. One whose result its rules did not reach is stored
    as the loser's resignation. A game not over is played on where it
    stopped, and an undo plays on any game: so a side the web app cannot play
    (``?``, an unknown agent, a setting past ``limits``, by default those of
    ``boomboard serve``) becomes ``human``."""
    state = record.final_state()
    resigned = None
    if state.outcome() is None and record.winner is not None:
        resigned = 1 - record.winner
    players, changes = [], []
    for name, side in zip(state.game.player_names, record.players):
        playable, problem = _playable(side, record.game, record.position, limits or AgentLimits())
        players.append(playable)
        if problem and side != UNKNOWN:
            changes.append(f"{name.capitalize()} {side!r:.80} is stored as human: {problem}")
    return StoredGame(secrets.token_hex(6), record.game, players, list(record.actions), record.position,
                      resigned, finished=record.finished,
                      created=record.played.timestamp() if record.played is not None else 0.0), changes


@lru_cache(maxsize=1024)  # a file of one tournament's records names few sides, each built once here
def _playable(side: str, game: str, position: str | None, limits: AgentLimits) -> tuple[str, str]:
    """The side as the web app plays it, and why it is ``human`` instead ("": it is not)."""
    try:
        return check_side(side, game, position, limits=limits), ""
    except BoomboardError as problem:
        return HUMAN, str(problem)


def _arena_id(text: Any) -> Any:
    """Arena ids are integers in its store; web ids are text. An integer too
    large for the store (SQLite's 64 bits) names no record: a 404."""
    if isinstance(text, str) and not (text.isascii() and text.strip().lstrip("+-").isdigit()):
        return text
    try:
        number = int(text)
    except (TypeError, ValueError):
        return text
    if not -(2**63) <= number < 2**63:
        raise NotFound(f"no arena record with id {text!r:.40}")
    return number


def web_result(record) -> str:
    """A finished web game's result in words ("X wins: connected 4 in a row",
    "Red wins: Blue resigned"); "" for a game still on."""
    if not record.finished:
        return ""
    try:
        state = rebuild(record.game, record.position, record.actions)
    except BoomboardError:
        return "finished"
    names = state.game.player_names
    if record.resigned is not None:
        loser = record.resigned
        return Outcome(1 - loser, Reason.RESIGNATION, f"{names[loser].capitalize()} resigned").describe(names)
    outcome = state.outcome()
    return outcome.describe(names) if outcome is not None else "finished"


def _unfinished(status: str, reason: str) -> str | None:
    """What to say at the end of an arena game that has no result (``None``: it has one)."""
    if status == "done":
        return None
    if status == "playing":
        return "Still being played in the arena"
    return f"Not finished: {reason or 'the game was ' + status}"


def _recorded_outcome(state, resigned, winner, reason) -> Outcome | None:
    """How a stored game ended when its rules did not end it (resignation, forfeit, time)."""
    if resigned is not None:
        return Outcome(1 - resigned, Reason.RESIGNATION,
                       f"{state.game.player_names[resigned].capitalize()} resigned")
    if winner is None and not reason:
        return None
    kind = Reason.FORFEIT if winner is not None else Reason.NONE
    return Outcome(winner, kind, reason or "")
