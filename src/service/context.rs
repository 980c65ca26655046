//! What every part of the service shares ([`Context`]): the database, the clocks, the
//! configuration, the outbox's times and wake, the heavy-work gate, the sweeps' backoff, the
//! per-user rate limits and the process's claimer id; and the helpers every part uses on them
//! (the database's time, a channel's game loaded and rebuilt, a move or a game's end committed
//! with its notices, a board drawn, a notice written to the outbox).

use super::backoff::Backoff;
use super::clock::{Clock, DatabaseClock};
use super::heavy::{self, Heavy};
use super::limits::Limits;
use super::news::News;
use super::outbox::{self, AnswerRef, NoticeId, OutboxTimes, Payload};
use super::types::{
    ChannelId, Clocks, Ended, GameInfo, MoveReport, Place, Player, RatingChanges, TimeControl,
    User, UserId,
};
use super::{ai, Config, Done, ServiceError};
use crate::rating::{rate_game, Score};
use crate::store::games::{Advance, GameRow, SeatRow};
use crate::store::{draws, games, moves, players, DrawStatus, GameStatus};
use crate::store::{Connection, Store, StoreError, Write};
use crate::tafl::{write_position, Game, Outcome, Position, Reason, RecordedMove, Rules, Side};
use std::sync::Arc;
use std::time::Duration;

/// What the parts of the service share; each part borrows it (see docs/ARCHITECTURE.md).
pub(crate) struct Context {
    /// The database: reads through it, writes through its write lock (see [`Store`]). Shared
    /// with the tasks that renew the AI's claims, which write beside the service.
    pub(crate) store: Store,
    /// This process's clock (see [`Context::process_now`]).
    pub(crate) clock: Arc<dyn Clock>,
    /// Where the service reads the database's time (see [`super::clock`]).
    pub(crate) database_clock: DatabaseClock,
    pub(crate) config: Config,
    /// The per-user rate limits this process keeps (see [`super::limits`]).
    pub(crate) limits: Limits,
    /// The times of the outbox's notices (holds, retention, claims).
    pub(crate) delivery: OutboxTimes,
    /// Rung after a commit that wrote notices, so the dispatcher delivers them at once.
    pub(crate) outbox_wake: Arc<tokio::sync::Notify>,
    /// The gate all heavy work off the runtime goes through (see [`heavy`]).
    pub(crate) gate: Heavy,
    /// The sweeps' items whose handling failed, set aside for a while (see [`super::backoff`]).
    pub(crate) retries: Backoff,
    /// This service's id in the claims it takes in the database (the AI's turns, the clock's
    /// looks at games): unique per process and per service.
    pub(crate) claimer: String,
}

/// A game read from the store and rebuilt from its moves.
pub(crate) struct Loaded {
    pub row: GameRow,
    pub game: Game,
    pub info: GameInfo,
}

impl Context {
    pub(crate) fn new(store: Store, config: Config, clock: Arc<dyn Clock>) -> Context {
        Context {
            store,
            database_clock: DatabaseClock::new(&clock),
            limits: Limits::new(&config, clock.clone()),
            clock,
            delivery: OutboxTimes::default(),
            outbox_wake: Arc::new(tokio::sync::Notify::new()),
            gate: Heavy::new(config.heavy_workers, config.heavy_queue_limit),
            retries: Backoff::default(),
            claimer: ai::claimer_id(),
            config,
        }
    }

    /// This process's time (Unix ms): only for what concerns this process alone, the hint
    /// cooldown sparing its AI pool (and, through their own handle on the clock, the per-user
    /// rate limits it keeps, see [`limits`]). Nothing it gives is stored or compared with
    /// another process's times: every deadline, expiry, day, date and lease is on the
    /// database's clock ([`Context::database_now`]; see [`clock`]).
    pub(crate) fn process_now(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The database's time now (Unix ms): what every deadline, expiry, day, date, lease, hold
    /// and claim is measured against (turn deadlines and reminders, losses on time, challenges'
    /// expiry, draw offers, the heartbeat, the daily puzzle's day, the cooldown between games
    /// against the AI, the outbox's holds and claims, the AI's turns, the clock's looks at
    /// games), so that processes whose own clocks differ agree on what is due and who holds
    /// what.
    pub(crate) async fn database_now(&self) -> Result<i64, ServiceError> {
        Ok(self
            .database_clock
            .now(self.store.read(), self.store.backend())
            .await?)
    }

    /// [`Context::database_now`] on a connection (in a transaction under way).
    pub(crate) async fn database_now_on(&self, conn: &mut Connection) -> Result<i64, ServiceError> {
        Ok(self
            .database_clock
            .now(&mut *conn, self.store.backend())
            .await?)
    }

    /// The active game in a channel, rebuilt.
    pub(crate) async fn active(&self, channel: ChannelId) -> Result<Loaded, ServiceError> {
        match games::active_in_channel(self.store.read(), channel).await? {
            Some(row) => self.load(row).await,
            // A game just finished here: say so, rather than that there is none.
            None => match games::latest_in_channel(self.store.read(), channel).await? {
                Some(_) => Err(ServiceError::GameOver),
                None => Err(ServiceError::NoGame),
            },
        }
    }

    /// The channel's active game, or else its latest one (for looking, not playing).
    pub(crate) async fn latest(&self, channel: ChannelId) -> Result<Loaded, ServiceError> {
        match games::latest_in_channel(self.store.read(), channel).await? {
            Some(row) => self.load(row).await,
            None => Err(ServiceError::NoGame),
        }
    }

    pub(crate) async fn load(&self, row: GameRow) -> Result<Loaded, ServiceError> {
        let moves = moves::of_game(self.store.read(), row.id).await?;
        rebuild(row, moves.iter().map(|m| m.notation.as_str()))
    }

    /// [`Context::load`] with the game played through on a blocking thread, through
    /// [`Context::heavy`]: for the commands that then do heavy work with it (replays, analyses).
    pub(crate) async fn load_blocking(
        &self,
        row: GameRow,
        place: &heavy::Place,
    ) -> Result<Loaded, ServiceError> {
        let moves = moves::of_game(self.store.read(), row.id).await?;
        self.heavy(place, move || {
            rebuild(row, moves.iter().map(|m| m.notation.as_str()))
        })
        .await?
    }

    /// Runs costly work (a replay drawn, a game played through for its analysis) on a
    /// blocking thread, off the runtime, through the heavy-work gate ([`heavy`]): it waits for
    /// one of the workers costly work may take, holding its `place` in the queue.
    pub(crate) async fn heavy<R: Send + 'static>(
        &self,
        place: &heavy::Place,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ServiceError> {
        self.gate.run_costly(place, work).await
    }

    /// A place in the heavy-work queue for a user's costly request, and the user's cooldown
    /// counted ([`Limits::costly`]; none without a user): refused with a private line
    /// when the queue is full or the user asked a moment ago. The place is taken first, so a
    /// refusal for a full queue does not start the cooldown.
    pub(crate) fn costly_place(&self, user: Option<UserId>) -> Result<heavy::Place, ServiceError> {
        let place = self.gate.place()?;
        if let Some(user) = user {
            self.limits.costly(user)?;
        }
        Ok(place)
    }

    /// [`Context::load`] for a sweep over many games: a game that cannot be rebuilt is logged
    /// and skipped, so it does not hold up the others.
    pub(crate) async fn load_or_skip(&self, row: GameRow) -> Option<Loaded> {
        let id = row.id;
        match self.load(row).await {
            Ok(loaded) => Some(loaded),
            Err(e) => {
                tracing::error!(game = id, error = ?e, "cannot rebuild the game: skipped");
                None
            }
        }
    }

    /// Writes a move that `loaded.game` has just played (the move list's newest entry), if
    /// the game is still where it was read, with its announcement in the outbox: a player's
    /// move (`by_user`) is held for the grace while its interaction answers it (see
    /// [`Outbox::news_delivered`]); the AI's goes out at once. Then draws the board for the
    /// player's answer.
    pub(crate) async fn commit_move(
        &self,
        loaded: Loaded,
        by_user: Option<UserId>,
        answer: Option<AnswerRef>,
    ) -> Result<MoveReport, ServiceError> {
        let Loaded {
            row,
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
        let clocks = fischer_after_move(&row, &info, now);
        let info = GameInfo {
            ply: row.ply + 1,
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
        advance(&mut tx, &row, &info, game.position(), now).await?;
        moves::insert(&mut *tx, row.id, info.ply, &notation, by_user, now)
            .await
            .map_err(ServiceError::unless_taken(
                "moves",
                ServiceError::PositionChanged,
            ))?;
        draws::close_open(&mut *tx, row.id, DrawStatus::Lapsed, now).await?;
        let ratings = if info.is_over() {
            rate(&mut tx, &info, now).await?
        } else {
            None
        };
        let mut report = MoveReport {
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
        };
        let hold = match by_user {
            Some(_) => self.delivery.answer_grace,
            None => Duration::ZERO,
        };
        // Posted instead, after the news its channel owes, if the response would stand above it.
        let answering = outbox::Answering {
            answer,
            message: None,
        };
        let channel = report.game.place.channel;
        let (answering, hold) = self.in_order(&mut tx, channel, answering, hold).await?;
        let payload = Payload {
            answer: answering.answer,
            ..Payload::with_board(News::Moved(report.clone()), &report.game)
        };
        report.notice = self
            .enqueue(&mut tx, report.game.place.channel, "move", &payload, hold)
            .await?;
        self.clock_waits(&mut tx, &report.game, report.notice)
            .await?;
        // Landed: the move at its ply, as this transaction wrote it.
        let (id, ply, notation) = (row.id, report.game.ply, &report.notation);
        let landed = || async move {
            let moves = moves::of_game(self.store.read(), id).await?;
            Ok(moves.iter().any(|m| {
                (m.ply, &m.notation, m.user_id, m.played_at) == (ply, notation, by_user, now)
            }))
        };
        self.commit_or_look(tx, landed).await?;
        if by_user.is_some() {
            report.png = self
                .image(*game.position(), Some(recorded), report.game.status_line())
                .await
                .map_err(ServiceError::after(Done::Move))?;
        }
        Ok(report)
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
    /// it was read.
    pub(crate) async fn commit_end(
        &self,
        loaded: Loaded,
        outcome: Outcome,
        announce: outbox::Announce,
    ) -> Result<Ended, ServiceError> {
        self.commit_end_taking(loaded, outcome, announce, None)
            .await
    }

    /// [`Context::commit_end`] that also takes the open draw offer `offer` (accepted) in the
    /// same transaction: if another answer took it first (Decline pressed at the same time),
    /// nothing is written and the answer is [`ServiceError::NoDrawOffer`].
    pub(crate) async fn commit_end_taking(
        &self,
        loaded: Loaded,
        outcome: Outcome,
        announce: outbox::Announce,
        offer: Option<i64>,
    ) -> Result<Ended, ServiceError> {
        let Loaded {
            row,
            mut game,
            info,
        } = loaded;
        game.end(outcome).map_err(|_| ServiceError::GameOver)?;
        let info = GameInfo {
            outcome,
            turn_deadline: None,
            ..info
        };
        let mut tx = self.store.write().await?;
        let now = self.database_now_on(&mut tx).await?;
        if let Some(offer) = offer {
            if !draws::answer(&mut *tx, offer, DrawStatus::Accepted, now).await? {
                return Err(ServiceError::NoDrawOffer);
            }
        }
        advance(&mut tx, &row, &info, game.position(), now).await?;
        draws::close_open(&mut *tx, row.id, DrawStatus::Lapsed, now).await?;
        let ratings = rate(&mut tx, &info, now).await?;
        let mut ended = Ended {
            game: info,
            ratings,
            png: Vec::new(),
            notice: None,
        };
        let answered = matches!(
            announce,
            outbox::Announce::Answer | outbox::Announce::Held { .. }
        );
        ended.notice = self.announce_end(&mut tx, &ended, announce).await?;
        // Landed: the game ended at its ply, as this transaction wrote it.
        let (id, ply, reason) = (row.id, ended.game.ply, outcome.reason().map(|r| r.name()));
        let landed = || async move {
            let row = games::by_id(self.store.read(), id).await?;
            Ok(row.is_some_and(|r| {
                r.status != GameStatus::Active
                    && (r.ply, r.ended_at, r.reason.as_deref()) == (ply, Some(now), reason)
            }))
        };
        self.commit_or_look(tx, landed).await?;
        if answered {
            ended.png = self
                .image(
                    *game.position(),
                    game.moves().last().copied(),
                    ended.game.status_line(),
                )
                .await
                .map_err(ServiceError::after(Done::GameEnd))?;
        }
        Ok(ended)
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

    /// The board image, drawn on a blocking thread (empty when images are off).
    pub(crate) async fn image(
        &self,
        position: Position,
        last: Option<RecordedMove>,
        caption: String,
    ) -> Result<Vec<u8>, ServiceError> {
        if !self.config.images {
            return Ok(Vec::new());
        }
        self.gate
            .run_board(move || crate::render::board_png(&position, last.as_ref(), Some(&caption)))
            .await
    }
}

/// Moves a game's row on to `info` (at `position`), if it is still active at the ply it was
/// read at; otherwise says why not: it ended, or another move came first.
async fn advance(
    conn: &mut Connection,
    row: &GameRow,
    info: &GameInfo,
    position: &Position,
    now: i64,
) -> Result<(), ServiceError> {
    let advance = Advance {
        id: row.id,
        expected_ply: row.ply,
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
    Err(match games::by_id(&mut *conn, row.id).await? {
        Some(r) if r.status == GameStatus::Active => ServiceError::PositionChanged,
        _ => ServiceError::GameOver,
    })
}

/// A Fischer clock's banks as stored: the side to move's as its turn started, and the other's.
fn stored_clocks(row: &GameRow, info: &GameInfo) -> Option<Clocks> {
    let TimeControl::Fischer { bank, .. } = info.time_control else {
        return None;
    };
    let bank = bank.as_millis() as i64;
    let mut clocks = Clocks::both(bank);
    clocks.set(info.turn, row.turn_ms.unwrap_or(bank));
    clocks.set(info.turn.other(), row.waiting_ms.unwrap_or(bank));
    Some(clocks)
}

/// A Fischer clock's banks after the side to move (in `info`, as loaded from `row`) moves at
/// `now`: the mover keeps what its turn left (all of its bank while the move that gave it the
/// turn was not yet shown, or its clock stood still) plus the increment, never more than the
/// bank the game started with. None for a game without a bank.
pub(crate) fn fischer_after_move(row: &GameRow, info: &GameInfo, now: i64) -> Option<Clocks> {
    let TimeControl::Fischer { bank, increment } = info.time_control else {
        return None;
    };
    let mut clocks = info.clocks?;
    let had = clocks.of(info.turn);
    let left = match (row.turn_deadline, row.clock_waits_for) {
        (Some(deadline), None) => (deadline - now).min(had).max(0),
        _ => had,
    };
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
    let variant = info.variant();
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

/// A stored seat as a player.
fn player(seat: &SeatRow) -> Result<Player, ServiceError> {
    match (&seat.user_id, &seat.ai_level) {
        (Some(id), None) => Ok(Player::User(User::new(*id, seat.name.clone()))),
        (None, Some(level)) => level
            .parse()
            .map(Player::Ai)
            .map_err(|e| ServiceError::Internal(format!("stored AI level: {e}"))),
        _ => Err(ServiceError::Internal("a seat is both or neither".into())),
    }
}

/// A player as a stored seat.
pub(crate) fn seat(player: &Player) -> SeatRow {
    match player {
        Player::User(u) => SeatRow {
            user_id: Some(u.id),
            ai_level: None,
            name: u.name.clone(),
        },
        Player::Ai(level) => SeatRow {
            user_id: None,
            ai_level: Some(level.name().to_string()),
            name: player.name(),
        },
    }
}

/// The rules as stored.
pub(crate) fn rules_json(rules: &Rules) -> String {
    serde_json::to_string(rules).expect("rules serialize")
}

pub(crate) fn parse_rules(json: &str) -> Result<Rules, ServiceError> {
    serde_json::from_str(json).map_err(|e| ServiceError::Internal(format!("stored rules: {e}")))
}

/// A game rebuilt from its row and its moves. The moves are the truth: the row's cached
/// position is checked against them.
pub(crate) fn rebuild<'a>(
    row: GameRow,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<Loaded, ServiceError> {
    let rules = parse_rules(&row.rules)?;
    let start = stored_start(row.start.as_ref(), rules)?;
    let mut game = Game::from_position(start);
    for (i, text) in moves.into_iter().enumerate() {
        game.play_text(text).map_err(|e| {
            ServiceError::Internal(format!(
                "game {}: stored ply {} '{text}': {e}",
                row.id,
                i + 1
            ))
        })?;
    }
    if game.moves().len() != row.ply as usize || write_position(game.position()) != row.position {
        tracing::warn!(
            game = row.id,
            "the cached position disagrees with the moves; the moves win"
        );
    }
    let stored = stored_outcome(&row)?;
    if stored.is_over() && !game.outcome().is_over() {
        game.end(stored).map_err(|_| ServiceError::GameOver)?;
    }
    let info = GameInfo {
        id: row.id,
        place: Place {
            guild: row.guild_id,
            channel: row.channel_id,
        },
        attackers: player(&row.attacker)?,
        defenders: player(&row.defender)?,
        rules,
        start,
        rated: row.rated,
        ply: game.moves().len() as u32,
        turn: game.turn(),
        outcome: game.outcome(),
        time_control: TimeControl::from_columns(row.time_per_move_ms, row.increment_ms),
        turn_deadline: row.turn_deadline,
        board_message_id: row.board_message_id,
        clocks: None,
    };
    let info = GameInfo {
        clocks: stored_clocks(&row, &info),
        ..info
    };
    Ok(Loaded { row, game, info })
}

/// A start position as stored: its record and side to move (none: the standard start).
pub(crate) fn start_columns(start: Option<&Position>) -> Option<(String, String)> {
    start.map(|p| (write_position(p), p.turn().name().to_string()))
}

/// The stored start position.
pub(crate) fn stored_start(
    start: Option<&(String, String)>,
    rules: Rules,
) -> Result<Position, ServiceError> {
    let Some((record, turn)) = start else {
        return Ok(Position::start(rules));
    };
    let bad = |e: String| ServiceError::Internal(format!("stored start position: {e}"));
    let turn: Side = turn
        .parse()
        .map_err(|e: crate::tafl::side::SideError| bad(e.to_string()))?;
    crate::tafl::parse_position(record, turn, rules).map_err(|e| bad(e.to_string()))
}

/// The outcome the row records.
fn stored_outcome(row: &GameRow) -> Result<Outcome, ServiceError> {
    let bad = || ServiceError::Internal(format!("game {}: stored result", row.id));
    let (Some(result), Some(reason)) = (&row.result, &row.reason) else {
        return Ok(Outcome::Ongoing);
    };
    let reason = Reason::from_name(reason).ok_or_else(bad)?;
    Ok(match result.as_str() {
        "attackers_won" => Outcome::Won {
            winner: Side::Attackers,
            reason,
        },
        "defenders_won" => Outcome::Won {
            winner: Side::Defenders,
            reason,
        },
        "draw" => Outcome::Drawn { reason },
        _ => return Err(bad()),
    })
}
