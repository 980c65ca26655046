//! Playing: `/move`, `/tablut resign`, `/tablut draw`, `/tablut hint`, `/tablut abort`.

use crate::bot::caller::{is_moderator, place};
use crate::bot::protocol::command::{answer_in_order, change_as, owes_news, show_in_order};
use crate::bot::reply::{choices, private};
use crate::bot::{messages, Context, Error};
use crate::service::{Answered, Ended, GameId};
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

/// `/move`: the caller's move in the channel's game.
#[poise::command(slash_command, guild_only, rename = "move")]
pub(crate) async fn move_(
    ctx: Context<'_>,
    #[autocomplete = "legal_moves"]
    #[max_length = 40]
    notation: String,
) -> Result<(), Error> {
    let games = ctx.data().service.games();
    let (channel, me) = (ctx.channel_id().get(), ctx.author().id.get());
    let owed = owes_news(ctx, games.check_move(channel, me, &notation)).await?;
    let answer = answer_in_order(ctx, owed);
    let Some(Answered {
        done: report,
        notice,
    }) = change_as(
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
    // Shown as written: its news is the report's, worded with no read of it back.
    if let Some(notice) = &notice {
        show_in_order(ctx, owed, notice, report.png, told).await;
    }
    if ai_next {
        ai_reply(ctx, game);
    }
    Ok(())
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

/// `/tablut resign`: the caller resigns the channel's game.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    let games = ctx.data().service.games();
    let (channel, me) = (ctx.channel_id().get(), ctx.author().id.get());
    let owed = owes_news(ctx, games.check_resign(channel, me)).await?;
    let answer = Some(answer_in_order(ctx, owed));
    let ready = std::future::ready(Ok(()));
    let ended = change_as(ctx, owed, ready, games.resign(channel, me, answer)).await?;
    show_ended(ctx, owed, ended).await;
    Ok(())
}

/// `/tablut draw`: the caller offers a draw in the channel's game.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    let games = ctx.data().service.games();
    let (channel, me) = (ctx.channel_id().get(), ctx.author().id.get());
    let owed = owes_news(ctx, games.check_offer_draw(channel, me)).await?;
    let answer = Some(answer_in_order(ctx, owed));
    let ready = std::future::ready(Ok(()));
    let offer = games.offer_draw(channel, me, answer);
    let offered = change_as(ctx, owed, ready, offer).await?;
    if let Some(notice) = offered.and_then(|o| o.notice) {
        show_in_order(ctx, owed, &notice, Vec::new(), messages::news_posted()).await;
    }
    Ok(())
}

/// `/tablut hint`: the AI's move for the caller, for them alone.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn hint(ctx: Context<'_>) -> Result<(), Error> {
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

/// `/tablut abort`: the channel's game aborted (by a player early on, by a moderator).
#[poise::command(slash_command, guild_only)]
pub(crate) async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    let games = ctx.data().service.games();
    let (channel, me, moderator) = (place(ctx).channel, ctx.author().id.get(), is_moderator(ctx));
    let owed = owes_news(ctx, games.check_abort(channel, me, moderator)).await?;
    let answer = Some(answer_in_order(ctx, owed));
    let ready = std::future::ready(Ok(()));
    let aborted = games.abort(channel, me, moderator, answer);
    let ended = change_as(ctx, owed, ready, aborted).await?;
    show_ended(ctx, owed, ended).await;
    Ok(())
}

/// Shows the end of a game a command made, in the game's order (see [`show_in_order`]).
async fn show_ended(ctx: Context<'_>, owed: bool, ended: Option<Answered<Ended>>) {
    if let Some(Answered {
        done: Ended { png, .. },
        notice: Some(notice),
    }) = ended
    {
        show_in_order(ctx, owed, &notice, png, messages::news_posted()).await;
    }
}
