-- The news that gives a player the turn starts their time when it is shown: until then the
-- game's clock waits for that notice (its outbox id), and the clock's sweep leaves the game
-- alone; once the notice is delivered, the deadline is the delivery's time plus the time per
-- move (src/store/games.rs, start_clock_shown). NULL: the clock runs on its deadline.
ALTER TABLE games ADD COLUMN clock_waits_for INTEGER;
