"""Deliberately simple reference engines, one per game, written apart from
the compiled engines and from the rulebook alone (see ``tests/differential.py``)."""
