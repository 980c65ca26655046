//! The command line: one binary runs the bot (the default) and the tools beside it.

mod analyze;
mod backup;
mod commands;
mod common;
mod engine;
mod fitscale;
mod out;
mod perft;
mod puzzles;
mod render;
mod replay;
mod review;
mod run;
mod selfplay;
mod versus;

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
    /// Run the Discord bot (the default), configured by the environment, a .env file or flags.
    Run(Box<crate::bot::BotConfig>),
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
    /// Play a match against another tafl program run from its path (OpenTafl engine protocol or hnefatafl.org's text protocol), both colours, at equal time per move.
    Versus(versus::VersusArgs),
    /// Draw the board after some moves as a PNG, or the whole game as an animated GIF.
    Render(render::RenderArgs),
    /// Find puzzles in the AI's games against itself and write them as JSON.
    Puzzles(puzzles::PuzzlesArgs),
    /// Review a finished game as /tablut analysis does: each move judged, each side's accuracy (JSON); --graph draws the evaluation graph.
    Review(review::ReviewArgs),
    /// Fit the analysis's logistic scale on self-play outcomes (maximum likelihood).
    FitScale(fitscale::FitScaleArgs),
    /// List every variant's rules presets, one `VARIANT PRESET` a line, each variant's default first.
    Presets,
    /// Copy the bot's SQLite database to a new file, consistently, while the bot runs.
    Backup(backup::BackupArgs),
    /// Manage the bot's slash commands on Discord (clear a server's, or the global ones).
    #[command(subcommand)]
    Commands(commands::CommandsArgs),
}

/// Parses the arguments and runs the command; the process exit code. `.env` is loaded first,
/// so that the bot's settings read from it (the environment overrides it).
pub fn main() -> ExitCode {
    let _ = dotenvy::dotenv();
    crate::bot::config::clear_blank_variables();
    let command = match parse(std::env::args_os()) {
        Ok(Cli { command: Some(c) }) => c,
        Ok(Cli { command: None }) => match parse(["tablut-bot", "run"]) {
            Ok(Cli { command: Some(c) }) => c,
            Ok(_) => unreachable!("run is a subcommand"),
            Err(e) => return e,
        },
        Err(e) => return e,
    };
    let result = match command {
        Command::Run(config) => run::run(*config),
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Selfplay(args) => selfplay::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Versus(args) => versus::run(args),
        Command::Render(args) => render::run(args),
        Command::Puzzles(args) => puzzles::run(args),
        Command::Review(args) => review::run(args),
        Command::FitScale(args) => fitscale::run(args),
        Command::Presets => presets(),
        Command::Backup(args) => backup::run(args),
        Command::Commands(args) => commands::run(args),
    };
    match result {
        Ok(()) | Err(CliError::Closed) => ExitCode::SUCCESS,
        Err(e) => {
            // No error shows a password or token it may hold (a DATABASE_URL's, say).
            eprintln!("{}", crate::bot::redact::redact(&e.to_string()));
            ExitCode::from(e.code())
        }
    }
}

/// `tablut-bot presets`: `brandubh aagenielsen`, one line per variant and preset.
fn presets() -> Result<(), CliError> {
    let mut text = String::new();
    for p in crate::tafl::Preset::ALL {
        text.push_str(&format!("{} {}\n", p.variant().name(), p.name()));
    }
    out::line(text.trim_end())
}

/// The command line parsed, or clap's answer printed (help, version, or an error: a bad value
/// in one line, any echoed input cut short) and the exit code.
fn parse<I, T>(args: I) -> Result<Cli, ExitCode>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let mut e = match Cli::try_parse_from(args) {
        Ok(cli) => return Ok(cli),
        Err(e) => e,
    };
    if e.kind() == ErrorKind::ValueValidation {
        let line = crate::bot::config::one_line(&e).to_string();
        eprintln!("tablut-bot: {}", crate::bot::redact::redact(&line));
        return Err(ExitCode::from(2));
    }
    // Echoed input cut short; the tip that would repeat it whole is dropped.
    let long: Vec<(ContextKind, String)> = e
        .context()
        .filter_map(|(kind, value)| match value {
            ContextValue::String(v) if v.chars().count() > crate::echo::ECHO_LIMIT => {
                Some((kind, crate::echo::echo(v)))
            }
            _ => None,
        })
        .collect();
    if !long.is_empty() {
        e.insert(ContextKind::Suggested, ContextValue::StyledStrs(vec![]));
    }
    for (kind, short) in long {
        e.insert(kind, ContextValue::String(short));
    }
    if e.use_stderr() {
        // An argument echoed in the error may be a URL with a password.
        eprint!("{}", crate::bot::redact::redact(&e.render().to_string()));
    } else {
        let _ = e.print();
    }
    Err(ExitCode::from(e.exit_code().clamp(0, 255) as u8))
}
