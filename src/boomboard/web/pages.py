"""What the rules page and the shared-position page show: built from the
registry and each game's own folder, so nothing here names a game."""

from __future__ import annotations

from ..game_rules import rules_example, rules_html
from ..registry import game_class, load_game
from .analysis import rebuild
from .cascade import cascade_steps
from .service import describe_state

BOTH_HUMAN = ["human", "human"]


def rules_page(name: str) -> dict:
    """``{name, title, html, example}``: the game's rules as HTML and, where
    the rules name one, an example position with the steps of its move."""
    cls = game_class(name)
    example = None
    found = rules_example(cls.name)
    if found is not None:
        game_string, position, move = found
        game = load_game(game_string)
        state = game.state_from_notation(position)
        action = state.string_to_action(move)
        example = {"state": describe_state(state, BOTH_HUMAN, None, []), "move": state.action_to_string(action),
                   "steps": cascade_steps(game, state.array, action)}
    return {"name": cls.name, "title": cls.title, "html": rules_html(cls.name), "example": example}


def position_page(game_string: str, position: str | None, actions: list[int]) -> dict:
    """A position anyone can open from a link: the game string, the first
    position (``None``: the start) and the actions since; for analysis, or to
    start a game from."""
    state = rebuild(game_string, position, actions)
    steps = []
    if actions:
        before = rebuild(game_string, position, actions[:-1])
        steps = cascade_steps(state.game, before.array, actions[-1])
    extra = {"id": None, "source": "position", "thinking": False, "length": len(actions),
             "all_actions": list(actions)}
    return describe_state(state, BOTH_HUMAN, state.outcome(), steps, extra=extra)

