"""A course-protocol Expendibots player written for the tests: it keeps its own
board from the updates it is given and plays a random legal action, booming
whenever a boom takes more enemy tokens than own ones."""

import random

import boomboard


class Player:
    def __init__(self, colour):
        self.colour = colour
        self.state = boomboard.load_game("expendibots").new_initial_state()
        self.random = random.Random(7)
        self.updates = 0

    def action(self):
        actions = [self.state.action_to_tuple(a) for a in self.state.legal_actions()]
        return self.random.choice(actions)

    def update(self, colour, action):
        assert colour in ("white", "black")
        self.state.apply_action(self.state.tuple_to_action(action))
        self.updates += 1


class OffBoard(Player):
    def action(self):
        return ("MOVE", 1, (0, 0), (0, -1))


class NotAnAction(Player):
    def action(self):
        return "BOOM!"
