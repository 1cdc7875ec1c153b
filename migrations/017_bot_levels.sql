-- 017_bot_levels.sql: the level each bot plays at (easy: a one-step look-ahead; strong: a tree search within bot_ms a move), for seats, for the bot that plays a missing order, and for the orders bots gave.

-- A bot seat's level; NULL for a person. The bots before levels were the easy one.
ALTER TABLE seats ADD COLUMN bot_level TEXT CHECK (bot_level IN ('easy', 'strong'));
UPDATE seats SET bot_level = 'easy' WHERE bot = 1 OR email = 'bot';

-- nmr = 'bot': the level of the bot that plays a missing order.
ALTER TABLE games ADD COLUMN nmr_level TEXT NOT NULL DEFAULT 'easy' CHECK (nmr_level IN ('easy', 'strong'));
ALTER TABLE lobby_tables ADD COLUMN nmr_level TEXT NOT NULL DEFAULT 'easy' CHECK (nmr_level IN ('easy', 'strong'));

-- A bot at an open table: its level (NULL: the host's default, setting bot_level).
ALTER TABLE lobby_players ADD COLUMN bot_level TEXT CHECK (bot_level IN ('easy', 'strong'));

-- Which bot chose an order (source bot or nmr); NULL when a person gave it.
ALTER TABLE orders ADD COLUMN bot_level TEXT CHECK (bot_level IN ('easy', 'strong'));

-- A strong bot's seat that is due: the query run asks before it searches.
CREATE INDEX seats_strong_bots ON seats(game_id) WHERE bot_level = 'strong' AND bot = 1;
