-- 021_consents.sql: what a lobby game's opener asks of its players (a pause, more time for the step) and who agreed: it is done once every other person in the game has.

-- One ask a game at most, at the step it was made: it lapses when the
-- game moves on or a new ask replaces it.
CREATE TABLE consent_asks (
    game_id  INTEGER PRIMARY KEY REFERENCES games(id),
    what     TEXT NOT NULL CHECK (what IN ('pause', 'extend')),
    secs     INTEGER NOT NULL DEFAULT 0,
    turn     INTEGER NOT NULL,
    asked_by TEXT NOT NULL COLLATE NOCASE,
    asked_at TEXT NOT NULL
);
-- Who agreed to the game's ask (an address a person seat holds).
CREATE TABLE consent_given (
    game_id INTEGER NOT NULL REFERENCES games(id),
    address TEXT NOT NULL COLLATE NOCASE,
    at      TEXT NOT NULL,
    PRIMARY KEY (game_id, address)
);
