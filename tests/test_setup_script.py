"""scripts/setup, run against a stand-in pip: it shows what it installs as it
goes (a line a package), without pip's other chatter, and still fails when
pip does."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parents[1] / "scripts" / "setup"

# A stand-in for .venv/bin/python: as "-m pip install" it writes what pip
# writes on a first install (nothing with --quiet), then exits with $PIP_EXIT.
FAKE_PYTHON = """#!/usr/bin/env bash
case " $* " in *" --quiet "*) exit "${PIP_EXIT:-0}" ;; esac
echo "Obtaining file://$PWD"
echo "Collecting numba>=0.59 (from boomboard==0.1.0)"
echo "  Downloading numba-0.60.0-cp311-cp311-manylinux2014_x86_64.whl (3.7 MB)"
echo "Requirement already satisfied: rich in ./.venv/lib/python3.11/site-packages"
echo "Processing /wheels/numpy-2.0.0-cp311-cp311-manylinux_2_17_x86_64.whl (from boomboard==0.1.0)"
echo "Installing collected packages: numpy, numba, boomboard"
exit "${PIP_EXIT:-0}"
"""


def run_setup(tmp_path: Path, pip_exit: int, *options: str) -> subprocess.CompletedProcess:
    (tmp_path / "scripts").mkdir()
    shutil.copy(SETUP, tmp_path / "scripts" / "setup")
    bin_folder = tmp_path / ".venv" / "bin"
    bin_folder.mkdir(parents=True)
    (bin_folder / "python").write_text(FAKE_PYTHON)
    (bin_folder / "boomboard").write_text("#!/usr/bin/env bash\necho \"compile ran\"\n")
    for tool in bin_folder.iterdir():
        tool.chmod(0o755)
    env = {**os.environ, "PYTHON": sys.executable, "PIP_EXIT": str(pip_exit)}
    return subprocess.run(["bash", str(tmp_path / "scripts" / "setup"), "web", *options], capture_output=True,
                          text=True, env=env, timeout=60)


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("awk") is None, reason="needs bash and awk")
def test_setup_names_each_package_it_installs_and_nothing_else_of_pips(tmp_path):
    done = run_setup(tmp_path, pip_exit=0)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Installing boomboard[web] and what it needs into .venv")
    assert [line for line in lines if "boomboard==" in line] == [
        "  Collecting numba>=0.59 (from boomboard==0.1.0)",
        "  Processing /wheels/numpy-2.0.0-cp311-cp311-manylinux_2_17_x86_64.whl (from boomboard==0.1.0)"]
    assert not any(word in done.stdout for word in ("Downloading", "already satisfied", "Obtaining"))
    assert "compile ran" in done.stdout


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("awk") is None, reason="needs bash and awk")
def test_setup_fails_when_pip_fails(tmp_path):
    done = run_setup(tmp_path, pip_exit=1)
    assert done.returncode == 1
    assert "compile ran" not in done.stdout


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("awk") is None, reason="needs bash and awk")
def test_setup_can_leave_the_compile_for_later(tmp_path):
    done = run_setup(tmp_path, 0, "--compile-later")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("Installing boomboard[web] and what it needs")  # the extra still read
    assert "compile ran" not in done.stdout
