-- A try's last answer, kept so that an answer whose reply was never shown can be shown again
-- instead of lost: `answer` (JSON: the move played, and when the try ended, the solution's move
-- and the ratings before and after), `answered_at`, and `answer_shown`, false from the answer's
-- commit until its reply is known to have been sent. Tries answered before keep no answer and
-- count as shown.
ALTER TABLE puzzle_attempts ADD COLUMN answer TEXT;
ALTER TABLE puzzle_attempts ADD COLUMN answered_at INTEGER;
ALTER TABLE puzzle_attempts ADD COLUMN answer_shown INTEGER NOT NULL DEFAULT 1
    CHECK (answer_shown IN (0, 1));
