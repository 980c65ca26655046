//! Puzzles: `/tablut puzzle play` · `today` · `move` · `leaderboard` · `daily`.

use crate::bot::caller::{caller, is_admin};
use crate::bot::protocol::command::{answer, answer_privately, change_as, show};
use crate::bot::reply::{board_reply, choices, reply};
use crate::bot::Context;
use crate::bot::{messages, Error};
use crate::service::puzzle::{PuzzleVerdict, PuzzleView, ReplyTo};
use crate::service::{Answer, Answered, ServiceError};
use poise::serenity_prelude as serenity;

/// `/tablut puzzle`: the puzzles' group.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("play", "today", "move_", "leaderboard", "daily"),
    subcommand_required
)]
pub(crate) async fn puzzle(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

fn guild(ctx: Context<'_>) -> u64 {
    ctx.guild_id().map_or(0, |g| g.get())
}

/// A reply with the board, for the caller alone when `private` (the daily puzzle's are not
/// for the others to see).
fn puzzle_reply(text: String, png: Vec<u8>, private: bool) -> poise::CreateReply {
    board_reply(text, png)
        .ephemeral(private)
        .allowed_mentions(serenity::CreateAllowedMentions::new())
}

/// The interaction a puzzle's verdict is given to: this command's deferred response, private
/// or not.
fn reply_to(ctx: Context<'_>, private: bool) -> Option<ReplyTo> {
    let answer = match private {
        true => answer(ctx).private(),
        false => answer(ctx),
    };
    (answer != Answer::None).then(|| ReplyTo {
        channel: ctx.channel_id().get(),
        answer,
    })
}

/// Whether the verdict or puzzle the caller is about to be shown is the daily puzzle's, for
/// them alone (`typed`: the move they play). Read before the command is acknowledged,
/// so that the acknowledgement is private when the verdict will be; if it cannot be read, it is
/// taken as private (nothing private is shown to the channel).
async fn private_verdict(ctx: Context<'_>, typed: Option<&str>) -> bool {
    let service = &ctx.data().service;
    service
        .puzzles()
        .verdict_private(guild(ctx), ctx.author().id.get(), typed)
        .await
        .unwrap_or(true)
}

/// Shows a verdict given to this command's interaction: its notice, written with it, edits the
/// deferred response (and the dispatcher sends the same edit if this one fails; past the
/// token's life a public verdict is posted in the channel, a private one is given again by the
/// next `/tablut puzzle play` or `move`). Once shown, the try does not give it again.
async fn show_verdict(ctx: Context<'_>, verdict: Answered<PuzzleVerdict>) {
    if let Some(notice) = &verdict.notice {
        show(ctx, notice, verdict.done.png().to_vec()).await;
    }
}

/// What `/tablut puzzle play` shows.
enum Shown {
    /// The last verdict, not shown, given again.
    Verdict(Answered<PuzzleVerdict>),
    /// The puzzle under way, or a new one.
    Puzzle(Answered<PuzzleView>),
}

/// Shows a puzzle to this command's caller: through its notice when showing it started a try
/// (see [`show_verdict`]); else (the try under way, shown again: nothing changed, and asking
/// again shows the same) directly, for the caller alone when it is the daily puzzle or the
/// response is private.
async fn show_puzzle(
    ctx: Context<'_>,
    view: Answered<PuzzleView>,
    private: bool,
) -> Result<(), Error> {
    let view = match view {
        Answered {
            done,
            notice: Some(notice),
        } => {
            show(ctx, &notice, done.png).await;
            return Ok(());
        }
        Answered { done, .. } => done,
    };
    let alone = private || view.day.is_some();
    let reply = puzzle_reply(messages::view_message(&view), view.png, alone);
    if alone {
        // The daily puzzle, even if acknowledged in public: for the caller alone all the same.
        answer_privately(ctx, reply).await;
    } else {
        ctx.send(reply).await?;
    }
    Ok(())
}

/// `/tablut puzzle play`: the caller's puzzle under way, or a new one.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn play(ctx: Context<'_>) -> Result<(), Error> {
    let private = private_verdict(ctx, None).await;
    let service = &ctx.data().service;
    let to = reply_to(ctx, private);
    let shown = async {
        // First, the last verdict if it was not shown: given again through a notice of its
        // own, as a new verdict is.
        if let Some(verdict) = service
            .puzzles()
            .unshown_verdict(guild(ctx), ctx.author().id.get(), to.as_ref())
            .await?
        {
            return Ok(Shown::Verdict(verdict));
        }
        let me = caller(ctx);
        let view = (service.puzzles())
            .puzzle(guild(ctx), &me, to.as_ref())
            .await;
        view.map(Shown::Puzzle)
    };
    // Nothing to refuse before: a puzzle is always shown (one is found, or none is there).
    let check = std::future::ready(Ok(()));
    match change_as(ctx, private, check, shown).await? {
        Some(Shown::Verdict(verdict)) => show_verdict(ctx, verdict).await,
        Some(Shown::Puzzle(view)) => show_puzzle(ctx, view, private).await?,
        // Committed, and a step after failed: the dispatcher shows it.
        None => {}
    }
    Ok(())
}

/// `/tablut puzzle today`: the caller's try at the server's daily puzzle, for them alone.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn today(ctx: Context<'_>) -> Result<(), Error> {
    // Private, whatever it answers.
    let to = reply_to(ctx, true);
    let service = &ctx.data().service;
    let me = caller(ctx);
    let puzzles = service.puzzles();
    let check = puzzles.check_daily_puzzle(guild(ctx), me.id, None);
    let daily = puzzles.daily_puzzle(guild(ctx), &me, None, to.as_ref());
    if let Some(view) = change_as(ctx, true, check, daily).await? {
        show_puzzle(ctx, view, true).await?;
    }
    Ok(())
}

/// The daily post's button, Solve today's puzzle: the presser's try at `day`'s puzzle, in a
/// response of its own for them alone (deferred by the press's handler; the post stays as it
/// is). A try started is shown through its notice, as `/tablut puzzle today` shows it; the try
/// under way is shown again by editing that response directly (nothing changed).
pub(crate) async fn daily_press(
    http: &serenity::Http,
    press: &serenity::ComponentInteraction,
    data: &crate::bot::Data,
    day: i64,
) -> Result<Answered<PuzzleView>, ServiceError> {
    let presser = crate::bot::caller::presser(press);
    let to = ReplyTo {
        channel: press.channel_id.get(),
        answer: Answer::Private(crate::bot::protocol::press::handle(press)),
    };
    let guild = press.guild_id.map_or(0, |g| g.get());
    let answered = data
        .service
        .puzzles()
        .daily_puzzle(guild, &presser, Some(day), Some(&to));
    let answered = answered.await?;
    let view = &answered.done;
    if answered.notice.is_none() {
        let mut edit = serenity::EditInteractionResponse::new()
            .content(messages::fit(messages::view_message(view)))
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if !view.png.is_empty() {
            let png = serenity::CreateAttachment::bytes(view.png.clone(), "board.png");
            edit = edit.new_attachment(png);
        }
        if let Err(e) = press.edit_response(http, edit).await {
            tracing::warn!(error = %crate::bot::redact::error(&e), "could not show the daily try under way");
        }
    }
    Ok(answered)
}

/// Autocomplete: the legal moves of your puzzle's position that match what you typed.
async fn puzzle_moves(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let service = &ctx.data().service;
    let moves = service
        .puzzles()
        .suggest_moves(guild(ctx), ctx.author().id.get(), typed, 25);
    choices(moves.await)
}

/// `/tablut puzzle move`: the caller's move in their puzzle, and its verdict.
#[poise::command(slash_command, guild_only, rename = "move")]
pub(crate) async fn move_(
    ctx: Context<'_>,
    #[autocomplete = "puzzle_moves"]
    #[max_length = 40]
    notation: String,
) -> Result<(), Error> {
    // The daily puzzle's moves are acknowledged, shown and refused privately; the others in
    // the channel.
    let private = private_verdict(ctx, Some(&notation)).await;
    let to = reply_to(ctx, private);
    let service = &ctx.data().service;
    let (puzzles, me) = (service.puzzles(), caller(ctx));
    let verdict = change_as(
        ctx,
        private,
        puzzles.check_puzzle_move(guild(ctx), me.id, &notation),
        puzzles.puzzle_move(guild(ctx), &me, &notation, to.as_ref()),
    )
    .await?;
    if let Some(verdict) = verdict {
        show_verdict(ctx, verdict).await;
    }
    Ok(())
}

/// `/tablut puzzle leaderboard`: the server's puzzle ratings.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn leaderboard(ctx: Context<'_>) -> Result<(), Error> {
    let lines = ctx
        .data()
        .service
        .puzzles()
        .leaderboard(guild(ctx), 20)
        .await?;
    let daily = ctx.data().service.puzzles().daily_board(guild(ctx)).await?;
    let text = messages::leaderboard_text(daily.as_ref(), &lines);
    ctx.send(reply(text).allowed_mentions(serenity::CreateAllowedMentions::new()))
        .await?;
    Ok(())
}

/// `/tablut puzzle daily`: the daily puzzle's channel set, or the posts stopped (Manage Server).
#[poise::command(slash_command, guild_only)]
pub(crate) async fn daily(
    ctx: Context<'_>,
    #[channel_types("Text")] channel: Option<serenity::GuildChannel>,
) -> Result<(), Error> {
    if !is_admin(ctx) {
        return Err(ServiceError::NotAnAdmin.into());
    }
    let service = &ctx.data().service;
    let chosen = channel.as_ref().map(|c| c.id.get());
    // The setting and its notice commit together; the notice is the (private) answer.
    let to = reply_to(ctx, true);
    let by = ctx.author().id.get();
    let set = service
        .puzzles()
        .set_daily_channel(guild(ctx), chosen, by, to.as_ref());
    let check = std::future::ready(Ok(()));
    if let Some(notice) = change_as(ctx, true, check, set)
        .await?
        .and_then(|s| s.notice)
    {
        show(ctx, &notice, Vec::new()).await;
    }
    Ok(())
}
