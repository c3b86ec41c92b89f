"""Position analysis for the page: every legal move's value, and the value of
each position along a game, in one voice.

Where the solver (``boomboard.solver``) has a table holding the position (in
the folder of tables ``solver_db``, default the solver's own: ``BOOMBOARD_DB``
or the user's data directory), values are exact, in GAMESMAN's words (*win*,
*lose*, *tie*, *draw*, with remoteness: plies to the end under perfect play;
``None`` for a draw, which never ends). Elsewhere a short alpha-beta search
scores each move; a search that proves a result reports it the same way,
otherwise the move gets a numeric ``score`` (hundredths of the game's
evaluation, for the player to move). These functions run in worker
processes: their arguments and results are plain data.

One voice: a position's analysis (:func:`analyse`) is the only estimator.
Its ``eval`` is what the page shows as the headline, the evaluation bar and
the value chart's point, and each move's ``eval`` and ``mark`` colour the
moves and mark them in the history. Every ``eval`` is on one scale, from the
first player's side: ``value`` in [-1, 1], the first player's expected score
``50% + 50% * value``; ``exact`` where a table, the rules or a search proved
the result. The search is deterministic for a position and budget (a fresh
table, a node budget, never a clock), so a value chart's point at ply k
(:func:`history_point` of that position's analysis) equals the analysis of
that position.
"""

from __future__ import annotations

import math
import os
import random

from .. import solver
from ..agents import make_agent
from ..core.capabilities import SEARCH, provides
from ..core.errors import BoomboardError, MissingExtraError
from ..core.extras import missing_modules
from ..core.state import State
from ..registry import game_names, load_game
from ..search.alphabeta import AlphaBeta

SEARCH_NODES = 300_000  # the whole analysis's budget, shared between the moves
SEARCH_DEPTH = 6
TABLE_BITS = 16
SCORE_SCALE = 300  # a search score s (hundredths) is the value tanh(s / SCORE_SCALE): 3 units of lead, 76%
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


def learned_model(game_string: str) -> dict:
    """``{model, ships, needs}`` for the page's learned side: ``model``,
    whether the ``learned`` agent can play this game without a path (a model
    for it ships in the package and the learn extra is installed);
    ``ships``, whether such a model ships; ``needs``, where one ships but
    the extra is missing, the line that says which extra to install."""
    from ..learn.checkpoint import packaged_model

    try:
        ships = packaged_model(str(load_game(game_string))) is not None
    except BoomboardError:
        ships = False
    missing = missing_modules("learn")
    needs = str(MissingExtraError("learn", "the learned player", missing)) if ships and missing else None
    return {"model": ships and not missing, "ships": ships, "needs": needs}


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
    state = rebuild(game_string, position, actions)
    return _with_one_voice(state, _raw_analysis(state, solver_db))


def _raw_analysis(state: State, solver_db: SolverDb) -> dict:
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
    return _search_analysis(state)


def _with_one_voice(state: State, result: dict) -> dict:
    """``result`` with the position's ``eval`` and, for each move, its ``eval``
    (the position it leads to), ``loss`` and ``mark``: every number from the
    first player's side, as :func:`evaluation` words it."""
    names = state.game.player_names
    mover = state.player_to_move()
    result["eval"] = evaluation(result, mover, names)
    best = max((_mover_number(m) for m in result["moves"]), default=0.0)
    for move in result["moves"]:
        move["eval"] = evaluation(move, mover, names)
        move["loss"] = round(max(0.0, best - _mover_number(move)), 4)
        move["mark"] = quality_mark(move["loss"])
    return result


def _mover_number(entry: dict) -> float:
    """An analysis entry's value in [-1, 1] for the player who moves (or
    chooses the move): exact results as -1, 0, 1, scores through tanh."""
    if entry["value"] is not None:
        return EXACT_NUMBER[entry["value"]]
    return math.tanh(entry["score"] / SCORE_SCALE)


def evaluation(entry: dict, mover: int, names) -> dict:
    """``{value, exact, text}`` of an analysis entry (a position's or a move's,
    worded for ``mover``) from the first player's side: ``value`` in [-1, 1],
    ``exact`` where proved, ``text`` such as "White wins in 7", "tie in 4",
    "draw (never ends)" or, estimated, "White 62%"."""
    sign = 1.0 if mover == 0 else -1.0
    value = round(sign * _mover_number(entry), 4) + 0.0  # + 0.0: no "-0.0"
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


def _search_analysis(state: State) -> dict:
    searcher = AlphaBeta(state.game, table_bits=TABLE_BITS)
    mover = state.current_player()
    legal = state.legal_actions()
    per_move = max(2_000, SEARCH_NODES // len(legal))
    moves = []
    searched = {}  # each searched move's search result, for the expected line after the best
    for action in legal:
        child = state.child(action)
        entry = {"id": action, "text": state.action_to_string(action), "value": None, "remoteness": None,
                 "score": None}
        # remoteness counts this move, as the solver's does: the best move's is the position's
        if child.is_terminal():
            entry.update(value=_terminal_value(child, mover), remoteness=1)
        else:
            result = searched[action] = searcher.search(child, depth=SEARCH_DEPTH, nodes=per_move)
            forced = result.forced_result  # for the opponent, who moves in the child
            if forced is not None:
                entry.update(value="lose" if forced > 0 else "win", remoteness=abs(forced) + 1)
            else:
                entry["score"] = -result.score
        moves.append(entry)
    best = max(moves, key=_preference)
    return {"source": "search", "value": best["value"], "score": best["score"],
            "remoteness": best["remoteness"], "moves": moves,
            **_expected_line(state, best["id"], searched.get(best["id"]))}


def _expected_line(state: State, best: int, result) -> dict:
    """``{pv, depth}``: the best move, then the line its own search expects
    (the search the terminal's ``think`` shows for an AI move, read the same
    way), cut where the game would end or a move is not legal (the table it
    comes from knows nothing of the game's history); ``depth`` counts the best
    move too. A best move that ends the game has a line of one move."""
    line = state.clone()
    pv = []
    for action in [best, *(result.principal_variation if result is not None else [])]:
        if line.is_terminal() or action not in line.legal_actions():
            break
        pv.append({"id": int(action), "text": line.action_to_string(action)})
        line.apply_action(action)
    return {"pv": pv, "depth": 1 if result is None else result.depth + 1}


def _preference(move: dict) -> tuple:
    """Sort key, best move last: quick wins, then scores, ties, slow losses."""
    value, remoteness = move["value"], move["remoteness"] or 0
    if value == "win":
        return (3, -remoteness)
    if value == "lose":
        return (0, remoteness)
    if value in ("tie", "draw"):
        return (1.5, 0)
    return (1 + 1 / (1 + math.exp(-move["score"] / SCORE_SCALE)), 0)


def _solver_rank(value: str, remoteness: int) -> tuple:
    """GAMESMAN's order of moves, best largest: the quickest win, the quickest
    tie, a draw, the slowest loss."""
    return {"win": (3, -remoteness), "tie": (2, -remoteness), "draw": (1, 0)}.get(value, (0, remoteness))


def history_point(ply: int, result: dict, played: int | None) -> dict:
    """The value history's point of the position at ``ply`` from its analysis
    ``result`` (:func:`analyse`'s), with the move ``played`` from it, if any."""
    point = {"ply": ply, "value": result["eval"]["value"], "exact": result["eval"]["exact"],
             "label": result["eval"]["text"]}
    if played is not None:
        move = next(m for m in result["moves"] if m["id"] == played)
        point["move"] = {"mark": move["mark"], "loss": move["loss"], "outcome": move["value"]}
    return point


def choose_action(game_string: str, position: str | None, actions: list[int], spec: str, seed: int,
                  solver_db: SolverDb = None) -> int:
    """The move the side ``spec`` plays after ``actions`` (``solver``: a
    perfect move from the tables in ``solver_db``, chosen with ``seed`` among
    the equally good ones, as the solver agent chooses)."""
    state = rebuild(game_string, position, actions)
    if spec == "solver":
        exact = solver_analysis(state, solver_db)
        if exact is None:
            raise ValueError(f"the solver has no table holding this position of {game_string}")
        ranks = {int(m.action): _solver_rank(m.value, m.remoteness) for m in exact.moves}
        best = max(ranks.values())
        return random.Random(seed).choice(sorted(a for a, rank in ranks.items() if rank == best))
    agent = make_agent(spec, seed=seed)
    if getattr(agent, "db", "") is None:  # its tables (a solver spec such as solver:seed=3, ai's endgames): the server's
        agent.db = solver_db
    agent.new_game(state.game, state.current_player())
    return int(agent.choose_action(state))


def warm_up() -> None:
    """Load the compiled searches and playouts in a fresh worker from the
    kernel cache, for every game compiled on this machine (each game has its
    own), so that the first AI move or analysis does not wait for them. A game
    not compiled yet is left alone: compiling every game here would hold up
    the one being played (it compiles on its first use instead)."""
    from ..jit import interpreted, is_cached, specialize

    def cached(game, template: str) -> bool:
        return is_cached(specialize(template, game.kernels_module))

    for name in game_names():
        with interpreted():  # loading a game compiles nothing (nor says it would)
            game = load_game(name)
        if not provides(game, SEARCH):  # no evaluation: no search to load
            continue
        if cached(game, "boomboard.search.negamax"):
            AlphaBeta(game, table_bits=10).search(game.new_initial_state(), depth=1)
        if cached(game, "boomboard.search.uct"):
            make_agent("mcts:simulations=8", seed=0).choose_action(game.new_initial_state())
