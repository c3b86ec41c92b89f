"""Settings every test process shares."""

import os

# Benchmark scripts that tests import set NUMBA_NUM_THREADS=1 if it is unset; numba refuses a change to it once a
# parallel kernel (the dense solver's) has started its threads. Fixing it here, at numba's own default, keeps it so.
os.environ.setdefault("NUMBA_NUM_THREADS", str(len(os.sched_getaffinity(0))))
