"""The ``boomboard`` command line: one subcommand per job."""

from __future__ import annotations

import os

# The command line never multiplies matrices: one BLAS thread, not a pool
# started (and paid for) at every start. The user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _flags_take_no_value() -> None:
    """Help lists an on/off flag as ``--open``, not ``--open <bool>`` (recent
    typer versions print a type for every option, flags included, as if they
    took a value)."""
    try:
        from typer.core import TyperOption
    except ImportError:  # pragma: no cover - another typer layout: its own help is used as is
        return
    original = getattr(TyperOption, "display_type_rich", None)
    if original is None or getattr(original, "_boomboard_flags", False):
        return

    def display_type_rich(self, ctx):
        if getattr(self, "is_flag", False) and self.metavar is None:
            return None
        return original(self, ctx)

    display_type_rich._boomboard_flags = True
    TyperOption.display_type_rich = display_type_rich


_flags_take_no_value()
