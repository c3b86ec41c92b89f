"""The :class:`Game` every game subclasses: metadata, parameters and notation.

A game subclass declares its metadata and parameters as class attributes,
names its compiled ``rules`` module, and implements the few methods marked
"game-specific" below (building the arrays and reading and writing its
native notations). Everything else, the whole :class:`State` API included,
is shared. What a game must and may provide, and how registration checks
it, is written in one place: :mod:`boomboard.core.contract`.
"""

from __future__ import annotations

import importlib
import json
import threading
from functools import cached_property
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from .capabilities import PLAY, require_capability, require_kernels
from .board_view import BoardView
from .errors import NotationError
from .geometry import Presentation
from .outcome import EndReasons
from .params import Parameter, command_options, game_string, resolve
from .state import State


def _rebuild_game(cls: type[Game], values: dict[str, Any]) -> Game:
    return cls(**values)


class Game:
    """A game with fixed parameters: a factory of states and the notation's home.

    Subclasses set:

    * ``name``: the registry name (``"kaboom"``), ``title`` a display name;
    * ``parameters``: a tuple of :class:`Parameter`;
    * ``player_names``: the two players as the game calls them;
    * ``end_reasons``: the reasons its own rules end it by (:class:`EndReasons`);
    * ``presentation``: its colours and labels on the web page (:class:`Presentation`);
    * ``rules``: the module of compiled rules (see :mod:`boomboard.core.layout`);
      the game's folder also has a ``kernels.py`` exporting the game kernel
      interface (:mod:`boomboard.kernel_interface`) the shared layers compile
      against (:meth:`compiled`);
    * ``repetition_limit`` / ``action_limit`` where the game has those rules
      (set them before ``super().__init__`` or in ``_build_params_array``);
    * for the strong solver (:mod:`boomboard.solver`), optionally: the
      methods of the "solver" section below and the codec kernels ``encode``,
      ``decode`` and ``layer_of`` in ``kernels.py``; ``solver_layered`` and
      ``solver_min_tokens`` where they apply.
    * optionally ``lab_axes``: the parameters ``boomboard explore`` may sweep
      (:mod:`boomboard.lab`), each with the lowest and highest value it may
      take there (a flag: 0 and 1); the first two are a heat map's rows and
      columns, the others split the variants into families.
    * optionally the names the adapters register it under, derived from
      ``name`` and ``title`` unless set: ``openspiel_name``
      (``"boomboard_kaboom"``), ``openspiel_long_name`` (``"boomboard Kaboom"``)
      and ``pettingzoo_name`` (``"kaboom_v0"``, the module
      ``boomboard.pettingzoo.kaboom_v0``).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    player_names: ClassVar[tuple[str, str]]
    rules: ClassVar[ModuleType]
    end_reasons: ClassVar[EndReasons]
    presentation: ClassVar[Presentation]
    state_class: ClassVar[type[State]] = State
    # What the game provides beyond its engine, each for one kind of consumer
    # (boomboard.core.capabilities): "search" (an evaluation),
    # "play" (pictures and gestures), "learning" (the observation tensor).
    capabilities: ClassVar[tuple[str, ...]] = ()
    # The strongest agent setting measured for the game (docs/results/strength.md), which
    # the ``ai`` agent plays: an agent kind and its settings.
    ai_settings: ClassVar[tuple[str, dict[str, Any]]] = ("alphabeta", {})
    repetition_limit: int = 0  # a position's n-th occurrence ties (0: no such rule)
    action_limit: int = 0  # this many actions tie (0: no such rule)
    # The plies a game usually lasts, which a whole-game time budget is planned
    # for (boomboard.agents.time_manager; 0: a generic guess).
    typical_plies: ClassVar[int] = 0
    # The ``params_array`` slot where an alpha-beta search writes the player it
    # searches for (None: the evaluation is the same whoever searches). A game's
    # evaluation may read it to favour that player beyond the zero-sum score
    # (a contempt for drawn-out positions); outside a search the slot holds -1.
    params_root_slot: ClassVar[int | None] = None
    # A file in the game's folder holding its opening book (boomboard.search.book),
    # which an alpha-beta agent plays from with ``book=1``; None: the game has none.
    opening_book: ClassVar[str | None] = None
    # A file in the game's folder holding its analysis model
    # (boomboard.search.calibration): how deep the analysis board searches and
    # the curve, fitted to self-play outcomes, from its score to the first
    # player's expected score; None: depth 4 and tanh(score / 300).
    analysis_model: ClassVar[str | None] = None
    # How people may write a move where the game reads more than its own notation
    # (another program's form, say), for the terminal's help; "": only the notation.
    move_forms: ClassVar[str] = ""
    solver_layered: ClassVar[bool] = False  # every move climbs to a later layer (see solver_layer_count)
    solver_min_tokens: ClassVar[int] = 0  # > 0: solved as endgames of at most ``tokens`` tokens, this many at least
    # False: ``--method auto`` keeps the hashed solvers even where a dense spec exists
    # (a game whose dense tiers hold far more boards than it reaches: Jump61)
    solver_dense_auto: ClassVar[bool] = True
    lab_axes: ClassVar[dict[str, tuple[int, int]]] = {}  # see the class docstring; {}: nothing to sweep
    openspiel_name: ClassVar[str]  # the adapters' names: see the class docstring
    openspiel_long_name: ClassVar[str]
    pettingzoo_name: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        own = vars(cls)
        if "name" in own:  # each game its own adapter names, unless it sets them
            if "openspiel_name" not in own:
                cls.openspiel_name = f"boomboard_{cls.name}"
            if "pettingzoo_name" not in own:
                cls.pettingzoo_name = f"{cls.name}_v0"
        if "title" in own and "openspiel_long_name" not in own:
            cls.openspiel_long_name = f"boomboard {cls.title}"

    def __init__(self, **params: Any):
        self._values = resolve(self.parameters, params)
        from ..jit import announce_if_cold

        announce_if_cold([self.rules.apply_action], self.title)
        self.params_array = self._build_params_array(self._values)
        self.params_array.flags.writeable = False  # shared by every thread and state of the game
        # Each thread's own scratch for action ids (action_scratch): one buffer
        # per game shared by all threads gave them each other's legal actions.
        self._scratch = threading.local()
        from ..jit import interpreted

        with interpreted():  # a few kernel calls: not worth loading numba for
            self._initial = self._build_initial_array()
        self._initial.flags.writeable = False

    def action_scratch(self) -> np.ndarray:
        """The calling thread's scratch buffer for action ids (``int32``, one
        slot per distinct action), for kernels that write actions out, such as
        ``rules.legal_actions``. Read what a kernel wrote before the next call
        that writes it; another thread has a buffer of its own."""
        try:
            return self._scratch.actions
        except AttributeError:
            buffer = self._scratch.actions = np.empty(self.num_distinct_actions(), dtype=np.int32)
            return buffer

    # -- metadata (OpenSpiel's names) -------------------------------------------
    def get_parameters(self) -> dict[str, Any]:
        return dict(self._values)

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        raise NotImplementedError  # game-specific

    def max_game_length(self) -> int:
        raise NotImplementedError  # game-specific

    def max_legal_actions(self) -> int:
        """An upper bound on the legal actions of any position (the width of the
        rows that keep them, e.g. in :class:`boomboard.vector.VectorEnv`); a game
        whose action space is large says a smaller one."""
        return self.num_distinct_actions()

    @property
    def tracks_history(self) -> bool:
        """Whether states keep position keys for the repetition and length rules."""
        return bool(self.repetition_limit or self.action_limit)

    def command_options(self) -> str:
        """This variant's parameters as ``boomboard`` commands take them: ``--rows 3 --misere``."""
        return command_options(self.parameters, self._values)

    def __str__(self) -> str:
        return game_string(self.name, self.parameters, self._values)

    def __repr__(self) -> str:
        return f"<boomboard game {self}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __reduce__(self):
        return (_rebuild_game, (type(self), self._values))

    # -- compiled kernels -------------------------------------------------------------
    @property
    def kernels_module(self) -> str:
        """The name of the game's ``kernels.py`` (shared by games with the same rules)."""
        return self.rules.__name__.rsplit(".", 1)[0] + ".kernels"

    @cached_property
    def kernels(self) -> ModuleType:
        """The game's compiled kernels (:mod:`boomboard.kernel_interface`)."""
        return importlib.import_module(self.kernels_module)

    @cached_property
    def history_kernels(self) -> ModuleType:
        """The shared history template (:mod:`boomboard.core.history`) bound to
        this game's kernels: how a :class:`State` that keeps the keys of its
        positions plays an action."""
        return self.compiled("boomboard.core.history")

    def compiled(self, template: str, ahead: bool = False) -> ModuleType:
        """The shared kernel template ``template`` (a module name, e.g.
        ``"boomboard.search.negamax"``) compiled for this game alone. With
        ``ahead``, its functions built ahead of time (:meth:`build_ahead`)
        where they are built: they run one thread, without loading numba."""
        if ahead:
            from ..ahead import load_ahead

            built = load_ahead(template, self.kernels_module)
            if built is not None:
                return built
        from ..jit import announce_if_cold, specialize, template_kernels

        require_kernels(self, template_kernels(template), f"the compiled {template}")
        module = specialize(template, self.kernels_module)
        announce_if_cold(module, self.title)
        return module

    def build_ahead(self, template: str):
        """Build ``template``'s functions for this game ahead of time
        (:func:`boomboard.ahead.build_ahead`; needs a C compiler); their path."""
        from ..ahead import build_ahead

        return build_ahead(template, self.kernels_module, {"params": self.params_array, "state": self._initial})

    # -- the strong solver (boomboard.solver) -----------------------------------------
    # The solver stores every position under a perfect key (no two positions
    # share one), which the game's kernels ``encode`` and ``decode`` compute
    # from a small ``int64`` array, the codec spec, that the methods below
    # describe (see boomboard.kernel_interface). A game without them cannot
    # be solved; the solver itself never names a game.
    def solver_codec_spec(self, tokens: int = 0) -> tuple[list[int], int] | None:
        """The codec spec (the ``int64`` values the game's ``encode``,
        ``decode`` and ``layer_of`` read) and how many keys it may give: every
        key is below that number, an exact integer the solver checks against
        64 bits. ``tokens`` is the endgame size of a game solved as endgames
        (``solver_min_tokens``), 0 otherwise. ``None``: the game has no codec."""
        return None

    def solver_layer_count(self, spec: np.ndarray) -> int:
        """How many layers the game's ``layer_of`` numbers, 0 to this minus 1.

        A game whose every move leads to a position of a later layer (an
        acyclic game) sets ``solver_layered``, and the solver can then solve
        it a layer at a time, out of core. 1 for a game without layers."""
        return 1

    def solver_dense_spec(self) -> list[int] | None:
        """The dense spec (the ``int64`` values the game's ``dense_*`` kernels
        read) if the game can be solved densely, a tier of rank-indexed
        records at a time (:mod:`boomboard.solver.dense.kernels`); ``None`` otherwise
        (the default): the solver then stores hashed keys."""
        return None

    def dense_engine_params(self) -> np.ndarray | None:
        """The ``params`` array of the game's dense engine (the kernels of its
        folder's ``dense_engine.py``, over positions of its own that the dense
        solver plays instead of state arrays, ranked as its ``dense_*``
        kernels rank them: :mod:`boomboard.solver.dense.engine`) for this
        game's parameters; ``None`` (the default) where the game has none or
        these parameters do not fit it: the dense solver then plays state arrays."""
        return None

    def solver_start_keys(self, tokens: int) -> np.ndarray:
        """The keys (``uint64``, in any order, repeats allowed) a game solved
        as endgames (``solver_min_tokens`` > 0) is solved from: every position
        with at most ``tokens`` tokens. Games solved from their start need not
        define it."""
        raise NotImplementedError(f"{self.title} is solved from its start, not as endgames")

    # -- the prover's own engine (boomboard.search.prover) ----------------------------
    def proof_engine_params(self) -> np.ndarray | None:
        """The ``params`` array of the game's proof engine (the kernels of its
        folder's ``proof_engine.py``, over positions of its own that the prover
        searches instead of state arrays) for this game's parameters; ``None``
        (the default) where the game has none or these parameters do not
        fit it: the prover then searches state arrays."""
        return None

    # -- the game's folder ----------------------------------------------------------
    def folder_module(self, part: str) -> ModuleType:
        """The module ``part`` of the game's folder (``"geometry"`` ->
        ``boomboard.games.kaboom.geometry``), where the shared layers find
        what is the game's own."""
        return importlib.import_module(self.rules.__name__.rsplit(".", 1)[0] + "." + part)

    def geometry(self) -> ModuleType:
        """The game's drawing geometry for the web page (:mod:`boomboard.core.geometry`)."""
        require_capability(self, PLAY, "the web page's drawing")
        return self.folder_module("geometry")

    # -- states -------------------------------------------------------------------
    def initial_array(self) -> np.ndarray:
        """The engine array of the first position (read-only)."""
        return self._initial

    def new_initial_state(self) -> State:
        return self.state_class(self, self._initial.copy(), _root=self._initial)

    def state_from_array(self, array: np.ndarray) -> State:
        """A state over an engine array already checked to be a possible position."""
        array = np.ascontiguousarray(array, dtype=np.int32).copy()
        array.flags.writeable = False
        return self.state_class(self, array.copy(), _root=array)

    def state_from_notation(self, text: str) -> State:
        """A state from the game's native position notation (validated)."""
        if not isinstance(text, str):
            raise NotationError(f"expected a position as text, got {type(text).__name__}")
        return self.state_from_array(self.array_from_notation(text))

    def deserialize_state(self, text: str) -> State:
        """The inverse of :meth:`State.serialize`."""
        try:
            record = json.loads(text)
            if not isinstance(record, dict):
                raise TypeError
            actions = record["actions"]
            recorded_game = record["game"]
        except (TypeError, ValueError, KeyError, RecursionError):
            raise NotationError(
                'expected a serialized state: {"game": ..., "actions": [...], "position"?: ...}'
            ) from None
        if recorded_game != str(self):
            raise NotationError(f"the state belongs to {recorded_game!r:.80}, not to {self}")
        position = record.get("position")
        state = self.new_initial_state() if position is None else self.state_from_notation(position)
        if not isinstance(actions, list):
            raise NotationError("'actions' must be a list of action ids")
        for action in actions:
            if isinstance(action, bool) or not isinstance(action, int):
                raise NotationError(f"'actions' must hold integer action ids; got {action!r:.60}")
            state.apply_action(action)
        return state

    # -- game-specific ----------------------------------------------------------------
    def _build_params_array(self, values: dict[str, Any]) -> np.ndarray:
        raise NotImplementedError

    def _build_initial_array(self) -> np.ndarray:
        raise NotImplementedError

    def array_from_notation(self, text: str) -> np.ndarray:
        raise NotImplementedError

    def position_to_notation(self, state: State) -> str:
        raise NotImplementedError

    def position_for_people(self, state: State) -> str:
        """The position as people read and type it: the notation itself, unless
        the game's notation is written for programs (``array_from_notation``
        must read this form back too)."""
        return self.position_to_notation(state)

    def action_to_string(self, state: State, action: int) -> str:
        raise NotImplementedError

    def string_to_action(self, state: State, text: str) -> int:
        raise NotImplementedError

    def board_view(self, state: State) -> BoardView:
        require_capability(self, PLAY, "a picture of the board")
        raise NotImplementedError(f"{self.title} declares the play capability but has no board_view")
