//! Time control: reminders when half a player's time is gone and again near the end, a loss
//! on time when it runs out, and challenges that expire. Driven by the database (deadlines
//! are stored), so a restart loses nothing; the bot calls [`GameClock::tick`] every little while.
//! Time the bot was away is not charged: [`GameClock::keep_alive`] beats a heartbeat in the
//! database, and [`GameClock::resume`], at a start after downtime, moves every deadline on by it.

use super::backoff::Work;
use super::challenge::expire;
use super::commit::Announce;
use super::core::Core;
use super::error::ServiceError;
use super::news::News;
use super::stored::challenges as stored_challenges;
use super::stored::games::{self as stored, StoredGame};
use super::types::{ChallengeInfo, ClockEvent, Player};
use crate::store::games;
use crate::store::heartbeat;
use crate::tafl::{Outcome, Reason};
use std::time::Duration;

/// The second reminder goes out when this fraction (1/N) of the turn's time (the time per
/// move, or the bank the turn started with) is left.
pub const LAST_REMINDER_FRACTION: i64 = 10;

/// How long one process's claim on the clock's look at a game lasts (it is given up as soon as
/// the look is done): a process that dies while it looks leaves the game to the others then.
pub const CLOCK_CLAIM_LEASE: Duration = Duration::from_secs(10);

/// The time the bot was away, given back to the players (see [`GameClock::keep_alive`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Downtime {
    /// From the last beat before the downtime to the beat that found it.
    pub away: Duration,
    /// The running games whose deadline moved on by that much.
    pub games: u64,
    /// The open challenges whose expiry moved on by that much.
    pub challenges: u64,
}

/// How long a beat promises the next for, beating every `every`: twice that and a minute, so
/// that a slow tick or a loaded machine is not taken for downtime.
pub fn heartbeat_grace(every: Duration) -> Duration {
    every * 2 + Duration::from_secs(60)
}

/// The clock (`Service::clock`): the heartbeat, the time given back after downtime, and
/// what time makes due (challenges expired, reminders, losses on time).
#[derive(Clone, Copy)]
pub struct GameClock<'a> {
    core: &'a Core,
}

impl<'a> GameClock<'a> {
    pub(crate) fn new(core: &'a Core) -> GameClock<'a> {
        GameClock { core }
    }
}

impl GameClock<'_> {
    /// Tells the database that the bot is starting, before it takes commands and its clock
    /// looks at a game; `every` is how often it will then [`GameClock::keep_alive`]. When no
    /// process of the bot has beaten since the last promise ran out ([`heartbeat_grace`]), the
    /// bot was away: every running game's deadline and every open challenge's expiry moves on
    /// by the whole time since the last beat, in the transaction of the beat that finds it, so
    /// that the time players could not play is not charged to them (as lichess pauses clocks
    /// over a restart). One process claims each downtime, once, however many start together
    /// on the database. Returns the downtime given back, if any.
    pub async fn resume(self, every: Duration) -> Result<Option<Downtime>, ServiceError> {
        self.beat(every, true).await
    }

    /// Tells the database that the bot still runs (every `every`, by the clock). A beat while
    /// running never gives time back: only a start does ([`GameClock::resume`]).
    pub async fn keep_alive(self, every: Duration) -> Result<(), ServiceError> {
        self.beat(every, false).await.map(|_| ())
    }

    async fn beat(self, every: Duration, claim: bool) -> Result<Option<Downtime>, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let next_by = now + heartbeat_grace(every).as_millis() as i64;
        let Some(last) = heartbeat::beat(&mut tx, now, next_by, claim).await? else {
            tx.commit().await?;
            return Ok(None);
        };
        let away = (now - last).max(0);
        let games = heartbeat::extend_deadlines(&mut *tx, away).await?;
        let challenges = heartbeat::extend_challenges(&mut *tx, away).await?;
        tx.commit().await?;
        tracing::info!(
            away_s = away / 1000,
            games,
            challenges,
            "the bot was away: its time given back to every running game and open challenge"
        );
        Ok(Some(Downtime {
            away: Duration::from_millis(away as u64),
            games,
            challenges,
        }))
    }

    /// Closes every open challenge whose time has run out, and returns them. One that cannot
    /// be closed is logged and set aside for a while (see [`super::backoff`]); the others are
    /// closed all the same.
    pub async fn expire_challenges(self) -> Result<Vec<ChallengeInfo>, ServiceError> {
        let now = self.core.database_now().await?;
        let mut out = Vec::new();
        for row in stored_challenges::expired(self.core.store.read(), now).await? {
            let id = row.id();
            if !self.core.retries.ready(Work::ExpireChallenge, id, now) {
                continue;
            }
            match expire(self.core, row, now).await {
                Ok(closed) => {
                    self.core.retries.succeeded(Work::ExpireChallenge, id);
                    out.extend(closed);
                }
                Err(e) => {
                    let (failures, next) = self.core.retries.failed(Work::ExpireChallenge, id, now);
                    tracing::error!(challenge = id, error = ?e, failures, retry_in_s = (next - now) / 1000, "cannot close an expired challenge: set aside");
                }
            }
        }
        Ok(out)
    }

    /// Everything the clock has made due by now: expired challenges, reminders (each sent
    /// once) and losses on time. Each is committed with its notice in the outbox, so what the
    /// clock decided is announced even if the bot stops right after; a game that fails is
    /// logged and the others go on. Returns what it did.
    pub async fn tick(self) -> Result<Vec<ClockEvent>, ServiceError> {
        let mut events = self.expired_challenge_events().await;
        // Vacations whose days have passed end before the games' clocks are looked at.
        self.end_due_vacations().await;
        self.send_due_digests().await;
        // Every time here is the database's, as the deadlines are: processes whose own clocks
        // differ decide a game's reminders and loss on time alike.
        let now = self.core.database_now().await?;
        for row in stored::clock_due(self.core.store.read(), now).await? {
            let id = row.id();
            if !self.core.retries.ready(Work::Clock, id, now) {
                continue;
            }
            let at = match self.claim_look(id).await {
                Ok(Some(at)) => at,
                Ok(None) => continue,
                Err(e) => {
                    tracing::error!(game = id, error = %e, "the clock could not claim a game");
                    continue;
                }
            };
            match self.look_at(row, at).await {
                Ok(event) => {
                    self.core.retries.succeeded(Work::Clock, id);
                    events.extend(event);
                }
                Err(e) => {
                    let (failures, next) = self.core.retries.failed(Work::Clock, id, now);
                    tracing::error!(game = id, error = ?e, failures, retry_in_s = (next - now) / 1000, "the clock could not act on a game: set aside");
                }
            }
        }
        Ok(events)
    }

    /// The challenges expired by now, closed, as the clock's events; none when they cannot be
    /// listed (logged: the games' clocks go on without them).
    async fn expired_challenge_events(self) -> Vec<ClockEvent> {
        match self.expire_challenges().await {
            Ok(expired) => expired
                .into_iter()
                .map(ClockEvent::ChallengeExpired)
                .collect(),
            // The games' clocks go on without the challenges.
            Err(e) => {
                tracing::error!(error = ?e, "cannot list the expired challenges");
                Vec::new()
            }
        }
    }

    /// Ends the vacations whose days have passed; what ended, or why nothing could, is logged.
    async fn end_due_vacations(self) {
        match super::away::end_due(self.core).await {
            Ok(ended) if !ended.is_empty() => {
                tracing::info!(
                    vacations = ended.len(),
                    "vacations ended: their days passed"
                )
            }
            Ok(_) => {}
            Err(e) => tracing::error!(error = ?e, "cannot end the vacations whose days passed"),
        }
    }

    /// Writes the daily digests of the games waiting on those who chose them; how many, or why
    /// none could be, is logged.
    async fn send_due_digests(self) {
        match super::notify::send_digests(self.core).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(digests = n, "daily digests written"),
            Err(e) => tracing::error!(error = ?e, "cannot send the daily digests"),
        }
    }

    /// Claims the clock's look at game `id` for [`CLOCK_CLAIM_LEASE`]: the database's time of
    /// the claim, or none when another process holds it.
    async fn claim_look(self, id: i64) -> Result<Option<i64>, ServiceError> {
        // Across processes: one clock at a time looks at a game; a process that dies while it
        // looks leaves the game to the others at its lease's end (on the database's clock,
        // which every process's leases are measured on).
        let at = self.core.database_now().await?;
        let until = at + CLOCK_CLAIM_LEASE.as_millis() as i64;
        let mut writing = self.core.store.lock().await?;
        let claimed = games::claim_clock(writing.ex(), id, &self.core.claimer, at, until).await?;
        Ok(claimed.then_some(at))
    }

    /// The clock's look at a game it has claimed at `at`: its step (see
    /// [`GameClock::clock_step`], measured when the look began, not when the sweep did), then
    /// the claim given up (a failure to give it up is logged: it is free at its lease's end).
    async fn look_at(self, row: StoredGame, at: i64) -> Result<Option<ClockEvent>, ServiceError> {
        let id = row.id();
        let step = self.clock_step(row, at).await;
        let released = match self.core.store.lock().await {
            Ok(mut writing) => games::release_clock(writing.ex(), id, &self.core.claimer).await,
            Err(e) => Err(e),
        };
        if let Err(e) = released {
            tracing::warn!(game = id, error = %e, "could not give up the clock's look: it is free at its lease's end");
        }
        step
    }

    /// A loss on time or a reminder for one game whose clock is due.
    async fn clock_step(
        self,
        row: StoredGame,
        now: i64,
    ) -> Result<Option<ClockEvent>, ServiceError> {
        // The turn's time: the time per move, or the bank of the side to move.
        let Some((deadline, per_move)) = row.turn_time() else {
            return Ok(None);
        };
        let Some(loaded) = self.core.load_or_skip(row).await else {
            return Ok(None);
        };
        let Some(Player::User(user)) = loaded.info.to_move().cloned() else {
            return Ok(None);
        };
        if now >= deadline {
            let outcome = Outcome::Won {
                winner: loaded.info.turn.other(),
                reason: Reason::Timeout,
            };
            return match self
                .core
                .commit_end(loaded, outcome, Announce::TimedOut)
                .await
            {
                Ok(ended) => Ok(Some(ClockEvent::TimedOut(ended.done))),
                Err(ServiceError::PositionChanged | ServiceError::GameOver) => Ok(None),
                Err(e) => Err(e),
            };
        }
        let number = if now >= deadline - per_move / LAST_REMINDER_FRACTION {
            2
        } else {
            1
        };
        if loaded.turn.reminders_sent >= number {
            return Ok(None);
        }
        let game = loaded.info.clone();
        let event = ClockEvent::Reminder {
            remaining: Duration::from_millis((deadline - now) as u64),
            game: loaded.info,
            user: user.id,
            number,
        };
        let payload = self.core.with_board(News::Clock(event.clone()), &game);
        let mut tx = self.core.store.write().await?;
        // Recording the reminder and writing its notice are one step: each goes out once.
        if !games::mark_reminder(&mut *tx, game.id, loaded.turn.ply, number, now).await? {
            return Ok(None);
        }
        let told = self
            .core
            .notice(game.place.channel, "reminder", &payload)
            .write(&mut tx, now)
            .await?
            .id;
        self.core.commit_noticed(tx, told).await?;
        Ok(Some(event))
    }
}
