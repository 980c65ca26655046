//! The protocol (see [`super`]) for a slash command: its checks, its acknowledgement (public,
//! or for the caller alone), its commit, the edit that shows its news in the game's order, and
//! its refusals, private whatever the acknowledgement was ([`on_error`]).

use crate::bot::reply::private;
use crate::bot::{messages, redact, Context, Data, Error, InFlight};
use crate::service::{Answer, Notice, ServiceError};
use poise::serenity_prelude as serenity;

/// What the handling of one command remembers, from its checks to its errors.
#[derive(Default)]
pub struct Invocation {
    /// Counted against the caller's rate.
    pub counted: bool,
    /// Acknowledged with a deferred answer that everyone in the channel sees "thinking".
    pub deferred_publicly: bool,
    /// Counted among the commands in flight, until poise has finished with it (errors
    /// included).
    in_flight: Option<InFlight>,
}

/// `f` on what the handling of this command remembers.
pub async fn invocation<R>(ctx: Context<'_>, f: impl FnOnce(&mut Invocation) -> R) -> R {
    if ctx.invocation_data::<Invocation>().await.is_none() {
        ctx.set_invocation_data(Invocation::default()).await;
    }
    let mut data = ctx.invocation_data::<Invocation>().await.expect("just set");
    f(&mut data)
}

/// The command enters the handling: counted among the commands in flight until poise has
/// finished with it (a shutdown waits for it).
pub async fn enter(ctx: Context<'_>) {
    let counted = InFlight::enter(&ctx.data().in_flight);
    invocation(ctx, |i| i.in_flight = Some(counted)).await;
}

/// Where a command's change is shown, as the notice of its change remembers it: its deferred
/// response (none for a command without an interaction, typed as a message).
pub fn answer(ctx: Context<'_>) -> Answer {
    match ctx {
        poise::Context::Application(a) => Answer::Command(crate::bot::delivery::answer_ref(
            a.interaction.application_id.get(),
            &a.interaction.token,
        )),
        poise::Context::Prefix(_) => Answer::None,
    }
}

/// Whether a command that changes a game is to have its news posted rather than shown in its
/// response. `check` first reads what would be refused (refused at once, privately, before
/// anything is acknowledged, as [`change`] does); then, since a response's place in the channel
/// is fixed when it is made, whether the channel still owes news to be posted (the AI's move or
/// a reminder being retried, or waiting behind an earlier notice): a response made now would
/// stand above it. If so, the command is acknowledged privately and its news posted after that
/// news, in the game's order (unknown: the same, which keeps the order).
pub async fn owes_news(
    ctx: Context<'_>,
    check: impl std::future::Future<Output = Result<(), ServiceError>>,
) -> Result<bool, Error> {
    check.await?;
    let owes = ctx.data().service.outbox().owes(ctx.channel_id().get());
    Ok(owes.await.unwrap_or(true))
}

/// Where a command's change is to be shown ([`answer`]), or none when its channel `owed` news
/// ([`owes_news`]): its news is posted then.
pub fn answer_in_order(ctx: Context<'_>, owed: bool) -> Answer {
    match owed {
        true => Answer::None,
        false => answer(ctx),
    }
}

/// Makes the change a command asks for. First `check` reads whether the change would be
/// refused (no game, not a player, out of turn, an illegal move...): a refusal is answered at
/// once, privately (an ephemeral response, through [`on_error`]), before anything is
/// acknowledged, written, or waits for the write lock. Then the command is acknowledged (a
/// deferred answer, "thinking" for everyone in the channel, so Discord's three seconds cannot
/// run out), and `change` commits the change with its news. If the acknowledgement fails, the
/// change goes on all the same (Discord may have taken it): its news is shown by the edit, or
/// posted in the channel if there is no answer to edit. A refusal the commit finds (another
/// change landed first) is the caller's alone all the same (see [`answer_privately`]). A
/// failure after the commit (drawing the board) is only logged: the news is in the outbox, and
/// the dispatcher shows it in the deferred answer. `None` then.
pub async fn change<T>(
    ctx: Context<'_>,
    check: impl std::future::Future<Output = Result<(), ServiceError>>,
    change: impl std::future::Future<Output = Result<T, ServiceError>>,
) -> Result<Option<T>, Error> {
    change_as(ctx, false, check, change).await
}

/// [`change`], acknowledged for the caller alone when `private` (its answer and any refusal
/// are theirs alone).
pub async fn change_as<T>(
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
    Ok(super::committed(change.await, command)?)
}

/// Acknowledges a command: a deferred answer, for the caller alone when `private`, else
/// "thinking" for everyone in the channel (remembered: a refusal after it is sent so that it
/// stays private, see [`answer_privately`]). A failed acknowledgement is logged: the command
/// goes on (Discord may have taken it).
pub async fn acknowledge(ctx: Context<'_>, private: bool) {
    let deferred = match private {
        true => ctx.defer_ephemeral().await,
        false => ctx.defer().await,
    };
    match deferred {
        Ok(()) if !private => invocation(ctx, |i| i.deferred_publicly = true).await,
        Ok(()) => {}
        Err(e) => {
            let command = &ctx.command().qualified_name;
            tracing::warn!(%command, error = %redact::error(&e), "could not acknowledge a command: its change goes on");
        }
    }
}

/// Shows the news of a change this command made (`notice`, as its commit wrote it, with `png`
/// as its board, if drawn) by editing its deferred answer (see [`super::show`]). False when the
/// notice is not the answer's to show (it is posted in the channel).
pub async fn show(ctx: Context<'_>, notice: &Notice, png: Vec<u8>) -> bool {
    super::show(ctx.data(), notice, png).await
}

/// Shows a command's news (`notice`, with `png` as its board) in the game's order. When its
/// channel `owed` news, the notice, held for no response, is posted now after that news, and
/// the caller is `told` so privately. Otherwise the command's deferred answer is edited into
/// it; if the notice is not the answer's after all (the channel came to owe news between the
/// look and the commit, and the commit left it to be posted after that news), the answer,
/// which would stand above that news, is taken back.
pub async fn show_in_order(
    ctx: Context<'_>,
    owed: bool,
    notice: &Notice,
    png: Vec<u8>,
    told: String,
) {
    if !owed {
        if !show(ctx, notice, png).await {
            if let poise::Context::Application(a) = ctx {
                if let Err(e) = a.interaction.delete_response(ctx.http()).await {
                    tracing::warn!(error = %redact::error(&e), "cannot take back a deferred answer: it stays empty");
                }
            }
        }
        return;
    }
    let id = notice.id;
    if let Err(e) = ctx.data().service.outbox().not_answered(id).await {
        // Posted all the same, once its hold is over.
        tracing::error!(notice = id, error = ?e, "cannot release a notice: posted after its hold");
    }
    if let Err(e) = ctx.send(private(told)).await {
        tracing::warn!(error = %redact::error(&e), "cannot tell a player their news is on its way");
    }
}

/// Answers the command privately with `reply` (made ephemeral). Before any acknowledgement it
/// is the ephemeral response; after a private one, a follow-up (the first takes the
/// deferral's privacy). After a public deferral, Discord gives its first follow-up the
/// deferral's visibility whatever it asks for (and deleting the deferred answer does not
/// change that), and honours a follow-up's own privacy only after the first: so a neutral
/// first follow-up is sent and deleted at once, and `reply` follows it, private. If that first
/// follow-up fails, `reply` is not sent (it would show to everyone): logged.
pub async fn answer_privately(ctx: Context<'_>, reply: poise::CreateReply) {
    let reply = reply.ephemeral(true);
    let deferred_publicly = invocation(ctx, |i| i.deferred_publicly).await;
    if let (poise::Context::Application(a), true) = (ctx, deferred_publicly) {
        let http = ctx.http();
        let first = serenity::CreateInteractionResponseFollowup::new()
            .content(messages::NOTHING_CHANGED)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        match a.interaction.create_followup(http, first).await {
            Ok(message) => {
                if let Err(e) = a.interaction.delete_followup(http, message.id).await {
                    tracing::warn!(error = %redact::error(&e), "cannot delete the first follow-up before a private answer");
                }
            }
            Err(e) => {
                tracing::warn!(error = %redact::error(&e), "a private answer after a public deferral is not sent: its first follow-up failed, and it would show to everyone");
                return;
            }
        }
    }
    if let Err(e) = ctx.send(reply).await {
        tracing::warn!(error = %redact::error(&e), "could not send a private answer");
    }
}

/// Turns every error into a one-line ephemeral answer; logs the internal ones.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    use poise::FrameworkError as F;
    let (ctx, message) = match error {
        F::Command { error, ctx, .. } => {
            if error.is_internal() {
                tracing::error!(command = %ctx.command().qualified_name, error = %redact::error(&error), "command failed");
            }
            (ctx, error.to_string())
        }
        F::GuildOnly { ctx, .. } => (ctx, messages::GUILD_ONLY.to_string()),
        F::ArgumentParse { ctx, error, .. } => (ctx, messages::bad_option(&error.to_string())),
        F::CommandStructureMismatch {
            ctx, description, ..
        } => {
            tracing::warn!(command = %ctx.command().qualified_name, description, "options Discord should not have sent");
            (
                poise::Context::Application(ctx),
                messages::BAD_CHOICE.to_string(),
            )
        }
        F::CommandCheckFailed {
            error: Some(error),
            ctx,
            ..
        } => (ctx, error.to_string()),
        F::CooldownHit {
            ctx,
            remaining_cooldown,
            ..
        } => (ctx, messages::too_fast(remaining_cooldown.as_secs() + 1)),
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = %redact::error(&e), "could not handle an error");
            }
            return;
        }
    };
    // Private however the command was acknowledged.
    answer_privately(ctx, private(message)).await;
}
