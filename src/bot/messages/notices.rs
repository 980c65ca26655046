//! The words of a notice the outbox delivers.

use super::*;
use crate::service::News;

/// The words of a notice the outbox delivers: what it tells (see [`News`]), worded at
/// delivery. A tournament game's news opens with the tournament, the round and the game.
pub fn notice_text(news: &News) -> String {
    let text = news_words(news);
    let opened = matches!(news, News::Tournament(_));
    match news.game().and_then(|g| g.tournament.as_ref()) {
        Some(tag) if !opened => format!("{}\n{text}", super::tournaments::match_line(tag)),
        _ => text,
    }
}

fn news_words(news: &News) -> String {
    match news {
        News::Moved(report) => move_message(report),
        News::Ended { ended, by } => ended_message(ended, by.as_ref()),
        News::Clock(event) => clock_message(event),
        News::Started(game) => started_message(game),
        News::ChannelGone(game) => format!(
            "{} between {} and {} was aborted: its thread is gone. It does not count.",
            capital(&the_game(game.variant())),
            bold(&game.attackers),
            bold(&game.defenders)
        ),
        News::Challenge(c) => challenge_message(c),
        News::ChallengeClosed { challenge, thread } => challenge_closed(challenge, *thread),
        News::DrawOffered { game, by } => draw_offered(game, *by),
        News::DrawDeclined { game, by } => draw_declined(game, *by),
        News::NotStarted { why } => not_started(why),
        News::DailyPuzzle(view) => daily_puzzle(view),
        News::AiWaiting { game, ahead } => ai_waiting(game, *ahead),
        News::AnalysisProgress {
            game,
            reviewed,
            total,
        } => analysis_progress(game, *reviewed, *total),
        News::AnalysisSummary(summary) => analysis_summary(summary),
        News::PuzzleVerdict(verdict) => super::verdict_text(verdict),
        News::PuzzleShown(view) => super::view_message(view),
        News::DailyPuzzleChannel { channel, had } => super::daily_channel_text(*channel, *had),
        News::Forgotten(done) => forgotten_text(done),
        News::Tournament(news) => super::tournaments::notice(news),
        News::Vacation(v) => vacation_notice(v),
        // A turn's direct message, as its game's message is not known yet (the dispatcher
        // words it with the link: `turn_dm`).
        News::TurnDm(dm) => turn_dm(dm, None),
        News::Digest(digest) => digest_text(digest),
        News::DmsRefused(refused) => dms_refused_text(refused),
        // Worded when it was written, before notices were typed.
        News::Worded { text, .. } => text.clone(),
    }
}
