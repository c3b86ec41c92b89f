"""A game folder that breaks the game contract on purpose (tests/test_contract.py):
registering it must fail, naming every problem. What it lacks or gets wrong:

* ``BrokenGame`` has no ``board_view`` method, and its ``string_to_action``
  forgets the ``state`` parameter;
* its end reason STUCK takes the code of the shared reason REPETITION;
* ``kernels.py`` exports ``evaluate(s)`` (the contract says ``evaluate(s, params)``),
  no ``is_explosive``, and only ``encode`` of the solver codec's three kernels;
* the folder has no ``geometry.py`` and no ``rules.md``.
"""
