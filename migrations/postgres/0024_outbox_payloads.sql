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
DO $$
DECLARE
    r RECORD;
    p JSONB;
    answer JSONB;
BEGIN
    FOR r IN SELECT id, kind, created_at, payload FROM outbox
        WHERE payload LIKE '%"answer"%' OR payload LIKE '%"text"%' LOOP
        BEGIN
            p := r.payload::jsonb;
        EXCEPTION WHEN invalid_text_representation THEN
            CONTINUE;
        END;
        answer := p -> 'answer';
        IF jsonb_typeof(answer) = 'object' AND NOT answer ? 'reply'
            AND jsonb_typeof(answer -> 'application') = 'number'
            AND jsonb_typeof(answer -> 'token') = 'string' THEN
            p := jsonb_set(p, '{answer}', (answer - 'application' - 'token')
                || jsonb_build_object('reply',
                    (answer ->> 'application') || '/' || (answer ->> 'token')));
        END IF;
        IF jsonb_typeof(p -> 'answer') = 'object' AND NOT (p -> 'answer') ? 'expires_at' THEN
            p := jsonb_set(p, '{answer,expires_at}', to_jsonb(r.created_at + 840000));
        END IF;
        IF jsonb_typeof(p) = 'object' AND NOT p ? 'news'
            AND jsonb_typeof(p -> 'text') = 'string' THEN
            p := (p - 'text') || jsonb_build_object('news', jsonb_build_object('worded',
                jsonb_build_object('kind', r.kind, 'text', p -> 'text')));
        END IF;
        IF p IS DISTINCT FROM r.payload::jsonb THEN
            UPDATE outbox SET payload = p::text WHERE id = r.id;
        END IF;
    END LOOP;
END $$;
