"""What the rules page and the shared-position page show: built from the
registry and each game's own folder, so nothing here names a game."""

from __future__ import annotations

from ..core.state import action_id
from ..game_rules import rules_example, rules_html
from ..registry import game_class, load_game
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
    start a game from. The line is replayed once, wording each move as it goes."""
    game = load_game(game_string)
    state = game.new_initial_state() if position is None else game.state_from_notation(position)
    words, before = [], None
    for ply, action in enumerate(actions):
        if action_id(action) not in state.legal_actions():
            state.apply_action(action)  # raises the error that says why (game over, not a legal move)
        words.append(state.action_to_string(action))
        if ply == len(actions) - 1:  # the position the last move's cascade starts from
            before = state.array.copy()
        state.apply_action(action)
    steps = [] if before is None else cascade_steps(game, before, actions[-1])
    extra = {"id": None, "source": "position", "thinking": False, "length": len(actions),
             "all_actions": list(actions)}
    return describe_state(state, BOTH_HUMAN, state.outcome(), steps, extra=extra, moves=words)
