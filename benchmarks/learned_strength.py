"""How strong a learned agent is: against perfect play, and against ``ai`` at equal time.

* ``solver``: ``--games`` games of the learned agent against the ``solver``
  agent on a solved game (default Kaboom 4x4 with one bomb), each from a
  start two random plies into the game, kept only where the learned side is
  not lost under perfect play (a tied or won start); a perfect player never
  loses from there, so every loss is a mistake. Prints the learned side's
  wins, ties and losses by the start's value.
* ``opening``: every position reachable in exactly ``--ply`` plies that
  the player to move has not lost under perfect play, each once: the
  agent's move there is checked against the solver's table. Prints how
  many of them it moves into a loss, also weighted by how often uniformly
  random play reaches each (at ``--ply 2`` this is how ``solver`` draws its
  starts), and each such position with the plies to the loss; with
  ``--prove``, also the fewest alpha-beta nodes (of 0.25 to 16 million,
  doubling, a fresh table each time) that prove the move played lost: the
  budget a guard would need there.
* ``agreement``: a run folder's model scored on the run's own sample of
  solved positions (``truth.npz``, see ``boomboard.learn.truth``), as the
  bare net (what ``checkpoints.jsonl`` logs) and with the search the
  agent plays with (``--sims``, 64 by default): the share of perfect moves.
* ``ai``: the learned agent's mean time a move is measured on the first
  positions of a few games, then it plays ``--games`` games (colours
  alternating) against ``ai:time=T`` with ``T`` that mean time, and the
  score and Elo difference are printed.

Run: ``python benchmarks/learned_strength.py solver --agent learned:RUN[,sims=64] [--games 100]``
or ``python benchmarks/learned_strength.py ai --game "jump61(size=6)" --agent learned:RUN --games 20``
or ``python benchmarks/learned_strength.py opening --agent learned --ply 4``
or ``python benchmarks/learned_strength.py agreement --run RUN [--sims 64] [--puct] [--decisive] [--mirror]``.
In-process games (no arena): the figures are the agents', not the referee's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import boomboard
from boomboard import learn  # noqa: F401  (registers the "learned" agent kind)
from boomboard import solver
from boomboard.agents import make_agent
from boomboard.ratings import elo_estimate


def play(game, agents, state, watch: int | None = None) -> tuple[int | None, list[float], list[tuple]]:
    """Play ``agents`` (player 0 first) from ``state``; the winner, each move's
    time by player, and (for player ``watch``, on a solved game) its
    mistakes: (ply, "tie lost" or "win let go", plies to the loss it moved into)."""
    for player, agent in enumerate(agents):
        agent.new_game(game, player)
    times: list[list[float]] = [[], []]
    mistakes = []
    while not state.is_terminal():
        player = state.current_player()
        began = time.perf_counter()
        action = agents[player].choose_action(state.clone())
        times[player].append(time.perf_counter() - began)
        if player == watch:
            before, after = solver.analyze(state).value, state.child(action)
            if not after.is_terminal():
                reply = solver.analyze(after)  # for the opponent
                if before != "lose" and reply.value == "win":
                    mistakes.append((state.ply(), f"{before} lost", reply.remoteness))
                elif before == "win" and reply.value != "lose":
                    mistakes.append((state.ply(), "win let go", None))
        state.apply_action(action)
    return state.outcome().winner, times, mistakes


def against_solver(game_name: str, spec: str, games: int, seed: int) -> None:
    game = boomboard.load_game(game_name)
    rng = random.Random(seed)
    counts = {value: [0, 0, 0] for value in ("win", "tie", "draw")}
    mistakes: list[tuple] = []
    played = 0
    while played < games:
        state = game.new_initial_state()
        for _ in range(2):
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        learned_side = played % 2
        value = solver.analyze(state).value  # for the player to move
        mine = value if state.current_player() == learned_side else {"win": "lose", "lose": "win"}.get(value, value)
        if mine == "lose":
            continue
        agents = [make_agent("solver", seed=rng.randrange(2 ** 31)), make_agent(spec, seed=played)]
        if learned_side == 0:
            agents.reverse()
        winner, _, found = play(game, agents, state, watch=learned_side)
        mistakes.extend(found)
        column = 0 if winner == learned_side else 2 if winner is not None else 1
        counts[mine][column] += 1
        played += 1
    print(f"{spec} against the solver on {game}, {games} games from tied or won starts:")
    for value, (wins, ties, losses) in counts.items():
        if wins + ties + losses:
            print(f"  from {value} starts: {wins} wins, {ties} ties, {losses} losses")
    lost = sorted((ply, plies) for ply, kind, plies in mistakes if kind != "win let go")
    print(f"  moves into a lost position: {len(lost)}; (ply, plies to the loss): {lost}")
    print(f"  wins let go: {sum(kind == 'win let go' for _, kind, _ in mistakes)}")


def positions_at(game, plies: int) -> dict[str, tuple[object, float]]:
    """Every position ``plies`` plies into ``game`` (not over), by its
    notation, with the probability that uniformly random play reaches it."""
    reached: dict[str, list] = {}

    def walk(state, depth: int, chance: float) -> None:
        if state.is_terminal():
            return
        if depth == 0:
            key = state.to_notation()
            if key in reached:
                reached[key][1] += chance
            else:
                reached[key] = [state.clone(), chance]
            return
        actions = state.legal_actions()
        for action in actions:
            walk(state.child(action), depth - 1, chance / len(actions))

    walk(game.new_initial_state(), plies, 1.0)
    return {key: (state, chance) for key, (state, chance) in reached.items()}


PROOF_BUDGETS = [250_000 << doubling for doubling in range(7)]  # 0.25 to 16 million nodes


def nodes_to_prove_lost(state, action: int) -> int | None:
    """The fewest nodes of :data:`PROOF_BUDGETS` with which exact alpha-beta
    proves ``action`` lost in ``state``; None if none suffices."""
    import numpy as np

    from boomboard.search.alphabeta import AlphaBeta
    from boomboard.search.scores import MATE_BOUND

    moves = np.array(state.legal_actions())
    for nodes in PROOF_BUDGETS:
        _, scores = AlphaBeta(state.game, table_bits=22).score_moves(state, moves, depth=state.game.action_limit or 200,
                                                                     nodes=nodes)
        if scores is not None and scores[int(np.flatnonzero(moves == action)[0])] < -MATE_BOUND:
            return nodes
    return None


def opening_mistakes(game_name: str, spec: str, plies: int, seed: int, prove: bool = False) -> None:
    game = boomboard.load_game(game_name)
    reached = positions_at(game, plies)
    agent = make_agent(spec, seed=seed)
    agent.new_game(game, plies % 2)
    held = held_chance = lost_chance = 0.0
    mistakes = []
    thinking = 0.0
    for key, (state, chance) in reached.items():
        if solver.analyze(state).value == "lose":
            continue
        held += 1
        held_chance += chance
        began = time.perf_counter()
        action = agent.choose_action(state.clone())
        thinking += time.perf_counter() - began
        after = state.child(action)
        reply = None if after.is_terminal() else solver.analyze(after)  # for the opponent
        if reply is not None and reply.value == "win":
            lost_chance += chance
            mistakes.append((key, state.action_to_string(action), reply.remoteness,
                             nodes_to_prove_lost(state, action) if prove else None))
    print(f"{spec} on {game}, every position {plies} plies in that is not lost for the player to move: "
          f"{len(reached)} positions, {int(held)} not lost; moves into a loss in {len(mistakes)} "
          f"({len(mistakes) / held:.1%}; {lost_chance / held_chance:.1%} weighted by random play's reach); "
          f"{thinking / held * 1000:.0f} ms a move")
    for key, move, remoteness, nodes in sorted(mistakes, key=lambda m: m[2]):
        proof = "" if not prove else (f"; proven lost with {nodes:,} nodes" if nodes else
                                      f"; not proven lost with {PROOF_BUDGETS[-1]:,} nodes")
        print(f"  {key} {move}: lost in {remoteness}{proof}")
    if prove:
        needed = [nodes for *_, nodes in mistakes]
        print("  proven lost within: " + ", ".join(
            f"{budget:,} nodes {sum(n is not None and n <= budget for n in needed)}" for budget in PROOF_BUDGETS)
            + f" (of {len(needed)})")


def against_ai(game_name: str, spec: str, games: int, seed: int) -> None:
    game = boomboard.load_game(game_name)
    learned = make_agent(spec, seed=seed)
    _, times, _ = play(game, [learned, make_agent("random", seed=seed)], game.new_initial_state())
    per_move = statistics.mean(times[0])
    opponent = f"ai:time={per_move:.3f}"
    wins = ties = losses = 0
    spent: list[float] = []
    for number in range(games):
        agents = [make_agent(spec, seed=seed + number), make_agent(opponent, seed=seed + number)]
        learned_side = number % 2
        if learned_side:
            agents.reverse()
        winner, times, _ = play(game, agents, game.new_initial_state())
        spent += times[learned_side]
        wins += winner == learned_side
        losses += winner == 1 - learned_side
        ties += winner is None
    elo = elo_estimate(wins, ties, losses)
    print(f"{spec} ({statistics.mean(spent):.3f} s a move) against {opponent} on {game}: "
          f"{wins} wins, {ties} ties, {losses} losses; Elo {elo.describe()}")


def agreement_with_search(run: str, simulations: int, puct: bool = False, decisive: bool = False,
                          mirror: bool = False) -> None:
    import jax
    import numpy as np

    from boomboard.learn.checkpoint import load_model
    from boomboard.learn.search import Search
    from boomboard.learn.truth import Truth, agreement

    model = load_model(run)
    truth = Truth.load(Path(run) / "truth.npz")
    search = Search(boomboard.load_game(model.game), model.net, simulations, decisive=decisive, mirror=mirror)
    logits, values = search.evaluate(model.params, truth.observations, truth.legal)
    bare = agreement(np.asarray(logits), np.asarray(values), truth)
    chosen = []
    for start in range(0, len(truth), 256):
        rows = slice(start, start + 256)
        batch = (model.params, jax.random.PRNGKey(start), truth.states[rows], truth.observations[rows],
                 truth.legal[rows])
        actions, _, _ = search.run_puct(*batch) if puct else search.run(*batch, gumbel_scale=0.0)
        chosen.append(np.asarray(actions))
    chosen = np.concatenate(chosen)
    searched = truth.perfect[np.arange(len(truth)), chosen].mean()
    print(f"{model.path} (iteration {model.iteration}, {model.seconds / 60:.1f} min of training"
          f"{', both mirror views' if mirror else ''}) on "
          f"{len(truth)} positions: perfect moves {bare['move']:.1%} as the bare net, {searched:.1%} with "
          f"{simulations} simulations{' (PUCT)' if puct else ''}{' (decisive moves)' if decisive else ''}; "
          f"value class {bare['value']:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("opponent", choices=["solver", "ai", "agreement", "opening"])
    parser.add_argument("--ply", type=int, default=2, help="opening: how many plies into the game")
    parser.add_argument("--prove", action="store_true",
                        help="opening: how many alpha-beta nodes prove each mistake lost")
    parser.add_argument("--run", help="agreement: the run folder")
    parser.add_argument("--sims", type=int, default=64, help="agreement: the search's simulations")
    parser.add_argument("--puct", action="store_true", help="agreement: AlphaZero's search instead of Gumbel MuZero's")
    parser.add_argument("--decisive", action="store_true",
                        help="agreement: the search values a node whose player can win at once as a win")
    parser.add_argument("--mirror", action="store_true",
                        help="agreement: every evaluation the mean of the position's and its mirror image's")
    parser.add_argument("--agent", default="learned")
    parser.add_argument("--game", default="kaboom")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.opponent == "agreement":
        agreement_with_search(args.run, args.sims, args.puct, args.decisive, args.mirror)
    elif args.opponent == "opening":
        opening_mistakes(args.game, args.agent, args.ply, args.seed, args.prove)
    else:
        (against_solver if args.opponent == "solver" else against_ai)(args.game, args.agent, args.games, args.seed)


if __name__ == "__main__":
    main()
