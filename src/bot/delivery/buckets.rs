//! Discord's rate limits as its headers state them, so a request waits before it is refused:
//! every answer says which bucket its route counts against (`X-RateLimit-Bucket`), how many
//! requests the bucket has left (`X-RateLimit-Remaining`) and when it fills again
//! (`X-RateLimit-Reset-After`); a bucket counts per major parameter (the channel, the server,
//! the webhook). A 429 empties its bucket until its `retry_after`, or, when global, holds every
//! request until then.

use reqwest::header::HeaderMap;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// The longest a request waits for its bucket within an attempt. A longer wait ends the attempt
/// unsent, to be tried again once the bucket fills (the notice's claim is not held meanwhile).
pub(super) const LONGEST_WAIT: Duration = Duration::from_secs(5);

/// What the poster knows of Discord's rate limits.
#[derive(Default)]
pub(super) struct Buckets {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Each route's bucket, as Discord names it.
    routes: HashMap<String, String>,
    /// Each bucket's requests left, per major parameter, and when it fills again.
    left: HashMap<(String, String), Left>,
    /// Every request waits until then (a global 429).
    global_until: Option<Instant>,
}

struct Left {
    remaining: u32,
    reset_at: Instant,
}

/// A request's route (its method and its path with the ids made generic) and its major
/// parameter (the channel, server or webhook whose buckets it counts against).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Route {
    key: String,
    major: String,
}

impl Route {
    /// The route of a request with `method` to `path` (`/api/v10/channels/5/messages`).
    pub(super) fn of(method: &str, path: &str) -> Route {
        let parts: Vec<&str> = path
            .trim_start_matches('/')
            .trim_start_matches("api/")
            .trim_start_matches("v10/")
            .split('/')
            .collect();
        let mut key = vec![method];
        let mut major = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            let before = i.checked_sub(1).map(|j| parts[j]);
            let webhook_token = i >= 2 && parts[i - 2] == "webhooks";
            if matches!(before, Some("channels" | "guilds" | "webhooks")) || webhook_token {
                major.push(*part);
                key.push("{major}");
            } else if part.bytes().all(|b| b.is_ascii_digit()) && !part.is_empty() {
                key.push("{id}");
            } else {
                key.push(part);
            }
        }
        Route {
            key: key.join(" "),
            major: major.join("/"),
        }
    }
}

impl Buckets {
    /// How long a request on `route` must wait before it is sent (nothing: it is counted
    /// against its bucket now).
    pub(super) fn wait(&self, route: &Route) -> Duration {
        let now = Instant::now();
        let mut state = self.state.lock().expect("not poisoned");
        let global = (state.global_until)
            .map(|until| until.saturating_duration_since(now))
            .unwrap_or_default();
        let Some(bucket) = state.routes.get(&route.key).cloned() else {
            return global;
        };
        let id = (bucket, route.major.clone());
        let Some(left) = state.left.get_mut(&id) else {
            return global;
        };
        if left.reset_at <= now {
            // Filled again: its count is known again from the next answer.
            state.left.remove(&id);
            return global;
        }
        if left.remaining == 0 {
            return global.max(left.reset_at - now);
        }
        left.remaining -= 1;
        global
    }

    /// Records what an answer on `route` says of its bucket: its headers, and a 429's
    /// `retry_after` (`limited`: how long, and whether every request must wait).
    pub(super) fn update(
        &self,
        route: &Route,
        headers: &HeaderMap,
        limited: Option<(Duration, bool)>,
    ) {
        let now = Instant::now();
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let mut state = self.state.lock().expect("not poisoned");
        if let Some(bucket) = header("x-ratelimit-bucket") {
            state.routes.insert(route.key.clone(), bucket.to_string());
        }
        let bucket = state.routes.get(&route.key).cloned();
        let remaining = header("x-ratelimit-remaining").and_then(|v| v.parse::<u32>().ok());
        let reset_after = header("x-ratelimit-reset-after")
            .and_then(|v| v.parse::<f64>().ok())
            .map(|s| Duration::from_secs_f64(s.clamp(0.0, 3600.0)));
        if let (Some(bucket), Some(remaining), Some(after)) = (&bucket, remaining, reset_after) {
            let left = Left {
                remaining,
                reset_at: now + after,
            };
            state
                .left
                .insert((bucket.clone(), route.major.clone()), left);
        }
        match limited {
            Some((after, true)) => {
                let until = now + after;
                state.global_until = Some(state.global_until.map_or(until, |g| g.max(until)));
            }
            Some((after, false)) => {
                if let Some(bucket) = bucket {
                    let left = Left {
                        remaining: 0,
                        reset_at: now + after,
                    };
                    state.left.insert((bucket, route.major.clone()), left);
                }
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(bucket: &str, remaining: u32, reset_after: f64) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-ratelimit-bucket", bucket.parse().unwrap());
        h.insert(
            "x-ratelimit-remaining",
            remaining.to_string().parse().unwrap(),
        );
        h.insert(
            "x-ratelimit-reset-after",
            reset_after.to_string().parse().unwrap(),
        );
        h
    }

    #[test]
    fn routes_count_per_major_parameter() {
        let post = Route::of("POST", "/api/v10/channels/5/messages");
        assert_eq!(post.key, "POST channels {major} messages");
        assert_eq!(post.major, "5");
        let edit = Route::of("PATCH", "/api/v10/channels/5/messages/99");
        assert_eq!(edit.key, "PATCH channels {major} messages {id}");
        let hook = Route::of("PATCH", "/api/v10/webhooks/7/tok-en/messages/@original");
        assert_eq!(
            hook.key,
            "PATCH webhooks {major} {major} messages @original"
        );
        assert_eq!(hook.major, "7/tok-en");
    }

    #[tokio::test]
    async fn an_empty_bucket_waits_for_its_reset_and_a_global_429_holds_every_route() {
        let buckets = Buckets::default();
        let five = Route::of("POST", "/api/v10/channels/5/messages");
        let six = Route::of("POST", "/api/v10/channels/6/messages");
        assert_eq!(buckets.wait(&five), Duration::ZERO, "unknown: sent");
        buckets.update(&five, &headers("abc", 1, 2.0), None);
        assert_eq!(buckets.wait(&five), Duration::ZERO, "one left: taken");
        let wait = buckets.wait(&five);
        assert!(wait > Duration::from_millis(1500) && wait <= Duration::from_secs(2));
        // Another channel's bucket is its own.
        assert_eq!(buckets.wait(&six), Duration::ZERO);
        // A 429 empties the bucket until its retry_after.
        buckets.update(
            &six,
            &HeaderMap::new(),
            Some((Duration::from_secs(3), false)),
        );
        assert!(buckets.wait(&six) > Duration::from_secs(2));
        let global = Route::of("GET", "/api/v10/users/@me");
        buckets.update(
            &global,
            &HeaderMap::new(),
            Some((Duration::from_secs(1), true)),
        );
        assert!(buckets.wait(&global) > Duration::from_millis(500));
    }
}
