"""The searches' trees as records (mctx's ``Tree`` is the model), and how
the functions that only keep their books are compiled.

:func:`boomboard.search.negamax.search_depth` builds one :class:`SearchTree`
per iteration from the search state it is given (the comments at the top of
:mod:`boomboard.search.negamax` say what each array holds) and hands it to
its step functions, so that each takes the record and the ply, not a dozen
arrays. :class:`UctTree` is the MCTS tree of :mod:`boomboard.search.uct`,
which :class:`boomboard.search.mcts.Mcts` keeps between searches.

The records are defined here, in a module of their own, because numba's
disk cache pickles their types by name, and the search templates are
compiled from a copy per game (:func:`boomboard.jit.specialize`).
"""

from __future__ import annotations

from collections import namedtuple

from boomboard.numba_internals import NO_REFERENCE_COUNTING

# A function that keeps the books, calls none of the game's kernels and
# allocates nothing is compiled without numba's reference counting
# (boomboard.numba_internals.NO_REFERENCE_COUNTING says why). Such a function
# only borrows arrays that its caller holds. (A call from it into a function
# that allocates fails to compile: numba compiles the callee without
# reference counting too.)
BORROWING = {"cache": True, **NO_REFERENCE_COUNTING}

SearchTree = namedtuple("SearchTree", [
    "stack",      # stack[ply]: the position at each ply of the current path
    "moves",      # moves[ply, i]: the node's moves
    "order",      # order[ply, i]: their sort keys
    "frames",     # frames[ply, column]: the node's window, best so far, phase, ...
    "path_keys",  # the position keys of the game so far, then of the path
    "tt_keys",    # the transposition table: per slot, a position key ...
    "tt_data",    # ... and its packed entry
    "history",    # history[action]: the cut-offs it made, weighted by depth
    "killers",    # killers[ply, 0..1]: the ply's last cut-off moves
    "stats",      # what the search reports, shared with the driver
    "options",    # the iteration's settings, read-only
    "timespec",   # what the CPU clock writes into (see clock.new_timespec)
])

UctTree = namedtuple("UctTree", [
    "first_child",  # first_child[node]: its first child's node number (-1: not expanded)
    "n_children",   # n_children[node]: how many children it has (they are numbered in a row)
    "action",       # action[node]: the action leading to it from its parent
    "parent",       # parent[node]: its parent's node number (node 0 is the root)
    "visits",       # visits[node]: the simulations through it
    "values",       # values[node]: their results summed, for the player whose move led to it
])

# The prover's search (boomboard.search.proof_search): its arrays, as the driver
# (boomboard.search.prover) allocates them once, for all its proofs.
ProofTree = namedtuple("ProofTree", [
    "stack",     # stack[ply]: the position at each ply of the current path
    "moves",     # moves[ply, i]: the node's moves, best first
    "frames",    # frames[ply, column]: the node's window, best so far, ...
    "tt_keys",   # the transposition table: per slot, a key ...
    "tt_data",   # ... and its packed entry
    "stats",     # what the search reports, and its budget
    "timespec",  # what the CPU clock writes into (see clock.new_timespec)
])

# The settings of one batch of simulations (see :class:`boomboard.search.mcts.Mcts`).
UctSettings = namedtuple("UctSettings", ["exploration", "playout_plies", "evaluation_scale", "action_limit"])
