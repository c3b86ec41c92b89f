"""Ctrl-C at random moments of a first compile: does ``boomboard solve`` stop
cleanly (exit 130, no traceback) every time?

Each trial runs ``boomboard solve jump61 --size 3`` with an empty numba cache
(so numba compiles Jump61's kernels, through llvmlite's finalizers and
callbacks) and sends it SIGINT, as a terminal does, after a random delay::

    python benchmarks/ctrl_c_during_compile.py --trials 16 --seed 11 --earliest 3.5 --latest 6.5

It prints each trial and a count of the outcomes: stopped (130), finished
(0: the Ctrl-C was lost), failed (another exit code), ended before the
Ctrl-C, and how many printed "Exception ignored" or a traceback.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter


def trial(delay: float) -> tuple[int | None, str]:
    """The solve's exit code after a Ctrl-C ``delay`` seconds in (``None``: it had ended first), and its output."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as db:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "BOOMBOARD_AHEAD": "0"}
        process = subprocess.Popen([sys.executable, "-m", "boomboard", "solve", "jump61", "--size", "3", "--db", db,
                                    "--quiet"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(delay)
        ended_first = process.poll() is not None
        process.send_signal(signal.SIGINT)
        output = process.communicate(timeout=600)[0]
        return (None if ended_first else process.returncode), output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=16)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--earliest", type=float, default=3.5, help="seconds after the start")
    parser.add_argument("--latest", type=float, default=6.5, help="seconds after the start")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    outcomes = Counter()
    for number in range(options.trials):
        delay = rng.uniform(options.earliest, options.latest)
        code, output = trial(delay)
        outcome = {130: "stopped", 0: "finished", None: "ended before the Ctrl-C"}.get(code, "failed")
        outcomes[outcome] += 1
        outcomes["printed 'Exception ignored'"] += "Exception ignored" in output
        outcomes["printed a traceback"] += "Traceback" in output
        print(f"trial {number}: Ctrl-C at {delay:.2f} s, exit {code} ({outcome})", flush=True)
    print(dict(outcomes))


if __name__ == "__main__":
    main()
