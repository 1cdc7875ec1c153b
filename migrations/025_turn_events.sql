-- 025_turn_events.sql: a step's public log as events (who, what, where, values; each a phrase of the catalogues), read by each reader in her language; NULL for a step whose game writes English lines only, and for every step stored before.
ALTER TABLE turns ADD COLUMN events TEXT CHECK (events IS NULL OR json_valid(events));
