"""A position's analysis: every legal move's value, and the position's, in one
voice: what the web's analysis board shows and the ``analysis`` agent plays.

Where the solver (``boomboard.solver``) has a table holding the position (in
the folder of tables ``solver_db``, default the solver's own: ``BOOMBOARD_DB``
or the user's data directory), values are exact, in GAMESMAN's words (*win*,
*lose*, *tie*, *draw*, with remoteness: plies to the end under perfect play;
``None`` for a draw, which never ends). Elsewhere two alpha-beta searches
speak (the game's analysis model, :mod:`boomboard.search.calibration`): one
scores every move exactly at the same depths, one looks deeper for the best
move and scores the position (:func:`_search_analysis`). A search that
proves a result reports it the same way; otherwise a move gets a numeric
``score``, the mean of its scores at two consecutive depths (hundredths of
the game's evaluation, for the player to move), so that a cascade game's
evaluation, which favours whoever moved last, counts each
side once. The web runs these functions in worker processes: their
arguments and results are plain data.

One voice: a position's analysis (:func:`analyse`) is the only estimator.
Its ``eval`` is what the page shows as the headline, the evaluation bar and
the value chart's point, and each move's ``eval`` and ``mark`` colour the
moves and mark them in the history. Every ``eval`` is on one scale, from the
first player's side: ``value`` in [-1, 1], the first player's expected score
``50% + 50% * value`` (a score read through the game's curve fitted to
self-play outcomes); ``exact`` where a table, the rules or a search proved
the result. The searches are deterministic for a position (fresh tables,
a fixed depth and a node budget, never a clock), so a value chart's point at ply k
(:func:`history_point` of that position's analysis) equals the analysis of
that position; the position's value is its best move's, and a move's value
is close to what the next ply's analysis shows (one ply deeper).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from . import solver
from .core.errors import BoomboardError
from .core.state import State
from .registry import load_game
from .search.alphabeta import EXACT_MARGIN, AlphaBeta
from .search.calibration import UNFITTED, AnalysisModel, analysis_model
from .search.scores import MATE_BOUND, WIN

# A bound on one analysis's nodes, far above what its game's model depth
# usually needs: a position that explodes past it is searched less deep.
SEARCH_NODES = 2_000_000
TABLE_BITS = 18
# A move's loss (how much of the mover's expected score it gives away against
# the best move, on the [-1, 1] value scale) that earns a mark, worst first:
# lichess's thresholds on its winning chances, the same scale (0.1 there is
# 5 percentage points of expected score).
MARKS = ((0.3, "??"), (0.2, "?"), (0.1, "?!"))
EXACT_NUMBER = {"win": 1.0, "lose": -1.0, "tie": 0.0, "draw": 0.0}


def rebuild(game_string: str, position: str | None, actions: list[int]) -> State:
    """The state after ``actions`` from ``position`` (or the start)."""
    game = load_game(game_string)
    state = game.new_initial_state() if position is None else game.state_from_notation(position)
    for action in actions:
        state.apply_action(action)
    return state


SolverDb = str | os.PathLike | None  # a folder of solved tables (None: the solver's default)


def solver_analysis(state: State, solver_db: SolverDb = None):
    """The solver's analysis of ``state`` from the tables in ``solver_db``,
    or ``None`` where no table holds it."""
    try:
        if solver.open_table(state.game, db=solver_db) is None:
            return None
        return solver.analyze(state, db=solver_db)
    except (BoomboardError, LookupError, OSError, ValueError):  # no table for this game or position
        return None


def has_table(game_string: str, position: str | None = None, solver_db: SolverDb = None) -> bool:
    """Whether the solver can play and analyse this game perfectly from
    ``position`` (default: the start): a table holds it, and so every
    position that follows."""
    try:
        state = rebuild(game_string, position, [])
    except BoomboardError:
        return False
    return solver_analysis(state, solver_db) is not None


def _remoteness(value: str, remoteness: int) -> int | None:
    """The solver's remoteness, ``None`` for a draw (it stores -1: no end)."""
    return None if value == "draw" or remoteness < 0 else int(remoteness)


def analyse(game_string: str, position: str | None, actions: list[int], solver_db: SolverDb = None) -> dict:
    """``{source, value, remoteness, score, eval, moves: [{id, text, value,
    remoteness, score, eval, loss, mark}]}``: ``value``, ``remoteness`` (a
    move's counts the move) and ``score`` for the player to move; ``eval``,
    the same from the first player's side (:func:`evaluation`), with each
    move's ``loss`` against the best and its ``mark`` (:func:`quality_mark`);
    ``source`` is ``"solver"``, ``"search"`` or ``"rules"`` (the game is over).
    A search's answer also gives the line it expects (``pv``: ``[{id, text}]``
    from this position, its best move first) and how deep it looked
    (``depth``, in plies from this position); elsewhere ``pv`` is empty and
    ``depth`` ``None``."""
    return analyse_state(rebuild(game_string, position, actions), solver_db)


def analyse_state(state: State, solver_db: SolverDb = None, budget: AnalysisModel | None = None,
                  tables: SearchTables | None = None) -> dict:
    """:func:`analyse` of ``state`` itself (it is not changed); ``budget``, a
    model whose ``depth`` and ``nodes`` the searches use instead of the
    game's (its curve is not read: the game's reads the scores); ``tables``,
    the searches' tables kept from earlier positions of the same game (fresh
    ones where not given)."""
    return _with_one_voice(state, _raw_analysis(state, solver_db, budget or analysis_model(state.game), tables))


class SearchTables:
    """The two searches of :func:`_search_analysis` for one game, with what
    they learnt (transposition tables, move-ordering history), to keep
    between the positions of one game. Not for two threads at once."""

    def __init__(self, game):
        self.game = game
        self.every_move = AlphaBeta(game, table_bits=TABLE_BITS, neutral=True)
        self.deep = AlphaBeta(game, table_bits=TABLE_BITS, neutral=True, **_sharpening(game))


def best_moves(state: State, result: dict) -> list[int]:
    """The moves the analysis ``result`` of ``state`` ranks best, equally: the
    quickest win, else the best estimate, else a tie or draw, else the slowest
    loss; a search's is the one move it leads its line with."""
    if result["source"] == "search":  # its own best move: the one its deeper search chose among equals
        return [result["pv"][0]["id"]]
    ranks = _ranks(result["moves"], state.current_player(), analysis_model(state.game).at(state))
    best = max(ranks)
    return [move["id"] for move, rank in zip(result["moves"], ranks) if rank == best]


def _ranks(moves: list[dict], mover: int, model: AnalysisModel) -> list[tuple]:
    """Each move's :func:`_preference`, best largest."""
    return [_preference(move, _mover_number(move, mover, model)) for move in moves]


def _raw_analysis(state: State, solver_db: SolverDb, budget: AnalysisModel, tables: SearchTables | None) -> dict:
    """The analysis in the mover's words (win/lose/tie, scores for the mover)."""
    if state.is_terminal():
        return {"source": "rules", "value": _terminal_value(state, state.player_to_move()), "remoteness": 0,
                "score": None, "moves": [], "pv": [], "depth": None}
    exact = solver_analysis(state, solver_db)
    if exact is not None:
        moves = [{"id": int(m.action), "text": m.notation, "value": m.value,
                  "remoteness": _remoteness(m.value, m.remoteness), "score": None} for m in exact.moves]
        return {"source": "solver", "value": exact.value, "remoteness": _remoteness(exact.value, exact.remoteness),
                "score": None, "moves": moves, "pv": [], "depth": None}
    return _search_analysis(state, budget, tables)


def _with_one_voice(state: State, result: dict) -> dict:
    """``result`` with the position's ``eval`` and, for each move, its ``eval``
    (the position it leads to), ``loss`` and ``mark``: every number from the
    first player's side, as :func:`evaluation` words it."""
    names = state.game.player_names
    mover = state.player_to_move()
    model = analysis_model(state.game).at(state)
    result["eval"] = evaluation(result, mover, names, model)
    best = max((_mover_number(m, mover, model) for m in result["moves"]), default=0.0)
    for move in result["moves"]:
        move["eval"] = evaluation(move, mover, names, model)
        move["loss"] = round(max(0.0, best - _mover_number(move, mover, model)), 4)
        move["mark"] = quality_mark(move["loss"])
    return result


def _mover_number(entry: dict, mover: int, model: AnalysisModel) -> float:
    """An analysis entry's value in [-1, 1] for the player who moves (or
    chooses the move), ``mover``: exact results as -1, 0, 1, scores through
    the game's fitted curve (twice the expected score, less one)."""
    if entry["value"] is not None:
        return EXACT_NUMBER[entry["value"]]
    first = 2.0 * model.first_player_score(entry["score"], mover) - 1.0
    return first if mover == 0 else -first


def evaluation(entry: dict, mover: int, names, model: AnalysisModel = UNFITTED) -> dict:
    """``{value, exact, text}`` of an analysis entry (a position's or a move's,
    worded for ``mover``) from the first player's side: ``value`` in [-1, 1],
    ``exact`` where proved, ``text`` such as "White wins in 7", "tie in 4",
    "draw (never ends)" or, estimated, "White 62%"."""
    sign = 1.0 if mover == 0 else -1.0
    value = round(sign * _mover_number(entry, mover, model), 4) + 0.0  # + 0.0: no "-0.0"
    outcome, remoteness = entry["value"], entry["remoteness"]
    if outcome is None:
        return {"value": value, "exact": False, "text": f"{names[0].capitalize()} {round(50 + 50 * value)}%"}
    if outcome == "draw":
        text = "draw (never ends)"
    elif outcome == "tie":
        text = "tied" if remoteness == 0 else f"tie in {remoteness}"
    else:
        winner = names[mover if outcome == "win" else 1 - mover].capitalize()
        text = f"{winner} won" if remoteness == 0 else f"{winner} wins in {remoteness}"
    return {"value": value, "exact": True, "text": text}


def quality_mark(loss: float) -> str:
    """The mark of a move that gives away ``loss`` of the mover's expected
    score against the best ("??", "?", "?!", or "" for a good move)."""
    return next((mark for threshold, mark in MARKS if loss >= threshold - 1e-9), "")


def _terminal_value(state: State, player: int) -> str:
    outcome = state.outcome()
    if outcome.winner is None:
        return "tie"
    return "win" if outcome.winner == player else "lose"


def _search_analysis(state: State, budget: AnalysisModel, tables: SearchTables | None) -> dict:
    """Two searches of the position. The first scores every root move
    exactly at the same depths (the model's two deepest): the move list. The second, a principal-variation search to the model's
    node budget, looks deeper for the best move alone (including a move
    that beat it in the iteration the budget cut short) and scores the
    position (the mean of its scores at its two deepest iterations, so that
    a cascade game's evaluation, which favours whoever moved last, counts
    each side once): the best move takes that value, and no other move is
    listed above it, since the deeper search found none better. Where the
    deeper search reached less deep than the first in a game where it is
    no sharper (no quiescence: in a game with it, a shallower quiescent
    search chooses better than a deeper one blind to pending explosions,
    as the game's ``ai`` does), or proved the position lost (every move then
    loses, but it does not say how soon), the first search's best move and
    values stand. ``budget`` gives the first search's depth and the
    second's nodes."""
    model = analysis_model(state.game).at(state)
    mover = state.current_player()
    legal = state.legal_actions()
    tables = tables or SearchTables(state.game)
    every_move, first_choice = _iterations(tables.every_move, state, legal, depth=budget.depth,
                                           nodes=SEARCH_NODES, margin=EXACT_MARGIN)
    deep, choice = _iterations(tables.deep, state, legal, depth=None, nodes=budget.nodes, margin=0)
    moves = [_move_entry(state, mover, action, [int(it.scores[index]) for it in every_move[-2:]])
             for index, action in enumerate(legal)]
    shallower = deep[-1].depth < every_move[-1].depth and not tables.deep.quiescence
    if shallower or deep[-1].score < -MATE_BOUND:
        deep, choice = every_move, first_choice  # the first search's best stands: see the docstring
    deepest = moves[legal.index(choice)]
    if deep is not every_move and deepest["value"] is None:
        deepest.update(_scored([it.score for it in deep[-2:]]))
        _cap_at(moves, deepest, mover, model)
    ranks = _ranks(moves, mover, model)
    best = deepest if _ranks([deepest], mover, model)[0] == max(ranks) else moves[ranks.index(max(ranks))]
    return {"source": "search", "value": best["value"], "score": best["score"], "remoteness": best["remoteness"],
            "moves": moves, **_expected_line(state, best["id"], deep[-1].line, deep[-1].depth)}


@dataclass(frozen=True)
class _Iteration:
    """A finished iteration of a search: its depth, its line (best move
    first), its score of the position and its score of each legal move."""

    depth: int
    line: list[int]
    score: int
    scores: np.ndarray


def _iterations(searcher: AlphaBeta, state: State, legal: list[int], depth: int | None, nodes: int,
                margin: int) -> tuple[list[_Iteration], int]:
    """Every iteration one search of ``state`` finishes, and the move the
    search chose: its last finished iteration's best, or the move that beat
    it in the unfinished iteration its budget ran out in (the previous best
    is searched first there, so a move that scored above it is better at the
    new depth; the game's ``ai`` plays it too)."""
    finished: list[_Iteration] = []

    def keep(result) -> None:
        line = list(result.principal_variation) or [result.action]
        finished.append(_Iteration(result.depth, line, int(result.score), searcher.root_scores[legal].copy()))

    chosen = searcher.search(state, depth=depth, nodes=nodes, on_iteration=keep, margin=margin)
    return finished, int(chosen.action)


def _sharpening(game) -> dict:
    """The search options of the game's ``ai`` that make its choice better
    (quiescence: explosive actions searched past the horizon; reductions:
    late quiet moves searched shallower first, which takes the search one
    or two plies deeper in the same nodes), not those that only change what
    it plays (contempt, variety)."""
    kind, settings = getattr(game, "ai_settings", ("", {}))
    if kind != "alphabeta":
        return {}
    return {"quiescence": int(settings.get("quiescence", 0)), "reductions": int(settings.get("reductions", 0))}


def _move_entry(state: State, mover: int, action: int, scores: list[int]) -> dict:
    """A root move's entry, from the rules where it ends the game, else from
    its scores at the first search's last two iterations; remoteness counts
    this move, as the solver's does, so that the best move's is the position's."""
    entry = {"id": action, "text": state.action_to_string(action), "value": None, "remoteness": None,
             "score": None}
    child = state.child(action)
    if child.is_terminal():
        entry.update(value=_terminal_value(child, mover), remoteness=1)
    else:
        entry.update(_scored(scores))
    return entry


def _cap_at(moves: list[dict], best: dict, mover: int, model: AnalysisModel) -> None:
    """Lower every estimate listed above ``best`` to its value: the deeper
    search found no move better than ``best``. (A move the first search
    proved better, a quicker win, is left as it is.)"""
    if best["value"] is not None:
        return
    top = _preference(best, _mover_number(best, mover, model))
    for move in moves:
        if move["value"] is None and _preference(move, _mover_number(move, mover, model)) > top:
            move["score"] = best["score"]


def _scored(scores: list[int]) -> dict:
    """A root move's entry from its scores at the last two iterations
    (shallower first): a result the deeper proved, else the mean score."""
    deeper = scores[-1]
    if abs(deeper) > MATE_BOUND:
        plies = WIN - abs(deeper)  # from this position, the move counted
        return {"value": "win" if deeper > 0 else "lose", "remoteness": plies}
    level = [score for score in scores if abs(score) <= MATE_BOUND]
    return {"score": round(sum(level) / len(level), 1)}


def _expected_line(state: State, best: int, line: list[int], depth: int) -> dict:
    """``{pv, depth}``: the best move, then the line the search expects after
    it (its principal variation, where that starts with the best move), cut
    where the game would end or a move is not legal; a best move that ends
    the game has a line of one move, and a depth of 1."""
    position = state.clone()
    pv = []
    for action in [best, *(line[1:] if line[:1] == [best] else [])]:
        if position.is_terminal() or action not in position.legal_actions():
            break
        pv.append({"id": int(action), "text": position.action_to_string(action)})
        position.apply_action(action)
    return {"pv": pv, "depth": 1 if position.is_terminal() and len(pv) == 1 else depth}


def _preference(move: dict, number: float) -> tuple:
    """Sort key, best largest: quick wins, then estimates, ties, slow losses
    (``number``: an estimate's value for the mover, in (-1, 1))."""
    value, remoteness = move["value"], move["remoteness"] or 0
    if value == "win":
        return (3, -remoteness)
    if value == "lose":
        return (0, remoteness)
    return (1.5 + number / 2, 0)


def solver_rank(value: str, remoteness: int) -> tuple:
    """GAMESMAN's order of moves, best largest: the quickest win, the quickest
    tie, a draw, the slowest loss."""
    return {"win": (3, -remoteness), "tie": (2, -remoteness), "draw": (1, 0)}.get(value, (0, remoteness))
