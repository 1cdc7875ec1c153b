-- 025_turn_events.sql: a step's log as events (who, what, where, values; each a phrase of the catalogues), read by each reader in her language: the public log, and each seat's notes; NULL for a step whose game writes English lines only, and for every step stored before.
ALTER TABLE turns ADD COLUMN events TEXT CHECK (events IS NULL OR json_valid(events));
ALTER TABLE turns ADD COLUMN private_events TEXT CHECK (private_events IS NULL OR json_valid(private_events)); -- {"2": [events]}
