//! `tablut-bot perft`: the leaf count of the move tree.

use super::common::{CliError, Common};
use super::out;
use crate::tafl::perft::perft;
use clap::Args;
use std::time::Instant;

#[derive(Debug, Args)]
pub(super) struct PerftArgs {
    /// How many plies deep to count, at most 6.
    #[arg(value_parser = parse_depth)]
    pub depth: u32,
    #[command(flatten)]
    pub common: Common,
}

/// The deepest count offered: depth 6 from the start takes minutes (about 130 billion
/// leaves); depth 7 would take hours, and from depth 10 the count no longer fits in 64 bits.
pub(super) const MAX_DEPTH: u32 = 6;

fn parse_depth(s: &str) -> Result<u32, String> {
    let too_deep = || {
        format!(
            "perft counts at most {MAX_DEPTH} plies deep (depth {MAX_DEPTH} takes minutes, depth {} hours): give a depth from 0 to {MAX_DEPTH}",
            MAX_DEPTH + 1
        )
    };
    match s.trim().parse::<u64>() {
        Ok(d) if d <= u64::from(MAX_DEPTH) => Ok(d as u32),
        Ok(_) => Err(too_deep()),
        Err(_) if !s.trim().is_empty() && s.trim().bytes().all(|b| b.is_ascii_digit()) => {
            Err(too_deep())
        }
        Err(_) => Err(format!(
            "'{}' is not a depth: give a whole number from 0 to {MAX_DEPTH}",
            crate::echo::echo(s)
        )),
    }
}

pub(super) fn run(args: PerftArgs) -> Result<(), CliError> {
    let pos = args.common.position()?;
    let started = Instant::now();
    let leaves = perft(&pos, args.depth);
    let secs = started.elapsed().as_secs_f64();
    out::line(leaves)?;
    let rate = if secs > 0.0 {
        leaves as f64 / secs
    } else {
        0.0
    };
    eprintln!("{leaves} leaves in {secs:.3} s: {rate:.0} nodes/s");
    Ok(())
}
