-- 016_press.sql: press, the players' mail to each other through the game: channels (a set of seats), each message and what became of it for each recipient, mutes, and the real names behind an anonymous game's titles.

-- In a game opened with anonymous=yes, seats.name is the seat's title
-- (Alpha, Beta, ...) for everything the game shows; the name the player
-- gave is kept here, told only when the game is over.
ALTER TABLE seats ADD COLUMN real_name TEXT;

-- A set of seats that writes together (the sender among them): a press
-- mail's Reply-To names its channel, so that a reply reaches the same
-- seats. seats is a bit mask (seat 1 is bit 0).
CREATE TABLE press_channels (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seats   INTEGER NOT NULL CHECK (seats > 0),
    UNIQUE (game_id, seats)
);

-- One message: who wrote it (seat), to which channel, at which step,
-- whether its sender is unnamed (press=grey), and its text.
CREATE TABLE press (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    channel_id INTEGER NOT NULL REFERENCES press_channels(id),
    seat       INTEGER NOT NULL CHECK (seat >= 1),
    step       INTEGER NOT NULL,
    grey       INTEGER NOT NULL DEFAULT 0 CHECK (grey IN (0, 1)),
    body       TEXT NOT NULL,
    message_id INTEGER REFERENCES messages(id),   -- the mail that carried it
    sent_at    TEXT NOT NULL
);
CREATE INDEX press_game ON press(game_id, seat);
CREATE INDEX press_message ON press(message_id);

-- Each recipient of each message: sent (a mail queued), muted (she
-- muted the sender: nothing sent), left (she left the game), bot (a bot
-- plays the seat and reads no press).
CREATE TABLE press_recipients (
    press_id INTEGER NOT NULL REFERENCES press(id),
    seat     INTEGER NOT NULL CHECK (seat >= 1),
    status   TEXT NOT NULL CHECK (status IN ('sent', 'muted', 'left', 'bot')),
    PRIMARY KEY (press_id, seat)
);

-- MUTE Bob: seat muted no longer receives muted's press.
CREATE TABLE press_mutes (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    muted   INTEGER NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, muted)
);

-- The person behind a seat, as 015 made it, with the real name behind an
-- anonymous game's title (NULL when the game is not anonymous).
DROP VIEW seat_players;
CREATE VIEW seat_players AS
SELECT s.game_id, s.seat, s.name,
       coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = s.email), s.email) AS address,
       s.bot, s.real_name
FROM seats s
WHERE s.email <> 'bot';
