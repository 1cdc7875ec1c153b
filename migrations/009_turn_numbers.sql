-- 009_turn_numbers.sql: each stored step says where the game then stood in the words players use (round 3, turn 2, move 7), so that history and show count as they do, not in steps.
ALTER TABLE turns ADD COLUMN when_number INTEGER;   -- the round (turn, move) the game is in after the step; 0: the setup
ALTER TABLE turns ADD COLUMN when_text TEXT;        -- the same in words: "round 3 of 12", "turn 2, event phase, Ann to play"
CREATE INDEX turns_when ON turns(game_id, when_number);
