-- 007_mail_bounds.sql: a Message-ID alone no longer marks a mail as seen (anyone can copy one); the journal keeps who sent what to which address, and the outbox is found by recipient for rate limits.

-- messages is rebuilt without UNIQUE(message_id); dedupe_key is the
-- Message-ID with a digest of what the mail carries and the game address
-- it came to, so a stranger's copy of a player's Message-ID no longer
-- blocks the player's mail, and one mail to two game addresses reaches
-- each. Rows from before keep their Message-ID as their key.
CREATE TABLE messages_new (
    id          INTEGER PRIMARY KEY,
    message_id  TEXT NOT NULL,                    -- as the mail says (or sha256.DIGEST@ngoma.invalid without one)
    dedupe_key  TEXT NOT NULL UNIQUE,             -- Message-ID, content digest and game address: seen once
    rcpt        TEXT,                             -- the game address it came to, when it named one
    received_at TEXT NOT NULL,
    source      TEXT NOT NULL,                    -- stdin, file, maildir, imap
    from_addr   TEXT,
    subject     TEXT,                             -- at most max_subject_bytes
    size        INTEGER NOT NULL,
    digest      TEXT NOT NULL,                    -- SHA-256 of the raw message
    headers     TEXT NOT NULL,                    -- the raw header block, at most max_header_bytes
    raw         BLOB,                             -- the whole message, for mail that reached a game (and ignored mail only if kept)
    status      TEXT NOT NULL CHECK (status IN ('processed', 'ignored', 'refused', 'failed')),
    reason      TEXT,                             -- why it was ignored, refused or failed
    game_id     INTEGER REFERENCES games(id),
    seat        INTEGER
);
INSERT INTO messages_new(id, message_id, dedupe_key, rcpt, received_at, source, from_addr, subject, size, digest,
                         headers, raw, status, reason, game_id, seat)
SELECT id, message_id, message_id, NULL, received_at, source, from_addr, subject, size, digest, headers, raw, status,
       reason, game_id, seat FROM messages;
DROP TABLE messages;
ALTER TABLE messages_new RENAME TO messages;
CREATE INDEX messages_game ON messages(game_id);
CREATE INDEX messages_id ON messages(message_id);
CREATE INDEX messages_from ON messages(from_addr, received_at);
CREATE INDEX messages_received ON messages(received_at);

-- Answers to one address in the last hour, for the rate limits; sent mail by age, for prune.
CREATE INDEX outbox_rcpt ON outbox(rcpt, created_at);
CREATE INDEX outbox_sent ON outbox(status, sent_at);
