-- 014_trust.sql: mail that could not be taken (kept for a retry, counted, alerted), a seed the host chose, lobby commands waiting each on its own token, and refusals answered once a step.

-- A mail whose taking failed for a reason that is not the mail's (the
-- database, an internal error, a full disk): the MTA or fetch offers it
-- again, and it is taken once the fault is gone (taken_at).
CREATE TABLE mail_failures (
    dedupe_key TEXT PRIMARY KEY,          -- as messages.dedupe_key: the same mail
    message_id TEXT NOT NULL,
    source     TEXT NOT NULL,             -- stdin, file, maildir, imap, mbox
    from_addr  TEXT,
    subject    TEXT,
    game_id    INTEGER,                   -- the game it names, when it names one
    first_at   TEXT NOT NULL,
    last_at    TEXT NOT NULL,
    tries      INTEGER NOT NULL DEFAULT 1,
    reason     TEXT NOT NULL,             -- the first error of the last try
    taken_at   TEXT,                      -- NULL until a later try took it
    given_up_at TEXT                      -- fetch stops offering it after five days
);
CREATE INDEX mail_failures_open ON mail_failures(taken_at, last_at);

-- 1 when the host gave the seed (ngoma new --seed): not a seed ngoma drew.
ALTER TABLE games ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0;

-- One salt a seat: games made before had none at all.
UPDATE games SET salts = (SELECT json_group_array('') FROM seats WHERE seats.game_id = games.id)
WHERE json_array_length(salts) = 0;

-- Lobby commands waiting for a confirmation, each set bound to the mail
-- that asked and a token of its own: a later mail from the same address
-- waits beside it, never in its place.
CREATE TABLE lobby_pending (
    id         INTEGER PRIMARY KEY,
    address    TEXT NOT NULL COLLATE NOCASE,
    token      TEXT NOT NULL UNIQUE,
    commands   TEXT NOT NULL,             -- the lines, as written
    message_id TEXT NOT NULL,             -- the mail that asked
    asked_at   TEXT NOT NULL,
    mailed     INTEGER NOT NULL DEFAULT 0 -- its token went out in a mail
);
CREATE INDEX lobby_pending_address ON lobby_pending(address);
INSERT INTO lobby_pending(address, token, commands, message_id, asked_at, mailed)
SELECT address, token, pending, '', token_sent_at, 1 FROM lobby_addresses WHERE pending IS NOT NULL;
UPDATE lobby_addresses SET pending = NULL;

-- A mail from a seat whose every line was refused: its text's digest and
-- the step, so the same text is answered once a step.
ALTER TABLE messages ADD COLUMN refused_digest TEXT;
ALTER TABLE messages ADD COLUMN refused_step INTEGER;
CREATE INDEX messages_refused ON messages(game_id, seat, refused_step, refused_digest) WHERE refused_digest IS NOT NULL;
