//! The game service: every use case the bot offers (challenges, moves, the AI's replies,
//! resignations, draws, aborts, boards, records, hints, time control, ratings, stats), over the
//! store, the rules engine, the AI and the renderer. Plain types (ids are integers), typed
//! errors with a message for the user, and no Discord types: it is tested without Discord.
//!
//! Integrity: a game's move list is the truth; a move is written in one transaction that
//! checks the game is still at the ply the move was checked against, so two moves at once
//! cannot both land and a failure leaves the game as it was. The AI and the renderer run on
//! blocking threads, never inside a transaction: the AI on its own pool, the renderer and the
//! games played through for replays and analyses through a small gate ([`heavy`]).

pub mod ai;
pub mod analysis;
pub mod backoff;
pub mod challenge;
pub mod clock;
pub mod error;
pub mod gone;
pub mod heavy;
pub mod limits;
pub mod news;
pub mod outbox;
pub mod play;
#[cfg(any(test, feature = "test-support"))]
pub mod probe;
pub mod puzzle;
pub mod timecontrol;
pub mod types;
pub mod view;

/// The store's names the bot needs (why the database did not open, the default database), so
/// that it never imports the store itself.
pub use crate::store::{OpenError, DEFAULT_DATABASE_URL};
#[cfg(any(test, feature = "test-support"))]
pub use clock::ManualClock;
pub use clock::{Clock, SystemClock};
pub use error::{Done, ServiceError};
pub use gone::Gone;
pub use news::News;
pub use outbox::{
    AnswerRef, Answering, BoardRef, Buttons, Notice, NoticeId, OutboxTimes, Payload,
    PuzzleBoardRef, ANSWER_TOKEN_LIFE,
};
#[cfg(any(test, feature = "test-support"))]
pub use probe::{NoticeStatus, StoredNotice};
pub use timecontrol::{heartbeat_grace, Downtime};
pub use types::*;

use crate::ai::Level;
use crate::rating::{rate_game, Score};
use crate::store::games::{Advance, GameRow, SeatRow};
use crate::store::{self, draws, games, moves, players, DrawStatus, GameStatus};
use crate::store::{Connection, Store};
use crate::tafl::{
    write_position, Game, Outcome, Position, Reason, RecordedMove, Rules, Side, Variant,
};
use std::sync::Arc;
use std::time::Duration;

/// What the service can be tuned with.
#[derive(Debug, Clone)]
pub struct Config {
    /// The time the AI may think for a move, by level (`easy`, `medium`, `hard`).
    pub ai_time: [Duration; 3],
    /// The time the AI thinks for a hint.
    pub hint_time: Duration,
    /// How long a user waits between hints: kept by each process, on its own clock (it spares
    /// this process's AI pool).
    pub hint_cooldown: Duration,
    /// How long a challenge stays open (on the database's clock).
    pub challenge_ttl: Duration,
    /// Whether to draw board images (turned off to measure the service without them).
    pub images: bool,
    /// The AI pool: its workers (searches at once) and each one's table size in MB.
    pub ai_workers: usize,
    pub ai_tt_mb: usize,
    /// The AI's moves and hints that may wait for a worker; beyond, the AI is busy.
    pub ai_queue_limit: usize,
    /// Active games against the AI a user may have in one server.
    pub ai_games_per_user: u32,
    /// How long a user waits between starting games against the AI: counted by the database,
    /// on its clock, so it holds across processes.
    pub ai_game_cooldown: Duration,
    /// Open challenges a user may have at once (0: no limit).
    pub open_challenges_per_user: u32,
    /// Challenges a user may be sent in any `challenges_received_window` (0: no limit).
    pub challenges_received: u32,
    pub challenges_received_window: Duration,
    /// How long a hint may wait for a worker before the answer is an apology.
    pub hint_wait: Duration,
    /// The post-game analysis: the time each position is searched for...
    pub analysis_time: Duration,
    /// ...or, if set, the depth instead (deterministic: for tests).
    pub analysis_depth: Option<u32>,
    /// How long past the search's own time a process's claim on an AI turn lasts (default
    /// [`ai::AI_CLAIM_MARGIN`]).
    pub ai_claim_margin: Duration,
    /// Commands (and button presses) one user may use per minute, in a burst or spread out
    /// (0: no limit).
    pub commands_per_minute: u32,
    /// How long a user waits between two costly commands (replays, analyses).
    pub costly_cooldown: Duration,
    /// The workers heavy work (board images, replays, analyses' play-throughs and graphs, the
    /// analysis autocomplete's list) runs on at once, costly work on all but one of them
    /// ([`heavy`]).
    pub heavy_workers: usize,
    /// Costly jobs that may wait or run at once; a user's request beyond is refused
    /// ([`ServiceError::Busy`]).
    pub heavy_queue_limit: usize,
    /// The plies (moves by either side) a game may last: the move that reaches this many ends
    /// the game drawn ([`Reason::PlyLimit`]), unless it decided it. The bot's own rule, which
    /// bounds what a game costs to store, replay and analyse (docs/RULES.md).
    pub max_plies: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            ai_time: [
                Duration::from_millis(500),
                Duration::from_secs(1),
                crate::ai::DEFAULT_HARD_TIME,
            ],
            hint_time: Duration::from_secs(1),
            hint_cooldown: Duration::from_secs(30),
            challenge_ttl: Duration::from_secs(24 * 3600),
            images: true,
            ai_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            ai_tt_mb: DEFAULT_AI_TT_MB,
            ai_queue_limit: 200,
            ai_games_per_user: 3,
            ai_game_cooldown: Duration::from_secs(10),
            open_challenges_per_user: DEFAULT_OPEN_CHALLENGES_PER_USER,
            challenges_received: DEFAULT_CHALLENGES_RECEIVED,
            challenges_received_window: DEFAULT_CHALLENGES_RECEIVED_WINDOW,
            hint_wait: Duration::from_secs(10),
            analysis_time: Duration::from_millis(crate::ai::analysis::DEFAULT_MS_PER_PLY),
            analysis_depth: None,
            ai_claim_margin: ai::AI_CLAIM_MARGIN,
            commands_per_minute: DEFAULT_COMMANDS_PER_MINUTE,
            costly_cooldown: DEFAULT_COSTLY_COOLDOWN,
            max_plies: DEFAULT_MAX_PLIES,
            heavy_workers: heavy::default_workers(),
            heavy_queue_limit: heavy::DEFAULT_QUEUE_LIMIT,
        }
    }
}

/// The plies a game may last by default: far beyond any game people play to a result (a
/// long game of Tablut is a hundred or two), and a replay or an analysis of that many stays
/// cheap.
pub const DEFAULT_MAX_PLIES: u32 = 1000;

/// Each AI worker's table, in MB: two workers' tables and the rest of the bot stay well
/// within 250 MB.
pub const DEFAULT_AI_TT_MB: usize = 32;

/// Commands a user may use per minute: a burst of 20, then one every 3 s; far more than a
/// person playing needs, and well under Discord's own limits for the bot's answers.
pub const DEFAULT_COMMANDS_PER_MINUTE: u32 = 20;

/// Open challenges one user may have at once: more than a player waits on, few enough that
/// nobody fills a server's channels with them.
pub const DEFAULT_OPEN_CHALLENGES_PER_USER: u32 = 5;

/// Challenges one user may be sent per window, from everyone together, not counting those they
/// accepted: a person is not pinged by challenge after challenge they did not want.
pub const DEFAULT_CHALLENGES_RECEIVED: u32 = 10;
pub const DEFAULT_CHALLENGES_RECEIVED_WINDOW: Duration = Duration::from_secs(3600);

/// The wait between two costly commands of one user.
pub const DEFAULT_COSTLY_COOLDOWN: Duration = Duration::from_secs(30);

impl Config {
    pub fn ai_time(&self, level: Level) -> Duration {
        self.ai_time[level as usize]
    }
}

/// The game service. Cheap to share behind an `Arc`.
pub struct Service {
    /// The database: reads through it, writes through its write lock (see [`Store`]). Shared
    /// with the tasks that renew the AI's claims, which write beside the service.
    store: Store,
    clock: Arc<dyn Clock>,
    config: Config,
    /// The per-user rate limits this process keeps (see [`limits`]).
    pub(crate) limits: limits::Limits,
    delivery: OutboxTimes,
    /// Rung after a commit that wrote notices, so the dispatcher delivers them at once.
    outbox_wake: Arc<tokio::sync::Notify>,
    /// The AI's workers: every search of the service runs there.
    pub(crate) ai: crate::ai::pool::Pool,
    /// The AI's turns and hints under way in this process (see [`ai::Ai`]).
    pub(crate) ai_turns: ai::AiTurns,
    /// The games whose analysis this process is driving now.
    pub(crate) analyses: analysis::Analyses,
    /// This service's id in the AI turns it claims in the database (see
    /// [`ai::Ai::turn`]): unique per process and per service.
    pub(crate) claimer: String,
    /// The sweeps' items whose handling failed, set aside for a while (see [`backoff`]).
    pub(crate) retries: backoff::Backoff,
    /// The gate all heavy work off the runtime goes through (see [`heavy`]).
    pub(crate) gate: heavy::Heavy,
    /// Where this service reads the database's time (see [`clock`]).
    pub(crate) database_clock: clock::DatabaseClock,
}

/// A game read from the store and rebuilt from its moves.
pub(crate) struct Loaded {
    pub row: GameRow,
    pub game: Game,
    pub info: GameInfo,
}

impl Service {
    pub fn new(store: Store, config: Config, clock: Arc<dyn Clock>) -> Service {
        let database_clock = clock::DatabaseClock::new(&clock);
        Service {
            store,
            limits: limits::Limits::new(&config, clock.clone()),
            clock,
            delivery: OutboxTimes::default(),
            outbox_wake: Arc::new(tokio::sync::Notify::new()),
            ai: crate::ai::pool::Pool::new(config.ai_workers, config.ai_tt_mb),
            ai_turns: ai::AiTurns::new(),
            analyses: analysis::Analyses::default(),
            claimer: ai::claimer_id(),
            retries: backoff::Backoff::default(),
            gate: heavy::Heavy::new(config.heavy_workers, config.heavy_queue_limit),
            database_clock,
            config,
        }
    }

    /// The service with these times for its notices (the bot's delivery policy gives them).
    pub fn with_delivery(self, delivery: impl Into<OutboxTimes>) -> Service {
        Service {
            delivery: delivery.into(),
            ..self
        }
    }

    /// Opens the database at `url` (creating and migrating it) and makes a service over it.
    pub async fn open(
        url: &str,
        config: Config,
        clock: Arc<dyn Clock>,
    ) -> Result<Service, store::OpenError> {
        Ok(Service::new(Store::open(url).await?, config, clock))
    }

    /// The database behind the service: for the tests, which read and write beside it.
    #[cfg(any(test, feature = "test-support"))]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The database's backend.
    #[cfg(any(test, feature = "test-support"))]
    pub fn backend(&self) -> crate::store::Backend {
        self.store.backend()
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// This process's time (Unix ms): only for what concerns this process alone, the hint
    /// cooldown sparing its AI pool (and, through their own handle on the clock, the per-user
    /// rate limits it keeps, see [`limits`]). Nothing it gives is stored or compared with
    /// another process's times: every deadline, expiry, day, date and lease is on the
    /// database's clock ([`Service::database_now`]; see [`clock`]).
    pub(crate) fn process_now(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The database's time now (Unix ms): what every deadline, expiry, day, date, lease, hold
    /// and claim is measured against (turn deadlines and reminders, losses on time, challenges'
    /// expiry, draw offers, the heartbeat, the daily puzzle's day, the cooldown between games
    /// against the AI, the outbox's holds and claims, the AI's turns, the clock's looks at
    /// games), so that processes whose own clocks differ agree on what is due and who holds
    /// what.
    pub async fn database_now(&self) -> Result<i64, ServiceError> {
        Ok(self
            .database_clock
            .now(self.store.read(), self.store.backend())
            .await?)
    }

    /// [`Service::database_now`] on a connection (in a transaction under way).
    pub(crate) async fn database_now_on(&self, conn: &mut Connection) -> Result<i64, ServiceError> {
        Ok(self
            .database_clock
            .now(&mut *conn, self.store.backend())
            .await?)
    }

    /// Closes the database, once every connection is back (see [`store::close`]).
    pub async fn close(&self) {
        self.store.close().await;
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

    /// [`Service::load`] with the game played through on a blocking thread, through
    /// [`Service::heavy`]: for the commands that then do heavy work with it (replays, analyses).
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
    /// counted ([`Service::check_costly`]; none without a user): refused with a private line
    /// when the queue is full or the user asked a moment ago. The place is taken first, so a
    /// refusal for a full queue does not start the cooldown.
    pub(crate) fn costly_place(&self, user: Option<UserId>) -> Result<heavy::Place, ServiceError> {
        let place = self.gate.place()?;
        if let Some(user) = user {
            self.check_costly(user)?;
        }
        Ok(place)
    }

    /// [`Service::load`] for a sweep over many games: a game that cannot be rebuilt is logged
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
    /// [`Service::answered`]); the AI's goes out at once. Then draws the board for the
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
        let info = GameInfo {
            ply: row.ply + 1,
            turn: game.turn(),
            outcome: game.outcome(),
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
        let payload = Payload {
            answer,
            ..Payload::with_board(News::Moved(report.clone()), &report.game)
        };
        let hold = match by_user {
            Some(_) => self.delivery.answer_grace,
            None => Duration::ZERO,
        };
        report.notice = self
            .enqueue(&mut tx, report.game.place.channel, "move", &payload, hold)
            .await?;
        self.commit_noticed(tx).await?;
        if by_user.is_some() {
            report.png = self
                .image(*game.position(), Some(recorded), report.game.status_line())
                .await
                .map_err(ServiceError::after(Done::Move))?;
        }
        Ok(report)
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

    /// [`Service::commit_end`] that also takes the open draw offer `offer` (accepted) in the
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
        self.commit_noticed(tx).await?;
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

    /// When the player to move runs out of time: only people have a clock.
    pub(crate) fn deadline(&self, info: &GameInfo, now: i64) -> Option<i64> {
        let per_move = info.time_control.per_move()?;
        match info.to_move() {
            Some(Player::User(_)) => Some(now + per_move.as_millis() as i64),
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
        time_control: TimeControl::from_ms(row.time_per_move_ms),
        turn_deadline: row.turn_deadline,
        board_message_id: row.board_message_id,
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
