//! Running the bot: settings from flags, the environment or `.env`, logs with tracing, Ctrl-C
//! or SIGTERM stops it.

use super::common::CliError;
use crate::bot::{self, BotConfig};

pub(super) fn run(config: BotConfig) -> Result<(), CliError> {
    // Settings that contradict each other are refused before anything starts, as a bad value is.
    config
        .check()
        .map_err(|e| CliError::Input(format!("tablut-bot: {e}")))?;
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(&config.log))
        .with_writer(bot::redact::Writer(std::io::stderr))
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("tablut-bot: cannot start the runtime: {e}")))?;
    runtime
        .block_on(bot::run(config))
        .map_err(|e| CliError::Failed(format!("tablut-bot: {e}")))
}
