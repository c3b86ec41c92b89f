"""Deliberately broken agents for the arena's tests (loaded as python:PATH:Class)."""

import os
import time

from boomboard.agents import Agent


class Raises(Agent):
    def choose_action(self, state):
        raise RuntimeError("this agent always fails")


class Hangs(Agent):
    def choose_action(self, state):
        while True:
            time.sleep(1)


class Sleeps(Agent):
    """Answers, but only after its wall-clock budget is gone."""

    def choose_action(self, state):
        time.sleep(30)
        return state.legal_actions()[0]


class Spins(Agent):
    """Burns CPU past a per-move budget, then answers."""

    def choose_action(self, state):
        began = time.process_time()
        while time.process_time() - began < 1.0:
            pass
        return state.legal_actions()[0]


class Hoards(Agent):
    """Allocates far past any sensible memory limit."""

    def choose_action(self, state):
        hoard = [bytearray(10 * 2**20) for _ in range(200)]
        return state.legal_actions()[len(hoard) % 1]


class Illegal(Agent):
    def choose_action(self, state):
        return max(state.legal_actions()) + 1000


class Malformed(Agent):
    def choose_action(self, state):
        return "A"


class Exits(Agent):
    def choose_action(self, state):
        os._exit(3)


class FailsToStart(Agent):
    def new_game(self, game, player):
        raise ValueError("cannot start")
