"""The course Player with the Expendibots settings of before the contempt
for trading down, or any others: a control for docs/results/strength.md's games.

``BOOMBOARD_KEEP`` sets the evaluation's keep weight and
``BOOMBOARD_TYPICAL_PLIES`` the plies the time manager plans a game for
(the defaults of before: 0 and 120); ``BOOMBOARD_WEIGHTS``, if given, all
the evaluation's weights (comma-separated, in ``FEATURE_NAMES`` order; the
keep weight is its last). The course match script plays it with
``--player expendibots_course_variant`` and records the settings in each
game's ``spec``::

    BOOMBOARD_KEEP=0 BOOMBOARD_TYPICAL_PLIES=120 python benchmarks/expendibots_course_match.py \\
        --player expendibots_course_variant ...
"""

import os

from boomboard.games.expendibots import evaluation
from boomboard.registry import load_game


def weights() -> list[int]:
    """The evaluation's weights this variant plays with."""
    given = os.environ.get("BOOMBOARD_WEIGHTS")
    if given:
        found = [int(weight) for weight in given.split(",")]
        if len(found) != len(evaluation.WEIGHTS):
            raise SystemExit(f"BOOMBOARD_WEIGHTS: {len(evaluation.WEIGHTS)} weights expected "
                             f"({', '.join(evaluation.FEATURE_NAMES)}), got {len(found)}")
        return found
    return [*evaluation.WEIGHTS[:evaluation.KEEP], int(os.environ.get("BOOMBOARD_KEEP", 0))]


def settings() -> str:
    """The settings as the environment gives them, as recorded."""
    chosen = (f"keep={weights()[evaluation.KEEP]} "
              f"typical_plies={int(os.environ.get('BOOMBOARD_TYPICAL_PLIES', 120))}")
    if os.environ.get("BOOMBOARD_WEIGHTS"):
        chosen += f" weights={','.join(map(str, weights()))}"
    return chosen


# Set before the course Player builds its agent at import: games are cached,
# so the agent finds the game changed here. A game's parameter array is
# read-only (threads share it), so this process's game gets a new one, once,
# before anything has used it.
_game = load_game("expendibots")
_params = _game.params_array.copy()
_params[evaluation.P_WEIGHTS:evaluation.P_WEIGHTS + len(evaluation.WEIGHTS)] = weights()
_params.flags.writeable = False
_game.params_array = _params
type(_game).typical_plies = int(os.environ.get("BOOMBOARD_TYPICAL_PLIES", 120))

from boomboard.games.expendibots.course.player import Player  # noqa: E402,F401  (the referee plays this class)
