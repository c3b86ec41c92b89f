"""Running a script with and without numba's compiler, for the tests that
check the compiled kernels also run as plain Python with the same results."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def run_json_script(script: str, disable_jit: str) -> object:
    """Run ``script`` in a fresh interpreter with ``NUMBA_DISABLE_JIT`` set to
    ``disable_jit``; return the JSON it prints."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": disable_jit}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
