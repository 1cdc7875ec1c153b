-- 015_inbox.sql: mail the MTA handed over, kept until it is read (receive, or ngoma serve by LMTP, keeps it and ends the delivery; the server, the worker receive starts, or ngoma run reads it and deletes the row in the transaction that takes it).
CREATE TABLE inbox (
    id          INTEGER PRIMARY KEY,
    received_at TEXT NOT NULL,
    source      TEXT NOT NULL,     -- stdin, file, lmtp
    rcpt        TEXT,              -- the envelope's recipient, when the transport said it (LMTP)
    sender      TEXT,              -- the envelope's sender ("" for the null sender), likewise
    total       INTEGER NOT NULL,  -- bytes the mail had
    digest      TEXT NOT NULL,     -- SHA-256 of all of them
    bytes       INTEGER NOT NULL,  -- bytes kept: length(raw)
    raw         BLOB NOT NULL      -- at most max_message_size of them
);
