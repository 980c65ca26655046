//! The requests to Discord's REST API that deliver a notice: the edit of an interaction's
//! original response, the edit of a message, the look through a channel's latest messages for
//! a post already made, and the post with its nonce; and what Discord's response says besides its
//! status (its error code, its rate limit).
//!
//! Their bodies are serenity's builders and Discord's messages are read as serenity's model,
//! but they go through a plain HTTP client rather than serenity's: a retry needs what
//! serenity's error drops (Discord's error code, a 429's `retry_after` and `global`), and with
//! `DISCORD_PROXY` set serenity's rate limiter is off, so the rate limits are ours to honour:
//! every request waits for its bucket as Discord's headers state it ([`super::buckets`]).

use super::buckets::{Buckets, Route, LONGEST_WAIT};
use super::policy::{self, Attempt, Delivery, ANSWER_GONE, UNKNOWN_MESSAGE};
use super::response::Response;
use crate::service::{AnswerRef, Buttons, Notice};
use poise::serenity_prelude as serenity;
use reqwest::header::{HeaderMap, AUTHORIZATION, CONTENT_TYPE, USER_AGENT};
use serde_json::Value;

/// How many of a channel's latest messages are looked through for a notice already posted.
const LOOK_BACK: u32 = 100;

/// Posts and edits channel messages on Discord's REST API.
pub struct Poster {
    client: reqwest::Client,
    /// `https://discord.com/api/v10`, or the proxy's equivalent.
    api: String,
    auth: String,
    /// The bot's own user id, asked of Discord once (`GET /users/@me`).
    me: tokio::sync::OnceCell<u64>,
    /// Each member's direct channel with the bot, once opened (`POST /users/@me/channels`,
    /// which answers with the same channel every time).
    dms: std::sync::Mutex<std::collections::HashMap<u64, u64>>,
    /// Discord's rate limits, as its responses state them.
    buckets: Buckets,
}

/// The handle on an interaction's original response that the notice of its change keeps (the
/// service stores it without reading it): the path of the interaction's webhook,
/// `{application}/{token}`.
pub fn answer_ref(application: u64, token: &str) -> AnswerRef {
    AnswerRef::new(format!("{application}/{token}"))
}

/// The interaction an [`AnswerRef`] stands for ([`answer_ref`]): its application and its token;
/// none if the handle is not one the bot made.
pub fn answer_webhook(answer: &AnswerRef) -> Option<(u64, &str)> {
    let (application, token) = answer.reply.split_once('/')?;
    let application = application.parse().ok()?;
    (!token.is_empty() && !token.contains('/')).then_some((application, token))
}

impl Poster {
    /// A poster on `client` (whose timeout makes a hung request fail, to be retried with the
    /// same nonce) with the bot's token, through `proxy` if set.
    pub fn new(client: reqwest::Client, token: &str, proxy: Option<&str>) -> Poster {
        let base = proxy.unwrap_or("https://discord.com").trim_end_matches('/');
        Poster {
            client,
            api: format!("{base}/api/v10"),
            auth: format!("Bot {}", token.trim_start_matches("Bot ")),
            me: tokio::sync::OnceCell::new(),
            dms: Default::default(),
            buckets: Buckets::default(),
        }
    }

    /// Delivers a notice once: while its interaction's token lives, by editing the
    /// interaction's original response (an edit shows once, however often it is sent); else
    /// edits its message if it names one that still exists; else posts it (with the board or
    /// graph, if it has one, as `filename`), unless the channel already shows it.
    pub(super) async fn send(
        &self,
        notice: &Notice,
        text: &str,
        png: Vec<u8>,
        filename: &str,
        now: i64,
    ) -> Attempt {
        // Worded by the caller, from what the notice tells, and marked as this notice's.
        let text = marked(text, &notice.nonce);
        let buttons_on = notice.payload.buttons;
        let answer = (notice.payload.answer.handle())
            .filter(|answer| answer.alive_at(now))
            .and_then(answer_webhook);
        if let Some(webhook) = answer {
            let attempt = self
                .edit_answer(webhook, &text, buttons_on, png.clone(), filename)
                .await;
            // The token has expired after all, or the response is gone (deleted): the channel
            // is looked through, below.
            if !attempt.code.is_some_and(|code| ANSWER_GONE.contains(&code)) {
                return attempt;
            }
        }
        if notice.payload.answer.is_private() {
            // For the interaction's caller alone: never posted where everyone would see it.
            let reason = "a private answer whose interaction's token has expired: not posted";
            return Delivery::Refused {
                reason: reason.into(),
            }
            .into();
        }
        if let Some(message) = notice.payload.edit {
            // Its buttons are the notice's (none: the message's are removed).
            let body = serenity::EditMessage::new()
                .content(&text)
                .components(buttons(buttons_on))
                .allowed_mentions(mentions(&text));
            let url = format!("{}/{message}", self.messages(notice.channel));
            let request = with_body(self.client.patch(url), &body, None);
            let attempt = policy::verdict(self.request(request).await);
            if attempt.code != Some(UNKNOWN_MESSAGE) {
                return self.confirmed(notice.channel, attempt).await;
            }
            // The message is gone (the channel may not be): post instead.
        }
        // Tried before (the post may have been made, its answer lost, and Discord's memory of
        // the nonce lasts only minutes), or the news of an interaction whose original response
        // may show it (edited before its token expired): if the channel shows it already, it
        // is delivered.
        let unsure = notice.attempts > 0 || notice.payload.answer.handle().is_some();
        if unsure {
            if let Some(message_id) = self.already_posted(notice).await {
                let message_id = Some(message_id);
                return Delivery::Delivered { message_id }.into();
            }
        }
        let mut body = serenity::CreateMessage::new()
            .allowed_mentions(mentions(&text))
            .content(text)
            .nonce(serenity::Nonce::String(notice.nonce.clone()))
            .enforce_nonce(true);
        if buttons_on.is_some() {
            body = body.components(buttons(buttons_on));
        }
        let file = attachment(png, filename);
        if let Some(file) = &file {
            body = body.add_file(file.clone());
        }
        let request = with_body(self.client.post(self.messages(notice.channel)), &body, file);
        let attempt = policy::verdict(self.request(request).await);
        self.confirmed(notice.channel, attempt).await
    }

    /// The direct channel between the bot and `user` (opened the first time, then
    /// remembered), or the attempt that failed to open it.
    pub(super) async fn open_dm(&self, user: u64) -> Result<u64, Attempt> {
        if let Some(&dm) = self.dms.lock().expect("not poisoned").get(&user) {
            return Ok(dm);
        }
        let url = format!("{}/users/@me/channels", self.api);
        let body = serde_json::json!({ "recipient_id": user.to_string() });
        let response = self
            .request(with_body(self.client.post(url), &body, None))
            .await;
        if let Ok(made) = &response {
            if (200..=299).contains(&made.status) {
                let id = made.body["id"].as_str().and_then(|id| id.parse().ok());
                let Some(id) = id else {
                    return Err(Delivery::Retry {
                        reason: "Discord's response to a direct channel has no id".into(),
                        after: None,
                    }
                    .into());
                };
                self.dms.lock().expect("not poisoned").insert(user, id);
                return Ok(id);
            }
        }
        Err(policy::verdict(response))
    }

    /// Makes a public thread of `channel` named `name`, without a message (a tournament's
    /// match game is played in it): the thread's id, or the attempt that failed.
    pub(super) async fn open_thread(&self, channel: u64, name: &str) -> Result<u64, Attempt> {
        let url = format!("{}/channels/{channel}/threads", self.api);
        let body = serenity::CreateThread::new(name)
            .kind(serenity::ChannelType::PublicThread)
            .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
        let response = self
            .request(with_body(self.client.post(url), &body, None))
            .await;
        if let Ok(made) = &response {
            if (200..=299).contains(&made.status) {
                return match made.body["id"].as_str().and_then(|id| id.parse().ok()) {
                    Some(id) => Ok(id),
                    None => Err(Delivery::Retry {
                        reason: "Discord's response to a new thread has no id".into(),
                        after: None,
                    }
                    .into()),
                };
            }
        }
        Err(self.confirmed(channel, policy::verdict(response)).await)
    }

    /// The bot's active threads of `channel` named `name`, the oldest first: a thread an
    /// attempt before made, whose answer was lost (or whose process stopped before recording
    /// it). Discord lists active threads by guild, so the channel's guild is asked first. The
    /// attempt that failed, if either request did: nothing is to be made then.
    pub(super) async fn threads_named(
        &self,
        channel: u64,
        name: &str,
    ) -> Result<Vec<u64>, Attempt> {
        let ok = |a: &Response| (200..=299).contains(&a.status);
        let url = format!("{}/channels/{channel}", self.api);
        let answer = self.request(self.client.get(url)).await;
        let guild = match &answer {
            Ok(a) if ok(a) => a.body["guild_id"]
                .as_str()
                .and_then(|g| g.parse::<u64>().ok()),
            _ => return Err(self.confirmed(channel, policy::verdict(answer)).await),
        };
        let (Some(guild), Some(me)) = (guild, self.me().await) else {
            let reason = "cannot tell the channel's guild or the bot's id".to_string();
            return Err(Delivery::Retry {
                reason,
                after: None,
            }
            .into());
        };
        let url = format!("{}/guilds/{guild}/threads/active", self.api);
        let answer = self.request(self.client.get(url)).await;
        let threads = match &answer {
            Ok(a) if ok(a) => a.body["threads"].as_array().cloned().unwrap_or_default(),
            _ => return Err(policy::verdict(answer)),
        };
        let id = |v: &serde_json::Value| v.as_str().and_then(|s| s.parse::<u64>().ok());
        let mut found: Vec<u64> = threads
            .iter()
            .filter(|t| {
                id(&t["parent_id"]) == Some(channel)
                    && id(&t["owner_id"]) == Some(me)
                    && t["name"].as_str() == Some(name)
            })
            .filter_map(|t| id(&t["id"]))
            .collect();
        found.sort_unstable();
        Ok(found)
    }

    /// `attempt`, unless Discord answered *Unknown Channel* and a look at the channel does not
    /// confirm it: the channel is there, or the look fails, and the notice is tried again. A
    /// game is aborted only on two answers that its channel is gone, since an abort cannot be
    /// undone.
    async fn confirmed(&self, channel: u64, attempt: Attempt) -> Attempt {
        let Delivery::ChannelGone { reason } = &attempt.delivery else {
            return attempt;
        };
        let url = format!("{}/channels/{channel}", self.api);
        let look = policy::verdict(self.request(self.client.get(url)).await);
        if matches!(look.delivery, Delivery::ChannelGone { .. }) {
            return attempt;
        }
        let reason = format!("{reason}, not confirmed by a look at the channel");
        Delivery::Retry {
            reason,
            after: None,
        }
        .into()
    }

    /// Edits an interaction's original response (the deferred answer to a command, or the
    /// message whose button was pressed) into a notice's news: its `text`, its buttons (none:
    /// the pressed message's are removed), and its board or graph as `filename`, if `png`
    /// holds one. The same edit sent again shows the same message. `webhook`: the interaction's
    /// application and token ([`answer_webhook`]).
    pub(super) async fn edit_answer(
        &self,
        (application, token): (u64, &str),
        text: &str,
        buttons_on: Option<Buttons>,
        png: Vec<u8>,
        filename: &str,
    ) -> Attempt {
        let url = format!(
            "{}/webhooks/{application}/{token}/messages/@original",
            self.api
        );
        let mut body = serenity::EditInteractionResponse::new()
            .content(text)
            .components(buttons(buttons_on))
            .allowed_mentions(mentions(text));
        let file = attachment(png, filename);
        if let Some(file) = &file {
            body = body.new_attachment(file.clone());
        }
        let request = with_body(self.client.patch(url), &body, file);
        policy::verdict(self.request(request).await)
    }

    /// The message among the channel's latest that is this notice: the bot's own (its user
    /// id), carrying the notice's nonce (Discord shows a message's nonce only for a short
    /// while) or the notice's mark in its content ([`marked`]). Never a message that merely
    /// reads alike: two notices may read alike, and another version may word one otherwise.
    /// None if there is none, or the channel cannot be read (the post's nonce is then the only
    /// guard).
    async fn already_posted(&self, notice: &Notice) -> Option<u64> {
        let me = self.me().await?;
        let url = format!("{}?limit={LOOK_BACK}", self.messages(notice.channel));
        let response = self.request(self.client.get(url)).await.ok()?;
        if !(200..=299).contains(&response.status) {
            return None;
        }
        let messages: Vec<serenity::Message> = serde_json::from_value(response.body).ok()?;
        let mark = mark(&notice.nonce);
        messages
            .iter()
            .find(|m| {
                m.author.id.get() == me
                    && (matches!(&m.nonce, Some(serenity::Nonce::String(n)) if *n == notice.nonce)
                        || m.content.contains(&mark))
            })
            .map(|m| m.id.get())
    }

    /// The bot's own user id, asked of Discord the first time it is needed; none while Discord
    /// cannot say.
    async fn me(&self) -> Option<u64> {
        let me = self.me.get_or_try_init(|| async {
            let url = format!("{}/users/@me", self.api);
            let response = self.request(self.client.get(url)).await.map_err(|_| ())?;
            let user: serenity::User = serde_json::from_value(response.body).map_err(|_| ())?;
            Ok::<_, ()>(user.id.get())
        });
        me.await.ok().copied()
    }

    /// The endpoint of `channel`'s messages.
    fn messages(&self, channel: u64) -> String {
        format!("{}/channels/{channel}/messages", self.api)
    }

    /// Sends `request` once its rate limit's bucket allows (waiting up to [`LONGEST_WAIT`];
    /// beyond that it is not sent, and answered as Discord would answer it then: a 429 with
    /// the wait), and records what the response says of the bucket.
    async fn request(&self, request: reqwest::RequestBuilder) -> Result<Response, reqwest::Error> {
        let request = request
            .header(AUTHORIZATION, &self.auth)
            .header(USER_AGENT, "DiscordBot (tablut-bot, 0.1)")
            .build()?;
        let route = Route::of(request.method().as_str(), request.url().path());
        let wait = self.buckets.wait(&route);
        if wait > LONGEST_WAIT {
            let message = "not sent: its rate limit's bucket is empty";
            return Ok(Response {
                status: 429,
                headers: HeaderMap::new(),
                body: serde_json::json!({"message": message, "code": 0,
                    "retry_after": wait.as_secs_f64(), "global": false}),
            });
        }
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
        let response = self.client.execute(request).await?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.bytes().await?;
        let response = Response {
            status,
            headers,
            body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        };
        let limited = (status == 429).then(|| {
            let limit = response.rate_limit();
            (limit.after, limit.global)
        });
        self.buckets.update(&route, &response.headers, limited);
        Ok(response)
    }
}

/// The mark of the notice whose nonce is `nonce`: the nonce in Unicode tag characters (U+E0020
/// to U+E007E mirror ASCII), after a word joiner. Nothing displays them; Discord keeps them with
/// the message's content, so the look through a channel finds a notice's message by its mark
/// long after Discord forgot the post's nonce, whatever its wording.
fn mark(nonce: &str) -> String {
    let tags = nonce
        .chars()
        .filter(|c| c.is_ascii_graphic())
        .filter_map(|c| char::from_u32(0xE0000 + u32::from(c)));
    std::iter::once('\u{2060}').chain(tags).collect()
}

/// A notice's `text` with its mark ([`mark`]), if the two fit in a message (2 000 characters).
pub(super) fn marked(text: &str, nonce: &str) -> String {
    let mark = mark(nonce);
    match text.chars().count() + mark.chars().count() <= 2000 {
        true => format!("{text}{mark}"),
        false => text.to_string(),
    }
}

/// The buttons a message carries, as Discord's components (none: an empty list).
fn buttons(buttons: Option<Buttons>) -> Vec<serenity::CreateActionRow> {
    match buttons {
        Some(Buttons::Challenge(id)) => crate::bot::buttons::challenge_buttons(id),
        Some(Buttons::Draw(game)) => crate::bot::buttons::draw_buttons(game),
        Some(Buttons::DailyPuzzle(day)) => crate::bot::buttons::daily_puzzle_buttons(day),
        Some(Buttons::Tournament(id)) => crate::bot::buttons::tournament_buttons(id),
        None => Vec::new(),
    }
}

/// Who a notice may ping: the users its `text` mentions itself (never a role, nor everyone,
/// nor a mention within a name).
fn mentions(text: &str) -> serenity::CreateAllowedMentions {
    crate::bot::messages::pinged(text)
}

/// The image a notice carries as a file named `filename` (none if `png` is empty).
fn attachment(png: Vec<u8>, filename: &str) -> Option<serenity::CreateAttachment> {
    (!png.is_empty()).then(|| serenity::CreateAttachment::bytes(png, filename))
}

/// A request with `body` (serenity's builder, as Discord takes it) as JSON, or, with a `file`,
/// as the `payload_json` of a multipart body whose one file it is.
fn with_body(
    request: reqwest::RequestBuilder,
    body: &impl serde::Serialize,
    file: Option<serenity::CreateAttachment>,
) -> reqwest::RequestBuilder {
    let json = serde_json::to_string(body).expect("a builder serializes");
    let Some(file) = file else {
        return request.header(CONTENT_TYPE, "application/json").body(json);
    };
    let part = reqwest::multipart::Part::bytes(file.data)
        .file_name(file.filename)
        .mime_str("image/png")
        .expect("a valid MIME type");
    request.multipart(
        reqwest::multipart::Form::new()
            .text("payload_json", json)
            .part("files[0]", part),
    )
}
