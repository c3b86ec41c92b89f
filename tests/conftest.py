"""Settings every test process shares."""

import os
from collections import Counter

import pytest

# Benchmark scripts that tests import set NUMBA_NUM_THREADS=1 if it is unset; numba refuses a change to it once a
# parallel kernel (the dense solver's) has started its threads. Fixing it here, at numba's own default, keeps it so.
os.environ.setdefault("NUMBA_NUM_THREADS", str(len(os.sched_getaffinity(0))))

# Solved tables (the ai's endgame tables, a board `boomboard compile` solved) are read and written in a folder of
# the test run's own, never the user's: a test sees only the tables it (or an earlier test of its process) made.
if "BOOMBOARD_DB" not in os.environ:
    import atexit
    import shutil
    import tempfile

    os.environ["BOOMBOARD_DB"] = tempfile.mkdtemp(prefix="boomboard-test-solved-")
    atexit.register(shutil.rmtree, os.environ["BOOMBOARD_DB"], True)

# The web app answers only for the hosts it is served on (by default the loopback names), as a browser on this machine
# names them; starlette's test client names "testserver" unless told otherwise, so here it speaks as a page on
# 127.0.0.1 does. A test of another host passes its own base_url. Like the page, a test client sends its owner token
# with every request (the games it makes are its own: docs/how-to/web.md); a test of another client passes its own.
try:
    import starlette.testclient
except ImportError:  # no web extra: no web tests
    pass
else:
    class _LoopbackTestClient(starlette.testclient.TestClient):
        def __init__(self, app, base_url: str = "http://127.0.0.1", *args, headers=None, **kwargs):
            from web_helpers import OWNER

            headers = {**OWNER, **(headers or {})}
            super().__init__(app, base_url, *args, headers=headers, **kwargs)

    starlette.testclient.TestClient = _LoopbackTestClient
    import fastapi.testclient

    fastapi.testclient.TestClient = _LoopbackTestClient



# Ray starts its processes with a preexec_fn (a signal mask, a parent-death signal), which makes subprocess run
# Python's fork hooks; JAX's hook, where a test process imported JAX before, then warns of a fork in a threaded
# process. The child only runs those two calls and execs: nothing of JAX runs there. Only the tests that start Ray
# (those that take local_ray) ignore that warning: anywhere else it would be a fork to look at.
RAYS_FORK_WARNING_IGNORED = pytest.mark.filterwarnings("ignore:os.fork\\(\\) was called:RuntimeWarning")


def pytest_collection_modifyitems(items):
    """Every test has an id of its own: tests that share one are reported, timed and selected as one, and
    pytest-xdist's file and scope schedulers (--dist loadfile, loadscope) find a test by its id, so they would run
    only the first of them. The tests that start Ray are marked to ignore its fork warning (above)."""
    shared = sorted(nodeid for nodeid, count in Counter(item.nodeid for item in items).items() if count > 1)
    if shared:
        raise pytest.UsageError(f"{len(shared)} test ids are each shared by more than one test: {', '.join(shared[:5])}")
    for item in items:
        if "local_ray" in getattr(item, "fixturenames", ()):
            item.add_marker(RAYS_FORK_WARNING_IGNORED)


@pytest.fixture(scope="module")
def browser():
    """One headless chromium for a test module (tests/browser_helpers.py): each page a test opens is a context
    of its own (its own storage and cookies). Not one for the whole process: Playwright's synchronous API keeps
    an event loop running in the main thread while it is open, and later tests' asyncio.run() would fail."""
    from browser_helpers import chromium_browser

    with chromium_browser() as chromium:
        yield chromium


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """One ``boomboard serve`` for the browser tests of a test process (tests/web_helpers.py), as a person's: one
    AI worker, an empty tournaments database of its own, and an analysis queued (a loaded machine) rather than
    refused. Its tests look only at the games they made (by id, or the newest listed, which no game left playing
    can push down); a test that needs other options, or stops or breaks its server, defines its own ``server``."""
    from web_helpers import serving

    folder = tmp_path_factory.mktemp("web")
    with serving(folder, "--workers", "1", "--arena-db", str(folder / "arena.sqlite3"),
                 "--ai-max-queue-wait", "300") as address:
        yield address


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray instance of one CPU for a test module (modules that need Ray
    skip themselves where it is not installed)."""
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
