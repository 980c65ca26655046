//! The puzzles' part of the service ([`Puzzles`]): the puzzles stored (seeded from
//! `assets/puzzles.json`) and read back, a puzzle as its player sees it and its board, the
//! player's own puzzle handed out, and the server's puzzle leaderboard.

use crate::ai::pool::Pool;
use crate::ai::puzzle::{Kind, Record};
use crate::rating::Rating;
use crate::service::core::Core;
use crate::service::error::{Done, ServiceError};
use crate::service::news::News;
use crate::service::notice::{Answered, Payload, PuzzleBoardRef, ReplyTo};
use crate::service::stored::puzzles::{self as stored, LoadedPuzzle, PuzzleTry};
use crate::service::types::{Caption, GuildId, PuzzlePlayer, PuzzleView, User, UserId};
use crate::store::puzzles as rows;
use crate::tafl::parse_move;

/// The seed puzzles, built into the binary.
pub const SEED: &str = include_str!("../../../assets/puzzles.json");

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

/// The puzzles (`Service::puzzles`): handed out, played move by move, rated; the daily
/// puzzle and its board; puzzles found in finished games.
#[derive(Clone, Copy)]
pub struct Puzzles<'a> {
    pub(super) core: &'a Core,
    /// The AI's workers, where finished games are scanned for puzzles as background work.
    pub(super) pool: &'a Pool,
}

impl<'a> Puzzles<'a> {
    pub(crate) fn new(core: &'a Core, pool: &'a Pool) -> Puzzles<'a> {
        Puzzles { core, pool }
    }
}

impl Puzzles<'_> {
    /// Loads the seed puzzles into the database (those already there are left as they are);
    /// how many were new.
    pub async fn seed(self) -> Result<u32, ServiceError> {
        let records: Vec<Record> = serde_json::from_str(SEED)
            .map_err(|e| ServiceError::Internal(format!("assets/puzzles.json: {e}")))?;
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let mut added = 0;
        for r in &records {
            if r.read().is_err() {
                tracing::warn!(position = %r.position, "a seed puzzle does not read back: skipped");
                continue;
            }
            let rating = initial_rating(r.kind, r.moves);
            let new = stored::insert(&mut tx, r, ("seed", None), rating, now).await?;
            added += u32::from(new);
        }
        tx.commit().await?;
        Ok(added)
    }

    /// The user's current puzzle in this server, or a new one near their puzzle rating (one
    /// they have not tried, while there are any). A new one's try is started in a transaction
    /// that also writes, given the interaction `to`, the notice that shows it there (named in
    /// the view, and returned as written, for the handler to show); the current one is read,
    /// and shown by the caller.
    pub async fn puzzle(
        self,
        guild: GuildId,
        user: &User,
        to: Option<&ReplyTo>,
    ) -> Result<Answered<PuzzleView>, ServiceError> {
        if let Some(a) = self.active_try(guild, user.id).await? {
            let p = self.stored_puzzle(a.puzzle).await?;
            let view = self.view(&p, a.progress, a.rated, a.day).await?;
            return Ok(Answered::with(view, None));
        }
        if rows::count(self.core.store.read()).await? == 0 {
            self.seed().await?;
        }
        let mine = rows::player(self.core.store.read(), guild, user.id)
            .await?
            .map(|p| PuzzlePlayer::from(p).rating)
            .unwrap_or_default();
        let row = rows::next_for(self.core.store.read(), guild, user.id, mine.rating)
            .await?
            .ok_or(ServiceError::NoPuzzles)?;
        let p = stored::puzzle(row)?;
        let mut tx = self.core.store.write().await?;
        let rated = !rows::tried(&mut *tx, guild, user.id, p.id).await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let started = rows::start(&mut *tx, guild, user.id, p.id, rated, None, now).await;
        match started {
            Ok(attempt) => {
                let new_try = PuzzleTry::started(attempt, p.id, rated, None);
                self.start_shown(tx, new_try, &p, to, now).await
            }
            // Another command started one at the same moment: show that one.
            Err(e) if e.is_unique_violation("puzzle_attempts") => {
                drop(tx);
                let a = (self.active_try(guild, user.id).await?)
                    .ok_or(ServiceError::PositionChanged)?;
                let p = self.stored_puzzle(a.puzzle).await?;
                let view = self.view(&p, a.progress, a.rated, a.day).await?;
                Ok(Answered::with(view, None))
            }
            Err(e) => Err(e.into()),
        }
    }

    pub(super) async fn stored_puzzle(self, id: i64) -> Result<LoadedPuzzle, ServiceError> {
        let row = rows::by_id(self.core.store.read(), id)
            .await?
            .ok_or_else(|| ServiceError::Internal(format!("puzzle {id} is gone")))?;
        stored::puzzle(row)
    }

    /// The user's current try in a server, if any (see [`rows::active`]).
    pub(super) async fn active_try(
        self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Option<PuzzleTry>, ServiceError> {
        let row = rows::active(self.core.store.read(), guild, user).await?;
        Ok(row.map(PuzzleTry::from))
    }

    /// The view of a puzzle `progress` plies into its line.
    pub(super) async fn view(
        self,
        p: &LoadedPuzzle,
        progress: u32,
        rated: bool,
        day: Option<i64>,
    ) -> Result<PuzzleView, ServiceError> {
        let (mut view, board) = view_at(self.core, p, progress, rated, day);
        view.png = self.puzzle_image(p, &board).await?;
        Ok(view)
    }

    /// The board of a puzzle a notice carries: its position some plies into its line, and
    /// perhaps a move off the line after them.
    pub(super) async fn puzzle_image(
        self,
        p: &LoadedPuzzle,
        board: &PuzzleBoardRef,
    ) -> Result<Vec<u8>, ServiceError> {
        let mut game = p.game_at(board.plies);
        if let Some(then) = &board.then {
            let bad = |e: String| ServiceError::Internal(format!("puzzle {}: {e}", p.id));
            let mv = parse_move(game.position(), then).map_err(|e| bad(e.to_string()))?;
            game.play(mv).map_err(|e| bad(e.to_string()))?;
        }
        self.core
            .image_captioned(
                *game.position(),
                game.moves().last().copied(),
                board.caption.clone(),
            )
            .await
    }

    /// Commits try `started`, just started at `p` (`tx`), with the notice that shows it to
    /// `to`, then draws its board.
    pub(super) async fn start_shown(
        self,
        mut tx: crate::store::Write<'_>,
        started: PuzzleTry,
        p: &LoadedPuzzle,
        to: Option<&ReplyTo>,
        now: i64,
    ) -> Result<Answered<PuzzleView>, ServiceError> {
        let (mut view, board) = view_at(self.core, p, started.progress, started.rated, started.day);
        let payload = Payload {
            puzzle: Some(board.clone()),
            ..Payload::news(News::PuzzleShown(view.clone()))
        };
        let notice = self
            .core
            .reply_notice(&mut tx, "puzzle_shown", payload, to, now)
            .await?;
        view.notice = notice.as_ref().map(|n| n.id);
        // Landed: the try, at this puzzle.
        let (attempt, puzzle) = (started.id, started.puzzle);
        let landed = || async move {
            let a = rows::attempt(self.core.store.read(), attempt).await?;
            Ok(a.is_some_and(|a| PuzzleTry::from(a).puzzle == puzzle))
        };
        self.core.commit_answered(tx, view.notice, landed).await?;
        view.png =
            (self.puzzle_image(p, &board).await).map_err(ServiceError::after(Done::PuzzleStart))?;
        Ok(Answered::with(view, notice))
    }

    /// The server's best puzzle solvers.
    pub async fn leaderboard(
        self,
        guild: GuildId,
        limit: u32,
    ) -> Result<Vec<PuzzlePlayer>, ServiceError> {
        Ok(rows::leaderboard(self.core.store.read(), guild, limit)
            .await?
            .into_iter()
            .map(PuzzlePlayer::from)
            .collect())
    }

    /// Draws the start of a puzzle a notice carries.
    pub async fn board(self, board: &PuzzleBoardRef) -> Result<Vec<u8>, ServiceError> {
        let p = self.stored_puzzle(board.puzzle).await?;
        self.puzzle_image(&p, board).await
    }
}

/// The view of a puzzle `progress` plies into its line, without its board, and that board.
pub(super) fn view_at(
    core: &Core,
    p: &LoadedPuzzle,
    progress: u32,
    rated: bool,
    day: Option<i64>,
) -> (PuzzleView, PuzzleBoardRef) {
    let game = p.game_at(progress);
    let view = PuzzleView {
        puzzle_id: p.id,
        kind: p.kind,
        moves: p.moves,
        step: progress / 2 + 1,
        side: p.start.turn(),
        rating: p.rating,
        rated,
        reply: (progress > 0)
            .then(|| game.moves().last().map(|m| m.to_string()))
            .flatten(),
        day,
        png: Vec::new(),
        notice: None,
    };
    let board = PuzzleBoardRef {
        puzzle: p.id,
        caption: core.caption(&Caption::Puzzle(&view)),
        plies: progress,
        then: None,
    };
    (view, board)
}
