//! A puzzle's moves judged: a move judged against the proven solution, the opponent's reply
//! played or the try ended, the player's and the puzzle's Glicko-2 ratings moved once per first
//! try (as lichess does), and the verdict kept with its try until it is known to have been shown.

use super::puzzles::{view_at, Puzzles};
use crate::rating::{rate_game, Score};
use crate::service::core::Core;
use crate::service::error::{Done, ServiceError};
use crate::service::news::News;
use crate::service::notice::{Answered, Notice, Payload, PuzzleBoardRef, ReplyTo};
use crate::service::play;
use crate::service::stored::puzzles::{self as stored, KeptVerdict, LoadedPuzzle, PuzzleTry};
use crate::service::types::{
    Caption, GuildId, PuzzlePlayer, PuzzleRatings, PuzzleVerdict, User, UserId, VerdictKey,
};
use crate::store::puzzles as rows;
use crate::store::Connection;
use crate::tafl::{parse_move, Move};

/// A try's verdict not known to have been shown: the try, the verdict, its puzzle, and the
/// plies into the puzzle's line before the move it judged.
struct Kept {
    attempt: PuzzleTry,
    verdict: KeptVerdict,
    puzzle: LoadedPuzzle,
    before: u32,
}

/// What a move typed in a puzzle is for (see `Puzzles::to_judge`): a kept verdict given again,
/// or a move to judge.
enum ToJudge {
    Kept(Box<Kept>),
    Move(PuzzleTry, Box<LoadedPuzzle>, Move, String),
}

/// A daily puzzle's verdict goes to a private response only: asked from a public one (the
/// puzzle changed between the deferral and the move), it is refused, and nothing changes.
fn check_private(day: Option<i64>, to: Option<&ReplyTo>) -> Result<(), ServiceError> {
    match (day, to) {
        (Some(_), Some(to)) if !to.answer.is_private() => Err(ServiceError::PositionChanged),
        _ => Ok(()),
    }
}

/// Whether `kept` is the verdict to give: for `play` (no move typed), always; for a move, when
/// no puzzle is under way or the kept verdict's move is typed again.
fn gives_kept(kept: &Kept, active: Option<&PuzzleTry>, typed: Option<&str>) -> bool {
    match typed {
        None => true,
        Some(text) => {
            active.is_none()
                || parse_move(kept.puzzle.game_at(kept.before).position(), text)
                    .is_ok_and(|mv| mv.to_string() == kept.verdict.mv)
        }
    }
}

/// The verdict that ended a try `progress` plies into its line, without its board, and that
/// board.
fn ended_at(
    core: &Core,
    p: &LoadedPuzzle,
    progress: u32,
    kept: KeptVerdict,
    day: Option<i64>,
    key: VerdictKey,
) -> Result<(PuzzleVerdict, PuzzleBoardRef), ServiceError> {
    let caption = core.caption(&match &kept.solution {
        None => Caption::PuzzleSolved,
        Some(solution) => Caption::PuzzleFailed { solution },
    });
    let board = PuzzleBoardRef {
        puzzle: p.id,
        caption,
        plies: progress,
        then: Some(kept.mv.clone()),
    };
    let ratings = kept.ratings()?;
    let verdict = match kept.solution {
        None => PuzzleVerdict::Solved {
            played: kept.played,
            key,
            ratings,
            day,
            png: Vec::new(),
        },
        Some(solution) => PuzzleVerdict::Failed {
            played: kept.played,
            key,
            solution,
            ratings,
            day,
            png: Vec::new(),
        },
    };
    Ok((verdict, board))
}

/// A kept verdict as it was given, without its board, and that board.
fn kept_at(core: &Core, kept: &Kept) -> Result<(PuzzleVerdict, PuzzleBoardRef), ServiceError> {
    let a = &kept.attempt;
    let key = VerdictKey {
        attempt: a.id,
        progress: a.progress,
        notice: None,
    };
    if a.active() {
        let (view, board) = view_at(core, &kept.puzzle, a.progress, a.rated, a.day);
        let played = kept.verdict.played.clone();
        return Ok((PuzzleVerdict::Continue { played, view, key }, board));
    }
    ended_at(
        core,
        &kept.puzzle,
        kept.before,
        kept.verdict.clone(),
        a.day,
        key,
    )
}

impl Puzzles<'_> {
    /// Draws a verdict's board into it.
    async fn draw_verdict(
        self,
        p: &LoadedPuzzle,
        mut verdict: PuzzleVerdict,
        board: &PuzzleBoardRef,
    ) -> Result<PuzzleVerdict, ServiceError> {
        *verdict.png_mut() = self.puzzle_image(p, board).await?;
        Ok(verdict)
    }

    /// Writes the notice that shows `verdict` to the interaction `to` (none: no notice) in the
    /// transaction that judged it (or that gives it again), written at `now`, the database's
    /// time that transaction read, names it in the verdict's key, and returns it as written. It
    /// is held for the handler's edit of the deferred response; the dispatcher sends the same
    /// edit if the handler does not record it, and past the answer's life posts it in the
    /// channel, unless it is private (then it is given up, and the try gives it again when
    /// asked).
    async fn verdict_notice(
        self,
        conn: &mut Connection,
        verdict: &mut PuzzleVerdict,
        board: &PuzzleBoardRef,
        to: Option<&ReplyTo>,
        now: i64,
    ) -> Result<Option<Notice>, ServiceError> {
        let payload = Payload {
            puzzle: Some(board.clone()),
            ..Payload::news(News::PuzzleVerdict(verdict.clone()))
        };
        let notice = self
            .core
            .reply_notice(conn, "puzzle_answer", payload, to, now)
            .await?;
        verdict.key_mut().notice = notice.as_ref().map(|n| n.id);
        Ok(notice)
    }

    /// The moves the user could play in their puzzle that match what they typed (for
    /// autocomplete): up to `limit`. Empty without a current puzzle.
    pub async fn suggest_moves(
        self,
        guild: GuildId,
        user: UserId,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<String>, ServiceError> {
        let Some(a) = self.active_try(guild, user).await? else {
            return Ok(Vec::new());
        };
        let p = self.stored_puzzle(a.puzzle).await?;
        let game = p.game_at(a.progress);
        Ok(play::matching_moves(game.position(), typed, limit))
    }

    /// Judges the user's move in their current puzzle. A right move plays the opponent's
    /// reply and asks for the next, or solves the puzzle; a wrong one fails it. A first try's
    /// end rates the player and the puzzle, in the transaction that ends it, which also keeps
    /// the verdict with the try and, given the interaction `to`, writes the notice that shows
    /// the verdict there (named in its key, and returned as written, for the handler to show).
    /// While a verdict is not known to have been shown (its response failed), it is the verdict
    /// given, whatever was typed: nothing is judged or rated twice. A move that cannot be read
    /// or is illegal changes nothing; so does a move in the daily puzzle asked from a public
    /// response.
    pub async fn puzzle_move(
        self,
        guild: GuildId,
        user: &User,
        text: &str,
        to: Option<&ReplyTo>,
    ) -> Result<Answered<PuzzleVerdict>, ServiceError> {
        let (a, p, mv, played) = match self.to_judge(guild, user.id, text).await? {
            ToJudge::Kept(kept) => return self.give_kept(*kept, to).await,
            ToJudge::Move(a, p, mv, played) => (a, p, mv, played),
        };
        check_private(a.day, to)?;
        let expected = p.line[a.progress as usize];
        let right = mv == expected;
        let last_step = a.progress as usize + 1 >= p.line.len();
        let solution = (!right).then(|| expected.to_string());
        let kept = KeptVerdict::new(mv.to_string(), played, solution);
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let (mut verdict, board) = if right && !last_step {
            self.go_on(&mut tx, &a, &p, kept, now).await?
        } else {
            self.end_try(&mut tx, (guild, user), &a, &p, kept, now)
                .await?
        };
        let notice = (self.verdict_notice(&mut tx, &mut verdict, &board, to, now)).await?;
        // Landed: the try where this verdict left it (moved on, or ended).
        let (id, key) = (a.id, verdict.key());
        let ended = !matches!(verdict, PuzzleVerdict::Continue { .. });
        let landed = || async move {
            let now = rows::attempt(self.core.store.read(), id).await?;
            Ok(now
                .map(PuzzleTry::from)
                .is_some_and(|now| now.progress == key.progress && (!ended || !now.active())))
        };
        self.core
            .commit_answered(tx, verdict.key().notice, landed)
            .await?;
        let verdict = (self.draw_verdict(&p, verdict, &board).await)
            .map_err(ServiceError::after(Done::PuzzleMove))?;
        Ok(Answered::with(verdict, notice))
    }

    /// A right move that is not the puzzle's last: the try `a` moves on past the opponent's
    /// reply, keeping the verdict; the verdict, and the board it shows.
    async fn go_on(
        self,
        conn: &mut Connection,
        a: &PuzzleTry,
        p: &LoadedPuzzle,
        kept: KeptVerdict,
        now: i64,
    ) -> Result<(PuzzleVerdict, PuzzleBoardRef), ServiceError> {
        let next = a.progress + 2;
        if !rows::advance(&mut *conn, a.id, a.progress, next, &kept.json()?, now).await? {
            return Err(ServiceError::PositionChanged);
        }
        let (view, board) = view_at(self.core, p, next, a.rated, a.day);
        let key = VerdictKey {
            attempt: a.id,
            progress: next,
            notice: None,
        };
        let verdict = PuzzleVerdict::Continue {
            played: kept.played,
            view,
            key,
        };
        Ok((verdict, board))
    }

    /// The verdict that ends the try `a` (solved, unless `kept` names the solution's move):
    /// the try finished, a first try rated ([`Puzzles::rate_try`]), the verdict kept with the
    /// try; the verdict, and the board it shows.
    async fn end_try(
        self,
        conn: &mut Connection,
        (guild, user): (GuildId, &User),
        a: &PuzzleTry,
        p: &LoadedPuzzle,
        mut kept: KeptVerdict,
        now: i64,
    ) -> Result<(PuzzleVerdict, PuzzleBoardRef), ServiceError> {
        let right = kept.solution.is_none();
        if !rows::finish(&mut *conn, a.id, a.progress, right, now).await? {
            return Err(ServiceError::PositionChanged);
        }
        let ratings = if a.rated {
            Some(self.rate_try(conn, guild, user, p, right, now).await?)
        } else {
            None
        };
        kept.set_ratings(ratings.as_ref());
        rows::keep_verdict(&mut *conn, a.id, &kept.json()?).await?;
        let key = VerdictKey {
            attempt: a.id,
            progress: a.progress + 1,
            notice: None,
        };
        ended_at(self.core, p, a.progress, kept, a.day, key)
    }

    /// Rates a first try's end (`right`: solved) in the transaction that ended it: the player's
    /// and the puzzle's ratings, before and after. Both are read after the transaction's first
    /// write (the try's end) and under locks on PostgreSQL, so two tries ending at once (the
    /// daily puzzle's) each move the ratings from where the other left them.
    async fn rate_try(
        self,
        conn: &mut Connection,
        guild: GuildId,
        user: &User,
        p: &LoadedPuzzle,
        right: bool,
        now: i64,
    ) -> Result<PuzzleRatings, ServiceError> {
        let backend = self.core.store.backend();
        let key = format!("puzzle-player:{guild}:{}", user.id);
        crate::store::dialect::lock_in_transaction(&mut *conn, backend, &key).await?;
        let before = rows::player(&mut *conn, guild, user.id)
            .await?
            .map(|r| PuzzlePlayer::from(r).rating)
            .unwrap_or_default();
        let puzzle_before = rows::rating_for_update(&mut *conn, backend, p.id)
            .await?
            .ok_or_else(|| ServiceError::Internal(format!("puzzle {} is gone", p.id)))?;
        let score = if right { Score::Win } else { Score::Loss };
        let (after, puzzle_after) = rate_game(before, puzzle_before, score);
        rows::put_player(&mut *conn, guild, user.id, &user.name, after, right, now).await?;
        rows::put_rating(&mut *conn, p.id, puzzle_after, right).await?;
        Ok(PuzzleRatings {
            player: (before, after),
            puzzle: (puzzle_before, puzzle_after),
        })
    }

    /// Checks, reading only, that [`Puzzles::puzzle_move`] would take `text` from `user` now:
    /// a puzzle under way and a move that can be read and played in it (or the verdict not
    /// shown, given again), so that the bot answers a refusal before it acknowledges the
    /// command.
    pub async fn check_puzzle_move(
        self,
        guild: GuildId,
        user: UserId,
        text: &str,
    ) -> Result<(), ServiceError> {
        self.to_judge(guild, user, text).await.map(drop)
    }

    /// What `user`'s move `text` is for: the kept verdict, given again (without a puzzle
    /// under way, or when its move is typed again, the player asks for the verdict they did
    /// not see); or their try under way, its puzzle, and the move read and played on it.
    async fn to_judge(
        self,
        guild: GuildId,
        user: UserId,
        text: &str,
    ) -> Result<ToJudge, ServiceError> {
        let active = self.active_try(guild, user).await?;
        if let Some(kept) = self.unshown(guild, user).await? {
            if gives_kept(&kept, active.as_ref(), Some(text)) {
                return Ok(ToJudge::Kept(Box::new(kept)));
            }
        }
        let a = active.ok_or(ServiceError::NoPuzzle)?;
        let p = self.stored_puzzle(a.puzzle).await?;
        let mut game = p.game_at(a.progress);
        let mv = parse_move(game.position(), text).map_err(ServiceError::IllegalMove)?;
        let played = game
            .play(mv)
            .map_err(|e| ServiceError::IllegalMove(e.into()))?
            .to_string();
        Ok(ToJudge::Move(a, Box::new(p), mv, played))
    }

    /// The user's latest verdict in this server not known to have been shown (its response
    /// failed, or the bot stopped before it was sent), as it was given, and given again to
    /// the interaction `to` if named (a notice written for it, as for a new verdict, and
    /// returned as written); `None` if every verdict was shown.
    pub async fn unshown_verdict(
        self,
        guild: GuildId,
        user: UserId,
        to: Option<&ReplyTo>,
    ) -> Result<Option<Answered<PuzzleVerdict>>, ServiceError> {
        match self.unshown(guild, user).await? {
            Some(kept) => Ok(Some(self.give_kept(kept, to).await?)),
            None => Ok(None),
        }
    }

    /// Whether the verdict [`Puzzles::puzzle_move`] would give for `typed` (or
    /// [`Puzzles::unshown_verdict`], or the puzzle [`Puzzles::puzzle`] would show, for
    /// none) is the daily puzzle's, for the player alone: read before the interaction is
    /// acknowledged, so that it is acknowledged privately.
    pub async fn verdict_private(
        self,
        guild: GuildId,
        user: UserId,
        typed: Option<&str>,
    ) -> Result<bool, ServiceError> {
        let active = self.active_try(guild, user).await?;
        if let Some(kept) = self.unshown(guild, user).await? {
            if gives_kept(&kept, active.as_ref(), typed) {
                return Ok(kept.attempt.day.is_some());
            }
        }
        Ok(active.is_some_and(|a| a.day.is_some()))
    }

    async fn unshown(self, guild: GuildId, user: UserId) -> Result<Option<Kept>, ServiceError> {
        let Some(row) = rows::unshown(self.core.store.read(), guild, user).await? else {
            return Ok(None);
        };
        let (a, verdict) = stored::unshown(row)?;
        let puzzle = self.stored_puzzle(a.puzzle).await?;
        // A verdict that goes on moved the try two plies on (the reply), one that ends it one.
        let plies = if a.active() { 2 } else { 1 };
        let before = a.progress.checked_sub(plies).ok_or_else(|| {
            ServiceError::Internal(format!("try {} kept a verdict before its first move", a.id))
        })?;
        Ok(Some(Kept {
            attempt: a,
            verdict,
            puzzle,
            before,
        }))
    }

    /// A kept verdict given again as it was, to the interaction `to` if named (its notice
    /// written).
    async fn give_kept(
        self,
        kept: Kept,
        to: Option<&ReplyTo>,
    ) -> Result<Answered<PuzzleVerdict>, ServiceError> {
        check_private(kept.attempt.day, to)?;
        let (mut verdict, board) = kept_at(self.core, &kept)?;
        let mut notice = None;
        if to.is_some() {
            let mut tx = self.core.store.write().await?;
            let now = self.core.database_now_on(&mut tx).await?;
            notice = (self.verdict_notice(&mut tx, &mut verdict, &board, to, now)).await?;
            let nothing_else = || async { Ok(false) };
            self.core
                .commit_answered(tx, verdict.key().notice, nothing_else)
                .await?;
        }
        let verdict = (self.draw_verdict(&kept.puzzle, verdict, &board).await)
            .map_err(ServiceError::after(Done::PuzzleMove))?;
        Ok(Answered::with(verdict, notice))
    }

    /// Records that a verdict was shown: it is not given again.
    pub async fn verdict_shown(self, key: VerdictKey) -> Result<(), ServiceError> {
        let mut writing = self.core.store.lock().await?;
        rows::verdict_shown(writing.ex(), key.attempt, key.progress).await?;
        Ok(())
    }
}
