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
    let games = ctx.data().service.games();
    let (channel, me) = (ctx.channel_id().get(), ctx.author().id.get());
    let owed = owes_news(ctx, games.check_move(channel, me, &notation)).await?;
    let answer = interaction(ctx).filter(|_| !owed);
    let Some(report) = change_as(
        ctx,
        owed,
        std::future::ready(Ok(())),
        games.play_move(channel, me, &notation, answer),
    )
    .await?
    else {
        return Ok(());
    };
    let game = report.game.id;
    let ai_next = report.game.to_move().is_some_and(|p| p.is_ai());
    let told = messages::move_posted(&report.notation);
    show_in_order(ctx, owed, report.notice, report.png, told).await;
    if ai_next {
        ai_reply(ctx, game);
    }
    Ok(())
}

/// Whether a command that changes a game is to have its news posted rather than shown in its
/// response. `check` first reads what would be refused (refused at once, privately, before
/// anything is acknowledged, as [`change`] does); then, since a response's place in the channel
/// is fixed when it is made, whether the channel still owes news to be posted (the AI's move or
/// a reminder being retried, or waiting behind an earlier notice): a response made now would
/// stand above it. If so, the command is acknowledged privately and its news posted after that
/// news, in the game's order (unknown: the same, which keeps the order).
async fn owes_news(
    ctx: Context<'_>,
    check: impl std::future::Future<Output = Result<(), ServiceError>>,
) -> Result<bool, Error> {
    check.await?;
    let owes = ctx.data().service.outbox().owes(ctx.channel_id().get());
    Ok(owes.await.unwrap_or(true))
}

/// The interaction a command's change is to be shown in ([`answering`]), or none when its
/// channel `owed` news ([`owes_news`]): its news is posted then.
fn answering_in_order(ctx: Context<'_>, owed: bool) -> Answering {
    match owed {
        true => Answering::default(),
        false => answering(ctx),
    }
}

/// Shows a command's news (`notice`, with `png` as its board) in the game's order. When its
/// channel `owed` news, the notice, held for no response, is posted now after that news, and
/// the caller is `told` so privately. Otherwise the command's deferred answer is edited into
/// it; if the notice is not the answer's after all (the channel came to owe news between the
/// look and the commit, and the commit left it to be posted after that news), the answer,
/// which would stand above that news, is taken back.
async fn show_in_order(ctx: Context<'_>, owed: bool, notice: NoticeId, png: Vec<u8>, told: String) {
    if !owed {
        if !show(ctx, notice, png).await {
            if let poise::Context::Application(a) = ctx {
                if let Err(e) = a.interaction.delete_response(ctx.http()).await {
                    tracing::warn!(error = %crate::bot::redact::error(&e), "cannot take back a deferred answer: it stays empty");
                }
            }
        }
        return;
    }
    if let Err(e) = ctx.data().service.outbox().not_answered(notice).await {
        // Posted all the same, once its hold is over.
        tracing::error!(notice, error = ?e, "cannot release a notice: posted after its hold");
    }
    if let Err(e) = ctx.send(private(told)).await {
        tracing::warn!(error = %crate::bot::redact::error(&e), "cannot tell a player their news is on its way");
    }
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

/// Makes the change a command asks for. First `check` reads whether the change would be
/// refused (no game, not a player, out of turn, an illegal move...): a refusal is answered at
/// once, privately (an ephemeral response, through [`on_error`](crate::bot::on_error)), before
/// anything is acknowledged, written, or waits for the write lock. Then the command is
/// acknowledged (a deferred answer, "thinking" for everyone in the channel, so Discord's three
/// seconds cannot run out), and `change` commits the change with its news. If the
/// acknowledgement fails, the change goes on all the same (Discord may have taken it): its news
/// is shown by the edit, or posted in the channel if there is no answer to edit. A refusal the
/// commit finds (another change landed first) is the caller's alone all the same (see
/// [`answer_privately`]). A failure after the commit (drawing the board, reading back what was
/// written) is only logged: the news is in the outbox, and the dispatcher shows it in the
/// deferred answer. `None` then.
pub(crate) async fn change<T>(
    ctx: Context<'_>,
    check: impl std::future::Future<Output = Result<(), ServiceError>>,
    change: impl std::future::Future<Output = Result<T, ServiceError>>,
) -> Result<Option<T>, Error> {
    change_as(ctx, false, check, change).await
}

/// [`change`], acknowledged for the caller alone when `private` (its answer and any refusal
/// are theirs alone).
pub(crate) async fn change_as<T>(
    ctx: Context<'_>,
    private: bool,
    check: impl std::future::Future<Output = Result<(), ServiceError>>,
    change: impl std::future::Future<Output = Result<T, ServiceError>>,
) -> Result<Option<T>, Error> {
    // Refused without a write: the refusal is the first response, ephemeral.
    check.await?;
    acknowledge(ctx, private).await;
    let command: &str = &ctx.command().qualified_name;
    // A refusal found by the commit goes through `on_error`, which keeps it private.
    Ok(committed(change.await, command)?)
}

/// Acknowledges a command: a deferred answer, for the caller alone when `private`, else
/// "thinking" for everyone in the channel (remembered: a refusal after it is sent so that it
/// stays private, see [`answer_privately`]). A failed acknowledgement is logged: the command
/// goes on (Discord may have taken it).
pub(crate) async fn acknowledge(ctx: Context<'_>, private: bool) {
    let deferred = match private {
        true => ctx.defer_ephemeral().await,
        false => ctx.defer().await,
    };
    match deferred {
        Ok(()) if !private => super::invocation(ctx, |i| i.deferred_publicly = true).await,
        Ok(()) => {}
        Err(e) => {
            let command = &ctx.command().qualified_name;
            tracing::warn!(%command, error = %crate::bot::redact::error(&e), "could not acknowledge a command: its change goes on");
        }
    }
}

/// Answers the command privately with `reply` (made ephemeral). Before any acknowledgement it
/// is the ephemeral response; after a private one, a follow-up (the first takes the
/// deferral's privacy). After a public deferral, Discord gives its first follow-up the
/// deferral's visibility whatever it asks for (and deleting the deferred answer does not
/// change that), and honours a follow-up's own privacy only after the first: so a neutral
/// first follow-up is sent and deleted at once, and `reply` follows it, private. If that first
/// follow-up fails, `reply` is not sent (it would show to everyone): logged.
pub(crate) async fn answer_privately(ctx: Context<'_>, reply: poise::CreateReply) {
    let reply = reply.ephemeral(true);
    let deferred_publicly = super::invocation(ctx, |i| i.deferred_publicly).await;
    if let (poise::Context::Application(a), true) = (ctx, deferred_publicly) {
        let http = ctx.http();
        let first = serenity::CreateInteractionResponseFollowup::new()
            .content(messages::NOTHING_CHANGED)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        match a.interaction.create_followup(http, first).await {
            Ok(message) => {
                if let Err(e) = a.interaction.delete_followup(http, message.id).await {
                    tracing::warn!(error = %crate::bot::redact::error(&e), "cannot delete the first follow-up before a private answer");
                }
            }
            Err(e) => {
                tracing::warn!(error = %crate::bot::redact::error(&e), "a private answer after a public deferral is not sent: its first follow-up failed, and it would show to everyone");
                return;
            }
        }
    }
    if let Err(e) = ctx.send(reply).await {
        tracing::warn!(error = %crate::bot::redact::error(&e), "could not send a private answer");
    }
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
/// False when the notice is not the answer's to show (it is posted in the channel).
pub(crate) async fn show(ctx: Context<'_>, notice: NoticeId, png: Vec<u8>) -> bool {
    let data = ctx.data();
    crate::bot::delivery::show_answer(&data.service, &data.poster, notice, png).await
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
    let games = ctx.data().service.games();
    let (channel, me) = (ctx.channel_id().get(), ctx.author().id.get());
    let owed = owes_news(ctx, games.check_resign(channel, me)).await?;
    let answering = Some(answering_in_order(ctx, owed));
    let ready = std::future::ready(Ok(()));
    let ended = change_as(ctx, owed, ready, games.resign(channel, me, answering)).await?;
    show_ended(ctx, owed, ended).await;
    Ok(())
}

/// Offer your opponent a draw.
#[poise::command(slash_command, guild_only)]
pub async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    let games = ctx.data().service.games();
    let (channel, me) = (ctx.channel_id().get(), ctx.author().id.get());
    let owed = owes_news(ctx, games.check_offer_draw(channel, me)).await?;
    let answering = Some(answering_in_order(ctx, owed));
    let ready = std::future::ready(Ok(()));
    let offered = change_as(ctx, owed, ready, games.offer_draw(channel, me, answering)).await?;
    if let Some((_, Some(notice))) = offered {
        show_in_order(ctx, owed, notice, Vec::new(), messages::news_posted()).await;
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
    let games = ctx.data().service.games();
    let (channel, me, moderator) = (place(ctx).channel, ctx.author().id.get(), is_moderator(ctx));
    let owed = owes_news(ctx, games.check_abort(channel, me, moderator)).await?;
    let answering = Some(answering_in_order(ctx, owed));
    let ready = std::future::ready(Ok(()));
    let aborted = games.abort(channel, me, moderator, answering);
    let ended = change_as(ctx, owed, ready, aborted).await?;
    show_ended(ctx, owed, ended).await;
    Ok(())
}

/// Shows the end of a game a command made, in the game's order (see [`show_in_order`]).
async fn show_ended(ctx: Context<'_>, owed: bool, ended: Option<Ended>) {
    if let Some(Ended {
        notice: Some(notice),
        png,
        ..
    }) = ended
    {
        show_in_order(ctx, owed, notice, png, messages::news_posted()).await;
    }
}
