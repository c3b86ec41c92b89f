"""The hashed solver: every position reachable, numbered by its key in a hash
index, then scored by retrograde analysis in memory (:mod:`.driver`,
:mod:`.retrograde`), or a layer at a time on disk (:mod:`.tiers`); its
table holds the keys (:mod:`.table`). It reaches any game with a codec, any
``--position``, and loopy games. Its interface to the rest of the solver is
:func:`.driver.solve_hashed` and :class:`.table.HashedTable`."""
