-- 008_run_errors.sql: what went wrong in each `ngoma run`, so that list and status show it and the host's alert can say it.
ALTER TABLE runs ADD COLUMN errors INTEGER NOT NULL DEFAULT 0;  -- how many failures the run met
ALTER TABLE runs ADD COLUMN error_text TEXT;                    -- their messages, a line each (at most 8 KB)
CREATE INDEX runs_started ON runs(started_at);
