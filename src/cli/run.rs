//! Running the bot: settings from the environment or `.env`, logs with tracing, Ctrl-C stops it.

use super::common::CliError;
use crate::bot::{self, BotConfig};

pub fn run() -> Result<(), CliError> {
    let _ = dotenvy::dotenv();
    let config = BotConfig::from_env().map_err(|e| CliError::Failed(format!("tablut-bot: {e}")))?;
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,serenity=warn,poise=warn,sqlx=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("tablut-bot: cannot start the runtime: {e}")))?;
    runtime
        .block_on(bot::run(config))
        .map_err(|e| CliError::Failed(format!("tablut-bot: {e}")))
}
