-- 005_private_rejections.sql: a refused order's text and reason went to its player alone; in a game with hidden information the rejections view keeps them back until the game is over.

-- Whether the game hides anything from some seat (hands, shields, decks):
-- set by the engine from the module when a game is created.
ALTER TABLE games ADD COLUMN hidden_information INTEGER NOT NULL DEFAULT 1 CHECK (hidden_information IN (0, 1));
UPDATE games SET hidden_information = 0 WHERE module IN ('kuniumi', 'bantu');

DROP VIEW rejections;

-- Every refused order. What was written and why it was refused may tell
-- a hand or a shield: shown for the games of open information, and for
-- every game once it is over.
CREATE VIEW rejections AS
SELECT o.game_id, o.step AS turn, o.seat, s.name AS player,
       CASE WHEN g.status = 'finished' OR NOT g.hidden_information THEN o.text END AS text,
       CASE WHEN g.status = 'finished' OR NOT g.hidden_information THEN o.reason END AS reason,
       o.source, o.received_at
FROM orders o
JOIN games g ON g.id = o.game_id
JOIN seats s ON s.game_id = o.game_id AND s.seat = o.seat
WHERE o.status = 'rejected';
