//! Turn notifications: `/tablut notify [mode]`. A member's setting across servers: a direct
//! message when it is their move, one daily digest, or none; without a mode, the setting is
//! shown. The answers are the member's alone.

use crate::bot::reply::private;
use crate::bot::Context;
use crate::bot::{messages, Error};
use crate::service::notify::NotifyMode;

/// How the bot tells you that a game waits on you.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum ModeArg {
    #[name = "move"]
    Move,
    #[name = "digest"]
    Digest,
    #[name = "off"]
    Off,
}

impl From<ModeArg> for NotifyMode {
    fn from(m: ModeArg) -> NotifyMode {
        match m {
            ModeArg::Move => NotifyMode::Move,
            ModeArg::Digest => NotifyMode::Digest,
            ModeArg::Off => NotifyMode::Off,
        }
    }
}

/// `/tablut notify`: the caller's turn notifications set (without a mode: shown).
#[poise::command(slash_command)]
pub(crate) async fn notify(ctx: Context<'_>, mode: Option<ModeArg>) -> Result<(), Error> {
    let me = ctx.author().id.get();
    let notifications = ctx.data().service.notifications();
    let Some(mode) = mode else {
        let setting = notifications.setting(me).await?;
        ctx.send(private(messages::notify_setting(&setting)))
            .await?;
        return Ok(());
    };
    ctx.defer_ephemeral().await?;
    let changed = notifications.set(me, mode.into()).await?;
    ctx.send(private(messages::notify_changed(&changed)))
        .await?;
    Ok(())
}
