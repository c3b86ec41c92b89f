"""The broken game's class: no ``board_view``, a ``string_to_action`` without
its ``state``, and an end reason on a shared code."""

import numpy as np

from boomboard.core.game import Game
from boomboard.core.geometry import Presentation
from boomboard.core.outcome import EndReasons, Reason

from . import rules


class BrokenGame(Game):
    """A counter to 3 that breaks the game contract."""

    name = "broken_game"
    title = "Broken"
    player_names = ("first", "second")
    capabilities = ("search", "play", "learning")  # all claimed: their items are checked
    rules = rules
    end_reasons = EndReasons(Reason(rules.REASON_STUCK, "STUCK", "the counter reached 3"))
    presentation = Presentation(colours=("#000000", "#ffffff"))

    def num_distinct_actions(self) -> int:
        return 1

    def max_game_length(self) -> int:
        return 3

    def _build_params_array(self, values):
        return np.zeros(1, dtype=np.int32)

    def _build_initial_array(self):
        return np.zeros(rules.COUNTER + 1, dtype=np.int32)

    def array_from_notation(self, text):
        return self._build_initial_array()

    def position_to_notation(self, state):
        return str(int(state.array[rules.COUNTER]))

    def action_to_string(self, state, action):
        return "add"

    def string_to_action(self, text):
        return 0
