//! The dispatcher: one task that delivers the outbox (see `service::outbox`). It takes the due
//! notices (each channel's next one), posts them concurrently across channels with their
//! nonce and `enforce_nonce`, and reports each result to the service, which decides what
//! follows. It wakes when a notice is written and when the next one falls due, so notices
//! left by a crash go out after the restart.
//!
//! Posts go through a plain HTTP client rather than serenity's: a retry needs what serenity's
//! error drops (a 429's `retry_after` and `global`), and with `DISCORD_PROXY` set serenity's
//! rate limiter is off, so the 429s are ours to honour.

use crate::service::{
    AnswerRef, Buttons, ChannelId, Delivery, Notice, NoticeId, Recorded, Service,
};
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, USER_AGENT};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How many notices (each of a different channel) are delivered at once.
const BATCH: u32 = 16;
/// The longest the dispatcher sleeps without looking at the outbox.
const POLL: Duration = Duration::from_secs(2);
/// How often delivered notices past their retention are deleted (the first time this long
/// after the start, so a start-up that fails does not write).
const PRUNE_EVERY: Duration = Duration::from_secs(600);
const FIRST_PRUNE: Duration = Duration::from_secs(60);
/// How many of a channel's latest messages are looked through for a notice already posted.
const LOOK_BACK: u32 = 100;

/// Posts and edits channel messages on Discord's REST API.
pub struct Poster {
    client: reqwest::Client,
    /// `https://discord.com/api/v10`, or the proxy's equivalent.
    api: String,
    auth: String,
}

/// One attempt: how it went and, for a global 429, how long every post must wait.
struct Attempt {
    delivery: Delivery,
    global_pause: Option<Duration>,
    /// Discord's error code, if it answered with its error body.
    code: Option<i64>,
}

/// Discord's JSON error codes the dispatcher acts on.
const UNKNOWN_CHANNEL: i64 = 10003;
const UNKNOWN_MESSAGE: i64 = 10008;
const UNKNOWN_WEBHOOK: i64 = 10015;
const UNKNOWN_INTERACTION: i64 = 10062;
const INVALID_WEBHOOK_TOKEN: i64 = 50027;
const MISSING_ACCESS: i64 = 50001;
const MISSING_PERMISSIONS: i64 = 50013;

impl Poster {
    /// A poster on `client` (whose timeout makes a hung request fail, to be retried with the
    /// same nonce) with the bot's token, through `proxy` if set.
    pub fn new(client: reqwest::Client, token: &str, proxy: Option<&str>) -> Poster {
        let base = proxy.unwrap_or("https://discord.com").trim_end_matches('/');
        Poster {
            client,
            api: format!("{base}/api/v10"),
            auth: format!("Bot {}", token.trim_start_matches("Bot ")),
        }
    }

    /// Delivers a notice once: while its interaction's token lives, by editing the
    /// interaction's original response (an edit shows once, however often it is sent); else
    /// edits its message if it names one that still exists; else posts it (with the board or
    /// graph, if it has one, as `filename`), unless the channel already shows it.
    async fn send(&self, notice: &Notice, png: Vec<u8>, filename: &str, now: i64) -> Attempt {
        // Worded now, from what the notice tells.
        let text = crate::bot::messages::notice_text(&notice.news);
        if let Some(answer) = &notice.payload.answer {
            if answer.alive_at(now, notice.created_at) {
                let attempt = self
                    .edit_answer(answer, &text, notice.payload.buttons, png.clone(), filename)
                    .await;
                // The token has expired after all, or the response is gone (deleted): the
                // channel is looked through, below.
                let gone = [
                    INVALID_WEBHOOK_TOKEN,
                    UNKNOWN_WEBHOOK,
                    UNKNOWN_MESSAGE,
                    UNKNOWN_INTERACTION,
                ];
                if !attempt.code.is_some_and(|code| gone.contains(&code)) {
                    return attempt;
                }
            }
        }
        let mentions = json!({"parse": ["users"]});
        if let Some(message) = notice.payload.edit {
            let body = json!({"content": text, "components": [],
                "allowed_mentions": mentions});
            let url = format!(
                "{}/channels/{}/messages/{message}",
                self.api, notice.channel
            );
            let attempt = self.classify(self.request(json(self.client.patch(url), &body)).await);
            if attempt.code != Some(UNKNOWN_MESSAGE) {
                return attempt;
            }
            // The message is gone (the channel may not be): post instead.
        }
        // Tried before (the post may have been made, its answer lost, and Discord's memory of
        // the nonce lasts only minutes), or the news of an interaction whose original response
        // may show it (edited before its token expired): if the channel shows it already, it
        // is delivered.
        let unsure = notice.attempts > 0 || notice.payload.answer.is_some();
        if unsure {
            if let Some(message_id) = self.already_posted(notice, &text).await {
                return Attempt {
                    delivery: Delivery::Delivered {
                        message_id: Some(message_id),
                    },
                    global_pause: None,
                    code: None,
                };
            }
        }
        let mut body = json!({"content": text, "nonce": notice.nonce,
            "enforce_nonce": true, "allowed_mentions": mentions});
        if notice.payload.buttons.is_some() {
            body["components"] = buttons(notice.payload.buttons);
        }
        let url = format!("{}/channels/{}/messages", self.api, notice.channel);
        let request = if png.is_empty() {
            json(self.client.post(url), &body)
        } else {
            body["attachments"] = json!([{"id": 0, "filename": filename}]);
            self.client
                .post(url)
                .multipart(with_file(&body, png, filename))
        };
        self.classify(self.request(request).await)
    }

    /// Edits an interaction's original response (the deferred answer to a command, or the
    /// message whose button was pressed) into a notice's news: its `text`, its buttons (none:
    /// the pressed message's are removed), and its board or graph as `filename`, if `png`
    /// holds one. The same edit sent again shows the same message.
    async fn edit_answer(
        &self,
        answer: &AnswerRef,
        text: &str,
        buttons_on: Option<Buttons>,
        png: Vec<u8>,
        filename: &str,
    ) -> Attempt {
        let url = format!(
            "{}/webhooks/{}/{}/messages/@original",
            self.api, answer.application, answer.token
        );
        let mut body = json!({"content": text, "components": buttons(buttons_on),
            "allowed_mentions": {"parse": ["users"]}});
        let request = if png.is_empty() {
            json(self.client.patch(url), &body)
        } else {
            body["attachments"] = json!([{"id": 0, "filename": filename}]);
            self.client
                .patch(url)
                .multipart(with_file(&body, png, filename))
        };
        self.classify(self.request(request).await)
    }

    /// The message among the channel's latest that is this notice: it carries the notice's
    /// nonce (Discord shows a message's nonce only for a short while) or is the bot's with the
    /// notice's very text. None if there is none, or the channel cannot be read (the post's
    /// nonce is then the only guard).
    async fn already_posted(&self, notice: &Notice, text: &str) -> Option<u64> {
        let url = format!(
            "{}/channels/{}/messages?limit={LOOK_BACK}",
            self.api, notice.channel
        );
        let (status, _, body) = self.request(self.client.get(url)).await.ok()?;
        if !(200..=299).contains(&status) {
            return None;
        }
        body.as_array()?
            .iter()
            .find(|m| {
                m["nonce"].as_str() == Some(notice.nonce.as_str())
                    || (m["author"]["bot"].as_bool() == Some(true)
                        && m["content"].as_str() == Some(text))
            })
            .and_then(|m| m["id"].as_str()?.parse().ok())
    }

    async fn request(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<(u16, reqwest::header::HeaderMap, Value), reqwest::Error> {
        let response = request
            .header(AUTHORIZATION, &self.auth)
            .header(USER_AGENT, "DiscordBot (tablut-bot, 0.1)")
            .send()
            .await?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.bytes().await?;
        Ok((
            status,
            headers,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        ))
    }

    /// What a response (or its absence) means for the notice. Discord's verdicts are read from
    /// its error codes, not from bare statuses: a 4xx without Discord's error body (a proxy's
    /// 404, say) is no verdict, and is tried again.
    fn classify(
        &self,
        response: Result<(u16, reqwest::header::HeaderMap, Value), reqwest::Error>,
    ) -> Attempt {
        let retry = |reason: String, after: Option<Duration>| Delivery::Retry { reason, after };
        let attempt = |delivery| Attempt {
            delivery,
            global_pause: None,
            code: None,
        };
        let (status, headers, body) = match response {
            Ok(r) => r,
            Err(e) => {
                let what = if e.is_timeout() {
                    "timed out"
                } else {
                    "failed"
                };
                return attempt(retry(
                    format!("the request {what}: {}", e.without_url()),
                    None,
                ));
            }
        };
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        // Discord's error body: `{"code": 10003, "message": "Unknown Channel"}`.
        let code = body["code"]
            .as_i64()
            .filter(|_| body["message"].is_string());
        let message = body["message"].as_str().unwrap_or_default();
        let reason = match code {
            Some(code) => format!("{status}: {message} (code {code})"),
            None if message.is_empty() => format!("{status} without Discord's error body"),
            None => format!("{status}: {message}"),
        };
        let delivery = match (status, code) {
            (200..=299, _) => Delivery::Delivered {
                message_id: body["id"].as_str().and_then(|id| id.parse().ok()),
            },
            (429, _) => {
                let seconds = body["retry_after"]
                    .as_f64()
                    .or_else(|| header("retry-after").and_then(|v| v.parse().ok()))
                    .unwrap_or(1.0)
                    .clamp(0.0, 3600.0);
                let after = Duration::from_secs_f64(seconds);
                let global = body["global"].as_bool() == Some(true)
                    || header("x-ratelimit-global") == Some("true")
                    || header("x-ratelimit-scope") == Some("global");
                return Attempt {
                    delivery: retry(reason, Some(after)),
                    global_pause: global.then_some(after),
                    code,
                };
            }
            (401, _) => Delivery::Unauthorized { reason },
            (408 | 500..=599, _) => retry(reason, None),
            (_, Some(UNKNOWN_CHANNEL)) => Delivery::ChannelGone { reason },
            (_, Some(MISSING_ACCESS | MISSING_PERMISSIONS)) => {
                Delivery::ChannelRefusesUs { reason }
            }
            (_, Some(_)) => Delivery::Refused { reason },
            // Not Discord's answer (a proxy's, or a load balancer's): no verdict on the notice.
            (_, None) => retry(reason, None),
        };
        Attempt {
            code,
            ..attempt(delivery)
        }
    }
}

/// The buttons a message carries, as Discord's components (none: an empty list).
fn buttons(buttons: Option<Buttons>) -> Value {
    let rows = match buttons {
        Some(Buttons::Challenge(id)) => crate::bot::buttons::challenge_buttons(id),
        Some(Buttons::Draw(game)) => crate::bot::buttons::draw_buttons(game),
        Some(Buttons::DailyPuzzle(day)) => crate::bot::buttons::daily_puzzle_buttons(day),
        None => Vec::new(),
    };
    serde_json::to_value(rows).expect("buttons serialize")
}

/// A multipart body: `body` as `payload_json`, and `png` as its one file.
fn with_file(body: &Value, png: Vec<u8>, filename: &str) -> reqwest::multipart::Form {
    let file = reqwest::multipart::Part::bytes(png)
        .file_name(filename.to_string())
        .mime_str("image/png")
        .expect("a valid MIME type");
    reqwest::multipart::Form::new()
        .text("payload_json", body.to_string())
        .part("files[0]", file)
}

/// A request with a JSON body.
fn json(request: reqwest::RequestBuilder, body: &Value) -> reqwest::RequestBuilder {
    request
        .header(CONTENT_TYPE, "application/json")
        .body(body.to_string())
}

/// Starts the dispatcher. It stops when [`Dispatcher::stop`] says so, not when the bot's other
/// tasks do: at a shutdown, the commands in flight are answered first.
pub fn start(service: Arc<Service>, poster: Arc<Poster>) -> Dispatcher {
    let stop = CancellationToken::new();
    let stopping = stop.clone();
    let halt = Arc::new(AtomicBool::new(false));
    let halted = halt.clone();
    let handle = tokio::spawn(async move {
        let wake = service.outbox_wake();
        let mut paused_until: Option<Instant> = None;
        let mut prune_at = Instant::now() + FIRST_PRUNE;
        // The attempts under way, at most one a channel (which notice), so a channel's notices
        // go out in order while the other channels' go on: a slow channel delays only itself.
        let mut under_way = tokio::task::JoinSet::new();
        let mut tasks: HashMap<tokio::task::Id, ChannelId> = HashMap::new();
        let mut busy: HashMap<ChannelId, NoticeId> = HashMap::new();
        // A channel's next notice, claimed while its attempt before was still under way.
        let mut next_of: HashMap<ChannelId, Notice> = HashMap::new();
        let spawn = |under_way: &mut tokio::task::JoinSet<Outcome>,
                     tasks: &mut HashMap<tokio::task::Id, ChannelId>,
                     busy: &mut HashMap<ChannelId, NoticeId>,
                     notice: Notice| {
            busy.insert(notice.channel, notice.id);
            let channel = notice.channel;
            let (service, poster) = (service.clone(), poster.clone());
            let task = under_way.spawn(async move { deliver(&service, &poster, notice).await });
            tasks.insert(task.id(), channel);
        };
        loop {
            // Asked to stop: no new attempt; those under way are finished and recorded, so no
            // claimed notice is left to its lease.
            let stop_asked = stopping.is_cancelled();
            if stop_asked && under_way.is_empty() {
                return;
            }
            if !stop_asked && Instant::now() >= prune_at {
                prune_at = Instant::now() + PRUNE_EVERY;
                let pruned = match service.database_now().await {
                    Ok(now) => service.prune_outbox(now).await,
                    Err(e) => Err(e),
                };
                match pruned {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(deleted = n, "old notices deleted from the outbox"),
                    Err(e) => tracing::error!(error = ?e, "cannot prune the outbox"),
                }
            }
            let paused = paused_until.filter(|&until| until > Instant::now());
            let mut wait = POLL;
            if let Some(until) = paused {
                wait = until - Instant::now();
            } else if !stop_asked && !halted.load(Ordering::SeqCst) {
                let free: Vec<ChannelId> = next_of
                    .keys()
                    .filter(|c| !busy.contains_key(c))
                    .copied()
                    .collect();
                for channel in free {
                    let notice = next_of.remove(&channel).expect("listed");
                    spawn(&mut under_way, &mut tasks, &mut busy, notice);
                }
                let room = BATCH.saturating_sub(under_way.len() as u32);
                if room > 0 {
                    // Every time the dispatcher compares is the database's, never this
                    // process's: the leases and holds of every process are measured on one
                    // clock. Claimed, so that another process's dispatcher does not deliver
                    // them too.
                    let claimed = match service.database_now().await {
                        Ok(now) => service.claim_notices(now, room).await.map(|due| (now, due)),
                        Err(e) => Err(e),
                    };
                    match claimed {
                        Ok((now, due)) => {
                            for notice in due {
                                match busy.get(&notice.channel) {
                                    // Its claim ran out while its attempt is still under way:
                                    // that attempt records it.
                                    Some(&id) if id == notice.id => {}
                                    // The one under way is settled (its answer showed it):
                                    // this one follows it.
                                    Some(_) => {
                                        next_of.insert(notice.channel, notice);
                                    }
                                    None => spawn(&mut under_way, &mut tasks, &mut busy, notice),
                                }
                            }
                            let next = service.next_notice_at().await.unwrap_or_else(|e| {
                                tracing::error!(error = ?e, "cannot read the outbox");
                                None
                            });
                            if let Some(at) = next {
                                wait = wait.min(Duration::from_millis((at - now).max(0) as u64));
                            }
                        }
                        Err(e) => tracing::error!(error = ?e, "cannot read the outbox"),
                    }
                }
            }
            tokio::select! {
                Some(done) = under_way.join_next_with_id(), if !under_way.is_empty() => {
                    let (id, outcome) = match done {
                        Ok((id, outcome)) => (id, Some(outcome)),
                        Err(e) => {
                            tracing::error!(error = %e, "a delivery failed unrecorded");
                            (e.id(), None)
                        }
                    };
                    if let Some(channel) = tasks.remove(&id) {
                        busy.remove(&channel);
                    }
                    let Some(outcome) = outcome else { continue };
                    if let Some(pause) = outcome.global_pause {
                        let until = Instant::now() + pause;
                        paused_until = Some(paused_until.map_or(until, |p| p.max(until)));
                    }
                    if outcome.unauthorized && !halted.swap(true, Ordering::SeqCst) {
                        // Every post would be refused: delivery stops (loudly), and the
                        // notices wait in the outbox for a start with a valid token.
                        tracing::error!("the dispatcher stops: Discord refuses the bot's token");
                        next_of.clear();
                    }
                }
                _ = wake.notified() => {}
                _ = stopping.cancelled(), if !stop_asked => {}
                _ = tokio::time::sleep(wait) => {}
            }
        }
    });
    Dispatcher {
        handle,
        stop,
        halted: halt,
    }
}

/// The running dispatcher.
pub struct Dispatcher {
    handle: tokio::task::JoinHandle<()>,
    stop: CancellationToken,
    /// Set when delivery stopped because Discord refused the bot's token.
    halted: Arc<AtomicBool>,
}

impl Dispatcher {
    /// Stops it once its attempts under way are recorded (waiting up to `within`), so the notices
    /// it claimed are not left to their lease (the next start would wait that long to deliver
    /// them); past `within`, it is cut short, and those wait for their lease.
    pub async fn stop(self, within: Duration) {
        self.stop.cancel();
        let mut handle = self.handle;
        if tokio::time::timeout(within, &mut handle).await.is_err() {
            handle.abort();
        }
    }

    /// Whether delivery stopped because Discord refused the bot's token (401): the notices wait
    /// in the outbox for a start with a valid token.
    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::SeqCst)
    }

    /// Stops it at once (a start-up that failed).
    pub fn abort(&self) {
        self.handle.abort();
    }
}

/// The image a notice carries, drawn now, and its file's name (none: empty). Drawing fails
/// alone: the notice goes without.
async fn draw(service: &Service, notice: &Notice) -> (Vec<u8>, &'static str) {
    let payload = &notice.payload;
    let drawn = match (&payload.board, &payload.puzzle, &payload.graph) {
        (Some(board), _, _) => service.notice_board(board).await,
        (None, Some(puzzle), _) => service.notice_puzzle_board(puzzle).await,
        (None, None, Some(graph)) => {
            let graph = service.notice_graph(graph).await;
            return (
                graph.unwrap_or_else(|e| {
                    tracing::error!(notice = notice.id, error = ?e, "cannot draw a notice's graph: sending it without");
                    Vec::new()
                }),
                "analysis.png",
            );
        }
        (None, None, None) => Ok(Vec::new()),
    };
    let png = drawn.unwrap_or_else(|e| {
        tracing::error!(notice = notice.id, error = ?e, "cannot draw a notice's board: sending it without");
        Vec::new()
    });
    (png, "board.png")
}

/// Shows notice `id`, the news of the interaction handled now, by editing the interaction's
/// original response, with `png` as its board (drawn here if empty), and records it delivered.
/// If the edit fails, the notice is left to the dispatcher at once, which sends the same edit
/// (an edit shows once, however often it is sent) or, past the token's life, posts the news.
/// Nothing a caller must do either way.
pub async fn show_answer(service: &Service, poster: &Poster, id: NoticeId, png: Vec<u8>) {
    let notice = match service.notice(id).await {
        Ok(Some(notice)) => notice,
        Ok(None) => return,
        Err(e) => {
            tracing::error!(notice = id, error = ?e, "cannot read a notice to show: the dispatcher shows it");
            return;
        }
    };
    let Some(answer) = &notice.payload.answer else {
        return;
    };
    let (png, filename) = match png.is_empty() {
        true => draw(service, &notice).await,
        false => (png, "board.png"),
    };
    let attempt = poster
        .edit_answer(
            answer,
            &crate::bot::messages::notice_text(&notice.news),
            notice.payload.buttons,
            png,
            filename,
        )
        .await;
    let recorded = match attempt.delivery {
        delivered @ Delivery::Delivered { .. } => match service.database_now().await {
            Ok(now) => service
                .record_delivery(&notice, delivered, now)
                .await
                .map(|_| ()),
            Err(e) => Err(e),
        },
        failed => {
            tracing::warn!(notice = id, kind = notice.kind, outcome = ?failed, "the edit showing a change failed: the dispatcher sends it again");
            service.answer_failed(id).await
        }
    };
    if let Err(e) = recorded {
        tracing::error!(notice = id, error = ?e, "cannot record an answer: the dispatcher shows it after its hold");
    }
}

/// One attempt at one notice, recorded.
async fn deliver(service: &Service, poster: &Poster, mut notice: Notice) -> Outcome {
    let (png, filename) = draw(service, &notice).await;
    if let Some(earlier) = notice.payload.edit_notice {
        // The message an earlier notice became (the channel's notices go out in order, so it
        // has been delivered or given up by now); none: post.
        notice.payload.edit = service.notice_message(earlier).await.unwrap_or_else(|e| {
            tracing::error!(notice = notice.id, error = ?e, "cannot read the message to edit: posting");
            None
        });
    }
    // The database's time, which the notice's was written on: the interaction's token is
    // alive for 15 minutes from then. Unknown (the database cannot be read), it is taken as
    // expired, so the channel is looked through before anything is posted.
    let now = service.database_now().await.unwrap_or(i64::MAX);
    let attempt = poster.send(&notice, png, filename, now).await;
    let (id, channel, kind) = (notice.id, notice.channel, notice.kind.as_str());
    let unauthorized = matches!(attempt.delivery, Delivery::Unauthorized { .. });
    match &attempt.delivery {
        Delivery::Delivered { .. } => tracing::debug!(notice = id, channel, kind, "delivered"),
        Delivery::Retry { reason, .. } => {
            tracing::warn!(
                notice = id,
                channel,
                kind,
                attempts = notice.attempts + 1,
                reason,
                "delivery failed; retrying"
            )
        }
        Delivery::Unauthorized { reason } => {
            tracing::error!(
                notice = id,
                channel,
                kind,
                reason,
                "Discord refuses the bot's token (401): delivery stops; the outbox keeps its \
                 notices until the bot runs with a valid DISCORD_TOKEN"
            )
        }
        Delivery::ChannelGone { reason }
        | Delivery::ChannelRefusesUs { reason }
        | Delivery::Refused { reason } => {
            tracing::warn!(
                notice = id,
                channel,
                kind,
                reason,
                "Discord refused a notice; giving up"
            )
        }
    }
    let recorded = match service.database_now().await {
        Ok(now) => {
            service
                .record_delivery(&notice, attempt.delivery, now)
                .await
        }
        Err(e) => Err(e),
    };
    match recorded {
        Ok(Recorded::GameAborted(ended)) => {
            tracing::warn!(
                game = ended.game.id,
                channel,
                "the game's channel is gone: aborted"
            )
        }
        Ok(Recorded::GaveUp(game)) => {
            tracing::warn!(
                notice = id,
                channel,
                kind,
                game,
                "a notice retried for too long was given up; the game's clock is stopped"
            )
        }
        Ok(Recorded::ClockStopped(game)) => {
            tracing::warn!(
                game,
                channel,
                kind,
                "news refused in the game's channel: the game's clock is stopped"
            )
        }
        Ok(_) => {}
        Err(e) => tracing::error!(notice = id, error = ?e, "cannot record a delivery"),
    }
    Outcome {
        global_pause: attempt.global_pause,
        unauthorized,
    }
}

/// What an attempt means for the dispatcher: a pause for every post (a global 429), or the
/// bot's token refused (delivery stops).
struct Outcome {
    global_pause: Option<Duration>,
    unauthorized: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdict for an answer with `status` and `body`.
    fn verdict(status: u16, body: Value) -> Delivery {
        let poster = Poster::new(reqwest::Client::new(), "t", Some("http://127.0.0.1:1"));
        poster
            .classify(Ok((status, reqwest::header::HeaderMap::new(), body)))
            .delivery
    }

    fn error(code: i64, message: &str) -> Value {
        json!({"code": code, "message": message})
    }

    #[test]
    fn discords_error_codes_decide_not_bare_statuses() {
        assert_eq!(
            verdict(404, error(10003, "Unknown Channel")),
            Delivery::ChannelGone {
                reason: "404: Unknown Channel (code 10003)".into()
            }
        );
        for (code, message) in [(50001, "Missing Access"), (50013, "Missing Permissions")] {
            assert_eq!(
                verdict(403, error(code, message)),
                Delivery::ChannelRefusesUs {
                    reason: format!("403: {message} (code {code})")
                }
            );
        }
        assert_eq!(
            verdict(400, error(50035, "Invalid Form Body")),
            Delivery::Refused {
                reason: "400: Invalid Form Body (code 50035)".into()
            }
        );
        // A route Discord does not know is its verdict too (code 0).
        assert!(matches!(
            verdict(404, error(0, "404: Not Found")),
            Delivery::Refused { .. }
        ));
        assert!(matches!(
            verdict(401, error(0, "401: Unauthorized")),
            Delivery::Unauthorized { .. }
        ));
        // Without Discord's error body (a proxy's, an HTML page): tried again.
        for status in [404, 403, 400, 502] {
            assert_eq!(
                verdict(status, Value::Null),
                Delivery::Retry {
                    reason: format!("{status} without Discord's error body"),
                    after: None
                }
            );
        }
        assert!(matches!(
            verdict(404, json!({"code": 10003})),
            Delivery::Retry { .. }
        ));
        assert_eq!(
            verdict(
                429,
                json!({"message": "You are being rate limited.", "retry_after": 0.5, "global": false})
            ),
            Delivery::Retry {
                reason: "429: You are being rate limited.".into(),
                after: Some(Duration::from_millis(500))
            }
        );
        assert_eq!(
            verdict(200, json!({"id": "17"})),
            Delivery::Delivered {
                message_id: Some(17)
            }
        );
    }
}
