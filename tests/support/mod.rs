//! Shared support for the integration tests.
#![allow(dead_code)]

pub mod bot_harness;
pub mod fake_discord;
pub mod fixture;

use std::time::{Duration, Instant};

/// A wait for something the test cannot be told of directly (a row, a counter): the caller
/// looks, and calls [`Waiting::again`] while it is not so, which fails the test, naming
/// `what`, once 30 s have gone by.
pub struct Waiting {
    what: &'static str,
    until: Instant,
}

impl Waiting {
    pub fn for_(what: &'static str) -> Waiting {
        Waiting {
            what,
            until: Instant::now() + Duration::from_secs(30),
        }
    }

    /// Fails the test if the time is up, else waits a moment before the next look.
    pub async fn again(&self) {
        assert!(
            Instant::now() < self.until,
            "waited 30 s in vain: {}",
            self.what
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
