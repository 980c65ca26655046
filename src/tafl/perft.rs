//! Counting the leaves of the move tree: the engine's own test of move generation.

use super::movelist::MoveList;
use super::position::Position;
use super::rules::Variant;
use super::tables::{Board, Size};

/// The number of leaves `depth` plies below `pos`. A game won by escape or capture is a leaf;
/// repetition is ignored. The last ply is counted in bulk, without playing its moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match pos.variant() {
        Variant::Tablut => leaves::<9, true>(pos, depth),
        Variant::Brandubh => leaves::<7, true>(pos, depth),
        Variant::Copenhagen => leaves::<11, true>(pos, depth),
        Variant::Copenhagen13 => leaves::<13, true>(pos, depth),
    }
}

/// Perft counting every leaf by playing it: slower, used to check the bulk count.
pub fn perft_slow(pos: &Position, depth: u32) -> u64 {
    match pos.variant() {
        Variant::Tablut => leaves::<9, false>(pos, depth),
        Variant::Brandubh => leaves::<7, false>(pos, depth),
        Variant::Copenhagen => leaves::<11, false>(pos, depth),
        Variant::Copenhagen13 => leaves::<13, false>(pos, depth),
    }
}

/// The count for the `N` × `N` board: its size is known at compile time all the way down.
fn leaves<const N: usize, const BULK: bool>(pos: &Position, depth: u32) -> u64
where
    Size<N>: Board,
{
    if depth == 0 {
        return 1;
    }
    if BULK && depth == 1 {
        return u64::from(pos.count_legal_moves_n::<N>());
    }
    let mut list = MoveList::new();
    pos.legal_moves_n::<N>(&mut list);
    list.iter()
        .map(|&mv| {
            let (next, _) = pos.make_n::<N>(mv);
            if next.decided_n::<N>().is_some() {
                1
            } else {
                leaves::<N, BULK>(&next, depth - 1)
            }
        })
        .sum()
}
