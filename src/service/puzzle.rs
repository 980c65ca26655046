//! Puzzles: each user's current puzzle in a server (one at a time, kept in the database), its
//! answers judged against the proven solution, the player's and the puzzle's Glicko-2 ratings
//! moved once per first try (as lichess does), the server's puzzle leaderboard, and the daily
//! puzzle posted through the outbox in the transaction that claims the day: every member may
//! answer it (one try each, beside their own puzzle), and the day's results are its leaderboard.
//!
//! The puzzles come from `assets/puzzles.json` (found by `tablut-bot puzzles` in the AI's games
//! against itself and proven by [`crate::ai::puzzle`]), loaded at start-up.

use super::backoff::Work;
use super::context::{parse_rules, rules_json, Context};
use super::news::News;
use super::outbox::{AnswerRef, Buttons, NoticeId, Payload, PuzzleBoardRef};
use super::play;
use super::types::{ChannelId, GameId, GuildId, User, UserId};
use super::{Done, Service, ServiceError};
use crate::ai::pool::Pool;
use crate::ai::puzzle::{scan, Kind, Record, Solver, SCAN_PLIES};
use crate::ai::queue::Class;
use crate::rating::{rate_game, Rating, Score};
use crate::store::puzzles::{self as rows, NewPuzzle, PuzzleRow};
use crate::store::{games, Connection};
use crate::tafl::{parse_move, Game, Move, Position, Side};
use std::time::Duration;

/// The seed puzzles, built into the binary.
pub const SEED: &str = include_str!("../../assets/puzzles.json");

/// A puzzle's rating before anyone has tried it: by how hard it looks (a win in one is easiest).
pub fn initial_rating(kind: Kind, moves: u32) -> Rating {
    let rating = match (kind, moves) {
        (Kind::Win, 1) => 1200.0,
        (Kind::Save, _) => 1400.0,
        _ => 1600.0,
    };
    Rating {
        rating,
        ..Rating::default()
    }
}

/// A puzzle as the player sees it at their turn.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PuzzleView {
    pub puzzle_id: i64,
    pub kind: Kind,
    /// The solver's moves in all.
    pub moves: u32,
    /// Which of them is asked now (1 for the first).
    pub step: u32,
    /// The side the player moves for.
    pub side: Side,
    pub rating: f64,
    /// Whether this try counts for the ratings (the player's first at this puzzle).
    pub rated: bool,
    /// The opponent's reply just played, when this is a later step.
    pub reply: Option<String>,
    /// The day whose daily puzzle this is (days since the Unix epoch); `None` for the
    /// player's own puzzles.
    pub day: Option<i64>,
    /// Never stored with a notice.
    #[serde(skip)]
    pub png: Vec<u8>,
    /// The notice (written with the try it starts) whose edit of the interaction's response
    /// shows it; none when showing it changed nothing (the try under way, shown again) or no
    /// interaction was named. Not stored with the notice.
    #[serde(skip)]
    pub notice: Option<NoticeId>,
}

impl PuzzleView {
    /// "Defenders to move: find the move that wins in 2." and the like.
    pub fn task(&self) -> String {
        let side = match self.side {
            Side::Attackers => "Attackers",
            Side::Defenders => "Defenders",
        };
        match self.kind {
            Kind::Win if self.moves == 1 => format!("{side} to move: find the move that wins."),
            Kind::Win => format!(
                "{side} to move: find the move that wins in {} (move {} of {}).",
                self.moves, self.step, self.moves
            ),
            Kind::Save => format!("{side} to move: find the only move that saves the game."),
        }
    }
}

/// A rated try's effect: the player's and the puzzle's ratings before and after.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PuzzleRatings {
    pub player: (Rating, Rating),
    pub puzzle: (Rating, Rating),
}

/// Which answer an answer is: its try, and where it left the try (for
/// [`Puzzles::answer_shown`]); and, when it was given to an interaction, the notice
/// that shows it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AnswerKey {
    pub attempt: i64,
    pub progress: u32,
    /// The notice (written with the answer) whose edit of the interaction's response shows
    /// it; none when no interaction was named. Not stored with the notice.
    #[serde(skip)]
    pub notice: Option<NoticeId>,
}

/// The interaction a puzzle's answer is given to: its deferred response, in `channel`, shows
/// the answer (edited by the handler, or by the dispatcher if the handler's edit fails);
/// `private` when that response is for the player alone (ephemeral). An answer to the daily
/// puzzle is given only to a private one, and is never posted in the channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyTo {
    pub channel: ChannelId,
    pub answer: AnswerRef,
    pub private: bool,
}

/// An answer as its try keeps it until its reply is shown: the move, and for the try's end the
/// solution's move and the ratings' change.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct KeptAnswer {
    /// The move, `from-to`.
    #[serde(rename = "move")]
    mv: String,
    /// The move as played (its captures, the game's end).
    played: String,
    #[serde(default)]
    solution: Option<String>,
    /// The ratings' change: the player's rating, deviation and volatility before and after,
    /// then the puzzle's, each written as Rust writes an `f64` (the shortest text that reads
    /// back to the same number, which serde_json's reading does not promise).
    #[serde(default)]
    ratings: Option<Vec<String>>,
}

impl KeptAnswer {
    fn json(&self) -> Result<String, ServiceError> {
        serde_json::to_string(self).map_err(|e| ServiceError::Internal(format!("an answer: {e}")))
    }

    fn keep_ratings(r: &PuzzleRatings) -> Vec<String> {
        [r.player.0, r.player.1, r.puzzle.0, r.puzzle.1]
            .iter()
            .flat_map(|r| [r.rating, r.deviation, r.volatility])
            .map(|x| x.to_string())
            .collect()
    }

    fn ratings(&self) -> Result<Option<PuzzleRatings>, ServiceError> {
        let Some(kept) = &self.ratings else {
            return Ok(None);
        };
        let bad = || ServiceError::Internal(format!("a kept answer's ratings: {kept:?}"));
        let x: Vec<f64> = kept
            .iter()
            .map(|x| x.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        if x.len() != 12 {
            return Err(bad());
        }
        let r = |i: usize| Rating {
            rating: x[3 * i],
            deviation: x[3 * i + 1],
            volatility: x[3 * i + 2],
        };
        Ok(Some(PuzzleRatings {
            player: (r(0), r(1)),
            puzzle: (r(2), r(3)),
        }))
    }
}

/// How an answer went. Until [`Puzzles::answer_shown`] is told its reply was sent, the
/// player's try keeps it, and the next `puzzle_move` or [`Puzzles::unshown_answer`]
/// gives it again (the same answer: nothing judged or rated again). Stored (its board left
/// out) as the news of the notice that shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PuzzleAnswer {
    /// Right, and the puzzle goes on: the opponent replied; the next move is asked.
    Continue {
        played: String,
        view: PuzzleView,
        key: AnswerKey,
    },
    /// Right, and the puzzle is solved.
    Solved {
        played: String,
        key: AnswerKey,
        ratings: Option<PuzzleRatings>,
        /// The daily puzzle's day, when it was the daily puzzle.
        day: Option<i64>,
        #[serde(skip)]
        png: Vec<u8>,
    },
    /// Wrong: the solution's move here was `solution`.
    Failed {
        played: String,
        key: AnswerKey,
        solution: String,
        ratings: Option<PuzzleRatings>,
        day: Option<i64>,
        #[serde(skip)]
        png: Vec<u8>,
    },
}

impl PuzzleAnswer {
    /// The daily puzzle's day, when the answer was to the daily puzzle.
    pub fn day(&self) -> Option<i64> {
        match self {
            PuzzleAnswer::Continue { view, .. } => view.day,
            PuzzleAnswer::Solved { day, .. } | PuzzleAnswer::Failed { day, .. } => *day,
        }
    }

    /// Which answer this is.
    pub fn key(&self) -> AnswerKey {
        match self {
            PuzzleAnswer::Continue { key, .. }
            | PuzzleAnswer::Solved { key, .. }
            | PuzzleAnswer::Failed { key, .. } => *key,
        }
    }

    fn key_mut(&mut self) -> &mut AnswerKey {
        match self {
            PuzzleAnswer::Continue { key, .. }
            | PuzzleAnswer::Solved { key, .. }
            | PuzzleAnswer::Failed { key, .. } => key,
        }
    }

    /// The board after the answer (empty when images are off, or in a stored notice).
    pub fn png(&self) -> &[u8] {
        match self {
            PuzzleAnswer::Continue { view, .. } => &view.png,
            PuzzleAnswer::Solved { png, .. } | PuzzleAnswer::Failed { png, .. } => png,
        }
    }

    fn png_mut(&mut self) -> &mut Vec<u8> {
        match self {
            PuzzleAnswer::Continue { view, .. } => &mut view.png,
            PuzzleAnswer::Solved { png, .. } | PuzzleAnswer::Failed { png, .. } => png,
        }
    }
}

/// Records a puzzle answer's notice delivered (`news`, if it is one): the answer is shown, and
/// its try does not give it again.
pub(crate) async fn answer_delivered(
    conn: &mut Connection,
    news: &News,
) -> Result<(), ServiceError> {
    if let News::PuzzleAnswer(answer) = news {
        let key = answer.key();
        rows::answer_shown(conn, key.attempt, key.progress).await?;
    }
    Ok(())
}

/// A member's finished try at the day's puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayResult {
    pub user_id: UserId,
    pub solved: bool,
    /// From the try's start to its end, in ms.
    pub took_ms: i64,
}

impl From<rows::DayResultRow> for DayResult {
    fn from(r: rows::DayResultRow) -> DayResult {
        DayResult {
            user_id: r.user_id,
            solved: r.solved,
            took_ms: r.took_ms,
        }
    }
}

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

/// A server's puzzle leaderboard line: a member's puzzle rating and tries.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzlePlayer {
    pub user_id: UserId,
    pub name: String,
    pub rating: crate::rating::Rating,
    pub solved: u32,
    pub failed: u32,
}

impl From<rows::PuzzlePlayerRow> for PuzzlePlayer {
    fn from(r: rows::PuzzlePlayerRow) -> PuzzlePlayer {
        PuzzlePlayer {
            user_id: r.user_id,
            name: r.name,
            rating: r.rating,
            solved: r.solved,
            failed: r.failed,
        }
    }
}

/// A try's answer not known to have been shown: the try, the answer, its puzzle, and the
/// plies into the puzzle's line before the answer.
struct Kept {
    attempt: rows::AttemptRow,
    answer: KeptAnswer,
    puzzle: Loaded,
    before: u32,
}

/// A stored puzzle read back: its start, its line and what it asks.
struct Loaded {
    row: PuzzleRow,
    start: Position,
    line: Vec<Move>,
    kind: Kind,
}

fn load(row: PuzzleRow) -> Result<Loaded, ServiceError> {
    let bad = |e: String| ServiceError::Internal(format!("puzzle {}: {e}", row.id));
    let kind = Kind::from_name(&row.kind).ok_or_else(|| bad(format!("kind '{}'", row.kind)))?;
    let to_move: Side = row
        .to_move
        .parse()
        .map_err(|e: crate::tafl::side::SideError| bad(e.to_string()))?;
    let record = Record {
        position: row.position.clone(),
        to_move,
        rules: parse_rules(&row.rules)?,
        kind,
        moves: row.moves,
        line: row.line.split_whitespace().map(str::to_string).collect(),
        source: row.source.clone(),
    };
    let (start, line) = record.read().map_err(|e| bad(e.to_string()))?;
    Ok(Loaded {
        row,
        start,
        line,
        kind,
    })
}

impl Loaded {
    /// The game from the puzzle's start with the first `plies` of the line played.
    fn game_at(&self, plies: u32) -> Game {
        let mut game = Game::from_position(self.start);
        for &mv in self.line.iter().take(plies as usize) {
            game.play(mv)
                .expect("a stored line is checked legal when read");
        }
        game
    }
}

/// The failed searches of a game after which it is recorded as searched, with nothing found.
pub const SCAN_GIVE_UP: u32 = 3;

/// Today's number: days since the Unix epoch (UTC).
pub fn day_of(now_ms: i64) -> i64 {
    now_ms.div_euclid(86_400_000)
}

/// The puzzles ([`Service::puzzles`]): handed out, answered move by move, rated; the daily
/// puzzle and its board; puzzles found in finished games.
#[derive(Clone, Copy)]
pub struct Puzzles<'a> {
    cx: &'a Context,
    /// The AI's workers, where finished games are scanned for puzzles as background work.
    pool: &'a Pool,
}

impl Service {
    /// The puzzles.
    pub fn puzzles(&self) -> Puzzles<'_> {
        Puzzles {
            cx: &self.cx,
            pool: &self.ai,
        }
    }
}

impl Puzzles<'_> {
    /// Loads the seed puzzles into the database (those already there are left as they are);
    /// how many were new.
    pub async fn seed(self) -> Result<u32, ServiceError> {
        let records: Vec<Record> = serde_json::from_str(SEED)
            .map_err(|e| ServiceError::Internal(format!("assets/puzzles.json: {e}")))?;
        let mut tx = self.cx.store.write().await?;
        let now = self.cx.database_now_on(&mut tx).await?;
        let mut added = 0;
        for r in &records {
            if r.read().is_err() {
                tracing::warn!(position = %r.position, "a seed puzzle does not read back: skipped");
                continue;
            }
            let new = rows::insert(
                &mut *tx,
                &NewPuzzle {
                    position: &r.position,
                    to_move: r.to_move.name(),
                    rules: &rules_json(&r.rules),
                    kind: r.kind.name(),
                    moves: r.moves,
                    line: &r.line.join(" "),
                    source: "seed",
                    game_id: None,
                    rating: initial_rating(r.kind, r.moves),
                    now,
                },
            )
            .await?;
            added += u32::from(new);
        }
        tx.commit().await?;
        Ok(added)
    }

    /// The user's current puzzle in this server, or a new one near their puzzle rating (one
    /// they have not tried, while there are any). A new one's try is started in a transaction
    /// that also writes, given the interaction `to`, the notice that shows it there (named in
    /// the view); the current one is read, and shown by the caller.
    pub async fn puzzle(
        self,
        guild: GuildId,
        user: &User,
        to: Option<&ReplyTo>,
    ) -> Result<PuzzleView, ServiceError> {
        if let Some(a) = rows::active(self.cx.store.read(), guild, user.id).await? {
            let p = self.stored_puzzle(a.puzzle_id).await?;
            return self.view(&p, a.progress, a.rated, a.day).await;
        }
        if rows::count(self.cx.store.read()).await? == 0 {
            self.seed().await?;
        }
        let mine = rows::player(self.cx.store.read(), guild, user.id)
            .await?
            .map(|p| p.rating)
            .unwrap_or_default();
        let row = rows::next_for(self.cx.store.read(), guild, user.id, mine.rating)
            .await?
            .ok_or(ServiceError::NoPuzzles)?;
        let p = load(row)?;
        let mut tx = self.cx.store.write().await?;
        let rated = !rows::tried(&mut *tx, guild, user.id, p.row.id).await?;
        let now = self.cx.database_now_on(&mut tx).await?;
        let started = rows::start(&mut *tx, guild, user.id, p.row.id, rated, None, now).await;
        match started {
            Ok(_) => self.start_shown(tx, &p, rated, None, to).await,
            // Another command started one at the same moment: show that one.
            Err(e) if e.is_unique_violation("puzzle_attempts") => {
                drop(tx);
                let a = rows::active(self.cx.store.read(), guild, user.id)
                    .await?
                    .ok_or(ServiceError::PositionChanged)?;
                let p = self.stored_puzzle(a.puzzle_id).await?;
                self.view(&p, a.progress, a.rated, a.day).await
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The user's try at the daily puzzle of `day` (by default today's) in this server: started
    /// (rated if it is their first try at that puzzle), or the one under way. Until it is over
    /// it is their current puzzle (answered with [`Puzzles::puzzle_move`]); their own puzzle
    /// waits meanwhile. One try a day: a second is refused, and so is an earlier day's puzzle
    /// not under way. A try started writes the notice that shows it to `to`, as
    /// [`Puzzles::puzzle`] does.
    pub async fn daily_puzzle(
        self,
        guild: GuildId,
        user: &User,
        day: Option<i64>,
        to: Option<&ReplyTo>,
    ) -> Result<PuzzleView, ServiceError> {
        let (day, puzzle_id) = match self.daily_try(guild, user.id, day).await? {
            DailyTry::UnderWay(a) => {
                let p = self.stored_puzzle(a.puzzle_id).await?;
                return self.view(&p, a.progress, a.rated, a.day).await;
            }
            DailyTry::New { day, puzzle_id } => (day, puzzle_id),
        };
        let p = self.stored_puzzle(puzzle_id).await?;
        let mut tx = self.cx.store.write().await?;
        let rated = !rows::tried(&mut *tx, guild, user.id, puzzle_id).await?;
        let now = self.cx.database_now_on(&mut tx).await?;
        let started = rows::start(&mut *tx, guild, user.id, puzzle_id, rated, Some(day), now).await;
        match started {
            Ok(_) => self.start_shown(tx, &p, rated, Some(day), to).await,
            // A second press at the same moment started it: show that one.
            Err(e) if e.is_unique_violation("puzzle_attempts") => {
                drop(tx);
                let a = rows::day_attempt(self.cx.store.read(), guild, user.id, day)
                    .await?
                    .ok_or(ServiceError::PositionChanged)?;
                self.view(&p, a.progress, a.rated, a.day).await
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
        let today = day_of(self.cx.database_now().await?);
        let day = day.unwrap_or(today);
        if let Some(a) = rows::day_attempt(self.cx.store.read(), guild, user, day).await? {
            if a.status != "active" {
                return Err(ServiceError::DailyPuzzleDone {
                    solved: a.status == "solved",
                });
            }
            return Ok(DailyTry::UnderWay(a));
        }
        if day != today {
            return Err(ServiceError::DailyPuzzleOver);
        }
        let (puzzle_id, _) = rows::of_server_day(self.cx.store.read(), guild, day)
            .await?
            .ok_or(ServiceError::NoDailyPuzzle)?;
        Ok(DailyTry::New { day, puzzle_id })
    }

    /// Today's daily puzzle in this server and the finished tries at it; `None` when none was
    /// posted today.
    pub async fn daily_board(self, guild: GuildId) -> Result<Option<DailyBoard>, ServiceError> {
        let day = day_of(self.cx.database_now().await?);
        let Some((puzzle_id, channel)) =
            rows::of_server_day(self.cx.store.read(), guild, day).await?
        else {
            return Ok(None);
        };
        Ok(Some(DailyBoard {
            day,
            puzzle_id,
            channel,
            results: rows::day_results(self.cx.store.read(), guild, day)
                .await?
                .into_iter()
                .map(DayResult::from)
                .collect(),
        }))
    }

    async fn stored_puzzle(self, id: i64) -> Result<Loaded, ServiceError> {
        let row = rows::by_id(self.cx.store.read(), id)
            .await?
            .ok_or_else(|| ServiceError::Internal(format!("puzzle {id} is gone")))?;
        load(row)
    }

    /// The view of a puzzle `progress` plies into its line.
    async fn view(
        self,
        p: &Loaded,
        progress: u32,
        rated: bool,
        day: Option<i64>,
    ) -> Result<PuzzleView, ServiceError> {
        let (mut view, board) = view_at(p, progress, rated, day);
        view.png = self.puzzle_image(p, &board).await?;
        Ok(view)
    }

    /// The board of a puzzle a notice carries: its position some plies into its line, and
    /// perhaps a move off the line after them.
    async fn puzzle_image(
        self,
        p: &Loaded,
        board: &PuzzleBoardRef,
    ) -> Result<Vec<u8>, ServiceError> {
        let mut game = p.game_at(board.plies);
        if let Some(then) = &board.then {
            let bad = |e: String| ServiceError::Internal(format!("puzzle {}: {e}", p.row.id));
            let mv = parse_move(game.position(), then).map_err(|e| bad(e.to_string()))?;
            game.play(mv).map_err(|e| bad(e.to_string()))?;
        }
        self.cx
            .image(
                *game.position(),
                game.moves().last().copied(),
                board.caption.clone(),
            )
            .await
    }

    /// Draws an answer's board into it.
    async fn draw_answer(
        self,
        p: &Loaded,
        mut answer: PuzzleAnswer,
        board: &PuzzleBoardRef,
    ) -> Result<PuzzleAnswer, ServiceError> {
        *answer.png_mut() = self.puzzle_image(p, board).await?;
        Ok(answer)
    }

    /// Writes the notice that shows `answer` to the interaction `to` (none: no notice) in the
    /// transaction that judged it, or that gives it again, and names it in the answer's key. It
    /// is held for the handler's edit of the deferred response; the dispatcher sends the same
    /// edit if the handler does not record it, and past the answer's life posts it in the
    /// channel, unless it is private (then it is given up, and the try gives it again when
    /// asked).
    async fn answer_notice(
        self,
        conn: &mut Connection,
        answer: &mut PuzzleAnswer,
        board: &PuzzleBoardRef,
        to: Option<&ReplyTo>,
    ) -> Result<(), ServiceError> {
        let payload = Payload {
            puzzle: Some(board.clone()),
            ..Payload::news(News::PuzzleAnswer(answer.clone()))
        };
        answer.key_mut().notice = self
            .reply_notice(conn, "puzzle_answer", payload, to)
            .await?;
        Ok(())
    }

    /// Writes `payload`, a notice of `kind`, for the interaction `to` (none: no notice): held
    /// for the handler's edit of its deferred response, sent again by the dispatcher if the
    /// handler does not record it; past the token's life posted in the channel, or given up if
    /// the response is private.
    async fn reply_notice(
        self,
        conn: &mut Connection,
        kind: &str,
        payload: Payload,
        to: Option<&ReplyTo>,
    ) -> Result<Option<NoticeId>, ServiceError> {
        let Some(to) = to else {
            return Ok(None);
        };
        let payload = Payload {
            answer: Some(to.answer.clone()),
            private: to.private,
            ..payload
        };
        let hold = self.cx.delivery.answer_grace;
        let id = self
            .cx
            .enqueue(conn, to.channel, kind, &payload, hold)
            .await?;
        Ok(Some(id))
    }

    /// Commits a try just started at `p` (`tx`) with the notice that shows it to `to`, then
    /// draws its board.
    async fn start_shown(
        self,
        mut tx: crate::store::Write<'_>,
        p: &Loaded,
        rated: bool,
        day: Option<i64>,
        to: Option<&ReplyTo>,
    ) -> Result<PuzzleView, ServiceError> {
        let (mut view, board) = view_at(p, 0, rated, day);
        let payload = Payload {
            puzzle: Some(board.clone()),
            ..Payload::news(News::PuzzleShown(view.clone()))
        };
        view.notice = self
            .reply_notice(&mut tx, "puzzle_shown", payload, to)
            .await?;
        self.cx.commit_noticed(tx).await?;
        view.png =
            (self.puzzle_image(p, &board).await).map_err(ServiceError::after(Done::PuzzleStart))?;
        Ok(view)
    }
}

/// A player's try at a day's puzzle (see `Puzzles::daily_try`).
enum DailyTry {
    UnderWay(rows::AttemptRow),
    New { day: i64, puzzle_id: i64 },
}

/// What a move typed as a puzzle's answer answers (see `Puzzles::answered`).
enum Answered {
    Kept(Box<Kept>),
    Move(rows::AttemptRow, Box<Loaded>, Move, String),
}

/// A daily puzzle's answer goes to a private response only: asked from a public one (the
/// puzzle changed between the deferral and the answer), it is refused, and nothing changes.
fn check_private(day: Option<i64>, to: Option<&ReplyTo>) -> Result<(), ServiceError> {
    match (day, to) {
        (Some(_), Some(to)) if !to.private => Err(ServiceError::PositionChanged),
        _ => Ok(()),
    }
}

/// Whether `kept` is the answer to give: for `play` (no move typed), always; for a move, when
/// no puzzle is under way or the kept answer's move is typed again.
fn gives_kept(kept: &Kept, active: Option<&rows::AttemptRow>, typed: Option<&str>) -> bool {
    match typed {
        None => true,
        Some(text) => {
            active.is_none()
                || parse_move(kept.puzzle.game_at(kept.before).position(), text)
                    .is_ok_and(|mv| mv.to_string() == kept.answer.mv)
        }
    }
}

/// The view of a puzzle `progress` plies into its line, without its board, and that board.
fn view_at(
    p: &Loaded,
    progress: u32,
    rated: bool,
    day: Option<i64>,
) -> (PuzzleView, PuzzleBoardRef) {
    let game = p.game_at(progress);
    let view = PuzzleView {
        puzzle_id: p.row.id,
        kind: p.kind,
        moves: p.row.moves,
        step: progress / 2 + 1,
        side: p.start.turn(),
        rating: p.row.rating.rating,
        rated,
        reply: (progress > 0)
            .then(|| game.moves().last().map(|m| m.to_string()))
            .flatten(),
        day,
        png: Vec::new(),
        notice: None,
    };
    let board = PuzzleBoardRef {
        puzzle: p.row.id,
        caption: view.task(),
        plies: progress,
        then: None,
    };
    (view, board)
}

/// The answer that ended a try `progress` plies into its line, without its board, and that
/// board.
fn ended_at(
    p: &Loaded,
    progress: u32,
    kept: KeptAnswer,
    day: Option<i64>,
    key: AnswerKey,
) -> Result<(PuzzleAnswer, PuzzleBoardRef), ServiceError> {
    let caption = match &kept.solution {
        None => "Solved!".to_string(),
        Some(solution) => format!("The answer was {solution}."),
    };
    let board = PuzzleBoardRef {
        puzzle: p.row.id,
        caption,
        plies: progress,
        then: Some(kept.mv.clone()),
    };
    let ratings = kept.ratings()?;
    let answer = match kept.solution {
        None => PuzzleAnswer::Solved {
            played: kept.played,
            key,
            ratings,
            day,
            png: Vec::new(),
        },
        Some(solution) => PuzzleAnswer::Failed {
            played: kept.played,
            key,
            solution,
            ratings,
            day,
            png: Vec::new(),
        },
    };
    Ok((answer, board))
}

/// A kept answer as it was given, without its board, and that board.
fn kept_at(kept: &Kept) -> Result<(PuzzleAnswer, PuzzleBoardRef), ServiceError> {
    let a = &kept.attempt;
    let key = AnswerKey {
        attempt: a.id,
        progress: a.progress,
        notice: None,
    };
    if a.status == "active" {
        let (view, board) = view_at(&kept.puzzle, a.progress, a.rated, a.day);
        let played = kept.answer.played.clone();
        return Ok((PuzzleAnswer::Continue { played, view, key }, board));
    }
    ended_at(&kept.puzzle, kept.before, kept.answer.clone(), a.day, key)
}

impl Puzzles<'_> {
    /// The moves the user could answer their puzzle with that match what they typed (for
    /// autocomplete): up to `limit`. Empty without a current puzzle.
    pub async fn suggest_moves(
        self,
        guild: GuildId,
        user: UserId,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<String>, ServiceError> {
        let Some(a) = rows::active(self.cx.store.read(), guild, user).await? else {
            return Ok(Vec::new());
        };
        let p = self.stored_puzzle(a.puzzle_id).await?;
        let game = p.game_at(a.progress);
        Ok(play::matching_moves(game.position(), typed, limit))
    }

    /// Judges the user's answer to their current puzzle. A right move plays the opponent's
    /// reply and asks for the next, or solves the puzzle; a wrong one fails it. A first try's
    /// end rates the player and the puzzle, in the transaction that ends it, which also keeps
    /// the answer with the try and, given the interaction `to`, writes the notice that shows
    /// the answer there (named in its key). While an answer is not known to have been shown
    /// (its reply failed), it is the answer given, whatever was typed: nothing is judged or
    /// rated twice. A move that cannot be read or is illegal changes nothing; so does an answer
    /// to the daily puzzle asked from a public response.
    pub async fn puzzle_move(
        self,
        guild: GuildId,
        user: &User,
        text: &str,
        to: Option<&ReplyTo>,
    ) -> Result<PuzzleAnswer, ServiceError> {
        let (a, p, mv, played) = match self.answered(guild, user.id, text).await? {
            Answered::Kept(kept) => return self.give_kept(*kept, to).await,
            Answered::Move(a, p, mv, played) => (a, p, mv, played),
        };
        check_private(a.day, to)?;
        let expected = p.line[a.progress as usize];
        let right = mv == expected;
        let last_step = a.progress as usize + 1 >= p.line.len();
        let mut kept = KeptAnswer {
            mv: mv.to_string(),
            played,
            solution: None,
            ratings: None,
        };
        let mut tx = self.cx.store.write().await?;
        let now = self.cx.database_now_on(&mut tx).await?;
        if right && !last_step {
            let next = a.progress + 2;
            if !rows::advance(&mut *tx, a.id, a.progress, next, &kept.json()?, now).await? {
                return Err(ServiceError::PositionChanged);
            }
            let (view, board) = view_at(&p, next, a.rated, a.day);
            let key = AnswerKey {
                attempt: a.id,
                progress: next,
                notice: None,
            };
            let mut answer = PuzzleAnswer::Continue {
                played: kept.played,
                view,
                key,
            };
            self.answer_notice(&mut tx, &mut answer, &board, to).await?;
            self.cx.commit_noticed(tx).await?;
            return self
                .draw_answer(&p, answer, &board)
                .await
                .map_err(ServiceError::after(Done::PuzzleAnswer));
        }
        if !rows::finish(&mut *tx, a.id, a.progress, right, now).await? {
            return Err(ServiceError::PositionChanged);
        }
        let ratings = if a.rated {
            // Both ratings are read in this transaction, after its first write (the try's end)
            // and under locks on PostgreSQL, so two tries ending at once (the daily puzzle's)
            // each move the ratings from where the other left them.
            let key = format!("puzzle-player:{guild}:{}", user.id);
            crate::store::dialect::lock_in_transaction(&mut tx, self.cx.store.backend(), &key)
                .await?;
            let before = rows::player(&mut *tx, guild, user.id)
                .await?
                .map(|r| r.rating)
                .unwrap_or_default();
            let puzzle_before = rows::rating_for_update(&mut tx, self.cx.store.backend(), p.row.id)
                .await?
                .ok_or_else(|| ServiceError::Internal(format!("puzzle {} is gone", p.row.id)))?;
            let score = if right { Score::Win } else { Score::Loss };
            let (after, puzzle_after) = rate_game(before, puzzle_before, score);
            rows::put_player(&mut *tx, guild, user.id, &user.name, after, right, now).await?;
            rows::put_rating(&mut *tx, p.row.id, puzzle_after, right).await?;
            Some(PuzzleRatings {
                player: (before, after),
                puzzle: (puzzle_before, puzzle_after),
            })
        } else {
            None
        };
        kept.solution = (!right).then(|| expected.to_string());
        kept.ratings = ratings.as_ref().map(KeptAnswer::keep_ratings);
        rows::keep_answer(&mut *tx, a.id, &kept.json()?).await?;
        let key = AnswerKey {
            attempt: a.id,
            progress: a.progress + 1,
            notice: None,
        };
        let (mut answer, board) = ended_at(&p, a.progress, kept, a.day, key)?;
        self.answer_notice(&mut tx, &mut answer, &board, to).await?;
        self.cx.commit_noticed(tx).await?;
        self.draw_answer(&p, answer, &board)
            .await
            .map_err(ServiceError::after(Done::PuzzleAnswer))
    }

    /// Checks, reading only, that [`Puzzles::puzzle_move`] would take `text` from `user` now:
    /// a puzzle under way and a move that can be read and played in it (or the answer not
    /// shown, given again), so that the bot answers a refusal before it acknowledges the
    /// command.
    pub async fn check_puzzle_move(
        self,
        guild: GuildId,
        user: UserId,
        text: &str,
    ) -> Result<(), ServiceError> {
        self.answered(guild, user, text).await.map(drop)
    }

    /// What `user`'s move `text` answers: the kept answer, given again (without a puzzle
    /// under way, or when that answer is typed again, the player asks for the answer they did
    /// not see); or their try under way, its puzzle, and the move read and played on it.
    async fn answered(
        self,
        guild: GuildId,
        user: UserId,
        text: &str,
    ) -> Result<Answered, ServiceError> {
        let active = rows::active(self.cx.store.read(), guild, user).await?;
        if let Some(kept) = self.unshown(guild, user).await? {
            if gives_kept(&kept, active.as_ref(), Some(text)) {
                return Ok(Answered::Kept(Box::new(kept)));
            }
        }
        let a = active.ok_or(ServiceError::NoPuzzle)?;
        let p = self.stored_puzzle(a.puzzle_id).await?;
        let mut game = p.game_at(a.progress);
        let mv = parse_move(game.position(), text).map_err(ServiceError::IllegalMove)?;
        let played = game
            .play(mv)
            .map_err(|e| ServiceError::IllegalMove(e.into()))?
            .to_string();
        Ok(Answered::Move(a, Box::new(p), mv, played))
    }

    /// The user's latest answer in this server whose reply is not known to have been shown
    /// (it failed, or the bot stopped before it was sent), as it was given, and given again to
    /// the interaction `to` if named (a notice written for it, as for a new answer); `None` if
    /// every answer was shown.
    pub async fn unshown_answer(
        self,
        guild: GuildId,
        user: UserId,
        to: Option<&ReplyTo>,
    ) -> Result<Option<PuzzleAnswer>, ServiceError> {
        match self.unshown(guild, user).await? {
            Some(kept) => Ok(Some(self.give_kept(kept, to).await?)),
            None => Ok(None),
        }
    }

    /// Whether the answer [`Puzzles::puzzle_move`] would give for `typed` (or
    /// [`Puzzles::unshown_answer`], or the puzzle [`Puzzles::puzzle`] would show, for
    /// none) is the daily puzzle's, for the player alone: read before the interaction is
    /// acknowledged, so that it is acknowledged privately.
    pub async fn answer_private(
        self,
        guild: GuildId,
        user: UserId,
        typed: Option<&str>,
    ) -> Result<bool, ServiceError> {
        let active = rows::active(self.cx.store.read(), guild, user).await?;
        if let Some(kept) = self.unshown(guild, user).await? {
            if gives_kept(&kept, active.as_ref(), typed) {
                return Ok(kept.attempt.day.is_some());
            }
        }
        Ok(active.is_some_and(|a| a.day.is_some()))
    }

    async fn unshown(self, guild: GuildId, user: UserId) -> Result<Option<Kept>, ServiceError> {
        let Some(u) = rows::unshown(self.cx.store.read(), guild, user).await? else {
            return Ok(None);
        };
        let a = u.attempt;
        let answer: KeptAnswer = serde_json::from_str(&u.answer).map_err(|e| {
            ServiceError::Internal(format!("the answer kept with try {}: {e}", a.id))
        })?;
        let puzzle = self.stored_puzzle(a.puzzle_id).await?;
        // An answer that goes on moved the try two plies on (the reply), one that ends it one.
        let plies = if a.status == "active" { 2 } else { 1 };
        let before = a.progress.checked_sub(plies).ok_or_else(|| {
            ServiceError::Internal(format!("try {} kept an answer before its first move", a.id))
        })?;
        Ok(Some(Kept {
            attempt: a,
            answer,
            puzzle,
            before,
        }))
    }

    /// A kept answer given again as it was, to the interaction `to` if named (its notice
    /// written).
    async fn give_kept(
        self,
        kept: Kept,
        to: Option<&ReplyTo>,
    ) -> Result<PuzzleAnswer, ServiceError> {
        check_private(kept.attempt.day, to)?;
        let (mut answer, board) = kept_at(&kept)?;
        if to.is_some() {
            let mut tx = self.cx.store.write().await?;
            self.answer_notice(&mut tx, &mut answer, &board, to).await?;
            self.cx.commit_noticed(tx).await?;
        }
        self.draw_answer(&kept.puzzle, answer, &board)
            .await
            .map_err(ServiceError::after(Done::PuzzleAnswer))
    }

    /// Records that an answer's reply was sent: it is not given again.
    pub async fn answer_shown(self, key: AnswerKey) -> Result<(), ServiceError> {
        let mut writing = self.cx.store.lock().await?;
        rows::answer_shown(writing.ex(), key.attempt, key.progress).await?;
        Ok(())
    }

    /// The server's best puzzle solvers.
    pub async fn leaderboard(
        self,
        guild: GuildId,
        limit: u32,
    ) -> Result<Vec<PuzzlePlayer>, ServiceError> {
        Ok(rows::leaderboard(self.cx.store.read(), guild, limit)
            .await?
            .into_iter()
            .map(PuzzlePlayer::from)
            .collect())
    }

    /// A user's puzzle rating in a server, if they have one.
    pub async fn puzzle_player(
        self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Option<PuzzlePlayer>, ServiceError> {
        Ok(rows::player(self.cx.store.read(), guild, user)
            .await?
            .map(PuzzlePlayer::from))
    }

    /// Names the server's daily puzzle channel (`None`: stops the daily puzzle), with, given
    /// the interaction `to`, the notice that says so there (in the same transaction): whether
    /// there was one to stop, and that notice.
    pub async fn set_daily_channel(
        self,
        guild: GuildId,
        channel: Option<ChannelId>,
        by: UserId,
        to: Option<&ReplyTo>,
    ) -> Result<(bool, Option<NoticeId>), ServiceError> {
        let mut tx = self.cx.store.write().await?;
        let now = self.cx.database_now_on(&mut tx).await?;
        let had = match channel {
            Some(c) => rows::set_channel(&mut *tx, guild, c, by, now)
                .await
                .map(|_| true),
            None => rows::clear_channel(&mut *tx, guild).await,
        }?;
        let news = News::DailyPuzzleChannel { channel, had };
        let notice = (self.reply_notice(&mut tx, "daily_channel", Payload::news(news), to)).await?;
        self.cx.commit_noticed(tx).await?;
        Ok((had, notice))
    }

    /// Posts today's puzzle in every server's daily channel that has not had it: each post is
    /// written to the outbox in the transaction that claims the day, so it goes out once. The
    /// servers posted to.
    pub async fn post_daily(self) -> Result<Vec<GuildId>, ServiceError> {
        // The day on the database's clock: processes whose clocks differ around midnight
        // agree on which day's puzzle is due.
        let now = self.cx.database_now().await?;
        let day = day_of(now);
        let due = rows::daily_due(self.cx.store.read(), day).await?;
        if due.is_empty() {
            return Ok(Vec::new());
        }
        let mut count = rows::count(self.cx.store.read()).await?;
        if count == 0 {
            self.seed().await?;
            count = rows::count(self.cx.store.read()).await?;
        }
        let Some(row) = rows::of_day(self.cx.store.read(), day, count).await? else {
            return Ok(Vec::new());
        };
        let p = load(row)?;
        let view = PuzzleView {
            puzzle_id: p.row.id,
            kind: p.kind,
            moves: p.row.moves,
            step: 1,
            side: p.start.turn(),
            rating: p.row.rating.rating,
            rated: false,
            reply: None,
            day: Some(day),
            png: Vec::new(),
            notice: None,
        };
        let mut posted = Vec::new();
        for (guild, channel) in due {
            let mut tx = self.cx.store.write().await?;
            if !rows::claim_day(&mut *tx, guild, channel, day).await? {
                continue;
            }
            // The puzzle its members answer today is the one the post shows.
            rows::record_day(&mut *tx, guild, day, p.row.id, channel, now).await?;
            let payload = Payload {
                puzzle: Some(PuzzleBoardRef {
                    puzzle: p.row.id,
                    caption: view.task(),
                    plies: 0,
                    then: None,
                }),
                buttons: Some(Buttons::DailyPuzzle(day)),
                ..Payload::news(News::DailyPuzzle(view.clone()))
            };
            self.cx
                .enqueue(&mut tx, channel, "daily_puzzle", &payload, Duration::ZERO)
                .await?;
            self.cx.commit_noticed(tx).await?;
            posted.push(guild);
        }
        Ok(posted)
    }

    /// Draws the start of a puzzle a notice carries.
    pub async fn board(self, board: &PuzzleBoardRef) -> Result<Vec<u8>, ServiceError> {
        let p = self.stored_puzzle(board.puzzle).await?;
        self.puzzle_image(&p, board).await
    }

    /// Searches up to `limit` finished games not searched before for puzzles, on the AI
    /// pool's background class (served only while no move or hint waits), and stores what it
    /// finds (source `game`, rated as new puzzles), each game once. A game whose search fails
    /// is logged and set aside for a while (the next games are searched meanwhile); after
    /// [`SCAN_GIVE_UP`] failures it is recorded as searched, with nothing found, and not tried
    /// again. How many puzzles were new.
    pub async fn find_in_games(self, limit: u32) -> Result<u32, ServiceError> {
        let now = self.cx.database_now().await?;
        let aside = self.cx.retries.waiting(Work::PuzzleScan, now) as u32;
        let ids = rows::unscanned_games(self.cx.store.read(), limit.saturating_add(aside)).await?;
        let mut added = 0;
        let ready = ids
            .into_iter()
            .filter(|&id| self.cx.retries.ready(Work::PuzzleScan, id, now))
            .take(limit as usize);
        for id in ready {
            match self.scan_game(id).await {
                Ok(n) => {
                    self.cx.retries.succeeded(Work::PuzzleScan, id);
                    added += n;
                }
                Err(e) => {
                    let (failures, next) = self.cx.retries.failed(Work::PuzzleScan, id, now);
                    if failures < SCAN_GIVE_UP {
                        tracing::warn!(game = id, error = ?e, failures, retry_in_s = (next - now) / 1000, "the puzzle search of a game failed: set aside");
                        continue;
                    }
                    tracing::error!(game = id, error = ?e, failures, "the puzzle search of a game failed again: given up");
                    let scanned = match self.cx.store.lock().await {
                        Ok(mut writing) => rows::scanned(writing.ex(), id, 0, now).await,
                        Err(e) => Err(e),
                    };
                    match scanned {
                        Ok(_) => self.cx.retries.succeeded(Work::PuzzleScan, id),
                        Err(e) => {
                            tracing::error!(game = id, error = ?e, "cannot record a game's search as given up: set aside")
                        }
                    }
                }
            }
        }
        Ok(added)
    }

    /// Searches one finished game for puzzles and stores them; how many were new.
    async fn scan_game(self, id: GameId) -> Result<u32, ServiceError> {
        let Some(row) = games::by_id(self.cx.store.read(), id).await? else {
            return Ok(0);
        };
        let found = match self.cx.load_or_skip(row).await {
            // Puzzles are Tablut's: games of the other variants are passed over (and not
            // looked at again).
            Some(loaded) if !loaded.info.variant().is_tablut() => Vec::new(),
            Some(loaded) => {
                let game = loaded.game;
                let (tx, rx) = tokio::sync::oneshot::channel();
                self.pool.submit_task(0, Class::Background, move || {
                    let mut solver = Solver::new();
                    let _ = tx.send(scan(&mut solver, &game, SCAN_PLIES));
                });
                rx.await.map_err(|_| {
                    ServiceError::Internal(format!("game {id}: the puzzle search failed"))
                })?
            }
            // A game that cannot be rebuilt is logged, and not tried again.
            None => Vec::new(),
        };
        let mut added = 0;
        let mut tx = self.cx.store.write().await?;
        let now = self.cx.database_now_on(&mut tx).await?;
        if !rows::scanned(&mut *tx, id, found.len() as u32, now).await? {
            return Ok(0);
        }
        for (start, f) in &found {
            let r = Record::new(start, f, "game");
            let new = rows::insert(
                &mut *tx,
                &NewPuzzle {
                    position: &r.position,
                    to_move: r.to_move.name(),
                    rules: &rules_json(&r.rules),
                    kind: r.kind.name(),
                    moves: r.moves,
                    line: &r.line.join(" "),
                    source: "game",
                    game_id: Some(id),
                    rating: initial_rating(r.kind, r.moves),
                    now,
                },
            )
            .await?;
            added += u32::from(new);
        }
        tx.commit().await?;
        Ok(added)
    }
}
