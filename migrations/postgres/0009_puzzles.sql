-- Puzzles: a position where the side to move has exactly one move that wins by force within
-- `moves` of its moves (kind 'win'), or exactly one that does not lose (kind 'save'), proven by
-- src/ai/puzzle.rs. `line` is the solution, moves as `from-to` separated by spaces: the solver's
-- move, the reply, the solver's move… Each puzzle has its own Glicko-2 rating, as players do.
-- `source` is 'seed' (assets/puzzles.json, the AI's games) or 'game' (game_id, on this bot).
CREATE TABLE puzzles (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    position    TEXT    NOT NULL,
    to_move     TEXT    NOT NULL CHECK (to_move IN ('attackers', 'defenders')),
    rules       TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('win', 'save')),
    moves       BIGINT  NOT NULL CHECK (moves >= 1),
    line        TEXT    NOT NULL,
    source      TEXT    NOT NULL CHECK (source IN ('seed', 'game')),
    game_id     BIGINT  REFERENCES games (id),
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    attempts    BIGINT  NOT NULL DEFAULT 0,
    solved      BIGINT  NOT NULL DEFAULT 0,
    created_at  BIGINT  NOT NULL,
    UNIQUE (position, to_move, rules)
);
CREATE INDEX puzzles_by_rating ON puzzles (rating);
