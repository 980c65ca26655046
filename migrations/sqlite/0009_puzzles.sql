-- Puzzles: a position where the side to move has exactly one move that wins by force within
-- `moves` of its moves (kind 'win'), or exactly one that does not lose (kind 'save'), proven by
-- src/ai/puzzle.rs. `line` is the solution, moves as `from-to` separated by spaces: the solver's
-- move, the reply, the solver's move… Each puzzle has its own Glicko-2 rating, as players do.
-- `source` is 'seed' (assets/puzzles.json, the AI's games) or 'game' (game_id, on this bot).
CREATE TABLE puzzles (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    position    TEXT    NOT NULL,
    to_move     TEXT    NOT NULL CHECK (to_move IN ('attackers', 'defenders')),
    rules       TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('win', 'save')),
    moves       INTEGER NOT NULL CHECK (moves >= 1),
    line        TEXT    NOT NULL,
    source      TEXT    NOT NULL CHECK (source IN ('seed', 'game')),
    game_id     INTEGER REFERENCES games (id),
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    UNIQUE (position, to_move, rules)
);
CREATE INDEX puzzles_by_rating ON puzzles (rating);
