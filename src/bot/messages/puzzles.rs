//! Puzzles' words: a puzzle as asked, a move judged, the daily puzzle and its line, the
//! puzzles' leaderboard.

use super::*;
use crate::ai::puzzle::Kind;
use crate::service::puzzle::{DailyBoard, PuzzleRatings, PuzzleVerdict, PuzzleView};
use std::time::Duration;

/// A puzzle's task at the player's turn, under its board and in its message: "Defenders to
/// move: find the move that wins in 2 (move 1 of 2)." and the like.
pub fn puzzle_task(view: &PuzzleView) -> String {
    let side = capital(view.side.name());
    match view.kind {
        Kind::Win if view.moves == 1 => format!("{side} to move: find the move that wins."),
        Kind::Win => format!(
            "{side} to move: find the move that wins in {} (move {} of {}).",
            view.moves, view.step, view.moves
        ),
        Kind::Save => format!("{side} to move: find the only move that saves the game."),
    }
}

/// The caption under the board of a puzzle's try that ended: solved, or the solution's move.
pub fn puzzle_end_caption(solution: Option<&str>) -> String {
    match solution {
        None => "Solved!".to_string(),
        Some(solution) => format!("The answer was {solution}."),
    }
}

/// The daily puzzle, posted in the channel an admin named.
pub fn daily_puzzle(view: &crate::service::puzzle::PuzzleView) -> String {
    format!(
        "Today's puzzle: {} Press **Solve today's puzzle** (or use /tablut puzzle today) for \
         your try, seen by you alone, then answer with /tablut puzzle move. One try each: \
         /tablut puzzle leaderboard shows who solved it.",
        puzzle_task(view)
    )
}

/// The puzzles' leaderboard: the day's line, then the server's best puzzle solvers by rating.
pub fn leaderboard_text(
    daily: Option<&DailyBoard>,
    lines: &[crate::service::puzzle::PuzzlePlayer],
) -> String {
    let mut text = daily.map(daily_line).unwrap_or_default();
    if lines.is_empty() {
        text.push_str("No puzzle ratings in this server yet: solve one with /tablut puzzle play.");
    } else {
        text.push_str("**Puzzle leaderboard**");
        for (i, l) in lines.iter().enumerate() {
            text.push_str(&format!(
                "\n{}. {} {:.0} ± {:.0} ({} solved, {} failed)",
                i + 1,
                escape(&crate::echo::echo(&l.name)),
                l.rating.rating,
                2.0 * l.rating.deviation,
                l.solved,
                l.failed
            ));
        }
    }
    text
}

/// What `/tablut puzzle daily` answers: the daily puzzle's `channel` named, or (none) the
/// daily puzzle stopped, or there was none (`had`).
pub fn daily_channel_text(channel: Option<u64>, had: bool) -> String {
    match (channel, had) {
        (Some(c), _) => format!(
            "The daily puzzle will be posted in {} once a day.",
            super::channel(c)
        ),
        (None, true) => "The daily puzzle is stopped.".to_string(),
        (None, false) => {
            "There was no daily puzzle to stop: name a channel to start one.".to_string()
        }
    }
}

/// How many of the day's solvers its line names.
pub(super) const DAY_LINE_SOLVERS: usize = 10;

/// The day's line: who solved today's puzzle (mentioned, not pinged), quickest first, and
/// how many tried and did not.
pub fn daily_line(board: &DailyBoard) -> String {
    let solved: Vec<String> = board
        .results
        .iter()
        .filter(|r| r.solved)
        .enumerate()
        .map(|(i, r)| {
            format!(
                "{}. <@{}> {}",
                i + 1,
                r.user_id,
                span_words(Duration::from_millis(r.took_ms.max(0) as u64), Span::Took)
            )
        })
        .collect();
    let missed = board.results.len() - solved.len();
    // The quickest ten, so the line leaves room for the ratings below.
    let (solved, more) = match solved.len().checked_sub(DAY_LINE_SOLVERS) {
        Some(more) if more > 0 => (solved[..DAY_LINE_SOLVERS].to_vec(), more),
        _ => (solved, 0),
    };
    let mut text = format!(
        "**Today's puzzle** (puzzle {}, in {}): ",
        board.puzzle_id,
        channel(board.channel)
    );
    if board.results.is_empty() {
        text.push_str(
            "nobody has answered it yet: press **Solve today's puzzle** on its post, or use /tablut puzzle today.",
        );
    } else if solved.is_empty() {
        text.push_str("nobody has solved it yet");
    } else {
        text.push_str(&format!("solved by {}", solved.join(" · ")));
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
    }
    if missed > 0 {
        text.push_str(&format!(
            "{}{missed} not solved.",
            if solved.is_empty() { ": " } else { "; " }
        ));
    } else if !solved.is_empty() {
        text.push('.');
    }
    text.push('\n');
    text
}

/// The puzzle as asked: its task, and after a reply, the reply.
pub fn view_message(view: &PuzzleView) -> String {
    let mut text = String::new();
    if let Some(reply) = &view.reply {
        text.push_str(&format!("Right! The reply: **{reply}**.\n"));
    }
    text.push_str(&format!(
        "**{}Puzzle {}** (rated {:.0}{}): {}\nAnswer with /tablut puzzle move.",
        if view.day.is_some() {
            "Today's puzzle · "
        } else {
            ""
        },
        view.puzzle_id,
        view.rating,
        if view.rated {
            ""
        } else {
            ", a repeat: unrated"
        },
        puzzle_task(view)
    ));
    text
}

pub(super) fn puzzle_ratings_line(r: &Option<PuzzleRatings>) -> String {
    match r {
        Some(r) => format!(
            "\nYour puzzle rating: {:.0} → {:.0} · the puzzle's: {:.0} → {:.0}",
            r.player.0.rating, r.player.1.rating, r.puzzle.0.rating, r.puzzle.1.rating
        ),
        None => "\nYou had tried this puzzle before: the ratings stay as they were.".to_string(),
    }
}

/// The verdict's words.
pub fn verdict_text(verdict: &PuzzleVerdict) -> String {
    match verdict {
        PuzzleVerdict::Continue { played, view, .. } => {
            format!("**{played}** is right.\n{}", view_message(view))
        }
        PuzzleVerdict::Solved {
            played, ratings, ..
        } => format!("**{played}**: solved!{}", puzzle_ratings_line(ratings)),
        PuzzleVerdict::Failed {
            played,
            solution,
            ratings,
            ..
        } => format!(
            "**{played}** is not it: the move was **{solution}**.{}",
            puzzle_ratings_line(ratings)
        ),
    }
}
