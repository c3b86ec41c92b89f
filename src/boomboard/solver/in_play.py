"""Playing from a solved table against an opponent that errs.

A solved table says what every move is worth against perfect play, but
among the moves that keep a tie (or a draw) perfect play is indifferent,
and against a real opponent it is not: some of those moves leave the
opponent many replies that lose, others none. The same holds among losing
moves: some leave the opponent one obvious way to win, others only deep
ones. :class:`TableChooser` plays a position from a table as a strong
engine plays a tablebase position against a fallible opponent:

* **a win**: the fastest (as the ``solver`` agent plays it);
* **a tie or a draw**: a move that keeps it, the one with the best chance
  that the opponent goes wrong within the next few moves of ours (as many
  as the move's time budget lets it look at, one more at a time; without
  a budget, :data:`LOOKAHEAD`);
* **a loss**: the move after which the opponent is likeliest to let its win
  go, the slowest loss among equals.

**The opponent model.** The opponent plays each of its replies with a
chance in proportion to a weight: 1 for a reply that keeps its value, and
for a mistake a weight by how it goes wrong (:data:`LOSING_REPLY_WEIGHTS`
in a tie, by how many plies the loss is away; :data:`TYING_REPLY_WEIGHT`
and :data:`BLUNDER_WEIGHT` in a win). A reply that loses within
:data:`VISIBLE_PLIES` plies is never played, and a win that near is never
let go: a search sees that far. The weights were fitted by maximum
likelihood to the moves of OpenSpiel's MCTS at 0.1 s a move in Kaboom 4x4
(4,190 moves in tied positions, 327 in won ones; ``benchmarks/opponent_model.py``
fits them again from the games in ``benchmarks/results/``). The chance of a
swindle within the lookahead is an expectimax over that model, with our
moves always keeping the value.

Lookups are memoized within a move: Kaboom's drops commute, so lines meet.
"""

from __future__ import annotations

import math
import os
import random
from time import process_time as _cpu_time

from ..core.game import Game
from ..core.layout import PLY
from ..core.state import State
from ..search.interruptible import searches_stopped
from .analysis import analyze_with
from .table import Entry, NotSolvedError, Table, open_table

# Replies whose loss follows within this many plies are taken as seen by the opponent.
VISIBLE_PLIES = 7
# In a tie: the weight of a reply that loses in up to r plies (after the reply), for the first
# r that holds, against 1 for a reply that keeps the tie. Losses beyond a search's reach are
# played about as often as the moves that keep the tie; nearer ones a third as often.
LOSING_REPLY_WEIGHTS = ((VISIBLE_PLIES, 0.0), (21, 0.37), (math.inf, 1.8))
# In a win with no win within VISIBLE_PLIES: the weight of a reply that ties, and of one that
# loses, against 1 for a reply that keeps the win.
TYING_REPLY_WEIGHT = 0.41
BLUNDER_WEIGHT = 0.11
# Without a time budget: how many of our moves ahead the swindle chance looks (each with the
# opponent's reply), where the lines to look at stay within LOOKUP_BUDGET (else one move ahead).
LOOKAHEAD = 2
LOOKUP_BUDGET = 4096
# With a time budget, it looks a move further at a time while the budget lasts, up to this far.
MOST_LOOKAHEAD = 12


class _OutOfTime(Exception):
    """The move's budget ran out in the middle of a lookahead."""


class TableInPlay:
    """A solved table lent to a player: the positions it holds are played from it."""

    def __init__(self, table: Table, label: str):
        self.table = table
        self.game = table.game
        self.chooser = TableChooser(table, label)

    def covers(self, state: State) -> bool:
        """Whether ``state`` is an ongoing position of the table."""
        return not state.is_terminal() and self.table.covers(state)

    def choose(self, state: State, rng, seconds: float | None = None) -> tuple[int, str] | None:
        """The move to play in ``state`` from the table, and a line saying
        why; ``None`` when the table does not hold ``state`` or its result
        might not come before the game's action limit (the search decides:
        the table knows nothing of the game's history). ``seconds``: the CPU
        time its lookahead may take (:meth:`TableChooser.choose`)."""
        if not self.covers(state):
            return None
        entry = self.table.lookup(state)
        limit = self.game.action_limit
        if limit and entry.value != "draw" and int(state.array[PLY]) + entry.remoteness > limit:
            return None
        return self.chooser.choose(state, rng, seconds)


def warm_up(table: Table) -> None:
    """Compile (or load) everything playing from ``table`` needs: its
    lookup, the analysis of a position's moves (the game's rules on a
    :class:`State`) and a finished game's result, so that none of it
    compiles on a move's clock."""
    state = table.state_at(0)
    if not state.is_terminal():
        analyze_with(table, state)
    rng = random.Random(0)  # not the player's: its games stay as its seed makes them
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    table.lookup(state)


def solved_game(game: Game, db: str | os.PathLike | None = None) -> TableInPlay | None:
    """The whole game's solved table (``boomboard solve GAME``, its ``start``
    table) lent to a player, or ``None`` when ``game`` is not solved in
    ``db`` (or its table cannot be read: a player plays on without it)."""
    try:
        table = open_table(game, db, "start")
    except NotSolvedError:
        return None
    return None if table is None else TableInPlay(table, "solved")


class TableChooser:
    """Chooses moves in the positions ``table`` holds (see the module)."""

    def __init__(self, table: Table, label: str):
        self.table = table
        self.label = label
        self._entries: dict[bytes, Entry] = {}
        self._swindles: dict[tuple[bytes, int], float] = {}
        self._deadline: float | None = None

    def entry(self, state: State) -> Entry:
        """The table's entry of ``state`` (a terminal one's result), memoized."""
        key = state.array.tobytes()
        found = self._entries.get(key)
        if found is None:
            found = self._entries[key] = self.table.lookup(state)
        return found

    def choose(self, state: State, rng, seconds: float | None = None) -> tuple[int, str]:
        """The move to play in ``state`` (which the table must hold), and a
        line saying why; ``seconds``: CPU time the lookahead may take (it
        looks one move ahead in any case)."""
        self._entries.clear()
        self._swindles.clear()
        analysis = analyze_with(self.table, state)
        if analysis.value in ("tie", "draw"):
            keeping = [move for move in analysis.moves if move.value == analysis.value]
            chances, ahead = self._deepening(state, [move.action for move in keeping], len(analysis.moves), seconds)
            most = max(chances.values())
            move = rng.choice([move for move in keeping if chances[move.action] >= most - 1e-12])
            outlook = f"{analysis.value}, kept; a {most:.0%} chance the opponent errs within {ahead} moves"
        elif analysis.value == "lose":
            escapes = {move.action: self._escape_after(state.child(move.action)) for move in analysis.moves}
            best = max((escapes[move.action], move.remoteness) for move in analysis.moves)
            move = rng.choice([move for move in analysis.moves if (escapes[move.action], move.remoteness) == best])
            outlook = f"lose in {move.remoteness}; a {best[0]:.0%} chance the opponent lets the win go"
        else:
            move = rng.choice(analysis.best_moves)
            outlook = f"{move.value} in {move.remoteness}"
        return move.action, f"{self.label}: {outlook}"

    def _deepening(self, state: State, keeping: list[int], moves: int,
                   seconds: float | None) -> tuple[dict[int, float], int]:
        """Each keeping action's swindle chance, and how many moves ahead it was looked at."""
        def chances(ahead: int) -> dict[int, float]:
            return {action: self._swindle_after(state.child(action), ahead) for action in keeping}

        if seconds is None:
            ahead = LOOKAHEAD if len(keeping) * moves ** 3 <= LOOKUP_BUDGET else 1
            return chances(ahead), ahead
        deadline = _cpu_time() + seconds
        found, ahead = chances(1), 1  # one move ahead, whatever the time
        self._deadline = deadline
        try:
            while ahead < MOST_LOOKAHEAD and _cpu_time() < deadline and not searches_stopped():
                found, ahead = chances(ahead + 1), ahead + 1
        except _OutOfTime:  # the deeper look unfinished: the last finished one stands
            pass
        finally:
            self._deadline = None
        return found, ahead

    def _replies(self, child: State) -> tuple[float, list[State]]:
        """In ``child`` (the opponent to move, a tie or draw for it): the total
        weight of its losing replies (the model above), and its replies that keep the value."""
        value = self.entry(child).value
        losing, keeping = 0.0, []
        for action in child.legal_actions():
            after = child.child(action)
            entry = self.entry(after)
            if entry.value == "win":  # for us, to move after the reply
                losing += _losing_reply_weight(entry.remoteness)
            elif entry.value == value and not after.is_terminal():
                keeping.append(after)
        return losing, keeping

    def _swindle_after(self, child: State, moves: int) -> float:
        """The chance that the opponent, to move in ``child``, errs within
        ``moves`` of our moves, each of ours keeping the value (the model above)."""
        if child.is_terminal() or moves <= 0:
            return 0.0
        key = (child.array.tobytes(), moves)
        known = self._swindles.get(key)
        if known is not None:
            return known
        if self._deadline is not None and (_cpu_time() > self._deadline or searches_stopped()):
            raise _OutOfTime
        losing, keeping = self._replies(child)
        if not losing + len(keeping):
            return 0.0
        error = losing / (losing + len(keeping))
        later = 0.0
        if moves > 1 and keeping:
            later = sum(self._best_swindle(after, moves - 1) for after in keeping) / len(keeping)
        chance = self._swindles[key] = error + (1 - error) * later
        return chance

    def _best_swindle(self, state: State, moves: int) -> float:
        """Our best swindle chance from ``state`` (us to move), keeping its value."""
        value = self.entry(state).value
        best = 0.0
        for action in state.legal_actions():
            child = state.child(action)
            if not child.is_terminal() and self.entry(child).value == value:  # same name: a tie keeps a tie
                best = max(best, self._swindle_after(child, moves))
        return best

    def _escape_after(self, child: State) -> float:
        """In ``child`` (the opponent to move, winning): the chance that it lets
        its win go (the model above), 0 when one of its wins is near enough to be seen."""
        if child.is_terminal():
            return 0.0
        winning, escaping = 0.0, 0.0
        for action in child.legal_actions():
            entry = self.entry(child.child(action))
            if entry.value == "lose":  # for us: the opponent's win kept
                if entry.remoteness <= VISIBLE_PLIES:
                    return 0.0
                winning += 1
            else:
                escaping += TYING_REPLY_WEIGHT if entry.value in ("tie", "draw") else BLUNDER_WEIGHT
        return escaping / (winning + escaping)


def _losing_reply_weight(remoteness: int) -> float:
    """The model's weight of a reply in a tie that loses ``remoteness`` plies after it."""
    return next(weight for most, weight in LOSING_REPLY_WEIGHTS if remoteness <= most)
