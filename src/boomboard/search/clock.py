"""The process's CPU time, readable inside compiled code.

Searches keep to a CPU-time budget by reading the clock every few thousand
nodes. numba cannot cache a function that calls a C function through ctypes
(the address is baked in), so the address of ``clock_gettime`` travels as an
ordinary integer argument and a small intrinsic calls it; compiled code stays
cacheable. Where there is no ``clock_gettime`` (Windows) the address is 0,
the clock reads -1, and searches fall back to their node estimates.
"""

from __future__ import annotations

import ctypes
import sys
import time

import numpy as np
from numba import config, types

from boomboard.jit import njit
from numba.extending import intrinsic

# CLOCK_PROCESS_CPUTIME_ID differs between systems.
_CPU_CLOCK_IDS = {"linux": 2, "darwin": 12}


def _clock_gettime_address() -> int:
    if sys.platform not in _CPU_CLOCK_IDS:
        return 0
    try:
        return ctypes.cast(ctypes.CDLL(None).clock_gettime, ctypes.c_void_p).value or 0
    except (OSError, AttributeError):
        return 0


CLOCK_ADDRESS = _clock_gettime_address()
CLOCK_ID = _CPU_CLOCK_IDS.get(sys.platform, 0)


def new_timespec() -> np.ndarray:
    """The two-int64 buffer (seconds, nanoseconds) the clock writes into."""
    return np.zeros(2, np.int64)


if config.DISABLE_JIT:
    def cpu_nanoseconds(address, clock_id, timespec):
        """CPU nanoseconds used by this process (plain-Python twin of the compiled one)."""
        return time.process_time_ns() if address else -1
else:
    @intrinsic
    def _clock_gettime(typingctx, address, clock_id, timespec_address):
        from llvmlite import ir

        signature = types.int32(types.intp, types.int64, types.intp)

        def codegen(context, builder, sig, args):
            function_address, clock, spec = args
            function_type = ir.FunctionType(ir.IntType(32), [ir.IntType(32), ir.IntType(8).as_pointer()])
            function = builder.inttoptr(function_address, function_type.as_pointer())
            return builder.call(function, [builder.trunc(clock, ir.IntType(32)),
                                           builder.inttoptr(spec, ir.IntType(8).as_pointer())])

        return signature, codegen

    @njit(cache=True)
    def cpu_nanoseconds(address, clock_id, timespec):
        """CPU nanoseconds used by this process, or -1 without a clock."""
        if address == 0:
            return -1
        _clock_gettime(address, clock_id, timespec.ctypes.data)
        return timespec[0] * 1_000_000_000 + timespec[1]
