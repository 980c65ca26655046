-- Fischer clocks (a bank and an increment). time_per_move_ms holds the time per move or the
-- bank; increment_ms the increment, NULL for a time per move (every game and challenge made
-- before this migration keeps its time per move). In a game with a bank, turn_ms is the bank
-- of the side to move as its turn started (its deadline is the turn's start plus turn_ms) and
-- waiting_ms the other side's bank; both NULL in a game with a time per move.
ALTER TABLE games ADD COLUMN increment_ms BIGINT;
ALTER TABLE games ADD COLUMN turn_ms BIGINT;
ALTER TABLE games ADD COLUMN waiting_ms BIGINT;
ALTER TABLE challenges ADD COLUMN increment_ms BIGINT;
