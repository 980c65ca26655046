-- The role whose members may run tournaments in a server, besides those with Manage Server.
CREATE TABLE tournament_organisers (
    guild_id    BIGINT  PRIMARY KEY,
    role_id     BIGINT  NOT NULL,
    set_by      BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
