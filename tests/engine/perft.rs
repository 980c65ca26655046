//! Perft from the start position: docs/RULES.md's figures.

use tablut_bot::tafl::perft::{perft, perft_slow};
use tablut_bot::tafl::{Position, Rules};

#[test]
fn perft_1_to_3_from_the_start() {
    let pos = Position::start(Rules::default());
    assert_eq!(perft(&pos, 1), 80);
    assert_eq!(perft(&pos, 2), 4_400);
    assert_eq!(perft(&pos, 3), 353_200);
}

#[test]
fn bulk_counting_agrees_with_playing_every_leaf() {
    let pos = Position::start(Rules::default());
    assert_eq!(perft_slow(&pos, 3), perft(&pos, 3));
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "19.9 million leaves: run with cargo test --release"
)]
fn perft_4_from_the_start() {
    let pos = Position::start(Rules::default());
    assert_eq!(perft(&pos, 4), 19_913_864);
}
