-- 002_mail.sql: the journal of every inbound message and the outbox of every mail to send.

-- Every message that reached ngoma, whatever became of it. A Message-ID is
-- processed once; a message without one is known by its digest.
CREATE TABLE messages (
    id          INTEGER PRIMARY KEY,
    message_id  TEXT NOT NULL UNIQUE,
    received_at TEXT NOT NULL,
    source      TEXT NOT NULL,                    -- stdin, file, maildir, imap
    from_addr   TEXT,
    subject     TEXT,
    size        INTEGER NOT NULL,
    digest      TEXT NOT NULL,                    -- SHA-256 of the raw message
    headers     TEXT NOT NULL,                    -- the raw header block
    raw         BLOB,                             -- the whole message, when within the size limit
    status      TEXT NOT NULL CHECK (status IN ('processed', 'ignored', 'refused', 'failed')),
    reason      TEXT,                             -- why it was ignored, refused or failed
    game_id     INTEGER REFERENCES games(id),
    seat        INTEGER
);
CREATE INDEX messages_game ON messages(game_id);

-- Which mail carried an order.
ALTER TABLE orders ADD COLUMN message_id INTEGER REFERENCES messages(id);

-- Every mail ngoma sends, queued in the transaction that caused it.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    created_at      TEXT NOT NULL,
    game_id         INTEGER REFERENCES games(id),
    seat            INTEGER,
    kind            TEXT NOT NULL,                -- welcome, reply, turn, gameover, refused, ...
    rcpt            TEXT NOT NULL,
    message_id      TEXT NOT NULL UNIQUE,
    subject         TEXT NOT NULL,
    mail            TEXT NOT NULL,                -- the complete RFC 5322 message
    status          TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    claimed_at      TEXT,
    last_error      TEXT,
    sent_at         TEXT,
    in_reply_to     INTEGER REFERENCES messages(id)
);
CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
