"""A course player whose module takes 1.5 s of CPU to import: the course's
referee imports players before its clocks run, so that is not charged."""

import time

from course_random import Player  # noqa: F401  (the player itself is quick)

_began = time.process_time()
while time.process_time() - _began < 1.5:
    pass
