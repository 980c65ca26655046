-- The finished games on this bot searched for puzzles (src/ai/puzzle.rs, on the AI pool's
-- background class), each once, with how many were found (stored in `puzzles`, source 'game').
CREATE TABLE puzzle_scans (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    found       INTEGER NOT NULL,
    scanned_at  INTEGER NOT NULL
);
