//! Looking: `/tablut board`, `history`, `replay`, `rules`, `stats`, `leaderboard`, `games`.

use super::start::{variant, VariantArg};
use crate::bot::reply::{board_reply, reply};
use crate::bot::Context;
use crate::bot::{buttons, messages, Error};
use poise::serenity_prelude as serenity;

/// `/tablut board`: the channel's game's board.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn board(ctx: Context<'_>) -> Result<(), Error> {
    let view = ctx
        .data()
        .service
        .games()
        .board(ctx.channel_id().get())
        .await?;
    let text = messages::board_text(&view.game, view.last.as_ref());
    ctx.send(board_reply(text, view.png).allowed_mentions(serenity::CreateAllowedMentions::new()))
        .await?;
    Ok(())
}

/// `/tablut history`: the channel's game's record, as text and as a file.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn history(ctx: Context<'_>) -> Result<(), Error> {
    let h = ctx
        .data()
        .service
        .games()
        .history(ctx.channel_id().get())
        .await?;
    let file = messages::history_file(&h.game, &h.record, &h.position_record);
    let text = messages::history_text(&h.game, &h.record);
    ctx.send(
        reply(text)
            .allowed_mentions(serenity::CreateAllowedMentions::new())
            .attachment(serenity::CreateAttachment::bytes(
                file.into_bytes(),
                format!("tablut-game-{}.txt", h.game.id),
            )),
    )
    .await?;
    Ok(())
}

/// `/tablut replay`: the channel's game drawn as an animation.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn replay(ctx: Context<'_>) -> Result<(), Error> {
    // The refusals (no game, the bot busy, the caller's cooldown) come before the answer is
    // deferred, so that they are private lines; the drawing, after.
    let pending = ctx
        .data()
        .service
        .games()
        .start_replay(ctx.channel_id().get(), Some(ctx.author().id.get()))
        .await?;
    ctx.defer().await?;
    let (game, gif) = pending.draw().await?;
    ctx.send(
        reply(messages::replay_text(&game))
            .allowed_mentions(serenity::CreateAllowedMentions::new())
            .attachment(serenity::CreateAttachment::bytes(
                gif,
                format!("tablut-game-{}.gif", game.id),
            )),
    )
    .await?;
    Ok(())
}

/// `/tablut rules`: a variant's rules in brief (the one named, else the channel's game's).
#[poise::command(slash_command)]
pub(crate) async fn rules(ctx: Context<'_>, variant: Option<VariantArg>) -> Result<(), Error> {
    let rules = match ctx.guild_id() {
        Some(_) => ctx
            .data()
            .service
            .games()
            .game_in_channel(ctx.channel_id().get())
            .await?
            .map(|g| g.rules),
        None => None,
    };
    let shown = match (variant, &rules) {
        (Some(v), _) => v.into(),
        (None, Some(r)) => r.variant,
        (None, None) => crate::tafl::Variant::Tablut,
    };
    ctx.send(reply(messages::rules_message(shown, rules.as_ref())).ephemeral(true))
        .await?;
    Ok(())
}

/// `/tablut stats`: a player's record in the server (the caller's unless named).
#[poise::command(slash_command, guild_only)]
pub(crate) async fn stats(ctx: Context<'_>, player: Option<serenity::User>) -> Result<(), Error> {
    let user = player.as_ref().unwrap_or(ctx.author());
    let guild = ctx.guild_id().expect("guild only").get();
    let stats = ctx
        .data()
        .service
        .games()
        .stats(guild, user.id.get(), 5)
        .await?;
    let name = crate::bot::caller::person(user).name;
    ctx.send(
        reply(messages::stats_message(&name, &stats))
            .allowed_mentions(serenity::CreateAllowedMentions::new()),
    )
    .await?;
    Ok(())
}

/// `/tablut leaderboard`: the server's ratings of a variant, a page at a time.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn leaderboard(
    ctx: Context<'_>,
    #[rename = "variant"] game: Option<VariantArg>,
) -> Result<(), Error> {
    let guild = ctx.guild_id().expect("guild only").get();
    let board = ctx
        .data()
        .service
        .games()
        .leaderboard(guild, variant(game), 0)
        .await?;
    ctx.send(
        reply(messages::leaderboard_message(&board))
            .allowed_mentions(serenity::CreateAllowedMentions::new())
            .components(buttons::leaderboard_buttons(&board)),
    )
    .await?;
    Ok(())
}

/// `/tablut games`: the server's games running, in the channels the caller can see.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn games(ctx: Context<'_>) -> Result<(), Error> {
    let guild = ctx.guild_id().expect("guild only").get();
    // Only the games in channels the caller can see, and for the caller alone: a listing in
    // a public channel would show others what the caller may see. Its pages too are the
    // caller's alone (see `buttons::Button::Games`).
    let viewer = crate::bot::visibility::Viewer::of_command(ctx);
    let games = crate::bot::visibility::visible_games(&viewer, &ctx.data().service, guild).await?;
    let listed = messages::games_page(&games, 0);
    ctx.send(
        reply(listed.text.clone())
            .ephemeral(true)
            .components(buttons::games_buttons(&listed))
            .allowed_mentions(serenity::CreateAllowedMentions::new()),
    )
    .await?;
    Ok(())
}
