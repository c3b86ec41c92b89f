"""Exact results (a winning, tying, losing move) never wear a player's colour,
in any registered game: GamesmanUni's green, yellow and red where no player
is near them, another candidate where one is."""

from __future__ import annotations

import pytest

import boomboard
from boomboard.core.geometry import RESULT_CLEARANCE, Presentation, colour_distance


@pytest.mark.parametrize("name", boomboard.game_names())
def test_no_result_colour_is_near_a_players_or_another_results(name):
    presentation = boomboard.load_game(name).presentation
    results = presentation.result_colours()
    distinct = [results["win"], results["tie"], results["lose"]]
    for index, result in enumerate(distinct):
        for player in presentation.colours:
            assert colour_distance(result, player) >= RESULT_CLEARANCE, (name, result, player)
        for other in distinct[index + 1:]:
            assert colour_distance(result, other) >= RESULT_CLEARANCE, (name, result, other)
    assert results["draw"] == results["tie"] and presentation.to_json()["results"] == results


def test_gamesmanunis_colours_where_no_player_is_near_them():
    assert Presentation(colours=("#f6f1e3", "#25252b")).result_colours() == {
        "win": "#1a9a1a", "tie": "#e0c020", "lose": "#b3000c", "draw": "#e0c020"}
    green_and_red = Presentation(colours=("#d33c3c", "#2e9b46")).result_colours()
    assert green_and_red["win"] != "#1a9a1a" and green_and_red["lose"] != "#b3000c"
