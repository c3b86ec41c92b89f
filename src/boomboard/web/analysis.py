"""Position analysis for the page: every legal move's value, and the value of
each position along a game, in one voice.

Where the solver (``boomboard.solver``) has a table holding the position (in
the folder of tables ``solver_db``, default the solver's own: ``BOOMBOARD_DB``
or the user's data directory), values are exact, in GAMESMAN's words (*win*,
*lose*, *tie*, *draw*, with remoteness: plies to the end under perfect play;
``None`` for a draw, which never ends). Elsewhere one alpha-beta search of
the position scores every move exactly at the same depths (the game's
analysis model, :mod:`boomboard.search.calibration`): a search that proves
a result reports it the same way, otherwise the move gets a numeric
``score``, the mean of its scores at the model's two deepest plies
(hundredths of the game's evaluation, for the player to move), so that a
cascade game's evaluation, which favours whoever moved last, counts each
side once. These functions run in worker processes: their arguments and
results are plain data.

One voice: a position's analysis (:func:`analyse`) is the only estimator.
Its ``eval`` is what the page shows as the headline, the evaluation bar and
the value chart's point, and each move's ``eval`` and ``mark`` colour the
moves and mark them in the history. Every ``eval`` is on one scale, from the
first player's side: ``value`` in [-1, 1], the first player's expected score
``50% + 50% * value`` (a score read through the game's curve fitted to
self-play outcomes); ``exact`` where a table, the rules or a search proved
the result. The search is deterministic for a position (a fresh table, a
fixed depth, never a clock), so a value chart's point at ply k
(:func:`history_point` of that position's analysis) equals the analysis of
that position; the position's value is its best move's, and a move's value
is close to what the next ply's analysis shows (one ply deeper).
"""

from __future__ import annotations

import os
import random

from .. import solver
from ..agents import make_agent
from ..core.capabilities import SEARCH, provides
from ..core.errors import BoomboardError, MissingExtraError
from ..core.extras import missing_modules
from ..core.state import State
from ..registry import game_names, load_game
from ..search.alphabeta import EXACT_MARGIN, AlphaBeta
from ..search.calibration import UNFITTED, AnalysisModel, analysis_model
from ..search.scores import MATE_BOUND, WIN

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
    model = analysis_model(state.game)
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


def _search_analysis(state: State) -> dict:
    """One search of the position whose every root move is scored exactly at
    the same depths: each move's score is the mean of its scores at the
    model's two deepest plies, so that a cascade game's evaluation, which
    favours whoever moved last, counts each side once."""
    model = analysis_model(state.game)
    searcher = AlphaBeta(state.game, table_bits=TABLE_BITS, neutral=True)
    mover = state.current_player()
    legal = state.legal_actions()
    iterations = []  # per finished iteration: (its depth, its line, every legal move's score)

    def keep(result) -> None:
        iterations.append((result.depth, list(result.principal_variation), searcher.root_scores[legal].copy()))

    searcher.search(state, depth=model.depth, nodes=SEARCH_NODES, on_iteration=keep, margin=EXACT_MARGIN)
    moves = []
    for index, action in enumerate(legal):
        child = state.child(action)
        entry = {"id": action, "text": state.action_to_string(action), "value": None, "remoteness": None,
                 "score": None}
        # remoteness counts this move, as the solver's does: the best move's is the position's
        if child.is_terminal():
            entry.update(value=_terminal_value(child, mover), remoteness=1)
        else:
            entry.update(_scored([int(scores[index]) for _, _, scores in iterations[-2:]]))
        moves.append(entry)
    for move in moves:
        move["number"] = _mover_number(move, mover, model)
    best = max(moves, key=_preference)
    for move in moves:
        del move["number"]
    depth, line, _ = iterations[-1]
    return {"source": "search", "value": best["value"], "score": best["score"],
            "remoteness": best["remoteness"], "moves": moves, **_expected_line(state, best["id"], line, depth)}


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


def _preference(move: dict) -> tuple:
    """Sort key, best move last: quick wins, then estimates, ties, slow losses
    (an estimate's ``number`` is its value for the mover, in (-1, 1))."""
    value, remoteness = move["value"], move["remoteness"] or 0
    if value == "win":
        return (3, -remoteness)
    if value == "lose":
        return (0, remoteness)
    return (1.5 + move["number"] / 2, 0)


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


def choose_action(state: State, spec: str, seed: int, solver_db: SolverDb = None) -> int:
    """The move the side ``spec`` plays in ``state`` (the game's own state,
    sent whole: nothing is replayed; ``solver``: a perfect move from the
    tables in ``solver_db``, chosen with ``seed`` among the equally good
    ones, as the solver agent chooses). A fresh agent plays each move: see
    docs/reference/web-server.md, "Game state between requests"."""
    if spec == "solver":
        exact = solver_analysis(state, solver_db)
        if exact is None:
            raise ValueError(f"the solver has no table holding this position of {state.game}")
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
