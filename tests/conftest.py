"""Settings every test process shares."""

import os

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
