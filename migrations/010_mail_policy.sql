-- 010_mail_policy.sql: when each seat is mailed (MAIL TURN, MAIL EVERY, MAIL DIGEST 1d) and how far its mails have told it the game, so that every mail opens with everything since the last one.
ALTER TABLE seats ADD COLUMN mail_policy TEXT NOT NULL DEFAULT 'turn'
    CHECK (mail_policy IN ('turn', 'every', 'digest'));  -- turn: when she must act; every: each step; digest: at most one a period
ALTER TABLE seats ADD COLUMN digest_secs INTEGER NOT NULL DEFAULT 86400 CHECK (digest_secs > 0); -- the period of MAIL DIGEST
ALTER TABLE seats ADD COLUMN told_step INTEGER NOT NULL DEFAULT 0;  -- the last step a mail to her has told
ALTER TABLE seats ADD COLUMN told_at TEXT;                          -- when that mail was queued (UTC)
-- Games begun before: their seats were mailed every step.
UPDATE seats SET told_step = (SELECT turn FROM games WHERE games.id = seats.game_id);
-- Which steps each mail to a seat told: told_from..step (told_from NULL: none).
ALTER TABLE outbox ADD COLUMN step INTEGER;       -- the game's step when the mail was written
ALTER TABLE outbox ADD COLUMN told_from INTEGER;  -- the first step it tells
