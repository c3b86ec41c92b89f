"""Asking the processor for memory before it is read: a prefetch for compiled searches.

A transposition table far larger than the caches costs a search one wait
on memory at nearly every node (the prover's look-up was about 40% of its
time). :func:`prefetch` asks for the cache line of an address and returns
at once, so a search can start the load, do other work the look-up does not
need, and find the line in the cache when it reads it (LLVM's
``llvm.prefetch``, an intrinsic written with llvmlite alone, as
:mod:`boomboard.search.clock`'s call of the C clock is). It changes no
result; run as plain Python it does nothing.
"""

from __future__ import annotations

from numba import config, types
from numba.extending import intrinsic

if config.DISABLE_JIT:
    def prefetch(address):
        """Nothing to do for plain Python (the compiled twin prefetches ``address``)."""
else:
    @intrinsic
    def prefetch(typingctx, address):
        """Start loading the cache line of ``address`` (an integer, as
        ``array.ctypes.data`` gives) for a read soon, kept in every cache level."""
        from llvmlite import ir

        signature = types.void(types.intp)

        def codegen(context, builder, sig, args):
            pointer = ir.IntType(8).as_pointer()
            function_type = ir.FunctionType(ir.VoidType(), [pointer, ir.IntType(32), ir.IntType(32), ir.IntType(32)])
            name = "llvm.prefetch.p0"
            function = builder.module.globals.get(name) or ir.Function(builder.module, function_type, name)
            read, keep_everywhere, data = (ir.Constant(ir.IntType(32), value) for value in (0, 3, 1))
            builder.call(function, [builder.inttoptr(args[0], pointer), read, keep_everywhere, data])
            return context.get_dummy_value()

        return signature, codegen
