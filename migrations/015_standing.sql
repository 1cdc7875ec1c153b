-- 015_standing.sql: players across games (one confirmed address each, merged by the host), their ratings per game module, how reliably they play, and the secret draw and concession votes.

-- A second address of one person (ngoma merge-player): records and
-- ratings under alias count as address's.
CREATE TABLE player_aliases (
    alias     TEXT PRIMARY KEY COLLATE NOCASE,
    address   TEXT NOT NULL COLLATE NOCASE,
    merged_at TEXT NOT NULL
);

-- A seat's player who left it without a RESIGN of her own: kicked (a bot
-- plays on) or replaced by the host.
CREATE TABLE seat_leavers (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    address TEXT NOT NULL COLLATE NOCASE,
    how     TEXT NOT NULL CHECK (how IN ('kicked', 'replaced')),
    at      TEXT NOT NULL
);
CREATE INDEX seat_leavers_address ON seat_leavers(address);

-- Every finished game the ratings took, in the order they took it (seq),
-- and what it did to each rated player. A finished game not rated has a
-- row with rated = 0 and why.
CREATE TABLE rated_games (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    seq     INTEGER NOT NULL UNIQUE,
    module  TEXT NOT NULL,
    rated   INTEGER NOT NULL CHECK (rated IN (0, 1)),
    why     TEXT,                       -- why not, when not rated
    at      TEXT NOT NULL
);
CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    seat         INTEGER NOT NULL,
    address      TEXT NOT NULL COLLATE NOCASE,
    module       TEXT NOT NULL,
    rank         INTEGER NOT NULL,      -- 1 first; equal ranks tied
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_address ON rating_changes(address, module);

-- The current rating of a player in a game module.
CREATE TABLE player_ratings (
    address TEXT NOT NULL COLLATE NOCASE,
    module  TEXT NOT NULL,
    mu      REAL NOT NULL,
    sigma   REAL NOT NULL,
    games   INTEGER NOT NULL,
    PRIMARY KEY (address, module)
);

-- A seat's standing vote to end the game: a draw among the seats still
-- playing, or a concession. Secret: no history view shows it.
CREATE TABLE votes (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    kind    TEXT NOT NULL CHECK (kind IN ('draw', 'concede')),
    cast_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, kind)
);

-- Ratings, for the sqlite3 shell: ordinal is mu - 3 sigma (shown to
-- players as 40 times that, from their fifth rated game).
CREATE VIEW ratings AS
SELECT address, module, mu, sigma, mu - 3 * sigma AS ordinal, games
FROM player_ratings;

-- The person behind a seat: her address, or the one it was merged into.
CREATE VIEW seat_players AS
SELECT s.game_id, s.seat, s.name,
       coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = s.email), s.email) AS address,
       s.bot
FROM seats s
WHERE s.email <> 'bot';

-- How reliably each person plays: the steps she was asked to act on (her
-- orders, those played for her at a deadline, and the deadlines that
-- dropped her), those she missed, the games she left (resigned, dropped,
-- kicked, replaced) and abandoned (dropped or kicked), and the score
-- 100 - 200 x missed / asked - 10 x abandoned, within 0 and 100.
CREATE VIEW reliability AS
WITH people AS (
    SELECT DISTINCT address FROM seat_players
    UNION SELECT coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = l.address), l.address)
          FROM seat_leavers l
),
acts AS (
    SELECT p.address,
           sum(o.source <> 'nmr' AND o.canonical <> 'RESIGN') AS played,
           sum(o.source = 'nmr') AS missed,
           sum(o.canonical = 'RESIGN') AS resigned,
           sum(o.canonical = 'RESIGN' AND o.source = 'nmr') AS dropped
    FROM orders o
    JOIN seat_players p ON p.game_id = o.game_id AND p.seat = o.seat
    WHERE o.status = 'accepted' AND o.source NOT IN ('bot', 'forced')
    GROUP BY p.address
),
gone AS (
    SELECT coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = l.address), l.address) AS address,
           count(*) AS n, sum(l.how = 'kicked') AS kicked
    FROM seat_leavers l GROUP BY 1
)
SELECT people.address,
       coalesce(acts.played, 0) + coalesce(acts.missed, 0) AS asked,
       coalesce(acts.missed, 0) AS missed,
       coalesce(acts.resigned, 0) + coalesce(gone.n, 0) AS left,
       coalesce(acts.dropped, 0) + coalesce(gone.kicked, 0) AS abandoned,
       CAST(max(0, min(100, round(100
           - CASE WHEN coalesce(acts.played, 0) + coalesce(acts.missed, 0) = 0 THEN 0
                  ELSE 200.0 * acts.missed / (acts.played + acts.missed) END
           - 10 * (coalesce(acts.dropped, 0) + coalesce(gone.kicked, 0))))) AS INTEGER) AS score
FROM people
LEFT JOIN acts ON acts.address = people.address
LEFT JOIN gone ON gone.address = people.address;

-- A lobby table's gates: who may JOIN (an invitation overrides).
ALTER TABLE lobby_tables ADD COLUMN min_reliability INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lobby_tables ADD COLUMN min_rating INTEGER;     -- NULL: none
