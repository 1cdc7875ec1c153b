-- 023_table_clock.sql: a lobby table keeps every term of its game's clock
-- (the lobby's NEW takes REMIND and GRACE as ngoma new does).
ALTER TABLE lobby_tables ADD COLUMN grace_secs INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lobby_tables ADD COLUMN reminder_secs TEXT;   -- JSON seconds before the deadline; NULL: the defaults
