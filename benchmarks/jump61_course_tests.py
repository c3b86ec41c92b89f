"""Run the Jump61 course's own test scripts against ``boomboard jump61``.

    python benchmarks/jump61_course_tests.py TESTING_FOLDER [--cold] [--program CMD]

``TESTING_FOLDER`` is a course ``testing`` folder (``tester.py``,
``testing.py``, ``test-jump61`` and the ``*-1.in``/``*.std`` scripts, as the
course hands them out; public student repositories carry copies). It is
copied to a temporary folder, every script's program line (``#* java -ea
jump61.Main``, ``#* staff-jump61``, ...) is pointed at ``--program``
(default: this checkout's ``boomboard jump61``), and the course's tester runs
every ``*-1.in``, with its own time limits (5 s to exit, and the scripts' own
``#*time`` limits). Expected outputs missing their final newline (as in some
copies) get it back; nothing else is changed. ``--cold`` runs with an empty compile cache, as on a
machine where nothing was compiled ahead. Prints the tester's report and the
pass count.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--program", default=f"{Path(sys.executable).with_name('boomboard')} jump61")
    parser.add_argument("--cold", action="store_true", help="an empty compile cache")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        testing = Path(work) / "testing"
        shutil.copytree(options.folder, testing)
        scripts = sorted(testing.glob("*.in"))
        for script in scripts:
            text = script.read_text()
            script.write_text(re.sub(r"(?m)\A(\s*#\*\s*).*$", lambda m: m.group(1) + options.program, text, count=1))
        for expected in testing.glob("*.std"):  # some copies of the scripts lost their final newline
            text = expected.read_text()
            if text and not text.endswith("\n"):
                expected.write_text(text + "\n")
        env = dict(os.environ)
        if options.cold:
            env["NUMBA_CACHE_DIR"] = str(Path(work) / "empty-cache")
        tests = sorted(path.name for path in testing.glob("*-1.in"))
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "tester.py", *tests], cwd=testing, env=env, capture_output=True,
                              text=True)
        print(done.stdout + done.stderr)
        print(f"{len(tests)} scripts, tester exit code {done.returncode}, "
              f"{time.perf_counter() - started:.0f} s wall{' (cold cache)' if options.cold else ''}")
        return done.returncode


if __name__ == "__main__":
    sys.exit(main())
