-- A change's news is shown by an edit of its interaction's response, which the handler and the
-- dispatcher may both send (it shows once): nothing holds a row a second time for a late
-- answer any more, so `held_again` goes. (Rows held again are held, as any held row.)
ALTER TABLE outbox DROP COLUMN held_again;
