//! `tablut-bot commands clear --guild ID` (or `--global`): removes the bot's slash commands
//! from one server, or the global ones, with the bot's own settings (`DISCORD_TOKEN`,
//! `DISCORD_PROXY`...). The bot registers its commands in `DEV_GUILD_ID`'s server or globally;
//! a server that has both shows every command twice, and clearing the server's copy ends that.

use super::common::CliError;
use crate::bot::BotConfig;
use clap::{ArgGroup, Args, Subcommand};
use poise::serenity_prelude as serenity;

#[derive(Debug, Subcommand)]
pub(super) enum CommandsArgs {
    /// Remove the bot's commands from one server (--guild ID), or its global commands
    /// (--global). The bot registers them again when it starts (in DEV_GUILD_ID's server if
    /// set, else globally).
    Clear(ClearArgs),
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("scope").required(true).args(["guild", "global"])))]
pub(super) struct ClearArgs {
    /// The server whose commands to remove (its numeric id): those registered while
    /// DEV_GUILD_ID named it.
    #[arg(long, value_name = "ID", value_parser = clap::value_parser!(u64).range(1..))]
    guild: Option<u64>,
    /// Remove the global commands instead (Discord may take up to an hour to show it).
    #[arg(long)]
    global: bool,
    #[command(flatten)]
    config: Box<BotConfig>,
}

pub(super) fn run(args: CommandsArgs) -> Result<(), CliError> {
    match args {
        CommandsArgs::Clear(args) => clear(args),
    }
}

fn clear(args: ClearArgs) -> Result<(), CliError> {
    args.config
        .check()
        .map_err(|e| CliError::Input(format!("tablut-bot: {e}")))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("tablut-bot: cannot start the runtime: {e}")))?;
    let line = runtime.block_on(remove(&args.config, args.guild))?;
    println!("{line}");
    Ok(())
}

/// Removes the commands of `guild` (none: the global ones); what was done, in one line.
async fn remove(config: &BotConfig, guild: Option<u64>) -> Result<String, CliError> {
    let (_, http) = config
        .discord_http()
        .map_err(|e| CliError::Failed(format!("tablut-bot: {}", e.without_url())))?;
    let app = http
        .get_current_application_info()
        .await
        .map_err(|e| refused(e, guild))?;
    http.set_application_id(app.id);
    let removed = match guild {
        Some(id) => {
            let guild = serenity::GuildId::new(id);
            let before = http.get_guild_commands(guild).await;
            let before = before.map_err(|e| refused(e, Some(id)))?;
            if !before.is_empty() {
                guild
                    .set_commands(&http, Vec::new())
                    .await
                    .map_err(|e| refused(e, Some(id)))?;
            }
            before.len()
        }
        None => {
            let before = http
                .get_global_commands()
                .await
                .map_err(|e| refused(e, None))?;
            if !before.is_empty() {
                serenity::Command::set_global_commands(&http, Vec::new())
                    .await
                    .map_err(|e| refused(e, None))?;
            }
            before.len()
        }
    };
    Ok(match (guild, removed) {
        (Some(id), 0) => format!("server {id} has none of the bot's commands: nothing removed"),
        (Some(id), n) => format!(
            "removed the bot's {n} commands from server {id}; its global commands are left as \
             they are"
        ),
        (None, 0) => "the bot has no global commands: nothing removed".to_string(),
        (None, n) => format!(
            "removed the bot's {n} global commands (Discord may take up to an hour to show it \
             everywhere)"
        ),
    })
}

/// Discord's refusal as one line saying what to do.
fn refused(e: serenity::Error, guild: Option<u64>) -> CliError {
    let status = match &e {
        serenity::Error::Http(http) => http.status_code().map(|s| s.as_u16()),
        _ => None,
    };
    let line = match (status, guild) {
        (Some(401), _) => {
            "Discord refused the token (401): copy it again from the Bot page of the developer portal"
                .to_string()
        }
        (Some(403 | 404), Some(id)) => format!(
            "Discord refused to list or change the commands of server {id} ({}): check the \
             server's id, and that the bot is in it with the applications.commands scope",
            status.unwrap_or_default()
        ),
        _ => format!(
            "Discord refused the request: {}",
            crate::bot::redact::redact(&e.to_string())
        ),
    };
    CliError::Failed(format!("tablut-bot: {line}"))
}
