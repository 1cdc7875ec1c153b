-- 020_stuck_games.sql: games that cannot move on for a reason that is not a player's (a bot's order refused, a bot that finds none): the step, why, since when, and whether the host's alert told of it.

-- One row a game at most: the last step it stuck at. The row stays when
-- the game moves on; it counts only while turn is the game's turn.
CREATE TABLE game_stuck (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    turn    INTEGER NOT NULL,
    why     TEXT NOT NULL,
    since   TEXT NOT NULL,
    alerted INTEGER NOT NULL DEFAULT 0 CHECK (alerted IN (0, 1))
);
