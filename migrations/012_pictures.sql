-- 012_pictures.sql: boards as pictures: what each mail's picture is drawn from (drawn when the mail is sent, outside any lock), and whether a seat wants them.
ALTER TABLE outbox ADD COLUMN picture TEXT;  -- {"cid", "view", "prev"}: the view the PNG shows, NULL: no picture
ALTER TABLE seats ADD COLUMN images INTEGER NOT NULL DEFAULT 1 CHECK (images IN (0, 1)); -- IMAGES ON or OFF
