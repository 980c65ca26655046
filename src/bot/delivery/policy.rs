//! What Discord's answer to a request means for a notice. Discord's verdicts are read from its
//! error codes, not from bare statuses: a 4xx without Discord's error body (a proxy's 404, say)
//! is no verdict, and is tried again.

use super::client::Answer;
use crate::service::Delivery;
use std::time::Duration;

/// Discord's JSON error codes the delivery acts on.
pub(super) const UNKNOWN_CHANNEL: i64 = 10003;
pub(super) const UNKNOWN_MESSAGE: i64 = 10008;
pub(super) const UNKNOWN_WEBHOOK: i64 = 10015;
pub(super) const UNKNOWN_INTERACTION: i64 = 10062;
pub(super) const INVALID_WEBHOOK_TOKEN: i64 = 50027;
pub(super) const MISSING_ACCESS: i64 = 50001;
pub(super) const MISSING_PERMISSIONS: i64 = 50013;

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

impl Attempt {
    pub fn delivered(message_id: Option<u64>) -> Attempt {
        Attempt {
            delivery: Delivery::Delivered { message_id },
            global_pause: None,
            code: None,
        }
    }
}

/// What an answer (or its absence) means for the notice.
pub(super) fn verdict(answer: Result<Answer, reqwest::Error>) -> Attempt {
    let retry = |reason: String, after: Option<Duration>| Delivery::Retry { reason, after };
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            let what = if e.is_timeout() {
                "timed out"
            } else {
                "failed"
            };
            return Attempt {
                delivery: retry(format!("the request {what}: {}", e.without_url()), None),
                global_pause: None,
                code: None,
            };
        }
    };
    let (status, code) = (answer.status, answer.code());
    let message = answer.body["message"].as_str().unwrap_or_default();
    let reason = match code {
        Some(code) => format!("{status}: {message} (code {code})"),
        None if message.is_empty() => format!("{status} without Discord's error body"),
        None => format!("{status}: {message}"),
    };
    let delivery = match (status, code) {
        (200..=299, _) => Delivery::Delivered {
            message_id: answer.message_id(),
        },
        (429, _) => {
            let limit = answer.rate_limit();
            return Attempt {
                delivery: retry(reason, Some(limit.after)),
                global_pause: limit.global.then_some(limit.after),
                code,
            };
        }
        (401, _) => Delivery::Unauthorized { reason },
        (408 | 500..=599, _) => retry(reason, None),
        (_, Some(UNKNOWN_CHANNEL)) => Delivery::ChannelGone { reason },
        (_, Some(MISSING_ACCESS | MISSING_PERMISSIONS)) => Delivery::ChannelRefusesUs { reason },
        (_, Some(_)) => Delivery::Refused { reason },
        // Not Discord's answer (a proxy's, or a load balancer's): no verdict on the notice.
        (_, None) => retry(reason, None),
    };
    Attempt {
        delivery,
        global_pause: None,
        code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// The verdict for an answer with `status` and `body`.
    fn verdict(status: u16, body: Value) -> Delivery {
        super::verdict(Ok(Answer {
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
