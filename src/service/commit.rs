//! A change committed with its notices: a move or a game's end written in one transaction with
//! the news it owes (the game's row moved on only if it is still where it was read), the game
//! rated when it ends, what the parts registered for a game's end
//! ([`OnGameEnd`](super::core::OnGameEnd)) done in that transaction, the clock's deadline
//! set; a commit whose outcome is unknown looked up.

use super::away;
use super::core::Core;
use super::error::{Done, ServiceError};
use super::news::News;
use super::notice::{Answer, Answered, Notice, Payload};
use super::stored::challenges as stored_challenges;
use super::stored::games::{self as stored, LoadedGame, StoredGame, StoredTurn};
use super::types::notify::LastMove;
use super::types::{
    Caption, ChannelId, ClockEvent, Clocks, Ended, GameId, GameInfo, MoveReport, NoticeId, Player,
    RatingChanges, TimeControl, User, UserId,
};
use crate::rating::{rate_game, Score};
use crate::store::games::Advance;
use crate::store::{draws, games, moves, players, DrawStatus};
use crate::store::{Connection, StoreError, Write};
use crate::tafl::{write_position, Game, Outcome, Position, Reason, Side};
use std::time::Duration;

impl Core {
    /// Writes a move that `loaded.game` has just played (the move list's newest entry), if
    /// the game is still where it was read, with its announcement in the outbox: a player's
    /// move (`by_user`) is held for the grace while its interaction answers it (see
    /// [`Outbox::news_delivered`](super::outbox::Outbox::news_delivered)); the AI's goes out at once. Then draws the board for the
    /// player's answer. Returns the move's report and its notice as written.
    pub(crate) async fn commit_move(
        &self,
        loaded: LoadedGame,
        by_user: Option<UserId>,
        answer: Answer,
    ) -> Result<(MoveReport, Notice), ServiceError> {
        let LoadedGame {
            turn,
            mut game,
            info,
        } = loaded;
        let recorded = *game.moves().last().expect("a move was just played");
        if !game.outcome().is_over() && game.moves().len() >= self.config.max_plies as usize {
            // The bot's limit on a game's length: the move stands and the game is drawn.
            game.end(Outcome::Drawn {
                reason: Reason::PlyLimit,
            })
            .map_err(|_| ServiceError::GameOver)?;
        }
        let mut tx = self.store.write().await?;
        let now = self.database_now_on(&mut tx).await?;
        // A move made on vacation ends it (its notices follow the move's).
        let back = match by_user {
            Some(user) => away::end_by_move(self, &mut tx, user, now).await?,
            None => Vec::new(),
        };
        let mut report = self
            .write_move(&mut tx, turn, &game, info, by_user, now)
            .await?;
        let notice = self
            .announce_move(&mut tx, &mut report, answer, by_user, now)
            .await?;
        away::tell(self, &mut tx, back, now).await?;
        // Landed: the move at its ply, as this transaction wrote it.
        let (id, ply, notation) = (report.game.id, report.game.ply, &report.notation);
        let landed = || async move {
            stored::move_stored(
                self.store.read(),
                id,
                (ply, notation.as_str()),
                by_user,
                now,
            )
            .await
        };
        self.commit_or_look(tx, landed).await?;
        if by_user.is_some() {
            report.png = self
                .image(
                    *game.position(),
                    Some(recorded),
                    &Caption::Game(&report.game),
                )
                .await
                .map_err(ServiceError::after(Done::Move))?;
        }
        Ok((report, notice))
    }

    /// A move's rows, in `conn`'s transaction: the game's row moved on (only if it is still at
    /// the ply it was read at, `turn`), the move under its `(game, ply)` key, an open draw offer lapsed,
    /// and a game the move ends closed by what the parts registered and rated. Returns the move's
    /// report, its notice not yet written.
    ///
    /// # Errors
    /// [`ServiceError::PositionChanged`] when another move took the ply; the database's.
    async fn write_move(
        &self,
        conn: &mut Connection,
        turn: StoredTurn,
        game: &Game,
        info: GameInfo,
        by_user: Option<UserId>,
        now: i64,
    ) -> Result<MoveReport, ServiceError> {
        let recorded = *game.moves().last().expect("a move was just played");
        let clocks = fischer_after_move(turn, &info, now);
        let id = info.id;
        let info = GameInfo {
            ply: turn.ply + 1,
            turn: game.turn(),
            outcome: game.outcome(),
            clocks,
            ..info
        };
        let info = GameInfo {
            turn_deadline: self.deadline(&info, now),
            ..info
        };
        let notation = recorded.to_string();
        if info.is_over() {
            self.before_end(conn, id).await?;
        }
        advance(conn, turn, &info, game.position(), now).await?;
        moves::insert(&mut *conn, id, info.ply, &notation, by_user, now)
            .await
            .map_err(ServiceError::unless_taken(
                "moves",
                ServiceError::PositionChanged,
            ))?;
        draws::close_open(&mut *conn, id, DrawStatus::Lapsed, now).await?;
        let ratings = if info.is_over() {
            self.game_ended(conn, &info, now).await?;
            rate(conn, &info, now).await?
        } else {
            None
        };
        Ok(MoveReport {
            by: info.player(recorded.side).clone(),
            captured: recorded.captured.into_iter().collect(),
            // Linnaeus' calls are Tablut's alone.
            call: recorded.call.filter(|_| info.variant().is_tablut()),
            notation,
            recorded,
            ratings,
            game: info,
            png: Vec::new(),
            notice: 0,
        })
    }

    /// A move's news, in `conn`'s transaction: its notice (a player's held for its answer for
    /// the grace; posted instead, after the news its channel owes, if the answer would stand
    /// above it), the player's clock waiting for it, and the turn's direct message. Sets the
    /// report's notice and returns the notice as written.
    async fn announce_move(
        &self,
        conn: &mut Connection,
        report: &mut MoveReport,
        answer: Answer,
        by_user: Option<UserId>,
        now: i64,
    ) -> Result<Notice, ServiceError> {
        let hold = match by_user {
            Some(_) => self.delivery.answer_grace,
            None => Duration::ZERO,
        };
        // Posted instead, after the news its channel owes, if the response would stand above it.
        let channel = report.game.place.channel;
        let (answer, hold) = self.in_order(conn, channel, answer, hold).await?;
        let payload = answer.payload(self.with_board(News::Moved(report.clone()), &report.game));
        let notice = self
            .notice(channel, "move", &payload)
            .held(hold)
            .write(conn, now)
            .await?;
        report.notice = notice.id;
        self.clock_waits(conn, &report.game, report.notice).await?;
        let last = LastMove {
            notation: report.notation.clone(),
            by: report.by.clone(),
        };
        self.tell_turn(conn, &report.game, report.notice, by_user, Some(last), now)
            .await?;
        Ok(notice)
    }

    /// Commits `tx`, which wrote notices, and wakes the dispatcher. A commit whose outcome is
    /// unknown (the connection lost during COMMIT: [`crate::store::StoreError::is_outcome_unknown`])
    /// is looked up before anything is told: `landed` says whether the transaction's change
    /// is there, and is asked again while the database cannot be read (for some 10 s). Landed,
    /// the change stands as committed, its news shown as usual; not landed (or never found
    /// out), the commit's error is returned.
    pub(crate) async fn commit_or_look<F, Fut>(
        &self,
        tx: Write<'_>,
        landed: F,
    ) -> Result<(), ServiceError>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = Result<bool, StoreError>>,
    {
        let Err(e) = tx.commit().await else {
            self.wake_outbox();
            return Ok(());
        };
        if !e.is_outcome_unknown() {
            return Err(e.into());
        }
        tracing::warn!(error = ?e, "a commit's outcome is unknown: looking whether it landed");
        let mut wait = Duration::from_millis(50);
        for _ in 0..10 {
            match landed().await {
                Ok(true) => {
                    tracing::info!("the commit whose outcome was unknown landed");
                    self.wake_outbox();
                    return Ok(());
                }
                Ok(false) => break,
                Err(look) => {
                    tracing::warn!(error = ?look, "cannot look whether a commit landed: looking again");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(2));
                }
            }
        }
        Err(e.into())
    }

    /// Ends a game off the board (resignation, agreement, abort, time), if it is still where
    /// it was read; with the notice held for its interaction's answer, as written, if
    /// `announce` holds one ([`Announce::Held`]).
    pub(crate) async fn commit_end(
        &self,
        loaded: LoadedGame,
        outcome: Outcome,
        announce: Announce,
    ) -> Result<Answered<Ended>, ServiceError> {
        self.commit_end_taking(loaded, outcome, announce, None)
            .await
    }

    /// [`Core::commit_end`] that also takes the open draw offer `offer` (accepted) in the
    /// same transaction: if another answer took it first (Decline pressed at the same time),
    /// nothing is written and the answer is [`ServiceError::NoDrawOffer`].
    pub(crate) async fn commit_end_taking(
        &self,
        loaded: LoadedGame,
        outcome: Outcome,
        announce: Announce,
        offer: Option<i64>,
    ) -> Result<Answered<Ended>, ServiceError> {
        let LoadedGame {
            turn,
            mut game,
            info,
        } = loaded;
        let id = info.id;
        game.end(outcome).map_err(|_| ServiceError::GameOver)?;
        let info = GameInfo {
            outcome,
            turn_deadline: None,
            ..info
        };
        let mut tx = self.store.write().await?;
        let now = self.database_now_on(&mut tx).await?;
        self.before_end(&mut tx, id).await?;
        if let Some(offer) = offer {
            if !draws::decide(&mut *tx, offer, DrawStatus::Accepted, now).await? {
                return Err(ServiceError::NoDrawOffer);
            }
        }
        advance(&mut tx, turn, &info, game.position(), now).await?;
        draws::close_open(&mut *tx, id, DrawStatus::Lapsed, now).await?;
        self.game_ended(&mut tx, &info, now).await?;
        let ratings = rate(&mut tx, &info, now).await?;
        let mut ended = Ended {
            game: info,
            ratings,
            png: Vec::new(),
            notice: None,
        };
        let answered = matches!(announce, Announce::Answer | Announce::Held { .. });
        let notice = self.announce_end(&mut tx, &ended, announce, now).await?;
        ended.notice = notice.as_ref().map(|n| n.id);
        // Landed: the game ended at its ply, as this transaction wrote it.
        let (ply, reason) = (ended.game.ply, outcome.reason().map(|r| r.name()));
        let landed = || async move {
            let row = stored::by_id(self.store.read(), id).await?;
            Ok(row.is_some_and(|r| {
                !r.is_active() && (r.ply(), r.ended_at(), r.reason()) == (ply, Some(now), reason)
            }))
        };
        self.commit_or_look(tx, landed).await?;
        if answered {
            ended.png = self
                .image(
                    *game.position(),
                    game.moves().last().copied(),
                    &Caption::Game(&ended.game),
                )
                .await
                .map_err(ServiceError::after(Done::GameEnd))?;
        }
        Ok(Answered::with(ended, notice))
    }

    /// What the parts registered take before a game's end is written
    /// ([`OnGameEnd::before_end`](super::core::OnGameEnd::before_end)).
    async fn before_end(&self, conn: &mut Connection, game: GameId) -> Result<(), ServiceError> {
        for hook in &self.on_game_end {
            hook.before_end(self, conn, game).await?;
        }
        Ok(())
    }

    /// What the parts registered owe a game's end, written in its transaction
    /// ([`OnGameEnd::ended`](super::core::OnGameEnd::ended)).
    async fn game_ended(
        &self,
        conn: &mut Connection,
        game: &GameInfo,
        now: i64,
    ) -> Result<(), ServiceError> {
        for hook in &self.on_game_end {
            hook.ended(self, conn, game, now).await?;
        }
        Ok(())
    }

    /// Makes `game`'s clock, if it runs, wait for `notice` (the news that gives its player to
    /// move the turn, written in the transaction under way): their time starts when the notice
    /// is shown ([`super::Outbox::news_delivered`]), so none is lost while it is delivered.
    pub(crate) async fn clock_waits(
        &self,
        conn: &mut Connection,
        game: &GameInfo,
        notice: NoticeId,
    ) -> Result<(), ServiceError> {
        if game.turn_deadline.is_some() {
            games::clock_waits_for(&mut *conn, game.id, notice).await?;
        }
        Ok(())
    }

    /// When the player to move runs out of time if their turn starts at `now`: the time per
    /// move, or their bank, from then. Only people have a clock.
    pub(crate) fn deadline(&self, info: &GameInfo, now: i64) -> Option<i64> {
        let turn = match (info.time_control, info.clocks) {
            (TimeControl::Fischer { .. }, Some(clocks)) => clocks.of(info.turn),
            (tc, _) => tc.per_move()?.as_millis() as i64,
        };
        match info.to_move() {
            Some(Player::User(_)) => Some(now + turn),
            _ => None,
        }
    }

    /// A game's channel is gone: the game is aborted (unrated; returned, unless it ended
    /// meanwhile), and where the game came from a challenge in another channel (a thread), that
    /// channel is told, unless it is among `gone` (deleted with it).
    pub(crate) async fn abort_in_gone_channel(
        &self,
        row: StoredGame,
        gone: &[ChannelId],
    ) -> Result<Option<Box<Ended>>, ServiceError> {
        let Some(loaded) = self.load_or_skip(row).await else {
            return Ok(None);
        };
        let outcome = Outcome::Drawn {
            reason: Reason::Aborted,
        };
        match self
            .commit_end(loaded, outcome, Announce::ChannelGone(gone.to_vec()))
            .await
        {
            Ok(ended) => Ok(Some(Box::new(ended.done))),
            Err(ServiceError::PositionChanged | ServiceError::GameOver) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Writes what a game's ending owes a channel; returns the notice its interaction's
    /// answer is to show, as written, if the answer is held for.
    pub(crate) async fn announce_end(
        &self,
        conn: &mut Connection,
        ended: &Ended,
        announce: Announce,
        now: i64,
    ) -> Result<Option<Notice>, ServiceError> {
        match announce {
            Announce::Answer => {}
            Announce::Held { by, answer } => {
                // The player who resigned or aborted; a moderator who aborted, by id.
                let by = by.map(|u| match ended.game.side_of(u) {
                    Some(side) => ended.game.player(side).clone(),
                    None => Player::User(User::new(u, String::new())),
                });
                let news = News::Ended {
                    ended: ended.clone(),
                    by,
                };
                let channel = ended.game.place.channel;
                let grace = self.delivery.answer_grace;
                let (answer, hold) = self.in_order(conn, channel, answer, grace).await?;
                let payload = answer.payload(self.with_board(news, &ended.game));
                let notice = self
                    .notice(channel, "ended", &payload)
                    .held(hold)
                    .write(conn, now)
                    .await?;
                return Ok(Some(notice));
            }
            Announce::TimedOut => {
                let news = News::Clock(ClockEvent::TimedOut(ended.clone()));
                let payload = self.with_board(news, &ended.game);
                let channel = ended.game.place.channel;
                self.notice(channel, "timeout", &payload)
                    .write(conn, now)
                    .await?;
            }
            Announce::ChannelGone(gone) => {
                let parent = stored_challenges::by_game(&mut *conn, ended.game.id)
                    .await?
                    .map(|c| c.channel())
                    .filter(|&c| c != ended.game.place.channel && !gone.contains(&c));
                if let Some(parent) = parent {
                    let payload = Payload::news(News::ChannelGone(ended.game.clone()));
                    self.notice(parent, "channel_gone", &payload)
                        .write(conn, now)
                        .await?;
                }
            }
        }
        Ok(None)
    }
}

/// Who tells the channel about a game's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Announce {
    /// The player's interaction answers it, and nothing else does.
    Answer,
    /// The player's command or press shows it by editing its response; its notice is held for
    /// that edit, which the dispatcher sends again if the handler does not record it (`by`: the
    /// player who resigned or aborted; `answer`: where it is shown).
    Held { by: Option<UserId>, answer: Answer },
    /// The clock: a loss on time, through the outbox.
    TimedOut,
    /// The channel is gone: said in the channel the game's thread came from, if any and if it
    /// is not among these (gone too).
    ChannelGone(Vec<ChannelId>),
}

/// Moves a game's row on to `info` (at `position`), if it is still active at the ply it was
/// read at (`turn`); otherwise says why not: it ended, or another move came first.
async fn advance(
    conn: &mut Connection,
    turn: StoredTurn,
    info: &GameInfo,
    position: &Position,
    now: i64,
) -> Result<(), ServiceError> {
    let advance = Advance {
        id: info.id,
        expected_ply: turn.ply,
        ply: info.ply,
        position: &write_position(position),
        ended: ending(info.outcome),
        turn_deadline: info.turn_deadline,
        banks: info
            .clocks
            .map(|c| (c.of(info.turn), c.of(info.turn.other()))),
        now,
    };
    if games::advance(&mut *conn, &advance).await? {
        return Ok(());
    }
    Err(match stored::by_id(&mut *conn, info.id).await? {
        Some(r) if r.is_active() => ServiceError::PositionChanged,
        _ => ServiceError::GameOver,
    })
}

/// A Fischer clock's banks after the side to move (in `info`, as loaded with `turn`) moves at
/// `now`: the mover keeps what its turn left ([`StoredTurn::left`]) plus the increment, never
/// more than the bank the game started with. None for a game without a bank.
pub(crate) fn fischer_after_move(turn: StoredTurn, info: &GameInfo, now: i64) -> Option<Clocks> {
    let TimeControl::Fischer { bank, increment } = info.time_control else {
        return None;
    };
    let mut clocks = info.clocks?;
    let left = turn.left(clocks.of(info.turn), now);
    let after = (left + increment.as_millis() as i64).min(bank.as_millis() as i64);
    clocks.set(info.turn, after);
    Some(clocks)
}

/// The result and reason columns of an ended game.
fn ending(outcome: Outcome) -> Option<(&'static str, &'static str)> {
    outcome.reason().map(|r| (outcome.status(), r.name()))
}

/// Rates a finished game between two people in a server, in the transaction that ends it.
async fn rate(
    conn: &mut Connection,
    info: &GameInfo,
    now: i64,
) -> Result<Option<RatingChanges>, ServiceError> {
    let (Some(guild), Player::User(a), Player::User(d)) =
        (info.place.guild, &info.attackers, &info.defenders)
    else {
        return Ok(None);
    };
    if !info.rated || info.outcome.reason() == Some(Reason::Aborted) {
        return Ok(None);
    }
    let score = match info.outcome {
        Outcome::Ongoing => return Ok(None),
        Outcome::Won {
            winner: Side::Attackers,
            ..
        } => Score::Win,
        Outcome::Won { .. } => Score::Loss,
        Outcome::Drawn { .. } => Score::Draw,
    };
    // Both players' rows are locked before either is read, lowest id first, so that two games
    // of one player ending at once (in two processes) rate one after the other, and two games
    // between the same two people lock in the same order.
    // Each variant has its own ratings.
    let variant = info.variant().name();
    let (low, high) = if a.id <= d.id { (a, d) } else { (d, a) };
    let first = players::lock(&mut *conn, guild, low.id, variant, &low.name, now).await?;
    let second = players::lock(&mut *conn, guild, high.id, variant, &high.name, now).await?;
    let (before_a, before_d) = if a.id <= d.id {
        (first, second)
    } else {
        (second, first)
    };
    let (after_a, after_d) = rate_game(before_a, before_d, score);
    players::put_rating(&mut *conn, guild, a.id, variant, &a.name, after_a, now).await?;
    players::put_rating(&mut *conn, guild, d.id, variant, &d.name, after_d, now).await?;
    Ok(Some(RatingChanges {
        attackers: (a.id, before_a, after_a),
        defenders: (d.id, before_d, after_d),
    }))
}
