-- 018_anonymous_views.sql: the public views hold no address and name nobody behind a running anonymous game's titles, and no count in them moves with such a seat's orders; the host's views (seat_people) keep the addresses.

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

-- Reliability, which read seat_players, comes again in 019 (by whoever
-- held a seat at each step).
DROP VIEW reliability;

-- The name a person is known by in public: the latest she played under
-- (behind a title once the game is over); never her address.
CREATE VIEW people_names AS
SELECT address, (SELECT coalesce(p.real_name, p.name) FROM seat_people p WHERE p.address = a.address
                 ORDER BY p.game_id DESC LIMIT 1) AS player
FROM (SELECT DISTINCT address FROM seat_people) a;

-- Public: ratings by the name, without the address.
DROP VIEW ratings;
CREATE VIEW ratings AS
SELECT n.player, r.module, r.mu, r.sigma, r.mu - 3 * r.sigma AS ordinal, r.games
FROM player_ratings r JOIN people_names n ON n.address = r.address;
