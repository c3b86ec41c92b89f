"""The arena: agents in their own processes play matches and tournaments,
recorded in SQLite, rated with Elo and SPRT; plus the games' own protocols
(the Expendibots course's Player and referee, the Jump61 text program, and
a text engine protocol for every game)."""
