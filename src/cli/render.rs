//! `tablut-bot render`: the board image of a position after some moves, or a game's replay.

use super::common::{moves_or_stdin, CliError, Common};
use crate::render::{board_png, replay_gif};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct RenderArgs {
    #[command(flatten)]
    pub common: Common,
    /// Where to write the image (a PNG, or a GIF with --replay).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Write an animated GIF of the whole game instead of the last position's PNG.
    #[arg(long)]
    pub replay: bool,
    /// A caption under the board (PNG only).
    #[arg(long, value_name = "TEXT")]
    pub caption: Option<String>,
    /// Moves in any accepted form (e2-c2, e2c2, "e2 c2", Ke5-e8, c2); read from stdin if none.
    pub moves: Vec<String>,
}

pub(super) fn run(args: RenderArgs) -> Result<(), CliError> {
    if args.replay && args.caption.is_some() {
        return Err(CliError::Input(
            "--caption is for a board PNG; a --replay captions every frame with its move".into(),
        ));
    }
    let moves = moves_or_stdin(args.moves)?;
    let game = args.common.game_after(&moves)?;
    let bytes = if args.replay {
        replay_gif(&game, &|ply| {
            crate::bot::messages::replay_caption(&game, ply)
        })
    } else {
        board_png(
            game.position(),
            game.moves().last(),
            args.caption.as_deref(),
        )
    };
    std::fs::write(&args.out, bytes)
        .map_err(|e| CliError::Failed(format!("cannot write {}: {e}", args.out.display())))
}
