-- 001_core.sql: games, their seats, every order, every resolved turn, settings, and the history views.

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    module     TEXT NOT NULL,                        -- the game: kuniumi, kalimambo...
    options    TEXT NOT NULL CHECK (json_valid(options)),
    seed       INTEGER NOT NULL,                     -- the seed of the game's generator
    status     TEXT NOT NULL CHECK (status IN ('setup', 'active', 'finished')),
    turn       INTEGER NOT NULL DEFAULT 0,           -- resolved steps so far
    state      TEXT NOT NULL CHECK (json_valid(state)), -- the full current state (holds secrets)
    result     TEXT CHECK (result IS NULL OR json_valid(result)), -- winners and scores once finished
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL CHECK (seat >= 1),      -- 1, 2, ... in turn order
    name    TEXT NOT NULL,
    email   TEXT NOT NULL,
    secret  TEXT NOT NULL,                           -- proves a mail comes from this seat
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, name COLLATE NOCASE)
);

-- One row per resolved step. Turn 0 is the position after setup. A rolled
-- back turn stays here with rolled_back = 1.
CREATE TABLE turns (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    turn        INTEGER NOT NULL CHECK (turn >= 0),
    kind        TEXT NOT NULL CHECK (kind IN ('setup', 'orders', 'resign')),
    orders      TEXT NOT NULL CHECK (json_valid(orders)), -- [{"seat":1,"order":"MOVE c5"}]
    log         TEXT NOT NULL,                       -- what everyone may read
    private_log TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(private_log)), -- {"2":"you drew ..."}
    state       TEXT NOT NULL CHECK (json_valid(state)),  -- full snapshot (holds secrets)
    public_view TEXT NOT NULL CHECK (json_valid(public_view)), -- what an observer sees
    rolled_back INTEGER NOT NULL DEFAULT 0 CHECK (rolled_back IN (0, 1)),
    created_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX turns_live ON turns(game_id, turn) WHERE rolled_back = 0;
CREATE INDEX turns_game ON turns(game_id, turn);

-- Every order line ever given for a game, whatever became of it.
-- pending: accepted, waiting for the other orders of a simultaneous step (secret);
-- accepted: resolved in turn turn_id; superseded: replaced before the step resolved;
-- rejected: refused, with the reason.
CREATE TABLE orders (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    seat        INTEGER NOT NULL,
    step        INTEGER NOT NULL,                    -- the turn it was given for
    text        TEXT NOT NULL,                       -- as the player wrote it
    canonical   TEXT,                                -- as the game reads it, when valid
    status      TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'superseded', 'rejected')),
    reason      TEXT,
    source      TEXT NOT NULL DEFAULT 'cli',
    turn_id     INTEGER REFERENCES turns(id),
    received_at TEXT NOT NULL,
    FOREIGN KEY (game_id, seat) REFERENCES seats(game_id, seat)
);
CREATE INDEX orders_step ON orders(game_id, step, status);
CREATE INDEX orders_turn ON orders(turn_id);

-- History views: safe to share, they hold no pending order and no secret state.

-- Every game with its players and where it stands.
CREATE VIEW game_summary AS
SELECT g.id AS game_id, g.module, g.status, g.turn,
       (SELECT group_concat(s.name, ', ') FROM (SELECT name FROM seats WHERE game_id = g.id ORDER BY seat) s)
           AS players,
       json_extract(g.result, '$.winners') AS winners,
       g.created_at, g.updated_at
FROM games g;

-- Every resolved order of every game, in order, with who gave it.
CREATE VIEW moves AS
SELECT t.game_id, g.module, t.turn, o.seat, s.name AS player, o.canonical AS move,
       o.text AS written, t.log, t.created_at AS resolved_at
FROM orders o
JOIN turns t ON t.id = o.turn_id AND t.rolled_back = 0
JOIN games g ON g.id = t.game_id
JOIN seats s ON s.game_id = o.game_id AND s.seat = o.seat
WHERE o.status = 'accepted';

-- Every refused order with the reason given to the player.
CREATE VIEW rejections AS
SELECT o.game_id, o.step AS turn, o.seat, s.name AS player, o.text, o.reason, o.source, o.received_at
FROM orders o
JOIN seats s ON s.game_id = o.game_id AND s.seat = o.seat
WHERE o.status = 'rejected';

-- The public story of each game, turn by turn.
CREATE VIEW turn_log AS
SELECT game_id, turn, kind, log, public_view, created_at
FROM turns
WHERE rolled_back = 0;
