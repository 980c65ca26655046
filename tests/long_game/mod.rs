//! A long legal game for the tests that measure what one costs (tests/costs.rs,
//! tests/replay_load.rs).

use std::collections::HashSet;
use tablut_bot::tafl::{Game, MoveList, Rules};

/// A legal game of exactly `plies` moves, chosen by a generator seeded with `seed`, in which no
/// position ever occurs twice and no move ends the game.
pub(crate) fn lasting_game(rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = Game::new(rules);
    let mut seen = HashSet::from([game.position().hash()]);
    let mut list = MoveList::new();
    while game.moves().len() < plies {
        list.clear();
        game.position().legal_moves(&mut list);
        let moves = list.as_mut_slice();
        rng.shuffle(moves);
        let pos = *game.position();
        let mv = moves
            .iter()
            .copied()
            .find(|&mv| {
                let (after, _) = pos.play(mv).expect("a listed move is legal");
                after.decided().is_none() && after.has_legal_move() && !seen.contains(&after.hash())
            })
            .expect("some move keeps the game going");
        game.play(mv).unwrap();
        seen.insert(game.position().hash());
        assert!(!game.outcome().is_over());
    }
    game
}
