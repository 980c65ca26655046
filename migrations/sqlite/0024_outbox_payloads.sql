-- A notice's payload as the service reads it today. Rows written by older versions get it:
--
-- * `answer` (the interaction whose original response shows the news) holds the bot's handle
--   on that response, `reply`, which the service keeps without reading it. Rows written before
--   held the interaction's `application` and `token` instead: they get the handle the bot makes
--   of those (`{application}/{token}`), so they are still shown by their edit after the
--   upgrade, and the service never reads a token. Its `expires_at`, when the handle stops
--   serving: rows written before it was recorded get the life they were read with, 14 minutes
--   (`ANSWER_LIFE`) after the row was written.
-- * `news` says what the notice tells. Rows written before notices were typed held their words
--   in `text` instead: they tell `worded` news, those words with the row's kind.
--
-- A payload that is not JSON is left as it is (its notice is given up as unreadable when it is
-- claimed).
UPDATE outbox
SET payload = json_set(
    json_remove(payload, '$.answer.application', '$.answer.token'),
    '$.answer.reply',
    json_extract(payload, '$.answer.application') || '/' || json_extract(payload, '$.answer.token'))
WHERE CASE WHEN json_valid(payload) THEN
    json_type(payload, '$.answer.reply') IS NULL
    AND json_type(payload, '$.answer.application') = 'integer'
    AND json_type(payload, '$.answer.token') = 'text'
ELSE 0 END;
UPDATE outbox
SET payload = json_set(payload, '$.answer.expires_at', created_at + 840000)
WHERE CASE WHEN json_valid(payload) THEN
    json_type(payload, '$.answer') = 'object' AND json_type(payload, '$.answer.expires_at') IS NULL
ELSE 0 END;
UPDATE outbox
SET payload = json_set(
    json_remove(payload, '$.text'),
    '$.news',
    json_object('worded', json_object('kind', kind, 'text', json_extract(payload, '$.text'))))
WHERE CASE WHEN json_valid(payload) THEN
    json_type(payload, '$.news') IS NULL AND json_type(payload, '$.text') = 'text'
ELSE 0 END;
