//! Time control: reminders when half a player's time is gone and again near the end, a loss
//! on time when it runs out, and challenges that expire. Driven by the database (deadlines
//! are stored), so a restart loses nothing; the bot calls [`Service::tick`] every little while.

use super::*;

/// The second reminder goes out when this fraction (1/N) of the time per move is left.
pub const LAST_REMINDER_FRACTION: i64 = 10;

impl Service {
    /// Everything the clock has made due by now: expired challenges, reminders (each sent
    /// once: recording it and handing it out is one atomic step) and losses on time.
    pub async fn tick(&self) -> Result<Vec<ClockEvent>, ServiceError> {
        let mut events: Vec<ClockEvent> = self
            .expire_challenges()
            .await?
            .into_iter()
            .map(ClockEvent::ChallengeExpired)
            .collect();
        let now = self.now();
        for row in games::clock_due(&self.pool, now).await? {
            let (Some(deadline), Some(per_move)) = (row.turn_deadline, row.time_per_move_ms) else {
                continue;
            };
            let Some(loaded) = self.load_or_skip(row).await else {
                continue;
            };
            let Some(Player::User(user)) = loaded.info.to_move().cloned() else {
                continue;
            };
            if now >= deadline {
                let outcome = Outcome::Won {
                    winner: loaded.info.turn.other(),
                    reason: Reason::Timeout,
                };
                match self.commit_end(loaded, outcome).await {
                    Ok(ended) => events.push(ClockEvent::TimedOut(ended)),
                    Err(ServiceError::PositionChanged | ServiceError::GameOver) => {}
                    Err(e) => return Err(e),
                }
                continue;
            }
            let number = if now >= deadline - per_move / LAST_REMINDER_FRACTION {
                2
            } else {
                1
            };
            if loaded.row.reminders_sent >= number {
                continue;
            }
            let writing = self.writer.lock().await;
            let marked =
                games::mark_reminder(&self.pool, loaded.info.id, loaded.row.ply, number, now)
                    .await?;
            drop(writing);
            if !marked {
                continue;
            }
            let last = loaded.game.moves().last().copied();
            let png = self
                .image(*loaded.game.position(), last, loaded.info.status_line())
                .await?;
            events.push(ClockEvent::Reminder {
                remaining: Duration::from_millis((deadline - now) as u64),
                game: loaded.info,
                user: user.id,
                number,
                png,
            });
        }
        Ok(events)
    }
}
