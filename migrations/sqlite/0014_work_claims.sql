-- Work on a game that no interaction starts, claimed by one process at a time. The AI's turn
-- (src/service/ai.rs): the ply it is for, the process's id, and when the lease ends (Unix ms;
-- the search's time and a margin); another process searches that ply only once the lease is
-- over. The clock's look at the game (src/service/timecontrol.rs): the process and the lease's
-- end, likewise.
ALTER TABLE games ADD COLUMN ai_claimed_ply INTEGER;
ALTER TABLE games ADD COLUMN ai_claimed_by TEXT;
ALTER TABLE games ADD COLUMN ai_claimed_until INTEGER;
ALTER TABLE games ADD COLUMN clock_claimed_by TEXT;
ALTER TABLE games ADD COLUMN clock_claimed_until INTEGER;
