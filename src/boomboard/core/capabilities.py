"""What a game provides, by who uses it: its capabilities.

Every game provides the **engine**: its rules, notation and outcome, enough
to play in the terminal (by its position notation) and the arena. Each other
capability serves one kind of consumer, as OpenSpiel's games say what they
provide (``provides_observation_tensor``) and GamesmanOne gives a game
separate solver, gameplay and UI interfaces. A game declares the ones it
provides in its class (``capabilities = ("search", "play", "learning")``);
the game contract (:mod:`boomboard.core.contract`) then requires their
items of it, and each consumer checks its own capability when it is used
(:func:`require_capability`, :func:`require_kernels`), naming what is
missing in one line. So a game can land engine-first and grow.
"""

from __future__ import annotations

from .errors import MissingCapabilityError

ENGINE = "engine"
SEARCH = "search"
PLAY = "play"
LEARNING = "learning"
SOLVER = "solver"
CAPABILITIES = {
    ENGINE: "the rules, the notation and the outcome, for the terminal, the arena and the shared engine tests",
    SEARCH: "a static evaluation (the kernels evaluate and is_explosive), for alpha-beta, `ai`, MCTS and the analysis",
    PLAY: "pictures and gestures (board_view, geometry.py, apply_action_steps, rules.md), for the web app, "
          "the terminal's board and animations",
    LEARNING: "the observation tensor (observation.py, encode_observation), for training, the vector environment "
              "and the RL adapters",
    SOLVER: "a perfect key codec, dense ranking or endgames, for the strong solver (found by what the game defines)",
}
DECLARED = (SEARCH, PLAY, LEARNING)  # declared in ``capabilities``; the solver's groups are found by presence

# The kernels of kernels.py that belong to a capability other than the engine.
KERNELS = {
    "evaluate": SEARCH, "is_explosive": SEARCH, "proof_moves": SEARCH, "mirror_key": SEARCH,
    "apply_action_steps": PLAY, "encode_observation": LEARNING,
    "encode": SOLVER, "decode": SOLVER, "layer_of": SOLVER,
    **{name: SOLVER for name in ("dense_tier_count", "dense_level_count", "dense_tier_size", "dense_tier_level",
                                 "dense_child_levels", "dense_locate", "dense_unrank", "dense_unrank_next",
                                 "dense_mirror_tier", "dense_mirror")},
}


def capabilities_of(game) -> tuple[str, ...]:
    """The capabilities a game (a class or an instance) declares, the engine first."""
    cls = game if isinstance(game, type) else type(game)
    declared = getattr(cls, "capabilities", ())
    return (ENGINE, *declared) if isinstance(declared, tuple) else (ENGINE,)


def provides(game, capability: str) -> bool:
    """Whether a game (a class or an instance) provides ``capability``: the
    engine, or one of :data:`DECLARED` that it declares."""
    if capability not in (ENGINE, *DECLARED):
        raise ValueError(f"unknown capability {capability!r}; declared ones are {', '.join(DECLARED)}")
    return capability in capabilities_of(game)


def require_capability(game, capability: str, consumer: str) -> None:
    """Raise :class:`MissingCapabilityError`, in one line naming what is
    missing, unless the game provides ``capability``, which ``consumer``
    (the web app, a search, ...) needs."""
    if not provides(game, capability):
        cls = game if isinstance(game, type) else type(game)
        raise MissingCapabilityError(
            f"{getattr(cls, 'title', cls.__name__)} does not provide the {capability} capability, which {consumer} "
            f"needs: {CAPABILITIES[capability]}; a game provides it by adding {capability!r} to its capabilities "
            "(docs/explanation/engine.md, 'Capabilities')")


def require_kernels(game, names: tuple[str, ...], consumer: str) -> None:
    """Raise :class:`MissingCapabilityError`, in one line, unless the game's
    ``kernels.py`` exports every kernel of ``names``, which ``consumer`` (a
    kernel template) calls: naming the capability they belong to where the
    game does not declare it, else the kernels themselves."""
    missing = [name for name in names if not hasattr(game.kernels, name)]
    if not missing:
        return
    for name in missing:
        if KERNELS.get(name) in DECLARED:
            require_capability(game, KERNELS[name], consumer)
    raise MissingCapabilityError(f"{game.title} does not export {', '.join(missing)} from its kernels.py, "
                                 f"which {consumer} needs")
