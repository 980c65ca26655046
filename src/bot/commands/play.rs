//! Playing: `/move`, `/tablut resign`, `/tablut draw`, `/tablut hint`, `/tablut abort`.

use super::{board_reply, is_moderator, place, private, reply, Context};
use crate::bot::{buttons, messages, Error};
use crate::service::{AnswerRef, Answering, Ended, GameId, NewsAnswer, NoticeId};
use poise::serenity_prelude as serenity;

/// Autocomplete for `/move`: the caller's legal moves that match what they typed.
async fn legal_moves(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let moves = ctx
        .data()
        .service
        .suggest_moves(ctx.channel_id().get(), ctx.author().id.get(), typed, 25)
        .await
        .unwrap_or_default();
    serenity::CreateAutocompleteResponse::new().set_choices(
        moves
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect(),
    )
}

/// Make a move: from-to, like e1-e3.
#[poise::command(slash_command, guild_only, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "The move, like e1-e3 (a square lists its moves)"]
    #[autocomplete = "legal_moves"]
    #[max_length = 40]
    notation: String,
) -> Result<(), Error> {
    let data = ctx.data();
    // The move's announcement remembers this interaction, so that after a crash the outbox
    // posts it only if this answer is not shown.
    let answer = interaction(ctx);
    let report = data
        .service
        .play_move_answering(
            ctx.channel_id().get(),
            ctx.author().id.get(),
            &notation,
            answer,
        )
        .await?;
    let game = report.game.id;
    let ai_next = report.game.to_move().is_some_and(|p| p.is_ai());
    let text = messages::move_message(&report);
    answer_committed(
        ctx,
        board_reply(text, report.png),
        report.notice,
        "a move",
        false,
    )
    .await?;
    if ai_next {
        ai_reply(ctx, game);
    }
    Ok(())
}

/// The command's interaction, for a notice held for its answer to remember.
pub(crate) fn interaction(ctx: Context<'_>) -> Option<AnswerRef> {
    match ctx {
        poise::Context::Application(a) => Some(AnswerRef {
            application: a.interaction.application_id.get(),
            token: a.interaction.token.clone(),
            pressed: false,
        }),
        poise::Context::Prefix(_) => None,
    }
}

/// A command's interaction, as the notice held for its answer remembers it.
pub(crate) fn answering(ctx: Context<'_>) -> Answering {
    Answering {
        answer: interaction(ctx),
        message: None,
    }
}

/// Answers a command whose change has landed, with `notice` (its announcement, held in the
/// outbox for this answer): once the answer is shown the notice is marked so; if the answer
/// fails and is not shown, the outbox posts the notice at once; if the answer comes too late
/// to show it (the outbox has it), it says so to the caller alone, and the outbox posts it
/// (see `Service::answer_news`). Either way the change stands and nobody is told to try again.
/// With `want_message`, returns the answer's message id (one more request), when it is shown.
pub(crate) async fn answer_committed(
    ctx: Context<'_>,
    answer: poise::CreateReply,
    notice: NoticeId,
    what: &str,
    want_message: bool,
) -> Result<Option<u64>, Error> {
    let data = ctx.data();
    let outcome = data
        .service
        .answer_news(
            notice,
            data.config.discord_timeout,
            ctx.send(answer),
            || {
                // A failure can be Discord's answer lost on the way back: look before posting.
                answer_shown(ctx)
            },
        )
        .await?;
    match outcome {
        NewsAnswer::Sent(sent) => match want_message {
            true => Ok(sent.message().await.ok().map(|m| m.id.get())),
            false => Ok(None),
        },
        NewsAnswer::Failed { error, shown } => {
            let error = match &error {
                Some(e) => crate::bot::redact::error(e),
                None => "not over in time".to_string(),
            };
            tracing::warn!(
                what,
                shown = shown.is_some(),
                error,
                "the answer to {what} failed after it landed"
            );
            Ok(shown)
        }
        NewsAnswer::TooLate => {
            tracing::warn!(
                what,
                "the answer to {what} came too late to show its news: the outbox posts it"
            );
            if let Err(e) = ctx.send(private(messages::NEWS_IN_CHANNEL)).await {
                tracing::warn!(what, error = %crate::bot::redact::error(&e), "could not answer {what}");
            }
            Ok(None)
        }
    }
}

/// The interaction's answer, if it is shown (Discord has its original response): its id.
async fn answer_shown(ctx: Context<'_>) -> Option<u64> {
    match ctx {
        poise::Context::Application(a) => a
            .interaction
            .get_response(ctx.http())
            .await
            .ok()
            .map(|m| m.id.get()),
        poise::Context::Prefix(_) => None,
    }
}

/// The AI's turn in `game`, played in the background: its move follows in the channel.
pub fn ai_reply(ctx: Context<'_>, game: GameId) {
    let data = ctx.data();
    crate::bot::background::ai_turn(
        &data.tasks,
        ctx.serenity_context().http.clone(),
        data.service.clone(),
        game,
        ctx.channel_id().get(),
        data.config.ai_wait_notice,
    );
}

/// Resign the game in this channel.
#[poise::command(slash_command, guild_only)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    let ended = ctx
        .data()
        .service
        .resign_answering(
            ctx.channel_id().get(),
            ctx.author().id.get(),
            answering(ctx),
        )
        .await?;
    let by = ended
        .game
        .side_of(ctx.author().id.get())
        .map(|s| ended.game.player(s).clone());
    let text = messages::ended_message(&ended, by.as_ref());
    answer_ended(ctx, text, ended).await
}

/// Offer your opponent a draw.
#[poise::command(slash_command, guild_only)]
pub async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    let me = ctx.author().id.get();
    let (game, notice) = ctx
        .data()
        .service
        .offer_draw_answering(ctx.channel_id().get(), me, Some(answering(ctx)))
        .await?;
    let text = messages::draw_offered(&game, me);
    let answer = reply(text).components(buttons::draw_buttons(game.id));
    match notice {
        Some(notice) => {
            answer_committed(ctx, answer, notice, "a draw offer", false).await?;
        }
        None => {
            ctx.send(answer).await?;
        }
    }
    Ok(())
}

/// Ask the bot for a move (only you see it).
#[poise::command(slash_command, guild_only)]
pub async fn hint(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let hint = ctx
        .data()
        .service
        .hint(ctx.channel_id().get(), ctx.author().id.get())
        .await?;
    ctx.send(private(messages::hint_message(&hint))).await?;
    Ok(())
}

/// Abort the game: its players before the second move, moderators at any time.
#[poise::command(slash_command, guild_only)]
pub async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    let ended = ctx
        .data()
        .service
        .abort_answering(
            place(ctx).channel,
            ctx.author().id.get(),
            is_moderator(ctx),
            answering(ctx),
        )
        .await?;
    let text = messages::aborted_by(
        &ended.game,
        &crate::service::Player::User(super::caller(ctx)),
    );
    answer_ended(ctx, text, ended).await
}

/// Answers a command that ended the game.
async fn answer_ended(ctx: Context<'_>, text: String, ended: Ended) -> Result<(), Error> {
    let answer = board_reply(text, ended.png);
    match ended.notice {
        Some(notice) => {
            answer_committed(ctx, answer, notice, "an ending", false).await?;
        }
        None => {
            ctx.send(answer).await?;
        }
    }
    Ok(())
}
