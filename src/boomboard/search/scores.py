"""Search scores, in centi-units of a game's evaluation: forced results lie
beyond :data:`MATE_BOUND`, a win in ``n`` plies scoring ``WIN - n``."""

WIN = 1_000_000
INFINITY = 2_000_000
MATE_BOUND = WIN - 1000  # scores beyond this are forced wins or losses
