//! The dispatcher: one task that delivers the outbox (see `service::outbox`). It takes the due
//! notices (each channel's next one), posts them concurrently across channels with their
//! nonce and `enforce_nonce`, and reports each result to the service, which decides what
//! follows. It wakes when a notice is written and when the next one falls due, so notices
//! left by a crash go out after the restart.
//!
//! Posts go through a plain HTTP client rather than serenity's: a retry needs what serenity's
//! error drops (a 429's `retry_after` and `global`), and with `DISCORD_PROXY` set serenity's
//! rate limiter is off, so the 429s are ours to honour.

use crate::service::{Clock, Delivery, Notice, Recorded, Service, SystemClock};
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, USER_AGENT};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// How many notices (of different channels) one round delivers at once.
const BATCH: u32 = 16;
/// The longest the dispatcher sleeps without looking at the outbox.
const POLL: Duration = Duration::from_secs(2);

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
        }
    }

    /// Delivers a notice once: if an interaction's answer was to show it, and that answer is
    /// shown, nothing more; edits its message if it names one that still exists; else posts
    /// it (with the board, if it has one).
    async fn send(&self, notice: &Notice, png: Vec<u8>) -> Attempt {
        if let Some(answer) = &notice.payload.answer {
            let url = format!(
                "{}/webhooks/{}/{}/messages/@original",
                self.api, answer.application, answer.token
            );
            let shown = self.classify(self.request(self.client.get(url)).await);
            match shown.delivery {
                Delivery::Delivered { .. } | Delivery::Retry { .. } => return shown,
                // Not shown (or the interaction has expired): post.
                Delivery::Refused { .. } => {}
            }
        }
        let mentions = json!({"parse": ["users"]});
        if let Some(message) = notice.payload.edit {
            let body = json!({"content": notice.payload.text, "components": [],
                "allowed_mentions": mentions});
            let url = format!(
                "{}/channels/{}/messages/{message}",
                self.api, notice.channel
            );
            let attempt = self.classify(self.request(json(self.client.patch(url), &body)).await);
            match &attempt.delivery {
                // The message is gone (the channel may not be): post instead.
                Delivery::Refused { status: 404, .. } => {}
                _ => return attempt,
            }
        }
        let mut body = json!({"content": notice.payload.text, "nonce": notice.nonce,
            "enforce_nonce": true, "allowed_mentions": mentions});
        let url = format!("{}/channels/{}/messages", self.api, notice.channel);
        let request = if png.is_empty() {
            json(self.client.post(url), &body)
        } else {
            body["attachments"] = json!([{"id": 0, "filename": "board.png"}]);
            let file = reqwest::multipart::Part::bytes(png)
                .file_name("board.png")
                .mime_str("image/png")
                .expect("a valid MIME type");
            let form = reqwest::multipart::Form::new()
                .text("payload_json", body.to_string())
                .part("files[0]", file);
            self.client.post(url).multipart(form)
        };
        self.classify(self.request(request).await)
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

    /// What a response (or its absence) means for the notice.
    fn classify(
        &self,
        response: Result<(u16, reqwest::header::HeaderMap, Value), reqwest::Error>,
    ) -> Attempt {
        let retry = |reason: String, after: Option<Duration>| Delivery::Retry { reason, after };
        let (status, headers, body) = match response {
            Ok(r) => r,
            Err(e) => {
                let what = if e.is_timeout() {
                    "timed out"
                } else {
                    "failed"
                };
                return Attempt {
                    delivery: retry(format!("the request {what}: {}", e.without_url()), None),
                    global_pause: None,
                };
            }
        };
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let message = body["message"].as_str().unwrap_or_default();
        let reason = match body["code"].as_i64() {
            Some(code) => format!("{message} (code {code})"),
            None => message.to_string(),
        };
        match status {
            200..=299 => Attempt {
                delivery: Delivery::Delivered {
                    message_id: body["id"].as_str().and_then(|id| id.parse().ok()),
                },
                global_pause: None,
            },
            429 => {
                let seconds = body["retry_after"]
                    .as_f64()
                    .or_else(|| header("retry-after").and_then(|v| v.parse().ok()))
                    .unwrap_or(1.0)
                    .clamp(0.0, 3600.0);
                let after = Duration::from_secs_f64(seconds);
                let global = body["global"].as_bool() == Some(true)
                    || header("x-ratelimit-global") == Some("true")
                    || header("x-ratelimit-scope") == Some("global");
                Attempt {
                    delivery: retry(format!("429: {reason}"), Some(after)),
                    global_pause: global.then_some(after),
                }
            }
            408 | 500..=599 => Attempt {
                delivery: retry(format!("{status}: {reason}"), None),
                global_pause: None,
            },
            _ => Attempt {
                delivery: Delivery::Refused { status, reason },
                global_pause: None,
            },
        }
    }
}

/// A request with a JSON body.
fn json(request: reqwest::RequestBuilder, body: &Value) -> reqwest::RequestBuilder {
    request
        .header(CONTENT_TYPE, "application/json")
        .body(body.to_string())
}

/// Starts the dispatcher.
pub fn start(service: Arc<Service>, poster: Arc<Poster>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let wake = service.outbox_wake();
        let mut paused_until: Option<tokio::time::Instant> = None;
        loop {
            if let Some(until) = paused_until.take() {
                tokio::time::sleep_until(until).await;
            }
            let now = SystemClock.now_ms();
            let due = match service.due_notices(now, BATCH).await {
                Ok(due) => due,
                Err(e) => {
                    tracing::error!(error = ?e, "cannot read the outbox");
                    tokio::time::sleep(POLL).await;
                    continue;
                }
            };
            if due.is_empty() {
                let next = service.next_notice_at().await.unwrap_or_else(|e| {
                    tracing::error!(error = ?e, "cannot read the outbox");
                    None
                });
                let wait = next
                    .map(|at| Duration::from_millis((at - now).max(0) as u64))
                    .unwrap_or(POLL)
                    .min(POLL);
                tokio::select! {
                    _ = wake.notified() => {}
                    _ = tokio::time::sleep(wait) => {}
                }
                continue;
            }
            let mut round = tokio::task::JoinSet::new();
            for notice in due {
                let (service, poster) = (service.clone(), poster.clone());
                round.spawn(async move { deliver(&service, &poster, notice).await });
            }
            while let Some(done) = round.join_next().await {
                if let Ok(Some(pause)) = done {
                    let until = tokio::time::Instant::now() + pause;
                    paused_until = Some(paused_until.map_or(until, |p| p.max(until)));
                }
            }
        }
    })
}

/// One attempt at one notice, recorded. Returns a global pause, if Discord asked for one.
async fn deliver(service: &Service, poster: &Poster, notice: Notice) -> Option<Duration> {
    let png = match &notice.payload.board {
        Some(board) => service.notice_board(board).await.unwrap_or_else(|e| {
            tracing::error!(notice = notice.id, error = ?e, "cannot draw a notice's board: posting it without");
            Vec::new()
        }),
        None => Vec::new(),
    };
    let attempt = poster.send(&notice, png).await;
    let (id, channel, kind) = (notice.id, notice.channel, notice.kind.as_str());
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
        Delivery::Refused { status, reason } => {
            tracing::warn!(
                notice = id,
                channel,
                kind,
                status,
                reason,
                "Discord refused a notice; giving up"
            )
        }
    }
    match service
        .record_delivery(&notice, attempt.delivery, SystemClock.now_ms())
        .await
    {
        Ok(Recorded::GameAborted(ended)) => {
            tracing::warn!(
                game = ended.game.id,
                channel,
                "the game's channel is gone: aborted"
            )
        }
        Ok(Recorded::ClockStopped(game)) => {
            tracing::warn!(
                game,
                channel,
                "the channel refuses the bot: the game's clock is stopped"
            )
        }
        Ok(_) => {}
        Err(e) => tracing::error!(notice = id, error = ?e, "cannot record a delivery"),
    }
    attempt.global_pause
}
