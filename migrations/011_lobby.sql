-- 011_lobby.sql: the lobby at the bare address (confirmed addresses, open games and their players, invitations, watchers) and every game's seed commitment, so that anyone can check its shuffles.
ALTER TABLE games ADD COLUMN base_seed INTEGER;      -- the committed seed (secret until the game ends); games.seed deals
ALTER TABLE games ADD COLUMN seed_commitment TEXT;   -- SHA-256 of "ngoma-seed MODULE BASE_SEED OPTIONS\n", published at once
ALTER TABLE games ADD COLUMN salts TEXT NOT NULL DEFAULT '[]'; -- the players' SALT words in seat order (JSON)

-- An address that proved it reads its mail: it answered a mail with its token.
CREATE TABLE lobby_addresses (
    address       TEXT PRIMARY KEY COLLATE NOCASE,
    token         TEXT NOT NULL,          -- mailed to it; a reply carrying it confirms
    token_sent_at TEXT NOT NULL,
    confirmed_at  TEXT,                   -- NULL until confirmed
    pending       TEXT                    -- the command that waits for the confirmation
);

-- A game opened by mail, waiting for its players. Its id is the number the
-- game will have (games and tables share one numbering).
CREATE TABLE lobby_tables (
    id            INTEGER PRIMARY KEY,
    module        TEXT NOT NULL,
    seats         INTEGER NOT NULL CHECK (seats >= 1),
    options       TEXT NOT NULL,          -- JSON, every declared option filled in
    deadline_secs INTEGER NOT NULL DEFAULT 0,
    nmr           TEXT NOT NULL DEFAULT 'wait' CHECK (nmr IN ('wait', 'bot', 'drop')),
    host_email    TEXT NOT NULL COLLATE NOCASE,
    base_seed     INTEGER NOT NULL,       -- drawn at once, committed to, revealed at the end
    seed_commitment TEXT NOT NULL,
    rematch_of    INTEGER,
    status        TEXT NOT NULL CHECK (status IN ('open', 'started', 'closed')),
    created_at    TEXT NOT NULL
);

-- Who sits at an open table, in the order they joined (the seat order).
CREATE TABLE lobby_players (
    table_id  INTEGER NOT NULL REFERENCES lobby_tables(id),
    position  INTEGER NOT NULL CHECK (position >= 1),
    name      TEXT NOT NULL,
    email     TEXT NOT NULL COLLATE NOCASE,  -- "bot" for a bot
    salt      TEXT,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (table_id, position)
);
CREATE UNIQUE INDEX lobby_players_email ON lobby_players(table_id, email) WHERE email <> 'bot';

-- An invitation: mailed once, with a token the invitee's JOIN carries.
CREATE TABLE lobby_invites (
    table_id   INTEGER NOT NULL REFERENCES lobby_tables(id),
    email      TEXT NOT NULL COLLATE NOCASE,
    inviter    TEXT NOT NULL,
    token      TEXT NOT NULL,
    name       TEXT,                      -- a rematch keeps the player's name
    sent_at    TEXT NOT NULL,
    PRIMARY KEY (table_id, email)
);

-- Observers of a game: the observer's view, never a secret.
CREATE TABLE watchers (
    game_id    INTEGER NOT NULL,
    email      TEXT NOT NULL COLLATE NOCASE,
    told_step  INTEGER NOT NULL DEFAULT 0,  -- the last step its mails told
    told_when  INTEGER NOT NULL DEFAULT 0,  -- the round (turn, move) of that mail
    since      TEXT NOT NULL,
    PRIMARY KEY (game_id, email)
);
