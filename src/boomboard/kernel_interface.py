"""The compiled functions a game gives the shared layers: the game kernel interface.

Each game folder has a ``kernels.py`` that exports these names, compiled
(``@njit(cache=True)`` from :mod:`boomboard.jit`) over the game's two
arrays: the position ``s`` (the layout of :mod:`boomboard.core.layout`) and
``params`` (the game's parameters and tables). The shared layers' compiled
templates (searches, the solver, the batched environment) import them from
here, and :func:`boomboard.jit.specialize` rebinds that import to one game's
``kernels.py``: each game gets its own compiled copy, with the game's
functions called directly. The functions below only document the contract;
they are never called. Which of them a game must export, and which come
together, is the game contract (:mod:`boomboard.core.contract`), which takes
their parameters from here and which registration checks.

**The strong solver** (:mod:`boomboard.solver`) also needs three codec
kernels, each game's own in its ``codec.py``. They read a codec spec, a
small ``int64`` array the game's :meth:`~boomboard.core.game.Game.solver_codec_spec`
computes from its parameters (and, for a game solved as endgames, the number
of tokens); the solver never looks inside it. The game class also says
whether its positions fall into layers every move climbs
(``solver_layered``, :meth:`~boomboard.core.game.Game.solver_layer_count`)
and, for a game solved as endgames rather than from its start
(``solver_min_tokens``), which positions those are
(:meth:`~boomboard.core.game.Game.solver_start_keys`). A game that cannot be
solved leaves ``solver_codec_spec`` returning ``None``; its ``kernels.py``
then need not export these three.
"""


def legal_actions(s, params, out):
    """Write the sorted legal action ids to ``out[:n]`` and return ``n`` (0 once the game is over)."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def apply_action(s, params, action):
    """Play the legal ``action`` in place: count the ply, pass the turn, and record
    a result the game's own rules reach."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def position_key(s, params):
    """A 64-bit hash (``uint64``) of the position: board and player to move."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def evaluate(s, params):
    """A static evaluation for the player to move, in centi-units (an ``int``)."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def is_explosive(s, params, action):
    """Whether ``action`` blows something up: what quiescence search follows."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


# -- the prover's move ordering (optional) ---------------------------------------------
# The prover (:mod:`boomboard.search.prover`) orders moves by the game's
# evaluation of each child unless the game gives these two, which come
# together; a game that knows its threats (cells that would complete a line)
# gives them cheaply, as Pascal Pons' Connect-4 solver orders its moves.
def proof_moves(s, params, out):
    """Write the actions worth searching from the ongoing position ``s`` to
    ``out[:n]``, best first, and return ``n`` (at least 1). If an action wins
    at once for the player to move, one such action alone (``n`` is 1). An action
    may be left out only where it surely lets the opponent win with their
    very next action and a listed action does not lose at once itself (its
    value is then no better than a listed one's); every other legal action is
    listed. The game may add to ``n`` the flags of
    :mod:`boomboard.core.layout` that it vouches for at this node
    (``PROOF_SAFE``, ``PROOF_OWN_MOVE_RESULTS``, ``PROOF_LOST``): each lets
    the prover bound the node's value before searching it (Pascal Pons'
    bounds), ``PROOF_LOST`` settle it (a loss in two plies)."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def mirror_key(s, params):
    """A 64-bit key (``uint64``) of the position that its mirror image (the
    same value and remoteness, each action mirrored) shares, but for the
    lowest bit, which tells the two images apart: 0 for one, 1 for the other
    (0 for a position that is its own image). A game without symmetry
    returns its ``position_key`` with the lowest bit cleared."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


# -- the strong solver's codec -----------------------------------------------------
def encode(spec, s, params):
    """The position ``s``'s perfect key (``uint64``): two positions never share
    one, and :func:`decode` gives the position back. :data:`boomboard.core.layout.OUTSIDE`
    for a finished position and for one the spec does not cover (an endgame
    with too many tokens, an overfull square)."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def decode(spec, key, params, s):
    """Write the position of ``key`` (an :func:`encode` key) into ``s``: every
    entry set, ply 0, the game ongoing, what the position's own rules need
    (counters, heights) recomputed from the board."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def layer_of(spec, s, params):
    """The layer of the non-terminal position ``s``, from 0 to the game's
    ``solver_layer_count(spec)`` minus 1: in a game that sets
    ``solver_layered``, every move leads to a position of a higher layer.
    0 in a game without layers."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


# -- the dense solver's ranking (optional) --------------------------------------------
# A game whose positions fall into tiers that can be numbered densely is
# solved without keys (:mod:`boomboard.solver.dense.kernels`, ``--method dense``): a
# tier is a dense array of 2-byte records indexed by each position's rank in
# its tier. The game says so by returning a dense spec (a small ``int64``
# array its kernels read) from ``Game.solver_dense_spec()`` and exporting
# the ten kernels below from its ``kernels.py``. Tiers are numbered
# ``0 .. dense_tier_count - 1`` (empty ones allowed), and each belongs to a
# level: every move from a position leads to a finished position or to a
# tier of a higher level, except a move to a same-level position whose own
# moves all leave the level (Kaboom's forced pass), which the solver scores
# on the spot. A level is what the solver holds, solves and stores at once.
# A game may also give the solver a dense engine (:mod:`boomboard.solver.dense.engine`):
# ``legal_actions``, ``apply_action`` and these kernels over positions of its own.
def dense_tier_count(dspec):
    """How many tier ids there are (tiers ``0 .. n - 1``; some may be empty)."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def dense_level_count(dspec):
    """How many levels there are (``0 .. n - 1``); the solver solves the last first."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def dense_tier_size(dspec, tier):
    """How many ranks ``tier`` has (0 for a tier with no position): its records."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def dense_tier_level(dspec, tier):
    """The level of ``tier``."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def dense_child_levels(dspec, level, out):
    """Write to ``out[:n]`` every level a move from ``level`` may lead to (all
    higher), and return ``n``; ``out`` has ``dense_level_count`` entries. The
    solver holds exactly these levels in memory while it solves ``level``."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def dense_locate(dspec, s, params):
    """The tier and the rank within it, ``(tier, rank)``, of the non-terminal position ``s``."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def dense_unrank(dspec, tier, rank, params, s):
    """Write the position of ``rank`` in ``tier`` into ``s`` (every entry set,
    ply 0, the game ongoing) and return ``True``; or return ``False`` where
    that rank is no non-terminal position (a line already made, a count the
    rules cannot reach): its record is :data:`boomboard.solver.dense.store.NO_POSITION`.
    ``dense_locate`` of a position written (returning ``True``) gives back
    ``(tier, rank)``."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def dense_unrank_next(dspec, tier, rank, params, s, cursor):
    """:func:`dense_unrank`, called for the ranks of a tier in turn: the solver
    keeps ``cursor`` (an ``int64`` array of 16 entries, ``cursor[0] = -1``
    before a tier's first call) for the game to step from the previous rank
    to the next instead of unranking from scratch (Kaboom steps to the next
    combination). A game may simply return ``dense_unrank(dspec, tier, rank,
    params, s)``."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def dense_mirror_tier(dspec, tier):
    """The tier of the mirror images of ``tier``'s positions (``tier`` itself
    for a game without symmetry). The solver solves and stores only the
    canonical tiers, those with ``tier <= dense_mirror_tier(tier)``."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def dense_mirror(dspec, s, params):
    """Mirror the position ``s`` in place: the image has the same value and
    remoteness and lies in ``dense_mirror_tier`` of ``s``'s tier."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


# -- the web animation and the observation tensor ------------------------------------
def apply_action_steps(s, params, action, steps, flashes):
    """Play ``action`` exactly as :func:`apply_action` does (it is the same code,
    see :mod:`boomboard.core.steps`), and record its steps for the animation:
    the position after step ``k`` (the move, then each explosion or wave of a
    cascade, in the order the rules play them) goes to ``steps[k]``, and the
    cells that step lights to ``flashes[k]`` (cell ids, then ``-1``). Returns
    the number of steps, which may exceed ``len(steps)``: rows past the
    buffers' end are not written."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")


def encode_observation(s, params, table, player, out):
    """Write the observation tensor of ``s`` seen by ``player`` into the flat
    ``float32`` array ``out``, all of it (the game's planes, cell ``c`` at
    ``table[T_GRID + c]`` in each: :mod:`boomboard.core.planes`,
    :mod:`boomboard.observation`)."""
    raise NotImplementedError("a game kernel: see boomboard.jit.specialize")
