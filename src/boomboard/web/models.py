"""The learned models the web app offers, chosen by name, never by path.

Elsewhere ``learned:PATH`` plays any model file. A web request naming a
path would make the server open a file of the request's choosing: reveal
whether it exists, read all of it while every other request waits, and
play whatever it holds. So the server makes a list at its start, the
models it offers, and a request names one of them: ``learned:NAME``
(plain ``learned`` plays the model shipped for the game, as elsewhere).
The list holds the models shipped in the package and, with ``boomboard
serve --models FOLDER``, each ``NAME.msgpack`` file of that folder and each
run folder ``NAME`` in it (``boomboard train``'s, whose latest model is
played).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..agents import parse_spec
from ..core.errors import ParameterError
from ..learn.checkpoint import MODEL, PACKAGED

LEARNED = "learned"
# A name is what the spec syntax can carry: no comma, no equals sign, no slash.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def _packaged() -> dict[str, Path]:
    index = PACKAGED / "index.json"
    if not index.is_file():
        return {}
    return {Path(file).stem: PACKAGED / file for file in json.loads(index.read_text()).values()}


class ModelShelf:
    """The models on offer, by name: those shipped, then those of ``folder``
    (which take the place of a shipped one of the same name)."""

    def __init__(self, folder: str | Path | None = None):
        self.paths = _packaged()
        if folder is None:
            return
        folder = Path(folder).expanduser()
        if not folder.is_dir():
            raise ParameterError(f"--models takes a folder of model files (NAME.msgpack) or training runs, "
                                 f"got {str(folder)!r}")
        if "," in str(folder.resolve()):
            raise ParameterError(f"--models: the folder's path may not hold a comma (agent specs split at "
                                 f"commas), got {str(folder)!r}")
        for entry in sorted(folder.resolve().iterdir()):
            name = entry.stem if entry.suffix == ".msgpack" else entry.name
            if not NAME.fullmatch(name):
                continue
            if (entry.suffix == ".msgpack" and entry.is_file()) or (entry / MODEL).is_file():
                self.paths[name] = entry

    def names(self) -> list[str]:
        return sorted(self.paths)

    def resolve(self, spec: str) -> str:
        """``spec`` as an agent is built from it: a ``learned`` side's model
        name replaced by the model's path. Any other side is returned as it
        is; a model that is not on offer is a :class:`ParameterError`, the
        same whether or not a file of that name exists anywhere."""
        kind, settings = parse_spec(spec)
        name = settings.get("checkpoint")
        if kind != LEARNED or name is None:
            return spec
        if name not in self.paths:
            offered = ", ".join(self.names()) or "none"
            raise ParameterError(f"the learned side takes one of this server's models by name, not a path: "
                                 f"learned:NAME, NAME one of: {offered} (boomboard serve --models FOLDER "
                                 f"offers more); got {name!r:.80}")
        settings["checkpoint"] = str(self.paths[name])
        return f"{kind}:" + ",".join(f"{key}={value}" for key, value in settings.items())
