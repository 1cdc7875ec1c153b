-- 006_host_end.sql: a host may end a game (ngoma end, END by mail): a turn of its own, kind 'end'.

-- SQLite changes a CHECK constraint only by rebuilding the table: the
-- views over turns go first and come back unchanged. (db.c runs every
-- migration with foreign keys off and checks them before it commits.)
DROP VIEW moves;
DROP VIEW turn_log;

CREATE TABLE turns_new (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    turn        INTEGER NOT NULL CHECK (turn >= 0),
    kind        TEXT NOT NULL CHECK (kind IN ('setup', 'orders', 'resign', 'end')),
    orders      TEXT NOT NULL CHECK (json_valid(orders)), -- [{"seat":1,"order":"MOVE c5"}]; for 'end': [{"order":"END SCORE","reason":"..."}]
    log         TEXT NOT NULL,                       -- what everyone may read
    private_log TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(private_log)), -- {"2":"you drew ..."}
    state       TEXT NOT NULL CHECK (json_valid(state)),  -- full snapshot (holds secrets)
    public_view TEXT NOT NULL CHECK (json_valid(public_view)), -- what an observer sees
    rolled_back INTEGER NOT NULL DEFAULT 0 CHECK (rolled_back IN (0, 1)),
    created_at  TEXT NOT NULL
);
INSERT INTO turns_new SELECT id, game_id, turn, kind, orders, log, private_log, state, public_view, rolled_back,
                             created_at FROM turns;
DROP TABLE turns;
ALTER TABLE turns_new RENAME TO turns;
CREATE UNIQUE INDEX turns_live ON turns(game_id, turn) WHERE rolled_back = 0;
CREATE INDEX turns_game ON turns(game_id, turn);

-- Every resolved order of every game, in order, with who gave it.
CREATE VIEW moves AS
SELECT t.game_id, g.module, t.turn, o.seat, s.name AS player, o.canonical AS move,
       o.text AS written, t.log, t.created_at AS resolved_at
FROM orders o
JOIN turns t ON t.id = o.turn_id AND t.rolled_back = 0
JOIN games g ON g.id = t.game_id
JOIN seats s ON s.game_id = o.game_id AND s.seat = o.seat
WHERE o.status = 'accepted';

-- The public story of each game, turn by turn.
CREATE VIEW turn_log AS
SELECT game_id, turn, kind, log, public_view, created_at
FROM turns
WHERE rolled_back = 0;
