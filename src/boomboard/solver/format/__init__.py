"""The table format both solvers write and every reader reads: the values
(:mod:`.values`), the checked block files (:mod:`.blockstore`), a table's
folder, ``meta.json`` and reading interface (:mod:`.table_format`), and the
work in progress of a solve (:mod:`.work_files`). It imports neither solver."""
