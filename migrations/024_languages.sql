-- 024_languages.sql: the language each player reads, kept for her address (LANGUAGE fr, by mail in any game or the lobby; ngoma new --player NAME=ADDRESS:fr); a player without one reads the host's (the language setting).
CREATE TABLE player_languages (
    address  TEXT PRIMARY KEY COLLATE NOCASE,
    language TEXT NOT NULL CHECK (length(language) BETWEEN 2 AND 8),
    set_at   TEXT NOT NULL
);
