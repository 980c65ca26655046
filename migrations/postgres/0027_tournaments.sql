-- A tournament in a server: its announcement in `channel_id`, its games in threads of that
-- channel. `rules` (JSON) and the time control are every game's. `format`: a round robin (every
-- pair of entrants meets once; `rounds` is set when it starts) or a Swiss event of `rounds`
-- rounds. `status`: `signup` (members join and leave), `running`, `paused` (games under way go
-- on, the next round waits for `resume`), `finished` or `cancelled`. `round`: the last round
-- paired (0 before the start); a round is paired by the conditional update that moves it on,
-- so it is paired once whatever the processes. `announcement`: the outbox notice that posted
-- the announcement (whose message later notices edit), `announcement_message` the message it
-- became, once read back.
CREATE TABLE tournaments (
    id                   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id             BIGINT  NOT NULL,
    channel_id           BIGINT  NOT NULL,
    organiser_id         BIGINT  NOT NULL,
    name                 TEXT    NOT NULL,
    rules                TEXT    NOT NULL,
    format               TEXT    NOT NULL CHECK (format IN ('round_robin', 'swiss')),
    rounds               BIGINT  NOT NULL DEFAULT 0,
    time_per_move_ms     BIGINT,
    increment_ms         BIGINT,
    rated                BOOLEAN NOT NULL,
    seats                BIGINT  NOT NULL CHECK (seats >= 2 AND seats <= 256),
    signup_until         BIGINT,
    status               TEXT    NOT NULL DEFAULT 'signup'
                         CHECK (status IN ('signup', 'running', 'paused', 'finished', 'cancelled')),
    round                BIGINT  NOT NULL DEFAULT 0,
    announcement         BIGINT,
    announcement_message BIGINT,
    created_at           BIGINT  NOT NULL,
    updated_at           BIGINT  NOT NULL
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
