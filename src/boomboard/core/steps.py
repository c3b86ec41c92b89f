"""The step recorder the rules share: what the web page animates.

Each game's ``apply_action`` is built on one inner function that takes two
extra arguments, ``steps`` and ``flashes``. The game's plain ``apply_action``
passes ``None`` for both, and numba drops every ``if steps is not None:``
branch when it compiles that version, so playing costs nothing more. The
game's ``apply_action_steps`` (see :mod:`boomboard.kernel_interface`) passes
two buffers instead, and the same code then writes a copy of the position
after each step of the action (the move, each explosion or wave of a
cascade, Kaboom's fall) into ``steps[k]``, and the cells that step lights
into ``flashes[k]`` (cell ids in the order they were lit, ``-1`` after
them). The rules exist once; the animation is what the engine does.

A game's kernels count the steps themselves: :func:`record_step` returns the
new count, and the count may outgrow the buffers, whose rows beyond their
length are then not written (the caller retries with larger ones).
"""

from boomboard.jit import njit


@njit(cache=True)
def record_step(s, steps, flashes, n):
    """Step ``n``: a copy of the position ``s`` into ``steps[n]`` with no cell lit
    yet; returns ``n + 1``. Past the end of the buffers nothing is written."""
    if n < steps.shape[0]:
        steps[n, :] = s
        flashes[n, :] = -1
    return n + 1


@njit(cache=True)
def retake_step(s, steps, n):
    """The last recorded step (``n - 1``) shows the position ``s`` after all: for
    a step whose cells are lit while it is played."""
    if n - 1 < steps.shape[0]:
        steps[n - 1, :] = s


@njit(cache=True)
def light(flashes, n, cell):
    """Add ``cell`` to the cells the last recorded step (``n - 1``) lights (once)."""
    if n - 1 < flashes.shape[0]:
        row = flashes[n - 1]
        for k in range(row.shape[0]):
            if row[k] == cell:
                return
            if row[k] < 0:
                row[k] = cell
                return
