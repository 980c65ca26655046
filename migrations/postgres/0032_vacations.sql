-- Vacations (src/store/vacations.rs): while a member's vacation is open (ended_at NULL) their
-- clocks stand still in all their games, for up to its planned end. One open per member;
-- the days actually taken (started_at to ended_at) count against a yearly allowance.
-- games.clock_frozen_at: when the clock of the player to move stopped for their vacation
-- (their time left is turn_deadline minus it); NULL: the clock runs, waits or is none.
CREATE TABLE vacations (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    started_at  BIGINT NOT NULL,
    planned_end BIGINT NOT NULL,
    ended_at    BIGINT
);
CREATE UNIQUE INDEX vacations_one_open ON vacations (user_id) WHERE ended_at IS NULL;
CREATE INDEX vacations_by_user ON vacations (user_id, started_at);
CREATE INDEX vacations_by_planned_end ON vacations (planned_end) WHERE ended_at IS NULL;
ALTER TABLE games ADD COLUMN clock_frozen_at BIGINT;
CREATE INDEX games_active_by_attacker ON games (attacker_user_id) WHERE status = 'active';
CREATE INDEX games_active_by_defender ON games (defender_user_id) WHERE status = 'active';
