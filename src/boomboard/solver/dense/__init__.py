"""The dense solver: positions ranked by the game (tier, rank), scored a level
at a time from the levels below (:mod:`.kernels`, :mod:`.levels`), here or on
a Ray cluster (:mod:`.ray`), the records stored by rank with no keys
(:mod:`.table`). It reaches games that rank their positions, from their
start. Its interface to the rest of the solver is :func:`.driver.solve_dense`
and :class:`.table.DenseTable`."""
