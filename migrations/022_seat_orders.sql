-- 022_seat_orders.sql: each holding of a seat bounds the orders that are its holder's by the orders' ids (a rollback re-uses steps, never ids), and a seat a deadline gave to a bot for good (its player missed drop_after deadlines in a row) counts as abandoned, and a game rates each person who held a seat once (a leaver and her taker share a seat).

-- The last order id when the holding began and when it ended: the orders
-- above orders_after, up to orders_to, are this holding's. NULL for the
-- holdings written before (their steps bound them).
ALTER TABLE seat_holders ADD COLUMN orders_after INTEGER;
ALTER TABLE seat_holders ADD COLUMN orders_to INTEGER;

-- seat_leavers takes 'dropped': the deadline gave the seat to a bot.
DROP VIEW reliability;
DROP VIEW people_reliability;
CREATE TABLE seat_leavers_022 (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    address TEXT NOT NULL COLLATE NOCASE,
    how     TEXT NOT NULL CHECK (how IN ('kicked', 'replaced', 'dropped')),
    at      TEXT NOT NULL
);
INSERT INTO seat_leavers_022 (game_id, seat, address, how, at)
SELECT game_id, seat, address, how, at FROM seat_leavers;
DROP TABLE seat_leavers;
ALTER TABLE seat_leavers_022 RENAME TO seat_leavers;
CREATE INDEX seat_leavers_address ON seat_leavers(address);

-- 019's reliability, each order charged to the holding whose order ids
-- (or, for older holdings, steps) cover it; a seat given to a bot by the
-- host or a deadline is abandoned.
CREATE VIEW people_reliability AS
WITH leavers AS (
    SELECT * FROM seat_leavers WHERE game_id NOT IN (SELECT game_id FROM anonymous_running)
),
held AS (
    SELECT h.game_id, h.seat, h.from_step, h.to_step, h.orders_after, h.orders_to,
           coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = h.address), h.address) AS address
    FROM seat_holders h
    WHERE h.address <> 'bot' AND h.game_id NOT IN (SELECT game_id FROM anonymous_running)
),
people AS (
    SELECT DISTINCT address FROM seat_people
    UNION SELECT address FROM held
    UNION SELECT coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = l.address), l.address)
          FROM leavers l
),
acts AS (
    SELECT h.address,
           sum(o.source <> 'nmr' AND o.canonical <> 'RESIGN') AS played,
           sum(o.source = 'nmr') AS missed,
           sum(o.canonical = 'RESIGN') AS resigned,
           sum(o.canonical = 'RESIGN' AND o.source = 'nmr') AS dropped
    FROM orders o
    JOIN held h ON h.game_id = o.game_id AND h.seat = o.seat
                   AND CASE WHEN h.orders_after IS NULL
                            THEN o.step > h.from_step AND (h.to_step IS NULL OR o.step <= h.to_step)
                            ELSE o.id > h.orders_after AND (h.orders_to IS NULL OR o.id <= h.orders_to) END
    WHERE o.status = 'accepted' AND o.source NOT IN ('bot', 'forced')
    GROUP BY h.address
),
gone AS (
    SELECT coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = l.address), l.address) AS address,
           count(*) AS n, sum(l.how IN ('kicked', 'dropped')) AS kicked
    FROM leavers l GROUP BY 1
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

-- Public: reliability by the name, without the address.
CREATE VIEW reliability AS
SELECT n.player, r.asked, r.missed, r.left, r.abandoned, r.score
FROM people_reliability r JOIN people_names n ON n.address = r.address;

-- A seat held by two people in one game (a leaver and her taker) rates
-- both: one row a person and game, not a seat.
CREATE TABLE rating_changes_022 (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    seat         INTEGER NOT NULL,
    address      TEXT NOT NULL COLLATE NOCASE,
    module       TEXT NOT NULL,
    rank         INTEGER NOT NULL,      -- 1 first; equal ranks tied
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    PRIMARY KEY (game_id, address)
);
INSERT INTO rating_changes_022 SELECT game_id, seat, address, module, rank, mu_before, sigma_before, mu, sigma
FROM rating_changes;
DROP TABLE rating_changes;
ALTER TABLE rating_changes_022 RENAME TO rating_changes;
CREATE INDEX rating_changes_address ON rating_changes(address, module);

-- The last turn row when the holding began: the record names a seat by
-- its holder's name from the steps after it on (NULL: before this
-- migration; the steps bound them).
ALTER TABLE seat_holders ADD COLUMN turns_after INTEGER;
