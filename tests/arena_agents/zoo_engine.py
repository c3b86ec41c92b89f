"""A zoo of hostile external engines, for the arena's tests (issue 15).

Run as ``python zoo_engine.py BEHAVIOUR``: it speaks just enough of the engine
protocol to start a game (``=`` to every command), then misbehaves when
asked to ``go``. With a folder as second argument, each process it starts
writes its pid there (a file per process), so that a test can check that none
is left behind.

Behaviours: ``busy`` (a busy loop), ``allocate`` (2 GB, page by page),
``spawn`` (starts a child, then both hang), ``illegal`` (a move
no position allows here), ``malformed`` (text in no move's form),
``no-newline`` (begins an answer and never ends its line, from the first command).
"""

import os
import subprocess
import sys
import time


def note_pid() -> None:
    folder = sys.argv[2] if len(sys.argv) > 2 else None
    if folder:
        with open(os.path.join(folder, str(os.getpid())), "w") as file:
            file.write(" ".join(sys.argv))


def answer(text: str = "") -> None:
    sys.stdout.write(f"= {text}\n\n" if text else "=\n\n")
    sys.stdout.flush()


def hang() -> None:
    while True:
        time.sleep(1)


def go(behaviour: str) -> None:
    if behaviour == "busy":
        while True:
            pass
    if behaviour == "allocate":
        hoard = []
        for _ in range(2048):  # 2 GB, each MB written so that it is resident
            hoard.append(bytearray(b"\x01" * 2**20))
        hang()
    if behaviour == "spawn":
        subprocess.Popen([sys.executable, __file__, "child", *sys.argv[2:]])
        hang()
    if behaviour == "illegal":
        answer("A1!")  # Kaboom: A1 holds no bomb at the start
        return
    if behaviour == "malformed":
        answer("this is no move")
        return
    answer("A")


def main() -> None:
    behaviour = sys.argv[1]
    note_pid()
    if behaviour == "child":
        hang()
    for line in sys.stdin:
        command = line.split()[0] if line.split() else ""
        if behaviour == "no-newline":
            sys.stdout.write("= kaboom")
            sys.stdout.flush()
            hang()
        if command == "quit":
            answer("bye")
            return
        if command == "go":
            go(behaviour)
        else:
            answer()


if __name__ == "__main__":
    main()
