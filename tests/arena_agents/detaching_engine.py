"""An external engine that plays legal moves and, at each ``go``, leaves a
background sleeper behind that has detached itself: ``setsid`` runs a shell
in a session of its own, which starts ``sleep`` in the background and exits,
so the sleeper is in neither the engine's process group nor its tree.

Run as ``python detaching_engine.py FOLDER [hang]``: each sleeper's pid is
written to FOLDER (a file per sleeper), so that a test can check that none
outlives the game. With ``hang``, the engine never answers its first ``go``
(after leaving its sleeper), so that the referee kills it mid-game.
"""

import os
import subprocess
import sys
import time

from boomboard.arena.engine_session import EngineSession

DETACH = "sleep 600 </dev/null >/dev/null 2>&1 & echo $!"


def leave_a_sleeper(folder: str) -> None:
    shell = subprocess.run(["setsid", "sh", "-c", DETACH], capture_output=True, text=True, check=True)
    sleeper = shell.stdout.strip()
    with open(os.path.join(folder, sleeper), "w") as file:
        file.write("sleep 600, detached with setsid")


def main() -> None:
    folder = sys.argv[1]
    session = EngineSession("random", seed=1)
    for line in sys.stdin:
        if not line.strip():
            continue
        if line.split()[0] == "go":
            leave_a_sleeper(folder)
            while sys.argv[2:] == ["hang"]:
                time.sleep(1)
        ok, text = session.handle(line)
        sys.stdout.write(("= " if ok else "? ") + text + "\n\n")
        sys.stdout.flush()
        if line.strip() == "quit":
            return


if __name__ == "__main__":
    main()
