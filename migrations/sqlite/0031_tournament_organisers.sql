-- The role whose members may run tournaments in a server, besides those with Manage Server.
CREATE TABLE tournament_organisers (
    guild_id    INTEGER  PRIMARY KEY,
    role_id     INTEGER  NOT NULL,
    set_by      INTEGER  NOT NULL,
    updated_at  INTEGER  NOT NULL
);
