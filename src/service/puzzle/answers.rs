//! Answers to a puzzle: a move judged against the proven solution, the opponent's reply played
//! or the try ended, the player's and the puzzle's Glicko-2 ratings moved once per first try
//! (as lichess does), and the answer kept with its try until it is known to have been shown.

use super::puzzles::{view_at, LoadedPuzzle, Puzzles};
use crate::rating::{rate_game, Rating, Score};
use crate::service::context::Context;
use crate::service::error::{Done, ServiceError};
use crate::service::news::News;
use crate::service::notice::{Payload, PuzzleBoardRef, ReplyTo};
use crate::service::play;
use crate::service::types::{
    AnswerKey, Caption, GuildId, PuzzleAnswer, PuzzleRatings, User, UserId,
};
use crate::store::puzzles as rows;
use crate::store::Connection;
use crate::tafl::{parse_move, Move};

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

/// A try's answer not known to have been shown: the try, the answer, its puzzle, and the
/// plies into the puzzle's line before the answer.
struct Kept {
    attempt: rows::AttemptRow,
    answer: KeptAnswer,
    puzzle: LoadedPuzzle,
    before: u32,
}

/// What a move typed as a puzzle's answer answers (see `Puzzles::answered`).
enum Answered {
    Kept(Box<Kept>),
    Move(rows::AttemptRow, Box<LoadedPuzzle>, Move, String),
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

/// The answer that ended a try `progress` plies into its line, without its board, and that
/// board.
fn ended_at(
    cx: &Context,
    p: &LoadedPuzzle,
    progress: u32,
    kept: KeptAnswer,
    day: Option<i64>,
    key: AnswerKey,
) -> Result<(PuzzleAnswer, PuzzleBoardRef), ServiceError> {
    let caption = cx.caption(&match &kept.solution {
        None => Caption::PuzzleSolved,
        Some(solution) => Caption::PuzzleFailed { solution },
    });
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
fn kept_at(cx: &Context, kept: &Kept) -> Result<(PuzzleAnswer, PuzzleBoardRef), ServiceError> {
    let a = &kept.attempt;
    let key = AnswerKey {
        attempt: a.id,
        progress: a.progress,
        notice: None,
    };
    if a.status == "active" {
        let (view, board) = view_at(cx, &kept.puzzle, a.progress, a.rated, a.day);
        let played = kept.answer.played.clone();
        return Ok((PuzzleAnswer::Continue { played, view, key }, board));
    }
    ended_at(
        cx,
        &kept.puzzle,
        kept.before,
        kept.answer.clone(),
        a.day,
        key,
    )
}

impl Puzzles<'_> {
    /// Draws an answer's board into it.
    async fn draw_answer(
        self,
        p: &LoadedPuzzle,
        mut answer: PuzzleAnswer,
        board: &PuzzleBoardRef,
    ) -> Result<PuzzleAnswer, ServiceError> {
        *answer.png_mut() = self.puzzle_image(p, board).await?;
        Ok(answer)
    }

    /// Writes the notice that shows `answer` to the interaction `to` (none: no notice) in the
    /// transaction that judged it (or that gives it again), written at `now`, the database's
    /// time that transaction read, and names it in the answer's key. It
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
        now: i64,
    ) -> Result<(), ServiceError> {
        let payload = Payload {
            puzzle: Some(board.clone()),
            ..Payload::news(News::PuzzleAnswer(answer.clone()))
        };
        answer.key_mut().notice = self
            .cx
            .reply_notice(conn, "puzzle_answer", payload, to, now)
            .await?;
        Ok(())
    }

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
        let kept = KeptAnswer {
            mv: mv.to_string(),
            played,
            solution: (!right).then(|| expected.to_string()),
            ratings: None,
        };
        let mut tx = self.cx.store.write().await?;
        let now = self.cx.database_now_on(&mut tx).await?;
        let (mut answer, board) = if right && !last_step {
            self.go_on(&mut tx, &a, &p, kept, now).await?
        } else {
            self.end_try(&mut tx, (guild, user), &a, &p, kept, now)
                .await?
        };
        self.answer_notice(&mut tx, &mut answer, &board, to, now)
            .await?;
        // Landed: the try where this answer left it (moved on, or ended).
        let (id, key) = (a.id, answer.key());
        let ended = !matches!(answer, PuzzleAnswer::Continue { .. });
        let landed = || async move {
            let now = rows::attempt(self.cx.store.read(), id).await?;
            Ok(now.is_some_and(|now| {
                now.progress == key.progress && (!ended || now.status != "active")
            }))
        };
        self.cx
            .commit_answered(tx, answer.key().notice, landed)
            .await?;
        self.draw_answer(&p, answer, &board)
            .await
            .map_err(ServiceError::after(Done::PuzzleAnswer))
    }

    /// A right answer that is not the puzzle's last: the try `a` moves on past the opponent's
    /// reply, keeping the answer; the answer, and the board it shows.
    async fn go_on(
        self,
        conn: &mut Connection,
        a: &rows::AttemptRow,
        p: &LoadedPuzzle,
        kept: KeptAnswer,
        now: i64,
    ) -> Result<(PuzzleAnswer, PuzzleBoardRef), ServiceError> {
        let next = a.progress + 2;
        if !rows::advance(&mut *conn, a.id, a.progress, next, &kept.json()?, now).await? {
            return Err(ServiceError::PositionChanged);
        }
        let (view, board) = view_at(self.cx, p, next, a.rated, a.day);
        let key = AnswerKey {
            attempt: a.id,
            progress: next,
            notice: None,
        };
        let answer = PuzzleAnswer::Continue {
            played: kept.played,
            view,
            key,
        };
        Ok((answer, board))
    }

    /// The answer that ends the try `a` (solved, unless `kept` names the solution's move):
    /// the try finished, a first try rated ([`Puzzles::rate_try`]), the answer kept with the
    /// try; the answer, and the board it shows.
    async fn end_try(
        self,
        conn: &mut Connection,
        (guild, user): (GuildId, &User),
        a: &rows::AttemptRow,
        p: &LoadedPuzzle,
        mut kept: KeptAnswer,
        now: i64,
    ) -> Result<(PuzzleAnswer, PuzzleBoardRef), ServiceError> {
        let right = kept.solution.is_none();
        if !rows::finish(&mut *conn, a.id, a.progress, right, now).await? {
            return Err(ServiceError::PositionChanged);
        }
        let ratings = if a.rated {
            Some(self.rate_try(conn, guild, user, p, right, now).await?)
        } else {
            None
        };
        kept.ratings = ratings.as_ref().map(KeptAnswer::keep_ratings);
        rows::keep_answer(&mut *conn, a.id, &kept.json()?).await?;
        let key = AnswerKey {
            attempt: a.id,
            progress: a.progress + 1,
            notice: None,
        };
        ended_at(self.cx, p, a.progress, kept, a.day, key)
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
        let backend = self.cx.store.backend();
        let key = format!("puzzle-player:{guild}:{}", user.id);
        crate::store::dialect::lock_in_transaction(&mut *conn, backend, &key).await?;
        let before = rows::player(&mut *conn, guild, user.id)
            .await?
            .map(|r| r.rating)
            .unwrap_or_default();
        let puzzle_before = rows::rating_for_update(&mut *conn, backend, p.row.id)
            .await?
            .ok_or_else(|| ServiceError::Internal(format!("puzzle {} is gone", p.row.id)))?;
        let score = if right { Score::Win } else { Score::Loss };
        let (after, puzzle_after) = rate_game(before, puzzle_before, score);
        rows::put_player(&mut *conn, guild, user.id, &user.name, after, right, now).await?;
        rows::put_rating(&mut *conn, p.row.id, puzzle_after, right).await?;
        Ok(PuzzleRatings {
            player: (before, after),
            puzzle: (puzzle_before, puzzle_after),
        })
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
        let (mut answer, board) = kept_at(self.cx, &kept)?;
        if to.is_some() {
            let mut tx = self.cx.store.write().await?;
            let now = self.cx.database_now_on(&mut tx).await?;
            self.answer_notice(&mut tx, &mut answer, &board, to, now)
                .await?;
            let nothing_else = || async { Ok(false) };
            self.cx
                .commit_answered(tx, answer.key().notice, nothing_else)
                .await?;
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
}
