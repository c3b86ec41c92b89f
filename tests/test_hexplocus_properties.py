"""Property tests for HExplocus: the properties of test_explocus_properties.py
on the hexagonal board."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boomboard
from test_explocus_properties import CHECKS, SETTINGS


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__[6:])
@pytest.mark.parametrize("name", ["hexplocus", "hexplocus(side=3)", "hexplocus(side=4)"])
@SETTINGS
@given(data=st.data())
def test_property(check, name, data):
    check(boomboard.load_game(name), data)
