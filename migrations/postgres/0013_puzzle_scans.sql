-- The finished games on this bot searched for puzzles (src/ai/puzzle.rs, on the AI pool's
-- background class), each once, with how many were found (stored in `puzzles`, source 'game').
CREATE TABLE puzzle_scans (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id),
    found       BIGINT NOT NULL,
    scanned_at  BIGINT NOT NULL
);
