//! Playing: `/move`, `/tablut resign`, `/tablut draw`, `/tablut hint`, `/tablut abort`.

use super::{is_moderator, place, private, Context};
use crate::bot::{messages, Error};
use crate::service::{AnswerRef, Answering, Ended, GameId, NoticeId, ServiceError};
use poise::serenity_prelude as serenity;

/// Autocomplete for `/move`: the caller's legal moves that match what they typed.
async fn legal_moves(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let (channel, me) = (ctx.channel_id().get(), ctx.author().id.get());
    let moves = ctx
        .data()
        .service
        .games()
        .suggest_moves(channel, me, typed, 25);
    choices(moves.await)
}

/// The moves an autocomplete offers (none if they cannot be read).
pub(crate) fn choices(
    moves: Result<Vec<String>, ServiceError>,
) -> serenity::CreateAutocompleteResponse {
    let choices = moves.unwrap_or_default().into_iter();
    serenity::CreateAutocompleteResponse::new()
        .set_choices(choices.map(serenity::AutocompleteChoice::from).collect())
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
    let Some(report) = change(
        ctx,
        data.service.games().play_move(
            ctx.channel_id().get(),
            ctx.author().id.get(),
            &notation,
            interaction(ctx),
        ),
    )
    .await?
    else {
        return Ok(());
    };
    let game = report.game.id;
    let ai_next = report.game.to_move().is_some_and(|p| p.is_ai());
    show(ctx, report.notice, report.png).await;
    if ai_next {
        ai_reply(ctx, game);
    }
    Ok(())
}

/// The command's interaction, for the notice of its change to remember.
pub(crate) fn interaction(ctx: Context<'_>) -> Option<AnswerRef> {
    match ctx {
        poise::Context::Application(a) => Some(crate::bot::delivery::answer_ref(
            a.interaction.application_id.get(),
            &a.interaction.token,
        )),
        poise::Context::Prefix(_) => None,
    }
}

/// A command's interaction, as the notice of its change remembers it.
pub(crate) fn answering(ctx: Context<'_>) -> Answering {
    Answering {
        answer: interaction(ctx),
        message: None,
    }
}

/// Makes the change a command asks for: the command is acknowledged first (a deferred answer,
/// "thinking" for everyone in the channel), so Discord's three seconds cannot run out, then
/// `change` commits the change with its news. If the acknowledgement fails, the change goes
/// on all the same (Discord may have taken it): its news is shown by the edit, or posted in
/// the channel if there is no answer to edit. A refusal is its caller's alone: the deferred
/// answer is deleted and the error answers privately. A failure after the commit (drawing the
/// board, reading back what was written) is only logged: the news is in the outbox, and the
/// dispatcher shows it in the deferred answer. `None` then.
pub(crate) async fn change<T>(
    ctx: Context<'_>,
    change: impl std::future::Future<Output = Result<T, ServiceError>>,
) -> Result<Option<T>, Error> {
    change_as(ctx, false, change).await
}

/// [`change`], acknowledged for the caller alone when `private` (its answer and any refusal
/// are theirs alone: nothing to delete before a refusal).
pub(crate) async fn change_as<T>(
    ctx: Context<'_>,
    private: bool,
    change: impl std::future::Future<Output = Result<T, ServiceError>>,
) -> Result<Option<T>, Error> {
    let deferred = match private {
        true => ctx.defer_ephemeral().await,
        false => ctx.defer().await,
    };
    let command: &str = &ctx.command().qualified_name;
    if let Err(e) = deferred {
        tracing::warn!(command, error = %crate::bot::redact::error(&e), "could not acknowledge a command: its change goes on");
    }
    let refusal = match committed(change.await, command) {
        Ok(done) => return Ok(done),
        Err(refusal) => refusal,
    };
    if let (poise::Context::Application(a), false) = (ctx, private) {
        if let Err(e) = a.interaction.delete_response(ctx.http()).await {
            tracing::warn!(error = %crate::bot::redact::error(&e), "cannot delete a deferred answer before a refusal");
        }
    }
    Err(refusal.into())
}

/// A change's result as the handler of `interaction` (a command's name, a button's custom id)
/// takes it: done; or, when the change was committed but a step after it failed (drawing the
/// board, reading back what was written), `None`, logged: its news is in the outbox, and the
/// dispatcher shows it; or the refusal, the caller's alone.
pub(crate) fn committed<T>(
    changed: Result<T, ServiceError>,
    interaction: &str,
) -> Result<Option<T>, ServiceError> {
    match changed {
        Ok(done) => Ok(Some(done)),
        Err(e @ ServiceError::Recorded { .. }) => {
            tracing::error!(interaction, error = %e, "a step after a change failed: the dispatcher shows its news");
            Ok(None)
        }
        Err(refusal) => Err(refusal),
    }
}

/// Shows the news of a change a command made (`notice`, with `png` as its board, if drawn) by
/// editing the command's deferred answer; if that fails, the dispatcher sends the same edit.
pub(crate) async fn show(ctx: Context<'_>, notice: NoticeId, png: Vec<u8>) {
    let data = ctx.data();
    crate::bot::delivery::show_answer(&data.service, &data.poster, notice, png).await;
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
    let ended = change(
        ctx,
        ctx.data().service.games().resign(
            ctx.channel_id().get(),
            ctx.author().id.get(),
            Some(answering(ctx)),
        ),
    )
    .await?;
    show_ended(ctx, ended).await;
    Ok(())
}

/// Offer your opponent a draw.
#[poise::command(slash_command, guild_only)]
pub async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    let me = ctx.author().id.get();
    let offered = change(
        ctx,
        ctx.data()
            .service
            .games()
            .offer_draw(ctx.channel_id().get(), me, Some(answering(ctx))),
    )
    .await?;
    if let Some((_, Some(notice))) = offered {
        show(ctx, notice, Vec::new()).await;
    }
    Ok(())
}

/// Ask the bot for a move (only you see it).
#[poise::command(slash_command, guild_only)]
pub async fn hint(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let (ai, me) = (ctx.data().service.ai(), ctx.author().id.get());
    let hint = ai.hint(ctx.channel_id().get(), me).await?;
    let shown = ctx.send(private(messages::hint_message(&hint))).await;
    if shown.is_err() {
        // Not shown: it does not count against the cooldown (nothing stored, nothing owed).
        ai.hint_not_shown(me);
    }
    shown.map(drop).map_err(Error::from)
}

/// Abort the game: its players before the second move, moderators at any time.
#[poise::command(slash_command, guild_only)]
pub async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    let ended = change(
        ctx,
        ctx.data().service.games().abort(
            place(ctx).channel,
            ctx.author().id.get(),
            is_moderator(ctx),
            Some(answering(ctx)),
        ),
    )
    .await?;
    show_ended(ctx, ended).await;
    Ok(())
}

/// Shows the end of a game a command made.
async fn show_ended(ctx: Context<'_>, ended: Option<Ended>) {
    if let Some(Ended {
        notice: Some(notice),
        png,
        ..
    }) = ended
    {
        show(ctx, notice, png).await;
    }
}
