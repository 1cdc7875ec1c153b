-- 004_outbox_thread.sql: every mail to a seat finds the seat's welcome mail (its thread root) by index, not by a scan of the outbox.
CREATE INDEX outbox_seat ON outbox(game_id, seat, kind);
