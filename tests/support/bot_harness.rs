//! The bot under test: the real client started as `main` starts it, against a fake Discord, on
//! a database file in a temporary directory, with a clock the test moves.

use super::fake_discord::{FakeDiscord, Recorded, Who};
use serde_json::json;
use std::sync::Arc;
use tablut_bot::bot::{self, Running};
use tablut_bot::service::ManualClock;
use tempfile::TempDir;

/// The clock's start: a fixed instant.
pub const T0: i64 = 1_800_000_000_000;

pub struct BotHarness {
    pub fake: FakeDiscord,
    pub dir: TempDir,
    pub clock: ManualClock,
    pub bot: Option<Running>,
    /// Settings beyond the token, proxy, database and development guild.
    settings: &'static [(&'static str, &'static str)],
}

impl BotHarness {
    /// A fake Discord and a bot connected to it, its commands registered.
    pub async fn start(settings: &'static [(&'static str, &'static str)]) -> BotHarness {
        BotHarness::start_sharded(1, settings).await
    }

    /// The same with a fake Discord of `shards` shards (the bot runs those its `SHARDS`
    /// setting names, or all).
    pub async fn start_sharded(
        shards: u32,
        settings: &'static [(&'static str, &'static str)],
    ) -> BotHarness {
        let fake = FakeDiscord::start().await;
        fake.set_shards(shards);
        let mut h = BotHarness {
            fake,
            dir: tempfile::tempdir().unwrap(),
            clock: ManualClock::new(T0),
            bot: None,
            settings,
        };
        h.boot().await;
        h
    }

    /// Starts a bot on the harness's database; returns the request that registered its
    /// commands.
    pub async fn boot(&mut self) -> Recorded {
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
    pub async fn restart(&mut self) -> Recorded {
        self.bot.take().unwrap().shutdown().await;
        self.boot().await
    }

    /// `/tablut sub` with options (and the users they resolve); returns (interaction id,
    /// callback).
    pub async fn tablut(
        &self,
        user: &Who,
        channel: u64,
        sub: &str,
        options: serde_json::Value,
        users: &[(u64, &str, bool)],
    ) -> (u64, Recorded) {
        let id = self
            .fake
            .command(user, channel, "tablut", Some(sub), options, users);
        (id, self.fake.callback(id).await)
    }

    /// `/move notation`; returns the callback.
    pub async fn play(&self, user: &Who, channel: u64, notation: &str) -> Recorded {
        let id = self.fake.command(
            user,
            channel,
            "move",
            None,
            json!([{"name": "notation", "type": 3, "value": notation}]),
            &[],
        );
        self.fake.callback(id).await
    }

    /// `challenger` challenges `opponent` (the challenger attacks) with `extra` options, and the
    /// opponent presses Accept; returns the challenge and the accept callback (or, when the press
    /// was acknowledged first, the edit that followed).
    pub async fn challenge_accepted(
        &self,
        channel: u64,
        challenger: &Who,
        (opponent, name): (u64, &str),
        extra: serde_json::Value,
    ) -> (Recorded, Recorded) {
        self.fake
            .challenge_accepted(channel, challenger, &Who::member(opponent, name), extra)
            .await
    }
}

/// A message with the board: a PNG of the documented size.
pub fn assert_board(r: &Recorded) {
    let png = r.file(".png").expect("a board image");
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap();
    assert_eq!(img.width(), tablut_bot::render::BOARD_SIZE_PX);
}
