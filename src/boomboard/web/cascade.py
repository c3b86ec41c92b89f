"""The steps of one action, for the page to animate: the move itself, then
each explosion of its cascade, in the rulebook's order.

The compiled kernels apply an action in one call and keep no trace, so this
module replays the rulebook in plain Python on a copy of the board, recording
a picture after every explosion (Jump61 and the Explocus games: one per
exploding square or stack; Expendibots and Kaboom: one per wave of a chain,
then Kaboom's fall). It follows the kernels' order exactly (first in, first
out, stopping the moment the game is won), so its last step is the engine's
result; the web tests check that on many random positions.
"""

from __future__ import annotations

from collections import deque

from ..core.game import Game
from ..games.expendibots import rules as expendibots_rules
from ..games.jump61 import rules as jump61_rules
from ..games.kaboom import rules as kaboom_rules
from ..games.explocus import rules as explocus_rules
from .geometry import cell_contents, layout

MAX_STEPS = 60  # pictures per action at most: a few seconds of animation


def cascade_steps(game: Game, before, action: int) -> list[dict]:
    """Pictures of ``action`` played on the engine array ``before``: a list of
    ``{"cells": [[owner, text, mark], ...], "flash": [cell names]}``; ``flash``
    names the cells exploding (or, for a plain move, moved) in that step."""
    array = before.copy()
    recorder = _RECORDERS[game.name]
    steps = _merge(recorder(game, array, int(action)))
    names = layout(game).names
    return [{"cells": cell_contents(game, picture), "flash": [names[c] for c in flash]}
            for picture, flash in steps]


def _merge(steps: list) -> list:
    """At most :data:`MAX_STEPS` pictures: a long cascade (a big Jump61 board can
    jump hundreds of times) is shown in runs of consecutive explosions, each run
    one picture lighting all its cells; the last picture stays the result."""
    if len(steps) <= MAX_STEPS:
        return steps
    run = -(-len(steps) // MAX_STEPS)
    merged = []
    for start in range(0, len(steps), run):
        chunk = steps[start:start + run]
        flash = list(dict.fromkeys(cell for _, cells in chunk for cell in cells))
        merged.append((chunk[-1][0], flash))
    return merged


def _expendibots(game, s, action):
    board, player = expendibots_rules.BOARD, int(s[0])
    if action >= expendibots_rules.MOVES:
        line, count = divmod(action - expendibots_rules.MOVES, expendibots_rules.MAX_TOKENS)
        origin = line // (4 * expendibots_rules.MAX_DISTANCE)
        target = int(game.params_array[expendibots_rules.P_LANDING + line])
        carried = (1 - 2 * player) * (count + 1)
        s[board + origin] -= carried
        s[board + target] += carried
        return [(s.copy(), [origin, target])]
    steps, wave, caught = [], [action], {action}
    while wave:
        for square in wave:
            s[board + square] = 0
        steps.append((s.copy(), wave))
        following = []
        for centre in wave:
            first = expendibots_rules.P_NEIGHBOURS + 8 * centre
            for other in game.params_array[first:first + 8]:
                other = int(other)
                if other >= 0 and other not in caught and s[board + other] != 0:
                    caught.add(other)
                    following.append(other)
        wave = following
    return steps


def _jump61(game, s, action):
    cells = game["size"] ** 2
    params, player = game.params_array, int(s[0])
    spots, colour = jump61_rules.SPOTS, jump61_rules.SPOTS + cells
    degree, neighbours = jump61_rules.DEGREE, jump61_rules.DEGREE + cells

    def add_spot(square):
        s[spots + square] += 1
        s[colour + square] = player + 1

    def overfull(square):
        return s[spots + square] > params[degree + square]

    def one_colour():
        return all(s[colour + q] == player + 1 for q in range(cells))

    add_spot(action)
    steps = [(s.copy(), [action])]
    if one_colour() or not overfull(action):
        return steps
    queue, queued = deque([action]), {action}
    while queue:
        square = queue.popleft()
        queued.discard(square)
        if not overfull(square):
            continue
        s[spots + square] -= params[degree + square]
        around = [int(o) for o in params[neighbours + 4 * square:neighbours + 4 * square + 4] if o >= 0]
        for other in around:
            add_spot(other)
        steps.append((s.copy(), [square]))
        if one_colour():
            break
        _queue_first_in_first_out(queue, queued, [*around, square], overfull)
    return steps


def _kaboom(game, s, action):
    rows, cols = game["rows"], game["cols"]
    board, player = kaboom_rules.HEIGHT + cols, int(s[0])
    if action < 2 * cols:
        column = action % cols
        piece = (player + 1) | (kaboom_rules.BOMB if action >= cols else 0)
        height = int(s[kaboom_rules.HEIGHT + column])
        s[board + height * cols + column] = piece
        return [(s.copy(), [height * cols + column])]
    if action == 2 * cols + rows * cols:  # a pass changes nothing
        return [(s.copy(), [])]
    superbomb = game["superbomb"]
    start = action - 2 * cols
    removed, steps, bombs = {start}, [], [start]
    while bombs:
        hit = set(bombs)
        following = []
        for bomb in bombs:
            r, c = divmod(bomb, cols)
            if superbomb:
                reach = [tr * cols + c for tr in range(rows)] + [r * cols + tc for tc in range(cols)]
            else:
                reach = [tr * cols + tc for tr, tc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                         if 0 <= tr < rows and 0 <= tc < cols]
            for target in reach:
                if target not in removed and s[board + target] != 0:
                    removed.add(target)
                    hit.add(target)
                    if s[board + target] & kaboom_rules.BOMB:
                        following.append(target)
        for cell in hit:
            s[board + cell] = 0
        steps.append((s.copy(), sorted(hit)))
        bombs = following
    for column in range(cols):  # what stands above the gaps falls
        pieces = [int(s[board + r * cols + column]) for r in range(rows) if s[board + r * cols + column]]
        for r in range(rows):
            s[board + r * cols + column] = pieces[r] if r < len(pieces) else 0
    steps.append((s.copy(), []))
    return steps


def _explocus(game, s, action):
    board_info = game.board
    player = int(s[0])
    sign = 1 - 2 * player
    board, stones = explocus_rules.BOARD, explocus_rules.STONES
    origin, direction, k = board_info.decode(action)
    target = board_info.rays[origin][direction][k - 1]
    capacity = board_info.capacity

    def drop(cell, count):
        height = int(s[board + cell]) * sign
        if height < 0:
            s[stones + 1 - player] += height
            s[stones + player] -= height
            height = -height
        s[board + cell] = sign * (height + count)

    def full(cell):
        return s[board + cell] * sign >= capacity[cell]

    s[board + origin] -= sign * k
    drop(target, k)
    steps = [(s.copy(), [origin, target])]
    if s[stones + 1 - player] == 0 or not full(target):
        return steps
    queue, queued = deque([target]), {target}
    while queue:
        cell = queue.popleft()
        queued.discard(cell)
        if not full(cell):
            continue
        s[board + cell] = sign * (int(s[board + cell]) * sign - capacity[cell])
        around = [n for n in board_info.neighbours[cell] if n >= 0]
        for other in around:
            drop(other, 1)
        steps.append((s.copy(), [cell]))
        if s[stones + 1 - player] == 0:
            break
        _queue_first_in_first_out(queue, queued, [*around, cell], full)
    return steps


def _queue_first_in_first_out(queue, queued, cells, ready) -> None:
    """Queue each of ``cells`` (in order) that is ``ready`` to explode and not queued yet:
    the neighbours first, then the exploding cell itself, as both engines do."""
    for cell in cells:
        if cell not in queued and ready(cell):
            queue.append(cell)
            queued.add(cell)


_RECORDERS = {
    "expendibots": _expendibots,
    "jump61": _jump61,
    "kaboom": _kaboom,
    "explocus": _explocus,
    "hexplocus": _explocus,
}
