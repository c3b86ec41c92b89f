"""Issue 15: Schemathesis fuzzes the web app against its own OpenAPI schema
(in process, no server): every operation, with checks for server errors,
status codes and response conformance. No request may cause a 5xx."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from boomboard.web import WebSettings, create_app  # noqa: E402
from boomboard.web.guard import RequestGuard  # noqa: E402
from boomboard.web.service import AgentLimits  # noqa: E402
from web_fakes import FakeArena  # noqa: E402

# 30 examples an operation keep CI under a minute; BOOMBOARD_FUZZ_EXAMPLES=500 searches deeper (random seeds)
EXAMPLES = int(os.environ.get("BOOMBOARD_FUZZ_EXAMPLES", "30"))
DEEP = "BOOMBOARD_FUZZ_EXAMPLES" in os.environ
_FOLDER = Path(tempfile.mkdtemp(prefix="boomboard-schemathesis-"))
atexit.register(shutil.rmtree, _FOLDER, True)  # made at import, so no fixture removes it
# small limits: AIs that the fuzzer starts answer at once (threads, no worker processes); Schemathesis's
# in-process client names the host "testserver", which the app answers only when told to
APP = create_app(_FOLDER / "web.sqlite3",
                 WebSettings(workers=0, limits=AgentLimits(time=0.05, game_time=0.5, depth=2, simulations=50,
                                                           table_bits=12, per_client=2),
                             guard=RequestGuard.for_server("127.0.0.1", ["testserver"])),
                 arena=FakeArena())


async def without_lifespan(scope, receive, send):
    """The app, its start-up and shutdown done once for the whole test module
    (Schemathesis's client runs them around every call; the app's shutdown
    closes its database)."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            kind = message["type"].rsplit(".", 1)[-1]
            await send({"type": f"lifespan.{kind}.complete"})
            if kind == "shutdown":
                return
    await APP(scope, receive, send)


schema = schemathesis.openapi.from_asgi("/openapi.json", without_lifespan)

# Games the fuzzer may start besides its own random text (which is never a game): small ones, so that
# its sequences reach a live game's moves, undo, resignation and analyses, and each search is quick.
REAL_GAMES = st.fixed_dictionaries({
    "game": st.sampled_from(["kaboom", "jump61(size=3)", "explocus(size=4)", "chain_reaction(rows=3,cols=3)"]),
    "players": st.sampled_from([["human", "human"], ["human", "random"], ["greedy", "human"]]),
})


@schema.hook
def before_generate_body(context, strategy):
    operation = context.operation
    if operation is not None and operation.method.upper() == "POST" and operation.path == "/api/games":
        return st.one_of(REAL_GAMES, strategy)
    return strategy


def _no_server_error(case):
    response = case.call()
    assert response.status_code < 500, f"{case.method} {case.formatted_path} -> {response.status_code}: " \
                                       f"{response.text[:500]}"
    # positive_data_acceptance: the schema cannot say which strings are games,
    # notations or agent specs, so schema-valid requests may rightly get a 400
    case.validate_response(response, excluded_checks=[positive_data_acceptance])


def _operation_test(operation):
    """The check of one API operation, as a test function of its own. One
    `schema.parametrize()` over every operation gives all of them the same
    test id under pytest 9, and pytest-xdist's file and scope schedulers then
    run only the first."""
    @schema.include(method=operation.method, path=operation.path).parametrize()
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=not DEEP)
    def test(case):
        _no_server_error(case)
    return test


for _operation in (result.ok() for result in schema.get_all_operations()):
    globals()["test_no_request_makes_a_server_error_on_" + re.sub(r"\W+", "_", _operation.label).strip("_")] = \
        _operation_test(_operation)


# -- the stateful phase: sequences of calls, each using what an earlier one answered ----------------

# Scenarios (each of up to STEPS calls) that CI runs: about half a minute; BOOMBOARD_FUZZ_EXAMPLES raises both.
SCENARIOS = max(EXAMPLES // 2, 10)
STEPS = 6 if not DEEP else 12


class Workflow(schema.exclude(path_regex=r"/events$").as_state_machine()):
    """Schemathesis's state machine over the app's operations, linked where
    one answers what another asks for (a new game's id, a tournament's).
    The event stream is left out: on a live game it lasts as long as the game."""

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        assert response.status_code < 500, f"{case.method} {case.formatted_path} -> {response.status_code}: " \
                                           f"{response.text[:500]}"
        case.validate_response(response, additional_checks=additional_checks, excluded_checks=[positive_data_acceptance])


TestStatefulWorkflow = Workflow.TestCase
TestStatefulWorkflow.settings = settings(max_examples=SCENARIOS, stateful_step_count=STEPS, deadline=None,
                                         suppress_health_check=list(HealthCheck), derandomize=not DEEP)
