-- Members forgotten (docs/PRIVACY.md) all become the stand-in, id 0, in the tournaments they
-- finished, and one tournament may hold several: a member enters a tournament once, the
-- stand-in as often as members are forgotten.
ALTER TABLE tournament_entrants DROP CONSTRAINT tournament_entrants_pkey;

CREATE UNIQUE INDEX tournament_entrants_once ON tournament_entrants (tournament_id, user_id)
    WHERE user_id <> 0;
