"""The game contract: everything a game provides, each item REQUIRED or OPTIONAL.

A game is a :class:`~boomboard.core.game.Game` subclass and the folder of its
``rules`` module (``src/boomboard/games/NAME/``). :data:`CONTRACT` lists what
the shared layers read from them, in the manner of GamesmanOne's game API
(each function of a game marked required or optional, some optional ones
going together): the class attributes, the methods with their parameters,
the compiled kernels its ``kernels.py`` exports (their parameters are those
of :mod:`boomboard.kernel_interface`), the functions and tables of its
``geometry.py`` and ``observation.py``, and the files of its folder. Each
item belongs to a capability (:mod:`boomboard.core.capabilities`): the
engine's required items are required of every game, another capability's
only of a game that declares it. Items of one ``group`` come all together
or not at all (the solver's codec, the dense solver's ranking, endgames,
the prover's move ordering, the prover's own engine, the dense solver's own
engine).

:func:`check_game` compares a game class with the contract and
:func:`require_game` raises one :class:`~boomboard.core.errors.GameContractError`
naming every item missing or with the wrong signature; the registry
(:mod:`boomboard.registry`) calls it before it hands out a game class.
``docs/explanation/engine.md`` shows :func:`contract_table`, and a test keeps the two equal.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import boomboard.kernel_interface as kernel_interface

from .capabilities import CAPABILITIES, DECLARED, ENGINE, KERNELS, LEARNING, PLAY, SEARCH, SOLVER, capabilities_of
from .errors import GameContractError
from .game import Game
from .geometry import Presentation
from .outcome import EndReasons
from .params import Parameter
from .state import State

REQUIRED = "required"
OPTIONAL = "optional"

# What an item is, and where it is looked for.
ATTRIBUTE = "class attribute"
METHOD = "method"
KERNEL = "kernel in kernels.py"
GEOMETRY = "function in geometry.py"
PROOF_ENGINE_KERNEL = "kernel in proof_engine.py"
PROOF_ENGINE_FUNCTION = "function in proof_engine.py"
DENSE_ENGINE_KERNEL = "kernel in dense_engine.py"
DENSE_ENGINE_FUNCTION = "function in dense_engine.py"
OBSERVATION = "in observation.py"
FILE = "file in the folder"


@dataclass(frozen=True)
class Item:
    """One thing a game provides. ``params`` are a method's parameters after
    ``self``, or a function's or kernel's (``None`` for an attribute, a table
    or a file); ``kind`` is the type an attribute or table must have; items of
    one ``group`` come all together or not at all."""

    name: str
    where: str
    need: str
    purpose: str
    params: tuple[str, ...] | None = None
    kind: type | tuple[type, ...] | None = None
    group: str | None = None
    capability: str = "engine"

    def signature(self) -> str:
        """The item as the table shows it: ``legal_actions(s, params, out)``, ``rules.md``."""
        return self.name if self.params is None else f"{self.name}({', '.join(self.params)})"


def _kernel(name: str, need: str, purpose: str, group: str | None = None) -> Item:
    """A kernel item, with the parameters :mod:`boomboard.kernel_interface` gives it
    and the capability :data:`~boomboard.core.capabilities.KERNELS` puts it in."""
    params = tuple(inspect.signature(getattr(kernel_interface, name)).parameters)
    return Item(name, KERNEL, need, purpose, params, group=group, capability=KERNELS.get(name, ENGINE))


def _engine_kernel(name: str, purpose: str) -> Item:
    """A kernel of the proof engine that the prover's search calls under the
    kernel interface's name, with its parameters, over the engine's positions."""
    params = tuple(inspect.signature(getattr(kernel_interface, name)).parameters)
    return Item(name, PROOF_ENGINE_KERNEL, OPTIONAL, purpose, params, group=PROOF_ENGINE, capability=SEARCH)


def _dense_engine_kernel(name: str, purpose: str) -> Item:
    """A kernel of the dense engine that the dense solver calls under the
    kernel interface's name, with its parameters, over the engine's positions."""
    params = tuple(inspect.signature(getattr(kernel_interface, name)).parameters)
    return Item(name, DENSE_ENGINE_KERNEL, OPTIONAL, purpose, params, group=DENSE_ENGINE, capability=SOLVER)


def _method(name: str, need: str, purpose: str, group: str | None = None, capability: str = ENGINE) -> Item:
    """A method item, with the parameters of :class:`Game`'s own (which documents it)."""
    params = tuple(inspect.signature(getattr(Game, name)).parameters)[1:]
    return Item(name, METHOD, need, purpose, params, group=group, capability=capability)


CODEC = "solver codec"
PROOF_ORDER = "proof ordering"
PROOF_ENGINE = "proof engine"
DENSE = "dense solver"
DENSE_ENGINE = "dense engine"
ENDGAMES = "endgames"
DENSE_KERNELS = {
    "dense_tier_count": "how many tier ids there are",
    "dense_level_count": "how many levels there are",
    "dense_tier_size": "how many ranks a tier has",
    "dense_tier_level": "the level of a tier",
    "dense_child_levels": "the levels a move from a level may lead to",
    "dense_locate": "the tier and rank of a position",
    "dense_unrank": "the position of a rank in a tier",
    "dense_unrank_next": "`dense_unrank` for the ranks of a tier in turn",
    "dense_mirror_tier": "the tier of a tier's mirror images",
    "dense_mirror": "mirror a position in place",
}

CONTRACT: tuple[Item, ...] = (
    # -- the game class -------------------------------------------------------------------
    Item("name", ATTRIBUTE, REQUIRED, "the registry name, lower case (`kaboom`)", kind=str),
    Item("title", ATTRIBUTE, REQUIRED, "the name people read (`Kaboom`)", kind=str),
    Item("player_names", ATTRIBUTE, REQUIRED, "the two players as the game calls them, the first to move first",
         kind=tuple),
    Item("rules", ATTRIBUTE, REQUIRED, "the module of compiled rules; its folder is the game's folder", kind=ModuleType),
    Item("end_reasons", ATTRIBUTE, REQUIRED, "the reasons its own rules end it by, codes and sentences (`EndReasons`)",
         kind=EndReasons),
    Item("capabilities", ATTRIBUTE, OPTIONAL, "the capabilities beyond the engine it provides: "
         "`search`, `play`, `learning`", kind=tuple),
    Item("presentation", ATTRIBUTE, REQUIRED, "its colours and labels on the web page (`Presentation`)",
         kind=Presentation, capability=PLAY),
    Item("parameters", ATTRIBUTE, OPTIONAL, "its parameters (`Parameter`), each with a default", kind=tuple),
    Item("state_class", ATTRIBUTE, OPTIONAL, "a `State` subclass with the game's own questions", kind=type),
    Item("ai_settings", ATTRIBUTE, OPTIONAL, "the agent kind and settings the `ai` agent plays", kind=tuple,
         capability=SEARCH),
    Item("repetition_limit", ATTRIBUTE, OPTIONAL, "a position's n-th occurrence ties (0: no such rule)", kind=int),
    Item("action_limit", ATTRIBUTE, OPTIONAL, "this many actions tie (0: no such rule)", kind=int),
    Item("typical_plies", ATTRIBUTE, OPTIONAL, "the plies a game usually lasts, for time budgets", kind=int),
    Item("params_root_slot", ATTRIBUTE, OPTIONAL, "where a search writes the player it searches for",
         kind=(int, type(None)), capability=SEARCH),
    Item("opening_book", ATTRIBUTE, OPTIONAL, "a file of its folder holding an opening book, or a folder of "
         "books, one per variant", kind=(str, type(None)),
         capability=SEARCH),
    Item("analysis_model", ATTRIBUTE, OPTIONAL, "a file of its folder: the analysis's depth and fitted value curve",
         kind=(str, type(None)), capability=SEARCH),
    Item("course_protocol", ATTRIBUTE, OPTIONAL, "a module of its folder whose `encode_action` and "
         "`decode_action` turn action ids into a course's action tuples and back (the arena's `course:` players)",
         kind=(str, type(None))),
    Item("move_forms", ATTRIBUTE, OPTIONAL, "the ways people may write a move, for the terminal's help", kind=str),
    Item("openspiel_name", ATTRIBUTE, OPTIONAL, "the OpenSpiel adapter's name (derived from `name`)", kind=str,
         capability=LEARNING),
    Item("openspiel_long_name", ATTRIBUTE, OPTIONAL, "the OpenSpiel adapter's long name (from `title`)", kind=str,
         capability=LEARNING),
    Item("pettingzoo_name", ATTRIBUTE, OPTIONAL, "the PettingZoo module's name (derived from `name`)", kind=str,
         capability=LEARNING),
    Item("solver_layered", ATTRIBUTE, OPTIONAL, "every move climbs to a later layer of `layer_of`", kind=bool,
         capability=SOLVER),
    Item("solver_dense_auto", ATTRIBUTE, OPTIONAL, "False: `--method auto` keeps the hashed solver", kind=bool,
         capability=SOLVER),
    Item("lab_axes", ATTRIBUTE, OPTIONAL, "the parameters `boomboard explore` sweeps, each's lowest and highest",
         kind=dict),
    Item("solver_min_tokens", ATTRIBUTE, OPTIONAL, "solved as endgames with at least this many tokens", kind=int,
         group=ENDGAMES, capability=SOLVER),
    # -- its methods ----------------------------------------------------------------------
    _method("num_distinct_actions", REQUIRED, "how many action ids there are"),
    _method("max_game_length", REQUIRED, "the most actions a game can last"),
    _method("_build_params_array", REQUIRED, "the `params` array of the parameter values"),
    _method("_build_initial_array", REQUIRED, "the state array of the first position"),
    _method("array_from_notation", REQUIRED, "the state array of a position in the game's notation, checked"),
    _method("position_to_notation", REQUIRED, "a state in the game's position notation"),
    _method("action_to_string", REQUIRED, "an action id in the game's move notation"),
    _method("string_to_action", REQUIRED, "the action id of a move in the game's notation, checked"),
    _method("board_view", REQUIRED, "the terminal's picture of a state (`BoardView`)", capability=PLAY),
    _method("position_for_people", OPTIONAL, "a state as people read and type it, if not the notation"),
    _method("max_legal_actions", OPTIONAL, "a bound on the legal actions of any position"),
    _method("solver_codec_spec", OPTIONAL, "the codec spec `encode`, `decode` and `layer_of` read", CODEC, SOLVER),
    _method("solver_layer_count", OPTIONAL, "how many layers `layer_of` numbers", capability=SOLVER),
    _method("solver_dense_spec", OPTIONAL, "the dense spec the `dense_*` kernels read", DENSE, SOLVER),
    _method("dense_engine_params", OPTIONAL, "the `params` of its dense engine's kernels, or None where the "
            "parameters do not fit that engine", DENSE_ENGINE, SOLVER),
    _method("solver_start_keys", OPTIONAL, "the keys of every endgame position the solver starts from",
            ENDGAMES, SOLVER),
    _method("proof_engine_params", OPTIONAL, "the `params` of its proof engine's kernels, or None where the "
            "parameters do not fit that engine", PROOF_ENGINE, SEARCH),
    # -- its compiled kernels ---------------------------------------------------------------
    _kernel("legal_actions", REQUIRED, "the sorted legal action ids"),
    _kernel("apply_action", REQUIRED, "play an action in place, and record a result the rules reach"),
    _kernel("position_key", REQUIRED, "a 64-bit hash of board and player to move"),
    _kernel("evaluate", REQUIRED, "a static evaluation for the player to move"),
    _kernel("is_explosive", REQUIRED, "whether an action blows something up (quiescence)"),
    _kernel("apply_action_steps", REQUIRED, "`apply_action`, recording each step for the web animation"),
    _kernel("encode_observation", REQUIRED, "the observation tensor for learning"),
    _kernel("proof_moves", OPTIONAL, "the moves the prover searches, best first, sure losses left out; their count "
            "may carry flags the game vouches for (`PROOF_SAFE`, `PROOF_OWN_MOVE_RESULTS`, `PROOF_LOST` of `core/layout.py`)",
            PROOF_ORDER),
    _kernel("mirror_key", OPTIONAL, "one key for a position and its mirror image, and which image it is",
            PROOF_ORDER),
    _kernel("encode", OPTIONAL, "a position's perfect key", CODEC),
    _kernel("decode", OPTIONAL, "the position of a perfect key", CODEC),
    _kernel("layer_of", OPTIONAL, "a position's solver layer", CODEC),
    *(_kernel(name, OPTIONAL, purpose, DENSE) for name, purpose in DENSE_KERNELS.items()),
    # -- its proof engine: positions of its own that the prover searches ----------------------
    Item("new_position", PROOF_ENGINE_FUNCTION, OPTIONAL, "an empty position of the engine: an integer array "
         "that begins with the state array's header", ("params",), group=PROOF_ENGINE, capability=SEARCH),
    Item("load_position", PROOF_ENGINE_KERNEL, OPTIONAL, "write the position of a state array into an engine "
         "position", ("state", "params", "s"), group=PROOF_ENGINE, capability=SEARCH),
    _engine_kernel("apply_action", "`apply_action` on an engine position, with the same action ids"),
    _engine_kernel("proof_moves", "`proof_moves` on an engine position"),
    _engine_kernel("mirror_key", "`mirror_key` on an engine position"),
    # -- its dense engine: positions of its own that the dense solver plays ---------------------
    Item("new_position", DENSE_ENGINE_FUNCTION, OPTIONAL, "an empty position of the engine: an integer array "
         "that begins with the state array's header", ("params",), group=DENSE_ENGINE, capability=SOLVER),
    Item("load_position", DENSE_ENGINE_FUNCTION, OPTIONAL, "the engine position of a state array, in plain "
         "Python (a solve built ahead of time never loads numba)", ("state", "params"), group=DENSE_ENGINE,
         capability=SOLVER),
    _dense_engine_kernel("legal_actions", "`legal_actions` on an engine position, with the same action ids"),
    _dense_engine_kernel("apply_action", "`apply_action` on an engine position"),
    *(_dense_engine_kernel(name, f"`{name}` on engine positions, ranked as the game's own")
      for name in DENSE_KERNELS if name != "dense_unrank"),
    # -- what the web page draws ------------------------------------------------------------
    Item("layout", GEOMETRY, REQUIRED, "the board's cells, names, centres and labels (`Layout`)", ("game",),
         capability=PLAY),
    Item("cell_contents", GEOMETRY, REQUIRED, "`[owner, text, mark]` of each cell of a state array",
         ("game", "array"), capability=PLAY),
    Item("gesture", GEOMETRY, REQUIRED, "the clicks that play a legal action", ("state", "action", "text", "names"),
         capability=PLAY),
    Item("winning_lines", GEOMETRY, OPTIONAL, "the cells that ended a finished game", ("state", "names"),
         capability=PLAY),
    # -- the observation tensor ---------------------------------------------------------------
    Item("PLANES", OBSERVATION, REQUIRED, "the names of the tensor's planes", kind=tuple, capability=LEARNING),
    Item("HIGH", OBSERVATION, REQUIRED, "the largest value a plane may hold", kind=(int, float), capability=LEARNING),
    Item("grid", OBSERVATION, REQUIRED, "`(height, width, place of each cell)` of a plane", ("game",),
         capability=LEARNING),
    Item("mirror_actions", OBSERVATION, OPTIONAL, "each action id's mirror image, for learning", ("game",),
         capability=LEARNING),
    # -- its folder ---------------------------------------------------------------------------
    Item("__init__.py", FILE, REQUIRED, "the package; exports the game class"),
    Item("rules.py", FILE, REQUIRED, "the rules as compiled kernels over the state and `params` arrays"),
    Item("kernels.py", FILE, REQUIRED, "exports the kernels the shared layers compile against"),
    Item("geometry.py", FILE, REQUIRED, "what the web page draws and clicks", capability=PLAY),
    Item("observation.py", FILE, REQUIRED, "the observation tensor's planes and `encode_observation`",
         capability=LEARNING),
    Item("rules.md", FILE, REQUIRED, "the rules for people (`rules-NAME.md` where a folder serves several games)",
         capability=PLAY),
    Item("game.py", FILE, OPTIONAL, "the game class (by convention)"),
    Item("notation.py", FILE, OPTIONAL, "the native notations, read and written (by convention)"),
    Item("course/__init__.py", FILE, OPTIONAL, "a course's programs, above the arena: `register(app)` adds "
         "their commands to `boomboard`"),
    Item("evaluation.py", FILE, OPTIONAL, "`evaluate` and `is_explosive` (by convention)", capability=SEARCH),
    Item("codec.py", FILE, OPTIONAL, "the solver codec's kernels (by convention)", capability=SOLVER),
    Item("ranking.py", FILE, OPTIONAL, "the dense solver's kernels (by convention)", capability=SOLVER),
    Item("proof_engine.py", FILE, OPTIONAL, "the proof engine's kernels, for the prover", group=PROOF_ENGINE,
         capability=SEARCH),
    Item("dense_engine.py", FILE, OPTIONAL, "the dense engine's kernels, for the dense solver", group=DENSE_ENGINE,
         capability=SOLVER),
)


def contract_table() -> str:
    """The contract as a Markdown table, by capability (``docs/explanation/engine.md`` shows it)."""
    lines = ["| capability | item | what and where | need | purpose |", "|---|---|---|---|---|"]
    for capability in CAPABILITIES:
        for item in CONTRACT:
            if item.capability == capability:
                need = item.need if item.group is None else f"{item.need}, all of *{item.group}* or none"
                lines.append(f"| {capability} | `{item.signature()}` | {item.where} | {need} | {item.purpose} |")
    return "\n".join(lines)


# -- the check ------------------------------------------------------------------------------
def check_game(cls: type) -> list[str]:
    """Every way the game class ``cls`` breaks the contract, one line each ([] if none)."""
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        return [f"{cls!r:.60} is not a subclass of boomboard.Game"]
    folder, problems = _folder_modules(getattr(cls, "rules", None))
    declared = capabilities_of(cls)
    present: dict[Item, bool] = {}
    for item in CONTRACT:
        found, wrong = _look_up(cls, item, folder)
        present[item] = found
        # a missing folder or module is said once, not once for each thing it should hold
        unreadable = folder["path"] is None if item.where == FILE else folder.get(item.where, True) is None
        if wrong:
            problems.append(f"{item.where} {item.signature()}: {wrong}")
        elif not found and item.need == REQUIRED and not unreadable and item.capability in declared:
            problems.append(f"{item.where} {item.signature()}: missing ({item.purpose}"
                            + (")" if item.capability == ENGINE else f"; the {item.capability} capability needs it)"))
    problems += _group_problems(present)
    problems += _declaration_problems(cls, folder)
    return problems


def require_game(cls: type, registered_as: str) -> None:
    """Raise :class:`GameContractError` naming every way ``cls`` breaks the contract."""
    problems = check_game(cls)
    if problems:
        raise GameContractError(f"game {registered_as!r} does not keep the game contract "
                                f"(boomboard.core.contract, docs/explanation/engine.md):\n"
                                + "\n".join(f"  - {p}" for p in problems))


def _folder_modules(rules: Any) -> tuple[dict[str, Any], list[str]]:
    """The game folder's path and the modules of it the contract reads (``None``
    where absent), and the problems of those that cannot be imported."""
    folder: dict[str, Any] = {"path": None, KERNEL: None, GEOMETRY: None, OBSERVATION: None,
                              PROOF_ENGINE_KERNEL: None, PROOF_ENGINE_FUNCTION: None, DENSE_ENGINE_KERNEL: None,
                              DENSE_ENGINE_FUNCTION: None}
    problems = []
    if not isinstance(rules, ModuleType) or not getattr(rules, "__file__", None):
        return folder, problems
    folder["path"] = Path(rules.__file__).parent
    package = rules.__name__.rpartition(".")[0]
    for where, part in ((KERNEL, "kernels"), (GEOMETRY, "geometry"), (OBSERVATION, "observation"),
                        (PROOF_ENGINE_KERNEL, "proof_engine"), (PROOF_ENGINE_FUNCTION, "proof_engine"),
                        (DENSE_ENGINE_KERNEL, "dense_engine"), (DENSE_ENGINE_FUNCTION, "dense_engine")):
        if (folder["path"] / f"{part}.py").exists():
            try:
                folder[where] = importlib.import_module(f"{package}.{part}")
            except Exception as error:  # a broken game folder is reported with the rest, not raised alone
                problems.append(f"{FILE} {part}.py: cannot be imported ({type(error).__name__}: {error})")
    return folder, problems


def _look_up(cls: type, item: Item, folder: dict[str, Any]) -> tuple[bool, str]:
    """Whether the game provides ``item``, and what is wrong with it if it does."""
    if item.where == FILE:
        return _file_present(cls, item, folder["path"]), ""
    if item.where == ATTRIBUTE:
        if not hasattr(cls, item.name):
            return False, ""
        value = getattr(cls, item.name)
        wrong = "" if isinstance(value, item.kind) else f"is a {type(value).__name__}"
        return any(item.name in vars(base) for base in cls.__mro__ if base is not Game and issubclass(base, Game)), wrong
    if item.where == METHOD:
        method = getattr(cls, item.name, None)
        if method is None or method is getattr(Game, item.name):
            return False, ""
        return True, _signature_problem(inspect.signature(method), ("self", *item.params), skip_self=True)
    module = folder[item.where]
    if module is None or not hasattr(module, item.name):
        return False, ""
    value = getattr(module, item.name)
    if item.params is None:
        return True, "" if isinstance(value, item.kind) else f"is a {type(value).__name__}"
    if item.where in (KERNEL, PROOF_ENGINE_KERNEL, DENSE_ENGINE_KERNEL) and not hasattr(value, "py_func"):
        return True, "is not compiled: declare it with boomboard.jit.njit"
    function = getattr(value, "py_func", value)
    if not callable(function):
        return True, f"is a {type(function).__name__}, not a function"
    return True, _signature_problem(inspect.signature(function), item.params)


def _file_present(cls: type, item: Item, path: Path | None) -> bool:
    if path is None:
        return False
    if item.name == "rules.md":
        return (path / "rules.md").exists() or (path / f"rules-{getattr(cls, 'name', '')}.md").exists()
    return (path / item.name).exists()


def _signature_problem(signature: inspect.Signature, expected: tuple[str, ...], skip_self: bool = False) -> str:
    """'' if the parameters are ``expected`` by name and order, else what differs."""
    names = tuple(signature.parameters)
    if names == expected:
        return ""
    shown = names[1:] if skip_self else names
    wanted = expected[1:] if skip_self else expected
    return f"takes ({', '.join(shown)}), the contract says ({', '.join(wanted)})"


def _group_problems(present: dict[Item, bool]) -> list[str]:
    problems = []
    for group in dict.fromkeys(item.group for item in CONTRACT if item.group):
        members = [item.signature() for item in CONTRACT if item.group == group]
        missing = [item.signature() for item in CONTRACT if item.group == group and not present[item]]
        if missing and len(missing) < len(members):
            problems.append(f"the {group} items come all together or not at all; missing: {', '.join(missing)}")
    return problems


def _declaration_problems(cls: type, folder: dict[str, Any]) -> list[str]:
    """What is wrong inside the declarations themselves (names, reasons, colours)."""
    problems = []
    name = getattr(cls, "name", None)
    if isinstance(name, str) and not (name.isidentifier() and name == name.lower()):
        problems.append(f"class attribute name: {name!r} must be a lower-case identifier")
    players = getattr(cls, "player_names", None)
    if isinstance(players, tuple) and not (len(players) == 2 and all(isinstance(p, str) and p for p in players)):
        problems.append(f"class attribute player_names: {players!r:.60} must be two names")
    capabilities = getattr(cls, "capabilities", ())
    unknown = [c for c in capabilities if c not in DECLARED] if isinstance(capabilities, tuple) else []
    if unknown:
        problems.append(f"class attribute capabilities: unknown {', '.join(map(repr, unknown))}; "
                        f"a game declares any of {', '.join(DECLARED)} (the engine it always provides)")
    parameters = getattr(cls, "parameters", ())
    if isinstance(parameters, tuple) and not all(isinstance(p, Parameter) for p in parameters):
        problems.append("class attribute parameters: every entry must be a boomboard Parameter")
    state_class = getattr(cls, "state_class", State)
    if isinstance(state_class, type) and not issubclass(state_class, State):
        problems.append(f"class attribute state_class: {state_class.__name__} is no subclass of boomboard.State")
    for attribute in ("end_reasons", "presentation"):
        value = getattr(cls, attribute, None)
        if isinstance(value, (EndReasons, Presentation)):
            problems += [f"class attribute {attribute}: {problem}" for problem in value.problems()]
    for attribute in ("opening_book", "analysis_model"):
        name = getattr(cls, attribute, None)
        if isinstance(name, str) and folder["path"] is not None and not (folder["path"] / name).exists():
            problems.append(f"class attribute {attribute}: no file {name!r} in the game's folder")
    return problems
