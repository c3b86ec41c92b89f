"""The benchmark scripts' results files: one JSON object a line, appended as
each game ends, so that a run that stops resumes where it stopped."""

from __future__ import annotations

import json
from pathlib import Path


def read_records(path: str | Path) -> list[dict]:
    """Every record in ``path`` (none if it does not exist yet)."""
    path = Path(path)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
