"""The per-process caches of loaded things keep only the entries used last
(boomboard.core.recent.Recent): a process asked for ever new games, tables or
work folders does not grow without end."""

from __future__ import annotations

import pytest

from boomboard.core.recent import Recent


def test_it_keeps_the_entries_used_most_recently():
    cache = Recent(3)
    for key in "abcd":
        cache[key] = key.upper()
    assert cache.keys() == ["b", "c", "d"] and "a" not in cache
    assert cache.get("b") == "B"  # a read counts as a use: b is now the newest
    cache["e"] = "E"
    assert cache.keys() == ["d", "b", "e"]
    assert cache["d"] == "D" and cache.get("c") is None and len(cache) == 3


def test_a_cache_of_nothing_is_refused():
    with pytest.raises(ValueError, match="at least one"):
        Recent(0)


def test_the_solver_s_per_process_caches_are_bounded():
    from boomboard.solver import endgames
    from boomboard.solver.dense import ray as dense_ray

    for cache in (endgames._loaded, dense_ray._layouts, dense_ray._readers):
        assert isinstance(cache, Recent) and cache.size <= 8
