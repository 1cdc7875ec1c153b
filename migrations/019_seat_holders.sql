-- 019_seat_holders.sql: who held each seat from when to when and why she left it (the lineage every seat change writes), the step each vote was cast at, and reliability that charges each order to whoever held the seat then.

-- One row a holding: the person (her address, or 'bot') who held a seat
-- from a step to a step, and how it ended. to_step NULL: she holds it
-- now. how: resigned (her RESIGN), dropped (a deadline), kicked (a bot
-- took it), replaced (the host gave it to another after she missed a
-- turn), consent (replaced before she missed one: it does not count
-- against her), taken (a bot's seat taken over by a person), ended (the
-- game ended with her in it).
CREATE TABLE seat_holders (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL CHECK (seat >= 1),
    address   TEXT NOT NULL COLLATE NOCASE,
    name      TEXT NOT NULL,
    bot_level TEXT CHECK (bot_level IN ('easy', 'strong')),
    from_step INTEGER NOT NULL,
    from_at   TEXT NOT NULL,
    to_step   INTEGER,
    to_at     TEXT,
    how       TEXT CHECK (how IN ('resigned', 'dropped', 'kicked', 'replaced', 'consent', 'taken')),
    press_after INTEGER NOT NULL DEFAULT 0  -- press rows above it are this holding's to read
);
CREATE INDEX seat_holders_seat ON seat_holders(game_id, seat);
CREATE INDEX seat_holders_address ON seat_holders(address);

-- What came before this table: those the host removed (seat_leavers),
-- each a holding that ended so, then every seat as it stands (a bot's
-- since then, a person's from the start).
INSERT INTO seat_holders (game_id, seat, address, name, from_step, from_at, to_step, to_at, how)
SELECT l.game_id, l.seat, l.address, l.address, 0, g.created_at, 0, l.at, l.how
FROM seat_leavers l JOIN games g ON g.id = l.game_id
ORDER BY l.at;
INSERT INTO seat_holders (game_id, seat, address, name, bot_level, from_step, from_at)
SELECT s.game_id, s.seat, CASE WHEN s.bot = 1 THEN 'bot' ELSE s.email END, coalesce(s.real_name, s.name),
       s.bot_level, 0, g.created_at
FROM seats s JOIN games g ON g.id = s.game_id;

-- A resignation already made closes its holding.
UPDATE seat_holders SET to_step = (SELECT t.turn FROM orders o JOIN turns t ON t.id = o.turn_id
                                   WHERE o.game_id = seat_holders.game_id AND o.seat = seat_holders.seat
                                   AND o.canonical = 'RESIGN' AND o.status = 'accepted' AND t.rolled_back = 0),
                        how = (SELECT CASE WHEN o.source = 'nmr' THEN 'dropped' ELSE 'resigned' END FROM orders o
                               JOIN turns t ON t.id = o.turn_id WHERE o.game_id = seat_holders.game_id
                               AND o.seat = seat_holders.seat AND o.canonical = 'RESIGN' AND o.status = 'accepted'
                               AND t.rolled_back = 0)
WHERE to_step IS NULL AND EXISTS (SELECT 1 FROM orders o JOIN turns t ON t.id = o.turn_id
              WHERE o.game_id = seat_holders.game_id AND o.seat = seat_holders.seat AND o.canonical = 'RESIGN'
              AND o.status = 'accepted' AND t.rolled_back = 0);
UPDATE seat_holders SET to_at = (SELECT g.updated_at FROM games g WHERE g.id = seat_holders.game_id)
WHERE to_step IS NOT NULL AND to_at IS NULL;

-- The step a vote was cast at: a rollback to before it clears it.
ALTER TABLE votes ADD COLUMN step INTEGER NOT NULL DEFAULT 0;

-- The host's reliability (015's, by address), from the games that are
-- not running anonymous (018: a step there counts once it is over), each
-- order charged to the person who held the seat at its step (a holding
-- covers the steps after from_step, up to to_step): a newcomer answers
-- for no turn her seat's former holder missed.
CREATE VIEW people_reliability AS
WITH leavers AS (
    SELECT * FROM seat_leavers WHERE game_id NOT IN (SELECT game_id FROM anonymous_running)
),
held AS (
    SELECT h.game_id, h.seat, h.from_step, h.to_step,
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
    JOIN held h ON h.game_id = o.game_id AND h.seat = o.seat AND o.step > h.from_step
                   AND (h.to_step IS NULL OR o.step <= h.to_step)
    WHERE o.status = 'accepted' AND o.source NOT IN ('bot', 'forced')
    GROUP BY h.address
),
gone AS (
    SELECT coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = l.address), l.address) AS address,
           count(*) AS n, sum(l.how = 'kicked') AS kicked
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
