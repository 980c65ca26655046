//! The delivery policy: what Discord's response to a request means for a notice (its verdict,
//! read from Discord's error codes, not from bare statuses: a 4xx without Discord's error body,
//! a proxy's 404 say, is no verdict, and is tried again), when a notice is tried again, and when
//! it is given up. What follows for the game is the service's, each consequence a call of its
//! own.

use super::response::Response;
use crate::service::notice::millis;
use crate::service::{Ended, GameId, Notice, OutboxTimes, Service, ServiceError};
use std::time::Duration;

/// How the outbox times its deliveries: when a notice is tried again and when it is given up,
/// and the times the service keeps its rows by ([`OutboxTimes`], where they are described).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryPolicy {
    pub times: OutboxTimes,
    /// The wait before the first retry; each further retry waits twice as long...
    pub retry_min: Duration,
    /// ...up to this.
    pub retry_max: Duration,
    /// A notice still not delivered this long after it was written is given up (recorded as
    /// failed with its last reason), and its game's clock stopped.
    pub give_up: Duration,
}

impl Default for DeliveryPolicy {
    fn default() -> DeliveryPolicy {
        DeliveryPolicy {
            times: OutboxTimes::default(),
            retry_min: Duration::from_secs(1),
            retry_max: Duration::from_secs(60),
            give_up: Duration::from_secs(24 * 3600),
        }
    }
}

/// The times the service keeps its rows by.
impl From<DeliveryPolicy> for OutboxTimes {
    fn from(policy: DeliveryPolicy) -> OutboxTimes {
        policy.times
    }
}

impl DeliveryPolicy {
    /// The wait before attempt `failures + 1`, after `failures` failed attempts (≥ 1).
    pub fn backoff(&self, failures: u32) -> Duration {
        let doubled = self
            .retry_min
            .saturating_mul(1u32 << failures.saturating_sub(1).min(20));
        doubled.min(self.retry_max)
    }
}

/// How an attempt to deliver a notice went: Discord's response read into a verdict. Each
/// `reason` is what Discord (or the way to it) said, for `outbox.failure` and the log.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivery {
    /// Discord took it (as this message, when known).
    Delivered { message_id: Option<u64> },
    /// Worth another try: a 5xx, a time-out, a lost connection, a 429, or a refusal that is not
    /// Discord's (a proxy's bare 404 or 502, without Discord's error body). `after` is Discord's
    /// `retry_after`, when it gave one; otherwise the backoff decides.
    Retry {
        reason: String,
        after: Option<Duration>,
    },
    /// The channel is gone (Discord's *Unknown Channel*, confirmed by a look at the channel,
    /// which answered *Unknown Channel* too): its game is aborted.
    ChannelGone { reason: String },
    /// The channel refuses the bot (*Missing Access*, *Missing Permissions*): its game's clock
    /// is stopped.
    ChannelRefusesUs { reason: String },
    /// Discord refuses the bot's own credentials: nothing can be delivered until the bot runs
    /// with a valid token. The notice is kept, due again; the dispatcher stops.
    Unauthorized { reason: String },
    /// Refused for good for another reason (another of Discord's error codes).
    Refused { reason: String },
    /// A direct message refused because its member takes none from the bot (*Cannot send
    /// messages to this user*): their notifications are turned off, and a game's channel told
    /// once.
    DmsRefused { reason: String },
}

/// What recording a delivery led to.
#[derive(Debug, Clone, PartialEq)]
pub enum Consequence {
    Delivered,
    /// Another attempt at this time (Unix ms).
    RetryAt(i64),
    /// Given up; nothing else to do.
    Failed,
    /// The channel is gone: its game was aborted (unrated).
    GameAborted(Box<Ended>),
    /// The channel refuses the bot, or refused for good news a player could lose on time for
    /// never seeing (a move, a reminder, a game's start): its game's clock was stopped. The next
    /// move starts it again.
    ClockStopped(GameId),
    /// Retried for [`DeliveryPolicy::give_up`] without success: given up, and the channel's
    /// game (if one is running) has its clock stopped.
    GaveUp(Option<GameId>),
    /// The bot's credentials were refused: the notice is kept, due at once, for a dispatcher
    /// that runs with a valid token.
    Kept,
    /// A direct message refused: the member's notifications are off (true: turned off by
    /// this, and a game's channel told).
    NotificationsOff(bool),
    /// Nothing recorded: the attempt's claim ran out and another process took the notice (its
    /// attempt records it), or the notice was settled meanwhile (its answer's edit showed it).
    NotOurs,
}

/// Records how an attempt at `notice` went (at `now`, on the database's clock), and has the
/// service do what follows: another attempt after the backoff or `retry_after`, or given up past
/// the policy's `give_up`; for a channel that is gone, its game aborted; for a channel that
/// refuses the bot, its game's clock stopped; for another refusal, the notice failed (and the
/// clock stopped where a player could lose on time for it); for the bot's credentials refused,
/// the notice kept.
pub async fn record(
    service: &Service,
    policy: &DeliveryPolicy,
    notice: &Notice,
    delivery: Delivery,
    now: i64,
) -> Result<Consequence, ServiceError> {
    Ok(match delivery {
        Delivery::Delivered { message_id } => {
            match service.outbox().news_delivered(notice, message_id).await? {
                true => Consequence::Delivered,
                false => Consequence::NotOurs,
            }
        }
        Delivery::Retry { reason, after } => {
            let wait = after.unwrap_or_else(|| policy.backoff(notice.attempts + 1));
            let at = now.saturating_add(millis(wait));
            let give_up_at = notice.created_at.saturating_add(millis(policy.give_up));
            if at <= give_up_at {
                return Ok(
                    match service.outbox().news_retry_at(notice, at, &reason).await? {
                        true => Consequence::RetryAt(at),
                        false => Consequence::NotOurs,
                    },
                );
            }
            let reason = format!(
                "given up after {} attempts in {} s: {reason}",
                notice.attempts + 1,
                (now - notice.created_at).max(0) / 1000
            );
            Consequence::GaveUp(service.outbox().news_given_up(notice, &reason).await?)
        }
        // Not the notice's fault: it is due again at once, for a dispatcher with a valid token
        // (this one stops).
        Delivery::Unauthorized { reason } => {
            match service.outbox().news_retry_at(notice, now, &reason).await? {
                true => Consequence::Kept,
                false => Consequence::NotOurs,
            }
        }
        Delivery::ChannelGone { reason } => {
            if !service.outbox().news_failed(notice, &reason).await? {
                return Ok(Consequence::NotOurs);
            }
            let ended = service.outbox().channel_gone(notice.channel).await?;
            ended.map_or(Consequence::Failed, Consequence::GameAborted)
        }
        Delivery::ChannelRefusesUs { reason } => {
            if !service.outbox().news_failed(notice, &reason).await? {
                return Ok(Consequence::NotOurs);
            }
            let stopped = service.outbox().channel_refuses(notice.channel).await?;
            stopped.map_or(Consequence::Failed, Consequence::ClockStopped)
        }
        Delivery::Refused { reason } => {
            let stopped = service.outbox().news_refused(notice, &reason).await?;
            stopped.map_or(Consequence::Failed, Consequence::ClockStopped)
        }
        Delivery::DmsRefused { reason } => {
            match service.outbox().dms_refused(notice, &reason).await? {
                Some(off) => Consequence::NotificationsOff(off),
                None => Consequence::NotOurs,
            }
        }
    })
}

/// Discord's JSON error codes the delivery acts on.
pub(super) const UNKNOWN_CHANNEL: i64 = 10003;
pub(super) const UNKNOWN_MESSAGE: i64 = 10008;
pub(super) const UNKNOWN_WEBHOOK: i64 = 10015;
pub(super) const UNKNOWN_INTERACTION: i64 = 10062;
pub(super) const INVALID_WEBHOOK_TOKEN: i64 = 50027;
pub(super) const MISSING_ACCESS: i64 = 50001;
pub(super) const MISSING_PERMISSIONS: i64 = 50013;
/// *Cannot send messages to this user*: a direct message its member does not take.
pub(super) const CANNOT_DM: i64 = 50007;

/// Discord's codes that mean "not now, later" (its JSON error codes, as its documentation
/// lists them): slowmode (20016), the write rate limit of a channel or a server (20028,
/// 20029), too many edits to messages older than an hour (30046), a service resource rate
/// limited (40062), an API resource overloaded (130000). Whatever their status, they are tried
/// again, never taken as a refusal.
pub(super) const LATER: [i64; 6] = [20016, 20028, 20029, 30046, 40062, 130000];

/// The codes that say an interaction's original response can no longer be edited: its token
/// has expired after all, or the response is gone (deleted).
pub(super) const ANSWER_GONE: [i64; 4] = [
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_WEBHOOK,
    UNKNOWN_MESSAGE,
    UNKNOWN_INTERACTION,
];

/// One attempt: how it went and, for a global 429, how long every post must wait.
pub(super) struct Attempt {
    pub delivery: Delivery,
    pub global_pause: Option<Duration>,
    /// Discord's error code, if it answered with its error body.
    pub code: Option<i64>,
}

/// An attempt whose verdict is known without Discord's error code (none, or not Discord's).
impl From<Delivery> for Attempt {
    fn from(delivery: Delivery) -> Attempt {
        Attempt {
            delivery,
            global_pause: None,
            code: None,
        }
    }
}

/// What a response (or its absence) means for the notice.
pub(super) fn verdict(response: Result<Response, reqwest::Error>) -> Attempt {
    let retry = |reason: String, after: Option<Duration>| Delivery::Retry { reason, after };
    let response = match response {
        Ok(a) => a,
        Err(e) => {
            let what = if e.is_timeout() {
                "timed out"
            } else {
                "failed"
            };
            let reason = format!("the request {what}: {}", e.without_url());
            return retry(reason, None).into();
        }
    };
    let (status, code) = (response.status, response.code());
    let message = response.body["message"].as_str().unwrap_or_default();
    let reason = match code {
        Some(code) => format!("{status}: {message} (code {code})"),
        None if message.is_empty() => format!("{status} without Discord's error body"),
        None => format!("{status}: {message}"),
    };
    let delivery = match (status, code) {
        (200..=299, _) => Delivery::Delivered {
            message_id: response.message_id(),
        },
        (429, _) => {
            let limit = response.rate_limit();
            return Attempt {
                delivery: retry(reason, Some(limit.after)),
                global_pause: limit.global.then_some(limit.after),
                code,
            };
        }
        (401, _) => Delivery::Unauthorized { reason },
        (408 | 500..=599, _) => retry(reason, None),
        // "Later": after Discord's `retry_after` if it gave one, else the backoff.
        (_, Some(code)) if LATER.contains(&code) => {
            let after = response.body["retry_after"]
                .as_f64()
                .map(|s| Duration::from_secs_f64(s.clamp(0.0, 3600.0)));
            retry(reason, after)
        }
        (_, Some(UNKNOWN_CHANNEL)) => Delivery::ChannelGone { reason },
        (_, Some(MISSING_ACCESS | MISSING_PERMISSIONS)) => Delivery::ChannelRefusesUs { reason },
        (_, Some(_)) => Delivery::Refused { reason },
        // Not Discord's response (a proxy's, or a load balancer's): no verdict on the notice.
        (_, None) => retry(reason, None),
    };
    Attempt {
        code,
        ..delivery.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// The verdict for a response with `status` and `body`.
    fn verdict(status: u16, body: Value) -> Delivery {
        super::verdict(Ok(Response {
            status,
            headers: reqwest::header::HeaderMap::new(),
            body,
        }))
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
        // Codes that mean "later" are tried again, whatever their status: after Discord's
        // `retry_after` when it gives one, else after the backoff.
        for (status, code, message) in [
            (
                400,
                30046,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
            ),
            (
                429,
                20028,
                "The channel you are writing has hit the write rate limit",
            ),
            (
                400,
                20016,
                "This action cannot be performed due to slowmode rate limit",
            ),
            (
                403,
                20029,
                "The write action you are performing on the server has hit the write rate limit",
            ),
            (
                503,
                130000,
                "API resource is currently overloaded. Try again a little later",
            ),
            (400, 40062, "Service resource is being rate limited"),
        ] {
            assert!(
                matches!(
                    verdict(status, error(code, message)),
                    Delivery::Retry { .. }
                ),
                "{code}"
            );
        }
        assert_eq!(
            verdict(
                400,
                json!({"code": 30046, "message": "Try again later", "retry_after": 2.5})
            ),
            Delivery::Retry {
                reason: "400: Try again later (code 30046)".into(),
                after: Some(Duration::from_millis(2500))
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
        // Taken: the message Discord made, read as serenity's model of it.
        let message = json!({
            "id": "17", "channel_id": "5", "content": "news", "nonce": "abc",
            "author": {"id": "9", "username": "tablut-bot", "discriminator": "0",
                "avatar": null, "bot": true},
            "timestamp": "2026-11-22T12:00:00+00:00", "edited_timestamp": null, "tts": false,
            "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": false, "type": 0,
        });
        assert_eq!(
            verdict(200, message),
            Delivery::Delivered {
                message_id: Some(17)
            }
        );
        // Taken, but not as a message (an edit's empty answer): delivered, the message unknown.
        assert_eq!(
            verdict(204, Value::Null),
            Delivery::Delivered { message_id: None }
        );
    }
}
