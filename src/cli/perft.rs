//! `tablut-bot perft`: the leaf count of the move tree.

use super::common::{CliError, Common};
use crate::tafl::perft::perft;
use clap::Args;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// How many plies deep to count.
    pub depth: u32,
    #[command(flatten)]
    pub common: Common,
}

pub fn run(args: PerftArgs) -> Result<(), CliError> {
    let pos = args.common.position()?;
    let started = Instant::now();
    let leaves = perft(&pos, args.depth);
    let secs = started.elapsed().as_secs_f64();
    println!("{leaves}");
    let rate = if secs > 0.0 {
        leaves as f64 / secs
    } else {
        0.0
    };
    eprintln!("{leaves} leaves in {secs:.3} s: {rate:.0} nodes/s");
    Ok(())
}
