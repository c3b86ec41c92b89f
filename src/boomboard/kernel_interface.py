"""The compiled functions a game gives the shared layers: the game kernel interface.

Each game folder has a ``kernels.py`` that exports these names, compiled
(``@njit(cache=True)`` from :mod:`boomboard.jit`) over the game's two
arrays: the position ``s`` (the layout of :mod:`boomboard.core.layout`) and
``params`` (the game's parameters and tables). The shared layers' compiled
templates (searches, the solver, the batched environment) import them from
here, and :func:`boomboard.jit.specialize` rebinds that import to one game's
``kernels.py``: each game gets its own compiled copy, with the game's
functions called directly. The functions below only document the contract;
they are never called.
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
