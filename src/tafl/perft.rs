//! Counting the leaves of the move tree: the engine's own test of move generation.

use super::movelist::MoveList;
use super::position::Position;

/// The number of leaves `depth` plies below `pos`. A game won by escape or capture is a leaf;
/// repetition is ignored. The last ply is counted in bulk, without playing its moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(pos.count_legal_moves()),
        _ => {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            list.iter()
                .map(|&mv| {
                    let (next, _) = pos.make(mv);
                    if next.decided().is_some() {
                        1
                    } else {
                        perft(&next, depth - 1)
                    }
                })
                .sum()
        }
    }
}

/// Perft counting every leaf by playing it: slower, used to check the bulk count.
pub fn perft_slow(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&mv| {
            let (next, _) = pos.make(mv);
            if next.decided().is_some() {
                1
            } else {
                perft_slow(&next, depth - 1)
            }
        })
        .sum()
}
