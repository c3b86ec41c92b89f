"""The ``boomboard`` command line: one subcommand per job."""

from __future__ import annotations

import os

# The command line never multiplies matrices: one BLAS thread, not a pool
# started (and paid for) at every start. The user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

