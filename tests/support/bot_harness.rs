//! The bot under test: the real client started as `main` starts it, against a fake Discord, on
//! a database file in a temporary directory, with a clock the test moves: the process's, and the
//! database's as the bot reads it, which also runs on in real time (so that the outbox's holds and
//! retries come due while the bot runs).

use super::fake_discord::{BotRequest, FakeDiscord, Who};
use super::Waiting;
use serde_json::json;
use std::sync::Arc;
use tablut_bot::bot::{self, Running};
use tablut_bot::service::ManualClock;
use tempfile::TempDir;

/// The clock's start: a fixed instant.
pub(crate) const T0: i64 = 1_800_000_000_000;

pub(crate) struct BotHarness {
    pub fake: FakeDiscord,
    pub dir: TempDir,
    pub clock: ManualClock,
    pub bot: Option<Running>,
    /// Settings beyond the token, proxy, database and development guild.
    settings: &'static [(&'static str, &'static str)],
}

impl BotHarness {
    /// A fake Discord and a bot connected to it, its commands registered.
    pub(crate) async fn start(settings: &'static [(&'static str, &'static str)]) -> BotHarness {
        BotHarness::start_sharded(1, settings).await
    }

    /// The same with a fake Discord of `shards` shards (the bot runs those its `SHARDS`
    /// setting names, or all).
    pub(crate) async fn start_sharded(
        shards: u32,
        settings: &'static [(&'static str, &'static str)],
    ) -> BotHarness {
        let fake = FakeDiscord::start().await;
        fake.set_shards(shards);
        let mut h = BotHarness {
            fake,
            dir: tempfile::tempdir().unwrap(),
            clock: ManualClock::running(T0),
            bot: None,
            settings,
        };
        h.boot().await;
        h
    }

    /// Starts a bot on the harness's database; returns the request that registered its
    /// commands.
    pub(crate) async fn boot(&mut self) -> BotRequest {
        let config = self
            .fake
            .bot_config(&self.dir.path().join("bot.db"), self.settings);
        let shards = config.shards;
        let running = bot::start(config, Arc::new(self.clock.clone()))
            .await
            .unwrap();
        match shards {
            Some(range) => {
                for shard in range.first..=range.last {
                    self.fake.wait_shard_ready(shard).await;
                }
            }
            None => self.fake.wait_ready().await,
        }
        let registered = self
            .fake
            .expect("the commands registered", |r| {
                r.method == "PUT" && r.path.ends_with("/commands")
            })
            .await;
        self.bot = Some(running);
        registered
    }

    /// Shuts the bot down and starts a new one on the same database.
    pub(crate) async fn restart(&mut self) -> BotRequest {
        self.bot.take().unwrap().shutdown().await;
        self.boot().await
    }

    /// The bot's database, opened beside the bot (read by tests that wait on its state).
    pub(crate) async fn database(&self) -> sqlx::SqlitePool {
        let url = format!("sqlite://{}", self.dir.path().join("bot.db").display());
        sqlx::SqlitePool::connect(&url).await.unwrap()
    }

    /// Moves the clock on by a millisecond `n + 1` times, each time waiting until the bot's clock
    /// loop has begun a tick at the new time (its first step records the database's time as the
    /// heartbeat). The loop runs its ticks one after another, so when this returns, `n` whole
    /// ticks have run after the call: whatever they would do is done or in the outbox.
    /// Returns how far the clock moved.
    pub(crate) async fn clock_ticks(&self, n: usize) -> std::time::Duration {
        let pool = self.database().await;
        for _ in 0..=n {
            self.clock.advance(std::time::Duration::from_millis(1));
            // The heartbeat is on the database's clock.
            let now = self.clock.database_now_ms();
            let waiting = Waiting::for_("the clock ticks");
            while sqlx::query_scalar::<_, Option<i64>>(
                "SELECT alive_at FROM heartbeat WHERE id = 1",
            )
            .fetch_optional(&pool)
            .await
            .unwrap()
            .flatten()
            .unwrap_or(0)
                < now
            {
                waiting.again().await;
            }
        }
        pool.close().await;
        std::time::Duration::from_millis(n as u64 + 1)
    }

    /// Waits until the outbox owes nothing: every row is delivered or has failed for good.
    /// After it, a count of what was posted is final until something new happens.
    pub(crate) async fn outbox_settled(&self) {
        let pool = self.database().await;
        let waiting = Waiting::for_("an outbox that owes nothing");
        while sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM outbox WHERE status NOT IN ('delivered', 'failed')",
        )
        .fetch_one(&pool)
        .await
        .unwrap()
            > 0
        {
            waiting.again().await;
        }
        pool.close().await;
    }

    /// `/tablut sub` with options (and the users they resolve); returns (interaction id, what
    /// it shows: see [`FakeDiscord::answer`]).
    pub(crate) async fn tablut(
        &self,
        user: &Who,
        channel: u64,
        sub: &str,
        options: serde_json::Value,
        users: &[(u64, &str, bool)],
    ) -> (u64, BotRequest) {
        let id = self
            .fake
            .command(user, channel, "tablut", Some(sub), options, users);
        (id, self.fake.answer(id).await)
    }

    /// `/tablut tournament <sub>` with `options`, by `who` in `channel`; returns what it shows
    /// (see [`FakeDiscord::answer`]).
    pub(crate) async fn tournament(
        &self,
        who: &Who,
        channel: u64,
        sub: &str,
        options: serde_json::Value,
    ) -> BotRequest {
        let options = json!([{"name": "tournament", "type": 2,
            "options": [{"name": sub, "type": 1, "options": options}]}]);
        let id = self
            .fake
            .command(who, channel, "tablut", None, options, &[]);
        self.fake.answer(id).await
    }

    /// `/move notation`; returns what it shows (see [`FakeDiscord::answer`]).
    pub(crate) async fn play(&self, user: &Who, channel: u64, notation: &str) -> BotRequest {
        let id = self.fake.command(
            user,
            channel,
            "move",
            None,
            json!([{"name": "notation", "type": 3, "value": notation}]),
            &[],
        );
        self.fake.answer(id).await
    }

    /// `challenger` challenges `opponent` (the challenger attacks) with `extra` options, and the
    /// opponent presses Accept; returns the challenge and the accept callback (or, when the press
    /// was acknowledged first, the edit that followed), once the outbox owes nothing: the first
    /// player's time runs from when the start is shown and recorded so.
    pub(crate) async fn challenge_accepted(
        &self,
        channel: u64,
        challenger: &Who,
        (opponent, name): (u64, &str),
        extra: serde_json::Value,
    ) -> (BotRequest, BotRequest) {
        let accepted = self
            .fake
            .challenge_accepted(channel, challenger, &Who::member(opponent, name), extra)
            .await;
        self.outbox_settled().await;
        accepted
    }
}

/// A member who may organise tournaments (Manage Server), named "Org".
pub(crate) fn organiser(id: u64) -> Who {
    Who {
        permissions: "32".into(),
        ..Who::member(id, "Org")
    }
}

/// Whether `r` is a message posted in `channel`.
pub(crate) fn is_post_in(r: &BotRequest, channel: u64) -> bool {
    r.method == "POST" && r.path == format!("/api/v10/channels/{channel}/messages")
}

/// A message with the board: a PNG of the documented size.
pub(crate) fn assert_board(r: &BotRequest) {
    let png = r.file(".png").expect("a board image");
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap();
    assert_eq!(img.width(), tablut_bot::render::BOARD_SIZE_PX);
}
