//! Running the bot.

use super::common::CliError;

pub fn run() -> Result<(), CliError> {
    let _ = dotenvy::dotenv();
    match std::env::var("DISCORD_TOKEN") {
        Ok(t) if !t.trim().is_empty() => Err(CliError::Failed(
            "tablut-bot: the Discord bot is not part of this build yet; the command-line tools (replay, perft) are".into(),
        )),
        _ => Err(CliError::Failed(
            "tablut-bot: DISCORD_TOKEN is not set: put the bot's token in the environment or a .env file (see .env.example)".into(),
        )),
    }
}
