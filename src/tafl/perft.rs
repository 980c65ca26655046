//! Counting the leaves of the move tree: the engine's own test of move generation.

use super::movelist::MoveList;
use super::position::Position;

/// The number of leaves `depth` plies below `pos`. A game won by escape or capture is a leaf;
/// repetition is ignored. The last ply is counted in bulk, without playing its moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    leaves::<true>(pos, depth)
}

/// Perft counting every leaf by playing it: slower, used to check the bulk count.
pub fn perft_slow(pos: &Position, depth: u32) -> u64 {
    leaves::<false>(pos, depth)
}

fn leaves<const BULK: bool>(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if BULK && depth == 1 {
        return u64::from(pos.count_legal_moves());
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&mv| {
            let (next, _) = pos.make(mv);
            if next.decided().is_some() {
                1
            } else {
                leaves::<BULK>(&next, depth - 1)
            }
        })
        .sum()
}
