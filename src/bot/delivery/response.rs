//! Discord's response to a request of the delivery: its status, headers and JSON body, and what
//! they say besides the status (Discord's error code, the message made, a 429's limit). The
//! client makes it and the policy reads it.

use poise::serenity_prelude as serenity;
use reqwest::header::HeaderMap;
use serde_json::Value;
use std::time::Duration;

/// Discord's answer to a request.
pub(super) struct Response {
    pub status: u16,
    pub headers: HeaderMap,
    /// Its JSON body (null if it has none, or none that parses).
    pub body: Value,
}

/// A 429's limit: how long to wait, and whether every request must.
pub(super) struct RateLimit {
    pub after: Duration,
    pub global: bool,
}

impl Response {
    /// Discord's error code, if the answer is Discord's error body
    /// (`{"code": 10003, "message": "Unknown Channel"}`).
    pub(super) fn code(&self) -> Option<i64> {
        self.body["code"]
            .as_i64()
            .filter(|_| self.body["message"].is_string())
    }

    /// The message it is (a post's or an edit's answer).
    pub(super) fn message_id(&self) -> Option<u64> {
        serde_json::from_value::<serenity::Message>(self.body.clone())
            .ok()
            .map(|m| m.id.get())
    }

    /// The rate limit a 429 states, in its body or its headers (a second if neither says).
    pub(super) fn rate_limit(&self) -> RateLimit {
        let header = |name: &str| self.headers.get(name).and_then(|v| v.to_str().ok());
        let seconds = self.body["retry_after"]
            .as_f64()
            .or_else(|| header("retry-after").and_then(|v| v.parse().ok()))
            .unwrap_or(1.0)
            .clamp(0.0, 3600.0);
        RateLimit {
            after: Duration::from_secs_f64(seconds),
            global: self.body["global"].as_bool() == Some(true)
                || header("x-ratelimit-global") == Some("true")
                || header("x-ratelimit-scope") == Some("global"),
        }
    }
}
