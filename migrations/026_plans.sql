-- 026_plans.sql: each seat's conditional orders (IF Bob MOVE 3 12c THEN MOVE 2 14a), secret until one is played, and what her next mail tells her of them; no public view reads either table.
CREATE TABLE plans (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    seat       INTEGER NOT NULL,
    armed_step INTEGER NOT NULL,                     -- the others' orders after this step are what its conditions read
    tree       TEXT NOT NULL CHECK (json_valid(tree)), -- {"b": [{"c": [{"s": 2, "o": [orders]}], "a": answer, "n": tree}], "e": {"a": answer, "n": tree}}
    updated_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats(game_id, seat)
);
CREATE TABLE plan_notes (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    seat       INTEGER NOT NULL,
    step       INTEGER NOT NULL,                     -- the step it happened at: her next mail after it tells her
    note       TEXT NOT NULL,                        -- in her words, as her mail shows it
    created_at TEXT NOT NULL,
    FOREIGN KEY (game_id, seat) REFERENCES seats(game_id, seat)
);
CREATE INDEX plan_notes_seat ON plan_notes(game_id, seat, step);
