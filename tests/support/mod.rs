//! Shared support for the integration tests.
#![allow(dead_code)]

pub(crate) mod bot_harness;
pub(crate) mod fake_discord;
pub(crate) mod fixture;

use std::future::Future;
use std::time::{Duration, Instant};

/// A wait for something the test cannot be told of directly (a row, a counter): the caller
/// looks, and calls [`Waiting::again`] while it is not so, which fails the test, naming
/// `what`, once 30 s have gone by.
pub(crate) struct Waiting {
    what: String,
    until: Instant,
}

impl Waiting {
    pub(crate) fn for_(what: impl Into<String>) -> Waiting {
        Waiting {
            what: what.into(),
            until: Instant::now() + Duration::from_secs(30),
        }
    }

    /// Fails the test if the time is up, else waits a moment before the next look.
    pub(crate) async fn again(&self) {
        assert!(
            Instant::now() < self.until,
            "waited 30 s in vain: {}",
            self.what
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until `done` holds (see [`Waiting`]).
pub(crate) async fn until(what: impl Into<String>, mut done: impl FnMut() -> bool) {
    let waiting = Waiting::for_(what);
    while !done() {
        waiting.again().await;
    }
}

/// Waits until `done` yields true (see [`Waiting`]).
pub(crate) async fn until_async<F: Future<Output = bool>>(
    what: impl Into<String>,
    mut done: impl FnMut() -> F,
) {
    let waiting = Waiting::for_(what);
    while !done().await {
        waiting.again().await;
    }
}

/// Records every notice `channel` still owes as shown, as the bot's delivery does once Discord
/// has taken it (the handler's edit or the dispatcher's post): the time of the player to move
/// runs from the news that gave them the turn being shown.
pub(crate) async fn news_shown(s: &tablut_bot::service::Service, channel: u64) {
    use tablut_bot::service::NoticeStatus;
    for row in s.probe().notices_in(channel).await.unwrap() {
        let owed = matches!(
            row.status,
            NoticeStatus::Held | NoticeStatus::Pending | NoticeStatus::Claimed
        );
        if let Some(notice) = s.probe().notice(row.id).await.unwrap().filter(|_| owed) {
            s.outbox().news_delivered(&notice, None).await.unwrap();
        }
    }
}

/// Runs migration `file` (its SQLite or PostgreSQL version, as `store`'s backend) again, as the
/// bot's start does on the rows stored before it: for rows a test writes as an older version
/// stored them.
pub(crate) async fn migrate_again(store: &tablut_bot::store::Store, file: &str) {
    let dir = match store.backend() {
        tablut_bot::store::Backend::Sqlite => "sqlite",
        tablut_bot::store::Backend::Postgres => "postgres",
    };
    let sql = std::fs::read_to_string(format!("migrations/{dir}/{file}")).expect("a migration");
    sqlx::raw_sql(&sql)
        .execute(store.pool())
        .await
        .expect("the migration runs");
}
