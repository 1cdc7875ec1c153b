-- 003_schedule.sql: deadlines, reminders and missing-order policies per game; hosts; bot seats; vacations.

ALTER TABLE games ADD COLUMN host_email TEXT;                  -- who may PAUSE, RESUME, EXTEND... (NULL: none)
ALTER TABLE games ADD COLUMN host_secret TEXT;
ALTER TABLE games ADD COLUMN deadline_secs INTEGER NOT NULL DEFAULT 0;  -- per step; 0: no deadline
ALTER TABLE games ADD COLUMN reminder_secs TEXT NOT NULL DEFAULT '[]'
    CHECK (json_valid(reminder_secs));                         -- seconds before the deadline, e.g. [86400, 7200]
ALTER TABLE games ADD COLUMN grace_secs INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN nmr TEXT NOT NULL DEFAULT 'wait'
    CHECK (nmr IN ('wait', 'bot', 'drop'));                    -- what a missing order at the deadline brings
ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1));
ALTER TABLE games ADD COLUMN step_started_at TEXT;             -- when the step waited for began (UTC)
ALTER TABLE games ADD COLUMN deadline_at TEXT;                 -- the step's deadline (UTC), NULL: none

ALTER TABLE seats ADD COLUMN bot INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1)); -- a bot plays this seat
ALTER TABLE seats ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';  -- deadlines are shown in it
ALTER TABLE seats ADD COLUMN vacation_until TEXT;              -- no reminders or deadline until then (UTC)

-- Every reminder and notice sent for a step, so that each goes once. A
-- step is known by its number and when it began (a rollback repeats numbers).
CREATE TABLE notices (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    step       INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    seat       INTEGER NOT NULL,                               -- seat number; 0 for the host
    kind       TEXT NOT NULL,                                  -- reminder:SECONDS, overdue, stalled
    sent_at    TEXT NOT NULL,
    PRIMARY KEY (game_id, step, started_at, seat, kind)
);

-- Every run of `ngoma run`: when it started and what it did.
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    summary     TEXT
);
