-- The limits on challenges read these in the transaction that opens one: a challenger's open
-- challenges, and the challenges a user was sent lately.
CREATE INDEX challenges_open_by_challenger ON challenges (challenger_id) WHERE status = 'pending';
CREATE INDEX challenges_by_challenged ON challenges (challenged_id, created_at);
