-- 005_private_rejections.sql: a refused order's text and reason went to its player alone; in a game with hidden information the rejections view keeps them back until the game is over.

DROP VIEW rejections;

-- Every refused order. What was written and why it was refused may tell
-- a hand or a shield (African Empires, Bumuntu, Kalimambo): shown for the
-- games of open information, and for every game once it is over.
CREATE VIEW rejections AS
SELECT o.game_id, o.step AS turn, o.seat, s.name AS player,
       CASE WHEN g.status = 'finished' OR g.module IN ('kuniumi', 'bantu') THEN o.text END AS text,
       CASE WHEN g.status = 'finished' OR g.module IN ('kuniumi', 'bantu') THEN o.reason END AS reason,
       o.source, o.received_at
FROM orders o
JOIN games g ON g.id = o.game_id
JOIN seats s ON s.game_id = o.game_id AND s.seat = o.seat
WHERE o.status = 'rejected';
