//! A member's data: `/tablut privacy` (what the bot stores about them, as a file, for them
//! alone) and `/tablut forget-me` (asked, then confirmed with a button: their ratings and puzzle
//! data deleted, their name and id in finished games given to a stand-in). docs/PRIVACY.md says
//! what is stored, for how long and why.

use crate::bot::caller::{caller, presser};
use crate::bot::reply::private;
use crate::bot::Context;
use crate::bot::{buttons, messages, Error};
use crate::service::puzzle::ReplyTo;
use crate::service::{Answer, ServiceError, User};
use poise::serenity_prelude as serenity;

/// The largest file the bot attaches (Discord takes 10 MiB from a bot).
const MAX_FILE: usize = 10 * 1024 * 1024;

/// `/tablut privacy`: what is stored about the caller, as a file for them alone.
#[poise::command(slash_command)]
pub(crate) async fn privacy(ctx: Context<'_>) -> Result<(), Error> {
    // A read, answered directly and privately: refused at once within the caller's wait between
    // costly commands, else acknowledged first, as reading every row that names a player who
    // has played for years may take a moment.
    let me = caller(ctx);
    ctx.data().service.privacy().check_read(me.id)?;
    ctx.defer_ephemeral().await?;
    let stored = ctx.data().service.privacy().stored(&me).await?;
    let mut file = serde_json::to_vec_pretty(&stored).map_err(internal)?;
    if file.len() > MAX_FILE {
        file = serde_json::to_vec(&stored).map_err(internal)?;
    }
    if file.len() > MAX_FILE {
        return Err(Error::User(messages::privacy_too_large(file.len())));
    }
    let rows = stored.tables.iter().map(|t| t.rows.len()).sum();
    let name = format!("tablut-privacy-{}.json", me.id);
    ctx.send(
        private(messages::privacy_text(rows))
            .attachment(serenity::CreateAttachment::bytes(file, name)),
    )
    .await?;
    Ok(())
}

fn internal(e: serde_json::Error) -> Error {
    ServiceError::Internal(format!("the stored data does not serialize: {e}")).into()
}

/// `/tablut forget-me`: asks the caller to confirm forgetting them (the button does it).
#[poise::command(slash_command, rename = "forget-me")]
pub(crate) async fn forget_me(ctx: Context<'_>) -> Result<(), Error> {
    let me = caller(ctx);
    // Nothing changes yet: refused privately while something of theirs is under way, else
    // asked to confirm with a button on an answer for them alone.
    ctx.data().service.privacy().check_forget(&me).await?;
    ctx.send(private(messages::forget_me_question()).components(buttons::forget_me_buttons(me.id)))
        .await?;
    Ok(())
}

/// Who pressed Forget me on `/tablut forget-me`'s answer to `asker`, and the press as the
/// notice that shows the forgetting remembers it (its deferred update edits that private
/// answer). Refused to anyone but `asker`.
pub(crate) fn pressed_by(
    press: &serenity::ComponentInteraction,
    asker: u64,
) -> Result<(User, ReplyTo), ServiceError> {
    let presser = presser(press);
    if presser.id != asker {
        return Err(ServiceError::NotYourButton);
    }
    let to = ReplyTo {
        channel: press.channel_id.get(),
        answer: Answer::Private(crate::bot::protocol::press::handle(press)),
    };
    Ok((presser, to))
}
