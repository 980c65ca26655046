//! The daily puzzle: posted in each server's daily channel through the outbox, in the
//! transaction that claims the day; every member may try it (one try each, beside their own
//! puzzle), and the day's results are its leaderboard.

use super::puzzles::Puzzles;
use crate::service::error::ServiceError;
use crate::service::news::News;
use crate::service::notice::{Answered, Buttons, Payload, PuzzleBoardRef, ReplyTo};
use crate::service::stored::puzzles::{self as stored, PuzzleTry, TryStatus};
use crate::service::types::{
    Caption, ChannelId, DayResult, GuildId, NoticeId, PuzzleView, User, UserId,
};
use crate::store::puzzles as rows;

/// The day's puzzle in a server and how its members did.
#[derive(Debug, Clone, PartialEq)]
pub struct DailyBoard {
    pub day: i64,
    pub puzzle_id: i64,
    /// The channel it was posted in.
    pub channel: ChannelId,
    /// The finished tries: the solved first, quickest first.
    pub results: Vec<DayResult>,
}

/// Today's number: days since the Unix epoch (UTC).
pub fn day_of(now_ms: i64) -> i64 {
    now_ms.div_euclid(86_400_000)
}

/// A player's try at a day's puzzle (see `Puzzles::daily_try`).
enum DailyTry {
    UnderWay(PuzzleTry),
    New { day: i64, puzzle_id: i64 },
}

impl Puzzles<'_> {
    /// The user's try at the daily puzzle of `day` (by default today's) in this server: started
    /// (rated if it is their first try at that puzzle), or the one under way. Until it is over
    /// it is their current puzzle (played with [`Puzzles::puzzle_move`]); their own puzzle
    /// waits meanwhile. One try a day: a second is refused, and so is an earlier day's puzzle
    /// not under way. A try started writes the notice that shows it to `to`, and returns it, as
    /// [`Puzzles::puzzle`] does.
    pub async fn daily_puzzle(
        self,
        guild: GuildId,
        user: &User,
        day: Option<i64>,
        to: Option<&ReplyTo>,
    ) -> Result<Answered<PuzzleView>, ServiceError> {
        let (day, puzzle_id) = match self.daily_try(guild, user.id, day).await? {
            DailyTry::UnderWay(a) => {
                let p = self.stored_puzzle(a.puzzle).await?;
                let view = self.view(&p, a.progress, a.rated, a.day).await?;
                return Ok(Answered::with(view, None));
            }
            DailyTry::New { day, puzzle_id } => (day, puzzle_id),
        };
        let p = self.stored_puzzle(puzzle_id).await?;
        let mut tx = self.core.store.write().await?;
        let rated = !rows::tried(&mut *tx, guild, user.id, puzzle_id).await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let started = rows::start(&mut *tx, guild, user.id, puzzle_id, rated, Some(day), now).await;
        match started {
            Ok(attempt) => {
                let new_try = PuzzleTry::started(attempt, puzzle_id, rated, Some(day));
                self.start_shown(tx, new_try, &p, to, now).await
            }
            // A second press at the same moment started it: show that one.
            Err(e) if e.is_unique_violation("puzzle_attempts") => {
                drop(tx);
                let a = rows::day_attempt(self.core.store.read(), guild, user.id, day)
                    .await?
                    .map(PuzzleTry::from)
                    .ok_or(ServiceError::PositionChanged)?;
                let view = self.view(&p, a.progress, a.rated, a.day).await?;
                Ok(Answered::with(view, None))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Checks, reading only, that [`Puzzles::daily_puzzle`] would show `user` a try at `day`'s
    /// puzzle (by default today's): under way, or one to start (the bot answers a refusal
    /// before it acknowledges the command or the press).
    pub async fn check_daily_puzzle(
        self,
        guild: GuildId,
        user: UserId,
        day: Option<i64>,
    ) -> Result<(), ServiceError> {
        self.daily_try(guild, user, day).await.map(drop)
    }

    /// `user`'s try at `day`'s puzzle (by default today's): the one under way, or the day and
    /// puzzle of one to start; refused when the day's try is over, or the day is past, or there
    /// is no puzzle that day.
    async fn daily_try(
        self,
        guild: GuildId,
        user: UserId,
        day: Option<i64>,
    ) -> Result<DailyTry, ServiceError> {
        // The day on the database's clock: every process agrees on it.
        let today = day_of(self.core.database_now().await?);
        let day = day.unwrap_or(today);
        if let Some(a) = rows::day_attempt(self.core.store.read(), guild, user, day).await? {
            let a = PuzzleTry::from(a);
            if !a.active() {
                return Err(ServiceError::DailyPuzzleDone {
                    solved: a.status == TryStatus::Solved,
                });
            }
            return Ok(DailyTry::UnderWay(a));
        }
        if day != today {
            return Err(ServiceError::DailyPuzzleOver);
        }
        let (puzzle_id, _) = rows::of_server_day(self.core.store.read(), guild, day)
            .await?
            .ok_or(ServiceError::NoDailyPuzzle)?;
        Ok(DailyTry::New { day, puzzle_id })
    }

    /// Today's daily puzzle in this server and the finished tries at it; `None` when none was
    /// posted today.
    pub async fn daily_board(self, guild: GuildId) -> Result<Option<DailyBoard>, ServiceError> {
        let day = day_of(self.core.database_now().await?);
        let Some((puzzle_id, channel)) =
            rows::of_server_day(self.core.store.read(), guild, day).await?
        else {
            return Ok(None);
        };
        Ok(Some(DailyBoard {
            day,
            puzzle_id,
            channel,
            results: rows::day_results(self.core.store.read(), guild, day)
                .await?
                .into_iter()
                .map(DayResult::from)
                .collect(),
        }))
    }

    /// Names the server's daily puzzle channel (`None`: stops the daily puzzle), with, given
    /// the interaction `to`, the notice that says so there (in the same transaction): whether
    /// there was one to stop, and that notice (its id, and the notice as written, for the
    /// handler to show).
    pub async fn set_daily_channel(
        self,
        guild: GuildId,
        channel: Option<ChannelId>,
        by: UserId,
        to: Option<&ReplyTo>,
    ) -> Result<Answered<(bool, Option<NoticeId>)>, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let had = match channel {
            Some(c) => rows::set_channel(&mut *tx, guild, c, by, now)
                .await
                .map(|_| true),
            None => rows::clear_channel(&mut *tx, guild).await,
        }?;
        let news = News::DailyPuzzleChannel { channel, had };
        let notice =
            (self
                .core
                .reply_notice(&mut tx, "daily_channel", Payload::news(news), to, now))
            .await?;
        // Landed: the server's daily channel as this transaction left it.
        let landed = || async move {
            let now = rows::channel_of(self.core.store.read(), guild).await?;
            Ok(now == channel.map(|c| (c, by)))
        };
        let id = notice.as_ref().map(|n| n.id);
        self.core.commit_answered(tx, id, landed).await?;
        Ok(Answered::with((had, id), notice))
    }

    /// Posts today's puzzle in every server's daily channel that has not had it: each post is
    /// written to the outbox in the transaction that claims the day, so it goes out once. The
    /// servers posted to.
    pub async fn post_daily(self) -> Result<Vec<GuildId>, ServiceError> {
        // The day on the database's clock: processes whose clocks differ around midnight
        // agree on which day's puzzle is due.
        let now = self.core.database_now().await?;
        let day = day_of(now);
        let due = rows::daily_due(self.core.store.read(), day).await?;
        if due.is_empty() {
            return Ok(Vec::new());
        }
        let mut count = rows::count(self.core.store.read()).await?;
        if count == 0 {
            self.seed().await?;
            count = rows::count(self.core.store.read()).await?;
        }
        let Some(row) = rows::of_day(self.core.store.read(), day, count).await? else {
            return Ok(Vec::new());
        };
        let p = stored::puzzle(row)?;
        let view = PuzzleView {
            puzzle_id: p.id,
            kind: p.kind,
            moves: p.moves,
            step: 1,
            side: p.start.turn(),
            rating: p.rating,
            rated: false,
            reply: None,
            day: Some(day),
            png: Vec::new(),
            notice: None,
        };
        let mut posted = Vec::new();
        for (guild, channel) in due {
            let mut tx = self.core.store.write().await?;
            if !rows::claim_day(&mut *tx, guild, channel, day).await? {
                continue;
            }
            // The puzzle its members try today is the one the post shows.
            rows::record_day(&mut *tx, guild, day, p.id, channel, now).await?;
            let payload = Payload {
                puzzle: Some(PuzzleBoardRef {
                    puzzle: p.id,
                    caption: self.core.caption(&Caption::Puzzle(&view)),
                    plies: 0,
                    then: None,
                }),
                buttons: Some(Buttons::DailyPuzzle(day)),
                ..Payload::news(News::DailyPuzzle(view.clone()))
            };
            let told = self
                .core
                .notice(channel, "daily_puzzle", &payload)
                .write(&mut tx, now)
                .await?
                .id;
            self.core.commit_noticed(tx, told).await?;
            posted.push(guild);
        }
        Ok(posted)
    }
}
