"""One folder a game. :data:`PACKAGE_GAMES` is the list of the package's games
(the registry, :mod:`boomboard.registry`, loads them); it costs no import of
a game, so the command line can find a game's folder without loading it."""

# name -> "module:Class"
PACKAGE_GAMES = {
    "expendibots": "boomboard.games.expendibots:ExpendibotsGame",
    "jump61": "boomboard.games.jump61:Jump61Game",
    "kaboom": "boomboard.games.kaboom:KaboomGame",
    "explocus": "boomboard.games.explocus:ExplocusGame",
    "hexplocus": "boomboard.games.explocus:HexplocusGame",
    "chain_reaction": "boomboard.games.chain_reaction:ChainReactionGame",
}
