"""The web app's settings as one object, :class:`WebSettings`: what
``boomboard serve``'s options set, built by the command line and by any
program (a test included) that builds the app in code."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .guard import RequestGuard
from .limits import ServerLimits
from .service import SESSIONS_KEPT, WATCH_GRACE_SECONDS, AgentLimits


@dataclass(frozen=True)
class WebSettings:
    """How :func:`~boomboard.web.create_app` builds the app; each field is
    the ``boomboard serve`` option of that name, its default the option's.

    ``arena_db``: the arena's record store shown by the replay and
    tournament pages (a :class:`~boomboard.core.errors.ParameterError` if
    it cannot be used; default: the arena's own file, none if that cannot
    be used). ``solver_db``: the folder of solved tables behind the
    solver's values and the ``solver`` side (default: the solver's own,
    ``BOOMBOARD_DB`` or the user's data directory; see
    ``docs/explanation/solver.md``). ``workers``: the processes that
    compute AI moves and analyses (default 2, or fewer on a machine that
    holds fewer; past the machine's cores and memory, a ``ParameterError``
    that names the limit); 0, as ``--workers 0``: threads of the server,
    which stall it while an AI searches. ``limits``
    (:class:`~boomboard.web.service.AgentLimits`): the most each agent
    setting may ask, the AI work one client may run at once, and how long
    a request's AI work may wait for a worker. ``sessions_kept``: the idle
    games held in memory (besides those whose AI is thinking); the others
    are read back from the database when asked for. ``guard``
    (:class:`~boomboard.web.guard.RequestGuard`): which hosts the app
    answers for and which proxies' ``X-Forwarded-For`` it believes
    (default: that of a server on a loopback address, which answers only
    for ``localhost``, ``127.0.0.1`` and ``::1`` and reads no proxy
    header). ``models``: a folder of learned models a ``learned`` side may
    name, besides those shipped (:class:`~boomboard.web.models.ModelShelf`;
    a request names a model, never a path).
    ``server_limits`` (:class:`~boomboard.web.limits.ServerLimits`): what
    requests, event streams and slow clients may hold. ``lab_store``: the
    store ``boomboard explore`` writes, which the lab's page reads
    (default: :func:`boomboard.lab.default_store`). ``watch_grace``: the
    seconds an AI-vs-AI game nobody looks at runs on before it is stopped.
    """

    arena_db: str | Path | None = None
    solver_db: str | Path | None = None
    workers: int | None = None
    limits: AgentLimits | None = None
    sessions_kept: int = SESSIONS_KEPT
    guard: RequestGuard | None = None
    models: str | Path | None = None
    server_limits: ServerLimits | None = None
    lab_store: str | Path | None = None
    watch_grace: float = WATCH_GRACE_SECONDS
