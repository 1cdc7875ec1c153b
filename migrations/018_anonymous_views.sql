-- 018_anonymous_views.sql: the public views hold no address and name nobody behind a running anonymous game's titles, and no count in them moves with such a seat's orders; the host's views (seat_people, people_reliability) keep the addresses.

-- The games whose titles name nobody yet: anonymous, and not over.
CREATE VIEW anonymous_running AS
SELECT id AS game_id FROM games
WHERE json_extract(options, '$.anonymous') = 'yes' AND status <> 'finished';

-- The host's: the person behind a seat, by address, as 016 made
-- seat_players, but for the seats of a running anonymous game: their rows
-- come when it is over. What ratings, reliability and PROFILE count.
DROP VIEW seat_players;
CREATE VIEW seat_people AS
SELECT s.game_id, s.seat, s.name,
       coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = s.email), s.email) AS address,
       s.bot, s.real_name
FROM seats s
WHERE s.email <> 'bot' AND s.game_id NOT IN (SELECT game_id FROM anonymous_running);

-- Public: the same without the address.
CREATE VIEW seat_players AS
SELECT game_id, seat, name, bot, real_name FROM seat_people;

-- The host's: reliability as 015 made it, from the seats above and the
-- leavers of games that are not running anonymous: a step played,
-- missed or left there counts once the game is over.
DROP VIEW reliability;
CREATE VIEW people_reliability AS
WITH leavers AS (
    SELECT * FROM seat_leavers WHERE game_id NOT IN (SELECT game_id FROM anonymous_running)
),
people AS (
    SELECT DISTINCT address FROM seat_people
    UNION SELECT coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = l.address), l.address)
          FROM leavers l
),
acts AS (
    SELECT p.address,
           sum(o.source <> 'nmr' AND o.canonical <> 'RESIGN') AS played,
           sum(o.source = 'nmr') AS missed,
           sum(o.canonical = 'RESIGN') AS resigned,
           sum(o.canonical = 'RESIGN' AND o.source = 'nmr') AS dropped
    FROM orders o
    JOIN seat_people p ON p.game_id = o.game_id AND p.seat = o.seat
    WHERE o.status = 'accepted' AND o.source NOT IN ('bot', 'forced')
    GROUP BY p.address
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

-- The name a person is known by in public: the latest she played under
-- (behind a title once the game is over); never her address.
CREATE VIEW people_names AS
SELECT address, (SELECT coalesce(p.real_name, p.name) FROM seat_people p WHERE p.address = a.address
                 ORDER BY p.game_id DESC LIMIT 1) AS player
FROM (SELECT DISTINCT address FROM seat_people) a;

-- Public: reliability and ratings by the name, without the address.
CREATE VIEW reliability AS
SELECT n.player, r.asked, r.missed, r.left, r.abandoned, r.score
FROM people_reliability r JOIN people_names n ON n.address = r.address;

DROP VIEW ratings;
CREATE VIEW ratings AS
SELECT n.player, r.module, r.mu, r.sigma, r.mu - 3 * r.sigma AS ordinal, r.games
FROM player_ratings r JOIN people_names n ON n.address = r.address;
