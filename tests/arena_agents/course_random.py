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


def _burn(seconds):
    import time

    began = time.process_time()
    while time.process_time() - began < seconds:
        pass


class SlowStart(Player):
    """Burns CPU building itself: the course's referee charges ``Player(colour)``."""

    burn = 1.5

    def __init__(self, colour):
        _burn(self.burn)
        super().__init__(colour)


class BriefSlowStart(SlowStart):
    burn = 0.3


class BigStart(Player):
    """Allocates 150 MB building itself, past the course's 100 MB."""

    def __init__(self, colour):
        self.ballast = bytearray(150 * 2**20)
        super().__init__(colour)
