//! `tablut-bot backup PATH`: a consistent copy of the bot's SQLite database, safe while the
//! bot runs (see [`crate::store::backup`]).

use super::common::CliError;
use crate::store::backup::{backup, BackupError};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct BackupArgs {
    /// The file to write the copy to; it must not exist yet.
    #[arg(value_name = "PATH")]
    path: PathBuf,
    /// The database to copy: the bot's DATABASE_URL, from the environment or .env.
    #[arg(long, env = "DATABASE_URL", value_name = "URL", default_value = crate::store::DEFAULT_DATABASE_URL)]
    database_url: String,
}

pub(super) fn run(args: BackupArgs) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("tablut-bot: cannot start the runtime: {e}")))?;
    let copied = runtime
        .block_on(backup(args.database_url.trim(), &args.path))
        .map_err(|e| match e {
            BackupError::Failed { .. } => CliError::Failed(format!("tablut-bot: {e}")),
            e => CliError::Input(format!("tablut-bot: {e}")),
        })?;
    println!(
        "backed up {} to {}: {} games, {} moves, migration {}, {} bytes",
        copied.from,
        copied.to.display(),
        copied.games,
        copied.moves,
        copied.migration,
        copied.bytes
    );
    Ok(())
}
