//! The command line: one binary runs the bot (the default) and the tools beside it.

mod analyze;
mod common;
mod engine;
mod perft;
mod render;
mod replay;
mod run;
mod selfplay;

pub use common::{CliError, Common};

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "tablut-bot",
    version,
    about = "Tablut, the Sami game of the king's escape, on Discord and on the command line"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the Discord bot (the default), configured by the environment or a .env file.
    Run,
    /// Apply moves to a position and print the result as one JSON object.
    Replay(replay::ReplayArgs),
    /// Count the leaves of the move tree to a depth.
    Perft(perft::PerftArgs),
    /// Ask the AI for the best move: prints {"best","score","depth","nodes","time_ms","pv"}.
    Analyze(analyze::AnalyzeArgs),
    /// Play two AI configurations against each other and report the Elo difference (--tune: tune the weights).
    Selfplay(selfplay::SelfplayArgs),
    /// Speak the OpenTafl engine protocol on stdin and stdout.
    Engine(engine::EngineArgs),
    /// Draw the board after some moves as a PNG, or the whole game as an animated GIF.
    Render(render::RenderArgs),
}

/// Parses the arguments and runs the command; the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command.unwrap_or(Command::Run) {
        Command::Run => run::run(),
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Selfplay(args) => selfplay::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Render(args) => render::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(e.code())
        }
    }
}
