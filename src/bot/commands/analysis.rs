//! `/tablut analysis`: the post-game analysis of one of the channel's finished games.

use crate::bot::protocol::command::change;
use crate::bot::reply::reply;
use crate::bot::Context;
use crate::bot::{messages, Error};
use crate::service::analysis::AnalysisStatus;
use poise::serenity_prelude as serenity;

/// Autocomplete: the channel's finished games, newest first (at most 25).
async fn finished_games(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let games = ctx
        .data()
        .service
        .analysis()
        .finished_games(ctx.channel_id().get())
        .await
        .unwrap_or_default();
    let typed = typed.trim().trim_start_matches('#').to_lowercase();
    let choices: Vec<serenity::AutocompleteChoice> = games
        .iter()
        .map(|g| (messages::game_choice(g), g.id))
        .filter(|(label, id)| {
            typed.is_empty()
                || id.to_string().starts_with(&typed)
                || label.to_lowercase().contains(&typed)
        })
        .take(25)
        .map(|(label, id)| serenity::AutocompleteChoice::new(label, id.to_string()))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// `/tablut analysis`: a finished game's review started (the channel's last, or the one named).
#[poise::command(slash_command, guild_only)]
pub(crate) async fn analysis(
    ctx: Context<'_>,
    #[autocomplete = "finished_games"]
    #[max_length = 20]
    game: Option<String>,
) -> Result<(), Error> {
    let id = match game.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => match text.trim_start_matches('#').parse::<i64>() {
            Ok(id) if id > 0 => Some(id),
            _ => return Err(Error::User(messages::not_a_game(text))),
        },
    };
    let data = ctx.data();
    // Acknowledged at once (replaying the game and drawing its graph may take a while); a
    // refusal is the caller's alone. A started analysis's progress is in the outbox with the
    // request: posted in the channel whatever becomes of this answer.
    let (analysis, channel) = (data.service.analysis(), ctx.channel_id().get());
    // Refused (not a finished game of the channel, nothing to review, the queue full, the
    // caller's cooldown) before anything is acknowledged: at once, privately.
    let request = analysis
        .prepare(channel, id, Some(ctx.author().id.get()))
        .await?;
    let Some(status) = change(ctx, std::future::ready(Ok(())), analysis.start(request)).await?
    else {
        return Ok(());
    };
    let none = serenity::CreateAllowedMentions::new;
    match status {
        AnalysisStatus::Finished(report) => {
            let text = messages::analysis_summary(&report.summary());
            let mut answer = reply(text).allowed_mentions(none());
            if !report.png.is_empty() {
                answer = answer.attachment(serenity::CreateAttachment::bytes(
                    report.png,
                    "analysis.png",
                ));
            }
            ctx.send(answer).await?;
        }
        AnalysisStatus::Running {
            game,
            reviewed,
            total,
        } => {
            ctx.send(
                reply(messages::analysis_running(&game, reviewed, total)).allowed_mentions(none()),
            )
            .await?;
        }
        AnalysisStatus::Started { game, total } => {
            // Under way before the answer, which may fail.
            crate::bot::background::analysis(&data.tasks, data.service.clone(), game.id);
            ctx.send(reply(messages::analysis_started(&game, total)).allowed_mentions(none()))
                .await?;
        }
    }
    Ok(())
}
